#!/bin/sh
# Starts redis-server as PID 1 (it handles SIGTERM itself: final AOF fsync, then exit) with the
# project's config, listening on every interface of the container, data in /data.
# REDIS_PASSWORD (from a Secret or the compose environment) becomes requirepass; it is passed on
# the command line, so it is visible to processes in this container only. Extra arguments are
# appended as redis-server options (e.g. --loglevel verbose).
set -eu
if [ -n "${REDIS_PASSWORD:-}" ]; then
  set -- --requirepass "$REDIS_PASSWORD" "$@"
fi
exec redis-server /etc/dq/redis.conf --bind 0.0.0.0 --port 6379 --dir /data "$@"
