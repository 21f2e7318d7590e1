#!/usr/bin/env python3
"""`alea compare --cmd A --cmd B` beside hyperfine on the same two commands:
gzip -1 and gzip -9 of the same 1.5 MB text (gzip -9 searches harder for
matches: about 1.6x the CPU time here). Both tools must see the same
direction: hyperfine's median B/A above 1 and alea's ratio estimate above 1,
with a ratio interval (lower < estimate < upper) in alea's JSON. The work
differs by much more than any noise a busy machine adds to a median or to a
mean of 20 runs, so the direction does not depend on the machine's load.

Also: the campaign has one build per system and executions at the top level,
the unnamed command is named by its program, a NAME= prefix names the other, the
commands run in the current directory, and a rerun resumes.

Usage: compare_commands_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import random
import shutil
import sys
import tempfile

from e2e_common import alea, check, finish, run


def text(path):
    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
             for _ in range(2000)]
    with open(path, "w") as f:
        for _ in range(20000):
            f.write(" ".join(rng.choice(words) for _ in range(12)) + "\n")


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-compare-cmd-") as tmp:
        text(os.path.join(tmp, "data.txt"))
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        a, b = "gzip -1 -c data.txt > /dev/null", "gzip -9 -c data.txt > /dev/null"
        cmd = [exe, "compare", "--cmd", "fast=" + a, "--cmd", b, "--executions", "20",
               "--format", "json"]
        r = run(cmd, cwd=tmp, env=env)
        check(r.returncode == 0, f"alea compare --cmd: exit {r.returncode}: {r.stderr}")
        full = json.loads(r.stdout) if r.returncode == 0 else {}
        report = full.get("report", {})
        bench = (report.get("benchmarks") or [{}])[0]
        ratios = bench.get("ratios") or [{}]
        ratio = ratios[0]
        check(report.get("levels") == ["execution"],
              f"levels are not the executions alone: {report.get('levels')}")
        check(ratio.get("candidate") == "gzip" and
              ratio.get("baseline") == "fast",
              f"names: {ratio.get('candidate')!r} vs {ratio.get('baseline')!r}")
        estimate = ratio.get("estimate", 0)
        lower, upper = (ratio.get("fieller") or {}).get("interval") or [0, 0]
        check(estimate > 1, f"alea: gzip -9 is not slower than gzip -1: {estimate}")
        check(lower < estimate < upper,
              f"alea's ratio has no interval around its estimate: {lower}, {upper}")
        check("one build per system: no layouts were drawn" in
              full.get("campaign", {}).get("design_note", ""),
              "the report does not say that no layouts were drawn")

        hf = os.path.join(tmp, "hyperfine.json")
        h = run(["hyperfine", "--runs", "20", "--export-json", hf, a, b], cwd=tmp, env=env)
        check(h.returncode == 0, f"hyperfine: exit {h.returncode}: {h.stderr}")
        if h.returncode == 0:
            results = json.load(open(hf))["results"]
            median = results[1]["median"] / results[0]["median"]
            check(median > 1, f"hyperfine: gzip -9 is not slower than gzip -1: {median}")
            print(f"gzip -9 / gzip -1: alea {estimate:.3f} [{lower:.3f}, {upper:.3f}], "
                  f"hyperfine median ratio {median:.3f}")

        again = run(cmd, cwd=tmp, env=env)
        check(again.returncode == 0 and "resuming: 40 of 40 executions already done" in
              again.stderr, f"the same command again does not resume: {again.stderr}")
        check(not os.path.exists(os.path.join(tmp, "data.txt.gz")),
              "a command wrote where it should not")
    finish("alea compare --cmd and hyperfine agree that gzip -9 is slower than gzip -1")


if __name__ == "__main__":
    main()
