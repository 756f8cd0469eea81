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
# and, before the load, the validator's whole work on that body's request in process on one
# thread (transport_floor work: the rules and the answer message, without gRPC);
# alternating ROUNDS times (default 2), with each server's CPU per request. The floor is what the
# two cores can do at all with these bytes: wrk and the kernel's loopback copies alone. The http
# rungs are what the fixed design (Pistache, a gRPC hop) costs before any work is done.
#
#   scripts/bench-validate-floor.sh [duration=10] [rounds=2]     (needs: ./dev build, wrk, python3)
#
# With PLATFORM set (e.g. PLATFORM=all), the body carries that `platform` value, so every rung
# moves that platform's answer; a last rung, dq-none, sends the body without a platform to the
# same dq stack. Issue 32's goal (platform=all within 10% of the requests/s without one) is then
# read in one run: if the transport rungs alone, moving `all`'s answer with no work done, already
# cost more CPU a call than dq does whole under no platform plus 10%, no implementation of the
# work can meet it with this answer on this design.
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
if [ -n "${PLATFORM:-}" ]; then
  cp "$WORK/body.json" "$WORK/body-none.json"
  sed "s|$WORK/body.json|$WORK/body-none.json|" "$WORK/post.lua" >"$WORK/post-none.lua"
  python3 - "$WORK/body.json" "$PLATFORM" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
body["platform"] = sys.argv[2]
json.dump(body, open(sys.argv[1], "w"))
PY
fi
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
if [ -n "${PLATFORM:-}" ]; then  # the floor with the answer to the body without a platform
  curl -s -o "$WORK/answer-none.json" -X POST "http://127.0.0.1:$GW/v1/validate" \
    -H "X-API-Key: $KEY" -H "Content-Type: application/json" --data-binary "@$WORK/body-none.json"
  FLOOR_NONE=$(free_port)
  "$BUILD/bench/http_floor" "$FLOOR_NONE" "$WORK/answer-none.json" &
  FLOOR_NONE_PID=$!; PIDS+=("$FLOOR_NONE_PID"); wait_port "$FLOOR_NONE"
fi
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
echo "# platform ${PLATFORM:-none}; body $(stat -c %s "$WORK/body.json") bytes, answer $(stat -c %s "$WORK/answer.json") bytes; wrk -t2 -c32 -d${DURATION}s"
echo "$captured"
work=$("$BUILD/bench/transport_floor" work "$WORK")
echo "$work"
load() {  # load LABEL PORT PID... : one wrk run, then req/s, p99 and CPU ms per request per PID
  local label=$1 port=$2 script="$WORK/post.lua"; shift 2
  case "$label" in *-none) script="$WORK/post-none.lua" ;; esac
  local before=() p
  for p in "$@"; do before+=("$(cpu_ms "$p")"); done
  local TIMEFORMAT='%U %S'  # wrk's own CPU seconds, user and system
  { time wrk -t2 -c32 -d"${DURATION}s" --latency -s "$script" "http://127.0.0.1:$port/v1/validate" >"$WORK/wrk.txt"; } 2>"$WORK/wrk-cpu.txt"
  local n rps p99 cpu="" i=0 ms
  n=$(awk '/requests in/{print $1}' "$WORK/wrk.txt")
  rps=$(awk '/Requests\/sec/{print $2}' "$WORK/wrk.txt")
  p99=$(awk '$1=="99%"{print $2}' "$WORK/wrk.txt")
  for p in "$@"; do
    ms=$(awk -v a="${before[$i]}" -v b="$(cpu_ms "$p")" -v n="$n" 'BEGIN{printf "%.2f", (b - a) / n}')
    cpu+=" $ms"
    echo "$label $i $ms" >>"$WORK/cpu.txt"
    i=$((i + 1))
  done
  ms=$(awk -v n="$n" '{printf "%.2f", ($1 + $2) * 1000 / n}' "$WORK/wrk-cpu.txt")
  echo "$label wrk $ms" >>"$WORK/cpu.txt"
  printf '%-12s %9s req/s   p99 %8s   CPU ms per request:%s   wrk %s\n' "$label" "$rps" "$p99" "$cpu" "$ms"
}
for _ in $(seq 1 "$ROUNDS"); do
  load floor "$FLOOR" "$FLOOR_PID"
  if [ -n "${PLATFORM:-}" ]; then load floor-none "$FLOOR_NONE" "$FLOOR_NONE_PID"; fi
  load floor+parse "$PARSE" "$PARSE_PID"
  load http "$HTTP" "$HTTP_PID"
  load http+bytes "$HTTP_BYTES" "$HTTP_BYTES_PID" "$FLOOR_BYTES_PID"
  load http+grpc "$HTTP_GRPC" "$HTTP_GRPC_PID" "$FLOOR_GRPC_PID"
  load dq "$GW" "$GW_PID" "$VAL_PID" "$REDIS_PID"
  if [ -n "${PLATFORM:-}" ]; then load dq-none "$GW" "$GW_PID" "$VAL_PID" "$REDIS_PID"; fi
