#!/usr/bin/env bash
# Puts Google's current product taxonomy (the values of google_product_category) at
# validator/data/taxonomy-with-ids.en-US.txt, where the next build embeds it
# (validator/data/README.md). The repository does not ship the file. A maintainer's tool, run by
# hand before building a release: it fetches from the internet, which the build and the service
# never do.
#
#   scripts/update-taxonomy.sh [URL]
#
# Checks before replacing anything: the first line names a version, every other line is
# "<id> - <path>", the ids are distinct, and there are at least 5,000 categories. Prints the old
# and the new version and the number of categories added and removed. Afterwards: rebuild, run
# re-run cmake (the build looks for the file when it is configured) and rebuild; the validator's
# start-up log and `GET /v1/issue-codes`' docs name the version then embedded.
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

old="$target"
[ -f "$old" ] || old=/dev/null  # the first run: no file yet
old_version="$(head -n 1 "$old" | sed 's/^# Google_Product_Taxonomy_Version: //')"
new_version="$(head -n 1 "$tmp" | sed 's/^# Google_Product_Taxonomy_Version: //')"
added="$(comm -13 <(tail -n +2 "$old" | cut -d' ' -f1 | sort) \
                  <(tail -n +2 "$tmp" | cut -d' ' -f1 | sort) | wc -l)"
removed="$(comm -23 <(tail -n +2 "$old" | cut -d' ' -f1 | sort) \
                    <(tail -n +2 "$tmp" | cut -d' ' -f1 | sort) | wc -l)"
cp "$tmp" "$target"
echo "update-taxonomy: ${old_version:-none} -> $new_version, $count categories ($added ids added, $removed removed)"
