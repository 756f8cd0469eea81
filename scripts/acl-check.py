#!/usr/bin/env python3
"""Every dq component works under its own Redis ACL user, and only there; the users are as narrow
as deploy/redis/users.acl says.

Starts redis-server through deploy/redis/start-redis.sh with deploy/redis/users.acl (as the
compose stack, Kubernetes and `./dev up` do), then the real binaries on free loopback ports, each
with its own user: dq-validator (no Redis), dq-gateway as the API (`dq-gateway`), a second
dq-gateway as the job workers (`dq-worker`), dq-notifier (`dq-notifier`) and dqctl (`dq-dqctl`).
It then walks one merchant's path through all of them:
  dqctl creates an account, a key and a webhook to a local receiver, sets a quota override;
  a console user signs up, fails a sign-in (throttle), is made pro by dqctl, creates an API key,
  sets a webhook and sends a test event (queued for the notifier), and redelivers it;
  an upload runs to `done` on the worker and is deleted through the API;
  the notifier delivers its signed job.complete to the receiver.
It checks that no log names a refused Redis command (NOPERM). Finally `ACL DRYRUN` asks Redis
whether each user may run each command of a table (DENIED and ALLOWED below) and compares the
answer with the design: nobody may run FUNCTION, SCRIPT FLUSH, SELECT, MOVE, RENAME or COPY;
only dqctl writes plans and quota overrides; the notifier and the worker read no password
hashes, uploads, sessions or API keys, the worker no webhook secrets, and neither can trim or
delete the event stream. Exits 1 on any failure. Loopback only; about 15 s.

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
from dq_account import new_account  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORDS = {"REDIS_PASSWORD": "admin-pw", "REDIS_PASSWORD_GATEWAY": "gateway-pw",
             "REDIS_PASSWORD_WORKER": "worker-pw", "REDIS_PASSWORD_NOTIFIER": "notifier-pw",
             "REDIS_PASSWORD_DQCTL": "dqctl-pw"}


USERS = {"dq-gateway": "REDIS_PASSWORD_GATEWAY", "dq-worker": "REDIS_PASSWORD_WORKER",
         "dq-notifier": "REDIS_PASSWORD_NOTIFIER", "dq-dqctl": "REDIS_PASSWORD_DQCTL"}

# Refused to every user, dqctl included.
DENIED_TO_ALL = [
    ["FUNCTION", "LOAD", "#!lua name=x\nredis.register_function('f', function() return 1 end)"],
    ["FUNCTION", "FLUSH"], ["FUNCTION", "DELETE", "x"], ["FCALL", "f", "0"],
    ["SCRIPT", "FLUSH"], ["SCRIPT", "LOAD", "return 1"],
    ["SELECT", "1"], ["MOVE", "dq:{acct_a}:account", "1"],
    ["RENAME", "dq:{acct_a}:account", "dq:{acct_b}:account"],
    ["RENAMENX", "dq:{acct_a}:account", "dq:{acct_b}:account"],
    ["COPY", "dq:{acct_a}:plan", "dq:{acct_b}:plan"],
    ["FLUSHALL"], ["FLUSHDB"], ["KEYS", "*"], ["CONFIG", "GET", "dir"], ["DEBUG", "SLEEP", "0"],
    ["ACL", "LIST"], ["MONITOR"], ["PUBLISH", "c", "m"],
    # Of CLUSTER, only the slot table (below): no failover, reset or slot moves.
    ["CLUSTER", "RESET"], ["CLUSTER", "FAILOVER"], ["CLUSTER", "SETSLOT", "1", "STABLE"],
]
# Every user: the Sentinel and Cluster clients' commands (issue 35), none of them on a key.
HA_COMMANDS = [["WAIT", "1", "100"], ["ROLE"], ["ASKING"], ["CLUSTER", "SLOTS"],
               ["CLUSTER", "SHARDS"]]
# Plans and quota overrides: written by dqctl alone.
PLAN_WRITES = [["HSET", "dq:{acct_a}:plan", "plan", "agency"],
               ["HSET", "dq:{acct_a}:plan", "quota", "99999999"],
               ["HDEL", "dq:{acct_a}:plan", "quota"], ["DEL", "dq:{acct_a}:plan"]]
DENIED = {
    "dq-gateway": PLAN_WRITES + [
        ["XTRIM", "dq:events", "MAXLEN", "0"], ["DEL", "dq:events"], ["XDEL", "dq:events", "1-0"],
        ["XGROUP", "DESTROY", "dq:events", "notifier"], ["DEL", "dq:accounts"],
        ["SREM", "dq:accounts", "acct_a"], ["LPUSH", "dq:{acct_a}:webhook:deliveries", "x"],
        ["DEL", "{dq:events:3}"], ["XTRIM", "{dq:events:3}", "MAXLEN", "0"],
        ["DEL", "{dq:jobs:queue:3}"],
    ],
    "dq-worker": PLAN_WRITES + [
        ["GET", "dq:apikey:x"], ["SET", "dq:apikey:x", "acct_a key_1"],
        ["HGETALL", "dq:{acct_a}:webhook"], ["HGETALL", "dq:{acct_a}:user"],
        ["HGETALL", "dq:session:x"], ["GET", "dq:email:a@example.com"],
        ["HGETALL", "dq:{acct_a}:account"], ["HGETALL", "dq:{acct_a}:plan"],
        ["XTRIM", "dq:events", "MAXLEN", "0"], ["DEL", "dq:events"], ["XDEL", "dq:events", "1-0"],
        ["XREADGROUP", "GROUP", "notifier", "c", "STREAMS", "dq:events", ">"],
        ["GET", "dq:login_failures:ip:1.2.3.4"],
        ["XREADGROUP", "GROUP", "notifier", "c", "STREAMS", "{dq:events:3}", ">"],
        ["ZADD", "{dq:webhooks:retry:3}", "1", "x"],
    ],
    "dq-notifier": PLAN_WRITES + [
        ["HGETALL", "dq:{acct_a}:user"], ["LRANGE", "dq:{acct_a}:job:j1:file", "0", "-1"],
        ["HGETALL", "dq:{acct_a}:job:j1"], ["GET", "dq:apikey:x"], ["HGETALL", "dq:session:x"],
        ["GET", "dq:email:a@example.com"], ["HGETALL", "dq:{acct_a}:account"],
        ["HSET", "dq:{acct_a}:webhook", "url", "https://evil.example/"],
        ["SET", "dq:{acct_a}:quota:202611", "0"], ["DECRBY", "dq:{acct_a}:quota:202611", "5"],
        ["XTRIM", "dq:events", "MAXLEN", "0"], ["DEL", "dq:events"], ["XDEL", "dq:events", "1-0"],
        ["XADD", "dq:events", "MAXLEN", "0", "*", "a", "b"],
        ["XGROUP", "DESTROY", "dq:events", "notifier"], ["XADD", "dq:jobs:queue", "*", "a", "b"],
        ["XADD", "{dq:events:3}", "*", "a", "b"], ["XADD", "{dq:jobs:queue:3}", "*", "a", "b"],
        ["DEL", "{dq:webhooks:retry:3}"],
    ],
    "dq-dqctl": [["XTRIM", "dq:events", "MAXLEN", "0"], ["DEL", "dq:events"],
                 ["XADD", "dq:events", "*", "a", "b"]],
}
# What each user needs (a sample of every kind of access it makes), so the table cannot pass by
# refusing everything.
ALLOWED = {
    "dq-gateway": [
        ["PING"], ["GET", "dq:apikey:x"], ["HGETALL", "dq:{acct_a}:account"],
        ["HGETALL", "dq:{acct_a}:plan"], ["HSET", "dq:{acct_a}:account", "name", "Shop"],
        ["SADD", "dq:accounts", "acct_a"], ["HSET", "dq:{acct_a}:webhook", "url", "https://x/"],
        ["LRANGE", "dq:{acct_a}:webhook:deliveries", "0", "9"],
        ["LREM", "dq:{acct_a}:webhook:dead", "1", "x"], ["ZADD", "dq:webhooks:retry", "1", "x"],
        # the retry schedule's index (one scheduled attempt per delivery), written by scripts
        ["HSET", "{dq:webhooks:retry}:ids", "d1", "x"], ["ZSCORE", "dq:webhooks:retry", "x"],
        ["EVALSHA", "0" * 40, "2", "dq:webhooks:retry", "{dq:webhooks:retry}:ids"],
        ["HSET", "dq:{acct_a}:user", "email", "a@example.com"],
        ["SET", "dq:email:a@example.com", "acct_a", "NX"], ["HGETALL", "dq:session:x"],
        ["INCR", "dq:login_failures:email:x"], ["SET", "dq:verify:x", "acct_a"],
        ["SET", "dq:login_device:x", "y"], ["GET", "dq:{acct_a}:quota:202611"],
        ["HSET", "dq:{acct_a}:job:j1", "status", "queued"],
        ["HRANDFIELD", "dq:{acct_a}:job_bytes", "8"],  # an upload's byte reservation
        # a preview's kept upload (issue 33): its file and record, the account's list of them
        ["RPUSH", "dq:{acct_a}:job:u1:file", "x"], ["HSET", "dq:{acct_a}:job:u1:kept", "bytes", "1"],
        ["ZADD", "dq:{acct_a}:kept", "1", "u1"], ["ZRANGE", "dq:{acct_a}:kept", "0", "-1"],
        ["ZREMRANGEBYSCORE", "dq:{acct_a}:kept", "-inf", "(1"], ["ZREM", "dq:{acct_a}:kept", "u1"],
        ["HDEL", "dq:{acct_a}:job_bytes", "u1"],
        ["XADD", "dq:jobs:queue", "*", "a", "b"], ["XADD", "dq:events", "*", "a", "b"],
        ["EVALSHA", "0" * 40, "1", "dq:{acct_a}:quota:202611"],
        # a sign-up whose e-mail claim did not reach a replica takes it back (a script)
        ["EVALSHA", "0" * 40, "1", "dq:email:a@example.com"],
        # the partitions (issue 35): queue, events, retry schedule
        ["XADD", "{dq:jobs:queue:3}", "*", "a", "b"], ["XADD", "{dq:events:3}", "*", "a", "b"],
        ["EVALSHA", "0" * 40, "1", "{dq:jobs:queue:3}"],
        ["EVALSHA", "0" * 40, "2", "{dq:webhooks:retry:3}", "{dq:webhooks:retry:3}:ids"],
        ["EVALSHA", "0" * 40, "2", "dq:{acct_a}:quota:202611", "dq:{acct_a}:quota:res:j1"],
    ],
    "dq-worker": [
        ["PING"], ["XREADGROUP", "GROUP", "workers", "c", "STREAMS", "dq:jobs:queue", ">"],
        ["XACK", "dq:jobs:queue", "workers", "1-0"], ["XDEL", "dq:jobs:queue", "1-0"],
        ["HGETALL", "dq:{acct_a}:job:j1"], ["RPUSH", "dq:{acct_a}:job:j1:issues", "x"],
        ["DECRBY", "dq:{acct_a}:quota:202611", "5"], ["XADD", "dq:events", "*", "a", "b"],
        ["EVALSHA", "0" * 40, "1", "dq:{acct_a}:job:j1"],
        # the feed's previous job (issue 33)
        ["ZREVRANGEBYSCORE", "dq:{acct_a}:jobs", "(5", "-inf", "WITHSCORES", "LIMIT", "0", "200"],
        ["HMGET", "dq:{acct_a}:job:j1", "feed", "filename"],
        ["XREADGROUP", "GROUP", "workers", "c", "STREAMS", "{dq:jobs:queue:3}", ">"],
        ["XAUTOCLAIM", "{dq:jobs:queue:3}", "workers", "c", "1000", "0-0"],
        ["EVALSHA", "0" * 40, "1", "{dq:jobs:queue:3}"], ["XADD", "{dq:events:3}", "*", "a", "b"],
    ],
    "dq-notifier": [
        ["PING"], ["XREADGROUP", "GROUP", "notifier", "c", "STREAMS", "dq:events", ">"],
        ["XACK", "dq:events", "notifier", "1-0"],
        ["XAUTOCLAIM", "dq:events", "notifier", "c", "1000", "0-0"],
        ["XGROUP", "CREATE", "dq:events", "notifier", "0", "MKSTREAM"],
        ["HGETALL", "dq:{acct_a}:webhook"], ["LPUSH", "dq:{acct_a}:webhook:deliveries", "x"],
        ["LTRIM", "dq:{acct_a}:webhook:dead", "0", "9"], ["ZREM", "dq:webhooks:retry", "x"],
        ["EVALSHA", "0" * 40, "1", "dq:webhooks:retry"],
        ["EVALSHA", "0" * 40, "2", "dq:webhooks:retry", "{dq:webhooks:retry}:ids"],
        ["HGET", "{dq:webhooks:retry}:ids", "d1"], ["HDEL", "{dq:webhooks:retry}:ids", "d1"],
        ["XREADGROUP", "GROUP", "notifier", "c", "STREAMS", "{dq:events:3}", ">"],
        ["XGROUP", "CREATE", "{dq:events:3}", "notifier", "0", "MKSTREAM"],
        ["EVALSHA", "0" * 40, "1", "{dq:webhooks:retry:3}"],
        ["EVALSHA", "0" * 40, "2", "{dq:webhooks:retry:3}", "{dq:webhooks:retry:3}:ids"],
        ["HGET", "{dq:webhooks:retry:3}:ids", "d1"],
        # A delivery's send lease (its scripts' keys, and the GET/SET/DEL inside them).
        ["EVALSHA", "0" * 40, "2", "{dq:webhooks:retry:3}", "{dq:webhooks:retry:3}:sending:d1"],
        ["EVALSHA", "0" * 40, "3", "{dq:webhooks:retry:3}:sending:d1", "{dq:webhooks:retry:3}",
         "{dq:webhooks:retry:3}:ids"],
        ["SET", "{dq:webhooks:retry:3}:sending:d1", "t", "PX", "1000"],
        ["GET", "{dq:webhooks:retry:3}:sending:d1"], ["DEL", "{dq:webhooks:retry:3}:sending:d1"],
    ],
    "dq-dqctl": PLAN_WRITES[:3] + [
        ["PING"], ["HGETALL", "dq:{acct_a}:account"], ["SET", "dq:apikey:x", "acct_a k", "NX"],
        ["DEL", "dq:apikey:x"], ["HSET", "dq:{acct_a}:user", "email_verified_at", "x"],
        ["LREM", "dq:{acct_a}:webhook:dead", "1", "x"], ["ZADD", "dq:webhooks:retry", "1", "x"],
        ["EVALSHA", "0" * 40, "2", "dq:webhooks:retry", "{dq:webhooks:retry}:ids"],
        ["HSET", "{dq:webhooks:retry}:ids", "d1", "x"],
        ["EVALSHA", "0" * 40, "2", "{dq:webhooks:retry:3}", "{dq:webhooks:retry:3}:ids"],
    ],
}


def dryrun_failures(cli):
    """Compares ACL DRYRUN's answer for every row of the tables with the design."""
    failures = []
    checked = 0
    for user in USERS:
        for cmd in DENIED_TO_ALL + DENIED.get(user, []):
            answer = cli("ACL", "DRYRUN", user, *cmd)
            checked += 1
            if answer == "OK" or "no permissions" not in answer:
                failures.append(f"{user} may run {' '.join(cmd)[:80]} (ACL DRYRUN: {answer!r})")
        for cmd in ALLOWED.get(user, []) + HA_COMMANDS:
            answer = cli("ACL", "DRYRUN", user, *cmd)
            checked += 1
            if answer != "OK":
                failures.append(f"{user} may not run {' '.join(cmd)[:80]} (ACL DRYRUN: {answer!r})")
    return failures, checked


