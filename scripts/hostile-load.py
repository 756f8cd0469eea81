#!/usr/bin/env python3
"""Hostile load against a real dq stack on loopback, while a well-behaved tenant keeps working.

Starts its own redis-server (the project's redis.conf), dq-validator and dq-gateway (production
settings: only ports, the Redis port and a general rate limit high enough for a tenant calling
every 50 ms are set) on free loopback ports, then runs, at once:
  - N parallel unauthenticated POSTs of a large body (95 MB in the full form),
  - slow-header connections (from 127.0.0.2+, so the per-address cap does not hit the tenant),
  - one request with a 32 KiB header block,
  - the /v1/validate amplification body (23 fields mapped to one 20 KB column, 500 records),
  - an upload of a CSV of empty rows (1 M in the full form), then concurrent GETs of its detail,
while the good tenant POSTs a 20-row /v1/validate every 50 ms. Every loop is bounded in count and
time; everything stops by itself. Reports the gateway's and Redis's peak RSS (VmHWM), the good
tenant's success rate and p99, whether a process died, and whether Redis refused a write.

  scripts/hostile-load.py            full form (about 60 s)
  scripts/hostile-load.py --short    short form (about 15 s; run by CTest as hostile_load_short)
  --check                            exit 1 unless the goals hold (RSS, 100 % answers, no restart)
  --edge-only                        only the edge's attacks (no amplification body, no
                                     empty-row job): to tell the edge's share from the rest
"""
import argparse
import json
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
from free_port import free_port, wait_port  # noqa: E402  (scripts/lib/free_port.py: the one port picker)
from dq_account import new_account  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELDS = ["sku", "title", "description", "price", "compare_at_price", "cost_price", "currency",
          "availability", "image_url", "brand", "category", "gtin", "weight", "hs_code",
          "country_of_origin", "vat_number", "email", "phone", "country", "stock_qty",
          "reorder_point", "expiry_date", "warehouse_id"]



def peak_rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        return None
    return None


def http(method, url, body=None, headers=None, timeout=30):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def raw_request(port, head, body_total=0, chunk=1 << 20, source="127.0.0.1", deadline=30):
    """Sends a head and up to body_total body bytes; returns the status line's code or None."""
    s = socket.socket()
    s.settimeout(deadline)
    try:
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(head)
        sent = 0
        block = b"x" * chunk
        s.setblocking(False)
        reply = b""
        end = time.time() + deadline
        while sent < body_total and time.time() < end:
            try:
                reply += s.recv(65536)
                if reply.startswith(b"HTTP/1.1 ") and b"\r\n\r\n" in reply:
                    break  # answered early: stop sending, as curl does
            except BlockingIOError:
                pass
            except OSError:
                break
            try:
                sent += s.send(block[: min(chunk, body_total - sent)])
            except BlockingIOError:
                time.sleep(0.001)
            except OSError:
                break
        s.settimeout(max(1, end - time.time()))
        s.setblocking(True)
        while b"\r\n" not in reply:
            data = s.recv(65536)
            if not data:
                break
            reply += data
        return int(reply.split(b" ")[1]) if reply.startswith(b"HTTP/1.1 ") else None
    except OSError:
        return None
    finally:
        s.close()


