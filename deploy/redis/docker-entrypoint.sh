#!/bin/sh
# Starts redis-server as PID 1 (it handles SIGTERM itself: final AOF fsync, then exit) with the
# project's config and ACL users (deploy/redis/users.acl, via start-redis.sh), listening on every
# interface of the container, data in /data. REDIS_PASSWORD becomes requirepass (operators and
# probes); REDIS_PASSWORD_GATEWAY, _NOTIFIER and _DQCTL are the users' passwords (Secrets or the
# compose environment). Extra arguments are appended as redis-server options.
#
# Under Sentinel (docs/deploy.md, "Redis high availability"), set:
#   REDIS_ANNOUNCE_HOST   this server's name as the others reach it (its Service or compose name)
#   REDIS_SENTINELS       host:port,... of the sentinels: the master they name is followed
#   REDIS_INITIAL_MASTER  the master's name when no sentinel answers yet (first start); a server
#                         whose own name it is starts as the master
# The server then replicates from the master the sentinels name (or the initial one), unless it
# is that master, and authenticates to it with REDIS_PASSWORD.
set -eu
if [ -n "${REDIS_ANNOUNCE_HOST:-}" ]; then
  set -- --replica-announce-ip "$REDIS_ANNOUNCE_HOST" "$@"
  master=""
  old_ifs=$IFS
  IFS=,
  for s in ${REDIS_SENTINELS:-}; do
    # a name with several addresses (a headless Service) is every sentinel behind it
    addrs=$(getent ahosts "${s%:*}" 2>/dev/null | awk '{print $1}' | sort -u | tr '\n' ',')
    for a in ${addrs:-${s%:*}}; do
      answer=$(REDISCLI_AUTH="" redis-cli -h "$a" -p "${s##*:}" --raw \
        SENTINEL get-master-addr-by-name "${REDIS_MASTER_NAME:-dq}" 2>/dev/null |
        tr '\n' ' ') || true
      case "$answer" in
        *[0-9]' ') master=$answer; break 2 ;;
      esac
    done
  done
  IFS=$old_ifs
  if [ -z "$master" ] && [ -n "${REDIS_INITIAL_MASTER:-}" ]; then
    master="$REDIS_INITIAL_MASTER 6379 "
  fi
  host=${master%% *}
  port=${master#* }
  port=${port% }
  if [ -n "$master" ] && [ "$host" != "$REDIS_ANNOUNCE_HOST" ]; then
    set -- --replicaof "$host" "$port" "$@"
  fi
  set -- --masterauth "${REDIS_PASSWORD:-}" "$@"
fi
exec /usr/local/bin/dq-start-redis /etc/dq/redis.conf /etc/dq/users.acl \
  --bind 0.0.0.0 --port 6379 --dir /data "$@"
