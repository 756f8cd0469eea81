#!/usr/bin/env python3
"""Every dq component works under its own Redis ACL user, and only there.

Starts redis-server through deploy/redis/start-redis.sh with deploy/redis/users.acl (as the
compose stack, Kubernetes and `./dev up` do), then the real binaries on free loopback ports, each
with its own user: dq-validator (no Redis), dq-gateway as the API (`dq-gateway`), a second
dq-gateway as the job workers (`dq-worker`), dq-notifier (`dq-notifier`) and dqctl (`dq-dqctl`).
It then walks one merchant's path through all of them:
  dqctl creates an account, a key and a webhook to a local receiver;
  a console user signs up (users, sessions, throttles);
  an upload runs to `done` on the worker;
  the notifier delivers its signed job.complete to the receiver.
Finally it checks that no log names a refused Redis command (NOPERM), and that the narrow users
are narrow: the worker may not read API keys, the notifier may not read console users, nobody but
dqctl may run FLUSHALL. Exits 1 on any failure. Loopback only; about 10 s.

  scripts/acl-check.py [--build DIR]       (CTest runs it as redis_acl_users)
"""
import argparse
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
from free_port import free_port  # noqa: E402  (scripts/lib/free_port.py: the one port picker)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORDS = {"REDIS_PASSWORD": "admin-pw", "REDIS_PASSWORD_GATEWAY": "gateway-pw",
             "REDIS_PASSWORD_WORKER": "worker-pw", "REDIS_PASSWORD_NOTIFIER": "notifier-pw",
             "REDIS_PASSWORD_DQCTL": "dqctl-pw"}


def wait_until(what, check, seconds=20):
    end = time.time() + seconds
    while time.time() < end:
        if check():
            return
        time.sleep(0.05)
    raise SystemExit(f"FAIL: {what} within {seconds} s")


