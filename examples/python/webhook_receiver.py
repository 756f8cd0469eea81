#!/usr/bin/env python3
"""A dq webhook receiver that checks every delivery before trusting it.

    WEBHOOK_SECRET=whsec_... python3 webhook_receiver.py --port 8000

For each POST it verifies, on the raw body bytes and before parsing them:

1. X-Service-Signature: "sha256=" + hex HMAC-SHA256 of the body, keyed with the secret as it
   is (the whole string), compared in constant time (hmac.compare_digest).
2. When the delivery carries the Standard Webhooks headers (secrets of the whsec_ form):
   webhook-signature holds "v1,<base64 HMAC-SHA256 of id.timestamp.body>", keyed with the
   base64-decoded part after "whsec_"; webhook-timestamp must be within 5 minutes of now.
   This is what the published `standardwebhooks` package checks (pip install standardwebhooks;
   `Webhook(secret).verify(body, headers)`); it is written out here with the standard library so
   the example runs on a plain Debian python3.

A verified delivery gets 204 and a refused one 401; each prints one JSON line on stdout. Deduplicate
on X-Service-Delivery (the same on every retry): dq delivers at least once.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 5 * 60


def verify_service_signature(secret: bytes, body: bytes, header: str) -> bool:
    expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), (header or "").encode())


def verify_standard_webhooks(secret: str, body: bytes, msg_id: str, timestamp: str,
                             signatures: str, now: float) -> str:
    """Returns "" when valid, else why not."""
    if not secret.startswith("whsec_"):
        return "the secret is not of the whsec_ form"
    try:
        ts = int(timestamp)
    except (TypeError, ValueError):
        return "webhook-timestamp is not an integer"
    if abs(now - ts) > TOLERANCE_SECONDS:
        return "webhook-timestamp is outside the tolerance"
    key = base64.b64decode(secret[len("whsec_"):])
    signed = msg_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    for candidate in (signatures or "").split(" "):
        version, _, sig = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(expected, sig.encode()):
            return ""
    return "no matching v1 signature"


class Handler(BaseHTTPRequestHandler):
    secret = ""
    seen = set()  # delivery ids already processed (in memory here; use your database)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # the raw bytes
        result = {"delivery": self.headers.get("X-Service-Delivery"),
                  "event": self.headers.get("X-Service-Event")}
        why = ""
        if self.secret:
            if not verify_service_signature(self.secret.encode(), body,
                                            self.headers.get("X-Service-Signature")):
                why = "X-Service-Signature does not match"
            result["x_service_signature"] = "invalid" if why else "verified"
            if not why and self.headers.get("webhook-signature") is not None:
                why = verify_standard_webhooks(
                    self.secret, body, self.headers.get("webhook-id", ""),
                    self.headers.get("webhook-timestamp", ""),
                    self.headers.get("webhook-signature", ""), time.time())
                result["standard_webhooks"] = "invalid" if why else "verified"
            else:
                result.setdefault("standard_webhooks", "absent")
        if why:
            result["refused"] = why
            self.answer(401, result)
            return
        payload = json.loads(body)  # only now: the bytes are authentic
        result.update(job_id=payload.get("jobId"), status=payload.get("status"),
                      duplicate=result["delivery"] in self.seen)
        self.seen.add(result["delivery"])
        self.answer(204, result)

    def answer(self, status, result):
        print(json.dumps(result, sort_keys=True), flush=True)
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):  # the JSON line above is the log
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    ap.add_argument("--bind", default="127.0.0.1")
    args = ap.parse_args()
    Handler.secret = os.environ.get("WEBHOOK_SECRET", "")
    if not Handler.secret:
        print("warning: WEBHOOK_SECRET is not set; deliveries are not verified", file=sys.stderr)
    server = ThreadingHTTPServer((args.bind, args.port), Handler)
    print(json.dumps({"listening": server.server_address[1]}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
