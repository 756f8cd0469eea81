#!/bin/sh
# Starts redis-server with a config file and the ACL users of an ACL rules file (see
# deploy/redis/users.acl for the format). Used by the dq-redis image's entrypoint and by
# `./dev up`, so both run the same users.
#   start-redis.sh CONF ACL_RULES [redis-server options...]
# REDIS_PASSWORD, when set, becomes requirepass (the default user, for operators and probes).
# Passwords go on redis-server's command line: visible to processes of the same user only.
set -eu
conf=$1
rules=$2
shift 2
while read -r name var rest; do
  case "$name" in '' | '#'*) continue ;; esac
  eval "pw=\${$var:-}"
  if [ -z "$pw" ]; then
    echo "start-redis: $var is empty: Redis user $name not created" >&2
    continue
  fi
  # shellcheck disable=SC2086 # the rules are words
  set -- "$@" --user "$name" reset on ">$pw" $rest
done <"$rules"
if [ -n "${REDIS_PASSWORD:-}" ]; then
  set -- "$@" --requirepass "$REDIS_PASSWORD"
fi
exec redis-server "$conf" "$@"