def port_open(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def request(method, url, body=None, headers=None):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


class Receiver(http.server.BaseHTTPRequestHandler):
    events = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Receiver.events.append((dict(self.headers), body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="dq-acl.")
    procs = []
    failures = []
    try:
        ports = {n: free_port() for n in ("redis", "validator", "api", "api_ops", "worker_ops",
                                          "notifier", "notifier_grpc")}
        base = {k: v for k, v in os.environ.items() if not k.startswith(("DQ_", "REDIS"))}

        def start(name, argv, env):
            p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                                 stderr=open(os.path.join(work, name + ".log"), "w"))
            procs.append(p)
            return p

        start("redis", ["sh", os.path.join(ROOT, "deploy/redis/start-redis.sh"),
                        os.path.join(ROOT, "deploy/redis/redis.conf"),
                        os.path.join(ROOT, "deploy/redis/users.acl"), "--port",
                        str(ports["redis"]), "--bind", "127.0.0.1", "--dir", work],
              dict(base, **PASSWORDS))
        wait_until("redis listening", lambda: port_open(ports["redis"]))
        start("validator", [os.path.join(a.build, "validator/dq-validator")],
              dict(base, DQ_VALIDATOR_BIND="127.0.0.1", DQ_VALIDATOR_PORT=str(ports["validator"]),
                   DQ_VALIDATOR_OPS_PORT="0"))
        wait_until("validator listening", lambda: port_open(ports["validator"]))

        def dq_env(user, password, **extra):
            return dict(base, DQ_REDIS_PORT=str(ports["redis"]), DQ_REDIS_USER=user,
                        DQ_REDIS_PASSWORD=password, **extra)

        gateway = os.path.join(a.build, "gateway/dq-gateway")
        start("api", [gateway], dq_env(
            "dq-gateway", PASSWORDS["REDIS_PASSWORD_GATEWAY"], DQ_ROLE="api", DQ_WORKERS="0",
            DQ_GATEWAY_BIND="127.0.0.1", DQ_GATEWAY_PORT=str(ports["api"]),
            DQ_GATEWAY_OPS_PORT=str(ports["api_ops"]), DQ_CONSOLE_ALLOW_HTTP="1",
            DQ_VALIDATOR_ADDR=f"127.0.0.1:{ports['validator']}"))
        start("worker", [gateway], dq_env(
            "dq-worker", PASSWORDS["REDIS_PASSWORD_WORKER"], DQ_ROLE="worker",
            DQ_GATEWAY_BIND="127.0.0.1", DQ_GATEWAY_OPS_PORT=str(ports["worker_ops"]),
            DQ_VALIDATOR_ADDR=f"127.0.0.1:{ports['validator']}"))
        start("notifier", [os.path.join(a.build, "notifier/dq-notifier")], dq_env(
            "dq-notifier", PASSWORDS["REDIS_PASSWORD_NOTIFIER"], DQ_NOTIFIER_BIND="127.0.0.1",
            DQ_NOTIFIER_PORT=str(ports["notifier"]),
            DQ_NOTIFIER_GRPC_PORT=str(ports["notifier_grpc"]), DQ_WEBHOOK_ALLOW_HTTP="1",
            DQ_WEBHOOK_ALLOW_PRIVATE="1"))
        api = f"http://127.0.0.1:{ports['api']}"
        for name, port in (("api", ports["api_ops"]), ("worker", ports["worker_ops"]),
                           ("notifier", ports["notifier"])):
            wait_until(f"{name} ready", lambda port=port: port_open(port) and request(
                "GET", f"http://127.0.0.1:{port}/readyz")[0] == 200)

        receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()

        dqctl = os.path.join(a.build, "dqctl/dqctl")
        denv = dq_env("dq-dqctl", PASSWORDS["REDIS_PASSWORD_DQCTL"], DQ_WEBHOOK_ALLOW_HTTP="1",
                      DQ_WEBHOOK_ALLOW_PRIVATE="1", HOOK_SECRET="whsec_" + "A" * 32)
        account = json.loads(subprocess.check_output(
            [dqctl, "account", "create", "--plan", "pro", "--name", "acl"], env=denv))["account_id"]
        key = json.loads(subprocess.check_output(
            [dqctl, "key", "create", "--account", account], env=denv))["api_key"]
        subprocess.check_output([dqctl, "webhook", "set", "--account", account, "--url",
                                 f"http://127.0.0.1:{receiver.server_port}/hook",
                                 "--secret-env", "HOOK_SECRET"], env=denv)

        code, headers, body = request("POST", api + "/console/api/signup", json.dumps(
            {"email": "acl@example.com", "password": "correct horse battery"}).encode(),
            {"Content-Type": "application/json"})
        if code != 201:
            failures.append(f"console signup answered {code}: {body[:200]!r}")
        else:
            cookie = headers.get("Set-Cookie", "").split(";")[0]
            code, _, body = request("GET", api + "/console/api/me", None, {"Cookie": cookie})
            if code != 200:
                failures.append(f"console me answered {code}: {body[:200]!r}")

        csv = b"SKU,Title,Price\nA-1,Mug,12.50\nA-2,,x\n"
        code, _, body = request("POST", api + "/v1/jobs?check_types=product", csv,
                                {"X-API-Key": key, "Content-Type": "text/csv"})
        if code != 202:
            raise SystemExit(f"FAIL: upload answered {code}: {body[:200]!r}")
        job = json.loads(body)["id"]
        status = {}

        def finished():
            status.update(json.loads(request("GET", f"{api}/v1/jobs/{job}", None,
                                             {"X-API-Key": key})[2]))
            return status.get("status") in ("done", "failed")
        wait_until("the job to finish on the dq-worker user", finished)
        if status["status"] != "done":
            failures.append(f"job ended {status['status']}: {status.get('error')}")
        wait_until("the signed job.complete at the receiver",
                   lambda: any(job.encode() in b for _, b in Receiver.events))
        hook_headers = next(h for h, b in Receiver.events if job.encode() in b)
        if "webhook-signature" not in {k.lower() for k in hook_headers}:
            failures.append("the delivery carries no webhook-signature header")
        receiver.shutdown()

        # The narrow users are narrow.
        def as_user(user, password, *cmd):
            return subprocess.run(["redis-cli", "-p", str(ports["redis"]), "--user", user,
                                   "--pass", password, "--no-auth-warning", *cmd],
                                  capture_output=True, text=True, timeout=5).stdout.strip()
        denied = [("dq-worker", "REDIS_PASSWORD_WORKER", ["GET", "dq:apikey:x"]),
                  ("dq-worker", "REDIS_PASSWORD_WORKER", ["GET", "dq:session:x"]),
                  ("dq-notifier", "REDIS_PASSWORD_NOTIFIER", ["GET", "dq:email:x"]),
                  ("dq-gateway", "REDIS_PASSWORD_GATEWAY", ["FLUSHALL"]),
                  ("dq-gateway", "REDIS_PASSWORD_GATEWAY", ["CONFIG", "GET", "dir"]),
                  ("dq-dqctl", "REDIS_PASSWORD_DQCTL", ["FLUSHALL"])]
        for user, var, cmd in denied:
            out = as_user(user, PASSWORDS[var], *cmd)
            if "NOPERM" not in out:
                failures.append(f"{user} may run {' '.join(cmd)} (answer: {out!r})")
        if as_user("dq-worker", PASSWORDS["REDIS_PASSWORD_WORKER"], "XLEN", "dq:jobs:queue") \
                .startswith("(error)"):
            failures.append("dq-worker may not read the job queue")
        # Redis Cluster and Sentinel clients read the slot table and the server's role; nothing
        # else of CLUSTER. (This Redis is no cluster: CLUSTER SLOTS answers an ERR, not NOPERM.)
        for user, var in (("dq-gateway", "REDIS_PASSWORD_GATEWAY"),
                          ("dq-worker", "REDIS_PASSWORD_WORKER"),
                          ("dq-notifier", "REDIS_PASSWORD_NOTIFIER"),
                          ("dq-dqctl", "REDIS_PASSWORD_DQCTL")):
            for cmd in (["CLUSTER", "SLOTS"], ["CLUSTER", "SHARDS"], ["ROLE"]):
                out = as_user(user, PASSWORDS[var], *cmd)
                if "NOPERM" in out:
                    failures.append(f"{user} may not run {' '.join(cmd)} (answer: {out!r})")
            for cmd in (["CLUSTER", "RESET"], ["CLUSTER", "FAILOVER"], ["CLUSTER", "SETSLOT", "1",
                                                                        "STABLE"]):
                out = as_user(user, PASSWORDS[var], *cmd)
                if "NOPERM" not in out:
                    failures.append(f"{user} may run {' '.join(cmd)} (answer: {out!r})")

        for p in procs:
            if p.poll() is not None:
                failures.append(f"{p.args[0]} exited with {p.returncode}")
        for name in ("api", "worker", "notifier"):
            with open(os.path.join(work, name + ".log")) as f:
                refused = [line for line in f if "NOPERM" in line or "no permissions" in line]
            if refused:
                failures.append(f"{name}: Redis refused a command: {refused[0][:300]}")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        shutil.rmtree(work, ignore_errors=True)

    if failures:
        for f in failures:
            print("FAIL:", f)
        return 1
    print("redis ACL users: gateway, worker, notifier and dqctl each worked under their own user "
          "(account, key, webhook, console signup, upload to done, signed delivery); the narrow "
          "users were refused what they do not need")
    return 0


if __name__ == "__main__":
    sys.exit(main())
