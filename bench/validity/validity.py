#!/usr/bin/env python3
"""Helpers of bench/validity/run.sh (Python 3 standard library only).

  validity.py pick POOL BUILDS KIND INDEX      -> "base: i i i ...\\ncand: j j j ..."
  validity.py calibrate OUT.json REPS SLOW_REPS ROUNDS SCRIPT|- BINARY...   (SCRIPT: lua's work.lua; -: none)
  validity.py row REPORT.json ANALYSIS.json UNPAIRED.json EXPORT.csv KEY=VALUE... -> one CSV line;
      from=OLD_ROW.csv takes the campaign's fields from a previous row
  validity.py header                                   -> the CSV header line
  validity.py summary RESULTS.csv CALIBRATION.json [CONFIDENCE]
  validity.py calibrate-sim CALIBRATION.json STORE.db REPS SLOW_REPS  (adds the sim-cycles true ratio)
  validity.py timing CAMPAIGN_DIR RUN_SECONDS          -> CAMPAIGN_DIR/timing.json (machine time split)
  validity.py simtable RUN_DIR RESULTS.csv CALIBRATION.json  -> sim-cycles against wall (--metrics sim)
  validity.py blocks RUN_DIR DESIGN [KIND]             -> are a paired design's block differences independent?

The statistics of the summary: false alarms and coverage are binomial counts
with Clopper-Pearson intervals (the beta quantiles, found by bisection on the
regularized incomplete beta function, evaluated with its continued fraction).
"""
import csv
import functools
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time

# --------------------------------------------------------------------------
# Clopper-Pearson


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a, b, x):
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def beta_quantile(p, a, b):
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if betainc(a, b, mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(x, n, conf=0.95):
    if n == 0:
        return (float("nan"), float("nan"))
    alpha = 1.0 - conf
    lo = 0.0 if x == 0 else beta_quantile(alpha / 2, x, n - x + 1)
    hi = 1.0 if x == n else beta_quantile(1 - alpha / 2, x + 1, n - x)
    return (lo, hi)


# --------------------------------------------------------------------------
# pick: which pool binaries a campaign's builds copy


def cmd_pick(pool, builds, kind, index):
    pool, builds, index = int(pool), int(builds), int(index)
    if 2 * builds > pool:
        sys.exit(f"validity.py: a pool of {pool} binaries cannot give 2 x {builds} distinct builds")
    # The same campaign (kind, index) picks the same binaries in every design:
    # the designs are compared on common random numbers.
    rng = random.Random(f"validity/{kind}/{index}")
    chosen = rng.sample(range(pool), 2 * builds)
    print("base:", *chosen[:builds])
    print("cand:", *chosen[builds:])


# --------------------------------------------------------------------------
# calibrate: start-up share and the true ratio of the injected slowdown


def run_once(argv):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"validity.py: {' '.join(argv)} failed (status {status})")
    return wall, ru.ru_utime + ru.ru_stime


