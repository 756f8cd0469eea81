#!/usr/bin/env python3
"""No source file cites a document that is not in the repository (issue 30, point 7).

Every `name.md` (or `dir/name.md`) written in a source, script, CMake or build file tracked by
git must name a Markdown file that git tracks: by its path from the repository's root, from the
citing file's folder, or (for a bare name) by its file name anywhere in the tree. Web addresses
are not citations and are skipped. A document that lives outside the repository (the team's
notes, another project's README) is cited by what it says, not by its name.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE_SUFFIXES = (".cpp", ".h", ".cc", ".hpp", ".def", ".py", ".sh", ".cmake", ".txt", ".proto",
                   ".js", ".html", ".css", ".yaml", ".yml", ".toml", ".conf", ".acl")
SOURCE_NAMES = ("dev", "run", "Dockerfile", "Containerfile")
CITATION = re.compile(r"(?<![\w/.$-])((?:[\w.-]+/)*[\w-]+\.md)\b")
URL = re.compile(r"[a-z]+://\S+")


def tracked():
    """The files git tracks; outside a checkout (a source tarball), every file but build output."""
    try:
        out = subprocess.check_output(["git", "ls-files"], cwd=ROOT, text=True,
                                      stderr=subprocess.DEVNULL)
        return [line for line in out.splitlines() if line]
    except (subprocess.CalledProcessError, FileNotFoundError):
        files = []
        for folder, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in (".git", "node_modules") and
                       not d.startswith("build")]
            files += [os.path.relpath(os.path.join(folder, n), ROOT) for n in names]
        return files


def is_source(path):
    base = os.path.basename(path)
    return path.endswith(SOURCE_SUFFIXES) or base in SOURCE_NAMES or base.startswith(
        ("Dockerfile", "Containerfile"))


def main():
    files = tracked()
    docs = {f for f in files if f.endswith(".md")}
    doc_names = {os.path.basename(f) for f in docs}
    missing = []
    for path in files:
        # Data files are not prose (the e-mail blocklist holds a domain named like a document).
        if not is_source(path) or "/data/" in path or path == "tests/lint/cited_docs_test.py":
            continue
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                lines = f.readlines()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for number, line in enumerate(lines, 1):
            for cited in CITATION.findall(URL.sub(" ", line)):
                here = os.path.normpath(os.path.join(os.path.dirname(path), cited))
                if cited in docs or here in docs:
                    continue
                if "/" not in cited and cited in doc_names:
                    continue
                missing.append(f"{path}:{number}: cites {cited}, which is not in the repository")
    for m in missing:
        print(m)
    if missing:
        print(f"{len(missing)} citation(s) of documents outside the repository")
        return 1
    print("every cited document is in the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
