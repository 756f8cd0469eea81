#!/usr/bin/env bash
# start-rgw.sh: a throwaway S3 server for tests: Ceph's RADOS Gateway (radosgw) on a one-node
# Ceph (one monitor, one OSD keeping objects in RAM), from Debian 12's own packages, on
# 127.0.0.1, every file under one directory, no systemd, no containers. It is the real S3 code
# (SigV4, multipart, ranges, listings), not a mock. Install the packages with
# `scripts/install-deps.sh --s3`.
#
#   scripts/start-rgw.sh start DIR [PORT]   start it (DIR must be empty or absent) and print
#                                           S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION
#                                           lines (also kept in DIR/s3.env); about 3 s
#   scripts/start-rgw.sh stop DIR [--kill]  stop what start started in DIR, then remove DIR
#   scripts/start-rgw.sh status DIR         pids and memory of the three daemons
#   scripts/start-rgw.sh kill-rgw DIR       SIGKILL the gateway alone (objects survive in the OSD)
#   scripts/start-rgw.sh start-rgw DIR      start the gateway again after kill-rgw
#
# Environment: S3_ACCESS_KEY / S3_SECRET_KEY (the test user's keys; fixed defaults),
# RGW_MEMSTORE_BYTES (capacity the OSD reports; 4 GiB), RGW_TIMEOUT (seconds per phase; 60),
# RGW_BIND (the gateway's listen address; 127.0.0.1, and 0.0.0.0 in the dq-rgw image only).
#
# Why each setting (found the hard way; see the notes in docs/deploy.md, "Job files"):
# - cephx is off inside the cluster, so no keyrings are handed around; S3 requests are still
#   authenticated by the gateway with the user's keys. With auth off, radosgw's own default of a
#   "secure" monitor connection cannot be met and it waits forever: every ms_*_mode is crc.
# - Every osdmap change waits for the next paxos proposal (1 s by default); RGW makes about
#   eight pools at its first start, so a 0.1 s interval takes start-up from ~13 s to ~3 s.
# - No "rgw dns name": every Host header then means path-style requests (what dq sends).
# - memstore keeps objects in the OSD's RAM (about 2 MB of RSS per MB stored), and deleted
#   objects' data is freed by RGW's garbage collector, here after 60 s instead of 2 h.
# - The daemons are detached (setsid) so `$(start-rgw.sh start ...)` returns; always call stop
#   (a trap, a CTest cleanup fixture). stop signals a pid only while its command line names
#   DIR/ceph.conf, and removes DIR only when it holds this script's marker file.
# - A dead daemon may stay a zombie for seconds (kill -0 succeeds on it): liveness is read from
#   /proc/PID/stat.
set -euo pipefail

MARKER=".dq-rgw"
ACCESS="${S3_ACCESS_KEY:-DQTESTACCESSKEY00001}"
SECRET="${S3_SECRET_KEY:-dqtestsecretkey0000000000000000000000001}"
REGION="us-east-1"
TIMEOUT="${RGW_TIMEOUT:-60}"