# Deadlines are generous (a loaded 2-core CI machine); a pass takes about 15 s.
def wait_until(what, check, seconds=60):
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
        with urllib.request.urlopen(req, timeout=30) as r:
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
            DQ_WEBHOOK_ALLOW_HTTP="1", DQ_WEBHOOK_ALLOW_PRIVATE="1",
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
        account, key = new_account(dqctl, denv, plan="pro", name="acl")
        subprocess.check_output([dqctl, "webhook", "set", "--account", account, "--url",
                                 f"http://127.0.0.1:{receiver.server_port}/hook",
                                 "--secret-env", "HOOK_SECRET"], env=denv)

        subprocess.check_output([dqctl, "account", "set-quota", "--account", account,
                                 "--records", "50000"], env=denv)
        subprocess.check_output([dqctl, "account", "migrate-plans"], env=denv)
        shown = json.loads(subprocess.check_output(
            [dqctl, "account", "show", "--account", account], env=denv))
        if (shown["plan"], shown["quota_override"]) != ("pro", 50000):
            failures.append(f"dqctl account show: {shown}")

        def console(method, path, body=None, cookie="", csrf=""):
            headers = {"Content-Type": "application/json"}
            if cookie:
                headers["Cookie"] = cookie
            if csrf:
                headers["X-CSRF-Token"] = csrf
            return request(method, api + "/console/api" + path,
                           None if body is None else json.dumps(body).encode(), headers)

        user = {"email": "acl@example.com", "password": "correct horse battery"}
        code, headers, body = console("POST", "/signup", user)
        if code != 201:
            raise SystemExit(f"FAIL: console signup answered {code}: {body[:200]!r}")
        console_account = json.loads(body)["account_id"]
        code, _, body = console("POST", "/login", dict(user, password="wrong password 1"))
        if code != 401:
            failures.append(f"a wrong console password answered {code}: {body[:200]!r}")
        subprocess.check_output([dqctl, "account", "set-plan", "--account", console_account,
                                 "--plan", "pro"], env=denv)
        # Keys and webhooks wait for a verified address; the operator verifies it by hand.
        subprocess.check_output([dqctl, "user", "verify", "--email", user["email"]], env=denv)
        code, headers, body = console("POST", "/login", user)
        if code != 200:
            raise SystemExit(f"FAIL: console login answered {code}: {body[:200]!r}")
        cookie = headers.get("Set-Cookie", "").split(";")[0]
        csrf = json.loads(body)["csrf_token"]
        code, _, body = console("POST", "/keys", {"label": "acl"}, cookie, csrf)
        if code != 201:
            failures.append(f"console key creation answered {code}: {body[:200]!r}")
        code, _, body = console("PUT", "/webhook", {
            "url": f"http://127.0.0.1:{receiver.server_port}/console-hook"}, cookie, csrf)
        if code != 200:
            failures.append(f"console webhook answered {code}: {body[:200]!r}")
        code, _, body = console("POST", "/webhook/test", None, cookie, csrf)
        if code != 202:
            failures.append(f"console webhook test answered {code}: {body[:200]!r}")
        else:
            test_id = json.loads(body)["delivery_id"]
            wait_until("the test event at the receiver",
                       lambda: any(h.get("X-Service-Delivery") == test_id
                                   for h, _ in Receiver.events))

            # A redeliver made while the attempt is still in flight (the receiver has it, the
            # notifier has not logged it) is cancelled by that attempt, by design, or is not
            # found (404): it is made once the delivery log shows the attempt.
            def logged():
                c, _, b = console("GET", "/webhook/deliveries?limit=100", None, cookie)
                return c == 200 and any(d.get("delivery_id") == test_id and
                                        d.get("outcome") == "delivered" for d in json.loads(b))
            wait_until("the test event's attempt in the delivery log", logged)
            code, _, body = console("POST", f"/webhook/deliveries/{test_id}/redeliver", None,
                                    cookie, csrf)
            if code != 202:
                failures.append(f"console redeliver answered {code}: {body[:200]!r}")
            wait_until("the redelivered test event at the receiver",
                       lambda: sum(h.get("X-Service-Delivery") == test_id
                                   for h, _ in Receiver.events) >= 2)
        code, _, body = console("POST", "/logout", None, cookie, csrf)
        if code != 204:
            failures.append(f"console logout answered {code}: {body[:200]!r}")

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
        code, _, body = request("DELETE", f"{api}/v1/jobs/{job}", None, {"X-API-Key": key})
        if code != 204:
            failures.append(f"deleting the job answered {code}: {body[:200]!r}")

        # The narrow users are narrow: ACL DRYRUN, as the default user (an operator).
        def admin_cli(*cmd):
            return subprocess.run(["redis-cli", "-p", str(ports["redis"]), "--pass",
                                   PASSWORDS["REDIS_PASSWORD"], "--no-auth-warning", *cmd],
                                  capture_output=True, text=True, timeout=30).stdout.strip()
        dry, checked = dryrun_failures(admin_cli)
        failures.extend(dry)

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
        if not os.environ.get("DQ_ACL_KEEP"): shutil.rmtree(work, ignore_errors=True)

    if failures:
        for f in failures:
            print("FAIL:", f)
        return 1
    print("redis ACL users: gateway, worker, notifier and dqctl each worked under their own user "
          "(account, plan, quota, keys, console sign-up and sign-in, webhook test and redelivery, "
          f"upload to done and deleted, signed delivery); {checked} ACL DRYRUN answers as designed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
