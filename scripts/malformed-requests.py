#!/usr/bin/env python3
"""Malformed requests against a real dq-gateway on loopback: every answer must be dq's JSON.

Starts its own redis-server, dq-validator and dq-gateway on free loopback ports (production
settings, except that the anonymous and general rate limits are raised so that every request is
judged on what is wrong with it rather than refused as the 61st of the minute), creates one
account with a key, then sends a fixed list of 200 malformed requests, each on a connection of
its own, over raw sockets: methods, request lines, header names and values, dates, content
types, content encodings, transfer encodings and chunked bodies, absurd lengths, invalid UTF-8,
NUL and control bytes, duplicate headers. Each answer must be:
  - an HTTP/1.x answer, below 500;
  - Content-Type application/json, a body that parses as a JSON object;
  - X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers
    (docs/api.md, "Rate limits": every response of the API listener carries them);
  - for a status of 400 or more, the error body of docs/api.md: "error" and "message" strings
    and "request_id" equal to the X-Request-Id header.
Then HEAD on every GET route must answer GET's status line and headers, without a body.

  scripts/malformed-requests.py [--build build] [--verbose]   exit 1 unless every answer holds
  scripts/malformed-requests.py --port N [--key K]             against a gateway already running

Deterministic (a fixed list, one connection each, sequential) and quick: about 2-5 s. Run by
CTest as malformed_requests.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from free_port import free_port, wait_port  # noqa: E402  (scripts/lib/free_port.py)
from dq_account import new_account  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RATE_HEADERS = ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")



class Stack:
    def __init__(self, build, work):
        self.procs = {}
        self.redis_port, self.val_port, self.port, self.ops_port = (free_port() for _ in range(4))
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
        env.update(DQ_GATEWAY_BIND="127.0.0.1", DQ_GATEWAY_PORT=str(self.port),
                   DQ_GATEWAY_OPS_PORT=str(self.ops_port), DQ_REDIS_PORT=str(self.redis_port),
                   DQ_VALIDATOR_ADDR=f"127.0.0.1:{self.val_port}", DQ_SHUTDOWN_GRACE_MS="0",
                   DQ_RATE_LIMIT_ANONYMOUS="100000", DQ_RATE_LIMIT_GENERAL="100000",
                   DQ_RATE_LIMIT_UPLOAD="100000")
        self.procs["gateway"] = subprocess.Popen([os.path.join(build, "gateway/dq-gateway")],
                                                 env=env, stderr=open(f"{work}/gw.log", "w"))
        wait_port(self.port, self.procs["gateway"], seconds=20)
        dq = os.path.join(build, "dqctl/dqctl")
        _, self.key = new_account(dq, env, name="malformed")

    def alive(self):
        return all(p.poll() is None for p in self.procs.values())

    def stop(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()


# ---------------------------------------------------------------------------------------------
# The requests.

def cases(key):
    """The fixed list: (name, raw bytes). Every request is complete as sent (nothing is left for
    the server to wait for), so every one has an answer."""
    k = key.encode()
    out = []

    def add(name, raw):
        out.append((name, raw))

    def get(path=b"/v1/usage", headers=b"", method=b"GET", version=b"HTTP/1.1", auth=True):
        own_host = headers.lower().startswith(b"host:")  # the case is the Host header itself
        return (method + b" " + path + b" " + version + b"\r\n" +
                (b"" if own_host else b"Host: 127.0.0.1\r\n") +
                (b"X-API-Key: " + k + b"\r\n" if auth else b"") + headers + b"\r\n")

    def post(path, body, headers=b"", auth=True, method=b"POST"):
        return (method + b" " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                (b"X-API-Key: " + k + b"\r\n" if auth else b"") + headers +
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)

    def chunked(path, chunks, headers=b"", auth=True):
        return (b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                (b"X-API-Key: " + k + b"\r\n" if auth else b"") + headers +
                b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)

    # Methods (20).
    for m in [b"FOO", b"get", b"Get", b"PROPFIND", b"MKCOL", b"TRACE", b"CONNECT", b"OPTIONS",
              b"PATCH", b"DELETE", b"PUT", b"POST", b"BREW", b"G\xc3\xa9T", b"GE\x00T", b"G(T",
              b"M" * 300, b"LINK", b"SEARCH", b"QUERY"]:
        add(b"method " + m[:20], get(method=m))

    # Request lines (24).
    for name, line in [
            (b"no version", b"GET /v1/usage\r\n"),
            (b"HTTP/2.0", b"GET /v1/usage HTTP/2.0\r\n"),
            (b"HTTP/1.2", b"GET /v1/usage HTTP/1.2\r\n"),
            (b"HTTP/0.9", b"GET /v1/usage HTTP/0.9\r\n"),
            (b"lower-case version", b"GET /v1/usage http/1.1\r\n"),
            (b"extra word", b"GET /v1/usage HTTP/1.1 extra\r\n"),
            (b"two spaces", b"GET  /v1/usage HTTP/1.1\r\n"),
            (b"tabs", b"GET\t/v1/usage\tHTTP/1.1\r\n"),
            (b"trailing space", b"GET /v1/usage HTTP/1.1 \r\n"),
            (b"leading space", b" GET /v1/usage HTTP/1.1\r\n"),
            (b"star target", b"GET * HTTP/1.1\r\n"),
            (b"absolute target", b"GET http://127.0.0.1/v1/usage HTTP/1.1\r\n"),
            (b"no slash", b"GET v1/usage HTTP/1.1\r\n"),
            (b"NUL in target", b"GET /v1/us\x00age HTTP/1.1\r\n"),
            (b"CTL in target", b"GET /v1/\x01usage HTTP/1.1\r\n"),
            (b"DEL in target", b"GET /v1/\x7fusage HTTP/1.1\r\n"),
            (b"bad UTF-8 target", b"GET /v1/\xff\xfe HTTP/1.1\r\n"),
            (b"UTF-8 target", b"GET /v1/\xc3\xa9t\xc3\xa9 HTTP/1.1\r\n"),
            (b"percent junk", b"GET /v1/%zz%%%00 HTTP/1.1\r\n"),
            (b"query junk", b"GET /v1/jobs?limit=%ff&&==&limit=abc HTTP/1.1\r\n"),
            (b"fragment", b"GET /v1/usage#frag HTTP/1.1\r\n"),
            (b"long target", b"GET /" + b"a" * 12000 + b" HTTP/1.1\r\n"),
            (b"dot segments", b"GET /v1/../../etc/passwd HTTP/1.1\r\n"),
            (b"empty line first", b"\r\nGET /v1/usage HTTP/1.1\r\n"),
    ]:
        add(b"request line: " + name, line + b"Host: 127.0.0.1\r\nX-API-Key: " + k + b"\r\n\r\n")

    # Line endings and garbage (6).
    add(b"bare LF everywhere", b"GET /v1/usage HTTP/1.1\nHost: 127.0.0.1\n\n")
    add(b"bare LF in headers", b"GET /v1/usage HTTP/1.1\r\nHost: 127.0.0.1\nX-A: b\r\n\r\n")
    add(b"bare CR", b"GET /v1/usage HTTP/1.1\r\nHost: 127.0.0.1\rX-A: b\r\n\r\n")
    add(b"only CRLFs", b"\r\n\r\n")
    add(b"binary garbage", bytes(range(256)) + b"\r\n\r\n")
    add(b"TLS hello", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40 + b"\r\n\r\n")

    # Header names (14).
    for name, h in [
            (b"space before colon", b"X-Thing : 1\r\n"),
            (b"no colon", b"X-Thing 1\r\n"),
            (b"empty name", b": 1\r\n"),
            (b"paren in name", b"X(Y): 1\r\n"),
            (b"slash in name", b"X/Y: 1\r\n"),
            (b"NUL in name", b"X\x00Y: 1\r\n"),
            (b"UTF-8 name", b"X-\xc3\xa9: 1\r\n"),
            (b"bad UTF-8 name", b"X-\xff: 1\r\n"),
            (b"obs-fold", b"X-Thing: 1\r\n  continued\r\n"),
            (b"tab-fold", b"X-Thing: 1\r\n\tcontinued\r\n"),
            (b"colon only", b":\r\n"),
            (b"long name", b"X-" + b"N" * 8000 + b": 1\r\n"),
            (b"quote in name", b"X\"Y: 1\r\n"),
            (b"DEL in name", b"X\x7fY: 1\r\n"),
    ]:
        add(b"header name: " + name, get(headers=h))

    # Header values of the headers Pistache parses itself, and others (52).
    for h in [
            b"Date: notadate", b"Date: ", b"Date: Tue, 32 Foo 2026 25:61:61 GMT",
            b"Date: Sun, 06 Nov 1994 08:49:37 GMT", b"Date: 99999999999999999999",
            b"Date: \xff\xfe", b"Date: Sunday, 06-Nov-94 08:49:37 GMT",
            b"Date: Sun Nov  6 08:49:37 1994", b"Date: 2026-11-26T10:00:00Z",
            b"Cache-Control: max-age=abc", b"Cache-Control: max-age=", b"Cache-Control: max-age",
            b"Cache-Control: max-age=99999999999999999999999", b"Cache-Control: max-age=-1",
            b"Cache-Control: no-cache,", b"Cache-Control: ,,,", b"Cache-Control: s-maxage=x",
            b"Cache-Control: min-fresh=1e9", b"Cache-Control: bogus-directive",
            b"Accept: ;;;", b"Accept: text/html;q=abc", b"Accept: */*;q=", b"Accept: /",
            b"Accept: text", b"Accept: a/b/c", b"Accept: \xff/\xfe",
            b"Connection: bogus", b"Connection: ", b"Connection: close, upgrade, \xff",
            b"Expect: 100-continue", b"Expect: bogus", b"Expect: ",
            b"Host: ", b"Host: a:b:c", b"Host: [::1", b"Host: example.com:99999999",
            b"Host: \xff\xfe", b"Host: exa mple.com",
            b"Authorization: Basic !!!", b"Authorization: Basic", b"Authorization: Bearer",
            b"Authorization: \x00", b"User-Agent: \x00\x01\x02", b"User-Agent: \xff\xfe\xfd",
            b"Access-Control-Allow-Origin: \xff", b"Allow: GET, \x00", b"Location: \xff",
            b"Server: \xff", b"X-Request-Id: \xff\xfe", b"X-Request-Id: " + b"a" * 200,
            b"X-Request-Id: ../../x", b"Cookie: \xff=\xfe; ;;=;",
    ]:
        add(b"header value: " + h[:40], get(headers=h + b"\r\n"))

    # Control bytes, NUL, invalid UTF-8 and size in other values (10).
    for name, h in [
            (b"NUL in value", b"X-Thing: a\x00b\r\n"),
            (b"ESC in value", b"X-Thing: \x1b[31mred\r\n"),
            (b"DEL in value", b"X-Thing: a\x7fb\r\n"),
            (b"bad UTF-8 value", b"X-Thing: \xc3\x28\xa0\xa1\r\n"),
            (b"overlong UTF-8", b"X-Thing: \xc0\xaf\xe0\x80\xaf\r\n"),
            (b"NUL in key", b"X-API-Key: dq_\x00\r\n"),
            (b"bad UTF-8 key", b"X-API-Key: \xff\xfe\r\n"),
            (b"long value", b"X-Thing: " + b"v" * 15000 + b"\r\n"),
            (b"many headers", b"".join(b"X-H%d: v\r\n" % i for i in range(600))),
            (b"head over 16 KiB", b"X-Thing: " + b"v" * 17000 + b"\r\n"),
    ]:
        add(b"value: " + name, get(headers=h))

    # Duplicate headers (10).
    for name, h in [
            (b"two Hosts", b"Host: a\r\nHost: b\r\n"),
            (b"two keys", b"X-API-Key: dq_live_nope\r\n"),
            (b"two Dates", b"Date: Sun, 06 Nov 1994 08:49:37 GMT\r\nDate: notadate\r\n"),
            (b"two Cache-Controls", b"Cache-Control: no-cache\r\nCache-Control: max-age=abc\r\n"),
            (b"two Connections", b"Connection: keep-alive\r\nConnection: close\r\n"),
            (b"two Accepts", b"Accept: */*\r\nAccept: ;;\r\n"),
            (b"two Cookies", b"Cookie: a=b\r\nCookie: c\r\n"),
            (b"two Authorizations", b"Authorization: Basic YTpi\r\nAuthorization: x\r\n"),
            (b"two Request-Ids", b"X-Request-Id: a\r\nX-Request-Id: b\r\n"),
            (b"two Expects", b"Expect: 100-continue\r\nExpect: 100-continue\r\n"),
    ]:
        add(b"duplicate: " + name, get(headers=h))

    # Content types and bodies (20).
    body = b'{"records":[{"id":"A"}],"mapping":{"sku":"id"}}'
    for name, h, b in [
            (b"text/plain", b"Content-Type: text/plain\r\n", body),
            (b"empty type", b"Content-Type: \r\n", body),
            (b"type without subtype", b"Content-Type: application\r\n", body),
            (b"type slash only", b"Content-Type: /\r\n", body),
            (b"charset empty", b"Content-Type: application/json; charset=\r\n", body),
            (b"charset bogus", b"Content-Type: application/json; charset=ebcdic\r\n", body),
            (b"param junk", b"Content-Type: application/json; =;;=\r\n", body),
            (b"bad UTF-8 type", b"Content-Type: \xff/\xfe\r\n", body),
            (b"two types", b"Content-Type: application/json\r\nContent-Type: text/csv\r\n",
             body),
            (b"multipart, no boundary", b"Content-Type: multipart/form-data\r\n", b"--x\r\n"),
            (b"not JSON", b"Content-Type: application/json\r\n", b"{nope"),
            (b"bad UTF-8 JSON", b"Content-Type: application/json\r\n",
             b'{"records":[{"id":"\xff\xfe"}],"mapping":{"sku":"id"}}'),
            (b"NUL in JSON", b"Content-Type: application/json\r\n", b'{"records":\x00[]}'),
            (b"BOM JSON", b"Content-Type: application/json\r\n", b"\xef\xbb\xbf" + body),
            (b"deep JSON", b"Content-Type: application/json\r\n", b"[" * 5000),
            (b"huge number", b"Content-Type: application/json\r\n", b'{"records":6e950}'),
            (b"empty body", b"Content-Type: application/json\r\n", b""),
            (b"UTF-16 JSON", b"Content-Type: application/json\r\n", body.decode().encode("utf-16")),
            (b"CSV as JSON", b"Content-Type: application/json\r\n", b"a,b\n1,2\n"),
            (b"JSON string", b"Content-Type: application/json\r\n", b'"records"'),
    ]:
        add(b"validate: " + name, post(b"/v1/validate", b, h))

    # Content encodings (10).
    for enc in [b"gzip", b"br", b"deflate", b"compress", b"identity", b"bogus", b"",
                b"gzip, gzip", b"\xff", b"x-gzip"]:
        add(b"Content-Encoding: " + enc,
            post(b"/v1/validate", body,
                 b"Content-Type: application/json\r\nContent-Encoding: " + enc + b"\r\n"))

    # Content-Length (14).
    for name, h in [
            (b"negative", b"Content-Length: -1\r\n"),
            (b"letters", b"Content-Length: abc\r\n"),
            (b"exponent", b"Content-Length: 1e3\r\n"),
            (b"hex", b"Content-Length: 0x10\r\n"),
            (b"empty", b"Content-Length: \r\n"),
            (b"huge", b"Content-Length: 99999999999999999999\r\n"),
            (b"2^64", b"Content-Length: 18446744073709551616\r\n"),
            (b"two different", b"Content-Length: 0\r\nContent-Length: 5\r\n"),
            (b"list", b"Content-Length: 0, 0\r\n"),
            (b"plus sign", b"Content-Length: +0\r\n"),
            (b"over every limit", b"Content-Length: 60000000000\r\n"),
            (b"over the body limit", b"Content-Length: 999999999\r\n"),
            (b"with chunked", b"Content-Length: 0\r\nTransfer-Encoding: chunked\r\n"),
            (b"two equal", b"Content-Length: 0\r\nContent-Length: 0\r\n"),
    ]:
        add(b"Content-Length " + name,
            b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + k + b"\r\n" + h +
            b"\r\n")

    # Transfer encodings and chunked bodies (20).
    for te in [b"gzip", b"chunked, gzip", b"gzip, chunked", b"identity", b"Chunked", b"CHUNKED",
               b"chunked\r\nTransfer-Encoding: chunked", b"", b"\xff"]:
        add(b"Transfer-Encoding: " + te[:20],
            b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + k +
            b"\r\nContent-Type: application/json\r\nTransfer-Encoding: " + te +
            b"\r\n\r\n0\r\n\r\n")
    for name, c in [
            (b"bad hex", b"zz\r\n{}\r\n0\r\n\r\n"),
            (b"extension", b"2;name=value\r\n{}\r\n0\r\n\r\n"),
            (b"negative size", b"-2\r\n{}\r\n0\r\n\r\n"),
            (b"0x size", b"0x2\r\n{}\r\n0\r\n\r\n"),
            (b"space after size", b"2 \r\n{}\r\n0\r\n\r\n"),
            (b"huge size", b"FFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n"),
            (b"data longer than size", b"1\r\n{}\r\n0\r\n\r\n"),
            (b"bare LF", b"2\n{}\n0\n\n"),
            (b"trailers", b"2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n"),
            (b"not JSON", b"5\r\n{nope\r\n0\r\n\r\n"),
            (b"HTTP/1.0 chunked", None),
    ]:
        if c is None:
            add(b"chunked: " + name,
                b"POST /v1/validate HTTP/1.0\r\nHost: 127.0.0.1\r\nX-API-Key: " + k +
                b"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                b"2\r\n{}\r\n0\r\n\r\n")
        else:
            add(b"chunked: " + name, chunked(b"/v1/validate", c))

    return out


# ---------------------------------------------------------------------------------------------
# Answers.

def exchange(port, raw, timeout):
    """Sends raw, half-closes nothing, reads one answer: (status, headers, body) or an error
    string. Reads until the head and a Content-Length body are in, or the server closes."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        try:
            s.sendall(raw)
        except OSError:
            pass  # the server may answer and close before taking everything
        data = b""
        end = time.time() + timeout
        head_end = -1
        need = None
        while time.time() < end:
            if head_end < 0:
                head_end = data.find(b"\r\n\r\n")
                if head_end >= 0:
                    head = data[:head_end].decode("latin-1")
                    for line in head.split("\r\n")[1:]:
                        n, _, v = line.partition(":")
                        if n.strip().lower() == "content-length":
                            need = head_end + 4 + int(v.strip())
            if need is not None and len(data) >= need:
                break
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            except socket.timeout:
                return "no answer within %.0f s (%d bytes)" % (timeout, len(data))
            if not chunk:
                break
            data += chunk
        if not data:
            return "connection closed without an answer"
        head_end = data.find(b"\r\n\r\n")
        if head_end < 0:
            return "no complete head: %r" % data[:200]
        lines = data[:head_end].decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            return "not an HTTP answer: %r" % lines[0][:200]
        headers = {}
        for line in lines[1:]:
            n, _, v = line.partition(":")
            headers.setdefault(n.strip().lower(), []).append(v.strip())
        body = data[head_end + 4:]
        if need is not None:
            body = body[: need - head_end - 4]
        return int(parts[1]), headers, body
    finally:
        s.close()


