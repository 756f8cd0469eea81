#!/usr/bin/env bash
# Where an upload and its job spend the gateway's instructions: one gen_catalog product file
# (ROWS rows, product,price,inventory,shipping) uploaded to a gateway running under callgrind,
# worked to `done` by that same gateway's workers, then the top functions by inclusive and self
# cost. callgrind counts instructions, not seconds, so the profile does not depend on what else
# the machine is doing (perf cannot sample in this container). About a minute for 100,000 rows.
#
#   scripts/profile-job.sh [rows=100000]
#
# The callgrind output stays in $OUT (default /tmp/dq-profile-job.out) for
# callgrind_annotate --inclusive=yes or kcachegrind. See also scripts/profile-validate.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-100000}"
OUT="${OUT:-/tmp/dq-profile-job.out}"
WORK=$(mktemp -d /tmp/dqprofjob.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 1200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done; echo "port $1 never opened" >&2; exit 1; }

REDIS=$(free_port); VAL=$(free_port); GW=$(free_port)
redis-server "$ROOT/deploy/redis/redis.conf" --port "$REDIS" --bind 127.0.0.1 --dir "$WORK" >/dev/null &
PIDS+=($!); wait_port "$REDIS"
DQ_VALIDATOR_BIND=127.0.0.1 DQ_VALIDATOR_PORT=$VAL DQ_VALIDATOR_OPS_PORT=0 \
  "$BUILD/validator/dq-validator" 2>"$WORK/val.log" &
PIDS+=($!); wait_port "$VAL"
DQ_GATEWAY_BIND=127.0.0.1 DQ_GATEWAY_PORT=$GW DQ_GATEWAY_OPS_PORT=0 DQ_REDIS_PORT=$REDIS \
  DQ_VALIDATOR_ADDR=127.0.0.1:$VAL DQ_RATE_LIMIT_ENABLED=0 DQ_SHUTDOWN_GRACE_MS=0 \
  valgrind --tool=callgrind --callgrind-out-file="$OUT" --dump-instr=no \
  "$BUILD/gateway/dq-gateway" 2>"$WORK/gw.log" &
GW_PID=$!; PIDS+=($GW_PID); wait_port "$GW"
export DQ_REDIS_PORT=$REDIS
ACCOUNT=$("$BUILD/dqctl/dqctl" account create --plan agency | python3 -c 'import json,sys;print(json.load(sys.stdin)["account_id"])')
KEY=$("$BUILD/dqctl/dqctl" key create --account "$ACCOUNT" | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])')

python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$ROWS" --out "$WORK/products.csv"
python3 "$ROOT/bench/tools/upload_to_done.py" "http://127.0.0.1:$GW" "$KEY" "$WORK/products.csv" \
  "$WORK/products.csv.mapping.json" product,price,inventory,shipping
kill -TERM "$GW_PID"; wait "$GW_PID" || true
echo "== gateway, upload and job of $ROWS product rows: inclusive"
callgrind_annotate --inclusive=yes "$OUT" 2>/dev/null | sed -n '1,70p' | cut -c1-200
echo "== self"
callgrind_annotate "$OUT" 2>/dev/null | sed -n '1,50p' | cut -c1-200
