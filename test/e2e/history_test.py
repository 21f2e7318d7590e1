#!/usr/bin/env python3
"""`alea history` over 6 commits of a real git repository the test makes: a
small C program with two kernels whose fourth commit makes k1 do 20% more
work (the program prints its work, read by the regex source, so that the
outcome does not depend on the machine's speed or load: the environment
padding alea draws per execution moves the value by under 0.3%).

  history HEAD~5..HEAD          the step of k1 is placed at the fourth commit
                                (text and JSON), none for k2, ratios per
                                revision with intervals
  --format html                 looked at in headless Chromium: the trend plot
                                of each benchmark, its dashed step line between
                                the labels of the third and fourth commits, the
                                step named, nothing external, fits a phone
  --format csv                  one row per benchmark and revision
  the same command again        resumes: nothing measured twice
  alea bisect HEAD~5 HEAD       names the same commit after 3 comparisons; of
                                k2, says there is no change to look for
  the user's repository         untouched

Usage: history_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import re
import sys
import tempfile

import chromium
from e2e_common import alea, check, finish, run, write
from git_fixture import COMMANDS, PROGRAM, git, make_repo

def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-history-") as tmp:
        repo = os.path.join(tmp, "repo")
        make_repo(repo)
        source = PROGRAM
        for i in range(1, 6):
            if i == 3:
                source = source.replace("K1 1000", "K1 1200")
                message = "k1 does 20% more work"
            else:
                source += f"/* change {i} */\n"
                message = f"change {i}"
            write(os.path.join(repo, "bench.c"), source)
            git(repo, "commit", "-q", "-am", message)
        commits = git(repo, "log", "--reverse", "--format=%h").split()
        check(len(commits) == 6, f"6 commits: {commits}")
        stepped = commits[3]
        before = [git(repo, "status", "--porcelain", "--ignored"), git(repo, "rev-parse", "HEAD")]

        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        history = [exe, "history", "HEAD~5..HEAD", *COMMANDS]
        r = run(history, cwd=repo, env=env)
        check(r.returncode == 0, f"alea history: exit {r.returncode}: {r.stderr}")
        # 1.2 within the environment padding's jitter (the program's work
        # moves by up to 0.3%): 1.196 to 1.204.
        check(re.search(rf"^  step at {stepped} \(k1 does 20% more work\): 1\.(19[6-9]|20[0-4]) \(",
                        r.stdout, re.M),
              f"the text does not place k1's step at {stepped}:\n{r.stdout}")
        check(r.stdout.count("step at") == 1, f"one step only (none for k2):\n{r.stdout}")
        check("no step over the 6 measured revisions" in r.stdout, f"k2 has a step:\n{r.stdout}")

        j = run(history + ["--format", "json"], cwd=repo, env=env)
        check(j.returncode == 0, f"--format json: exit {j.returncode}: {j.stderr}")
        doc = json.loads(j.stdout) if j.returncode == 0 else {"benchmarks": []}
        benches = {b["name"]: b for b in doc["benchmarks"]}
        k1, k2 = benches.get("k1", {}), benches.get("k2", {})
        steps = k1.get("steps", [])
        check(len(steps) == 1 and steps[0]["at"] == stepped and steps[0]["from"] == commits[2] and
              steps[0]["decision"] == "slower" and 1.19 < steps[0]["ratio"] < 1.21,
              f"k1's step in JSON: {steps}")
        check(steps and steps[0]["interval"][0] <= steps[0]["ratio"] <= steps[0]["interval"][1],
              f"the step's interval: {steps}")
        check(k2.get("steps") == [], f"k2's steps: {k2.get('steps')}")
        points = k1.get("points", [])
        check([p["revision"] for p in points] == commits, f"the revisions in order: {points}")
        for p in points[1:]:
            want = 1.2 if commits.index(p["revision"]) >= 3 else 1.0
            check(p["interval"] and p["interval"][0] <= want * 1.003 and
                  p["interval"][1] >= want * 0.997, f"k1 at {p['revision']}: {p}")
        check("resuming: 72 of 72 executions already done" in j.stderr,
              f"the second run did not resume: {j.stderr}")
        check("building" not in j.stderr, f"the second run built again: {j.stderr}")

        c = run(history + ["--format", "csv"], cwd=repo, env=env)
        rows = c.stdout.strip().split("\n")
        check(c.returncode == 0 and len(rows) == 1 + 2 * 6, f"--format csv: {c.stdout}")

        page = os.path.join(tmp, "history.html")
        h = run(history + ["--format", "html", "-o", page], cwd=repo, env=env)
        check(h.returncode == 0 and os.path.exists(page), f"--format html: {h.stderr}")
        if os.path.exists(page):
            # Where the step line and the commit labels are drawn, in CSS px.
            where = ("(() => { const s = document.querySelector("
                     "'section[data-benchmark=\"k1\"] svg line.step');"
                     " const labels = [...document.querySelectorAll("
                     "'section[data-benchmark=\"k1\"] svg .x-axis text')];"
                     " const x = e => { const b = e.getBoundingClientRect();"
                     " return b.left + b.width / 2; };"
                     " return {step: s ? x(s) : null, labels: labels.map(l =>"
                     " [l.textContent, x(l)])}; })()")
            shots = os.path.join(tmp, "shots")
            laptop = chromium.render(page, shots, evaluate={
                "where": where,
                "plots": "document.querySelectorAll('svg.trend-plot').length",
                "steps": "document.querySelectorAll('svg line.step').length"})
            phone = chromium.render_phone(page, shots)
            check(not chromium.is_blank(laptop.png), "the laptop screenshot is blank")
            check(laptop.values["plots"] == 2, f"a trend plot per benchmark: {laptop.values}")
            check(laptop.values["steps"] == 1, f"one step line: {laptop.values}")
            w = laptop.values["where"]
            labels = dict(w["labels"]) if w else {}
            check(w and w["step"] is not None and commits[2] in labels and stepped in labels and
                  labels[commits[2]] < w["step"] < labels[stepped],
                  f"the step line is not between {commits[2]} and {stepped}: {w}")
            check(f"step at {stepped} (k1 does 20% more work)" in laptop.dom,
                  "the page does not name the step's commit")
            check(laptop.external == [] and phone.external == [],
                  f"external requests: {laptop.external} {phone.external}")
            check(phone.layout["scroll_width"] <= phone.layout["viewport_width"] + 1,
                  f"the page does not fit a phone's width: {phone.layout}")

        # alea bisect: the same commit by binary search (3 comparisons of 6
        # revisions); k2 did not change: nothing to look for.
        b = run([exe, "bisect", "HEAD~5", "HEAD", *COMMANDS, "--benchmark", "k1", "--builds",
                 "3", "--executions", "2"], cwd=repo, env=env)
        full = git(repo, "rev-parse", stepped).strip()
        check(b.returncode == 0 and re.match(rf"k1 became slower at {full} \(k1 does 20% more "
                                             r"work\): 1\.(19[6-9]|20[0-4]) ", b.stdout),
              f"bisect: exit {b.returncode}: {b.stdout} {b.stderr}")
        check(b.stderr.count("alea: bisect: ") == 2 * 3, f"bisect: not 3 comparisons: {b.stderr}")
        b = run([exe, "bisect", "HEAD~5", "HEAD", *COMMANDS, "--benchmark", "k2", "--builds",
                 "3", "--executions", "2"], cwd=repo, env=env)
        check(b.returncode == 1 and "no change to look for" in b.stderr,
              f"bisect of an unchanged benchmark: exit {b.returncode}: {b.stderr}")

        after = [git(repo, "status", "--porcelain", "--ignored"), git(repo, "rev-parse", "HEAD")]
        check(before == after, f"the user's repository changed: {before} -> {after}")
    finish("alea history places k1's step at the commit that made it, in text, JSON, CSV and "
           "the HTML page Chromium draws")


if __name__ == "__main__":
    main()
