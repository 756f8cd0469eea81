#!/usr/bin/env bash
# Redis failover, in full (issue 35): the Sentinel scenarios on real redis-server and
# redis-sentinel processes on loopback, each against a fault-free reference, and the cluster
# client's tests on a 3-master, 3-replica Redis Cluster. Prints the measured times ([failover]
# lines). CTest runs only the short form (redis_ha_integration_tests).
#
#   scripts/failover-check.sh [BUILD_DIR]      (default: build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
ninja -C "$BUILD" -j "${DQ_BUILD_JOBS:-2}" redis_ha_integration_tests redis_failover_full \
  dq-gateway dq-validator >/dev/null
status=0
echo "== short form: kill -9 of the master mid-job, paused replicas, the cluster client"
"$BUILD/tests/integration/redis_ha/redis_ha_integration_tests" || status=1
echo "== full: a planned failover and a forced loss under load, three kills in a row"
"$BUILD/tests/integration/redis_ha/redis_failover_full" || status=1
exit "$status"
