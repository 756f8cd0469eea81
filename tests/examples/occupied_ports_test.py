#!/usr/bin/env python3
"""Tests run beside `./dev up` (issue 30 point 6): the examples' stack starts and passes while
every default port of ./dev is taken.

Reads the default ports from ./dev's header (export DQ_..._PORT="${DQ_..._PORT:-N}"), holds each
one with a listening socket on 127.0.0.1 (one already taken, by a running `./dev up`, is taken
anyway), then runs run_examples.py. A service started without its own port for one of them
would fail to listen and the runner would fail: so this passes only if every test stack gives
every port, the operations ports included, a free one.
  occupied_ports_test.py --bin-dir BUILD --source-dir SRC
"""
import argparse
import errno
import os
import re
import socket
import subprocess
import sys

# The names ./dev must default; a change there must be seen here, not silently skipped.
EXPECTED = {"DQ_GATEWAY_PORT", "DQ_VALIDATOR_PORT", "DQ_REDIS_PORT", "DQ_NOTIFIER_PORT",
            "DQ_NOTIFIER_GRPC_PORT", "DQ_VALIDATOR_OPS_PORT", "DQ_GATEWAY_OPS_PORT"}


def default_ports(dev_script):
    with open(dev_script, encoding="utf-8") as f:
        text = f.read()
    found = dict(re.findall(r'^export (DQ_\w*PORT)="\$\{\1:-(\d+)\}"', text, re.M))
    if set(found) != EXPECTED:
        sys.exit(f"./dev defaults {sorted(found)}; expected {sorted(EXPECTED)}")
    return {name: int(port) for name, port in found.items()}


def hold(port):
    """A socket listening on 127.0.0.1:port, or None when something else already holds it."""
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
        s.listen(1)
        return s
    except OSError as e:
        s.close()
        if e.errno == errno.EADDRINUSE:
            return None
        raise


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--source-dir", required=True)
    args = ap.parse_args()
    ports = default_ports(os.path.join(args.source_dir, "dev"))
    held = []
    for name, port in sorted(ports.items()):
        s = hold(port)
        print(f"{name} {port}: {'held by this test' if s else 'already in use'}")
        if s:
            held.append(s)
    runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_examples.py")
    try:
        r = subprocess.run([sys.executable, runner, "--bin-dir", args.bin_dir,
                            "--source-dir", args.source_dir], timeout=280)
    finally:
        for s in held:
            s.close()
    if r.returncode != 0:
        sys.exit(f"the examples failed with every default port taken (exit {r.returncode})")
    print("examples OK with every default port taken")


if __name__ == "__main__":
    main()
