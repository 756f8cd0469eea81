#!/usr/bin/env bash
# `dq check` beside the pandas script (issue 30 point 5), in one run on one machine: the same
# gen_catalog product file and mapping (bench/tools/gen_catalog.py), the same check families as
# scripts/bench-vs-pandas.sh (product, price, inventory, shipping), each timed as a whole process
# (start-up and reading included) by hyperfine, one command after the other:
#   dq report     dq check FILE                        the readable report (counts, top codes)
#   dq 1 thread   the same with --threads 1            one core, as pandas uses
#   dq full       --format json --cleaned OUT          every issue record and the cleaned file
#   pandas        bench/tools/peer_pandas.py           issue counts only
# Prints hyperfine's table (mean, min, max) and its ratios against pandas.
#
#   scripts/bench-cli.sh [rows=100000] [runs=5]     (needs: ./dev build; hyperfine, python3-pandas)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-100000}"
RUNS="${2:-5}"
"$ROOT/scripts/install-deps.sh" --bench
[ -x "$BUILD/cli/dq" ] || { echo "no $BUILD/cli/dq: run ./dev build first" >&2; exit 1; }

WORK=$(mktemp -d /tmp/dq-bench-cli.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
FILE="$WORK/products.csv"
python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$ROWS" --out "$FILE"
MAPPING="$FILE.mapping.json"
CHECKS=product,price,inventory,shipping

echo "# $(date -u '+%F %T UTC'), $(nproc) cores, load average:$(uptime | sed 's/.*load average://')"
echo "# $ROWS rows, $(du -m "$FILE" | cut -f1) MB; $RUNS runs each after one warm-up; commit $(git -C "$ROOT" rev-parse --short HEAD)"
# The verdict once, so the figures below are known to be of a run that checked the whole file.
"$BUILD/cli/dq" check "$FILE" --mapping "@$MAPPING" --checks "$CHECKS" --fail-on none |
  sed -n '1p;4,6p'
/usr/bin/python3 "$ROOT/bench/tools/peer_pandas.py" "$FILE" "$MAPPING" products | cut -c1-160

DQ="$BUILD/cli/dq check $FILE --mapping @$MAPPING --checks $CHECKS --fail-on none"
hyperfine --warmup 1 --runs "$RUNS" --style basic --export-markdown "$WORK/table.md" \
  -n "dq report" "$DQ" \
  -n "dq 1 thread" "$DQ --threads 1" \
  -n "dq full" "$DQ --format json --cleaned $WORK/cleaned.csv" \
  -n "pandas" "/usr/bin/python3 $ROOT/bench/tools/peer_pandas.py $FILE $MAPPING products"
cat "$WORK/table.md"
echo "# load average at the end:$(uptime | sed 's/.*load average://')"
