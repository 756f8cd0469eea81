#!/usr/bin/env bash
# Lints docs/openapi.yaml with both linters integrators use: Redocly CLI (recommended ruleset)
# and Spectral (spectral:oas). Any error fails; warnings are printed (and fail too with
# --strict, which the CTest test uses: the file is kept free of warnings). The tools are pinned in
# scripts/package.json and installed by scripts/install-deps.sh --node.
#   scripts/lint-openapi.sh [--strict] [FILE]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
strict=0
if [ "${1:-}" = --strict ]; then strict=1; shift; fi
file="$(realpath "${1:-$here/../docs/openapi.yaml}")"
bin="$here/node_modules/.bin"
for tool in redocly spectral; do
  [ -x "$bin/$tool" ] || { echo "lint-openapi: $bin/$tool is missing; run scripts/install-deps.sh --node" >&2; exit 1; }
done
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1
status=0
echo "== Redocly CLI (recommended)"
out="$(cd "$here" && "$bin/redocly" lint --extends=recommended --format=stylish "$file" 2>&1)" || status=1
echo "$out"
if [ "$strict" = 1 ] && grep -qE 'You have [1-9][0-9]* warning' <<<"$out"; then
  echo "lint-openapi: Redocly warnings (strict)" >&2
  status=1
fi
echo "== Spectral (spectral:oas)"
fail=error
[ "$strict" = 1 ] && fail=warn
(cd "$here" && "$bin/spectral" lint --ruleset "$here/spectral.yaml" --fail-severity "$fail" "$file") || status=1
exit "$status"
