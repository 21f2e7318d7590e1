#!/usr/bin/env python3
"""`alea compare --cmd A --cmd B` beside hyperfine on the same two commands:
gzip -1 and gzip -9 of the same 1.5 MB text (gzip -9 searches harder for
matches: about 1.6x the CPU time here). Both tools must see the same
direction in the same quantity, the commands' CPU time (alea `--measure cpu`,
hyperfine's mean user + system time), with a ratio interval (lower < estimate
< upper) in alea's JSON. CPU time, not wall time: hyperfine runs all of one
command, then all of the other, so a burst of other work beside the test can
fall on one command's runs and turn its wall-time verdict around (seen here
under load: docs/compare.md, "Beside hyperfine"); the CPU time a command uses
does not depend on what else runs, so the direction does not depend on the
machine's load. hyperfine's wall-time ratio is printed beside them.

Also: the campaign has one build per system and executions at the top level,
the unnamed command is named by its program, a NAME= prefix names the other, the
commands run in the current directory, a rerun resumes, and the adaptive batches
add executions (6, 12, 24 under an unreachable target and a cap of 24: the cap
decides, not the machine).

Usage: compare_commands_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import random
import re
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
               "--measure", "cpu", "--until-half-width", "10%", "--time-budget", "10",
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
            cpu = [r["user"] + r["system"] for r in results]
            ratio = cpu[1] / cpu[0]
            median = results[1]["median"] / results[0]["median"]
            check(ratio > 1, f"hyperfine: gzip -9 does not use more CPU than gzip -1: {ratio}")
            print(f"gzip -9 / gzip -1 in CPU time: alea {estimate:.3f} [{lower:.3f}, "
                  f"{upper:.3f}], hyperfine {ratio:.3f}; hyperfine's median wall-time ratio "
                  f"{median:.3f}")

        again = run(cmd, cwd=tmp, env=env)
        m = re.search(r"resuming: (\d+) of (\d+) executions already done", again.stderr)
        check(again.returncode == 0 and m and m.group(1) == m.group(2) and
              int(m.group(1)) >= 40 and "building" not in again.stderr,
              f"the same command again does not resume: {again.stderr}")

        # Adaptive in executions: a target precision no run can reach within
        # a cap of 24 executions per command adds batches up to the cap (the
        # counts do not depend on the machine: the cap decides).
        adaptive = [exe, "compare", "--cmd", a, "--cmd", b, "--executions", "6",
                    "--until-half-width", "0.0001%", "--max-executions", "24", "--format",
                    "json"]
        r = run(adaptive, cwd=tmp, env=env)
        check(r.returncode == 0, f"adaptive --cmd: exit {r.returncode}: {r.stderr}")
        steps = re.findall(r"^adaptive: (\d+) executions, ", r.stderr, re.M)
        check(steps == ["6", "12", "24"], f"adaptive batches: {steps}\n{r.stderr}")
        check("the cap of 24 executions is reached" in r.stderr, f"no cap: {r.stderr}")
        top = (json.loads(r.stdout).get("report", {}).get("benchmarks") or [{}])[0]
        check(top.get("ratios") and top["ratios"][0]["top_units"] == {"candidate": 24,
                                                                     "baseline": 24},
              f"the report is not of 24 executions each: {top.get('ratios')}")
        check(not os.path.exists(os.path.join(tmp, "data.txt.gz")),
              "a command wrote where it should not")
    finish("alea compare --cmd and hyperfine agree that gzip -9 is slower than gzip -1")


if __name__ == "__main__":
    main()
