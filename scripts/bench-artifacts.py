#!/usr/bin/env python3
"""The artifact store's goals (issue 34; docs/PERFORMANCE.md, "Job files out of Redis"), measured
side by side in one run, so that a busy machine weighs on both sides alike:

  1. 100 k-row product upload -> `done` with the fs store and with the s3 store (a real RGW on
     loopback, scripts/start-rgw.sh), runs alternating fs / s3, medians; goal: s3 <= 1.3x fs;
  2. the issues API, pages of 1,000 (`GET /v1/jobs/{id}/issues?offset=..&limit=1000`, random
     offsets, one keep-alive connection) from a 100,000-issue job: p50 / p99; goal with fs:
     p99 <= 20 ms (s3 printed beside it);
  3. gateway memory while 4 clients download a ~50 MB cleaned file at once: a fresh gateway that
     only serves (DQ_ROLE=api, so no job work counts), VmRSS sampled every 5 ms; goal: peak at
     most 64 MB above idle (fs, and s3 beside it).

Two stacks on free loopback ports, each its own redis-server (the project's redis.conf),
dq-validator and dq-gateway (DQ_ROLE=all); one RGW. The load average is printed at the start and
the end. Needs the RGW packages (scripts/install-deps.sh --s3). A few minutes.

  scripts/bench-artifacts.py [--build DIR] [--rows 100000] [--runs 5] [--requests 400]
                             [--download-rows N] [--only upload,issues,download]
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from free_port import free_port, wait_port  # noqa: E402
from dq_account import new_account  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def load():
    return open("/proc/loadavg").read().split()[:3]



def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Stack:
    """redis-server, dq-validator and dq-gateway with one artifact store."""

    def __init__(self, build, work, name, store_env):
        self.build, self.name, self.store_env = build, name, store_env
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir)
        self.procs = []
        self.redis = free_port()
        self.spawn(["redis-server", os.path.join(ROOT, "deploy/redis/redis.conf"), "--port",
                    str(self.redis), "--bind", "127.0.0.1", "--dir", self.dir,
                    "--appendonly", "no"], {}, "redis")
        wait_port(self.redis, self.procs[-1])
        self.val = free_port()
        self.spawn([os.path.join(build, "validator/dq-validator")],
                   {"DQ_VALIDATOR_BIND": "127.0.0.1", "DQ_VALIDATOR_PORT": str(self.val),
                    "DQ_VALIDATOR_OPS_PORT": "0"}, "validator")
        wait_port(self.val, self.procs[-1])
        self.gw = free_port()
        self.gateway = self.start_gateway("all")
        env = dict(os.environ, DQ_REDIS_PORT=str(self.redis))
        self.account, self.key = new_account(os.path.join(build, "dqctl/dqctl"), env)

    def spawn(self, argv, env, log):
        clean = {k: v for k, v in os.environ.items() if not k.startswith("DQ_")}
        clean.update(env)
        p = subprocess.Popen(argv, env=clean, stdout=open(os.path.join(self.dir, log + ".log"), "ab"),
                             stderr=subprocess.STDOUT)
        self.procs.append(p)
        return p

    def start_gateway(self, role):
        env = {"DQ_GATEWAY_BIND": "127.0.0.1", "DQ_GATEWAY_PORT": str(self.gw),
               "DQ_GATEWAY_OPS_PORT": "0", "DQ_REDIS_PORT": str(self.redis),
               "DQ_VALIDATOR_ADDR": f"127.0.0.1:{self.val}", "DQ_RATE_LIMIT_ENABLED": "0",
               "DQ_SHUTDOWN_GRACE_MS": "0", "DQ_ROLE": role,
               "DQ_ARTIFACT_DIR": os.path.join(self.dir, "artifacts")}
        env.update(self.store_env)
        p = self.spawn([os.path.join(self.build, "gateway/dq-gateway")], env, "gateway")
        wait_port(self.gw, p)
        return p

    def restart_gateway(self, role):
        self.gateway.kill()
        self.gateway.wait()
        self.gateway = self.start_gateway(role)

    def conn(self):
        return http.client.HTTPConnection("127.0.0.1", self.gw, timeout=120)

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.kill()
                p.wait()


def gen(kind, rows, path, *extra):
    subprocess.check_call([sys.executable, os.path.join(ROOT, "bench/tools/gen_catalog.py"), kind,
                           "--rows", str(rows), "--out", path, *extra])


def dirty_csv(rows, path):
    """Every row has a missing SKU and a non-numeric price: 100,000 issues stored for 50,000
    rows and more (the stored-issue cap)."""
    with open(path, "w") as f:
        f.write("Handle,Title,Variant SKU,Variant Price,Variant Inventory Qty,Vendor,Tags\n")
        for r in range(rows):
            f.write(f"item-{r},Blue mug no. {r % 97},,n/a,{r % 40},Acme,kitchen;mugs\n")


def upload_to_done(stack, path, mapping, types):
    out = subprocess.check_output([sys.executable, os.path.join(ROOT, "bench/tools/upload_to_done.py"),
                                   f"http://127.0.0.1:{stack.gw}", stack.key, path, mapping, types])
    line = json.loads(out)
    if line.get("status") != "done":
        raise SystemExit(f"{stack.name}: job did not finish: {line}")
    return line


def upload_raw(stack, path, types="product", mapping=None):
    """POSTs a CSV (headers auto-detected, or the mapping file given) and waits for done;
    returns its id and detail."""
    c = stack.conn()
    body = open(path, "rb").read()
    query = {"filename": os.path.basename(path), "check_types": types}
    if mapping:
        query["mapping"] = open(mapping).read()
    c.request("POST", "/v1/jobs?" + urllib.parse.urlencode(query), body,
              {"X-API-Key": stack.key, "Content-Type": "text/csv"})
    r = c.getresponse()
    data = r.read()
    if r.status != 202:
        raise SystemExit(f"{stack.name}: upload answered {r.status}: {data[:300]}")
    job = json.loads(data)["id"]
    while True:
        c.request("GET", f"/v1/jobs/{job}", headers={"X-API-Key": stack.key})
        j = json.loads(c.getresponse().read())
        if j["status"] in ("done", "failed"):
            if j["status"] != "done":
                raise SystemExit(f"{stack.name}: job {job} failed: {j.get('error')}")
            return job, j
        time.sleep(0.05)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


def bench_upload(stacks, args, work):
    path = os.path.join(work, "products.csv")
    gen("products", args.rows, path)
    times = {s.name: [] for s in stacks}
    for i in range(args.runs):
        for s in stacks:
            line = upload_to_done(s, path, path + ".mapping.json", "product,price,inventory,shipping")
            times[s.name].append(line["done_s"])
            print(f"  run {i + 1} {s.name:3}: done in {line['done_s']:.3f} s "
                  f"({line.get('issues', '?')} issues)", flush=True)
    med = {n: statistics.median(t) for n, t in times.items()}
    if len(med) < 2:
        print(f"RESULT upload->done {args.rows} rows: {med}")
        return
    print(f"RESULT upload->done {args.rows} rows: fs {med['fs']:.3f} s, s3 {med['s3']:.3f} s, "
          f"s3/fs {med['s3'] / med['fs']:.2f}x (goal <= 1.3x; medians of {args.runs})")


def bench_issues(stacks, args, work):
    path = os.path.join(work, "dirty.csv")
    dirty_csv(args.rows, path)
    for s in stacks:
        job, detail = upload_raw(s, path)
        c = s.conn()
        c.request("GET", f"/v1/jobs/{job}/issues?limit=1", headers={"X-API-Key": s.key})
        total = json.loads(c.getresponse().read())["total"]
        rng = random.Random(34)
        lat = []
        for _ in range(args.requests):
            offset = rng.randrange(0, max(1, total // 1000)) * 1000
            t0 = time.perf_counter()
            c.request("GET", f"/v1/jobs/{job}/issues?offset={offset}&limit=1000",
                      headers={"X-API-Key": s.key})
            r = c.getresponse()
            body = r.read()
            lat.append((time.perf_counter() - t0) * 1000)
            if r.status != 200:
                raise SystemExit(f"{s.name}: issues page answered {r.status}: {body[:200]}")
        print(f"RESULT issues page of 1,000 from {total} issues, {s.name}: p50 {pct(lat, 50):.1f} ms, "
              f"p99 {pct(lat, 99):.1f} ms, max {max(lat):.1f} ms ({args.requests} requests, "
              f"{len(body)} B a page; goal with fs: p99 <= 20 ms)", flush=True)


def bench_download(stacks, args, work):
    path = os.path.join(work, "big.csv")
    gen("products", args.download_rows, path)
    size = os.path.getsize(path)
    for s in stacks:
        job, _ = upload_raw(s, path, "product,price,inventory,shipping", path + ".mapping.json")
        s.restart_gateway("api")  # a fresh process that only serves: no job work in its memory
        time.sleep(1.0)
        idle = rss_kb(s.gateway.pid)
        peak = [idle]
        done = threading.Event()

        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], rss_kb(s.gateway.pid))
                time.sleep(0.005)

        sizes, errors = [], []

        def download():
            c = s.conn()
            c.request("GET", f"/v1/jobs/{job}/cleaned", headers={"X-API-Key": s.key})
            r = c.getresponse()
            n = 0
            while True:
                chunk = r.read(1 << 16)
                if not chunk:
                    break
                n += len(chunk)
            (sizes if r.status == 200 else errors).append(n if r.status == 200 else r.status)

        sampler = threading.Thread(target=sample)
        sampler.start()
        t0 = time.perf_counter()
        clients = [threading.Thread(target=download) for _ in range(args.clients)]
        for t in clients:
            t.start()
        for t in clients:
            t.join()
        secs = time.perf_counter() - t0
        done.set()
        sampler.join()
        if errors or len(set(sizes)) != 1:
            raise SystemExit(f"{s.name}: downloads failed or differ: {sizes} {errors}")
        print(f"RESULT {args.clients} parallel downloads of a {sizes[0] / 1e6:.1f} MB cleaned file "
              f"(upload {size / 1e6:.1f} MB), {s.name}: gateway RSS idle {idle / 1024:.1f} MiB, "
              f"peak {peak[0] / 1024:.1f} MiB, +{(peak[0] - idle) / 1024:.1f} MiB above idle in "
              f"{secs:.2f} s (goal <= 64 MB)", flush=True)
        s.restart_gateway("all")


def start_rgw(work):
    d = os.path.join(work, "rgw")
    script = os.path.join(ROOT, "scripts/start-rgw.sh")
    r = subprocess.run([script, "start", d], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"start-rgw.sh failed ({r.returncode}): {r.stderr[-800:]}")
    env = dict(line.split("=", 1) for line in r.stdout.split() if "=" in line)
    code = subprocess.check_output(
        ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "--aws-sigv4",
         "aws:amz:us-east-1:s3", "--user", f"{env['S3_ACCESS_KEY']}:{env['S3_SECRET_KEY']}",
         "-H", f"x-amz-content-sha256: {EMPTY_SHA256}", f"{env['S3_ENDPOINT']}/dq-bench"], text=True)
    if code not in ("200", "409"):
        raise SystemExit(f"creating the bucket answered {code}")
    return d, {"DQ_ARTIFACT_STORE": "s3", "DQ_S3_ENDPOINT": env["S3_ENDPOINT"],
               "DQ_S3_BUCKET": "dq-bench", "DQ_S3_REGION": env["S3_REGION"],
               "AWS_ACCESS_KEY_ID": env["S3_ACCESS_KEY"],
               "AWS_SECRET_ACCESS_KEY": env["S3_SECRET_KEY"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--download-rows", type=int, default=0,
                    help="rows of the download's file (default: about 50 MB of gen_catalog products)")
    ap.add_argument("--clients", type=int, default=4, help="parallel downloads (4)")
    ap.add_argument("--stores", default="fs,s3", help="which stacks to run (fs,s3)")
    ap.add_argument("--only", default="upload,issues,download")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    work = tempfile.mkdtemp(prefix="dq-bench-artifacts.")
    stacks, rgw = [], None
    try:
        print(f"# {time.strftime('%F %T', time.gmtime())} UTC, {os.cpu_count()} cores, "
              f"load average {' '.join(load())}", flush=True)
        kinds = args.stores.split(",")
        if "fs" in kinds:
            stacks.append(Stack(build, work, "fs", {"DQ_ARTIFACT_STORE": "fs"}))
        if "s3" in kinds:
            rgw, s3_env = start_rgw(work)
            stacks.append(Stack(build, work, "s3", s3_env))
        only = args.only.split(",")
        if not args.download_rows:
            # gen_catalog product rows are about 246 B: ~49 MB, below the 50 MiB upload limit.
            args.download_rows = 200000
        if "upload" in only:
            bench_upload(stacks, args, work)
        if "issues" in only:
            bench_issues(stacks, args, work)
        if "download" in only:
            bench_download(stacks, args, work)
        print(f"# load average at the end {' '.join(load())}")
    finally:
        for s in stacks:
            s.stop()
        if rgw:
            subprocess.run([os.path.join(ROOT, "scripts/start-rgw.sh"), "stop", rgw, "--kill"],
                           capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    main()
