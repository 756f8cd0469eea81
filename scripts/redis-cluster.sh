#!/usr/bin/env bash
# A Redis Cluster on loopback for tests and trials: 3 masters and 3 replicas (redis-server 7.0,
# cluster mode, no persistence), each on a free port, in its own directory under DIR.
#
#   scripts/redis-cluster.sh start DIR     start it; prints the seed list host:port,... (what
#                                          DQ_REDIS_CLUSTER takes) once every node says
#                                          cluster_state:ok with all 16384 slots assigned and
#                                          every master has its replica online
#   scripts/redis-cluster.sh stop DIR      kill exactly the processes `start` recorded in DIR
#   scripts/redis-cluster.sh ports DIR     the six ports, masters first
#
# Nothing but 127.0.0.1 is used. The cluster's node timeout is 2000 ms, so a killed master's
# replica is promoted in about 3-4 s.
#
# Every wait of `start` polls its condition, with a deadline: when one passes, start prints what
# it waited for and what it saw last, kills the nodes it started, and exits 1. Phase times go to
# DIR/start.log. Why start used to take 30-45 s now and then, and what it does instead:
# - a node binds its port and its cluster bus port (port + 10000). Ports were drawn from
#   20000-32767, so the bus port fell in Linux's ephemeral range (32768-60999 by default), where
#   any outgoing connection on the machine may hold it: the node aborted ("Failed listening on
#   port ... (cluster)") and start waited out a 20 s PING loop before trying another port. Ports
#   are now drawn so that both stay below the ephemeral range, and a node that exits is seen at
#   once (another port is tried);
# - a master delayed each replica's first sync by repl-diskless-sync-delay (5 s by default, to
#   gather more replicas): 0 here, as each master has one replica;
# - `redis-cli --cluster create` pauses 1 s after CLUSTER MEET, then polls every second: start
#   sends the same commands itself (slots in three ranges, as redis-cli assigns them, config
#   epochs, MEET, REPLICATE) and polls every 50 ms.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop|ports DIR" >&2
  exit 2
fi

NODE_START_S=20     # one node: from its launch to its answer on its port
CLUSTER_OK_S=30     # after CLUSTER MEET and slot assignment: every node says cluster_state:ok
REPLICAS_S=30       # every master has its replica online

