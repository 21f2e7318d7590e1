#!/usr/bin/env python3
"""Placeholder values reach `/bin/sh -c` quoted (issue 18, item 1).

A campaign file in a directory named `my dir $(touch PWNED) 'q"` (a space, a
command substitution and both quotes), whose build compiles
`{source_dir}/kernel.c` with alea-cc and whose benchmark runs
`echo {benchmark} {source_dir} >> {source_dir}/out.txt` unquoted, as the
docs' own examples write them: the build must succeed (the path is one word),
every execution must append exactly the benchmark's name and the directory,
and nothing inside the name may run (no file PWNED anywhere).

Usage: placeholder_quoting_test.py BUILD_DIR SOURCE_DIR"""
import os
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

KERNEL = "int main(void) { volatile int s = 0; for (int i = 0; i < 1000; ++i) s += i; return 0; }\n"

CAMPAIGN = """
[levels]
builds = 2
executions = 2
[[system]]
name = "s"
baseline = true
shell = "$CC -O1 {source_dir}/kernel.c -o prog && echo built {source_dir} >> {source_dir}/built.txt"
artifacts = ["prog"]
[[benchmark]]
name = "k"
shell = "echo {benchmark} {source_dir} >> {source_dir}/out.txt && {artifact:prog}"
"""


def read_lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except OSError as e:
        return [str(e)]


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-quoting-") as tmp:
        src = os.path.join(tmp, "my dir $(touch PWNED) 'q\"")
        os.mkdir(src)
        write(os.path.join(src, "kernel.c"), KERNEL)
        toml = write(os.path.join(src, "c.toml"), CAMPAIGN)
        r = run([exe, "run", toml, "--dir", os.path.join(tmp, "w.alea")], cwd=tmp)
        check(r.returncode == 0, f"alea run exited {r.returncode}: {r.stderr}")
        built = read_lines(os.path.join(src, "built.txt"))
        check(built == ["built " + src] * 2, f"each build saw one path: {built}")
        lines = read_lines(os.path.join(src, "out.txt"))
        check(lines == ["k " + src] * 4, f"each execution echoed the name and one path: {lines}")
        pwned = [os.path.join(d, n) for d, _, files in os.walk(tmp) for n in files if n == "PWNED"]
        check(not pwned, f"nothing in the directory name ran: {pwned}")
    finish("placeholders in shell strings stay one word and run nothing")


if __name__ == "__main__":
    main()
