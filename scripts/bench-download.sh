#!/usr/bin/env bash
# The cleaned-file download of one finished job: wall time as curl sees it, and the peak RSS of
# a fresh gateway that serves only that download (so the upload and the job do not count).
#
#   scripts/bench-download.sh [rows=200000]
#
# Generates a gen_catalog product file (ROWS rows), uploads it with four check types and waits
# for `done` (bench/tools/upload_to_done.py), then stops that gateway, starts another with no job
# workers on the same Redis, downloads GET /v1/jobs/{id}/cleaned with curl and prints the
# status, bytes, seconds, the file's md5 and the new gateway's VmHWM before and after.
# DQ_BUILD_DIR=<build dir> measures another build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-200000}"

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqdownload
start_local_stack
create_account_key

python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$ROWS" --out "$WORK/products.csv"
python3 "$ROOT/bench/tools/upload_to_done.py" "http://127.0.0.1:$GW" "$KEY" "$WORK/products.csv" \
  "$WORK/products.csv.mapping.json" product,price,inventory,shipping
ID=$(curl -s -H "X-API-Key: $KEY" "http://127.0.0.1:$GW/v1/jobs?limit=1" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')

kill -9 "$GW_PID"; wait "$GW_PID" 2>/dev/null || true
DQ_GATEWAY_BIND=127.0.0.1 DQ_GATEWAY_PORT=$GW DQ_GATEWAY_OPS_PORT=0 DQ_REDIS_PORT=$REDIS \
  DQ_VALIDATOR_ADDR=127.0.0.1:$VAL DQ_RATE_LIMIT_ENABLED=0 DQ_SHUTDOWN_GRACE_MS=0 DQ_WORKERS=0 \
  "$BUILD/gateway/dq-gateway" 2>"$WORK/gw2.log" &
GW2=$!; PIDS+=("$GW2"); wait_port "$GW"

hwm() { awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$GW2/status"; }
before=$(hwm)
curl -s -o "$WORK/cleaned" -w 'status %{http_code}, %{size_download} bytes in %{time_total} s\n' \
  -H "X-API-Key: $KEY" "http://127.0.0.1:$GW/v1/jobs/$ID/cleaned"
echo "md5 $(md5sum < "$WORK/cleaned" | cut -c1-32) (upload: $(stat -c %s "$WORK/products.csv") bytes)"
echo "download gateway peak RSS: $before MB before, $(hwm) MB after"