# EPOCHREALTIME is written with the locale's decimal mark: keep its digits only.
now_ms() { local t=${EPOCHREALTIME//[^0-9]/}; echo $((10#$t / 1000)); }
start_ms=$(now_ms)
phase() { echo "$(( $(now_ms) - start_ms )) ms: $*" >>"$dir/start.log"; }

# Ports whose bus port (port + 10000) is below the ephemeral range too.
port_low=20000
port_high=22767
if read -r ephemeral_low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null &&
  [ $((ephemeral_low - 10001)) -lt $port_high ] && [ $((ephemeral_low - 10001)) -gt $((port_low + 100)) ]; then
  port_high=$((ephemeral_low - 10001))
fi

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# A process that runs (an exited child not yet reaped is a zombie: not running).
running() { kill -0 "$1" 2>/dev/null && ! grep -qE '^[0-9]+ \(.*\) Z' "/proc/$1/stat" 2>/dev/null; }

free_port() {  # sets `port` to one that, with its bus port, nobody listens on now
  for _ in $(seq 1 200); do
    port=$((port_low + RANDOM % (port_high - port_low + 1)))
    if ! listening "$port" && ! listening $((port + 10000)); then return 0; fi
  done
  fail "a free port in $port_low-$port_high (with its bus port, + 10000)" "every port tried was taken"
}

# Kills the nodes start launched that still run, then forgets them: a pid is killed only while
# it is still a redis-server of this DIR (a node that died may have left its pid to another
# process), and a second stop kills nothing.
kill_started() {
  if [ -f "$dir/pids" ]; then
    local home cwd
    home=$(cd "$dir" && pwd -P)
    while read -r pid; do
      [ -n "$pid" ] || continue
      cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || continue  # gone
      # redis-server runs in its node's folder, DIR/PORT (its --dir)
      case "$cwd" in "$home"/*) ;; *) continue ;; esac
      if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "redis-server"; then
        kill -9 "$pid" 2>/dev/null || true
      fi
    done <"$dir/pids"
    : >"$dir/pids"
  fi
}

# fail WHAT LAST: a wait gave up. Says so, stops what start started, exits 1.
fail() {
  echo "redis-cluster: gave up waiting for $1; last seen: $2 (logs: $dir/*/redis.log)" >&2
  phase "failed: $1; last seen: $2"
  kill_started
  exit 1
}

# wait_until WHAT SECONDS CHECK...: runs CHECK until it succeeds; CHECK sets `seen` to what it
# saw. Past SECONDS, fail.
wait_until() {
  local what=$1 limit_ms=$(($2 * 1000))
  shift 2
  local deadline=$(($(now_ms) + limit_ms))
  seen="nothing yet"
  while ! "$@"; do
    if [ "$(now_ms)" -ge "$deadline" ]; then fail "$what (${limit_ms} ms)" "$seen"; fi
    sleep 0.05
  done
}

node_up() {  # $port answers, from our process ($pid: not another start's that took the port)
  if redis-cli -p "$port" INFO server 2>/dev/null | grep -q "^process_id:$pid"$'\r'; then
    return 0
  fi
  if ! running "$pid"; then
    seen="exited: $(tail -n 1 "$dir/$port/redis.log" 2>/dev/null || echo 'no log')"
    return 0  # stop waiting: start_node tries another port
  fi
  seen="process $pid runs, port $port does not answer INFO with its process_id"
  return 1
}

start_node() {  # starts one node on a free port; appends its port and pid to DIR/ports, DIR/pids
  local last=""
  for _attempt in 1 2 3 4 5; do  # a port taken meanwhile: another one
    free_port
    mkdir -p "$dir/$port"
    setsid redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
      --cluster-config-file "$dir/$port/nodes.conf" --cluster-node-timeout 2000 \
      --repl-diskless-sync-delay 0 --save '' --appendonly no --dir "$dir/$port" \
      --logfile "$dir/$port/redis.log" --pidfile "$dir/$port/redis.pid" --daemonize no \
      </dev/null >/dev/null 2>&1 &
    pid=$!
    echo "$pid" >>"$dir/pids"  # at once: a failure below kills it too
    wait_until "node on port $port to answer (INFO server)" "$NODE_START_S" node_up
    if running "$pid"; then
      echo "$port" >>"$dir/ports"
      phase "node $port up (pid $pid)"
      return 0
    fi
    sed -i "/^$pid\$/d" "$dir/pids"  # it has exited: its pid may be someone else's later
    last="port $port: $seen"
    phase "node $port $seen"
  done
  fail "a node to start (5 ports tried)" "$last"
}

# redis_ok PORT COMMAND...: the node answers OK, or start fails.
redis_ok() {
  local port=$1 out
  shift
  out=$(redis-cli -p "$port" "$@" 2>&1) || true
  if [ "$out" != "OK" ]; then fail "OK from node $port to $*" "$out"; fi
}

# Every node knows the six, none of them still in handshake.
all_met() {
  local p table
  for p in "${ports[@]}"; do
    table=$(redis-cli -p "$p" CLUSTER NODES 2>&1) || true
    if [ "$(grep -c ' connected' <<<"$table")" -ne 6 ] || grep -qE 'handshake|noaddr' <<<"$table"; then
      seen="node $p: $(wc -l <<<"$table") nodes known: $(cut -d' ' -f2,3,8 <<<"$table" | tr '\n' ';')"
      return 1
    fi
  done
}

# The first three nodes masters of 0-5460, 5461-10922 and 10923-16383 (redis-cli's split), each
# of the last three the replica of one of them.
create_cluster() {
  local i ranges=("0 5460" "5461 10922" "10923 16383")
  for i in 0 1 2 3 4 5; do  # before MEET: only a node that knows no other may set it
    redis_ok "${ports[$i]}" CLUSTER SET-CONFIG-EPOCH $((i + 1))
  done
  for i in 0 1 2; do
    # shellcheck disable=SC2086  # two words: the range's first and last slot
    redis_ok "${ports[$i]}" CLUSTER ADDSLOTSRANGE ${ranges[$i]}
  done
  for i in 1 2 3 4 5; do  # every pair meets: no waiting for gossip to tell who is there
    for ((j = 0; j < i; j++)); do redis_ok "${ports[$i]}" CLUSTER MEET 127.0.0.1 "${ports[$j]}"; done
  done
  wait_until "the six nodes to know each other (CLUSTER NODES)" "$CLUSTER_OK_S" all_met
  phase "nodes met"
  for i in 0 1 2; do
    redis_ok "${ports[$((i + 3))]}" CLUSTER REPLICATE "$(redis-cli -p "${ports[$i]}" CLUSTER MYID)"
  done
}

# Every node says cluster_state:ok, knows the six nodes and sees all 16384 slots assigned.
cluster_ok() {
  local p info
  for p in "${ports[@]}"; do
    info=$(redis-cli -p "$p" CLUSTER INFO 2>&1 | tr -d '\r') || true
    if ! grep -q '^cluster_state:ok$' <<<"$info" ||
      ! grep -q '^cluster_slots_assigned:16384$' <<<"$info" ||
      ! grep -q '^cluster_known_nodes:6$' <<<"$info"; then
      seen="node $p: $(grep -E '^cluster_(state|slots_assigned|slots_ok|known_nodes):' <<<"$info" |
        tr '\n' ' ')"
      [ -n "$info" ] || seen="node $p: no answer to CLUSTER INFO"
      return 1
    fi
  done
}

