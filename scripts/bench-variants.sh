#!/usr/bin/env bash
# Issue 31's speed goal for the product/variant model: a 100k-row Shopify-shaped export (a
# product row, variant rows without Title/Vendor/Body/Image, an image-only row per handle)
# reaches `done` within 1.5x the time of a flat file of the same rows and about the same bytes
# (every row a product). Both are written by bench/tools/gen_shopify.py with Shopify's header,
# uploaded to one throwaway stack alternately (flat, shopify, flat, ...) and timed as a client
# sees them (bench/tools/upload_to_done.py); the medians and their ratio are printed.
#
#   scripts/bench-variants.sh [rows=100000] [runs=5]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-100000}"
RUNS="${2:-5}"
TYPES=product,price,inventory,shipping

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqvariants
start_local_stack
create_account_key

echo "# files: $(python3 "$ROOT/bench/tools/gen_shopify.py" --rows "$ROWS" --out-dir "$WORK")"
echo "# $(date -u '+%F %T UTC'), $(nproc) cores, load average:$(uptime | sed 's/.*load average://')"
echo "# $RUNS runs each, alternating, median kept; check types $TYPES"

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

: >"$WORK/flat.s"; : >"$WORK/shopify.s"
for _ in $(seq 1 "$RUNS"); do
  for kind in flat shopify; do
    out=$(python3 "$ROOT/bench/tools/upload_to_done.py" "http://127.0.0.1:$GW" "$KEY" \
      "$WORK/$kind.csv" "$WORK/$kind.csv.mapping.json" "$TYPES")
    echo "$kind $out"
    field "$out" done_s >>"$WORK/$kind.s"
  done
done
flat=$(median <"$WORK/flat.s"); shop=$(median <"$WORK/shopify.s")
python3 - "$flat" "$shop" <<'PY'
import sys
flat, shop = float(sys.argv[1]), float(sys.argv[2])
ratio = shop / flat
print(f"flat {flat:.3f} s, shopify-shaped {shop:.3f} s: {ratio:.2f}x "
      f"(goal <= 1.5x: {'met' if ratio <= 1.5 else 'NOT met'})")
PY
echo "# load average after:$(uptime | sed 's/.*load average://')"
