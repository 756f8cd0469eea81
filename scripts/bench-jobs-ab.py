#!/usr/bin/env python3
"""Two builds' jobs side by side in one run (issue 34): upload -> `done` of one gen_catalog file,
alternating between a stack on build A's binaries and one on build B's, so that a machine busy
with other work weighs on both alike; then one job's answers from each compared byte for byte.

Each stack is its own redis-server (the project's redis.conf: appendfsync always, its AOF in the
stack's folder), dq-validator and dq-gateway (the fs artifact store, in the stack's folder, on the
same disk as /var/lib/dq), as scripts/bench-vs-pandas.sh starts them. Rounds alternate A B, B A,
... after one unmeasured job on each. Per job: the time to `done` as the client sees it
(bench/tools/upload_to_done.py) and the gateway's CPU (/proc). At the end: medians, B/A, the
artifact bytes one job left in each store, and whether the issues (CSV, `limit=all`), the first
JSON page of issues, the cleaned file, the summary and the job's detail (ids and times left out)
are the same bytes on both. Exits 1 when they are not.

  scripts/bench-jobs-ab.py --a OTHER_BUILD [--b build] [--rows 100000] [--rounds 15]
                           [--kind products|customers]
"""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from free_port import free_port, wait_port  # noqa: E402
from dq_account import new_account  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = {"products": "product,price,inventory,shipping", "customers": "customer"}
TICK = os.sysconf("SC_CLK_TCK")


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def cpu_ms(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 // TICK



class Stack:
    def __init__(self, build, work, name):
        self.build, self.name = build, name
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir)
        self.procs = []
        self.redis = free_port()
        self.spawn(["redis-server", os.path.join(ROOT, "deploy/redis/redis.conf"), "--port",
                    str(self.redis), "--bind", "127.0.0.1", "--dir", self.dir], {}, "redis")
        self.val = free_port()
        self.spawn([os.path.join(build, "validator/dq-validator")],
                   {"DQ_VALIDATOR_BIND": "127.0.0.1", "DQ_VALIDATOR_PORT": str(self.val),
                    "DQ_VALIDATOR_OPS_PORT": "0"}, "validator")
        self.gw = free_port()
        self.artifacts = os.path.join(self.dir, "artifacts")
        self.gateway = self.spawn(
            [os.path.join(build, "gateway/dq-gateway")],
            {"DQ_GATEWAY_BIND": "127.0.0.1", "DQ_GATEWAY_PORT": str(self.gw),
             "DQ_GATEWAY_OPS_PORT": "0", "DQ_REDIS_PORT": str(self.redis),
             "DQ_VALIDATOR_ADDR": f"127.0.0.1:{self.val}", "DQ_RATE_LIMIT_ENABLED": "0",
             "DQ_SHUTDOWN_GRACE_MS": "0", "DQ_ARTIFACT_STORE": "fs",
             "DQ_ARTIFACT_DIR": self.artifacts}, "gateway", wait=self.gw)
        env = dict(os.environ, DQ_REDIS_PORT=str(self.redis))
        self.account, self.key = new_account(os.path.join(build, "dqctl/dqctl"), env)

    def spawn(self, argv, env, log, wait=None):
        clean = {k: v for k, v in os.environ.items() if not k.startswith("DQ_")}
        clean.update(env)
        p = subprocess.Popen(argv, env=clean, stdout=open(os.path.join(self.dir, log + ".log"), "ab"),
                             stderr=subprocess.STDOUT)
        self.procs.append(p)
        wait_port(wait if wait else (self.redis if log == "redis" else self.val), p)
        return p

    def get(self, path):
        c = http.client.HTTPConnection("127.0.0.1", self.gw, timeout=120)
        c.request("GET", path, headers={"X-API-Key": self.key})
        r = c.getresponse()
        body = r.read()
        if r.status != 200:
            raise SystemExit(f"{self.name}: GET {path} answered {r.status}: {body[:200]!r}")
        return body

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.kill()
                p.wait()


def run_job(stack, path, types):
    before = cpu_ms(stack.gateway.pid)
    out = subprocess.check_output([sys.executable, os.path.join(ROOT, "bench/tools/upload_to_done.py"),
                                   f"http://127.0.0.1:{stack.gw}", stack.key, path,
                                   path + ".mapping.json", types])
    line = json.loads(out)
    if line.get("status") != "done":
        raise SystemExit(f"{stack.name}: job did not finish: {line}")
    line["gw_cpu_ms"] = cpu_ms(stack.gateway.pid) - before
    return line


