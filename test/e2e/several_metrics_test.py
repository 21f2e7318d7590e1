#!/usr/bin/env python3
"""Several metrics per execution, through `alea run` and `alea report`
(docs/measure.md, "Several metrics per execution").

A tiny C program built by alea-cc ($CC in the system's build shell) under two
seeds per system, whose loop is two instructions per iteration in inline
assembly: system `one` runs N iterations, `two` 2N.

1. `metrics = ["wall", "sim-cycles", "task-clock"]`: every execution stores
   the three, each measurement naming its metric and unit; the decision is on
   wall (the first); the report gives every metric's ratio with its interval
   in every format, and sim-cycles (deterministic) calls `two` slower.
2. The same with `decide_on = "sim-cycles"`, the environment padding, the heap
   offset and ASLR off: sim-cycles is identical across the executions of a
   build, the report's main analysis (and `alea compare`-style gate) is on
   sim-cycles with the unit "count", and wall is among the other metrics.
3. A hardware counter among the metrics either counts (a machine with a PMU)
   or fails before the first build with the one-line error naming it.

Usage: several_metrics_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, run, write
from simulated_metrics_test import PROGRAM  # the spin loop: two instructions per iteration


N = 1_000_000

CAMPAIGN = """
[campaign]
seed = 20261129
{extra}

[levels]
builds = 2
executions = 2

[measure]
{measure}

[[system]]
name = "one"
baseline = true
shell = "$CC -O1 -DWORK=1 -o spin {{source_dir}}/spin.c"
artifacts = ["spin"]

[[system]]
name = "two"
shell = "$CC -O1 -DWORK=2 -o spin {{source_dir}}/spin.c"
artifacts = ["spin"]

