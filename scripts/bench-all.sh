#!/usr/bin/env bash
# Every command that docs/PERFORMANCE.md records, one after the other, each into a log of its own
# with the time, the commit and the load it started at. This is how the file is re-measured: run
# it on a quiet machine (nothing else building), then take the figures from the logs.
#
#   scripts/bench-all.sh [out-dir=/tmp/dq-bench-<UTC time>] [step ...]
#
# With steps named (see STEPS below), runs only those. Generates the gen_catalog inputs it needs
# into $DATA (default /tmp/pm) when they are missing. A failing step is recorded and the next one
# runs; the exit code is that of the last failure. A whole run ends with scripts/bench-check.py:
# the goals table (also in $OUT/goals.md), and a failing exit status when a goal did not hold.
# Needs ./dev build, wrk, python3-pandas, perf; the fuzz step needs clang
# (scripts/install-deps.sh --fuzz).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
OUT="${1:-/tmp/dq-bench-$(date -u +%Y%m%dT%H%M%S)}"
shift || true
DATA="${DATA:-/tmp/pm}"
mkdir -p "$OUT" "$DATA"
cd "$ROOT" || exit 2

gen() {  # gen KIND ROWS FILE
  [ -s "$3" ] || python3 bench/tools/gen_catalog.py "$1" --rows "$2" --out "$3" >/dev/null
}

# name|command, in the order docs/PERFORMANCE.md presents them.
STEPS=(
  "engine|$BUILD/bench/engine_bench --benchmark_min_time=2"
  "engine-files|DQ_BENCH_PRODUCTS=$DATA/p200k.csv DQ_BENCH_CUSTOMERS=$DATA/c200k.csv $BUILD/bench/engine_bench --benchmark_min_time=2 '--benchmark_filter=ProductFamily|Customer'"
  "phone-agreement|$BUILD/bench/phone_agreement 1000000"
  "stream|DQ_BENCH_PRODUCTS=$DATA/p1m.csv $BUILD/bench/stream_bench --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true --benchmark_min_time=0.01"
  "validate-bench|$BUILD/bench/validate_bench --benchmark_min_time=1"
  "validate|scripts/bench-validate.sh 500 10"
  "validate-floor|scripts/bench-validate-floor.sh 10 2"
  "validate-floor-all|PLATFORM=all scripts/bench-validate-floor.sh 10 2"
  "validate-perf-gateway|scripts/perf-validate.sh gateway 8"
  "validate-perf-validator|scripts/perf-validate.sh validator 8"
  "vs-pandas|BENCH_PROFILE=1 scripts/bench-vs-pandas.sh 100000 5"
  "variants|scripts/bench-variants.sh 100000 5"
  "cli|scripts/bench-cli.sh 100000 5"
  "gateway|scripts/bench-gateway.sh 200000"
  "job-1m|DQ_BODY_MEMORY_BYTES=1073741824 DQ_UPLOAD_MAX_BYTES=400000000 scripts/bench-gateway.sh 1000000 --job-only"
  "download|scripts/bench-download.sh 200000"
  "ingest|$BUILD/bench/ingest_bench --benchmark_min_time=1"
  "files|$BUILD/bench/files_bench --benchmark_min_time=1"
  "xlsx|scripts/bench-xlsx.sh 50000 3"
  "limiter-1|$BUILD/bench/limiter_bench 20000 1"
  "limiter-4|$BUILD/bench/limiter_bench 40000 4"
  "notifier|$BUILD/bench/notifier_bench"
  "hostile|python3 scripts/hostile-load.py --build $BUILD"
  "malformed|python3 scripts/malformed-requests.py --build $BUILD"
  "fuzz|FUZZ_SECONDS=20 scripts/fuzz.sh"
)

wanted() {  # wanted NAME STEP...: NAME is among the steps named
  local n
  for n in "${@:2}"; do [ "$n" = "$1" ] && return 0; done
  return 1
}
names=()
for step in "${STEPS[@]}"; do names+=("${step%%|*}"); done
for n in "$@"; do
  if ! wanted "$n" "${names[@]}"; then
    echo "bench-all.sh: no step '$n'; the steps: ${names[*]}" >&2
    exit 2
  fi
done

gen products 200000 "$DATA/p200k.csv"
gen customers 200000 "$DATA/c200k.csv"
gen products 1000000 "$DATA/p1m.csv"

rc=0
i=0
for step in "${STEPS[@]}"; do
  name="${step%%|*}"
  cmd="${step#*|}"
  i=$((i + 1))
  if [ $# -gt 0 ] && ! wanted "$name" "$@"; then continue; fi
  log="$OUT/$(printf '%02d' "$i")-$name.txt"
  {
    echo "# $cmd"
    echo "# start $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' (modified)'), load $(cut -d' ' -f1-3 /proc/loadavg)"
  } >"$log"
  started=$(date +%s)
  bash -c "$cmd" >>"$log" 2>&1
  status=$?
  echo "# end $(date -u +%FT%TZ), $(( $(date +%s) - started )) s, exit $status" >>"$log"
  printf '%-24s exit %d  %4d s  %s\n' "$name" "$status" "$(( $(date +%s) - started ))" "$log"
  [ "$status" -eq 0 ] || rc=$status
done
# A whole run is held to the goals (scripts/bench-check.py); the table is kept beside the logs.
if [ $# -eq 0 ]; then
  echo
  python3 scripts/bench-check.py "$OUT" | tee "$OUT/goals.md"
  check=${PIPESTATUS[0]}
  [ "$check" -eq 0 ] || [ "$rc" -ne 0 ] || rc=$check
fi
exit "$rc"
