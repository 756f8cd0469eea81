#!/usr/bin/env bash
# Runs the corpus of real exports (tests/corpus/) through a throwaway local stack and holds the
# job path and the inline path to each sample's expectations.
#
#   scripts/corpus-check.sh [runner args...]      e.g. --only prestashop --json /tmp/corpus.json
#
# The samples are not in the repository (tests/corpus/README.md says why and names each one by
# repository, commit and SHA-256); point DQ_CORPUS_DATA at a folder of <source>/<file>.
# Needs a build (./dev build). Exit status: the runner's (1 when an expectation fails).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
# The services refuse DQ_* names they do not know: hand the data folder to the runner instead.
DATA_ARGS=()
if [ -n "${DQ_CORPUS_DATA:-}" ]; then DATA_ARGS=(--data-dir "$DQ_CORPUS_DATA"); fi
unset DQ_CORPUS_DATA
# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dq-corpus
start_local_stack
create_account_key
python3 "$ROOT/tests/corpus/run_corpus.py" --base-url "http://127.0.0.1:$GW" --api-key "$KEY" "${DATA_ARGS[@]}" "$@"
