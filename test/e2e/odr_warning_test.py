#!/usr/bin/env python3
"""The campaign's ODR warning end to end (issue 11 item 4, docs/wrapper.md
"ODR check"): a real campaign whose "buggy" system links an inline function
compiled once with and once without NDEBUG (two definitions of one COMDAT
symbol; which one runs depends on the seeded link order), and a "clean"
system that compiles both objects alike. `alea run` and `alea report` warn
about the buggy system's builds, name the function, and say nothing about the
clean one; each buggy binary's link record carries odr=1.

Usage: odr_warning_test.py BUILD_DIR SOURCE_DIR"""
import os
import re
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

SHARED = r"""
#include <cstdio>
__attribute__((noinline)) inline int checked_div(int a, int b) {
#ifndef NDEBUG
  if (b == 0) { std::puts("value 2.0"); return -1; }
#else
  if (b == 0) { std::puts("value 1.0"); return 0; }
#endif
  return a / b;
}
"""
A = '#include "shared.hpp"\nint from_a(int x) { return checked_div(x, 0); }\n'
B = '#include "shared.hpp"\nint from_b(int x) { return checked_div(x, 1); }\n'
MAIN = "int from_a(int);\nint from_b(int);\nint main() { return from_a(4) + from_b(4) < -9; }\n"

CAMPAIGN = """
[campaign]
seed = "0x0d2"
[levels]
builds = 2
executions = 1
[measure]
source = "regex"
regex = 'value ([0-9.]+)'
[[system]]
name = "buggy"
baseline = true
shell = "$CXX -O1 -c {source_dir}/a.cpp && $CXX -O1 -DNDEBUG -c {source_dir}/b.cpp && $CXX -O1 -c {source_dir}/main.cpp && $CXX main.o a.o b.o -o p"
artifacts = ["p"]
[[system]]
name = "clean"
shell = "$CXX -O1 -c {source_dir}/a.cpp && $CXX -O1 -c {source_dir}/b.cpp && $CXX -O1 -c {source_dir}/main.cpp && $CXX main.o a.o b.o -o p"
artifacts = ["p"]
[[benchmark]]
name = "which-copy"
command = ["{artifact:p}"]
"""

WARNING = re.compile(
    r"builds 0, 1 of buggy: ODR violation: 1 weak/inline symbol defined differently by the "
    r"objects of its link \(checked_div\(int, int\)\); which copy the linker keeps depends on "
    r"the link order, so results may differ between seeds \(a real bug of the program")


def main():
    build_dir = sys.argv[1]
    exe = alea(build_dir)
    with tempfile.TemporaryDirectory(prefix="alea-odr-") as tmp:
        for name, text in [("shared.hpp", SHARED), ("a.cpp", A), ("b.cpp", B),
                           ("main.cpp", MAIN)]:
            write(os.path.join(tmp, name), text)
        campaign = write(os.path.join(tmp, "odr.toml"), CAMPAIGN)
        out = os.path.join(tmp, "out")
        r = run([exe, "run", campaign, "--dir", out, "--no-report"])
        check(r.returncode == 0, f"alea run: exit {r.returncode}: {r.stderr}")
        check(len(WARNING.findall(r.stderr)) == 1, f"alea run: no ODR warning: {r.stderr}")
        check("of clean: ODR" not in r.stderr, f"alea run: clean warned: {r.stderr}")
        r = run([exe, "report", out])
        check(r.returncode == 0, f"alea report: exit {r.returncode}: {r.stderr}")
        text = r.stdout + r.stderr
        check(len(WARNING.findall(text)) == 1, f"alea report: no ODR warning: {text}")
        check("of clean: ODR" not in text, f"alea report: clean warned: {text}")
        for system, expected in [("buggy", True), ("clean", False)]:
            for b in (0, 1):
                binary = os.path.join(out, "builds", system, str(b), "p")
                r = run([exe, "layout", binary])
                has = "  differs:   checked_div(int, int)" in r.stdout
                check(r.returncode == 0 and has == expected,
                      f"{system} #{b}: alea layout: {r.stdout[:600]}")
    finish("the campaign warns about the ODR violation of the buggy system only")


if __name__ == "__main__":
    main()
