# shellcheck shell=bash
# Sourced by the bench and profile scripts: a throwaway dq stack (redis-server with the project's
# config, dq-validator, dq-gateway) on free loopback ports, and an account with a key.
#
# The caller sets ROOT and BUILD, then calls make_work PREFIX: WORK, a fresh folder, and PIDS,
# the processes started; on exit both go (the processes killed, the folder removed).
# VALIDATOR_WRAP / GATEWAY_WRAP, when set, are put in front of that binary (valgrind, say).
# After start_local_stack: REDIS VAL GW ports, REDIS_PID VAL_PID GW_PID, DQ_REDIS_PORT exported,
# and the services' logs in $WORK (redis.log, val.log, gw.log).
# After create_account_key: ACCOUNT and KEY. cpu_ms and faults come from proc-stat.sh. make_validate_body and make_wrk_post write the
# /v1/validate bench body and the wrk script that sends it; start_validate_load does all four.

# The scripts' own knob must not reach the services, which refuse DQ_* names they do not know.
unset DQ_BUILD_DIR

# shellcheck source=free-port.sh
. "$ROOT/scripts/lib/free-port.sh"
# shellcheck source=proc-stat.sh
. "$ROOT/scripts/lib/proc-stat.sh"
wait_port() {  # wait_port PORT [LOG]: up to 120 s (a binary under valgrind starts slowly)
  for _ in $(seq 1 1200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done
  echo "port $1 never opened${2:+; $2 ends:}" >&2
  if [ -n "${2:-}" ]; then tail -5 "$2" >&2; fi
  exit 1
}

make_work() {  # make_work PREFIX
  WORK=$(mktemp -d "/tmp/$1.XXXXXX")
  PIDS=()
  trap cleanup_work EXIT
}
cleanup_work() {  # quiet: the shell would report each killed process
  exec 2>/dev/null
  for p in "${PIDS[@]}"; do kill -9 "$p" || true; done
  rm -rf "$WORK"
}

start_local_stack() {
  REDIS=$(free_port); VAL=$(free_port); GW=$(free_port)
  redis-server "$ROOT/deploy/redis/redis.conf" --port "$REDIS" --bind 127.0.0.1 --dir "$WORK" >"$WORK/redis.log" &
  REDIS_PID=$!; PIDS+=("$REDIS_PID"); wait_port "$REDIS" "$WORK/redis.log"
  # shellcheck disable=SC2086  # the wrappers are word lists on purpose
  DQ_VALIDATOR_BIND=127.0.0.1 DQ_VALIDATOR_PORT=$VAL DQ_VALIDATOR_OPS_PORT=0 \
    ${VALIDATOR_WRAP:-} "$BUILD/validator/dq-validator" 2>"$WORK/val.log" &
  VAL_PID=$!; PIDS+=("$VAL_PID"); wait_port "$VAL" "$WORK/val.log"
  # shellcheck disable=SC2086
  # GATEWAY_ENV: extra NAME=VALUE settings for the gateway, as a word list.
  DQ_GATEWAY_BIND=127.0.0.1 DQ_GATEWAY_PORT=$GW DQ_GATEWAY_OPS_PORT=0 DQ_REDIS_PORT=$REDIS \
    DQ_VALIDATOR_ADDR=127.0.0.1:$VAL DQ_RATE_LIMIT_ENABLED=0 DQ_SHUTDOWN_GRACE_MS=0 \
    env ${GATEWAY_ENV:-} ${GATEWAY_WRAP:-} "$BUILD/gateway/dq-gateway" 2>"$WORK/gw.log" &
  GW_PID=$!; PIDS+=("$GW_PID"); wait_port "$GW" "$WORK/gw.log"
  export DQ_REDIS_PORT=$REDIS
}

create_account_key() {
  ACCOUNT=$("$BUILD/dqctl/dqctl" account create --plan agency | python3 -c 'import json,sys;print(json.load(sys.stdin)["account_id"])')
  # shellcheck disable=SC2034  # KEY is read by the caller
  KEY=$("$BUILD/dqctl/dqctl" key create --account "$ACCOUNT" | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])')
}

# The /v1/validate bench body: ROWS gen_catalog product rows as JSON, four check types, in
# $WORK/body.json.
make_validate_body() {
  python3 "$ROOT/bench/tools/gen_catalog.py" products --rows "$1" --format json --out "$WORK/raw.json"
  python3 - "$WORK/raw.json" "$WORK/body.json" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
body["check_types"] = "product,price,inventory,shipping"
json.dump(body, open(sys.argv[2], "w"))
PY
}

# The whole /v1/validate bench setup: the stack, an account and key, a body of ROWS product rows
# and the wrk script that sends it.
start_validate_load() {  # start_validate_load ROWS
  # One account drives every connection of the load, so its cap on validation calls in progress
  # (DQ_VALIDATE_PER_ACCOUNT, 4: fairness between tenants) would answer most of them 429 and
  # the figures would time refusals. The load measures the service's throughput: the cap is
  # raised above the connections (the tenant-isolation script measures the cap itself), and
  # the plan's monthly records too: a minute of load is more than the agency plan's 10 million.
  GATEWAY_ENV="DQ_VALIDATE_PER_ACCOUNT=256 DQ_QUOTA_AGENCY=1000000000000 ${GATEWAY_ENV:-}"
  start_local_stack
  create_account_key
  make_validate_body "$1"
  make_wrk_post
}

# The wrk script that POSTs $WORK/body.json to /v1/validate with the account's key, in
# $WORK/post.lua.
make_wrk_post() {
  cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-API-Key"] = "$KEY"
local f = io.open("$WORK/body.json", "rb"); wrk.body = f:read("*a"); f:close()
LUA
}
