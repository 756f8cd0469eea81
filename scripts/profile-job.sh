#!/usr/bin/env bash
# Where an upload and its job spend the gateway's instructions: one gen_catalog product file
# (ROWS rows, product,price,inventory,shipping) uploaded to a gateway running under callgrind,
# worked to `done` by that same gateway's workers, then the top functions by inclusive and self
# cost. callgrind counts instructions, not seconds, so the profile does not depend on what else
# the machine is doing. About a minute for 100,000 rows.
#
#   scripts/profile-job.sh [rows=100000]
#
# The callgrind output stays in $OUT (default /tmp/dq-profile-job.out) for
# callgrind_annotate --inclusive=yes or kcachegrind. See also scripts/profile-validate.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-100000}"
OUT="${OUT:-/tmp/dq-profile-job.out}"

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqprofjob
# shellcheck disable=SC2034  # read by lib/local-stack.sh
GATEWAY_WRAP="valgrind --tool=callgrind --callgrind-out-file=$OUT --dump-instr=no"

start_local_stack
create_account_key

python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$ROWS" --out "$WORK/products.csv"
python3 "$ROOT/bench/tools/upload_to_done.py" "http://127.0.0.1:$GW" "$KEY" "$WORK/products.csv" \
  "$WORK/products.csv.mapping.json" product,price,inventory,shipping
kill -TERM "$GW_PID"; wait "$GW_PID" || true
echo "== gateway, upload and job of $ROWS product rows: inclusive"
callgrind_annotate --inclusive=yes "$OUT" 2>/dev/null | sed -n '1,70p' | cut -c1-200
echo "== self"
callgrind_annotate "$OUT" 2>/dev/null | sed -n '1,50p' | cut -c1-200
