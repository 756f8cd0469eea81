#!/usr/bin/env python3
"""Run the public corpus of real exports through dq and hold the answers to the expectations.

    DQ_BASE_URL=http://127.0.0.1:8080 DQ_API_KEY=dq_... python3 tests/corpus/run_corpus.py
    python3 tests/corpus/run_corpus.py --base-url URL --api-key KEY --json out.json

For every <source>/<name>.expect.json under the corpus directory (this script's directory by
default), the sample file it names is uploaded through the job path (multipart POST /v1/jobs,
poll GET /v1/jobs/{id}, page GET /v1/jobs/{id}/issues, GET /v1/jobs/{id}/cleaned). A CSV, TSV
or JSON sample of at most 500 data rows is also sent through the inline path (POST
/v1/validate), its records keyed by the header and the mapping taken from the job.

Each path is checked against the expectations: the row count, the detected source, every
must_find entry (an issue with that code, row and field), every must_not_find entry (no such
issue), the false-alarm share (issues matching a must_not_find entry / all issues) and the
unchanged cells of the cleaned file. The exit status is 1 when any expectation fails, 2 when
the service cannot be used at all.

Where the samples are: a sample is looked up beside its expect file, then under each data
directory as <dir>/<source>/<file>: --data-dir (repeatable), DQ_CORPUS_DATA, then shared/
beside the repository (../shared/data/corpus, as CI lays shared/ beside the clone) and
/work/shared/data/corpus. A sample that is found nowhere fails its expectations.

Python 3 standard library only; `requests` is used when it is installed.
"""
import argparse
import csv
import io
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import xml.etree.ElementTree as ET

try:
    import requests  # optional
except ImportError:  # pragma: no cover - depends on the machine
    requests = None

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
INLINE_MAX_ROWS = 500
KEEP_ISSUES = False  # --issues: every issue in the --json output
CONTENT_TYPES = {
    ".csv": "text/csv",
    ".tsv": "text/tab-separated-values",
    ".txt": "text/tab-separated-values",
    ".json": "application/json",
    ".ndjson": "application/x-ndjson",
    ".xml": "application/xml",
}


# ------------------------------------------------------------------------------------------
# HTTP: a tiny client over requests or urllib, honouring Retry-After on 429 and 503.


class HttpError(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body[:300]}")
        self.status = status
        self.body = body


class Client:
    def __init__(self, base, key, timeout=60):
        self.base = base.rstrip("/")
        self.key = key
        self.timeout = timeout

    def _once(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        headers["X-API-Key"] = self.key
        url = self.base + path
        if requests is not None:
            r = requests.request(method, url, data=body, headers=headers, timeout=self.timeout)
            return r.status_code, dict(r.headers), r.content
        req = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def call(self, method, path, body=None, headers=None):
        for _ in range(12):
            status, hdrs, data = self._once(method, path, body, headers)
            if status in (429, 503):
                text = data.decode("utf-8", "replace")
                if "quota_exceeded" in text or "storage_limit_exceeded" in text:
                    break
                retry = hdrs.get("Retry-After") or hdrs.get("retry-after")
                if retry:
                    time.sleep(min(max(int(retry), 1), 65))
                    continue
            break
        if status >= 400:
            raise HttpError(status, data.decode("utf-8", "replace"))
        return data

    def json(self, method, path, obj=None):
        body = None if obj is None else json.dumps(obj).encode("utf-8")
        headers = {"Content-Type": "application/json"} if obj is not None else {}
        return json.loads(self.call(method, path, body, headers))

    def upload(self, path, fields):
        boundary = "dqcorpus" + uuid.uuid4().hex
        name = os.path.basename(path)
        ctype = CONTENT_TYPES.get(os.path.splitext(name)[1].lower(), "application/octet-stream")
        parts = []
        for k, v in fields.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n'
                         f"{v}\r\n".encode("utf-8"))
        with open(path, "rb") as f:
            data = f.read()
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                     f'filename="{name}"\r\nContent-Type: {ctype}\r\n\r\n'.encode("utf-8")
                     + data + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode("utf-8"))
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}",
                   "Idempotency-Key": "corpus-" + uuid.uuid4().hex}
        return json.loads(self.call("POST", "/v1/jobs", b"".join(parts), headers))


