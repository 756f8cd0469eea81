#!/usr/bin/env python3
"""Upload a file to dq, wait for the job, download the results and page through the issues.

    DQ_BASE_URL=http://127.0.0.1:8080 DQ_API_KEY=dq_... python3 dq_client.py products.csv

Steps: POST /v1/jobs (multipart), poll GET /v1/jobs/{id} until the job is done or failed,
download GET /v1/jobs/{id}/cleaned and GET /v1/jobs/{id}/issues?format=csv into --out, then read
every issue page by page with offset and limit. Prints one JSON summary on stdout.

Needs only `requests` (Debian: python3-requests). Honours Retry-After on 429 and 503.
"""
import argparse
import json
import os
import sys
import time

import requests


class Client:
    def __init__(self, base_url, api_key, timeout=30):
        self.base = base_url.rstrip("/")
        self.session = requests.Session()
        self.session.headers["X-API-Key"] = api_key
        self.timeout = timeout

    def request(self, method, path, **kwargs):
        """One call; waits and retries (up to 5 times) when told to by Retry-After."""
        for _ in range(5):
            r = self.session.request(method, self.base + path, timeout=self.timeout, **kwargs)
            if r.status_code in (429, 503) and "Retry-After" in r.headers:
                body = r.json() if r.headers.get("Content-Type", "").startswith("application/json") else {}
                if body.get("error") == "quota_exceeded":
                    break  # waiting for next month is not an option here
                time.sleep(min(int(r.headers["Retry-After"]), 60))
                continue
            break
        if r.status_code >= 400:
            # Every error is JSON: {"error": code, "message": ...}; X-Request-Id helps support.
            raise SystemExit(f"{method} {path}: {r.status_code} {r.text} "
                             f"(request id {r.headers.get('X-Request-Id')})")
        return r

    def upload(self, path, check_types=None, mapping=None):
        data = {}
        if check_types:
            data["check_types"] = check_types
        if mapping:
            data["mapping"] = json.dumps(mapping)
        with open(path, "rb") as f:
            files = {"file": (os.path.basename(path), f, "text/csv")}
            return self.request("POST", "/v1/jobs", files=files, data=data).json()

    def wait(self, job_id, timeout=300):
        """Polls the job with a growing interval until it is done or failed."""
        deadline = time.monotonic() + timeout
        delay = 0.2
        while True:
            job = self.request("GET", f"/v1/jobs/{job_id}").json()
            if job["status"] in ("done", "failed"):
                return job
            if time.monotonic() > deadline:
                raise SystemExit(f"job {job_id} still {job['status']} after {timeout} s")
            time.sleep(delay)
            delay = min(delay * 1.5, 5)

    def download(self, path, target):
        with self.request("GET", path, stream=True) as r, open(target, "wb") as out:
            for chunk in r.iter_content(64 * 1024):
                out.write(chunk)
        return target

    def issues(self, job_id, page_size=1000):
        """Yields every issue of the job, one page at a time."""
        offset = 0
        while True:
            page = self.request("GET", f"/v1/jobs/{job_id}/issues",
                                params={"offset": offset, "limit": page_size}).json()
            yield from page["issues"]
            offset += len(page["issues"])
            if not page["issues"] or offset >= page["total"]:
                return


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", help="CSV file to upload")
    ap.add_argument("--out", default=".", help="directory for the cleaned file and the issues CSV")
    ap.add_argument("--check-types", default="product,price")
    ap.add_argument("--page-size", type=int, default=1000)
    args = ap.parse_args()
    base = os.environ.get("DQ_BASE_URL", "http://127.0.0.1:8080")
    key = os.environ.get("DQ_API_KEY")
    if not key:
        raise SystemExit("set DQ_API_KEY (and DQ_BASE_URL)")

    client = Client(base, key)
    job = client.upload(args.file, check_types=args.check_types)
    print(f"uploaded {args.file}: job {job['id']} is {job['status']}", file=sys.stderr)
    job = client.wait(job["id"])
    if job["status"] == "failed":
        raise SystemExit(f"job {job['id']} failed: {job.get('error')}")

    os.makedirs(args.out, exist_ok=True)
    name = os.path.basename(args.file)
    cleaned = client.download(f"/v1/jobs/{job['id']}/cleaned",
                              os.path.join(args.out, "cleaned-" + name))
    issues_csv = client.download(f"/v1/jobs/{job['id']}/issues?format=csv&limit=10000",
                                 os.path.join(args.out, "issues-" + os.path.splitext(name)[0] + ".csv"))
    by_code = {}
    count = 0
    for issue in client.issues(job["id"], args.page_size):
        count += 1
        by_code[issue["code"]] = by_code.get(issue["code"], 0) + 1

    print(json.dumps({
        "job_id": job["id"],
        "status": job["status"],
        "rows_total": job["rows_total"],
        "health_score": job["health_score"],
        "issues_total": job["issues_total"],
        "issues_paged": count,
        "issues_by_code": by_code,
        "cleaned_file": cleaned,
        "issues_csv": issues_csv,
    }, sort_keys=True))


if __name__ == "__main__":
    main()