@functools.lru_cache(maxsize=None)
def t_quantile(p, df):
    """Student t quantile for p > 0.5 (bisection on 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2)."""
    lo, hi = 0.0, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if 1 - 0.5 * betainc(df / 2, 0.5, df / (df + mid * mid)) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _mean_ci(xs, conf=0.95):
    """Mean and its t interval."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("nan"), float("nan")
    h = t_quantile(1 - (1 - conf) / 2, len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - h, m + h


def cmd_calibrate(out, reps, slow_reps, rounds, work, *binaries):
    reps, slow_reps, rounds = int(reps), int(slow_reps), int(rounds)
    counts = [0, reps // 2, reps, slow_reps]
    cpu = {k: [] for k in counts}
    wall = {k: [] for k in counts}
    rng = random.Random(1)
    for _ in range(rounds):
        for b in binaries:
            order = counts[:]
            rng.shuffle(order)  # alternate, so that load drift hits every count alike
            for k in order:
                w, c = run_once([b] + ([] if work == "-" else [work]) + [str(k)])
                wall[k].append(w)
                cpu[k].append(c)
    # Least squares of CPU time on the repetition count: cpu = a + b k.
    xs = [k for k in counts for _ in cpu[k]]
    ys = [v for k in counts for v in cpu[k]]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = my - b * mx
    cpu_mean = {k: statistics.fmean(cpu[k]) for k in counts}
    wall_mean = {k: statistics.fmean(wall[k]) for k in counts}
    # The campaigns measure wall time: the start-up share is that of the wall
    # time (on a loaded machine larger than the CPU time's: a short process
    # waits for a CPU as long as a long one). The work line through the
    # start-up: t(k) = t(0) + k w; the true ratio of SLOW_REPS over REPS
    # repetitions is 1 + (SLOW_REPS/REPS - 1)(1 - share).
    share = wall_mean[0] / wall_mean[reps]
    cpu_share = cpu_mean[0] / cpu_mean[reps]
    true_ratio = 1 + (slow_reps / reps - 1) * (1 - share)
    # Direct check: each (binary, round)'s SLOW_REPS over REPS time, measured
    # back to back, averaged (t interval). Noisy on a loaded machine.
    # Geometric means (means of the log ratios): a plain mean of ratios is
    # biased up by about the squared coefficient of variation of the denominator.
    def gm(ratios):
        m, lo, hi = _mean_ci([math.log(x) for x in ratios])
        return math.exp(m), math.exp(lo), math.exp(hi)
    dcpu = gm([s / r for s, r in zip(cpu[slow_reps], cpu[reps])])
    dwall = gm([s / r for s, r in zip(wall[slow_reps], wall[reps])])
    dhalf = gm([(h - z) / (r - z) * reps / (reps // 2) for h, r, z in zip(cpu[reps // 2], cpu[reps], cpu[0])])
    res = {
        "reps": reps,
        "slow_reps": slow_reps,
        "work_ratio": slow_reps / reps,
        "binaries": len(binaries),
        "rounds": rounds,
        "cpu_mean": {str(k): cpu_mean[k] for k in counts},
        "wall_mean": {str(k): wall_mean[k] for k in counts},
        "fit_intercept": a,
        "fit_slope": b,
        "startup_share": share,
        "startup_share_cpu": cpu_share,
        "startup_share_fit": a / (a + b * reps),
        "true_ratio": true_ratio,
        "true_ratio_cpu": 1 + (slow_reps / reps - 1) * (1 - cpu_share),
        "true_ratio_fit": (a + b * slow_reps) / (a + b * reps),
        "direct_cpu_ratio": dcpu,
        "direct_wall_ratio": dwall,
        "half_count_work_share": dhalf,
    }
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    ci = lambda t: f"{t[0]:.4f} [{t[1]:.4f}, {t[2]:.4f}]"
    print(
        f"calibration ({len(binaries)} pool binaries x {rounds} rounds, repetitions {counts} back to back in random order):\n"
        f"  CPU time per execution (user + sys): {cpu_mean[0]*1e3:.2f} ms at 0 repetitions (start-up), "
        f"{cpu_mean[reps]*1e3:.1f} ms at {reps}, {cpu_mean[slow_reps]*1e3:.1f} ms at {slow_reps}; "
        f"wall {wall_mean[0]*1e3:.2f} / {wall_mean[reps]*1e3:.1f} / {wall_mean[slow_reps]*1e3:.1f} ms\n"
        f"  start-up share at {reps} repetitions: {100*share:.2f}% of the wall time (at 0 repetitions); "
        f"of the CPU time {100*cpu_share:.2f}% (the least-squares line's intercept: {100*res['startup_share_fit']:.2f}%)\n"
        f"  TRUE RATIO = 1 + ({slow_reps}/{reps} - 1) x (1 - {share:.4f}) = {true_ratio:.4f} "
        f"(with the CPU time's share: {res['true_ratio_cpu']:.4f})\n"
        f"  checks (geometric mean of back-to-back ratios, 95% t interval): {slow_reps} over {reps} repetitions "
        f"CPU {ci(dcpu)}, wall {ci(dwall)}; work of {reps//2} repetitions over half the work of {reps}: {ci(dhalf)}"
    )


# --------------------------------------------------------------------------
# row: one campaign's result

FIELDS = [
    "design", "kind", "index", "seed", "true_ratio_work", "estimate",
    "fieller_status", "fieller_lo", "fieller_hi", "bootstrap_lo", "bootstrap_hi",
    "decision", "decision_basis", "ci_lo", "ci_hi", "rel_half_width",
    "paired", "pairs", "correlation",
    "up_estimate", "up_ci_lo", "up_ci_hi", "up_decision", "up_rel_half_width",
    "report_estimate", "report_decision", "report_paired", "source", "cpu_ratio", "overlap",
    "executions", "failed_executions", "exec_seconds", "wall_seconds", "loadavg", "picks",
]


def _fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(",", ":"))
    return str(v)


def _ratio(engine_json):
    """The one ratio (cand vs base) of an engine report, or None."""
    ratio = None
    for b in (engine_json or {}).get("benchmarks", []):
        for r in b.get("ratios", []):
            ratio = r
    return ratio


def _interval(ratio):
    """The interval the decision used (Fieller when bounded, else the bootstrap)."""
    fi = ratio.get("fieller") or {}
    if ratio.get("decision_basis") == "fieller" and fi.get("interval"):
        return fi["interval"]
    return ratio.get("bootstrap") or (None, None)


def cmd_row(report, analysis, unpaired, export, *kv):
    """REPORT: `alea report --format json` (the campaign; its own ratio too);
    ANALYSIS: `alea analyze --format json` of the export, with --paired for the
    paired designs: the figures; UNPAIRED: the same without --paired."""
    meta = dict(x.split("=", 1) for x in kv)
    # --metrics sim: which metric's report of the campaign ("": the decision's)
    report_metric = meta.pop("report_metric", "")
    if "from" in meta:  # re-analysis: the campaign's own fields from its previous row
        # The first five and the last three columns keep their places in every
        # version of FIELDS: a row written by an older version reads the same.
        # from_line: which line of it (one per metric with --metrics sim)
        with open(meta.pop("from")) as f:
            old = list(csv.reader(f))[int(meta.pop("from_line", "1")) - 1]
        for k, v in zip(FIELDS[:5] + FIELDS[-3:], old[:5] + old[-3:]):
            meta.setdefault(k, v)
    with open(report) as f:
        d = json.load(f)
    camp = d.get("campaign", {})
    row = {k: meta.get(k, "") for k in FIELDS}
    row["executions"] = camp.get("executions")
    row["failed_executions"] = camp.get("failed_executions")
    # The figures: the campaign report's own ratio once `alea report` pairs the
    # paired designs itself (its ratio then has a `pairing`), else `alea
    # analyze` (--paired for the paired designs).
    engine = d.get("report")
    mets = d.get("metrics") or {}
    if report_metric and mets.get("decided_on") not in (None, report_metric):
        engine = None
        for o in mets.get("others", []):
            if o.get("metric") == report_metric:
                engine = o.get("report")
    rr = _ratio(engine)
    ratio = _ratio(json.load(open(analysis)))
    row["source"] = "analyze"
    if rr is not None and "pairing" in rr:
        ratio, row["source"] = rr, "report"
    if ratio is not None:
        fi = ratio.get("fieller") or {}
        row["estimate"] = ratio.get("estimate")
        row["fieller_status"] = fi.get("status")
        if fi.get("interval"):
            row["fieller_lo"], row["fieller_hi"] = fi["interval"]
        if ratio.get("bootstrap"):
            row["bootstrap_lo"], row["bootstrap_hi"] = ratio["bootstrap"]
        row["decision"] = ratio.get("decision")
        row["decision_basis"] = ratio.get("decision_basis")
        row["ci_lo"], row["ci_hi"] = _interval(ratio)
        if row["ci_lo"] is not None and row["estimate"]:
            row["rel_half_width"] = (row["ci_hi"] - row["ci_lo"]) / 2 / row["estimate"]
        p = ratio.get("pairing") or {}
        row["paired"] = p.get("paired", False)
        row["pairs"] = p.get("pairs")
        row["correlation"] = p.get("correlation")
    up = _ratio(json.load(open(unpaired)))
    if up is not None:
        row["up_estimate"] = up.get("estimate")
        row["up_ci_lo"], row["up_ci_hi"] = _interval(up)
        row["up_decision"] = up.get("decision")
        if row["up_ci_lo"] is not None and row["up_estimate"]:
            row["up_rel_half_width"] = (row["up_ci_hi"] - row["up_ci_lo"]) / 2 / row["up_estimate"]
    if rr is not None:
        row["report_estimate"] = rr.get("estimate")
        row["report_decision"] = rr.get("decision")
        row["report_paired"] = (rr.get("pairing") or {}).get("paired", False)
    # Diagnostics from the store (read-only): the ratio of the mean CPU time
    # (user + sys) of the same executions, and duet's overlap of the candidate.
    db = os.path.join(os.path.dirname(report), "campaign.alea", "campaign.db")
    if os.path.exists(db):
        import sqlite3
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        cols = {c[1] for c in con.execute("pragma table_info(execution)")}
        q = ("select s.name, e.user_seconds + e.sys_seconds, "
             + ("e.overlap" if "overlap" in cols else "null")
             + " from execution e join build b on e.build_id = b.id join system s on b.system_id = s.id"
             " where e.status = 'ok'")
        cpu = {"base": [], "cand": []}
        ov = []
        for name, c, o in con.execute(q):
            if name in cpu and c is not None:
                cpu[name].append(c)
            if name == "cand" and o is not None:
                ov.append(o)
        con.close()
        if cpu["base"] and cpu["cand"]:
            row["cpu_ratio"] = statistics.fmean(cpu["cand"]) / statistics.fmean(cpu["base"])
        if ov:
            row["overlap"] = statistics.fmean(ov)
    total = 0.0
    with open(export) as f:
        # the export's first line may be its settings comment (`# alea: design=...`)
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            total += float(r["value"])
    row["exec_seconds"] = total
    w = csv.DictWriter(sys.stdout, FIELDS, lineterminator="\n")
    w.writerow({k: _fmt(v) for k, v in row.items()})


def cmd_header():
    print(",".join(FIELDS))


# --------------------------------------------------------------------------
# summary


def _pct(x):
    return f"{100*x:.1f}%"


def cmd_summary(results, calibration, conf="0.95"):
    conf = float(conf)
    with open(calibration) as f:
        cal = json.load(f)
    true_ratio = cal["true_ratio"]
    rows = list(csv.DictReader(open(results)))
    designs = []
    for r in rows:
        if r["design"] not in designs:
            designs.append(r["design"])

    def f(r, k):
        return float(r[k]) if r[k] not in ("", None) else None

    def covers(lo, hi, x):
        return lo is not None and hi is not None and lo <= x <= hi

    print(f"true ratio of the slowdown campaigns: {true_ratio:.4f} (work ratio {cal['work_ratio']:.4f}, "
          f"start-up share {100*cal['startup_share']:.2f}%)")
    if "true_ratio_sim" in cal:
        print(f"true ratio in sim-cycles (the designs <design>:sim-cycles): {cal['true_ratio_sim']:.5f} "
              f"(start-up share {100*cal['startup_share_sim']:.3f}% of the simulated cycles)")
    wall_true = true_ratio
    table = []
    medians = {}
    for d in designs:
        true_ratio = _true_ratio(cal, d)
        aa = [r for r in rows if r["design"] == d and r["kind"] == "aa" and r["estimate"]]
        sl = [r for r in rows if r["design"] == d and r["kind"] == "slow" and r["estimate"]]
        n_aa, n_sl = len(aa), len(sl)
        # false alarm: the report's 95% CI (its decision basis) excludes 1.0
        fa = sum(1 for r in aa if not covers(f(r, "ci_lo"), f(r, "ci_hi"), 1.0))
        fa_dec = sum(1 for r in aa if r["decision"] in ("faster", "slower"))
        fa_boot = sum(1 for r in aa if not covers(f(r, "bootstrap_lo"), f(r, "bootstrap_hi"), 1.0))
        cov = sum(1 for r in sl if covers(f(r, "ci_lo"), f(r, "ci_hi"), true_ratio))
        cov_boot = sum(1 for r in sl if covers(f(r, "bootstrap_lo"), f(r, "bootstrap_hi"), true_ratio))
        power = sum(1 for r in sl if r["decision"] == "slower")
        hw = [f(r, "rel_half_width") for r in aa + sl if f(r, "rel_half_width") is not None]
        med = statistics.median(hw) if hw else float("nan")
        medians[d] = med
        # pooled estimate: geometric mean of the slowdown campaigns' estimates, t interval
        pooled = _mean_ci([math.log(f(r, "estimate")) for r in sl]) if len(sl) > 1 else (float("nan"),) * 3
        pooled = tuple(math.exp(x) for x in pooled)
        exec_s = sum(f(r, "exec_seconds") or 0 for r in aa + sl)
        wall_s = sum(f(r, "wall_seconds") or 0 for r in aa + sl)
        table.append(dict(design=d, n_aa=n_aa, n_sl=n_sl, fa=fa, fa_ci=clopper_pearson(fa, n_aa, conf),
                          fa_dec=fa_dec, fa_boot=fa_boot, cov=cov, cov_ci=clopper_pearson(cov, n_sl, conf),
                          cov_boot=cov_boot, power=power, pw_ci=clopper_pearson(power, n_sl, conf),
                          med=med, pooled=pooled, exec_s=exec_s, wall_s=wall_s))
    base = medians.get("unpaired")
    hdr = ["design", "false alarms (CI excl. 1)", "decided faster/slower", "coverage of true ratio",
           "power (decided slower)", "median rel. half-width", "vs unpaired", "pooled slowdown estimate (95% CI)",
           "exec time", "wall time"]
    lines = []
    for t in table:
        narrower = f"{base / t['med']:.2f}x narrower" if base and t["design"] != "unpaired" else "-"
        lines.append([
            t["design"],
            f"{t['fa']}/{t['n_aa']} = {_pct(t['fa']/t['n_aa']) if t['n_aa'] else '-'} [{_pct(t['fa_ci'][0])}, {_pct(t['fa_ci'][1])}]",
            f"{t['fa_dec']}/{t['n_aa']}",
            f"{t['cov']}/{t['n_sl']} = {_pct(t['cov']/t['n_sl']) if t['n_sl'] else '-'} [{_pct(t['cov_ci'][0])}, {_pct(t['cov_ci'][1])}]",
            f"{t['power']}/{t['n_sl']} = {_pct(t['power']/t['n_sl']) if t['n_sl'] else '-'} [{_pct(t['pw_ci'][0])}, {_pct(t['pw_ci'][1])}]",
            f"+-{_pct(t['med'])}",
            narrower,
            f"{t['pooled'][0]:.4f} [{t['pooled'][1]:.4f}, {t['pooled'][2]:.4f}]",
            f"{t['exec_s']:.0f} s",
            f"{t['wall_s']:.0f} s",
        ])
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(hdr)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(hdr, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for l in lines:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(l, widths)) + " |")
    print(f"false alarms: A/A campaigns whose {int(conf*100)}% CI (the decision basis: Fieller when "
          "bounded, else the bootstrap) excludes 1.0; [..] = Clopper-Pearson 95% intervals")
    for t in table:
        print(f"  {t['design']}: the bootstrap CI alone excludes 1.0 in {t['fa_boot']}/{t['n_aa']} A/A campaigns, "
              f"covers the true ratio in {t['cov_boot']}/{t['n_sl']} slowdown campaigns")
    true_ratio = wall_true
    print(f"pooled over the slowdown campaigns (geometric mean, 95% t interval), wall time (the figures) "
          f"against the CPU time (user + sys, from wait4) of the same executions; true ratio {true_ratio:.4f}:")
    for d in designs:
        sl = [r for r in rows if r["design"] == d and r["kind"] == "slow" and r["estimate"] and r["cpu_ratio"]]
        if len(sl) < 2:
            continue
        w = tuple(math.exp(x) for x in _mean_ci([math.log(f(r, "estimate")) for r in sl]))
        c = tuple(math.exp(x) for x in _mean_ci([math.log(f(r, "cpu_ratio")) for r in sl]))
        ov = [f(r, "overlap") for r in sl if f(r, "overlap") is not None]
        otext = f"; the candidate ran beside its partner {_pct(statistics.fmean(ov))} of its time" if ov else ""
        print(f"  {d}: wall {w[0]:.4f} [{w[1]:.4f}, {w[2]:.4f}], CPU {c[0]:.4f} [{c[1]:.4f}, {c[2]:.4f}]{otext}")
    # Is an A/A campaign's "same" pair of systems really the same? Its estimates
    # should centre on 1 and its false alarms fall on either side alike; a
    # pooled A/A estimate away from 1 is a real difference between the two
    # systems (the experiment's, not the statistics'), which a precise design
    # calls more often.
    print("the A/A campaigns' estimates pooled (geometric mean, 95% t interval; 1 if the two systems are "
          "the same), and on which side their false alarms fall:")
    for d in designs:
        aa = [r for r in rows if r["design"] == d and r["kind"] == "aa" and r["estimate"]]
        if len(aa) < 2:
            continue
        p = tuple(math.exp(x) for x in _mean_ci([math.log(f(r, "estimate")) for r in aa]))
        below = sum(1 for r in aa if f(r, "ci_hi") is not None and f(r, "ci_hi") < 1.0)
        above = sum(1 for r in aa if f(r, "ci_lo") is not None and f(r, "ci_lo") > 1.0)
        print(f"  {d}: {p[0]:.4f} [{p[1]:.4f}, {p[2]:.4f}]; intervals wholly below 1 (cand faster) {below}, "
              f"wholly above 1 {above}")
    print("the same campaigns analysed WITHOUT pairing (`alea analyze --unpaired`), and the pairing:")
    for d in designs:
        true_ratio = _true_ratio(cal, d)
        aa = [r for r in rows if r["design"] == d and r["kind"] == "aa" and r["up_estimate"]]
        sl = [r for r in rows if r["design"] == d and r["kind"] == "slow" and r["up_estimate"]]
        fa = sum(1 for r in aa if not covers(f(r, "up_ci_lo"), f(r, "up_ci_hi"), 1.0))
        cov = sum(1 for r in sl if covers(f(r, "up_ci_lo"), f(r, "up_ci_hi"), true_ratio))
        pw = sum(1 for r in sl if r["up_decision"] == "slower")
        hw = [f(r, "up_rel_half_width") for r in aa + sl if f(r, "up_rel_half_width") is not None]
        med = statistics.median(hw) if hw else float("nan")
        paired = sum(1 for r in aa + sl if r["paired"] == "True")
        corr = [f(r, "correlation") for r in aa + sl if f(r, "correlation") is not None]
        ctext = f"; median correlation of the build means {statistics.median(corr):+.2f}" if corr else ""
        rep = sum(1 for r in aa + sl if r["report_paired"] == "True")
        src = sum(1 for r in aa + sl if r.get("source") == "report")
        print(f"  {d}: false alarms {fa}/{len(aa)}, coverage {cov}/{len(sl)}, power {pw}/{len(sl)}, "
              f"median half-width +-{_pct(med)}; {paired}/{len(aa) + len(sl)} analyses paired{ctext}; "
              f"`alea report` paired {rep}; figures from `alea report` in {src}, from `alea analyze` in "
              f"{len(aa) + len(sl) - src}")
    print("exec time = sum of the measured execution times (CPU-seconds the benchmark occupied: one CPU per "
          "execution, so duet's two simultaneous executions count twice); wall time = sum of the campaigns' "
          "elapsed times (alea run + report)")


def _true_ratio(cal, design):
    """The true ratio of a design's slowdown campaigns: in sim-cycles for the
    rows of that metric (--metrics sim), else the wall time's."""
    if design.endswith(":sim-cycles") and "true_ratio_sim" in cal:
        return cal["true_ratio_sim"]
    return cal["true_ratio"]