# Three masters, each with one replica online, and every replica's link up; every node's table
# has the three replicas.
replicas_online() {
  local p info masters=0
  for p in "${ports[@]}"; do
    info=$(redis-cli -p "$p" INFO replication 2>&1 | tr -d '\r') || true
    if grep -q '^role:master$' <<<"$info"; then
      if ! grep -q '^slave0:.*state=online' <<<"$info"; then
        seen="master $p: $(grep -E '^(connected_slaves|slave0):' <<<"$info" | tr '\n' ' ')"
        return 1
      fi
      masters=$((masters + 1))
    elif ! grep -q '^master_link_status:up$' <<<"$info"; then
      seen="replica $p: $(grep -E '^(role|master_port|master_link_status|master_sync_in_progress):' <<<"$info" | tr '\n' ' ')"
      [ -n "$info" ] || seen="node $p: no answer to INFO replication"
      return 1
    fi
  done
  if [ "$masters" -ne 3 ]; then
    seen="$masters masters, not 3"
    return 1
  fi
  for p in "${ports[@]}"; do  # and every node's table says so (gossip lags behind REPLICATE)
    info=$(redis-cli -p "$p" CLUSTER NODES 2>&1) || true
    if [ "$(awk '$3 ~ /(^|,)slave(,|$)/' <<<"$info" | wc -l)" -ne 3 ]; then
      seen="node $p's CLUSTER NODES: $(cut -d' ' -f2,3 <<<"$info" | tr '\n' ';')"
      return 1
    fi
  done
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    : >"$dir/ports"
    : >"$dir/pids"
    : >"$dir/start.log"
    phase "ports from $port_low-$port_high"
    for _node in 1 2 3 4 5 6; do start_node; done
    mapfile -t ports <"$dir/ports"
    nodes=()
    for port in "${ports[@]}"; do nodes+=("127.0.0.1:$port"); done
    create_cluster
    phase "replicas assigned"
    wait_until "cluster_state:ok, 16384 slots and 6 nodes on every node" "$CLUSTER_OK_S" cluster_ok
    phase "cluster_state:ok everywhere"
    wait_until "every master's replica to be online" "$REPLICAS_S" replicas_online
    phase "replicas online"
    (IFS=,; echo "${nodes[*]}")
    ;;
  stop)
    kill_started
    ;;
  ports)
    cat "$dir/ports"
    ;;
  *)
    echo "usage: $0 start|stop|ports DIR" >&2
    exit 2
    ;;
esac
