#!/usr/bin/env python3
"""The include layers of alea's components: every folder may include only
itself and the folders on layers below it, so that no folder includes one
above it and no two folders include each other (DESIGN.md: data flow one
way). Lists every `#include "alea/X/..."` (or <alea/X/...>) of product code
that breaks the order, as file:line, and exits 1 when there is one.

A header belongs to the folder whose include/ directory holds it: a folder's
`include/alea/<name>/` directories, and common's headers directly under
`include/alea/`. Includes of headers that no layer folder holds (<alea/iter.h>
is for benchmark programs) are not checked; neither are test/, bench/ and
examples/, which may use every layer.

Usage: scripts/include_layers.py [SOURCE_DIR]   (default: this script's repo)
"""
import pathlib
import re
import sys

# Bottom to top. Folders on one layer are independent: none may include
# another on its layer.
LAYERS = [
    ["common"],
    ["analysis", "linker", "passes"],
    ["wrapper", "report/model"],
    ["report", "runner/config"],
    ["runner/exec"],
    ["runner/store"],
    ["runner/remote", "runner/exchange"],
    ["runner/campaign"],
    ["cli"],
]

SOURCE_SUFFIXES = {".c", ".cc", ".cpp", ".h", ".hpp", ".def", ".inc"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](alea/[^">]+)[">]')


def rank_of_folder():
    return {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}


def header_owners(root, ranks):
    """Maps "alea/<name>" (a directory) or "alea/<file>" (common's headers) to
    the folder that holds it."""
    owners = {}
    for folder in ranks:
        base = root / folder
        for include in base.glob("**/include/alea"):
            # A nested layer folder's headers are its own (runner/<job>).
            if owner_folder(include.relative_to(root), ranks) != folder:
                continue
            for entry in include.iterdir():
                owners["alea/" + entry.name] = folder
    return owners


def owner_folder(path, ranks):
    """The deepest layer folder that contains `path` (relative to the root)."""
    parts = path.parts
    for n in range(len(parts), 0, -1):
        candidate = "/".join(parts[:n])
        if candidate in ranks:
            return candidate
    return None


def header_folder(header, owners):
    """The folder of "alea/<name>/x.hpp" or of common's "alea/x.hpp"."""
    return owners.get("/".join(header.split("/")[:2]))


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parent.parent)
    ranks = rank_of_folder()
    missing = [f for f in ranks if not (root / f).is_dir()]
    if missing:
        print("include_layers: no folder " + ", ".join(missing) + " under " + str(root))
        return 1
    owners = header_owners(root, ranks)
    problems = []
    for folder in ranks:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            relative = path.relative_to(root)
            if owner_folder(relative, ranks) != folder:
                continue  # a nested layer folder's file, checked as its own
            lines = path.read_text(errors="replace").splitlines()
            for number, line in enumerate(lines, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = header_folder(match.group(1), owners)
                if target is None or target == folder or ranks[target] < ranks[folder]:
                    continue
                how = "on its own layer" if ranks[target] == ranks[folder] else "above it"
                problems.append(f"{relative}:{number}: {folder} includes {match.group(1)} "
                                f"of {target}, {how}")
    for problem in problems:
        print(problem)
    order = " < ".join(" | ".join(folders) for folders in LAYERS)
    if problems:
        print(f"include_layers: {len(problems)} include(s) against the layer order {order}")
        return 1
    print(f"include_layers: every include follows the layer order {order}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
