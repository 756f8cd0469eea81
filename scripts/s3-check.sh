#!/usr/bin/env bash
# s3-check.sh: the S3 artifact store's long checks against a real RADOS Gateway. CTest runs the
# short form (tests/integration/artifact/s3_store_test.cpp: the store contract, a handful of
# objects, one multipart upload); this adds a 100 MiB object in 8 MiB parts, 2,500 keys listed
# and deleted, and the gateway killed during a multipart upload
# (tests/integration/artifact/s3_store_full_test.cpp), after running the short form once more.
#
#   scripts/s3-check.sh [BUILD_DIR]      (default: build; the tests must be built)
#
# Needs `scripts/install-deps.sh --s3`. Takes about a minute on 2 cores.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
BIN="$BUILD/tests/integration/artifact"
for t in artifact_s3_integration_tests artifact_s3_full_tests; do
  [[ -x "$BIN/$t" ]] || { echo "s3-check: $BIN/$t is not built (ninja -C $BUILD $t)" >&2; exit 2; }
done

DIR="$(mktemp -d /tmp/dq-s3-check.XXXXXX)"
rmdir "$DIR"
trap '"$ROOT/scripts/start-rgw.sh" stop "$DIR" --kill' EXIT
"$ROOT/scripts/start-rgw.sh" start "$DIR" >/dev/null
export DQ_RGW_DIR="$DIR" DQ_RGW_SCRIPT="$ROOT/scripts/start-rgw.sh"
"$BIN/artifact_s3_integration_tests"
"$BIN/artifact_s3_full_tests"
