#!/usr/bin/env python3
"""Runs the programs in examples/ against a real dq stack (CTest test `examples`).

Starts redis-server, dq-validator, dq-gateway and dq-notifier on free loopback ports, creates an
account, a key and a webhook with dqctl, then:

1. the Python and the Node client upload examples/data/products.csv, wait for the job, download
   the cleaned file and the issues CSV and page through the issues (page size 2, so paging is
   exercised); their files and counts are compared with what the API itself answers;
2. the Python and the Node webhook receiver each get the real job.complete deliveries of the
   notifier (X-Service-Signature, plus the Standard Webhooks headers when the notifier sends
   them), then requests signed locally: a valid Standard Webhooks signature made by the
   published `standardwebhooks` npm package, a forged body, a wrong signature and a stale
   timestamp, which must be refused.

Everything runs on 127.0.0.1 and is stopped at the end, whatever happens.
  run_examples.py --bin-dir BUILD --source-dir SRC
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from free_port import free_port  # noqa: E402  (scripts/lib/free_port.py: the one port picker)

PROCS = []


def wait_for(cond, timeout, what, proc=None):
    """Polls cond; fails at once when proc (the process waited for) has exited."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"{what}: {proc.name} exited with {proc.returncode}")
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def connects(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def start(name, argv, env, log_dir):
    log = open(os.path.join(log_dir, name + ".log"), "w+b")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DQ_")}
    clean.update(env)
    p = subprocess.Popen(argv, env=clean, stdout=log, stderr=subprocess.STDOUT)
    p.log = log
    p.name = name
    PROCS.append(p)
    return p


def log_of(p):
    p.log.flush()
    with open(p.log.name, "rb") as f:
        return f.read().decode("utf-8", "replace")


def stop_all():
    for p in reversed(PROCS):
        if p.poll() is None:
            p.terminate()
    for p in reversed(PROCS):
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def http(method, url, headers=None, body=None):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def check(cond, message):
    if not cond:
        raise AssertionError(message)


class Stack:
    def __init__(self, bin_dir, tmp):
        self.bin = bin_dir
        self.redis_port = free_port()
        start("redis", ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                        "--save", "", "--appendonly", "no", "--dir", tmp], {}, tmp)
        wait_for(lambda: connects(self.redis_port), 10, "redis")
        # Every port free, the operations ports included: a default one may be taken by a running
        # `./dev up` (tests/examples/occupied_ports_test.py holds them all).
        vport, vops = free_port(), free_port()
        validator = start("validator", [f"{bin_dir}/validator/dq-validator"],
              {"DQ_VALIDATOR_BIND": "127.0.0.1", "DQ_VALIDATOR_PORT": str(vport),
               "DQ_VALIDATOR_OPS_PORT": str(vops)}, tmp)
        wait_for(lambda: connects(vport), 20, "dq-validator", validator)
        self.gateway_port = free_port()
        self.gateway = start("gateway", [f"{bin_dir}/gateway/dq-gateway"],
                             {"DQ_GATEWAY_BIND": "127.0.0.1",
                              "DQ_GATEWAY_PORT": str(self.gateway_port),
                              "DQ_GATEWAY_OPS_PORT": str(free_port()),
                              "DQ_REDIS_PORT": str(self.redis_port),
                              "DQ_VALIDATOR_ADDR": f"127.0.0.1:{vport}",
                              "DQ_SHUTDOWN_GRACE_MS": "0"}, tmp)
        self.base = f"http://127.0.0.1:{self.gateway_port}"
        wait_for(lambda: http("GET", self.base + "/readyz")[0] == 200 if connects(self.gateway_port) else False,
                 30, "dq-gateway /readyz", self.gateway)
        self.notifier = start("notifier", [f"{bin_dir}/notifier/dq-notifier"],
                              {"DQ_REDIS_PORT": str(self.redis_port),
                               "DQ_NOTIFIER_BIND": "127.0.0.1",
                               "DQ_NOTIFIER_PORT": str(free_port()),
                               "DQ_NOTIFIER_GRPC_PORT": str(free_port()),
                               "DQ_WEBHOOK_ALLOW_HTTP": "1",
                               "DQ_WEBHOOK_ALLOW_PRIVATE": "1"}, tmp)

    def dqctl(self, *args, stdin=None, env=None):
        e = {k: v for k, v in os.environ.items() if not k.startswith("DQ_")}
        e.update({"DQ_REDIS_PORT": str(self.redis_port), "DQ_WEBHOOK_ALLOW_HTTP": "1"})
        e.update(env or {})
        r = subprocess.run([f"{self.bin}/dqctl/dqctl", *args], input=stdin, env=e,
                           capture_output=True, text=True, timeout=30)
        check(r.returncode == 0, f"dqctl {' '.join(args)}: {r.stderr}")
        return json.loads(r.stdout)