# --------------------------------------------------------------------------
# --metrics sim (issue 20): sim-cycles against wall time on the same campaigns

def cmd_calibrate_sim(out, db, reps, slow_reps):
    """Adds to OUT (calibrate's JSON) the true ratio in sim-cycles, from the
    store DB of run.sh's calibration campaign (every pool binary once under
    cachegrind at 0 (system zero), REPS (base) and SLOW_REPS (cand)
    repetitions): the ratio of the means over the pool."""
    import sqlite3
    reps, slow_reps = int(reps), int(slow_reps)
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    v = {}
    for name, val in con.execute(
            "select s.name, m.value from measurement m join execution e on m.execution_id = e.id "
            "join build b on e.build_id = b.id join system s on b.system_id = s.id "
            "where e.status = 'ok' and m.metric = 'sim-cycles'"):
        v.setdefault(name, []).append(val)
    con.close()
    with open(out) as f:
        res = json.load(f)
    m = {k: statistics.fmean(x) for k, x in v.items()}
    sd = {k: statistics.stdev(x) / statistics.fmean(x) for k, x in v.items() if len(x) > 1}
    res.update({
        "sim_cycles_mean": m,
        "sim_cycles_rel_sd": sd,
        "sim_executions": {k: len(x) for k, x in v.items()},
        "startup_share_sim": m["zero"] / m["base"],
        "true_ratio_sim": m["cand"] / m["base"],
    })
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    print(f"calibration in sim-cycles (an alea campaign: {len(v['base'])} pool binaries, each once under "
          f"cachegrind at 0/{reps}/{slow_reps} repetitions): mean {m['zero']:.6g} / {m['base']:.6g} / {m['cand']:.6g} "
          f"cycles (relative SD over the pool {100*sd.get('zero', 0):.4f}% / {100*sd.get('base', 0):.4f}% / "
          f"{100*sd.get('cand', 0):.4f}%); start-up share {100*res['startup_share_sim']:.3f}%; "
          f"TRUE RATIO (sim-cycles) = {res['true_ratio_sim']:.6f}")


