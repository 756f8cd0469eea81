#!/bin/sh
# Starts redis-server with a config file and the ACL users of an ACL rules file (see
# deploy/redis/users.acl for the format). Used by the dq-redis image's entrypoint and by
# `./dev up`, so both run the same users.
#   start-redis.sh CONF ACL_RULES [redis-server options...]
# REDIS_PASSWORD, when set, becomes requirepass (the default user, for operators and probes).
# Passwords go on redis-server's command line: visible to processes of the same user only.
# A user may take several lines of the rules file; their rules are joined, in order, into one
# --user option (Redis refuses a user defined twice).
set -eu
set -f  # the rules hold key patterns (dq:{*}:*): never expand them as file names
conf=$1
rules=$2
shift 2
users=""
while read -r name var rest; do
  case "$name" in '' | '#'*) continue ;; esac
  id=$(printf '%s' "$name" | tr -c 'A-Za-z0-9_\n' '_')
  eval "seen=\${rules_$id+x}"
  if [ -z "$seen" ]; then
    users="$users $name"
    eval "rules_$id=\$rest; var_$id=\$var"
  else
    eval "rules_$id=\"\${rules_$id} \$rest\""
  fi
done <"$rules"
for name in $users; do
  id=$(printf '%s' "$name" | tr -c 'A-Za-z0-9_\n' '_')
  eval "var=\$var_$id; rest=\$rules_$id"
  eval "pw=\${$var:-}"
  if [ -z "$pw" ]; then
    echo "start-redis: $var is empty: Redis user $name not created" >&2
    continue
  fi
  # shellcheck disable=SC2086 # the rules are words
  set -- "$@" --user "$name" reset on ">$pw" $rest
done
if [ -n "${REDIS_PASSWORD:-}" ]; then
  set -- "$@" --requirepass "$REDIS_PASSWORD"
fi
exec redis-server "$conf" "$@"
