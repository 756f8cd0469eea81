#!/usr/bin/env bash
# Replaces validator/data/taxonomy-with-ids.en-US.txt with Google's current product taxonomy
# (the values of google_product_category; validator/data/README.md). A maintainer's tool, run by
# hand: it fetches from the internet, which the build and the service never do.
#
#   scripts/update-taxonomy.sh [URL]
#
# Checks before replacing anything: the first line names a version, every other line is
# "<id> - <path>", the ids are distinct, and there are at least 5,000 categories. Prints the old
# and the new version and the number of categories added and removed. Afterwards: rebuild, run
# the engine tests (the taxonomy test pins the version and size: update them with the file), and
# say in validator/data/README.md and docs/channels.md which version is shipped.
set -euo pipefail
url="${1:-https://www.google.com/basepages/producttype/taxonomy-with-ids.en-US.txt}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/validator/data/taxonomy-with-ids.en-US.txt"
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT

curl --fail --silent --show-error --location --max-time 60 --output "$tmp" "$url"
# Google's file ends each line with \n; keep it so, without a BOM.
sed -i '1s/^\xEF\xBB\xBF//; s/\r$//' "$tmp"

head -n 1 "$tmp" | grep -Eq '^# Google_Product_Taxonomy_Version: [0-9]{4}-[0-9]{2}-[0-9]{2}$' || {
  echo "update-taxonomy: the first line is not a version line: $(head -n 1 "$tmp")" >&2
  exit 1
}
bad="$(tail -n +2 "$tmp" | grep -Evc '^[0-9]+ - [^>]+( > [^>]+)*$' || true)"
if [ "$bad" != 0 ]; then
  echo "update-taxonomy: $bad lines are not '<id> - <path>'" >&2
  exit 1
fi
count="$(tail -n +2 "$tmp" | grep -c "")"
distinct="$(tail -n +2 "$tmp" | cut -d' ' -f1 | sort -u | wc -l)"
if [ "$count" -lt 5000 ] || [ "$count" != "$distinct" ]; then
  echo "update-taxonomy: $count categories, $distinct distinct ids: not the file expected" >&2
  exit 1
fi

old_version="$(head -n 1 "$target" 2>/dev/null | sed 's/^# Google_Product_Taxonomy_Version: //')"
new_version="$(head -n 1 "$tmp" | sed 's/^# Google_Product_Taxonomy_Version: //')"
added="$(comm -13 <(tail -n +2 "$target" | cut -d' ' -f1 | sort) \
                  <(tail -n +2 "$tmp" | cut -d' ' -f1 | sort) | wc -l)"
removed="$(comm -23 <(tail -n +2 "$target" | cut -d' ' -f1 | sort) \
                    <(tail -n +2 "$tmp" | cut -d' ' -f1 | sort) | wc -l)"
cp "$tmp" "$target"
echo "update-taxonomy: $old_version -> $new_version, $count categories ($added ids added, $removed removed)"
