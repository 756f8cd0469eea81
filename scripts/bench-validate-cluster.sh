#!/usr/bin/env bash
# POST /v1/validate through a gateway on one Redis against one on a Redis Cluster (issue 35's
# goal: the cluster mode within 10% of the single node), in one run: the load of
# scripts/bench-validate.sh (the same ROWS-row body, wrk -t2 -c32 for DURATION seconds), sent in
# turn, ROUNDS times (default 3), to
#   single:   dq-gateway on one redis-server (the project's redis.conf, but without its AOF,
#             as the cluster's nodes run);
#   cluster:  dq-gateway with DQ_REDIS_CLUSTER on a 3-master, 3-replica Redis Cluster
#             (scripts/redis-cluster.sh), DQ_REDIS_MIN_REPLICAS 0 as on the single node;
# both gateways behind the same dq-validator, every process on loopback and free ports. Turns
# alternate so that the machine's other load falls on both alike. Prints each turn's req/s, and
# the medians and their ratio.
#
#   scripts/bench-validate-cluster.sh [rows=500] [duration=10] [rounds=3]
#                                                   (needs: ./dev build, wrk, python3)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-500}"
DURATION="${2:-10}"
ROUNDS="${3:-3}"
exec 2>/dev/null

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqcluster

# Every turn's records stay within the account's quota (the agency plan's 10M would run out
# after ~20,000 calls of 500 rows: 429s, not work).
export DQ_QUOTA_AGENCY=1000000000000
# One account sends all 32 connections' calls: each gateway lets it have them all in progress
# (DQ_VALIDATE_PER_ACCOUNT, 4 by default, would answer most with 429).
GATEWAY_WRAP="env DQ_VALIDATE_PER_ACCOUNT=64"
# The single node, the validator and the single node's gateway (GW), an account and its key.
start_validate_load "$ROWS"
SINGLE_KEY=$KEY
# Persistence as on the cluster's nodes (none), so that only the topology differs: the project's
# redis.conf has appendfsync always, an fsync per quota reservation.
redis-cli -p "$REDIS" CONFIG SET appendonly no >/dev/null

# The cluster (stopped by the trap, with the rest), an account and key on it, its gateway.
stop_cluster() { "$ROOT/scripts/redis-cluster.sh" stop "$WORK/cluster"; cleanup_work; }
trap stop_cluster EXIT
SEEDS=$("$ROOT/scripts/redis-cluster.sh" start "$WORK/cluster")
CLUSTER_KEY=$(
  export DQ_REDIS_CLUSTER=$SEEDS
  create_account_key
  echo "$KEY"
)
CGW=$(free_port)
DQ_GATEWAY_BIND=127.0.0.1 DQ_GATEWAY_PORT=$CGW DQ_GATEWAY_OPS_PORT=0 DQ_REDIS_CLUSTER=$SEEDS \
  DQ_VALIDATE_PER_ACCOUNT=64 \
  DQ_VALIDATOR_ADDR=127.0.0.1:$VAL DQ_RATE_LIMIT_ENABLED=0 DQ_SHUTDOWN_GRACE_MS=0 \
  "$BUILD/gateway/dq-gateway" 2>"$WORK/cgw.log" &
CGW_PID=$!; PIDS+=("$CGW_PID"); wait_port "$CGW" "$WORK/cgw.log"

post_lua() {  # post_lua KEY FILE
  cat >"$2" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-API-Key"] = "$1"
local f = io.open("$WORK/body.json", "rb"); wrk.body = f:read("*a"); f:close()
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function response(status, headers, body)
  if status ~= 200 then statuses[status] = (statuses[status] or 0) + 1 end
end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do io.write("status ", status, " ", n, "\n") end
  end
end
LUA
}
post_lua "$SINGLE_KEY" "$WORK/single.lua"
post_lua "$CLUSTER_KEY" "$WORK/cluster.lua"
for target in "single $GW $SINGLE_KEY" "cluster $CGW $CLUSTER_KEY"; do  # 200s before any load
  read -r name port key <<<"$target"
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/v1/validate" \
    -H "X-API-Key: $key" -H "Content-Type: application/json" --data-binary "@$WORK/body.json")
  if [ "$code" != 200 ]; then
    echo "the $name gateway answered $code" >&2
    exit 1
  fi
done

echo "# $(date -u '+%F %T UTC'), $(nproc) cores, load average:$(uptime | sed 's/.*load average://')"
echo "# POST /v1/validate, $ROWS product rows ($(stat -c %s "$WORK/body.json") bytes), wrk -t2 -c32 -d${DURATION}s"
echo "# cluster seeds: $SEEDS"
: >"$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
  for target in "single $GW" "cluster $CGW"; do
    read -r name port <<<"$target"
    set -- "$name" "$port"
    wrk -t2 -c32 -d"${DURATION}s" -s "$WORK/$1.lua" "http://127.0.0.1:$2/v1/validate" \
      >"$WORK/wrk.txt"
    rps=$(awk '/Requests\/sec/{print $2}' "$WORK/wrk.txt")
    non2xx=$(awk '/Non-2xx/{print $5}' "$WORK/wrk.txt")
    printf 'round %d  %-8s %9s req/s%s\n' "$round" "$1" "$rps" \
      "${non2xx:+  ($non2xx non-2xx answers: not counted)}"
    if [ -n "$non2xx" ]; then
      awk '/^status/{n[$2]+=$3} END{for (s in n) printf "  HTTP %s: %d\n", s, n[s]}' "$WORK/wrk.txt"
      tail -2 "$WORK/$([ "$1" = single ] && echo gw || echo cgw).log" | cut -c1-300
      echo "$1 0" >>"$WORK/results"
      continue
    fi
    echo "$1 $rps" >>"$WORK/results"
  done
done
python3 - "$WORK/results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, rps = line.split()
    runs.setdefault(name, []).append(float(rps))
single, cluster = statistics.median(runs["single"]), statistics.median(runs["cluster"])
print(f"median: single {single:.1f} req/s, cluster {cluster:.1f} req/s: cluster/single "
      f"{cluster / single:.3f} (goal >= 0.90)")
PY