# ------------------------------------------------------------------------------------------
# Reading samples and cleaned files into rows of {column: value}.


def decode(data):
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def sniff_delimiter(text):
    lines = text.split("\n")
    first = next((line for line in lines if not line.startswith("#")), lines[0])
    counts = {d: first.count(d) for d in (",", ";", "\t", "|")}
    return max(counts, key=counts.get)


def flatten(obj, prefix=""):
    """A JSON object's members as dq's JSON reader reads them (docs/ingest.md, "JSON details"):
    a non-empty nested object's members become keys named by their path ("meta.barcode");
    arrays and empty objects stay values. Both paths are sent the records as they are and read
    them this way; the runner flattens what it judges (the records, both cleaned outputs)."""
    out = {}
    for k, v in obj.items():
        name = prefix + k
        if isinstance(v, dict) and v:
            out.update(flatten(v, name + "."))
        else:
            out[name] = v
    return out


def read_table(data, ext):
    """Returns (header, rows as dicts, rows as lists) or None when the format is not tabular."""
    if ext in (".csv", ".tsv", ".txt"):
        text = decode(data)
        delim = "\t" if ext in (".tsv", ".txt") else sniff_delimiter(text)
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim))
        rows = [r for r in rows if r != []]
        # Comment lines above the header ('#' first), as Meta's catalog template and feed
        # metadata tags write them, are not rows.
        while rows and rows[0] and rows[0][0].startswith("#"):
            rows.pop(0)
        if not rows:
            return [], [], []
        header = rows[0]
        return header, [dict(zip(header, r)) for r in rows[1:]], rows[1:]
    if ext == ".json":
        items = [flatten(o) for o in json.loads(decode(data))]
        header = []
        for o in items:
            for k in o:
                if k not in header:
                    header.append(k)
        return header, items, None
    if ext == ".ndjson":
        items = [json.loads(line) for line in decode(data).splitlines() if line.strip()]
        return None, items, None
    if ext == ".xml":
        return None, read_xml_items(data), None
    return None


NS = {"g": "http://base.google.com/ns/1.0", "atom": "http://www.w3.org/2005/Atom"}


def read_xml_items(data):
    """RSS <item> or Atom <entry> elements as {tag: text}; g: children keep their g: prefix."""
    root = ET.fromstring(data)
    items = root.iter("item")
    found = list(items) or list(root.iter("{http://www.w3.org/2005/Atom}entry"))
    out = []
    for it in found:
        row = {}
        for child in it:
            tag = child.tag
            for prefix, uri in NS.items():
                tag = tag.replace("{" + uri + "}", "" if prefix == "atom" else prefix + ":")
            if tag not in row:
                row[tag] = (child.text or "").strip() if len(child) == 0 else ET.tostring(child, "unicode")
        out.append(row)
    return out


