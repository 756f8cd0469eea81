#!/usr/bin/env bash
# POST /v1/validate throughput and latency: 500 product rows from bench/tools/gen_catalog.py
# (product, price, inventory, shipping), wrk -t2 -c32 for DURATION seconds (default 10). Starts
# its own redis-server, dq-validator and dq-gateway on free loopback ports and stops them after.
# Also prints the CPU time (ms) each service used per request.
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
answer=$(curl -s -o "$WORK/answer.json" -w '%{http_code} %{size_download}' -X POST "http://127.0.0.1:$GW/v1/validate" \
  -H "X-API-Key: $KEY" -H "Content-Type: application/json" --data-binary "@$WORK/body.json")
echo "== POST /v1/validate, $ROWS product rows, product,price,inventory,shipping"
echo "body: $(stat -c %s "$WORK/body.json") bytes; answer: HTTP ${answer% *}, ${answer#* } bytes"
gw0=$(cpu_ms "$GW_PID"); val0=$(cpu_ms "$VAL_PID")
wrk -t2 -c32 -d"${DURATION}s" --latency -s "$WORK/post.lua" "http://127.0.0.1:$GW/v1/validate" >"$WORK/wrk.txt"
gw1=$(cpu_ms "$GW_PID"); val1=$(cpu_ms "$VAL_PID")
grep -E "Requests/sec|50%|90%|99%|Non-2xx|requests in" "$WORK/wrk.txt"
requests=$(awk '/requests in/{print $1}' "$WORK/wrk.txt")
awk -v g="$((gw1 - gw0))" -v v="$((val1 - val0))" -v n="$requests" \
  'BEGIN{printf "CPU per request: gateway %.2f ms, validator %.2f ms\n", g/n, v/n}'