def cmd_timing(cdir, run_seconds):
    """The machine time of one campaign (`alea run`, timed by run.sh), split:
    builds (build_seconds) + native runs (the executions' wall_seconds: the
    wall metric's measurements) are what a wall-only campaign needs; the rest
    (the runs under cachegrind, and alea's own work between executions) is
    charged to the simulated metric."""
    import sqlite3
    con = sqlite3.connect(f"file:{os.path.join(cdir, 'campaign.alea', 'campaign.db')}?mode=ro", uri=True)
    builds = con.execute("select coalesce(sum(build_seconds), 0) from build").fetchone()[0]
    native, n = con.execute(
        "select coalesce(sum(wall_seconds), 0), count(*) from execution where status = 'ok'").fetchone()
    con.close()
    run_seconds = float(run_seconds)
    t = {"run_seconds": run_seconds, "build_seconds": builds, "native_seconds": native,
         "executions": n,
         "wall_seconds": builds + native, "sim_seconds": max(run_seconds - builds - native, 0.0)}
    with open(os.path.join(cdir, "timing.json"), "w") as f:
        json.dump(t, f, indent=1)


def cmd_simtable(run, results, calibration, conf="0.95"):
    """Per metric of the same campaigns: A/A false alarms, +X% called slower,
    coverage, median half-width, machine minutes per campaign, precision per
    machine-minute 1/(half-width[%]^2 x minutes), and sim-cycles / wall."""
    conf = float(conf)
    cal = json.load(open(calibration))
    rows = list(csv.DictReader(open(results)))
    f = lambda r, k: float(r[k]) if r[k] not in ("", None) else None
    designs = []
    for r in rows:
        if r["design"] not in designs:
            designs.append(r["design"])
    out, prec = [], {}
    for d in designs:
        base, _, metric = d.partition(":")
        tr = _true_ratio(cal, d)
        aa = [r for r in rows if r["design"] == d and r["kind"] == "aa" and r["estimate"]]
        sl = [r for r in rows if r["design"] == d and r["kind"] == "slow" and r["estimate"]]
        out_of = lambda lo, hi, x: lo is None or hi is None or not (lo <= x <= hi)
        fa = sum(1 for r in aa if out_of(f(r, "ci_lo"), f(r, "ci_hi"), 1.0))
        slower = sum(1 for r in sl if r["decision"] == "slower")
        cov = sum(1 for r in sl if not out_of(f(r, "ci_lo"), f(r, "ci_hi"), tr))
        hw = [f(r, "rel_half_width") for r in aa + sl if f(r, "rel_half_width") is not None]
        med = statistics.median(hw) if hw else float("nan")
        tims = []
        for r in aa + sl:
            p = os.path.join(run, base, f"{r['kind']}-{int(r['index']):03d}", "timing.json")
            if os.path.exists(p):
                tims.append(json.load(open(p)))
        whole = statistics.fmean(t["run_seconds"] for t in tims) / 60 if tims else float("nan")
        own = statistics.fmean(t[f"{metric}_seconds" if metric == "wall" else "sim_seconds"] for t in tims) / 60 \
            if tims else float("nan")
        p_min = 1 / ((100 * med) ** 2 * own) if own > 0 else float("nan")
        prec[metric] = p_min
        fa_ci, sl_ci, cov_ci = clopper_pearson(fa, len(aa), conf), clopper_pearson(slower, len(sl), conf), \
            clopper_pearson(cov, len(sl), conf)
        pc = lambda x, n, ci: f"{x}/{n} = {_pct(x / n) if n else '-'} [{_pct(ci[0])}, {_pct(ci[1])}]"
        out.append([d, str(len(aa) + len(sl)), pc(fa, len(aa), fa_ci), pc(slower, len(sl), sl_ci),
                    pc(cov, len(sl), cov_ci) + f" of {tr:.6f}", f"+-{100 * med:.3g}%",
                    f"{own:.3g} (whole campaign {whole:.3g})", f"{p_min:.4g}"])
    hdr = ["design:metric", "campaigns", "A/A false alarms", "slowdown called slower", "coverage of the true ratio",
           "median rel. half-width", "machine min per campaign", "precision per machine-min"]
    widths = [max(len(h), *(len(l[i]) for l in out)) for i, h in enumerate(hdr)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(hdr, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for l in out:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(l, widths)) + " |")
    if "sim-cycles" in prec and "wall" in prec:
        print(f"precision per machine-minute, sim-cycles / wall: {prec['sim-cycles'] / prec['wall']:.3g}")
    print("machine minutes: sim-cycles = the `alea run` time minus the builds and the native runs (the runs "
          "under cachegrind and alea's work between executions); wall = the builds (build_seconds) + the "
          "native runs (the executions' wall_seconds); whole campaign = the `alea run` time. Precision per "
          "machine-minute = 1 / (median relative half-width in % squared x machine minutes).")


