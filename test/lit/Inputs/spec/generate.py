# Writes the SPEC CPU 2017 runcpu result CSVs of this directory, the inputs of
# test/lit/cli/import-spec.test: 2 systems (clang, a stock clang-19, and
# patched, a patched one, both through alea-cc; labels <system>-s<seed>, 3
# seeds each), intrate (3 iterations) and fprate (2 iterations, a
# non-reportable run: "Est." columns), base and peak, patched 3% faster, each
# build with its own layout effect; patched seed 1 has one iteration that
# failed verification (status VE). SPEC CPU cannot be redistributed, so these files
# are written from the format's description, not by runcpu: the sections,
# columns and status codes of SPEC's docs/result-fields.html and of the result
# CSVs published on spec.org ("Full Results Table": one line per benchmark and
# iteration, base and peak columns, Description "refrate(ref) iteration #N";
# "Selected Results Table"; the SPECrate metric lines); CRLF line ends, which
# the reader must take as well as LF. Run it again to regenerate (deterministic).
import os
import random
out = os.path.dirname(os.path.abspath(__file__))
INT = [("500.perlbench_r", 1591, 300.0), ("505.mcf_r", 1616, 400.0), ("557.xz_r", 1080, 350.0)]
FP = [("519.lbm_r", 1054, 200.0), ("544.nab_r", 1683, 320.0)]
def fmt(x): return ("%.6f" % x).rstrip("0").rstrip(".")
def write(path, title, metric, benches, system, seed, iters, peak, est, broken=None):
    rng = random.Random(f"{system}-{seed}-{title}")
    speed = 1.0 if system == "clang" else 0.97        # patched 3% faster
    layout = {b: rng.gauss(1.0, 0.01) for b, _, _ in benches}  # this build's layout effect
    e = "Est. " if est else ""
    lines = ["valid,%d" % (0 if est else 1), f'"SPEC CPU(R)2017 {title} Result"',
             '"Copyright 2017-2024 Standard Performance Evaluation Corporation"',
             '"Hardware Vendor:","Example"', '"Test Sponsor:","alea tests"',
             f'"{e}SPECrate(R)2017_{metric}_base",', "", '"Full Results Table"', "",
             f'Benchmark,"Base # Copies","{e}Base Run Time","{e}Base Rate","Base Selected","Base Status",'
             f'"Peak # Copies","{e}Peak Run Time","{e}Peak Rate","Peak Selected","Peak Status",Description']
    for tune in (["base", "peak"] if peak else ["base"]):
        for b, ref, t0 in benches:
            times = [t0 * speed * layout[b] * (0.97 if tune == "peak" else 1.0) * rng.gauss(1.0, 0.003)
                     for _ in range(iters)]
            med = sorted(times)[len(times) // 2]
            for i, t in enumerate(times):
                status = "S"
                if broken and broken == (tune, b, i):
                    status = "VE"
                cells = [b, "1", fmt(t), fmt(ref / t), "1" if t == med else "0", status]
                empty = ["", "", "", "", "NR" if not peak else ""]
                row = cells + empty if tune == "base" else [b] + ["", "", "", "", ""] + cells[1:]
                lines.append(",".join(row) + f',"refrate(ref) iteration #{i + 1}"')
    lines += ["", '"Selected Results Table"', "",
              f'Benchmark,"Base # Copies","{e}Base Run Time","{e}Base Rate","Base Selected","Base Status",'
              f'"Peak # Copies","{e}Peak Run Time","{e}Peak Rate","Peak Selected","Peak Status",Description']
    for b, ref, t0 in benches:
        lines.append(f'{b},1,{fmt(t0)},{fmt(ref / t0)},1,S,,,,,NR,"SelectedIteration (base #2; peak NR)"')
    lines += [f"SPECrate(R)2017_{metric}_base,4.2", f'SPECrate(R)2017_{metric}_peak,"Not Run"', "",
              '"Base Compiler Invocation"', f'"C benchmarks","{system} (through alea-cc, ALEA_SEED={seed})"', ""]
    open(path, "w", newline="").write("\r\n".join(lines) + "\r\n")
for system in ("clang", "patched"):
    for seed in range(3):
        broken = ("base", "505.mcf_r", 2) if (system, seed) == ("patched", 1) else None
        write(f"{out}/{system}-s{seed}.intrate.csv", "Integer Rate", "int", INT, system, seed, 3, True,
              est=False, broken=broken)
        write(f"{out}/{system}-s{seed}.fprate.csv", "Floating Point Rate", "fp", FP, system, seed, 2, True,
              est=True)
