#!/usr/bin/env bash
# POST /v1/validate throughput and latency: 500 product rows from bench/tools/gen_catalog.py
# (product, price, inventory, shipping), wrk -t2 -c32 for DURATION seconds (default 10). Starts
# its own redis-server, dq-validator and dq-gateway on free loopback ports and stops them after.
# Also prints the CPU seconds each service used per request.
#
#   scripts/bench-validate.sh [rows=500] [duration=10]     (needs: ./dev build, wrk, python3)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-500}"
DURATION="${2:-10}"
WORK=$(mktemp -d /tmp/dqbench.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
exec 2>/dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 600); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done; echo "port $1 never opened"; exit 1; }
cpu_seconds() { awk '{print ($14 + $15) / 100}' "/proc/$1/stat"; }

REDIS=$(free_port); VAL=$(free_port); GW=$(free_port)
redis-server "$ROOT/deploy/redis/redis.conf" --port "$REDIS" --bind 127.0.0.1 --dir "$WORK" >/dev/null &
PIDS+=($!); wait_port "$REDIS"
DQ_VALIDATOR_BIND=127.0.0.1 DQ_VALIDATOR_PORT=$VAL DQ_VALIDATOR_OPS_PORT=0 "$BUILD/validator/dq-validator" 2>"$WORK/val.log" &
VAL_PID=$!; PIDS+=($VAL_PID); wait_port "$VAL"
DQ_GATEWAY_BIND=127.0.0.1 DQ_GATEWAY_PORT=$GW DQ_REDIS_PORT=$REDIS DQ_VALIDATOR_ADDR=127.0.0.1:$VAL \
  DQ_RATE_LIMIT_ENABLED=0 DQ_SHUTDOWN_GRACE_MS=0 "$BUILD/gateway/dq-gateway" 2>"$WORK/gw.log" &
GW_PID=$!; PIDS+=($GW_PID); wait_port "$GW"
export DQ_REDIS_PORT=$REDIS
ACCOUNT=$("$BUILD/dqctl/dqctl" account create --plan agency | python3 -c 'import json,sys;print(json.load(sys.stdin)["account_id"])')
KEY=$("$BUILD/dqctl/dqctl" key create --account "$ACCOUNT" | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])')

python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$ROWS" --format json --out "$WORK/raw.json"
python3 - "$WORK/raw.json" "$WORK/body.json" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
body["check_types"] = "product,price,inventory,shipping"
json.dump(body, open(sys.argv[2], "w"))
PY
cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-API-Key"] = "$KEY"
local f = io.open("$WORK/body.json", "rb"); wrk.body = f:read("*a"); f:close()
LUA
answer=$(curl -s -o "$WORK/answer.json" -w '%{http_code} %{size_download}' -X POST "http://127.0.0.1:$GW/v1/validate" \
  -H "X-API-Key: $KEY" -H "Content-Type: application/json" --data-binary "@$WORK/body.json")
echo "== POST /v1/validate, $ROWS product rows, product,price,inventory,shipping"
echo "body: $(stat -c %s "$WORK/body.json") bytes; answer: HTTP ${answer% *}, ${answer#* } bytes"
gw0=$(cpu_seconds "$GW_PID"); val0=$(cpu_seconds "$VAL_PID")
wrk -t2 -c32 -d"${DURATION}s" --latency -s "$WORK/post.lua" "http://127.0.0.1:$GW/v1/validate" >"$WORK/wrk.txt"
gw1=$(cpu_seconds "$GW_PID"); val1=$(cpu_seconds "$VAL_PID")
grep -E "Requests/sec|50%|90%|99%|Non-2xx|requests in" "$WORK/wrk.txt"
requests=$(awk '/requests in/{print $1}' "$WORK/wrk.txt")
awk -v g="$(echo "$gw1 - $gw0" | bc)" -v v="$(echo "$val1 - $val0" | bc)" -v n="$requests" \
  'BEGIN{printf "CPU per request: gateway %.2f ms, validator %.2f ms\n", 1000*g/n, 1000*v/n}'
