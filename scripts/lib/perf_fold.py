"""Folds `perf script` call stacks: for each frame named on the command line (a substring of a
function name), the share of all samples spent under it, and how that splits among the
functions it calls directly ("<self>": in the frame itself).

    python3 scripts/lib/perf_fold.py STACKS.txt FRAME [FRAME...]
"""
import collections
import re
import sys


def read_stacks(path):
    stacks, current = [], None
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                if current is not None:
                    stacks.append(current)
                current = None
            elif not line.startswith((" ", "\t")):
                current = []  # a sample's header line; its frames follow, leaf first
            elif current is not None:
                parts = line.strip().split(None, 1)
                if len(parts) == 2:
                    current.append(re.sub(r"\+0x[0-9a-f]+$", "", parts[1].rsplit(" (", 1)[0]))
    if current:
        stacks.append(current)
    return stacks


def main():
    stacks = read_stacks(sys.argv[1])
    total = len(stacks) or 1
    print(f"{len(stacks)} samples")
    for frame in sys.argv[2:]:
        under, children = 0, collections.Counter()
        for stack in stacks:
            hits = [i for i, f in enumerate(stack) if frame in f]
            if not hits:
                continue
            outer = max(hits)  # the outermost call of it, so recursion counts once
            under += 1
            children[stack[outer - 1][:100] if outer > 0 else "<self>"] += 1
        print(f"{frame}: {100 * under / total:.1f} % of samples")
        for name, n in children.most_common(8):
            print(f"    {100 * n / total:5.1f} %  {name}")


if __name__ == "__main__":
    main()