[[benchmark]]
name = "spin"
command = ["{{artifact:spin}}", "{n}"]
"""


def campaign(exe, tmp, name, measure, extra=""):
    path = write(os.path.join(tmp, name + ".toml"),
                 CAMPAIGN.format(measure=measure, extra=extra, n=N))
    store = os.path.join(tmp, name)
    r = run([exe, "run", path, "--dir", store], timeout=280)
    return r, store


def rows(store):
    with sqlite3.connect(os.path.join(store, "campaign.db")) as db:
        return db.execute(
            "SELECT s.name, b.build_index, e.execution_index, e.status, m.metric, m.unit, "
            "m.value FROM execution e JOIN build b ON b.id = e.build_id "
            "JOIN system s ON s.id = b.system_id "
            "LEFT JOIN measurement m ON m.execution_id = e.id").fetchall()


def three_metrics(exe, tmp):
    r, store = campaign(exe, tmp, "three", 'metrics = ["wall", "sim-cycles", "task-clock"]')
    check(r.returncode == 0, f"alea run (three metrics) exits 0: {r.returncode} {r.stderr}")
    if r.returncode != 0:
        return
    got = rows(store)
    per_execution = {}
    for s, b, e, status, metric, unit, value in got:
        check(status == "ok", f"execution {s} {b} {e} ok: {status}")
        per_execution.setdefault((s, b, e), {})[metric] = (unit, value)
    check(len(per_execution) == 8, f"8 executions: {len(per_execution)}")
    for key, metrics in per_execution.items():
        check(sorted(metrics) == ["sim-cycles", "task-clock", "wall"],
              f"execution {key} stores the three metrics: {sorted(metrics)}")
        check(metrics.get("wall", ("", 0))[0] == "s" and
              metrics.get("task-clock", ("", 0))[0] == "s" and
              metrics.get("sim-cycles", ("", 0))[0] == "count",
              f"each with its unit: {metrics}")
        check(all(v > 0 for _, v in metrics.values()), f"positive values: {metrics}")
    # A native run and a simulated one: the wall time is the program's own,
    # far below the 2 x 10^6 simulated cycles at any real clock.
    sim = {k: m["sim-cycles"][1] for k, m in per_execution.items() if "sim-cycles" in m}
    two = [v for (s, _, _), v in sim.items() if s == "two"]
    one = [v for (s, _, _), v in sim.items() if s == "one"]
    check(one and two and min(two) > 1.5 * max(one),
          f"sim-cycles of two (2N) well above one's (N): {one} {two}")

    with sqlite3.connect(os.path.join(store, "campaign.db")) as db:
        seconds = [s for (s,) in db.execute("SELECT simulation_seconds FROM execution")]
    check(len(seconds) == 8 and all(s is not None and s > 0 for s in seconds),
          f"the run under cachegrind's seconds recorded (machine time): {seconds}")
    rep = run([exe, "report", store, "--format", "json"])
    check(rep.returncode == 0, f"alea report --format json exits 0: {rep.stderr}")
    doc = json.loads(rep.stdout)
    metrics = doc.get("metrics", {})
    check(metrics.get("decided_on") == "wall", f"the decision is on wall (the first): {metrics}")
    others = {m["metric"]: m for m in metrics.get("others", [])}
    check(sorted(others) == ["sim-cycles", "task-clock"], f"the other metrics: {sorted(others)}")
    check(doc["campaign"]["units"] == {"spin": "s"}, f"the decision's unit: {doc['campaign']}")
    if "sim-cycles" in others and others["sim-cycles"]["report"]:
        bench = others["sim-cycles"]["report"]["benchmarks"][0]
        ratio = bench["ratio"]
        print(f"sim-cycles ratio {ratio['estimate']:.4f} {ratio['fieller']}")
        check(ratio["decision"] == "slower" and ratio["estimate"] > 1.5,
              f"sim-cycles calls two slower: {ratio['estimate']} {ratio['decision']}")
    placement = doc["campaign"].get("placement", [])
    check(len(placement) == 2 and all(p["metric"] == "sim-cycles" and p["builds"] == 2
                                      for p in placement),
          f"each build's function profile is of the simulated metric: {placement}")
    text = run([exe, "report", store])
    check("metrics: the decision (and the exit status) is on wall; the other metrics of the "
          "same executions:" in text.stdout, f"the text report says so: {text.stdout[-1500:]}")
    check("sim-cycles (count), spin: two vs one: " in text.stdout,
          "the text report gives sim-cycles' ratio")
    exported = run([exe, "export", store, "--metric", "sim-cycles"])
    lines = exported.stdout.strip().splitlines()
    check(exported.returncode == 0 and len(lines) == 10 and
          all(float(l.split(",")[-1]) > 1e6 for l in lines[2:]),
          f"alea export --metric sim-cycles: 8 rows of counts: {exported.stdout} {exported.stderr}")
    wrong = run([exe, "export", store, "--metric", "cycles"])
    check(wrong.returncode != 0 and "no metric \"cycles\" in this store (it measured wall, "
          "sim-cycles, task-clock)" in wrong.stderr, f"an unknown metric: {wrong.stderr}")
    for fmt, needle in [("markdown", "## Metrics"), ("html", '<section id="metrics">'),
                        ("csv", "ratio:sim-cycles"), ("latex", "spin (sim-cycles)")]:
        out = run([exe, "report", store, "--format", fmt])
        check(out.returncode == 0 and needle in out.stdout and "task-clock" in out.stdout,
              f"--format {fmt} gives the other metrics ({needle}): {out.stderr}")


def decided_on_simulated(exe, tmp):
    r, store = campaign(
        exe, tmp, "decided",
        'metrics = ["wall", "sim-cycles"]\ndecide_on = "sim-cycles"',
        extra='env_padding = [0, 0]\naslr = "off"\nfactors = ["function-order", "code-padding"]')
    check(r.returncode == 0, f"alea run (decide_on sim-cycles) exits 0: {r.returncode} {r.stderr}")
    if r.returncode != 0:
        return
    sim = {}
    for s, b, e, status, metric, unit, value in rows(store):
        if metric == "sim-cycles":
            sim.setdefault((s, b), []).append(value)
    print(f"sim-cycles per build (padding, heap offset, ASLR off): {sim}")
    check(len(sim) == 4 and all(len(v) == 2 for v in sim.values()), f"4 builds x 2: {sim}")
    check(all(len(set(v)) == 1 for v in sim.values()),
          f"sim-cycles identical across the executions of a build: {sim}")
    with sqlite3.connect(os.path.join(store, "campaign.db")) as db:
        bench = db.execute("SELECT unit, decided_on FROM benchmark").fetchall()
    check(bench == [("count", "sim-cycles")], f"the benchmark's decision metric: {bench}")
    doc = json.loads(run([exe, "report", store, "--format", "json"]).stdout)
    check(doc["campaign"]["units"] == {"spin": "count"}, f"the main analysis is on sim-cycles")
    ratio = doc["report"]["benchmarks"][0]["ratio"]
    check(ratio["decision"] == "slower", f"decided on sim-cycles: slower: {ratio['decision']}")
    others = [m["metric"] for m in doc.get("metrics", {}).get("others", [])]
    check(others == ["wall"], f"wall among the other metrics: {others}")


def hardware_counter(exe, tmp):
    r, store = campaign(exe, tmp, "hw", 'metrics = ["wall", "instructions"]')
    if r.returncode == 0:  # a machine with a PMU
        values = [v for (_, _, _, _, m, _, v) in rows(store) if m == "instructions"]
        check(len(values) == 8 and all(v >= 2 * N for v in values),
              f"instructions counted beside wall: {values}")
        return
    err = r.stderr.strip()
    print(f"instructions among the metrics (no PMU): {err}")
    check(err.count("\n") == 0 and err.startswith("alea: error: ") and "hw.toml:" in err and
          "metric \"instructions\" cannot be counted on this machine: perf_event_open: " in err,
          f"one line naming the metric and the reason: {err!r}")
    check(not os.path.exists(os.path.join(store, "builds")), "before the first build")


def compare_commands(exe, tmp):
    """`alea compare --measure A,B`: several metrics, the decision on the first."""
    spin = os.path.join(tmp, "spin-bin")
    run(["cc", "-O1", "-o", spin, os.path.join(tmp, "spin.c")], check=True)
    r = run([exe, "compare", "--cmd", f"one={spin} {N}", "--cmd", f"two={spin} {2 * N}",
             "--measure", "sim-instructions,wall", "--executions", "3",
             "--dir", os.path.join(tmp, "cmp"), "--fail-on", "slower"], timeout=280)
    print(f"alea compare --measure sim-instructions,wall: exit {r.returncode}")
    check(r.returncode == 5 and "the decision (and the exit status) is on sim-instructions; "
          "the other metrics of the same executions:" in r.stdout and
          "wall (s), command: two vs one: " in r.stdout,
          f"decided slower on sim-instructions (exit 5), wall beside it: {r.stdout[-2000:]}")
    bad = run([exe, "compare", "--cmd", f"one={spin}", "--cmd", f"two={spin}",
               "--measure", "wall,walls", "--dir", os.path.join(tmp, "cmp-bad")])
    check(bad.returncode != 0 and "'walls' after the first is not a metric" in bad.stderr,
          f"an unknown metric in the list: {bad.stderr}")


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-metrics-") as tmp:
        write(os.path.join(tmp, "spin.c"), PROGRAM)
        three_metrics(exe, tmp)
        decided_on_simulated(exe, tmp)
        hardware_counter(exe, tmp)
        compare_commands(exe, tmp)
    finish("three metrics per execution stored and reported in every format; the decision "
           "follows decide_on; sim-cycles is identical per build without execution factors")


if __name__ == "__main__":
    main()
