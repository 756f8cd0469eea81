#!/usr/bin/env bash
# Where POST /v1/validate spends its CPU under load, in seconds rather than instructions: the
# load of scripts/bench-validate.sh (500 product rows, product,price,inventory,shipping,
# wrk -t2 -c32) while `perf record` samples the CPU clock with DWARF call graphs. The whole
# machine is sampled (a service starts threads while it runs, which `perf record -p` misses)
# and one service's samples are kept. For its main frames, prints the share of its samples under
# each and how that splits among the functions it calls (scripts/lib/perf_fold.py). Kernel time
# on the service's behalf (sends, receives, page faults) counts where it was spent. Call graphs
# deeper than the 16 KiB of stack copied per sample are cut, so outer frames count too few.
#
#   scripts/perf-validate.sh [gateway|validator] [seconds=8]     (needs: perf, wrk, python3)
#
# The samples stay in $OUT (default /tmp/dq-perf-<service>.data) for `perf report -i`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034  # read by lib/local-stack.sh
BUILD="${DQ_BUILD_DIR:-$ROOT/build}"
WHO="${1:-gateway}"
SECONDS_RECORDED="${2:-8}"
OUT="${OUT:-/tmp/dq-perf-$WHO.data}"
case "$WHO" in gateway|validator) ;; *) echo "usage: $0 [gateway|validator] [seconds]" >&2; exit 2 ;; esac

# shellcheck source=lib/local-stack.sh
. "$ROOT/scripts/lib/local-stack.sh"
make_work dqperf
start_validate_load 500 2>/dev/null
if [ "$WHO" = gateway ]; then PID=$GW_PID; else PID=$VAL_PID; fi
wrk -t2 -c32 -d"$((SECONDS_RECORDED + 2))s" -s "$WORK/post.lua" "http://127.0.0.1:$GW/v1/validate" >"$WORK/wrk.txt" &
WRK_PID=$!
sleep 1  # let the load reach its steady state before sampling
perf record -a -e cpu-clock -F 499 --call-graph dwarf,16384 -o "$OUT" -- sleep "$SECONDS_RECORDED" 2>/dev/null >/dev/null
wait "$WRK_PID"
grep -E "Requests/sec" "$WORK/wrk.txt"
perf script -i "$OUT" --pid "$PID" 2>/dev/null >"$WORK/stacks.txt"
if [ "$WHO" = gateway ]; then
  FRAMES=("ApiHandler::onRequest" "Gateway::Validate" "ParseValidateRequestInto" "GrpcValidatorClient::Validate" "WriteValidateResponse")
else
  FRAMES=("ValidateBatch" "Session::EndRows")
fi
python3 "$ROOT/scripts/lib/perf_fold.py" "$WORK/stacks.txt" "${FRAMES[@]}"