def job_bytes(stack, job):
    total = 0
    for d, _, files in os.walk(stack.artifacts):
        if job in d:
            total += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    return total


VOLATILE = re.compile(r'"(id|job_id|previous_job_id|created_at|started_at|finished_at|'
                      r'updated_at|expires_at)":\s*("[^"]*"|null)')


def answers(stack, job):
    detail = stack.get(f"/v1/jobs/{job}?issues=none").replace(job.encode(), b"<job>")
    return {
        "issues.csv": stack.get(f"/v1/jobs/{job}/issues?format=csv&limit=all"),
        "issues page 1": stack.get(f"/v1/jobs/{job}/issues?limit=1000").replace(job.encode(), b"<job>"),
        "cleaned": stack.get(f"/v1/jobs/{job}/cleaned"),
        "summary": VOLATILE.sub(lambda m: f'"{m.group(1)}":"-"', stack.get(
            f"/v1/jobs/{job}/summary").replace(job.encode(), b"<job>").decode()).encode(),
        "detail": VOLATILE.sub(lambda m: f'"{m.group(1)}":"-"', detail.decode()).encode(),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--a", required=True, help="the build to compare with (e.g. main's build/)")
    ap.add_argument("--b", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--kind", default="products", choices=sorted(TYPES))
    ap.add_argument("--file", help="a CSV to upload instead (with FILE.mapping.json beside it)")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="dqab.", dir="/var/tmp")
    stacks = []
    try:
        path = args.file
        if not path:
            path = os.path.join(work, f"{args.kind}.csv")
            extra = ["--phones", "unique"] if args.kind == "customers" else []
            subprocess.check_call([sys.executable, os.path.join(ROOT, "bench/tools/gen_catalog.py"),
                                   args.kind, "--rows", str(args.rows), "--out", path, *extra])
        types = TYPES[args.kind]
        stacks = [Stack(args.a, work, "A"), Stack(args.b, work, "B")]
        print(f"# {time.strftime('%F %T', time.gmtime())} UTC, {os.cpu_count()} cores, "
              f"load {load()}; A = {args.a}, B = {args.b}; {path}, {types}", flush=True)
        last = {}
        for s in stacks:
            last[s.name] = run_job(s, path, types)  # warm-up, not counted
        done = {s.name: [] for s in stacks}
        cpu = {s.name: [] for s in stacks}
        for i in range(args.rounds):
            for s in (stacks if i % 2 == 0 else stacks[::-1]):
                line = run_job(s, path, types)
                last[s.name] = line
                done[s.name].append(line["done_s"])
                cpu[s.name].append(line["gw_cpu_ms"])
                print(f"  round {i + 1:2} {s.name}: done {line['done_s']:.3f} s (202 after "
                      f"{line['accepted_s']:.3f} s), gateway CPU {line['gw_cpu_ms']} ms, "
                      f"{line['issues']} issues", flush=True)
        med = {n: statistics.median(v) for n, v in done.items()}
        cmed = {n: statistics.median(v) for n, v in cpu.items()}
        print(f"# load at the end {load()}")
        print(f"RESULT {args.kind} {args.rows} rows, medians of {args.rounds} alternating: "
              f"A {med['A']:.3f} s, B {med['B']:.3f} s, B/A {med['B'] / med['A']:.3f}; "
              f"gateway CPU A {cmed['A']:.0f} ms, B {cmed['B']:.0f} ms")
        for s in stacks:
            print(f"# {s.name}: one job's artifact bytes {job_bytes(s, last[s.name]['id']):,}")
            log = open(os.path.join(s.dir, "gateway.log"), errors="replace").read().splitlines()
            for line in [x for x in log if "stages" in x][-2:]:
                print(f"# {s.name}: {line[:400]}")
        a, b = (answers(s, last[s.name]["id"]) for s in stacks)
        same = True
        for k in a:
            ok = a[k] == b[k]
            same = same and ok
            print(f"# {k}: {len(a[k]):,} B vs {len(b[k]):,} B: {'identical' if ok else 'DIFFERENT'}")
        if not same:
            for k in a:
                if a[k] != b[k]:
                    open(os.path.join("/tmp", f"ab-{k.replace(' ', '_')}.A"), "wb").write(a[k])
                    open(os.path.join("/tmp", f"ab-{k.replace(' ', '_')}.B"), "wb").write(b[k])
            print("# the differing answers are in /tmp/ab-*.A and /tmp/ab-*.B")
            sys.exit(1)
    finally:
        for s in stacks:
            s.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
