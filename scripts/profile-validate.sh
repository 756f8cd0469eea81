#!/usr/bin/env bash
# Where POST /v1/validate spends its instructions: the same body as scripts/bench-validate.sh
# (500 product rows, product,price,inventory,shipping), sent REQUESTS times by one client while
# the gateway or the validator runs under callgrind. Prints the top functions, inclusive and
# self. callgrind counts instructions, not seconds, so the profile does not depend on what else
# the machine is doing. For where the seconds go under load, see scripts/perf-validate.sh.
#
#   scripts/profile-validate.sh [gateway|validator] [requests=200] [rows=500]
#   PLATFORM=all scripts/profile-validate.sh gateway    (the body with that `platform` value)
#
# The callgrind output stays in $OUT (default /tmp/dq-profile-<service>.out) for
# callgrind_annotate --inclusive=yes or kcachegrind.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
WHO="${1:-gateway}"
REQUESTS="${2:-200}"
ROWS="${3:-500}"
OUT="${OUT:-/tmp/dq-profile-$WHO.out}"
case "$WHO" in gateway|validator) ;; *) echo "usage: $0 [gateway|validator] [requests] [rows]" >&2; exit 2 ;; esac

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqprof
GRIND="valgrind --tool=callgrind --callgrind-out-file=$OUT --dump-instr=no --collect-atstart=yes"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
if [ "$WHO" = gateway ]; then GATEWAY_WRAP=$GRIND; else VALIDATOR_WRAP=$GRIND; fi

start_local_stack
create_account_key
make_validate_body "$ROWS"
if [ -n "${PLATFORM:-}" ]; then
  python3 - "$WORK/body.json" "$PLATFORM" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
body["platform"] = sys.argv[2]
json.dump(body, open(sys.argv[1], "w"))
PY
fi
# One keep-alive connection, REQUESTS calls: what each call costs, without a load generator.
python3 - "$GW" "$KEY" "$WORK/body.json" "$REQUESTS" <<'PY'
import http.client, sys
port, key, path, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
body = open(path, "rb").read()
c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
for _ in range(n):
    c.request("POST", "/v1/validate", body, {"X-API-Key": key, "Content-Type": "application/json"})
    r = c.getresponse(); r.read()
    if r.status != 200: sys.exit(f"HTTP {r.status}")
print(f"{n} calls answered 200")
PY
if [ "$WHO" = gateway ]; then kill -TERM "$GW_PID"; wait "$GW_PID" || true
else kill -TERM "$VAL_PID"; wait "$VAL_PID" || true; fi
echo "== $WHO, $REQUESTS calls of $ROWS rows: inclusive"
callgrind_annotate --inclusive=yes "$OUT" 2>/dev/null | sed -n '1,60p' | cut -c1-200
echo "== self"
callgrind_annotate "$OUT" 2>/dev/null | sed -n '1,50p' | cut -c1-200
