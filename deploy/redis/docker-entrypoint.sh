#!/bin/sh
# Starts redis-server as PID 1 (it handles SIGTERM itself: final AOF fsync, then exit) with the
# project's config and ACL users (deploy/redis/users.acl, via start-redis.sh), listening on every
# interface of the container, data in /data. REDIS_PASSWORD becomes requirepass (operators and
# probes); REDIS_PASSWORD_GATEWAY, _NOTIFIER and _DQCTL are the users' passwords (Secrets or the
# compose environment). Extra arguments are appended as redis-server options.
set -eu
exec /usr/local/bin/dq-start-redis /etc/dq/redis.conf /etc/dq/users.acl \
  --bind 0.0.0.0 --port 6379 --dir /data "$@"
