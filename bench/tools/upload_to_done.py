#!/usr/bin/env python3
"""Times one upload to `done` against a running gateway, as a client sees it.

  upload_to_done.py BASE_URL API_KEY FILE MAPPING.json CHECK_TYPES [CONTENT_TYPE]

POSTs the file as a raw body (CONTENT_TYPE, text/csv unless given; mapping and check types in
the query), then polls GET /v1/jobs?limit=1 every 5 ms on the same keep-alive connection until
the job is `done` or `failed`, and prints one JSON line: seconds to the 202 and to `done` (wall
clock, measured here), the server's own timestamps (created_at, started_at, finished_at, as
offsets from created_at) and the job's id, rows and issue count. Stdlib only; used by
scripts/bench-vs-pandas.sh and scripts/bench-xlsx.sh.
"""
import datetime, http.client, json, sys, time, urllib.parse


def ms(iso):
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def main():
    base, key, path, mapping_path, check_types = sys.argv[1:6]
    content_type = sys.argv[6] if len(sys.argv) > 6 else "text/csv"
    url = urllib.parse.urlsplit(base)
    body = open(path, "rb").read()
    mapping = open(mapping_path).read()
    query = urllib.parse.urlencode({"filename": path.rsplit("/", 1)[-1], "mapping": mapping,
                                    "check_types": check_types})
    conn = http.client.HTTPConnection(url.hostname, url.port)
    conn.connect()
    headers = {"X-API-Key": key, "Content-Type": content_type}
    start = time.perf_counter()
    conn.request("POST", "/v1/jobs?" + query, body=body, headers=headers)
    resp = conn.getresponse()
    answer = resp.read()
    accepted = time.perf_counter()
    if resp.status != 202:
        sys.exit(f"upload refused: {resp.status} {answer[:300]!r}")
    job_id = json.loads(answer)["id"]
    status = "queued"
    while status not in ("done", "failed"):
        time.sleep(0.005)
        conn.request("GET", "/v1/jobs?limit=1", headers={"X-API-Key": key})
        listed = json.loads(conn.getresponse().read())
        status = next((j["status"] for j in listed if j["id"] == job_id), status)
    done = time.perf_counter()
    conn.request("GET", f"/v1/jobs/{job_id}", headers={"X-API-Key": key})
    detail = json.loads(conn.getresponse().read())
    created = ms(detail["created_at"])
    print(json.dumps({
        "id": job_id, "status": status, "rows": detail["rows_total"], "issues": detail["issues_total"],
        "error": detail.get("error"),
        "accepted_s": round(accepted - start, 3), "done_s": round(done - start, 3),
        "server_started_s": round(ms(detail["started_at"]) - created, 3)
        if detail["started_at"] else None,
        "server_finished_s": round(ms(detail["finished_at"]) - created, 3)
        if detail["finished_at"] else None,
    }))


if __name__ == "__main__":
    main()