def run_client(argv, stack, key, out_dir, env_extra=None):
    env = dict(os.environ, DQ_BASE_URL=stack.base, DQ_API_KEY=key, **(env_extra or {}))
    r = subprocess.run(argv + ["--out", out_dir, "--page-size", "2"], env=env,
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, f"{argv[0]} {argv[1]} failed ({r.returncode}): {r.stderr}")
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    api = lambda path: http("GET", stack.base + path, {"X-API-Key": key})
    job_id = summary["job_id"]
    status, body = api(f"/v1/jobs/{job_id}")
    job = json.loads(body)
    check(status == 200 and job["status"] == "done", f"job {job_id}: {body!r}")
    check(summary["issues_paged"] == job["issues_total"] == len(job["issues"]) > 2,
          f"paged {summary['issues_paged']} issues, the job has {job['issues_total']}")
    check(summary["rows_total"] == 5, summary)
    with open(summary["cleaned_file"], "rb") as f:
        check(f.read() == api(f"/v1/jobs/{job_id}/cleaned")[1], "cleaned file differs")
    with open(summary["issues_csv"], "rb") as f:
        lines = f.read().decode().splitlines()
    check(lines[0] == "id,issue_row,severity,field,code,message,original_value,fixed_value,"
          "sku,item_id,title", lines[0])
    check(len(lines) == job["issues_total"] + 1, f"{len(lines)} CSV lines")
    return summary


def sign_with_package(node, node_path, secret, msg_id, ts, body):
    """The Standard Webhooks signature as the published npm package makes it."""
    script = ("const {Webhook}=require('standardwebhooks');"
              "const [s,id,ts,b]=process.argv.slice(1);"
              "process.stdout.write(new Webhook(s).sign(id,new Date(Number(ts)*1000),b));")
    r = subprocess.run([node, "-e", script, secret, msg_id, str(ts), body.decode()],
                       env=dict(os.environ, NODE_PATH=node_path), capture_output=True, text=True,
                       timeout=30)
    check(r.returncode == 0, r.stderr)
    return r.stdout


def receiver_lines(p):
    out = []
    for line in log_of(p).splitlines():
        try:
            j = json.loads(line)
        except ValueError:
            continue
        if "listening" not in j:
            out.append(j)
    return out