class Stack:
    def __init__(self, build, work, extra_env):
        self.procs = {}
        self.redis_port, self.val_port, self.gw_port, self.ops_port = (free_port() for _ in range(4))
        self.procs["redis"] = subprocess.Popen(
            ["redis-server", os.path.join(ROOT, "deploy/redis/redis.conf"), "--port",
             str(self.redis_port), "--bind", "127.0.0.1", "--dir", work],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.redis_port, self.procs["redis"], seconds=20)
        env = dict(os.environ, DQ_VALIDATOR_BIND="127.0.0.1", DQ_VALIDATOR_PORT=str(self.val_port),
                   DQ_VALIDATOR_OPS_PORT="0")
        self.procs["validator"] = subprocess.Popen([os.path.join(build, "validator/dq-validator")],
                                                   env=env, stderr=open(f"{work}/val.log", "w"))
        wait_port(self.val_port, self.procs["validator"], seconds=20)
        env = {k: v for k, v in os.environ.items() if not k.startswith("DQ_")}
        env.update(DQ_GATEWAY_BIND="127.0.0.1", DQ_GATEWAY_PORT=str(self.gw_port),
                   DQ_GATEWAY_OPS_PORT=str(self.ops_port), DQ_REDIS_PORT=str(self.redis_port),
                   DQ_VALIDATOR_ADDR=f"127.0.0.1:{self.val_port}", DQ_SHUTDOWN_GRACE_MS="0",
                   # the one change to production settings: a tenant calling every 50 ms needs
                   # more than 60 general requests a minute
                   DQ_RATE_LIMIT_GENERAL="100000", **extra_env)
        self.procs["gateway"] = subprocess.Popen([os.path.join(build, "gateway/dq-gateway")],
                                                 env=env, stderr=open(f"{work}/gw.log", "w"))
        wait_port(self.gw_port, self.procs["gateway"], seconds=20)
        self.pids = {k: p.pid for k, p in self.procs.items()}
        dq = os.path.join(build, "dqctl/dqctl")
        denv = dict(env, DQ_REDIS_PORT=str(self.redis_port))
        _, self.good_key = new_account(dq, denv, name="good")
        _, self.bad_key = new_account(dq, denv, name="hostile")

    def alive(self):
        return {k: p.poll() is None for k, p in self.procs.items()}

    def stop(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()


def good_tenant(gw_port, good_key, stop, out):
    """Runs in a process of its own, so the attack threads' work (and Python's GIL) never
    delays the tenant's clock; the results come back through `out` when `stop` is set."""
    results = []
    url = f"http://127.0.0.1:{gw_port}/v1/validate"
    rows = [{"id": f"SKU-{i}", "p": "12.50", "t": f"Item {i}"} for i in range(20)]
    body = json.dumps({"records": rows, "mapping": {"sku": "id", "price": "p",
                                                     "title": "t"}}).encode()
    headers = {"X-API-Key": good_key, "Content-Type": "application/json"}
    nxt = time.time()
    while not stop.is_set():
        t = time.time()
        try:
            code, data = http("POST", url, body, headers, timeout=10)
        except OSError as e:
            code, data = None, str(e).encode()
        results.append((code, time.time() - t,
                        data[:200] + f" (sent at {t:.3f})".encode() if code != 200 else b""))
        nxt += 0.05
        time.sleep(max(0, nxt - time.time()))
    out.put(results)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--short", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--keep-logs", action="store_true", help="keep the services' logs and say where")
    ap.add_argument("--edge-only", action="store_true",
                    help="only the edge's attacks (no amplification body, no empty-row job)")
    ap.add_argument("--build", default=os.environ.get("DQ_BUILD_DIR", os.path.join(ROOT, "build")))
    a = ap.parse_args()
    big = (20 if a.short else 95) * 1024 * 1024
    n_big = 4 if a.short else 8
    n_slow = 50 if a.short else 200
    empty_rows = 100_000 if a.short else 1_000_000
    n_gets = 3 if a.short else 10
    duration = 12 if a.short else 45

    work = tempfile.mkdtemp(prefix="dq-hostile.")
    # The short form waits 3 s, not 10, before the minimum data rate applies.
    stack = Stack(a.build, work, {"DQ_REQUEST_GRACE_MS": "3000"} if a.short else {})
    stop = threading.Event()
    outcomes = {}
    lock = threading.Lock()

    def note(name, value):
        with lock:
            outcomes.setdefault(name, []).append(value)

    def big_bodies():
        head = (f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n"
                f"Content-Length: {big}\r\n\r\n").encode()
        ts = [threading.Thread(target=lambda: note("unauthenticated big body",
                                                   raw_request(stack.gw_port, head, big)))
              for _ in range(n_big)]
        [t.start() for t in ts]
        [t.join() for t in ts]

    def slow_headers():
        socks = []
        for i in range(n_slow):
            try:
                s = socket.socket()
                s.bind((f"127.0.0.{2 + i % 200}", 0))
                s.connect(("127.0.0.1", stack.gw_port))
                s.sendall(b"GET /v1/usage HTTP/1.1\r\nHost: x\r\n")
                socks.append(s)
            except OSError:
                note("slow header", "refused at connect")
        end = time.time() + duration - 2
        while time.time() < end and not stop.is_set():
            for s in list(socks):
                try:
                    s.send(b"X")  # one byte per second: far below the minimum rate
                except OSError:
                    socks.remove(s)
                    note("slow header", "cut")
            time.sleep(1)
        note("slow header", f"{len(socks)} still open at the end")
        for s in socks:
            s.close()

    def big_header():
        head = ("GET /v1/usage HTTP/1.1\r\nHost: x\r\nX-Pad: " + "a" * 32768 + "\r\n\r\n").encode()
        note("32 KiB header", raw_request(stack.gw_port, head))

    def amplification():
        col = "x" * 20000
        body = json.dumps({"records": [{"c": col} for _ in range(500)],
                           "mapping": {f: "c" for f in FIELDS}}).encode()
        code, _ = http("POST", f"http://127.0.0.1:{stack.gw_port}/v1/validate", body,
                       {"X-API-Key": stack.bad_key, "Content-Type": "application/json"}, 60)
        note("amplification body", code)
        unknown = json.dumps({"records": [{"id": "A"}], "mapping": {"sku": "id"},
                              **{f"k{i:07d}": 1 for i in range(100000)}}).encode()
        code, data = http("POST", f"http://127.0.0.1:{stack.gw_port}/v1/validate", unknown,
                          {"X-API-Key": stack.bad_key, "Content-Type": "application/json"}, 60)
        note("unknown-keys body", f"{code}, answer {len(data)} bytes for {len(unknown)} sent")

    def empty_rows_job():
        body = b"sku,price\n" + b",\n" * empty_rows
        code, data = http("POST", f"http://127.0.0.1:{stack.gw_port}/v1/jobs?filename=e.csv",
                          body, {"X-API-Key": stack.bad_key, "Content-Type": "text/csv",
                                 "Expect": ""}, 60)
        note("empty-rows upload", code)
        if code != 202:
            return
        job = json.loads(data)["id"]
        url = f"http://127.0.0.1:{stack.gw_port}/v1/jobs/{job}"
        end = time.time() + duration - 4
        while time.time() < end:
            code, data = http("GET", url, None, {"X-API-Key": stack.bad_key}, 30)
            if code == 200 and json.loads(data).get("status") in ("done", "failed"):
                break
            time.sleep(0.5)
        ts = [threading.Thread(target=lambda: note(
            "detail GETs", http("GET", url, None, {"X-API-Key": stack.bad_key}, 60)[0]))
            for _ in range(n_gets)]
        [t.start() for t in ts]
        [t.join() for t in ts]

    ctx = multiprocessing.get_context("fork")
    tenant_stop, tenant_out = ctx.Event(), ctx.Queue()
    tenant_proc = ctx.Process(target=good_tenant,
                              args=(stack.gw_port, stack.good_key, tenant_stop, tenant_out))
    tenant_proc.start()
    time.sleep(1)
    chosen = (big_bodies, slow_headers, big_header) if a.edge_only else \
        (big_bodies, slow_headers, big_header, amplification, empty_rows_job)
    attacks = [threading.Thread(target=f) for f in chosen]
    start = time.time()
    [t.start() for t in attacks]
    redis_used = []
    while time.time() - start < duration and any(t.is_alive() for t in attacks):
        try:
            out = subprocess.check_output(["redis-cli", "-p", str(stack.redis_port), "info",
                                           "memory"], text=True, timeout=5)
            redis_used += [int(l.split(":")[1]) for l in out.splitlines()
                           if l.startswith("used_memory:")]
        except (subprocess.SubprocessError, ValueError):
            pass
        time.sleep(0.5)
    stop.set()
    for t in attacks:
        t.join(timeout=60)
    tenant_stop.set()
    tenant = tenant_out.get(timeout=60)
    tenant_proc.join()

    alive = stack.alive()
    gw_rss = peak_rss_mb(stack.pids["gateway"])
    redis_rss = peak_rss_mb(stack.pids["redis"])
    stack.stop()
    lat = sorted(t for c, t, _ in tenant if c == 200)
    ok = sum(1 for c, _, _ in tenant if c == 200)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
    refused_write = sum(1 for c, _, d in tenant if c == 503 or b"OOM" in d)
    print(f"form: {'short' if a.short else 'full'}; attack window {duration} s")
    for name, values in outcomes.items():
        summary = {}
        for v in values:
            summary[str(v)] = summary.get(str(v), 0) + 1
        print(f"  {name}: {summary}")
    print(f"gateway peak RSS: {gw_rss:.0f} MB" if gw_rss else "gateway peak RSS: unknown (exited)")
    print(f"redis peak RSS: {redis_rss:.0f} MB; used_memory max "
          f"{max(redis_used) / 1e6 if redis_used else 0:.0f} MB")
    print(f"good tenant: {ok}/{len(tenant)} answered 200 ({100.0 * ok / max(1, len(tenant)):.1f} %),"
          f" p99 {p99:.0f} ms, max {lat[-1] * 1000 if lat else float('nan'):.0f} ms,"
          f" refused writes (503/OOM) {refused_write}")
    failures = [(c, d) for c, _, d in tenant if c != 200][:5]
    if failures:
        print(f"  first failures: {failures}")
    print(f"processes alive at the end (no restart): {alive}")
    if a.keep_logs:
        print(f"logs kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    goals = {
        "gateway peak RSS <= 256 MB": gw_rss is not None and gw_rss <= 256,
        "good tenant 100 % answers": len(tenant) > 0 and ok == len(tenant),
        "no restarts": all(alive.values()),
    }
    if not a.short:
        goals["good tenant p99 <= 250 ms"] = p99 <= 250
    for g, held in goals.items():
        print(f"goal {g}: {'held' if held else 'MISSED'}")
    if a.check and not all(goals.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