def _blocks_of(db, column):
    """A paired campaign's blocks in plan order: [(build index, log(cand/base))]
    of COLUMN (an SQL expression over the execution row `e`), two-system
    blocks with both executions ok."""
    import sqlite3
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    q = (f"select p.block, s.name, {column}, b.build_index from execution e join build b on e.build_id = b.id"
         " join system s on b.system_id = s.id join plan p on p.position = e.plan_position"
         " where e.status = 'ok' and p.block is not null")
    blocks = {}
    for block, name, value, build in con.execute(q):
        blocks.setdefault(block, {})[name] = (value, build)
    con.close()
    return [(b["base"][1], math.log(b["cand"][0] / b["base"][0])) for _, b in sorted(blocks.items())
            if "base" in b and "cand" in b and b["base"][0] > 0 and b["cand"][0] > 0]


def cmd_blocks(run, design, kind="aa"):
    """Are a paired campaign's block differences independent, as the paired
    analysis assumes (its unit is the build pair: the mean of the pair's
    blocks)? Over the A/A campaigns of DESIGN: the correlation of neighbouring
    blocks' differences log(cand/base) in plan order, and the false alarms of
    t-tests on the same campaigns: over the build pairs' means (the analysis'
    unit; Fieller's at a ratio of 1 is this test on differences), over all
    blocks, and over every third block (blocks 0, 3, 6, ..., then 1, 4, 7,
    ..., then 2, 5, 8, ...: no two neighbours, and the systems' order still
    alternating, so that a place-in-block effect cancels as in all blocks).
    Wall time and CPU time (user + sys) of the same executions."""
    import glob
    dbs = sorted(glob.glob(os.path.join(run, design, f"{kind}-*", "campaign.alea", "campaign.db")))
    print(f"{design}: the block differences log(cand/base) of {len(dbs)} {kind} campaigns, in plan order")
    for label, column in (("wall", "e.wall_seconds"), ("CPU", "e.user_seconds + e.sys_seconds")):
        lag = {1: [0.0, 0], 2: [0.0, 0], 3: [0.0, 0]}
        var = [0.0, 0]
        tests = {"build-pair means": [0, 0], "build pairs, neighbours counted": [0, 0], "all blocks": [0, 0],
                 "every third block": [0, 0]}
        lengths = []
        for db in dbs:
            blocks = _blocks_of(db, column)
            if len(blocks) < 6:
                continue
            d = [x for _, x in blocks]
            lengths.append(len(d))
            m = statistics.fmean(d)
            e = [x - m for x in d]
            var[0] += sum(x * x for x in e)
            var[1] += len(e)
            for k in lag:
                for i in range(len(e) - k):
                    lag[k][0] += e[i] * e[i + k]
                    lag[k][1] += 1
            pairs = {}
            for build, x in blocks:
                pairs.setdefault(build, []).append(x)
            means = [statistics.fmean(v) for v in pairs.values()]
            groups = [("build-pair means", means),
                      ("all blocks", d)] + [("every third block", d[r::3]) for r in range(3)]
            # The same test with the variance the paired analysis uses since
            # issue 19 (docs/statistics.md "Neighbouring blocks", here on the
            # log scale at a ratio of 1): it also counts the covariance of
            # neighbouring blocks of different pairs, never below the
            # independent pairs' variance.
            if len(means) >= 3 and all(len(v) == len(d) // len(means) for v in pairs.values()):
                p_, e_ = len(means), len(d) // len(means)
                naive = statistics.variance(means) / p_
                cross = sum(e[i] * e[i + 1] for i in range(len(e) - 1) if blocks[i][0] != blocks[i + 1][0])
                v = max(naive, naive + 2 * cross / (p_ * p_ * e_ * e_))
                t = abs(statistics.fmean(means)) / math.sqrt(v) if v > 0 else 0
                tests["build pairs, neighbours counted"][0] += t > t_quantile(0.975, p_ - 1)
                tests["build pairs, neighbours counted"][1] += 1
            for name, g in groups:
                if len(g) < 3 or statistics.stdev(g) == 0:
                    continue
                t = statistics.fmean(g) / (statistics.stdev(g) / math.sqrt(len(g)))
                tests[name][0] += abs(t) > t_quantile(0.975, len(g) - 1)
                tests[name][1] += 1
        if not lengths:
            print(f"  {label}: no paired campaign")
            continue
        # Centring each campaign on its own mean biases every lag's
        # correlation by about -1/(n - 1); the figures add it back.
        bias = 1 / (statistics.median(lengths) - 1)
        corr = ", ".join(f"lag {k} {lag[k][0] / lag[k][1] / (var[0] / var[1]) + bias:+.3f}" for k in lag)
        rates = "; ".join(f"{name} {x}/{n} = {_pct(x / n)} [{_pct(clopper_pearson(x, n)[0])}, "
                          f"{_pct(clopper_pearson(x, n)[1])}]" for name, (x, n) in tests.items() if n)
        print(f"  {label}: correlation of neighbouring blocks' differences {corr}")
        print(f"  {label}: t-tests excluding a ratio of 1 at 95%: {rates}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    {"pick": cmd_pick, "calibrate": cmd_calibrate, "row": cmd_row, "header": cmd_header,
     "summary": cmd_summary, "calibrate-sim": cmd_calibrate_sim, "timing": cmd_timing,
     "simtable": cmd_simtable, "blocks": cmd_blocks, "cp": lambda x, n: print(*clopper_pearson(int(x), int(n)))}[cmd](*args)


if __name__ == "__main__":
    main()