say() { printf '[start-rgw %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { say "error: $*"; exit 1; }

need() {
  local missing=() bin
  for bin in ceph-mon ceph-osd radosgw radosgw-admin ceph monmaptool ceph-authtool python3 curl; do
    command -v "$bin" >/dev/null 2>&1 || missing+=("$bin")
  done
  if ((${#missing[@]})); then
    say "missing: ${missing[*]}; install them with scripts/install-deps.sh --s3"
    exit 2
  fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

running() {  # pid: alive and not a zombie
  local state
  state="$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" && [[ -n "$state" && "$state" != Z ]]
}
ours() {  # name: its pid is running and is the daemon we started from DIR/ceph.conf
  local pid
  [[ -f "$D/pids/$1" ]] || return 1
  pid="$(cat "$D/pids/$1")"
  running "$pid" && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$D/ceph.conf"
}

launch() {  # name command...: detached, output to DIR/log/name.out, pid to DIR/pids/name
  local name=$1
  shift
  setsid "$@" </dev/null >>"$D/log/$name.out" 2>&1 &
  echo $! >"$D/pids/$name"
}

ceph_cmd() { timeout 30 ceph -c "$D/ceph.conf" --connect-timeout 10 "$@"; }

wait_for() {  # what daemon command...: poll until the command succeeds or the daemon dies
  local what=$1 daemon=$2 started=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    if ! ours "$daemon"; then
      say "$daemon died while waiting for $what; its log:"
      tail -n 25 "$D/log/$daemon.out" "$D/log/"*"$daemon"*.log 2>/dev/null >&2 || true
      return 1
    fi
    ((SECONDS - started < TIMEOUT)) || { say "no $what after ${TIMEOUT}s"; return 1; }
    sleep 0.2
  done
}

osd_up() {
  ceph_cmd osd dump -f json | python3 -c 'import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d["osds"] and all(o["up"] == 1 for o in d["osds"]) else 1)'
}
http_up() { [[ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$(cat "$D/rgw.port")/")" == 200 ]]; }

print_env() {
  echo "S3_ENDPOINT=http://127.0.0.1:$(cat "$D/rgw.port")"
  echo "S3_ACCESS_KEY=$(cat "$D/s3.access")"
  echo "S3_SECRET_KEY=$(cat "$D/s3.secret")"
  echo "S3_REGION=$REGION"
}

write_conf() {  # fsid mon_port rgw_port
  cat >"$D/ceph.conf" <<CONF
[global]
fsid = $1
mon host = v2:127.0.0.1:$2
mon initial members = a
public addr = 127.0.0.1
public network = 127.0.0.0/8
ms bind ipv6 = false
ms bind msgr1 = false
auth cluster required = none
auth service required = none
auth client required = none
auth supported = none
ms mon client mode = crc
ms client mode = crc
ms mon cluster mode = crc
ms cluster mode = crc
ms service mode = crc
ms mon service mode = crc
keyring = $D/keyring
run dir = $D/run
pid file = $D/run/\$name.pid
admin socket = $D/run/\$name.asok
log file = $D/log/\$name.log
log to stderr = false
err to stderr = true
log to syslog = false
crash dir = $D/crash
mon cluster log file = $D/log/cluster.log
tmp dir = $D/tmp
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon max pg per osd = 1000
osd crush chooseleaf type = 0
mon data avail warn = 1
mon data avail crit = 0
mon allow pool delete = true

[mon]
mon data = $D/mon.\$id
paxos propose interval = 0.1

[osd]
osd data = $D/osd.\$id
osd objectstore = memstore
memstore device bytes = ${RGW_MEMSTORE_BYTES:-4294967296}

[client.rgw.dq]
rgw data = $D/rgw
rgw frontends = beast endpoint=${RGW_BIND:-127.0.0.1}:$3 tcp_nodelay=1
rgw enable usage log = false
rgw thread pool size = 64
rgw gc obj min wait = 60
rgw gc processor period = 60
CONF
}

cmd_start() {
  need
  [[ $# -ge 1 ]] || die "usage: start-rgw.sh start DIR [PORT]"
  mkdir -p "$1"
  D="$(cd "$1" && pwd -P)"
  [[ "$D" != *" "* ]] || die "DIR must not contain spaces (it goes into ceph.conf)"
  [[ -z "$(ls -A "$D")" ]] || die "$D is not empty (stop it first)"
  local rgw_port="${2:-$(free_port)}" mon_port fsid osd_uuid began
  began=$(date +%s%N)
  trap 'if (($?)); then say "start failed; logs kept in $D/log"; cmd_stop "$D" --kill --keep; fi' EXIT
  : >"$D/$MARKER"
  mkdir -p "$D"/{log,pids,run,mon.a,osd.0,rgw,crash,tmp}
  mon_port="$(free_port)"
  fsid="$(cat /proc/sys/kernel/random/uuid)"
  echo "$rgw_port" >"$D/rgw.port"
  echo "$ACCESS" >"$D/s3.access"
  echo "$SECRET" >"$D/s3.secret"
  write_conf "$fsid" "$mon_port" "$rgw_port"

  ceph-authtool --create-keyring "$D/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool "$D/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' \
    --cap mgr 'allow *' >/dev/null
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$D/monmap" >/dev/null
  ceph-mon -c "$D/ceph.conf" -i a --mkfs --monmap "$D/monmap" --keyring "$D/keyring" \
    >>"$D/log/mon.a.out" 2>&1 || die "ceph-mon --mkfs failed (see $D/log/mon.a.out)"
  launch mon.a ceph-mon -c "$D/ceph.conf" -i a -f
  wait_for "monitor quorum" mon.a ceph_cmd mon stat || die "the monitor did not start"

  osd_uuid="$(cat /proc/sys/kernel/random/uuid)"
  [[ "$(ceph_cmd osd new "$osd_uuid")" == 0 ]] || die "ceph osd new did not give osd.0"
  ceph-osd -c "$D/ceph.conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >>"$D/log/osd.0.out" 2>&1 ||
    die "ceph-osd --mkfs failed (see $D/log/osd.0.out)"
  launch osd.0 ceph-osd -c "$D/ceph.conf" -i 0 -f
  wait_for "osd.0 up" osd.0 osd_up || die "the OSD did not come up"

  launch rgw radosgw -c "$D/ceph.conf" -n client.rgw.dq -f
  wait_for "HTTP on port $rgw_port" rgw http_up || die "radosgw did not answer"
  timeout 60 radosgw-admin -c "$D/ceph.conf" user create --uid=dq-test --display-name="dq tests" \
    --access-key="$ACCESS" --secret="$SECRET" >"$D/log/user.json" 2>>"$D/log/radosgw-admin.err" ||
    die "radosgw-admin user create failed (see $D/log/radosgw-admin.err)"
  trap - EXIT
  print_env >"$D/s3.env"
  say "S3 ready in $((($(date +%s%N) - began) / 1000000)) ms on 127.0.0.1:$rgw_port; state in $D"
  print_env
}

stop_one() {  # name signal
  local pid
  if ours "$1"; then
    pid="$(cat "$D/pids/$1")"
    kill "-$2" "$pid" 2>/dev/null || true
    local waited=0
    while running "$pid"; do
      if ((waited == 100)); then say "$1 ($pid) ignored SIG$2 for 10 s; SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; fi
      sleep 0.1
      waited=$((waited + 1))
    done
  fi
  rm -f "$D/pids/$1"
}

cmd_stop() {
  [[ $# -ge 1 ]] || die "usage: start-rgw.sh stop DIR [--kill] [--keep]"
  [[ -d "$1" ]] || return 0
  D="$(cd "$1" && pwd -P)"
  shift
  local signal=TERM keep=0 arg
  for arg in "$@"; do
    case "$arg" in
      --kill) signal=KILL ;;
      --keep) keep=1 ;;
      *) die "unknown option $arg" ;;
    esac
  done
  [[ -f "$D/$MARKER" ]] || die "$D was not made by start-rgw.sh; not touching it"
  local name
  for name in rgw osd.0 mon.a; do stop_one "$name" "$signal"; done
  if ((keep)); then say "stopped; kept $D"; else rm -rf -- "$D"; fi
}

cmd_status() {
  D="$(cd "$1" && pwd -P)"
  local name
  for name in mon.a osd.0 rgw; do
    if ours "$name"; then
      echo "$name pid=$(cat "$D/pids/$name") rss_kb=$(awk '/VmRSS/{print $2}' "/proc/$(cat "$D/pids/$name")/status")"
    else
      echo "$name stopped"
    fi
  done
}

sub="${1:-}"
shift || true
case "$sub" in
  start) cmd_start "$@" ;;
  stop) cmd_stop "$@" ;;
  status) [[ $# -ge 1 ]] || die "usage: start-rgw.sh status DIR"; cmd_status "$1" ;;
  env) [[ $# -ge 1 ]] || die "usage: start-rgw.sh env DIR"; D="$(cd "$1" && pwd -P)"; print_env ;;
  kill-rgw) [[ $# -ge 1 ]] || die "usage: start-rgw.sh kill-rgw DIR"; D="$(cd "$1" && pwd -P)"; stop_one rgw KILL ;;
  start-rgw)
    [[ $# -ge 1 ]] || die "usage: start-rgw.sh start-rgw DIR"
    D="$(cd "$1" && pwd -P)"
    ours rgw && die "radosgw is already running"
    launch rgw radosgw -c "$D/ceph.conf" -n client.rgw.dq -f
    wait_for "HTTP on port $(cat "$D/rgw.port")" rgw http_up || die "radosgw did not answer"
    ;;
  *) sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