def exercise_receiver(name, argv, env, stack, key, account, secret, args, tmp):
    port = free_port()
    p = start(name, argv + ["--port", str(port)], dict(env, WEBHOOK_SECRET=secret), tmp)
    wait_for(lambda: connects(port), 20, name)
    url = f"http://127.0.0.1:{port}/hook"
    stack.dqctl("webhook", "set", "--account", account, "--url", url, "--secret-stdin",
                stdin=secret + "\n")
    # A real delivery from the notifier for a real job.
    with open(os.path.join(args.source_dir, "examples/data/products.csv"), "rb") as f:
        status, body = http("POST", stack.base + "/v1/jobs?filename=hook.csv",
                            {"X-API-Key": key, "Content-Type": "text/csv"}, f.read())
    check(status == 202, body)
    job_id = json.loads(body)["id"]
    wait_for(lambda: any(l.get("job_id") == job_id for l in receiver_lines(p)), 60,
             f"{name}: the job.complete of {job_id}\n{log_of(p)}\n{log_of(stack.notifier)}")
    real = [l for l in receiver_lines(p) if l.get("job_id") == job_id][0]
    check(real["x_service_signature"] == "verified", real)
    check(real["standard_webhooks"] in ("verified", "absent"), real)
    check("refused" not in real, real)

    # Locally signed requests: both signature forms, then three forgeries.
    payload = json.dumps({"event": "job.complete", "jobId": "local-" + name, "status": "done",
                          "timestamp": "2026-11-22T09:05:01.042Z", "filename": "x.csv",
                          "rows": 1, "stats": {"errors": 0, "warnings": 0, "fixes": 0,
                                               "score": 100}}).encode()
    msg_id = str(uuid.uuid4())
    now = int(time.time())
    node_path = os.path.join(args.source_dir, "scripts/node_modules")

    def send(body, ts, signature=None, service=None):
        headers = {"Content-Type": "application/json", "X-Service-Event": "job.complete",
                   "X-Service-Delivery": msg_id,
                   "X-Service-Signature": service or "sha256=" + hmac.new(
                       secret.encode(), body, hashlib.sha256).hexdigest(),
                   "webhook-id": msg_id, "webhook-timestamp": str(ts),
                   "webhook-signature": signature or sign_with_package(
                       args.node, node_path, secret, msg_id, ts, body)}
        return http("POST", url, headers, body)[0]

    check(send(payload, now) == 204, f"{name}: a valid signed request was refused\n{log_of(p)}")
    tampered = payload.replace(b'"rows": 1', b'"rows": 2')
    good_sig = sign_with_package(args.node, node_path, secret, msg_id, now, payload)
    check(send(tampered, now, signature=good_sig) == 401, f"{name}: forged body accepted")
    check(send(payload, now, signature="v1," + base64.b64encode(b"x" * 32).decode()) == 401,
          f"{name}: wrong Standard Webhooks signature accepted")
    check(send(payload, now - 3600) == 401, f"{name}: a stale timestamp was accepted")
    check(send(payload, now, service="sha256=" + "0" * 64) == 401,
          f"{name}: a wrong X-Service-Signature was accepted")
    lines = [l for l in receiver_lines(p) if l.get("delivery") == msg_id]
    check([l.get("refused") is None for l in lines] == [True, False, False, False, False], lines)
    check(lines[0]["standard_webhooks"] == "verified", lines[0])
    p.terminate()
    return real


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--node", default="node")
    args = ap.parse_args()
    src = args.source_dir
    tmp = tempfile.mkdtemp(prefix="dq-examples-")
    try:
        stack = Stack(args.bin_dir, tmp)
        account = stack.dqctl("account", "create", "--plan", "pro", "--name", "examples")["account_id"]
        key = stack.dqctl("key", "create", "--account", account)["api_key"]
        data = os.path.join(src, "examples/data/products.csv")

        py = run_client([sys.executable, os.path.join(src, "examples/python/dq_client.py"), data],
                        stack, key, os.path.join(tmp, "py"))
        js = run_client([args.node, os.path.join(src, "examples/node/dq_client.mjs"), data],
                        stack, key, os.path.join(tmp, "node"))
        check(py["issues_by_code"] == js["issues_by_code"], (py, js))
        print(f"clients OK: {py['issues_total']} issues, score {py['health_score']}")

        secret = "whsec_" + base64.b64encode(os.urandom(32)).decode()
        for name, argv, env in [
            ("python-receiver", [sys.executable, os.path.join(src, "examples/python/webhook_receiver.py")], {}),
            ("node-receiver", [args.node, os.path.join(src, "examples/node/webhook_receiver.cjs")],
             {"NODE_PATH": os.path.join(src, "scripts/node_modules")}),
        ]:
            real = exercise_receiver(name, argv, env, stack, key, account, secret, args, tmp)
            print(f"{name} OK: real delivery {real['delivery']} "
                  f"(Standard Webhooks headers {real['standard_webhooks']}); forgeries refused")
    except Exception:
        for p in PROCS:
            sys.stderr.write(f"--- {p.name} log ---\n{log_of(p)[-4000:]}\n")
        raise
    finally:
        stop_all()


if __name__ == "__main__":
    main()
