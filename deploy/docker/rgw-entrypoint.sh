#!/usr/bin/env bash
# The dq-rgw image's entrypoint (deploy/docker/Containerfile.rgw): starts the one-node Ceph and
# radosgw with dq-start-rgw (scripts/start-rgw.sh) listening on every address, makes the bucket,
# then stays until SIGTERM (stops the daemons) or until a daemon dies (exits 1, so the container
# restarts). Its state is a scratch directory: RGW_STATE_DIR, by default /var/lib/dq-rgw/state
# (an emptyDir in Kubernetes); compose points it into the container's /tmp tmpfs.
set -euo pipefail
PORT="${RGW_PORT:-7480}"
BUCKET="${DQ_S3_BUCKET:-dq-jobs}"
export S3_ACCESS_KEY="${S3_ACCESS_KEY:-DQDEVACCESSKEY000001}"
export S3_SECRET_KEY="${S3_SECRET_KEY:-dqdevsecretkey00000000000000000000000001}"
export RGW_BIND=0.0.0.0
STATE="${RGW_STATE_DIR:-/var/lib/dq-rgw/state}"
START="${DQ_START_RGW:-/usr/local/bin/dq-start-rgw}"

"$START" stop "$STATE" --kill >/dev/null 2>&1 || rm -rf "$STATE"
"$START" start "$STATE" "$PORT" >/dev/null
trap '"$START" stop "$STATE"; exit 0' TERM INT

# The bucket, signed with the user's keys (an empty body: its SHA-256 is the constant below).
# 200: made; 409 BucketAlreadyOwnedByYou: there already.
code="$(curl -s -o /dev/null -w '%{http_code}' -X PUT \
  --aws-sigv4 "aws:amz:us-east-1:s3" --user "$S3_ACCESS_KEY:$S3_SECRET_KEY" \
  -H 'x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' \
  "http://127.0.0.1:$PORT/$BUCKET")"
if [[ "$code" != 200 && "$code" != 409 ]]; then
  echo "dq-rgw: creating bucket $BUCKET answered HTTP $code" >&2
  "$START" stop "$STATE" --kill
  exit 1
fi
echo "dq-rgw: S3 on port $PORT, bucket $BUCKET" >&2

while ! "$START" status "$STATE" | grep -q stopped; do
  sleep 5 &
  wait $! || true  # a signal ends the sleep at once: the trap runs
done
echo "dq-rgw: a daemon stopped; its logs:" >&2
tail -n 20 "$STATE"/log/*.out >&2 || true
exit 1
