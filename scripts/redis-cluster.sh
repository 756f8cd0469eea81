#!/usr/bin/env bash
# A Redis Cluster on loopback for tests and trials: 3 masters and 3 replicas (redis-server 7.0,
# cluster mode, no persistence), each on a free port, in its own directory under DIR.
#
#   scripts/redis-cluster.sh start DIR     start it; prints the seed list host:port,... (what
#                                          DQ_REDIS_CLUSTER takes) once every slot is served
#   scripts/redis-cluster.sh stop DIR      kill exactly the processes `start` recorded in DIR
#   scripts/redis-cluster.sh ports DIR     the six ports, masters first
#
# Nothing but 127.0.0.1 is used. The cluster's node timeout is 2000 ms, so a killed master's
# replica is promoted in about 3-4 s.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop|ports DIR" >&2
  exit 2
fi

free_port() {  # a port in 20000-32767 (below Linux's ephemeral range) that binds now
  local port
  for _ in $(seq 1 200); do
    port=$((20000 + RANDOM % 12768))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "no free port" >&2
  return 1
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    : >"$dir/ports"
    : >"$dir/pids"
    for _node in 1 2 3 4 5 6; do
      started=""
      for _attempt in 1 2 3 4 5; do  # a port taken meanwhile: another one
        port=$(free_port)
        mkdir -p "$dir/$port"
        redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
          --cluster-config-file "$dir/$port/nodes.conf" --cluster-node-timeout 2000 \
          --save '' --appendonly no --dir "$dir/$port" --logfile "$dir/$port/redis.log" \
          --daemonize yes --pidfile "$dir/$port/redis.pid" || true
        for _ in $(seq 1 400); do  # up to 20 s on a loaded machine
          if [ -s "$dir/$port/redis.pid" ] && redis-cli -p "$port" PING >/dev/null 2>&1; then
            started=$port
            break
          fi
          sleep 0.05
        done
        [ -n "$started" ] && break
        if [ -s "$dir/$port/redis.pid" ]; then
          kill -9 "$(cat "$dir/$port/redis.pid")" 2>/dev/null || true
        fi
      done
      if [ -z "$started" ]; then
        echo "redis-cluster: a node did not start (see $dir/*/redis.log)" >&2
        exit 1
      fi
      echo "$started" >>"$dir/ports"
      cat "$dir/$started/redis.pid" >>"$dir/pids"
    done
    mapfile -t ports <"$dir/ports"
    nodes=()
    for port in "${ports[@]}"; do nodes+=("127.0.0.1:$port"); done
    redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes \
      >"$dir/create.log" 2>&1 || { cat "$dir/create.log" >&2; exit 1; }
    for port in "${ports[@]}"; do
      for _ in $(seq 1 200); do
        redis-cli -p "$port" CLUSTER INFO | grep -q 'cluster_state:ok' && break
        sleep 0.05
      done
    done
    # Every master has its replica in sync (writes that wait for one replica can succeed).
    for port in "${ports[@]}"; do
      for _ in $(seq 1 400); do
        info=$(redis-cli -p "$port" INFO replication)
        if ! grep -q 'role:master' <<<"$info" || grep -q 'state=online' <<<"$info"; then
          break
        fi
        sleep 0.05
      done
    done
    (IFS=,; echo "${nodes[*]}")
    ;;
  stop)
    if [ -f "$dir/pids" ]; then
      while read -r pid; do
        if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi
      done <"$dir/pids"
    fi
    ;;
  ports)
    cat "$dir/ports"
    ;;
  *)
    echo "usage: $0 start|stop|ports DIR" >&2
    exit 2
    ;;
esac
