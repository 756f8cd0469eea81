#!/usr/bin/env bash
# The full form of the artifact store's chaos test (tests/integration/chaos/artifact_chaos_test.cpp,
# issue 34 "Faults"): all 30 chaos files and more kills, with the fs store (a worker SIGKILLed
# between an object's write and its commit) and the s3 store (a real RGW SIGKILLed mid-upload and
# while the workers write). `./dev test` runs the short form (10 files). Several seeds in a row:
#
#   scripts/chaos-artifact.sh [SEED...]      default: one run with the test's own seed
#
# DQ_BUILD_DIR=<build dir> runs another build's test binary. Needs the RGW packages for the s3 case
# (scripts/install-deps.sh --s3); without them that case is reported as skipped.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
BIN="$BUILD/tests/integration/chaos/chaos_artifact_integration_tests"
[ -x "$BIN" ] || { echo "no $BIN: ninja -C $BUILD chaos_artifact_integration_tests" >&2; exit 2; }
unset DQ_BUILD_DIR
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=("")
status=0
for seed in "${seeds[@]}"; do
  echo "== DQ_CHAOS_FULL=1${seed:+ DQ_CHAOS_SEED=$seed}"
  if [ -n "$seed" ]; then
    DQ_CHAOS_FULL=1 DQ_CHAOS_SEED="$seed" "$BIN" || status=1
  else
    DQ_CHAOS_FULL=1 "$BIN" || status=1
  fi
done
exit "$status"