def judge(answer):
    """The problems with one answer (empty when it holds)."""
    if isinstance(answer, str):
        return [answer]
    status, headers, body = answer
    problems = []
    if status >= 500:
        problems.append(f"status {status}")
    ctype = headers.get("content-type", [""])[0]
    if not ctype.startswith("application/json"):
        problems.append(f"Content-Type {ctype!r}")
    for h in ("x-request-id",) + RATE_HEADERS:
        if h not in headers:
            problems.append(f"no {h}")
    try:
        doc = json.loads(body)
    except ValueError:
        problems.append(f"body not JSON: {body[:120]!r}")
        return problems
    if not isinstance(doc, dict):
        problems.append("body not a JSON object")
        return problems
    if status >= 400:
        for member in ("error", "message", "request_id"):
            if not isinstance(doc.get(member), str) or not doc.get(member):
                problems.append(f"no {member!r} string in {body[:160]!r}")
        rid = headers.get("x-request-id", [None])[0]
        if doc.get("request_id") and rid and doc["request_id"] != rid:
            problems.append("request_id differs from X-Request-Id")
    return problems


def head_checks(port, key):
    """HEAD on every GET route answers GET's status (never 405), without a body; both end the
    connection after an answer that says Connection: close."""
    problems = []
    paths = ["/healthz", "/readyz", "/v1/usage", "/v1/jobs", "/v1/jobs/00000000-0000-4000-8000-"
             "000000000000", "/v1/jobs/00000000-0000-4000-8000-000000000000/summary",
             "/v1/jobs/00000000-0000-4000-8000-000000000000/cleaned",
             "/v1/jobs/00000000-0000-4000-8000-000000000000/issues", "/v1/webhook",
             "/v1/webhook/deliveries", "/console/api/me", "/console/api/keys", "/console/"]
    for path in paths:
        answers = {}
        for method in ("GET", "HEAD"):
            raw = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: {key}\r\n"
                   "Connection: close\r\n\r\n").encode()
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(raw)
            data = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except OSError as e:
                    problems.append(f"{method} {path}: not closed after Connection: close ({e})")
                    break
                if not chunk:
                    break
                data += chunk
            s.close()
            head, _, body = data.partition(b"\r\n\r\n")
            answers[method] = (head.split(b"\r\n")[0], body)
        status_get, status_head = answers["GET"][0], answers["HEAD"][0]
        if status_head != status_get or b" 405 " in status_head:
            problems.append(f"HEAD {path}: {status_head!r}, GET: {status_get!r}")
        if answers["HEAD"][1]:
            problems.append(f"HEAD {path}: {len(answers['HEAD'][1])} bytes of body")
    return problems, len(paths)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.environ.get("DQ_BUILD_DIR", os.path.join(ROOT, "build")))
    ap.add_argument("--port", type=int, help="a gateway already running on 127.0.0.1")
    ap.add_argument("--key", default="dq_live_none", help="its API key (with --port)")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for one answer")
    ap.add_argument("--verbose", action="store_true", help="print every answer's status")
    ap.add_argument("--keep-logs", action="store_true")
    a = ap.parse_args()

    stack = None
    work = tempfile.mkdtemp(prefix="dq-malformed.")
    try:
        if a.port:
            port, key = a.port, a.key
        else:
            stack = Stack(a.build, work)
            port, key = stack.port, stack.key
        started = time.time()
        all_cases = cases(key)
        failures = []
        statuses = {}
        non_json = server_errors = 0
        for name, raw in all_cases:
            answer = exchange(port, raw, a.timeout)
            problems = judge(answer)
            status = answer[0] if not isinstance(answer, str) else None
            statuses[status] = statuses.get(status, 0) + 1
            if status is not None and status >= 500:
                server_errors += 1
            if isinstance(answer, str) or any(p.startswith(("Content-Type", "body not"))
                                              for p in problems):
                non_json += 1
            if a.verbose:
                print(f"{status}  {name.decode('latin-1')!r}" +
                      (f"  <- {problems}" if problems else ""))
            if problems:
                failures.append((name, problems))
        head_problems, n_heads = head_checks(port, key)
        elapsed = time.time() - started
        if stack is not None and not stack.alive():
            failures.append((b"stack", ["a service died"]))
        order = sorted(statuses.items(), key=lambda x: (x[0] is None, x[0] or 0))
        summary = ", ".join(f"{s}: {n}" for s, n in order)
        print(f"{len(all_cases)} malformed requests in {elapsed:.1f} s: {non_json} non-JSON, "
              f"{server_errors} 5xx, {len(failures)} with a problem (statuses {summary}); "
              f"HEAD on {n_heads} GET routes: {len(head_problems)} problems")
        for name, problems in failures:
            print(f"  FAIL {name.decode('latin-1')[:80]!r}: {'; '.join(problems)}")
        for p in head_problems:
            print(f"  FAIL {p}")
        return 1 if failures or head_problems else 0
    finally:
        if stack is not None:
            stack.stop()
        if a.keep_logs:
            print(f"logs in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
