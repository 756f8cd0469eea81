#!/usr/bin/env python3
"""Regenerates the settings table of docs/configuration.md from common/src/settings.cpp.

tests/unit/common/settings_test.cpp fails when the two differ; run this after changing the table:
    python3 scripts/gen-config-doc.py
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = (ROOT / "common/src/settings.cpp").read_text()
DOC = ROOT / "docs/configuration.md"

COMPONENTS = {"kAll": "all", "kRedisUsers": "gateway, notifier, dqctl", "kGateway": "gateway",
              "kValidator": "validator", "kNotifier": "notifier",
              "kGateway | kDqctl": "gateway, dqctl", "kNotifier | kDqctl": "notifier, dqctl",
              "kNotifier | kGateway": "gateway, notifier",
              "kNotifier | kGateway | kDqctl": "gateway, notifier, dqctl"}


def c_int(expr):
    expr = expr.strip().replace("kMiB", str(1024 * 1024)).replace("LL", "")
    if expr == "INT64_MAX":
        return "2^63-1"
    return str(eval(expr, {"__builtins__": {}}))  # only literals and * here


table = SRC[SRC.index("constexpr SettingSpec kSettings[] = {"):]
table = table[:table.index("\n};")]
entry = re.compile(r'\{"(DQ_[A-Z0-9_]+)",\s*"([^"]*)",\s*(true|false),\s*([^,]+),\s*([^,]+),\s*'
                   r'([^,]+),\s*(true|false),\s*((?:"[^"]*"\s*)+)\}', re.S)
rows = []
for name, default, is_int, lo, hi, comps, secret, help_ in entry.findall(table):
    text = "".join(re.findall(r'"([^"]*)"', help_))
    rng = f"{c_int(lo)}..{c_int(hi)}" if is_int == "true" else ""
    note = " (secret: never logged)" if secret == "true" else ""
    rows.append(f"| `{name}` | `{default}` | {rng} | {COMPONENTS[comps.strip()]} | {text}{note} |")

doc = DOC.read_text()
head = doc[:doc.index("| Variable |")]
# Prose after the table (from the first line that is not a table row) is kept as it is.
rest = doc[doc.index("| Variable |"):].split("\n")
tail_at = next((i for i, line in enumerate(rest) if not line.startswith("|")), len(rest))
tail = "\n".join(rest[tail_at:]).strip("\n")
table_text = "| Variable | Default | Range | Read by | Meaning |\n|---|---|---|---|---|\n" + "\n".join(rows)
DOC.write_text(head + table_text + "\n" + ("\n" + tail + "\n" if tail else ""))
print(f"{len(rows)} settings written to {DOC.relative_to(ROOT)}")
