#!/usr/bin/env python3
"""No component holds more than 30% of the C++ (issue 30's goal, docs/architecture.md).

Counts the lines of .cpp, .h, .def and .in files outside tests, bench and fuzz: each service's
folder (gateway/, validator/, notifier/, dqctl/, cli/), common/, and each library under libs/ is
one component. Fails naming the component and its share when one is over the limit, so that a
folder that grows past it is seen when it happens, not at the next review.

Usage: component_shares.py SOURCE_DIR [LIMIT_PERCENT=30]
"""
import os
import sys

TOP = ("common", "gateway", "validator", "notifier", "dqctl", "cli")
EXTENSIONS = (".cpp", ".h", ".def", ".in", ".cc")


def lines_under(path):
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            if name.endswith(EXTENSIONS):
                with open(os.path.join(root, name), "rb") as f:
                    total += f.read().count(b"\n")
    return total


def main():
    src = sys.argv[1]
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    shares = {name: lines_under(os.path.join(src, name)) for name in TOP}
    libs = os.path.join(src, "libs")
    for name in sorted(os.listdir(libs)):
        if os.path.isdir(os.path.join(libs, name)):
            shares["libs/" + name] = lines_under(os.path.join(libs, name))
    total = sum(shares.values())
    over = []
    for name, n in sorted(shares.items(), key=lambda kv: -kv[1]):
        pct = 100.0 * n / total
        print(f"{name:16} {n:7} lines {pct:5.1f}%")
        if pct > limit:
            over.append(f"{name} holds {pct:.1f}% of the C++ ({n} of {total} lines), over {limit:g}%")
    if over:
        print("\n".join(over), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
