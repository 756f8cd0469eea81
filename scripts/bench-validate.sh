#!/usr/bin/env bash
# POST /v1/validate throughput and latency: 500 product rows from bench/tools/gen_catalog.py
# (product, price, inventory, shipping), wrk -t2 -c32 for DURATION seconds (default 10). Starts
# its own redis-server, dq-validator and dq-gateway on free loopback ports and stops them after.
# Also prints the CPU time (ms) each service used per request.
#
# With PLATFORMS="none all" (any `platform` values; "none" sends none) it runs one stack and
# alternates the bodies ROUNDS times (default 2), so the platforms are compared side by side on
# the same machine state, then prints each platform's median requests/s (issue 32's goal:
# platform=all within 10% of none). A value ending in "+clean" ("all+clean", "none+clean") sends
# the channel-clean variant of the body (bench/tools/channel_clean.py: link, condition, plain
# descriptions, no placeholder images), an extra figure beside the goal's.
#
#   scripts/bench-validate.sh [rows=500] [duration=10]     (needs: ./dev build, wrk, python3)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-500}"
DURATION="${2:-10}"
exec 2>/dev/null

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqbench

start_validate_load "$ROWS"

one_run() {  # one_run BODY LABEL: a wrk run of DURATION seconds; prints its figures
  local body=$1 label=$2
  sed "s|$WORK/body.json|$body|" "$WORK/post.lua" >"$WORK/post-run.lua"
  local answer
  answer=$(curl -s -o "$WORK/answer.json" -w '%{http_code} %{size_download}' -X POST \
    "http://127.0.0.1:$GW/v1/validate" -H "X-API-Key: $KEY" -H "Content-Type: application/json" \
    --data-binary "@$body")
  echo "== POST /v1/validate, $ROWS product rows, product,price,inventory,shipping, platform $label"
  # The answer's md5: builds compared side by side must answer byte for byte the same.
  echo "body: $(stat -c %s "$body") bytes; answer: HTTP ${answer% *}, ${answer#* } bytes," \
    "md5 $(md5sum <"$WORK/answer.json" | cut -d' ' -f1)"
  local gw0 val0 gw1 val1 requests
  gw0=$(cpu_ms "$GW_PID"); val0=$(cpu_ms "$VAL_PID")
  wrk -t2 -c32 -d"${DURATION}s" --latency -s "$WORK/post-run.lua" \
    "http://127.0.0.1:$GW/v1/validate" >"$WORK/wrk.txt"
  gw1=$(cpu_ms "$GW_PID"); val1=$(cpu_ms "$VAL_PID")
  grep -E "Requests/sec|50%|90%|99%|Non-2xx|requests in" "$WORK/wrk.txt"
  requests=$(awk '/requests in/{print $1}' "$WORK/wrk.txt")
  awk -v g="$((gw1 - gw0))" -v v="$((val1 - val0))" -v n="$requests" \
    'BEGIN{printf "CPU per request: gateway %.2f ms, validator %.2f ms\n", g/n, v/n}'
  if grep -q "Non-2xx" "$WORK/wrk.txt"; then
    echo "WARNING: some answers were not 2xx; this run's requests/s is not a throughput"
  fi
  echo "$label $(awk '/Requests\/sec/{print $2}' "$WORK/wrk.txt")" >>"$WORK/rps.txt"
}

if [ -z "${PLATFORMS:-}" ]; then
  one_run "$WORK/body.json" none
  exit 0
fi
for p in $PLATFORMS; do
  python3 - "$WORK/body.json" "$WORK/body-$p.json" "$p" "$ROOT/bench/tools" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
platform = sys.argv[3]
if platform.endswith("+clean"):  # the channel-clean variant (bench/tools/channel_clean.py)
    sys.path.insert(0, sys.argv[4])
    import channel_clean
    channel_clean.clean(body)
    platform = platform[: -len("+clean")]
if platform != "none":
    body["platform"] = platform
json.dump(body, open(sys.argv[2], "w"))
PY
done
for _ in $(seq 1 "${ROUNDS:-2}"); do
  for p in $PLATFORMS; do one_run "$WORK/body-$p.json" "$p"; done
done
echo "# median requests/s per platform, $(nproc) cores, load average:$(uptime | sed 's/.*load average://')"
for p in $PLATFORMS; do
  printf 'RESULT platform %-16s %s req/s\n' "$p" "$(awk -v p="$p" '$1 == p {print $2}' "$WORK/rps.txt" |
    sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
done
