#!/usr/bin/env bash
# An XLSX upload to `done`, then its cleaned download: a gen_catalog products file of ROWS rows
# written as a workbook (openpyxl), uploaded RUNS times as a raw body with four check types
# (bench/tools/upload_to_done.py), and the last job's cleaned workbook downloaded once with curl.
# An XLSX job writes its cleaned workbook itself, at its end (docs/architecture.md, "The cleaned
# file"), so this is the XLSX job path end to end. Starts its own redis-server, dq-validator and
# dq-gateway on free loopback ports and stops them after.
#
#   scripts/bench-xlsx.sh [rows=50000] [runs=3]     (needs: ./dev build, python3-openpyxl)
#
# DQ_BUILD_DIR=<build dir> measures another build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
ROWS="${1:-50000}"
RUNS="${2:-3}"

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqbench

python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$ROWS" --out "$WORK/p.csv" >/dev/null
/usr/bin/python3 - "$WORK/p.csv" "$WORK/p.xlsx" <<'PY'  # Debian's python3-openpyxl
import csv, sys
from openpyxl import Workbook
book = Workbook(write_only=True)
sheet = book.create_sheet("Products")
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    for row in csv.reader(f):
        sheet.append(row)
book.save(sys.argv[2])
PY
start_local_stack 2>/dev/null
create_account_key
echo "== XLSX upload to done: $ROWS product rows, product,price,inventory,shipping"
echo "workbook: $(stat -c %s "$WORK/p.xlsx") bytes (the CSV: $(stat -c %s "$WORK/p.csv") bytes)"
times=()
for i in $(seq 1 "$RUNS"); do
  line=$(python3 "$ROOT/bench/tools/upload_to_done.py" "http://127.0.0.1:$GW" "$KEY" "$WORK/p.xlsx" \
    "$WORK/p.csv.mapping.json" product,price,inventory,shipping \
    application/vnd.openxmlformats-officedocument.spreadsheetml.sheet)
  echo "run $i: $line"
  times+=("$(python3 -c 'import json,sys;print(json.loads(sys.argv[1])["done_s"])' "$line")")
  id=$(python3 -c 'import json,sys;print(json.loads(sys.argv[1])["id"])' "$line")
done
echo "median upload to done: $(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s"
curl -s -o "$WORK/cleaned.xlsx" -w 'cleaned download: HTTP %{http_code}, %{size_download} bytes in %{time_total} s\n' \
  "http://127.0.0.1:$GW/v1/jobs/$id/cleaned" -H "X-API-Key: $KEY"
exec 2>/dev/null  # bash would report the services the exit trap kills: noise
