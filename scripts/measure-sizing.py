#!/usr/bin/env python3
"""Capacity of one Redis with the artifact store (docs/deploy.md, "Sizing"; issue 34, point 7).

Starts its own redis-server (the project's redis.conf, without the append-only file: memory is
what is measured), dq-validator and dq-gateway (DQ_ROLE=all, the fs artifact store in a temporary
directory) on free loopback ports, makes an agency account with dqctl, uploads a typical and a
dirty 100,000-row product file (ROWS), waits for each to be done, and measures:
  - Redis bytes per job: MEMORY USAGE of every key of the job (dq:{acct}:job:<id>*), plus its
    entry in the account's job list and byte ledger (the global event stream is bounded on its
    own, ~250 MB, and counted in a fixed 300 MB);
  - Redis bytes per account without jobs: every other dq:{acct}:* key, the API key's index;
  - store bytes per job: the files under the job's prefix in the artifact directory;
then prints the merchants one 64 GB Redis holds (maxmemory 42 GB, deploy.md's rule) at a given
number of jobs kept per merchant (30 days of jobs). Loopback only; about a minute.

  scripts/measure-sizing.py [--build DIR] [--rows N] [--jobs-per-merchant 30,300,3000] [--keys]

--keys also prints each job key's bytes and, for a hash, each field's value length: what to read
when the figure moves.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from free_port import free_port, wait_port  # noqa: E402
from dq_account import new_account  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAXMEMORY = 42 * 10**9  # 64 GB host: maxmemory about 2/3 of it (AOF rewrite fork headroom)



def product_csv(rows, dirty):
    """Shopify-style products. Typical: about one row in eight has a problem (12 % issues).
    Dirty: every row has a missing SKU and a non-numeric price."""
    out = ["Handle,Title,Variant SKU,Variant Price,Variant Inventory Qty,Vendor,Tags\n"]
    for r in range(rows):
        bad = dirty or r % 8 == 0
        sku = "" if bad else f"SKU-{r:06d}"
        price = "n/a" if bad and (dirty or r % 16 == 0) else f"{(r % 500) + 0.99:.2f}"
        out.append(f"item-{r},Blue mug no. {r % 97},{sku},{price},{r % 40},Acme,kitchen;mugs\n")
    return "".join(out).encode()


class Stack:
    def __init__(self, build, work):
        self.work = work
        self.procs = {}
        self.redis_port, self.val_port, self.gw_port, self.ops_port = (free_port() for _ in range(4))
        self.procs["redis"] = subprocess.Popen(
            ["redis-server", os.path.join(ROOT, "deploy/redis/redis.conf"), "--port",
             str(self.redis_port), "--bind", "127.0.0.1", "--dir", work, "--appendonly", "no",
             "--save", ""], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.redis_port, self.procs["redis"], seconds=30)
        env = {k: v for k, v in os.environ.items() if not k.startswith("DQ_")}
        venv = dict(env, DQ_VALIDATOR_BIND="127.0.0.1", DQ_VALIDATOR_PORT=str(self.val_port),
                    DQ_VALIDATOR_OPS_PORT="0")
        self.procs["validator"] = subprocess.Popen([os.path.join(build, "validator/dq-validator")],
                                                   env=venv, stderr=open(f"{work}/val.log", "w"))
        wait_port(self.val_port, self.procs["validator"], seconds=30)
        self.artifacts = os.path.join(work, "artifacts")
        env.update(DQ_GATEWAY_BIND="127.0.0.1", DQ_GATEWAY_PORT=str(self.gw_port),
                   DQ_GATEWAY_OPS_PORT=str(self.ops_port), DQ_REDIS_PORT=str(self.redis_port),
                   DQ_VALIDATOR_ADDR=f"127.0.0.1:{self.val_port}", DQ_SHUTDOWN_GRACE_MS="0",
                   DQ_ARTIFACT_STORE="fs", DQ_ARTIFACT_DIR=self.artifacts,
                   DQ_RATE_LIMIT_GENERAL="100000", DQ_RATE_LIMIT_UPLOAD="100000")
        self.procs["gateway"] = subprocess.Popen([os.path.join(build, "gateway/dq-gateway")],
                                                 env=env, stderr=open(f"{work}/gw.log", "w"))
        wait_port(self.gw_port, self.procs["gateway"], seconds=30)
        dq = os.path.join(build, "dqctl/dqctl")
        self.account, self.key = new_account(dq, env, name="sizing")

    def redis(self, *args):
        return subprocess.check_output(["redis-cli", "-p", str(self.redis_port), "--raw", *args],
                                       text=True).strip()

    def call(self, method, path, body=None, ctype=None):
        req = urllib.request.Request(f"http://127.0.0.1:{self.gw_port}{path}", data=body,
                                     method=method, headers={"X-API-Key": self.key})
        if ctype:
            req.add_header("Content-Type", ctype)
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.loads(r.read() or b"null")

    def stop(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()


def memory_of(stack, pattern):
    total = 0
    keys = [k for k in stack.redis("--scan", "--pattern", pattern).splitlines() if k]
    for k in keys:
        total += int(stack.redis("MEMORY", "USAGE", k, "SAMPLES", "0") or 0)
    return total, keys


def print_keys(stack, keys):
    for k in sorted(keys):
        kind = stack.redis("TYPE", k).strip()
        used = int(stack.redis("MEMORY", "USAGE", k, "SAMPLES", "0") or 0)
        print(f"  {used:>7,} B  {kind:6s} {k}")
        if kind != "hash":
            continue
        fields = [f for f in stack.redis("HKEYS", k).splitlines() if f]
        sizes = sorted(((int(stack.redis("HSTRLEN", k, f) or 0), f) for f in fields), reverse=True)
        print("           " + ", ".join(f"{f} {n:,}" for n, f in sizes))


def store_bytes(stack, job_id):
    total = 0
    for dirpath, _, files in os.walk(os.path.join(stack.artifacts, "jobs", stack.account, job_id)):
        total += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files)
    return total


def run_job(stack, name, body, show_keys=False):
    job = stack.call("POST", "/v1/jobs", body, "text/csv")
    end = time.time() + 600
    while time.time() < end:
        job = stack.call("GET", f"/v1/jobs/{job['id']}")
        if job["status"] in ("done", "failed"):
            break
        time.sleep(0.2)
    if job["status"] != "done":
        raise SystemExit(f"{name} job ended {job['status']}")
    redis_bytes, keys = memory_of(stack, f"dq:{{{stack.account}}}:job:{job['id']}*")
    # Its entries in the account's list (ZSET) and byte ledger (HASH): field + value + overhead.
    ledger = 2 * (len(job["id"]) + 24)
    if show_keys:
        print(f"{name} job's keys:")
        print_keys(stack, keys)
    return {"name": name, "id": job["id"], "upload_bytes": len(body),
            "issues": job.get("issues_total"),
            "redis_bytes": redis_bytes + ledger, "redis_keys": len(keys),
            "store_bytes": store_bytes(stack, job["id"])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--jobs-per-merchant", default="30,300,3000")
    ap.add_argument("--keys", action="store_true", help="print each job key and hash field")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="dq-sizing-")
    stack = Stack(args.build, work)
    try:
        jobs = [run_job(stack, "typical", product_csv(args.rows, False), args.keys),
                run_job(stack, "dirty", product_csv(args.rows, True), args.keys)]
        everything, _ = memory_of(stack, f"dq:{{{stack.account}}}:*")
        job_keys = sum(memory_of(stack, f"dq:{{{stack.account}}}:job:{j['id']}*")[0] for j in jobs)
        account = everything - job_keys + int(stack.redis("MEMORY", "USAGE", "dq:accounts") or 0) \
            // max(1, int(stack.redis("SCARD", "dq:accounts") or 1))
        apikeys, _ = memory_of(stack, "dq:apikey:*")
        account += apikeys
        print(f"rows per upload: {args.rows}")
        for j in jobs:
            print(f"{j['name']:8s} job: upload {j['upload_bytes']:>10,} B, issues {j['issues']}, "
                  f"Redis {j['redis_bytes']:>8,} B in {j['redis_keys']} keys, "
                  f"store {j['store_bytes']:>10,} B")
        print(f"account without jobs (keys, plan, counters, API key): {account:,} B")
        # The event stream (one job.complete a job) is trimmed at ~1,000,000 entries for all
        # merchants together (~250 MB): it is in the 300 MB, not per merchant.
        per_job = max(j["redis_bytes"] for j in jobs)
        print(f"merchants per 64 GB Redis (maxmemory {MAXMEMORY / 1e9:.0f} GB, minus 300 MB "
              f"for the streams; every job counted at the larger of the two, {per_job:,} B):")
        for n in (int(x) for x in args.jobs_per_merchant.split(",")):
            merchant = account + n * per_job
            print(f"  {n:>5} jobs kept: {merchant:>12,} B a merchant -> "
                  f"{(MAXMEMORY - 300 * 10**6) // merchant:,} merchants")
    finally:
        stack.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
