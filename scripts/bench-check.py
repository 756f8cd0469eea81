#!/usr/bin/env python3
"""Checks one scripts/bench-all.sh run against every goal docs/PERFORMANCE.md records.

    scripts/bench-all.sh /tmp/dq-bench && scripts/bench-check.py /tmp/dq-bench

Reads the steps' logs, takes each goal's figure from them and prints the goals table (Markdown,
as in PERFORMANCE.md) with the figure and whether the goal held. Speed is never asserted in unit
tests (the machine's speed moves by ~10 % from run to run); this is where a run of the
benchmarks is held to the goals, so that a goal lost to the code or to the machine is seen.

Exit status: 0 when every goal held, except those listed as known to be out of reach (reported,
not counted); 1 when a goal did not hold or its figure could not be read (a step missing or
failed); 2 on a usage error.
"""

import glob
import os
import re
import sys

UNITS = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9}


class Missing(Exception):
    """A figure the log does not have."""


def log(run, step):
    """The step's log; Missing when there is none, or the step failed or did not finish."""
    paths = glob.glob(os.path.join(run, "[0-9][0-9]-%s.txt" % step))
    if not paths:
        raise Missing("no log for step '%s'" % step)
    with open(paths[0], encoding="utf-8", errors="replace") as f:
        text = f.read()
    end = re.search(r"^# end .*, exit (\d+)$", text, re.MULTILINE)
    if not end:
        raise Missing("step '%s' did not finish" % step)
    if end.group(1) != "0":
        raise Missing("step '%s' failed (exit %s)" % (step, end.group(1)))
    return text


def search(pattern, text, what):
    m = re.search(pattern, text, re.MULTILINE)
    if not m:
        raise Missing(what)
    return m


def counter(text, bench, name):
    """A Google Benchmark counter (name=1.23M/s) of the line for benchmark `bench`, as a number."""
    line = search(r"^%s\s.*$" % re.escape(bench), text, "no %s line" % bench).group(0)
    m = search(r"\b%s=([0-9.]+)([kMG]?)" % re.escape(name), line, "no %s on %s" % (name, bench))
    return float(m.group(1)) * UNITS[m.group(2)]


def real_ms(text, bench):
    line = search(r"^%s\s.*$" % re.escape(bench), text, "no %s line" % bench).group(0)
    m = search(r"^\S+\s+([0-9.]+) ms", line, "no time on %s" % bench)
    return float(m.group(1))


def rss_lines(text, before=None):
    part = text if before is None else text.split(before)[0]
    return [(m.group(1), int(m.group(2)))
            for m in re.finditer(r"^(\S+) peak RSS: (\d+) MB", part, re.MULTILINE)]


def validate_rps(run):
    text = log(run, "validate")
    v = float(search(r"^Requests/sec:\s+([0-9.]+)", text, "no Requests/sec").group(1))
    return v, "%.1f req/s" % v


def validate_p99(run):
    m = search(r"^\s+99%\s+([0-9.]+)(us|ms|s)$", log(run, "validate"), "no 99% line")
    v = float(m.group(1)) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[m.group(2)]
    return v, "%.1f ms" % v


def pandas(kind, field):
    def read(run):
        m = search(r"^RESULT %s.*dq ([0-9.]+) s\s+pandas ([0-9.]+) s\s+ratio ([0-9.]+)x" % kind,
                   log(run, "vs-pandas"), "no RESULT %s line" % kind)
        if field == "dq":
            return float(m.group(1)), "%s s (pandas %s s)" % (m.group(1), m.group(2))
        return float(m.group(3)), "%sx" % m.group(3)
    return read


def engine(bench):
    def read(run):
        # The slower of the synthetic rows and the gen_catalog file.
        a = counter(log(run, "engine"), bench, "items_per_second")
        b = counter(log(run, "engine-files"), bench, "items_per_second")
        return min(a, b), "%.0f k rows/s (%.0f k in process, %.0f k on the file)" % (
            min(a, b) / 1e3, a / 1e3, b / 1e3)
    return read


