#!/usr/bin/env python3
"""Where a randomized build's compile time goes (issue 23, item 3): for every
C file of a source directory, the CPU time (user + system of the child
processes) of
  total      clang-19 -O2 -c                   (what a plain build costs)
  front+opt  clang-19 -O2 -c -emit-llvm        (preprocessing, front end, the
                                                whole -O2 optimizer: no code
                                                generation)
  codegen    llc-19 -O2 -filetype=obj on that bitcode (code generation alone)
  alea       alea-cc -O2 -c with ALEA_SEED set (every factor: the layout passes,
                                                which run at the end of the
                                                optimizer, OptimizerLastEP)
each repeated `--repeat` times (the minimum kept), summed over the files, and
the shares. Not a test: the figures depend on the machine. The passes run
after the optimizer, so everything up to them is the same for every seed; what
a per-file cache of the optimized IR could save is the front+opt share.

Usage: phases.py BUILD_DIR SOURCE_DIR [--repeat N] [-I DIR ...]"""
import argparse
import glob
import os
import resource
import subprocess
import sys
import tempfile


def cpu_of(args, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("source")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("-I", dest="includes", action="append", default=[])
    a = ap.parse_args()
    alea_cc = os.path.join(a.build, "bin", "alea-cc")
    files = sorted(glob.glob(os.path.join(a.source, "*.c")))
    if not files:
        sys.exit(f"no C files in {a.source}")
    inc = [f"-I{d}" for d in a.includes + [a.source]]
    totals = {"total": 0.0, "front+opt": 0.0, "codegen": 0.0, "alea": 0.0}
    env = dict(os.environ, ALEA_SEED="0x2a")
    with tempfile.TemporaryDirectory(prefix="alea-phases-") as tmp:
        obj, bc = os.path.join(tmp, "x.o"), os.path.join(tmp, "x.bc")
        for f in files:
            best = {k: float("inf") for k in totals}
            for _ in range(a.repeat):
                best["total"] = min(best["total"], cpu_of(
                    ["clang-19", "-O2", *inc, "-c", f, "-o", obj]))
                best["front+opt"] = min(best["front+opt"], cpu_of(
                    ["clang-19", "-O2", *inc, "-c", "-emit-llvm", f, "-o", bc]))
                best["codegen"] = min(best["codegen"], cpu_of(
                    ["llc-19", "-O2", "-filetype=obj", bc, "-o", obj]))
                best["alea"] = min(best["alea"], cpu_of(
                    [alea_cc, "-O2", *inc, "-c", f, "-o", obj], env))
            for k in totals:
                totals[k] += best[k]
    t = totals
    print(f"{len(files)} files of {a.source}, CPU seconds (minimum of {a.repeat}):")
    print(f"  clang -O2 -c           {t['total']:7.2f} s")
    print(f"  front end + optimizer  {t['front+opt']:7.2f} s  ({t['front+opt'] / t['total']:.0%} of it)")
    print(f"  code generation (llc)  {t['codegen']:7.2f} s  ({t['codegen'] / t['total']:.0%} of it)")
    print(f"  alea-cc, seeded        {t['alea']:7.2f} s  ({t['alea'] / t['total']:.2f}x plain clang)")
    # A build that reuses the optimized IR still runs the layout passes and
    # code generation: at least llc's time (which also reads the bitcode).
    print(f"  left per build with a cache of the optimized IR: about {t['codegen']:.2f} s of code "
          f"generation ({t['codegen'] / t['alea']:.2f}x an uncached alea-cc compile; the "
          f"subtraction alea - front+opt gives {(t['alea'] - t['front+opt']) / t['alea']:.2f}x)")


if __name__ == "__main__":
    main()
