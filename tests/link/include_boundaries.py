#!/usr/bin/env python3
"""No include path reaches into another service.

Reads the build's compile_commands.json. Every translation unit under a service's folder
(gateway/, validator/, notifier/, dqctl/, cli/) may see its own folder, common/, libs/, proto/
and the generated code in the build tree; a unit under common/ or libs/ sees no service at all.
A service that needs another's code needs a library under libs/ instead (docs/architecture.md).

Usage: include_boundaries.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import shlex
import sys

SERVICES = ("gateway", "validator", "notifier", "dqctl", "cli")

# The one exception, by design: the offline CLI runs the validator's engine in process (dq_engine
# and dq_engine_v1, whose headers live in validator/src), so that its verdicts are the service's
# by construction (docs/cli.md). It may see those folders, and nothing else of a service.
ALLOWED = {
    ("cli", "validator/src"),
    ("cli", "validator/src/engine"),
}


def component(path, src):
    rel = os.path.relpath(path, src)
    if rel.startswith(".."):
        return None
    return rel.split(os.sep, 1)[0]


def include_dirs(entry):
    args = entry.get("arguments") or shlex.split(entry["command"])
    out = []
    for i, a in enumerate(args):
        for flag in ("-I", "-isystem"):
            if a == flag and i + 1 < len(args):
                out.append(args[i + 1])
            elif a.startswith(flag) and len(a) > len(flag):
                out.append(a[len(flag):])
    return [os.path.normpath(os.path.join(entry["directory"], d)) for d in out]


def violations(src, commands):
    found = []
    for entry in commands:
        unit = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        owner = component(unit, src)
        if owner not in SERVICES + ("common", "libs"):
            continue  # tests, bench and fuzz may see what they test
        for d in include_dirs(entry):
            reached = component(d, src)
            if (owner, os.path.relpath(d, src)) in ALLOWED:
                continue
            if reached in SERVICES and reached != owner:
                found.append(f"{os.path.relpath(unit, src)} ({owner}) has -I "
                             f"{os.path.relpath(d, src)}, inside the service {reached}")
    return found


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, build = (os.path.realpath(p) for p in sys.argv[1:])
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    if not commands:
        print("compile_commands.json is empty", file=sys.stderr)
        return 2
    found = violations(src, commands)
    for v in found:
        print(v)
    checked = sum(1 for e in commands
                  if component(os.path.join(e["directory"], e["file"]), src)
                  in SERVICES + ("common", "libs"))
    print(f"{checked} translation units checked, {len(found)} include paths into another service")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
