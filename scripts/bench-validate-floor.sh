#!/usr/bin/env bash
# How far POST /v1/validate is from the floor of this machine, in one run: the load of
# scripts/bench-validate.sh (the same 500-row body, wrk -t2 -c32 for DURATION seconds each) against
#   floor:        bench/http_floor, which takes each body and sends back the gateway's real
#                 answer (the same bytes), and does nothing else;
#   floor+parse:  the same, also parsing each body with simdjson (the least a JSON service does);
#   http:         bench/transport_floor: dq-gateway's own HTTP server (Pistache behind the edge)
#                 answering the same bytes, and doing nothing else;
#   http+bytes:   the same, each body first sent over gRPC to a second process, which answers
#                 the answer's bytes (one bytes message each way: the least any design of the
#                 validator's messages could cost);
#   http+grpc:    the same with dq's own messages: the validator request this body makes, and the
#                 validator's real answer to it, parsed and copied but not computed;
#   dq:           the real gateway, validator and Redis;
# alternating ROUNDS times (default 2), with each server's CPU per request. The floor is what the
# two cores can do at all with these bytes: wrk and the kernel's loopback copies alone. The http
# rungs are what the fixed design (Pistache, a gRPC hop) costs before any work is done.
#
#   scripts/bench-validate-floor.sh [duration=10] [rounds=2]     (needs: ./dev build, wrk, python3)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
DURATION="${1:-10}"
ROUNDS="${2:-2}"
exec 2>/dev/null

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqfloor

start_validate_load 500
curl -s -o "$WORK/answer.json" -X POST "http://127.0.0.1:$GW/v1/validate" \
  -H "X-API-Key: $KEY" -H "Content-Type: application/json" --data-binary "@$WORK/body.json"

# The validator request and answer for this body, for the http+grpc rung.
captured=$("$BUILD/bench/transport_floor" capture "$WORK/body.json" "127.0.0.1:$VAL" "$WORK")

FLOOR=$(free_port); PARSE=$(free_port)
"$BUILD/bench/http_floor" "$FLOOR" "$WORK/answer.json" &
FLOOR_PID=$!; PIDS+=("$FLOOR_PID"); wait_port "$FLOOR"
"$BUILD/bench/http_floor" "$PARSE" "$WORK/answer.json" --parse &
PARSE_PID=$!; PIDS+=("$PARSE_PID"); wait_port "$PARSE"
FLOOR_GRPC=$(free_port); FLOOR_BYTES=$(free_port)
HTTP=$(free_port); HTTP_GRPC=$(free_port); HTTP_BYTES=$(free_port)
"$BUILD/bench/transport_floor" grpc-messages "$FLOOR_GRPC" "$WORK" &
FLOOR_GRPC_PID=$!; PIDS+=("$FLOOR_GRPC_PID"); wait_port "$FLOOR_GRPC"
"$BUILD/bench/transport_floor" grpc-bytes "$FLOOR_BYTES" "$WORK/answer.json" &
FLOOR_BYTES_PID=$!; PIDS+=("$FLOOR_BYTES_PID"); wait_port "$FLOOR_BYTES"
"$BUILD/bench/transport_floor" http "$HTTP" "$WORK/answer.json" &
HTTP_PID=$!; PIDS+=("$HTTP_PID"); wait_port "$HTTP"
"$BUILD/bench/transport_floor" http "$HTTP_BYTES" "$WORK/answer.json" bytes "127.0.0.1:$FLOOR_BYTES" &
HTTP_BYTES_PID=$!; PIDS+=("$HTTP_BYTES_PID"); wait_port "$HTTP_BYTES"
"$BUILD/bench/transport_floor" http "$HTTP_GRPC" "$WORK/answer.json" messages "127.0.0.1:$FLOOR_GRPC" "$WORK" &
HTTP_GRPC_PID=$!; PIDS+=("$HTTP_GRPC_PID"); wait_port "$HTTP_GRPC"

echo "# $(date -u '+%F %T UTC'), $(nproc) cores, load average:$(uptime | sed 's/.*load average://')"
echo "# body $(stat -c %s "$WORK/body.json") bytes, answer $(stat -c %s "$WORK/answer.json") bytes; wrk -t2 -c32 -d${DURATION}s"
echo "$captured"
load() {  # load LABEL PORT PID... : one wrk run, then req/s, p99 and CPU ms per request per PID
  local label=$1 port=$2; shift 2
  local before=() p
  for p in "$@"; do before+=("$(cpu_ms "$p")"); done
  wrk -t2 -c32 -d"${DURATION}s" --latency -s "$WORK/post.lua" "http://127.0.0.1:$port/v1/validate" >"$WORK/wrk.txt"
  local n rps p99 cpu="" i=0
  n=$(awk '/requests in/{print $1}' "$WORK/wrk.txt")
  rps=$(awk '/Requests\/sec/{print $2}' "$WORK/wrk.txt")
  p99=$(awk '$1=="99%"{print $2}' "$WORK/wrk.txt")
  for p in "$@"; do
    cpu+=$(awk -v a="${before[$i]}" -v b="$(cpu_ms "$p")" -v n="$n" 'BEGIN{printf " %.2f", (b - a) / n}')
    i=$((i + 1))
  done
  printf '%-12s %9s req/s   p99 %8s   CPU ms per request:%s\n' "$label" "$rps" "$p99" "$cpu"
}
for _ in $(seq 1 "$ROUNDS"); do
  load floor "$FLOOR" "$FLOOR_PID"
  load floor+parse "$PARSE" "$PARSE_PID"
  load http "$HTTP" "$HTTP_PID"
  load http+bytes "$HTTP_BYTES" "$HTTP_BYTES_PID" "$FLOOR_BYTES_PID"
  load http+grpc "$HTTP_GRPC" "$HTTP_GRPC_PID" "$FLOOR_GRPC_PID"
  load dq "$GW" "$GW_PID" "$VAL_PID" "$REDIS_PID"
done
echo "# CPU columns: http+bytes and http+grpc: the HTTP server, the gRPC server; dq: gateway, validator, redis"
