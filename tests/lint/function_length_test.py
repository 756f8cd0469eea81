#!/usr/bin/env python3
"""No function over 120 lines outside tests, bench and fuzz (issue 30's goal; the style guide).

Universal Ctags (Debian's universal-ctags) lists every C++ function definition of the tracked
sources with its first and last line; a definition longer than LIMIT lines, signature and closing
brace included, fails the test with its file, name and length.
"""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LIMIT = 120
EXCLUDED = ("tests/", "bench/", "fuzz/")
SUFFIXES = (".cpp", ".cc", ".h", ".hpp")


def sources():
    out = subprocess.check_output(["git", "ls-files"], cwd=ROOT, text=True)
    return [p for p in out.splitlines() if p.endswith(SUFFIXES) and not p.startswith(EXCLUDED)]


def definitions(paths):
    """(length, path, name) of each function definition ctags finds."""
    try:
        out = subprocess.run(
            ["ctags", "--language-force=C++", "--kinds-C++=f", "--fields=+ne", "-L", "-", "-o", "-"],
            cwd=ROOT, input="\n".join(paths), text=True, capture_output=True, check=True).stdout
    except FileNotFoundError:
        sys.exit("ctags is not installed: scripts/install-deps.sh installs universal-ctags")
    found = []
    for line in out.splitlines():
        cols = line.split("\t")
        fields = dict(c.split(":", 1) for c in cols[3:] if ":" in c)
        if "line" in fields and "end" in fields:
            found.append((int(fields["end"]) - int(fields["line"]) + 1, cols[1], cols[0]))
    return found


def main():
    paths = sources()
    found = definitions(paths)
    if len(found) < 500:  # the tool read nothing useful: say so rather than pass
        sys.exit(f"ctags found only {len(found)} function definitions in {len(paths)} files")
    long = sorted((f for f in found if f[0] > LIMIT), reverse=True)
    for length, path, name in long:
        print(f"{path}: {name} is {length} lines (at most {LIMIT})")
    if long:
        sys.exit(1)
    print(f"{len(found)} functions in {len(paths)} files, none over {LIMIT} lines")


if __name__ == "__main__":
    main()