done
echo "# CPU columns: http+bytes and http+grpc: the HTTP server, the gRPC server; dq: gateway, validator, redis"
# The least one call can cost on this machine with this design, each part at its smallest
# measured: wrk (the least it used a request in any run), the transport (http+grpc: HTTP server
# and gRPC server, no work), reading the body (simdjson's DOM parse: the lowest floor+parse less
# the highest floor), the
# validator's work in process, and Redis (dq's third column). Nothing else is counted: not
# building the validator request, not writing the answer's cleaned records, not the gateway's
# Redis calls, not the validator's threads under load. The cores divided by that sum bound the
# requests a second that any implementation of it could serve.
awk -v work="$(echo "$work" | sed -n 's/.*: \([0-9.]*\) ms a call.*/\1/p')" -v cores="$(nproc)" '
  function lo(k) { return (k in min) ? min[k] : 0 }
  $1 ~ /-none$/ { next }  # with PLATFORM: the rungs without it are compared below, not here
  { k = $1 " " $2; if (!(k in min) || $3 < min[k]) min[k] = $3; if (!(k in max) || $3 > max[k]) max[k] = $3 }
  END {
    wrk = 1e9; for (k in min) if (k ~ / wrk$/ && min[k] < wrk) wrk = min[k]
    transport = lo("http+grpc 0") + lo("http+grpc 1")
    parse = lo("floor+parse 0") - max["floor 0"]; if (parse < 0) parse = 0
    redis = lo("dq 2")
    total = wrk + transport + parse + work + redis
    printf "# least a call costs: wrk %.2f + transport %.2f + parse %.2f + validator work %.2f + Redis %.2f = %.2f ms of CPU: at most %.0f req/s on %d cores\n", wrk, transport, parse, work, redis, total, cores * 1000 / total, cores
  }' "$WORK/cpu.txt"
# With PLATFORM: that platform's least cost a call beside dq's whole cost without a platform
# (dq-none, its highest CPU a call in any round, and its lowest requests/s: the comparison most in
# the platform's favour). "no work" leaves out the validator's work and the body's parse: only
# wrk and the transport of this platform's body and answer.
if [ -n "${PLATFORM:-}" ]; then
  awk -v work="$(echo "$work" | sed -n 's/.*: \([0-9.]*\) ms a call.*/\1/p')" -v cores="$(nproc)" \
    -v platform="$PLATFORM" '
    { k = $1 " " $2; if (!(k in min) || $3 < min[k]) min[k] = $3; if (!(k in max) || $3 > max[k]) max[k] = $3 }
    END {
      move = min["http+grpc wrk"] + min["http+grpc 0"] + min["http+grpc 1"]
      none = max["dq-none wrk"] + max["dq-none 0"] + max["dq-none 1"] + max["dq-none 2"]
      printf "# %s, no work: wrk and transport %.2f ms a call (at most %.0f req/s); with the validator work in process: %.2f ms (at most %.0f req/s)\n", platform, move, cores * 1000 / move, move + work, cores * 1000 / (move + work)
      bytes = (min["floor wrk"] + min["floor 0"]) - (max["floor-none wrk"] + max["floor-none 0"])
      printf "# the answer alone: the floor server and wrk moving the %s answer cost %.2f ms a call more than moving the answer without a platform (the least against the most)\n", platform, bytes
      printf "# dq without a platform: %.2f ms a call, whole (wrk, gateway, validator, Redis; %.0f req/s at that CPU); within 10%% of it allows %.2f ms, %.2f ms more\n", none, cores * 1000 / none, none / 0.9, none / 0.9 - none
    }' "$WORK/cpu.txt"
fi
