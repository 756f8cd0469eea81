#!/usr/bin/env bash
# Jobs at engine speed, side by side with pandas (issue 15, point 3), in one run on one machine:
# generates a product file and a customer file (distinct phones), then for each times
#   dq:     upload -> 202 -> `done`, as a client sees it (bench/tools/upload_to_done.py), against
#           its own redis-server (the project's config: appendfsync always), dq-validator and
#           dq-gateway on free loopback ports;
#   pandas: bench/tools/peer_pandas.py on the same file and mapping, as a whole process;
# and prints the ratios. Each measurement is taken RUNS times (default 3) and the median kept.
# With BENCH_PROFILE=1 it also prints, per dq run, each process's CPU time (from /proc) and
# Redis's command counts (INFO commandstats): where the time goes.
#
#   scripts/bench-vs-pandas.sh [rows=100000] [runs=3]     (needs: ./dev build, python3-pandas)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-100000}"
RUNS="${2:-3}"
"$ROOT/scripts/install-deps.sh" --bench

# The stack (the project's redis.conf: appendfsync always), an account and its key.
# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqvspandas
start_local_stack
create_account_key

python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$ROWS" --out "$WORK/products.csv"
python3 "$ROOT/bench/tools/gen_catalog.py" customers --rows "$ROWS" --phones unique --out "$WORK/customers.csv"

echo "# $(date -u '+%F %T UTC'), $(nproc) cores, load average:$(uptime | sed 's/.*load average://')"
echo "# $ROWS rows per file, $RUNS runs each, median kept; dq = upload -> done as the client sees it"

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

run_dq() {  # run_dq FILE CHECK_TYPES -> one JSON line per run on stdout
  local file=$1 types=$2
  if [ "${BENCH_PROFILE:-0}" = 1 ]; then
    redis-cli -p "$REDIS" CONFIG RESETSTAT >/dev/null
    local g0 v0 r0 rw0 gf0 vf0; g0=$(cpu_ms "$GW_PID"); v0=$(cpu_ms "$VAL_PID"); r0=$(cpu_ms "$REDIS_PID")
    gf0=$(faults "$GW_PID"); vf0=$(faults "$VAL_PID")
    rw0=$(redis-cli -p "$REDIS" INFO persistence | tr -d '\r' | awk -F: '/^aof_rewrites:/{print $2}')
  fi
  local out
  out=$(python3 "$ROOT/bench/tools/upload_to_done.py" "http://127.0.0.1:$GW" "$KEY" "$file" \
    "$file.mapping.json" "$types")
  echo "$out"
  if [ "${BENCH_PROFILE:-0}" = 1 ]; then
    echo "#   CPU ms: gateway $(( $(cpu_ms "$GW_PID") - g0 )), validator $(( $(cpu_ms "$VAL_PID") - v0 )), redis $(( $(cpu_ms "$REDIS_PID") - r0 ))" >&2
    echo "#   minor page faults: gateway $(( $(faults "$GW_PID") - gf0 )), validator $(( $(faults "$VAL_PID") - vf0 ))" >&2
    redis-cli -p "$REDIS" INFO persistence | tr -d '\r' |
      awk -F: -v rw0="$rw0" '/^aof_rewrites:/{printf "#   redis AOF rewrites during the run: %d", $2 - rw0}
                            /^aof_current_size:/{printf ", AOF now %.0f MB\n", $2 / 1048576}' >&2
    redis-cli -p "$REDIS" INFO commandstats | tr -d '\r' | grep -v '^#' | grep . |
      sed -E 's/cmdstat_([a-z|]+):calls=([0-9]+),usec=([0-9]+).*/\1 \2 \3/' |
      sort -k3 -n -r | head -8 | awk '{printf "#   redis %-14s calls %6d  usec %8d\n", $1, $2, $3}' >&2
    grep -h '"msg":"[a-z]* stages' "$WORK/gw.log" | tail -2 | sed 's/^/#   /' >&2
  fi
}

compare() {  # compare LABEL FILE CHECK_TYPES PANDAS_KIND
  local label=$1 file=$2 types=$3 kind=$4 dq=() pd=() line
  echo "== $label: $(wc -l <"$file") lines, $(du -m "$file" | cut -f1) MB"
  for i in $(seq 1 "$RUNS"); do
    line=$(run_dq "$file" "$types")
    [ "$(field "$line" status)" = "done" ] || { echo "dq job did not finish: $line" >&2; exit 1; }
    echo "dq     run $i: $line"
    dq+=("$(field "$line" done_s)")
    local t0 t1
    t0=$(date +%s.%N)
    line=$(/usr/bin/python3 "$ROOT/bench/tools/peer_pandas.py" "$file" "$file.mapping.json" "$kind")
    t1=$(date +%s.%N)
    pd+=("$(echo "$t1 - $t0" | bc)")
    echo "pandas run $i: process $(printf '%.3f' "${pd[-1]}") s; $line"
  done
  local dq_med pd_med
  dq_med=$(printf '%s\n' "${dq[@]}" | median)
  pd_med=$(printf '%s\n' "${pd[@]}" | median)
  printf 'RESULT %-28s dq %.3f s   pandas %.3f s   ratio %.1fx\n' "$label" "$dq_med" "$pd_med" \
    "$(echo "$pd_med / $dq_med" | bc -l)"
}

compare "products ($ROWS rows)" "$WORK/products.csv" product,price,inventory,shipping products
compare "customers ($ROWS, distinct phones)" "$WORK/customers.csv" customer customers
echo "# load average at the end:$(uptime | sed 's/.*load average://')"
