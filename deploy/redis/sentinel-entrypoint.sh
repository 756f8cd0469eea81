#!/bin/sh
# Starts a Redis Sentinel (Debian's redis-sentinel) as PID 1 for the dq-redis image, watching the
# master "dq" (REDIS_MASTER_NAME). Sentinel rewrites its configuration, so it is written to a
# writable directory (SENTINEL_DIR, default /sentinel: an emptyDir or tmpfs) at every start.
#   SENTINEL_MASTER_HOST   the master to watch at first start (its Service or compose name)
#   SENTINEL_ANNOUNCE_HOST this sentinel's name as the others reach it
#   SENTINEL_QUORUM        sentinels that must agree the master is down (default 2 of 3)
#   SENTINEL_DOWN_AFTER_MS default 5000; SENTINEL_FAILOVER_TIMEOUT_MS default 60000
#   REDIS_PASSWORD         the data servers' requirepass (the sentinels authenticate with it)
# The sentinels themselves take no password (DQ_REDIS_SENTINEL_PASSWORD stays empty): reach them
# from dq pods only (the network policies of the sentinel overlay).
set -eu
dir=${SENTINEL_DIR:-/sentinel}
name=${REDIS_MASTER_NAME:-dq}
conf=$dir/sentinel.conf
cat >"$conf" <<CONF
port 26379
bind 0.0.0.0
dir $dir
sentinel resolve-hostnames yes
sentinel announce-hostnames yes
sentinel announce-ip ${SENTINEL_ANNOUNCE_HOST:?set SENTINEL_ANNOUNCE_HOST}
sentinel monitor $name ${SENTINEL_MASTER_HOST:?set SENTINEL_MASTER_HOST} 6379 ${SENTINEL_QUORUM:-2}
sentinel down-after-milliseconds $name ${SENTINEL_DOWN_AFTER_MS:-5000}
sentinel failover-timeout $name ${SENTINEL_FAILOVER_TIMEOUT_MS:-60000}
sentinel parallel-syncs $name 1
CONF
if [ -n "${REDIS_PASSWORD:-}" ]; then
  printf 'sentinel auth-pass %s %s\n' "$name" "$REDIS_PASSWORD" >>"$conf"
fi
chmod 0600 "$conf"
exec redis-sentinel "$conf"