def phone(run):
    text = log(run, "phone-agreement")
    samples = int(search(r"^samples\s+(\d+)", text, "no samples line").group(1))
    bad = int(search(r"^disagreements\s+(\d+)", text, "no disagreements line").group(1))
    return (samples, bad), "%d disagreements in %d" % (bad, samples)


def stream(run):
    text = log(run, "stream")
    one = real_ms(text, "BM_Stream/threads:1/process_time/real_time_median")
    two = real_ms(text, "BM_Stream/threads:2/process_time/real_time_median")
    return one / two, "%.2fx (%.0f -> %.0f ms)" % (one / two, one, two)


def hostile(run):
    text = log(run, "hostile")
    rss = int(search(r"^gateway peak RSS: (\d+) MB", text, "no gateway peak RSS").group(1))
    m = search(r"^good tenant: (\d+)/(\d+) answered 200 \(([0-9.]+) %\), p99 (\d+) ms.*"
               r"refused writes \(503/OOM\) (\d+)", text, "no good tenant line")
    alive = search(r"^processes alive at the end \(no restart\): (.*)$", text, "no restart line")
    return {"rss": rss, "answered": int(m.group(1)), "sent": int(m.group(2)),
            "p99": int(m.group(4)), "refused": int(m.group(5)),
            "restarts": "False" in alive.group(1)}, None


def hostile_rss(run):
    v, _ = hostile(run)
    return v["rss"], "%d MB" % v["rss"]


def hostile_tenant(run):
    v, _ = hostile(run)
    return v, "%d/%d, p99 %d ms, refused writes %d, %s" % (
        v["answered"], v["sent"], v["p99"], v["refused"],
        "a restart" if v["restarts"] else "no restart")


def malformed(run):
    text = log(run, "malformed")
    m = search(r"^(\d+) malformed requests in [0-9.]+ s: (\d+) non-JSON, (\d+) 5xx, (\d+) with a "
               r"problem", text, "no malformed requests line")
    n, non_json, server, bad = (int(g) for g in m.groups())
    return (n, non_json, server, bad), "%d non-JSON, %d 5xx among %d (%d with any problem)" % (
        non_json, server, n, bad)


def files(bench):
    def read(run):
        mib = counter(log(run, "files"), bench, "bytes_per_second") / 1e6  # MiB/s as printed
        mb = mib * 1.048576
        return mb, "%.1f MB/s" % mb
    return read


def job(step):
    def read(run):
        text = log(run, step)
        done = float(search(r"done after ([0-9.]+) s", text, "no done line").group(1))
        return done, "%.3f s" % done
    return read


def job_memory(run):
    rss = rss_lines(log(run, "gateway"), before="== GET")
    if not rss:
        raise Missing("no peak RSS lines")
    worst = max(v for _, v in rss)
    return worst, "largest %d MB (%s)" % (worst, ", ".join("%s %d" % r for r in rss))


def job_1m_memory(run):
    # Every process, the receiving gateway's hold of the whole body (246 MB) included: any gateway
    # may take the job, the receiving one too, so each is shown with its CPU.
    text = log(run, "job-1m")
    rss = rss_lines(text)
    cpu = [float(m.group(2)) for m in re.finditer(r"^(\S+) CPU: ([0-9.]+) s", text, re.MULTILINE)]
    gateways = [(v, c) for (n, v), c in zip(rss, cpu) if n == "dq-gateway"]
    validator = [v for n, v in rss if n == "dq-validator"]
    if not gateways or not validator or len(cpu) != len(rss):
        raise Missing("not every service's peak RSS and CPU")
    worst = max([v for v, _ in gateways] + validator)
    return worst, "gateways %s (receiving first), validator %d MB" % (
        ", ".join("%d MB / %.2f s CPU" % g for g in gateways), validator[0])


def notifier_rate(run):
    v = float(search(r"= ([0-9.]+) deliveries/s", log(run, "notifier"), "no burst line").group(1))
    return v, "%.0f/s" % v


def notifier_p99(run):
    v = float(search(r"XADD->receipt .*p99 ([0-9.]+) ms", log(run, "notifier"),
                     "no paced line").group(1))
    return v, "%.2f ms" % v