def cell(value):
    """A JSON value as the text dq compares (numbers and booleans as written, objects compact)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# ------------------------------------------------------------------------------------------
# Expectations.


def rows_of(entry, total):
    if "row" in entry:
        return [entry["row"]]
    rows = entry.get("rows", "all")
    if rows == "all":
        return list(range(1, total + 1))
    return list(rows)


def codes_of(entry):
    code = entry.get("code", "*")
    return None if code == "*" else set([code] if isinstance(code, str) else code)


def matches(issue, entry, rowset):
    codes = codes_of(entry)
    if codes is not None and issue["code"] not in codes:
        return False
    if entry.get("field") and issue.get("field") != entry["field"]:
        return False
    return issue["row"] in rowset


def judge(expect, issues, original_rows, cleaned_rows, rows_seen, source_seen, path="job"):
    """Checks one path's answer; returns a result dict (ok, counts, failures). A must_find entry
    with "paths" (e.g. ["job"]) is held only on those paths: a record's field count, for one, is
    something only an uploaded file has."""
    total = expect["rows"]
    failures = []
    if rows_seen != total:
        failures.append(f"rows: expected {total}, dq counted {rows_seen}")
    want_source = expect.get("expect_source")
    if want_source and source_seen != want_source:
        failures.append(f"source: expected {want_source}, dq said {source_seen!r}")

    hits, misses = 0, []
    for entry in expect.get("must_find", []):
        if path not in entry.get("paths", [path]):
            continue
        for r in rows_of(entry, total):
            one = dict(entry)
            if any(matches(i, one, {r}) for i in issues):
                hits += 1
            else:
                code = entry.get("code")
                misses.append(f"{code if isinstance(code, str) else '|'.join(code)} "
                              f"row {r}" + (f" field {entry['field']}" if entry.get("field") else ""))
    n_find = hits + len(misses)

    violations = []
    false_alarm_ids = set()
    for k, entry in enumerate(expect.get("must_not_find", [])):
        rowset = set(rows_of(entry, total))
        bad = [i for i in issues if matches(i, entry, rowset)]
        for i in bad:
            false_alarm_ids.add(id(i))
        if bad:
            codes = sorted({i["code"] for i in bad})
            violations.append({"entry": k, "code": entry.get("code"), "field": entry.get("field"),
                               "issues": len(bad), "codes_seen": codes,
                               "rows": sorted({i["row"] for i in bad})[:20]})
    share = (len(false_alarm_ids) / len(issues)) if issues else 0.0

    unchanged_bad = []
    for entry in expect.get("unchanged_cells", []):
        col = entry["column"]
        for r in rows_of(entry, total):
            if cleaned_rows is None:
                unchanged_bad.append(f"row {r} {col}: no cleaned file")
                break
            if r > len(original_rows) or r > len(cleaned_rows):
                unchanged_bad.append(f"row {r} {col}: row missing")
                continue
            before = cell(original_rows[r - 1].get(col))
            after = cell(cleaned_rows[r - 1].get(col))
            if before != after:
                unchanged_bad.append(f"row {r} {col}: {before!r} became {after!r}")
    if misses:
        failures.append(f"must_find: {len(misses)} of {n_find} missed")
    if violations:
        failures.append(f"must_not_find: {sum(v['issues'] for v in violations)} issues "
                        f"break {len(violations)} entries")
    if unchanged_bad:
        failures.append(f"unchanged_cells: {len(unchanged_bad)} changed")
    by_code = {}
    for i in issues:
        by_code[i["code"]] = by_code.get(i["code"], 0) + 1
    return {"ok": not failures, "issues": len(issues), "issues_by_code": by_code,
            "must_find_hits": hits, "must_find_total": n_find, "must_find_misses": misses,
            "must_not_find_violations": violations, "false_alarm_share": round(share, 4),
            "unchanged_violations": unchanged_bad, "failures": failures,
            **({"issue_list": issues} if KEEP_ISSUES else {})}


# ------------------------------------------------------------------------------------------
# Running one sample.


def find_sample(expect_path, expect, data_dirs):
    source = os.path.basename(os.path.dirname(expect_path))
    beside = os.path.join(os.path.dirname(expect_path), expect["file"])
    candidates = [beside] + [os.path.join(d, source, expect["file"]) for d in data_dirs]
    for c in candidates:
        if os.path.isfile(c):
            return c
    return None


def upload_fields(expect):
    up = expect.get("upload", {})
    fields = {}
    for k, v in up.items():
        if v not in ("", None):  # only what is set: the service may not know a new parameter yet
            fields[k] = v if isinstance(v, str) else json.dumps(v)
    return fields


def run_job(client, sample, expect, poll_timeout):
    job = client.upload(sample, upload_fields(expect))
    deadline = time.monotonic() + poll_timeout
    delay = 0.2
    while True:
        detail = client.json("GET", f"/v1/jobs/{job['id']}")
        if detail["status"] in ("done", "failed"):
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"job {job['id']} still {detail['status']} after {poll_timeout} s")
        time.sleep(delay)
        delay = min(delay * 1.5, 3)
    if detail["status"] == "failed":
        raise RuntimeError(f"job {job['id']} failed: {detail.get('error')}")
    issues, offset = [], 0
    while True:
        page = client.json("GET", f"/v1/jobs/{job['id']}/issues?offset={offset}&limit=10000")
        for i in page["issues"]:
            issues.append({"row": i["issue_row"], "code": i["code"], "field": i.get("field"),
                           "severity": i.get("severity"), "original_value": i.get("original_value"),
                           "fixed_value": i.get("fixed_value")})
        offset += len(page["issues"])
        if not page["issues"] or offset >= page["total"]:
            break
    cleaned = client.call("GET", f"/v1/jobs/{job['id']}/cleaned")
    return detail, issues, cleaned


def run_inline(client, expect, header, records, mapping, source=None):
    body = {"records": records, "mapping": mapping}
    up = expect.get("upload", {})
    for k in ("check_types", "platform", "source"):
        if up.get(k):
            body[k] = up[k]
    # Inline, no source is detected (every record is a product): send the job's, as its mapping.
    if source and "source" not in body:
        body["source"] = source
    answer = client.json("POST", "/v1/validate", body)
    issues = [{"row": i["row"], "code": i["code"], "field": i.get("field"),
               "severity": i.get("severity"), "original_value": i.get("original_value"),
               "fixed_value": i.get("fixed_value")} for i in answer["issues"]]
    return answer, issues


def run_one(client, expect_path, data_dirs, poll_timeout):
    with open(expect_path, encoding="utf-8") as f:
        expect = json.load(f)
    name = os.path.relpath(expect_path, os.path.dirname(os.path.dirname(expect_path)))
    result = {"expect": name, "file": expect["file"], "rows": expect["rows"], "paths": {}}
    sample = find_sample(expect_path, expect, data_dirs)
    if sample is None:
        result["error"] = "sample not found (see --data-dir)"
        result["ok"] = False
        return result
    result["sample"] = sample
    ext = os.path.splitext(sample)[1].lower()
    with open(sample, "rb") as f:
        raw = f.read()
    table = read_table(raw, ext)
    header, original = (table[0], table[1]) if table else (None, [])

    # Job path.
    try:
        detail, issues, cleaned = run_job(client, sample, expect, poll_timeout)
        cleaned_table = read_table(cleaned, ext)
        cleaned_rows = cleaned_table[1] if cleaned_table else None
        job = judge(expect, issues, original, cleaned_rows, detail.get("rows_total"),
                    detail.get("source"))
        job.update({"job_id": detail["id"], "mapping": detail.get("mapping"),
                    "health_score": detail.get("health_score")})
        # "expect_mapping": {field: column} the inferred mapping must hold (a column misread).
        for field, column in expect.get("expect_mapping", {}).items():
            seen = (detail.get("mapping") or {}).get(field)
            if seen != column:
                job["failures"].append(f"mapping: expected {field} = {column!r}, dq said {seen!r}")
                job["ok"] = False
    except (HttpError, RuntimeError, ET.ParseError, ValueError) as e:
        detail = None
        job = {"ok": False, "error": str(e), "failures": [f"upload: {e}"]}
    result["paths"]["job"] = job

    # Inline path: tabular samples of at most 500 rows, with the job's mapping.
    if ext in (".csv", ".tsv", ".txt", ".json") and expect["rows"] <= INLINE_MAX_ROWS:
        if detail is None or not detail.get("mapping"):
            result["paths"]["inline"] = {"ok": False, "skipped": "no mapping from the job",
                                         "failures": ["inline: no mapping from the job"]}
        else:
            try:
                if ext == ".json":
                    records = json.loads(decode(raw))  # nested, as the job reads them
                else:
                    records = [dict(zip(header, r)) for r in table[2]]
                answer, issues = run_inline(client, expect, header, records, detail["mapping"],
                                            detail.get("source"))
                cleaned_inline = answer.get("cleaned")
                if ext == ".json" and cleaned_inline is not None:
                    cleaned_inline = [flatten(o) for o in cleaned_inline]
                inline = judge(expect, issues, original, cleaned_inline,
                               answer.get("stats", {}).get("rows"), answer.get("source"),
                               path="inline")
                inline["score"] = answer.get("stats", {}).get("score")
            except (HttpError, ValueError) as e:
                inline = {"ok": False, "error": str(e), "failures": [f"validate: {e}"]}
            result["paths"]["inline"] = inline
    result["ok"] = all(p.get("ok") for p in result["paths"].values())
    return result


# ------------------------------------------------------------------------------------------


def print_result(r):
    status = "PASS" if r["ok"] else "FAIL"
    print(f"{status} {r['expect']} ({r['rows']} rows)")
    if r.get("error"):
        print(f"     {r['error']}")
    for path, p in r["paths"].items():
        if "error" in p or "skipped" in p:
            print(f"  {path:6}: {p.get('error') or p.get('skipped')}")
            continue
        print(f"  {path:6}: issues {p['issues']}, must_find {p['must_find_hits']}/{p['must_find_total']}, "
              f"must_not_find violations {sum(v['issues'] for v in p['must_not_find_violations'])}, "
              f"false alarms {100 * p['false_alarm_share']:.1f}%, "
              f"unchanged-cell violations {len(p['unchanged_violations'])}")
        for f in p["failures"]:
            print(f"          - {f}")
        for m in p["must_find_misses"][:8]:
            print(f"            missed {m}")
        if len(p["must_find_misses"]) > 8:
            print(f"            ... and {len(p['must_find_misses']) - 8} more")
        for v in p["must_not_find_violations"]:
            print(f"            false alarm {v['code']}{'/' + v['field'] if v['field'] else ''}: "
                  f"{v['issues']} issues ({', '.join(v['codes_seen'])})")
        for u in p["unchanged_violations"][:5]:
            print(f"            changed {u}")
        if len(p["unchanged_violations"]) > 5:
            print(f"            ... and {len(p['unchanged_violations']) - 5} more")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", default=os.environ.get("DQ_BASE_URL"))
    ap.add_argument("--api-key", default=os.environ.get("DQ_API_KEY"))
    ap.add_argument("--corpus-dir", default=HERE, help="where the *.expect.json files are")
    ap.add_argument("--data-dir", action="append", default=[],
                    help="a directory holding <source>/<file> samples (repeatable)")
    ap.add_argument("--only", action="append", default=[],
                    help="run only expect files whose path contains this text (repeatable)")
    ap.add_argument("--json", metavar="OUT", help="write every result to this JSON file")
    ap.add_argument("--poll-timeout", type=float, default=300)
    ap.add_argument("--issues", action="store_true",
                    help="keep every issue reported (row, code, field, values) in the --json output")
    args = ap.parse_args()
    global KEEP_ISSUES
    KEEP_ISSUES = args.issues
    if not args.base_url or not args.api_key:
        ap.error("give --base-url and --api-key (or DQ_BASE_URL and DQ_API_KEY)")

    data_dirs = list(args.data_dir)
    if os.environ.get("DQ_CORPUS_DATA"):
        data_dirs.append(os.environ["DQ_CORPUS_DATA"])
    data_dirs += [os.path.join(os.path.dirname(REPO), "shared", "data", "corpus"),
                  "/work/shared/data/corpus"]

    expects = []
    for dirpath, _, files in os.walk(args.corpus_dir):
        for f in files:
            if f.endswith(".expect.json"):
                p = os.path.join(dirpath, f)
                if not args.only or any(o in p for o in args.only):
                    expects.append(p)
    expects.sort()
    if not expects:
        print("no *.expect.json found", file=sys.stderr)
        return 2

    client = Client(args.base_url, args.api_key)
    try:
        client.call("GET", "/v1/usage")
    except (HttpError, OSError) as e:
        print(f"dq is not usable at {args.base_url}: {e}", file=sys.stderr)
        return 2

    results = []
    for p in expects:
        r = run_one(client, p, data_dirs, args.poll_timeout)
        print_result(r)
        results.append(r)
    failed = [r for r in results if not r["ok"]]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"base_url": args.base_url, "results": results}, f, indent=2,
                      ensure_ascii=False)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
