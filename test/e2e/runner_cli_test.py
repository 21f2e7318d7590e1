#!/usr/bin/env python3
"""`alea run`, `alea export` and `alea import` end to end (issue 4):

1. malformed campaign files: exit status 1 and ONE line
   `alea: error: FILE:LINE:COLUMN: <expectation>`;
2. a real campaign built with alea's own wrappers (alea-cc + plugin): each
   build's ELF note carries the seed the store recorded, the builds' layout
   fingerprints differ, every planned execution is recorded once;
3. export -> import -> export gives back the same CSV; `alea analyze` reads it;
4. a hyperfine --export-json file (hand-written in hyperfine's format, and a
   real one when hyperfine is installed) imports into a store whose export has
   one row per time.

Usage: runner_cli_test.py BUILD_DIR SOURCE_DIR"""
import csv
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

FAILURES = []


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL:", msg)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=240, **kw)


MINIMAL_TAIL = """
[[system]]
name = "a"
build = ["true"]
[[benchmark]]
name = "b"
command = ["true"]
"""

MALFORMED = [
    # (file text, expected error after "FILE:")
    ("[levels]\nbuilds = 2.5\n" + MINIMAL_TAIL,
     '2:10: expected a positive integer or "auto" for levels.builds'),
    ("[campaign]\nseed = 1\ntimout = 3\n" + MINIMAL_TAIL,
     "3:1: unknown key 'timout' in [campaign]; expected one of name, seed, confidence, "
     "threshold, factors, env_padding, aslr, cpus, timeout, build_timeout, build_jobs, build_cache, "
     "build_on, redact_env, leftovers, design, duet_cpus, quiet, machines"),
    ("[campaign]\nfactors = [\"cache-colour\"]\n" + MINIMAL_TAIL,
     "2:11: unknown factor 'cache-colour'; expected all, none, function-order, global-order, "
     "symbol-names, code-padding, stack-offset, link-order, section-order, heap-offset"),
    ("[[system]]\nname = \"a\"\nbuild = [\"true\"]\n[[system]]\nname = \"b\"\nbuild = [\"true\"]\n"
     "[[benchmark]]\nname = \"x\"\ncommand = [\"true\"]\n",
     "1:1: expected one system marked baseline = true among the 2 systems"),
]

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
static int work(int n) { volatile int s = 0; for (int i = 0; i < n; ++i) s += i; return s; }
int helper_a(int x) { return work(x) + 1; }
int helper_b(int x) { return work(x) + 2; }
int main(void) {
  int n = atoi(getenv("ALEA_ITERATIONS"));
  for (int i = 0; i < n; ++i)
    printf("value %d.%03d\n", 1 + (helper_a(1000) + helper_b(1000)) % 2, 100 + i);
  return 0;
}
"""

CAMPAIGN = """
[campaign]
seed = "0x5eed"
[levels]
builds = 3
executions = 2
iterations = 2
warmup = 1
[measure]
source = "regex"
regex = 'value ([0-9.]+)'
[[system]]
name = "plain"
baseline = true
shell = "$CC -O1 {source_dir}/p.c -o p"
artifacts = ["p"]
[[system]]
name = "opt"
shell = "$CC -O2 {source_dir}/p.c -o p"
artifacts = ["p"]
[[benchmark]]
name = "values"
command = ["{artifact:p}"]
"""

HYPERFINE = {
    "results": [
        {"command": "sleep 0.01", "mean": 0.0105, "stddev": 0.0001, "median": 0.0105,
         "user": 0.0005, "system": 0.0007, "min": 0.0103, "max": 0.0107,
         "times": [0.0103, 0.0105, 0.0107], "exit_codes": [0, 0, 0]},
        {"command": "sleep 0.02", "mean": 0.0205, "stddev": 0.0001, "median": 0.0205,
         "user": 0.0005, "system": 0.0007, "min": 0.0203, "max": 0.0207,
         "times": [0.0203, 0.0207, 0.0205], "exit_codes": [0, 0, 0]},
    ]
}


def main():
    build_dir = sys.argv[1]
    alea = os.path.join(build_dir, "bin", "alea")
    with tempfile.TemporaryDirectory(prefix="alea-cli-") as tmp:
        # 1. malformed campaign files
        for i, (text, expected) in enumerate(MALFORMED):
            path = os.path.join(tmp, f"bad{i}.toml")
            with open(path, "w") as f:
                f.write(text)
            r = run([alea, "run", path, "--dir", os.path.join(tmp, f"bad{i}")])
            check(r.returncode == 1, f"malformed {i}: exit {r.returncode}")
            check(r.stderr == f"alea: error: {path}:{expected}\n",
                  f"malformed {i}: stderr {r.stderr!r}, expected ...{expected!r}")
            check(not os.path.exists(os.path.join(tmp, f"bad{i}")),
                  f"malformed {i}: a campaign directory was created")
        syntax = os.path.join(tmp, "syntax.toml")
        with open(syntax, "w") as f:
            f.write("[campaign]\nname = \"x\n")
        r = run([alea, "run", syntax])
        check(r.returncode == 1 and r.stderr.startswith(f"alea: error: {syntax}:2:")
              and r.stderr.count("\n") == 1, f"TOML syntax error: {r.stderr!r}")

        # 2. a real campaign through alea-cc
        with open(os.path.join(tmp, "p.c"), "w") as f:
            f.write(PROGRAM)
        campaign = os.path.join(tmp, "real.toml")
        with open(campaign, "w") as f:
            f.write(CAMPAIGN)
        out = os.path.join(tmp, "real")
        r = run([alea, "run", campaign, "--dir", out, "--no-report"])
        check(r.returncode == 0, f"alea run: exit {r.returncode}: {r.stderr}")
        check("same layout fingerprint" not in r.stderr, f"identical layouts: {r.stderr}")
        db = os.path.join(out, "campaign.db")
        con = sqlite3.connect(db)
        builds = con.execute("SELECT s.name, bu.build_index, bu.seed, bu.fingerprint, bu.dir, "
                             "bu.status FROM build bu JOIN system s ON s.id = bu.system_id").fetchall()
        check(len(builds) == 6 and all(b[5] == "ok" for b in builds), f"builds: {builds}")
        fingerprints = {b[3] for b in builds}
        check(len(fingerprints) == 6 and "" not in fingerprints,
              f"layout fingerprints not all distinct: {builds}")
        for name, index, seed, _, bdir, _ in builds:
            note = run([alea, "layout", os.path.join(bdir, "p")])
            check(f"seed:        {seed}" in note.stdout,
                  f"{name} #{index}: ELF note does not carry the store's seed {seed}: {note.stdout[:300]}")
        (n_exec, n_ok) = con.execute(
            "SELECT count(*), sum(status = 'ok') FROM execution").fetchone()
        check(n_exec == 12 and n_ok == 12, f"executions: {n_exec} recorded, {n_ok} ok")
        con.close()
        # running it again resumes: nothing new to do
        r = run([alea, "run", campaign, "--dir", out, "--no-report"])
        check(r.returncode == 0 and "12 of 12 executions recorded" in r.stderr,
              f"rerun: {r.returncode} {r.stderr}")

        # 3. export / import / export round trip
        csv1 = os.path.join(tmp, "out.csv")
        r = run([alea, "export", out, "-o", csv1])
        check(r.returncode == 0, f"export: {r.stderr}")
        rows = list(csv.reader(open(csv1)))
        # The settings line the report used (docs/analyze.md), then the header.
        check(rows[0] == ["# alea: design=interleaved threshold=0.01 confidence=0.95 baseline=plain"],
              f"export settings line: {rows[0]}")
        rows = rows[1:]
        # A campaign's store has its executions' start times: the last column.
        check(rows[0] == ["system", "benchmark", "build", "execution", "iteration", "value",
                          "started_at"], f"export header: {rows[0]}")
        check(len(rows) == 1 + 12 * 2, f"export rows: {len(rows) - 1}, expected 24")
        check(all(r[4] in ("1", "2") for r in rows[1:]), "warm-up iteration 0 was exported")
        check(all(float(r[6]) > 1.6e9 for r in rows[1:]), "every row has its start time")
        imported = os.path.join(tmp, "imported.db")
        r = run([alea, "import", csv1, "-o", imported])
        check(r.returncode == 0, f"import csv: {r.stderr}")
        r = run([alea, "export", imported])
        check(r.returncode == 0 and r.stdout == open(csv1).read(),
              "export(import(export)) differs from export")
        r = run([alea, "import", csv1, "-o", imported])
        check(r.returncode == 1 and "exists" in r.stderr, f"import over a store: {r.stderr}")
        r = run([alea, "analyze", csv1])
        check(r.returncode == 0 and "opt" in r.stdout, f"alea analyze on the export: {r.stderr}")
        # The export's analysis is the report's, the interleaved design's
        # neighbouring blocks included (their start times came along).
        a = run([alea, "analyze", csv1, "--format", "json"])
        rep = run([alea, "report", out, "--format", "json"])
        check(a.returncode == 0 and rep.returncode == 0, f"json: {a.stderr} {rep.stderr}")
        if a.returncode == 0 and rep.returncode == 0:
            ra, rr = (json.loads(x.stdout) for x in (a, rep))
            ra, rr = ((d.get("report") or d)["benchmarks"][0]["ratios"][0] for d in (ra, rr))
            check("neighbour_factor" in rr["pairing"], f"report pairing: {rr['pairing']}")
            for key in ("pairing", "fieller", "estimate"):
                check(ra[key] == rr[key], f"analyze of the export vs report, {key}: "
                                          f"{ra[key]} vs {rr[key]}")
        bad_csv = os.path.join(tmp, "bad.csv")
        with open(bad_csv, "w") as f:
            f.write("system,build,value\na,0,1.5\na,1,oops\n")
        r = run([alea, "import", bad_csv, "-o", os.path.join(tmp, "bad.db")])
        check(r.returncode == 1 and r.stderr.startswith(f"alea: error: {bad_csv}:3:")
              and not os.path.exists(os.path.join(tmp, "bad.db")),
              f"bad CSV import: {r.returncode} {r.stderr!r}")

        # 4. hyperfine JSON
        hf = os.path.join(tmp, "hf.json")
        with open(hf, "w") as f:
            json.dump(HYPERFINE, f, indent=2)
        hfdb = os.path.join(tmp, "hf.db")
        r = run([alea, "import", hf, "-o", hfdb])
        check(r.returncode == 0, f"import hyperfine: {r.stderr}")
        r = run([alea, "export", hfdb])
        rows = list(csv.reader(io.StringIO(r.stdout)))
        check(rows[0] == ["# alea: baseline=sleep%200.01"], f"hyperfine export settings: {rows[0]}")
        check(rows[2:] == [["sleep 0.01", "hf", "0", "0", "0", "0.0103"],
                           ["sleep 0.01", "hf", "0", "1", "0", "0.0105"],
                           ["sleep 0.01", "hf", "0", "2", "0", "0.0107"],
                           ["sleep 0.02", "hf", "0", "0", "0", "0.0203"],
                           ["sleep 0.02", "hf", "0", "1", "0", "0.0207"],
                           ["sleep 0.02", "hf", "0", "2", "0", "0.0205"]],
              f"hyperfine export: {rows}")
        if shutil.which("hyperfine"):
            real = os.path.join(tmp, "real-hf.json")
            r = run(["hyperfine", "-N", "--runs", "5", "--warmup", "1", "--style", "none",
                     "true", "--export-json", real])
            if r.returncode == 0:
                r = run([alea, "import", real, "-o", os.path.join(tmp, "real-hf.db")])
                check(r.returncode == 0 and "imported 5 measurements" in r.stderr,
                      f"import of a real hyperfine export: {r.stderr}")
            else:
                check(False, f"hyperfine failed: {r.stderr}")

        # 5. "auto" levels: a pilot, then the planner's counts shown before the
        # main run starts, recorded in the store, and used by the main run.
        auto = os.path.join(tmp, "auto.toml")
        with open(auto, "w") as f:
            f.write(CAMPAIGN.replace("builds = 3\nexecutions = 2\niterations = 2\nwarmup = 1",
                                     'builds = "auto"\nexecutions = "auto"\n'
                                     'iterations = "auto"\nwarmup = "auto"\n'
                                     "target_half_width = 0.05"))
        adir = os.path.join(tmp, "auto")
        r = run([alea, "run", auto, "--dir", adir, "--no-report"])
        check(r.returncode == 0, f"auto campaign: exit {r.returncode}: {r.stderr}")
        lines = r.stderr.splitlines()
        pilot_at = next((i for i, l in enumerate(lines) if "pilot run" in l), None)
        plan_at = next((i for i, l in enumerate(lines) if l.startswith("plan: levels: ")), None)
        # The main run's first builds are the pilot's, reused (not rebuilt).
        main_at = next((i for i, l in enumerate(lines)
                        if (l.startswith("building ") or
                            l.endswith(": reused the pilot's build, not rebuilt"))
                        and i > (plan_at or len(lines))), None)
        check(pilot_at is not None and plan_at is not None and main_at is not None
              and pilot_at < plan_at < main_at,
              f"auto: pilot, then the plan, then the main run: {r.stderr}")
        check(any(l.startswith("plan: warm-up: ") for l in lines), f"auto warm-up: {r.stderr}")
        if plan_at is not None:
            # "plan: levels: B builds x E executions x I iterations (+W warm-up), ..."
            m = re.match(r"plan: levels: (\d+) builds x (\d+) executions x (\d+) iterations "
                         r"\(\+(\d+) warm-up\)", lines[plan_at])
            check(m is not None, f"auto: plan line {lines[plan_at]!r}")
            b, e, i, w = (int(g) for g in m.groups()) if m else (0, 0, 0, 0)
            con = sqlite3.connect(os.path.join(adir, "campaign.db"))
            meta = dict(con.execute("SELECT key, value FROM meta"))
            check([meta.get("levels." + k) for k in ("builds", "executions", "iterations", "warmup")]
                  == [str(b), str(e), str(i), str(w)], f"auto: recorded levels {meta}")
            check("auto_plan" in meta and "levels: " in meta["auto_plan"], "auto: plan recorded")
            n_builds = con.execute("SELECT count(*) FROM build").fetchone()[0]
            n_exec = con.execute("SELECT count(*) FROM execution WHERE status = 'ok'").fetchone()[0]
            per_exec = con.execute("SELECT count(*) FROM measurement GROUP BY execution_id").fetchall()
            check(b >= 2 and n_builds == 2 * b, f"auto: {n_builds} builds for {b} planned per system")
            check(n_exec == 2 * b * e, f"auto: {n_exec} executions, planned {2 * b * e}")
            check(set(c for (c,) in per_exec) == {i + w},
                  f"auto: iterations per execution {set(per_exec)}, planned {i}+{w}")
            con.close()
        # Resuming reuses the recorded counts: no second pilot.
        r = run([alea, "run", auto, "--dir", adir, "--no-report"])
        check(r.returncode == 0 and "pilot run" not in r.stderr,
              f"auto resume ran a second pilot: {r.stderr}")

        # 6. `alea report` on a campaign that is running: it reads one consistent
        # snapshot (every recorded execution with its one measurement) and
        # does not disturb the run. The last of the 5000 executions waits
        # forever (each execution counts itself in a file), so the campaign is
        # still running when the five reports are done, however fast or slow
        # the machine: no deadline or sleep decides it.
        count = os.path.join(tmp, "busy.count")
        busy = os.path.join(tmp, "busy.toml")
        with open(busy, "w") as f:
            f.write('[levels]\nbuilds = 1\nexecutions = 5000\n[measure]\nsource = "none"\n'
                    '[[system]]\nname = "t"\nbuild = ["true"]\n'
                    '[[benchmark]]\nname = "t"\n'
                    f'shell = "echo >> {count}; [ $(wc -l < {count}) -lt 5000 ] || '
                    'exec sleep infinity"\n')
        bdir = os.path.join(tmp, "busy")
        # Killed below: its scratch directory stays in the test's own TMPDIR.
        p = subprocess.Popen([alea, "run", busy, "--dir", bdir, "--no-report"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=dict(os.environ, TMPDIR=tmp))
        # The campaign runs once its first execution has counted itself (the
        # store is complete by then; while `alea run` is still creating it,
        # `alea report` can find it locked or empty).
        while not os.path.exists(count) and p.poll() is None:
            time.sleep(0.01)
        seen = []
        while len(seen) < 5 and p.poll() is None:
            r = run([alea, "report", bdir, "--format", "json"])
            if r.returncode != 0:
                check(False, f"report during the run: {r.stderr}")
                break
            c = json.loads(r.stdout)["campaign"]
            seen.append((c["executions"], c["measurements"]))
            check(c["executions"] == c["measurements"],
                  f"report during the run: {c['executions']} executions but "
                  f"{c['measurements']} measurements (not one snapshot)")
        running = p.poll() is None
        p.kill()
        p.wait()
        check(len(seen) >= 2 and running, f"reports taken while the campaign ran: {seen}")
        check(seen == sorted(seen), f"reports went backwards: {seen}")

    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        sys.exit(1)
    print("ok: malformed files, real campaign through alea-cc, export/import round trip, "
          "hyperfine import")


if __name__ == "__main__":
    main()
