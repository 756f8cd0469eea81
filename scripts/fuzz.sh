#!/usr/bin/env bash
# Builds the libFuzzer targets for the upload parsers and the phone fast path with clang, ASan and UBSan, and runs each
# for a bounded time on its seed corpus (fuzz/corpus/<target>, plus tests/data/nasty for the
# readers). Fails on any crash, leak, sanitizer report or invariant violation.
#
#   scripts/fuzz.sh                      every target, FUZZ_SECONDS (default 20) each
#   FUZZ_SECONDS=60 scripts/fuzz.sh fuzz_csv
#
# Needs clang: scripts/install-deps.sh --fuzz. Builds in build-fuzz/ (BUILD_DIR to override).
# New corpus entries found during a run go to build-fuzz/corpus/<target>, not into the repo.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build-fuzz}"
seconds="${FUZZ_SECONDS:-20}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fuzz_csv fuzz_ndjson fuzz_json_array fuzz_multipart fuzz_xlsx fuzz_decode fuzz_xml
           fuzz_validate_body fuzz_phone)
fi

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ not found; run scripts/install-deps.sh --fuzz" >&2
  exit 2
fi

if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DDQ_FUZZ=ON -DDQ_SANITIZE=ON -DDQ_BUILD_BENCH=OFF -DDQ_BUILD_TESTS=OFF >/dev/null
fi
ninja -C "$build" -j "${FUZZ_JOBS:-2}" "${targets[@]}"

status=0
for t in "${targets[@]}"; do
  work="$build/corpus/$t"
  mkdir -p "$work"
  seeds=("$root/fuzz/corpus/$t")
  case "$t" in
    fuzz_csv|fuzz_ndjson|fuzz_json_array) seeds+=("$root/tests/data/nasty") ;;
  esac
  log="$build/$t.log"
  echo "fuzz.sh: $t for ${seconds}s"
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$build/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
      -print_final_stats=1 -artifact_prefix="$build/$t-" "$work" "${seeds[@]}" >"$log" 2>&1; then
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz.sh: $t ok: ${execs:-?} executions in ${seconds}s"
  else
    echo "fuzz.sh: $t FAILED; see $log and $build/$t-*" >&2
    tail -40 "$log" >&2
    status=1
  fi
done
exit $status
