#!/usr/bin/env bash
# Gateway throughput on GET /v1/jobs with and without the rate limiter, and upload-to-done time
# for a generated product file. Starts its own redis-server, dq-validator and dq-gateway on free
# loopback ports, and stops them afterwards.
#
#   scripts/bench-gateway.sh [rows=200000] [--job-only]   (needs: ./dev build, wrk, python3)
#
# --job-only: stop after the upload-to-done part (no wrk runs). The validator takes
# DQ_VALIDATOR_EVAL_THREADS from the environment, as every process here takes DQ_* settings:
#   DQ_VALIDATOR_EVAL_THREADS=1 scripts/bench-gateway.sh 1000000 --job-only
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
unset DQ_BUILD_DIR  # the services refuse DQ_* names they do not know
ROWS="${1:-200000}"
"$ROOT/scripts/install-deps.sh" --bench
WORK=$(mktemp -d /tmp/dqbench.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
exec 2>/dev/null  # the shell's "Killed" notices at exit are noise

# shellcheck source=lib/free-port.sh
. "$ROOT/scripts/lib/free-port.sh"
wait_port() { for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done; echo "port $1 never opened" >&2; exit 1; }

REDIS=$(free_port); VAL=$(free_port)
redis-server "$ROOT/deploy/redis/redis.conf" --port "$REDIS" --bind 127.0.0.1 --dir "$WORK" >/dev/null &
PIDS+=($!); wait_port "$REDIS"
DQ_VALIDATOR_BIND=127.0.0.1 DQ_VALIDATOR_PORT=$VAL DQ_VALIDATOR_OPS_PORT=0 "$BUILD/validator/dq-validator" 2>"$WORK/val.log" &
PIDS+=($!); wait_port "$VAL"

# Counters in a Redis of their own, without an append-only file (DQ_RATE_LIMIT_REDIS_PORT).
COUNTERS=$(free_port)
redis-server --port "$COUNTERS" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK" >/dev/null &
PIDS+=($!); wait_port "$COUNTERS"

start_gateway() {  # start_gateway PORT RATE_LIMIT_ENABLED [COUNTERS_PORT]
  DQ_GATEWAY_BIND=127.0.0.1 DQ_GATEWAY_PORT=$1 DQ_GATEWAY_OPS_PORT=0 DQ_REDIS_PORT=$REDIS DQ_VALIDATOR_ADDR=127.0.0.1:$VAL \
    DQ_RATE_LIMIT_ENABLED=$2 DQ_RATE_LIMIT_REDIS_PORT="${3:-0}" \
    DQ_RATE_LIMIT_GENERAL=1000000000 DQ_RATE_LIMIT_UPLOAD=1000000000 \
    DQ_UPLOAD_MAX_BYTES="${DQ_UPLOAD_MAX_BYTES:-52428800}" DQ_SHUTDOWN_GRACE_MS=0 "$BUILD/gateway/dq-gateway" 2>>"$WORK/gw.log" &
  PIDS+=($!); wait_port "$1"
}
GW_ON=$(free_port); GW_OFF=$(free_port); GW_SPLIT=$(free_port)
start_gateway "$GW_ON" 1
start_gateway "$GW_OFF" 0
start_gateway "$GW_SPLIT" 1 "$COUNTERS"
export DQ_REDIS_PORT=$REDIS
ACCOUNT=$("$BUILD/dqctl/dqctl" account create --plan agency | python3 -c 'import json,sys;print(json.load(sys.stdin)["account_id"])')
KEY=$("$BUILD/dqctl/dqctl" key create --account "$ACCOUNT" | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])')

echo "== upload to done: $ROWS product rows, all five check types (validator eval threads: ${DQ_VALIDATOR_EVAL_THREADS:-0 = all CPUs})"
python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$ROWS" --out "$WORK/p.csv"
stat -c %s "$WORK/p.csv" | awk '{printf "file: %.1f MB\n", $1/1e6}'
start=$(date +%s.%N)
curl -s -X POST "http://127.0.0.1:$GW_ON/v1/jobs?filename=p.csv&check_types=product,price,inventory,shipping,customer" \
  -H "X-API-Key: $KEY" -H "Content-Type: text/csv" -H "Expect:" --data-binary "@$WORK/p.csv" >"$WORK/job.json"
grep -q '"id"' "$WORK/job.json" || { echo "upload refused: $(head -c 300 "$WORK/job.json")"; exit 1; }
accepted=$(date +%s.%N)
until curl -s "http://127.0.0.1:$GW_ON/v1/jobs?limit=1" -H "X-API-Key: $KEY" >"$WORK/list.json" &&
      grep -q '"status":"\(done\|failed\)"' "$WORK/list.json"; do sleep 0.02; done
grep -q '"status":"failed"' "$WORK/list.json" && { echo "job failed: $(head -c 400 "$WORK/list.json")"; exit 1; }
done_at=$(date +%s.%N)
echo "accepted (202) after $(echo "$accepted - $start" | bc) s; done after $(echo "$done_at - $start" | bc) s"
for name in dq-gateway dq-validator redis-server; do
  for pid in $(pgrep -f "$name" ); do
    case " ${PIDS[*]} " in *" $pid "*)
      grep VmHWM "/proc/$pid/status" | awk -v n="$name" '{printf "%s peak RSS: %d MB\n", n, $2/1024}'
      # CPU time (user + system) since start: unlike wall time, not inflated by other load.
      awk -v n="$name" -v hz="$(getconf CLK_TCK)" '{printf "%s CPU: %.2f s\n", n, ($14 + $15) / hz}' "/proc/$pid/stat";;
    esac
  done
done

[ "${2:-}" = "--job-only" ] && exit 0

for label in "with limiter, counters in the durable Redis:$GW_ON" \
             "with limiter, counters in a non-persistent Redis:$GW_SPLIT" \
             "without limiter:$GW_OFF"; do
  echo "== GET /v1/jobs $label (wrk -t2 -c16 -d10s)"
  wrk -t2 -c16 -d10s --latency -H "X-API-Key: $KEY" "http://127.0.0.1:${label##*:}/v1/jobs?limit=20" \
    | grep -E "Requests/sec|50%|90%|99%|Non-2xx"
done
