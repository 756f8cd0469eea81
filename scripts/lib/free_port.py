"""free_port(): a loopback port free now, picked at random below Linux's ephemeral range;
wait_port(): wait until a process started on one accepts connections.

A port from bind(0) comes from the ephemeral range (32768-60999), where one of the caller's own
outgoing connections (it polls the ports it has started) can take it before the server binds it.
The C++ harness (tests/testing/src/harness.cpp, FreePort) picks ports the same way. Imported by
the Python harnesses and scripts; run as a program it prints one port (scripts/lib/free-port.sh).
"""
import random
import socket
import sys
import time


def free_port():
    for _ in range(1000):
        port = random.randint(20000, 32767)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 20000-32767")


def wait_port(port, proc, seconds=60):
    """Returns once 127.0.0.1:port accepts a connection; exits the script if `proc` (a Popen, or
    None) ends first or the port stays closed for `seconds`."""
    end = time.time() + seconds
    while time.time() < end:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"process exited early: {proc.args}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"port {port} never opened")


if __name__ == "__main__":
    try:
        print(free_port())
    except RuntimeError as e:
        sys.exit(str(e))