# Each goal: (issue, what, read(run) -> (value, shown), holds(value), known_out_of_reach). A goal
# known to be out of reach is reported and not counted; PERFORMANCE.md says why.
GOALS = [
    ("15", "POST /v1/validate, 500 rows, wrk -t2 -c32: >= 1,500 req/s", validate_rps,
     lambda v: v >= 1500, True),
    ("15", "same, p99 <= 60 ms", validate_p99, lambda v: v <= 60, True),
    ("15", "Upload 100 k products -> done <= 0.4 s", pandas("products", "dq"),
     lambda v: v <= 0.4, False),
    ("15", "same, >= 8x the pandas script", pandas("products", "ratio"), lambda v: v >= 8, False),
    ("15", "Upload 100 k customers, distinct phones, >= 6x pandas", pandas("customers", "ratio"),
     lambda v: v >= 6, False),
    ("15", "Engine, customer check, distinct phones >= 300 k rows/s/core", engine("BM_Customer"),
     lambda v: v >= 300e3, False),
    ("15", "Phone fast path agrees with libphonenumber on >= 1,000,000 numbers", phone,
     lambda v: v[0] >= 1_000_000 and v[1] == 0, False),
    ("15", "One 1 M-row stream on 2 cores >= 1.7x one thread", stream, lambda v: v >= 1.7, False),
    ("16", "Hostile load: gateway peak RSS <= 256 MB", hostile_rss, lambda v: v <= 256, False),
    ("16", "Good tenant 100 % answered, p99 <= 250 ms, no restart, no refused write",
     hostile_tenant,
     lambda v: v["answered"] == v["sent"] > 0 and v["p99"] <= 250 and v["refused"] == 0
     and not v["restarts"], False),
    ("36", "0 non-JSON and 0 5xx answers among the malformed requests", malformed,
     lambda v: v[0] >= 200 and v[1] == 0 and v[2] == 0 and v[3] == 0, False),
    ("17", "XLSX read >= 50 MB/s of sheet XML", files("BM_XlsxRead"), lambda v: v >= 50, False),
    ("17", "gzip >= 200 MB/s of output", files("BM_Gunzip"), lambda v: v >= 200, False),
    ("31", "XML feed read >= 100 MB/s of feed", files("BM_XmlRead"), lambda v: v >= 100, False),
    ("earlier", "Engine, product + price + inventory + shipping >= 1,000,000 rows/s/core",
     engine("BM_ProductFamily"), lambda v: v >= 1e6, False),
    ("earlier", "Engine, customer >= 150,000 rows/s/core", engine("BM_Customer"),
     lambda v: v >= 150e3, False),
    ("earlier", "Upload -> done, 200,000 product rows, five check types, <= 2 s", job("gateway"),
     lambda v: v <= 2, False),
    ("earlier", "Peak memory per service in that run <= 300 MB", job_memory,
     lambda v: v <= 300, False),
    ("earlier", "1,000,000 rows: every service <= 300 MB, the receiving gateway's body included",
     job_1m_memory,
     lambda v: v <= 300, False),
    ("earlier", "Webhook deliveries >= 2,000/s", notifier_rate, lambda v: v >= 2000, False),
    ("earlier", "Job done -> webhook received, p99 <= 500 ms", notifier_p99,
     lambda v: v <= 500, False),
]


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: scripts/bench-check.py LOGDIR (a scripts/bench-all.sh run)", file=sys.stderr)
        return 2
    run = argv[1]
    failed = 0
    print("| Issue | Goal | This run | Status |")
    print("|---|---|---|---|")
    for issue, what, read, holds, out_of_reach in GOALS:
        try:
            value, shown = read(run)
            ok = holds(value)
            status = "met" if ok else ("not met (out of reach, see PERFORMANCE.md)"
                                       if out_of_reach else "**NOT MET**")
        except Missing as e:
            ok, shown, status = False, "(%s)" % e, "**NO FIGURE**"
        if not ok and not out_of_reach:
            failed += 1
        print("| %s | %s | %s | %s |" % (issue, what, shown, status))
    print()
    print("%d goal(s) not held" % failed if failed else "every reachable goal held")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
