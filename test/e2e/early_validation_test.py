#!/usr/bin/env python3
"""`alea run` checks a campaign before the first build (reliability issue,
item 10): a placeholder typo, an artifact that not every system lists, a
missing stdin file, working directory or input, a benchmark env typo and a CPU
this process cannot run on are each ONE line
`alea: error: FILE:LINE:COLUMN: <expectation>` with exit status 1, and nothing
runs: no campaign directory (so no builds/ and no store) and no build command
(each leaves a marker file when it runs). The same campaign without the
mistake does build and run, which shows that the markers would be there.

Usage: early_validation_test.py BUILD_DIR SOURCE_DIR"""
import glob
import os
import subprocess
import sys
import tempfile

from e2e_common import check, finish


# Every build leaves built-<system> next to the campaign file.
BASE = """[campaign]
seed = 3
timeout = 30
[levels]
builds = 1
executions = 1
[[system]]
name = "base"
baseline = true
shell = "touch {source_dir}/built-{system} && cp /bin/true prog"
artifacts = ["prog"]
[[system]]
name = "cand"
shell = "touch {source_dir}/built-{system} && cp /bin/true prog"
artifacts = ["prog"]
[[benchmark]]
name = "b"
command = ["{artifact:prog}", "x"]
"""

BENCHMARK_KEYS = ("{source_dir}, {build_dir}, {campaign_dir}, {system}, {benchmark}, "
                  "{build_index}, {execution_index}, {iterations}, {artifact:prog}")


def last_replaced(text, old, new):
    at = text.rindex(old)
    return text[:at] + new + text[at + len(old):]


def cpu_ranges(cpus):
    """"0-3,6", as the kernel and alea list CPU sets."""
    out, cpus = [], sorted(cpus)
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else f"{cpus[i]}-{cpus[j]}")
        i = j + 1
    return ",".join(out)


def cases(case_dir):
    """(name, campaign text, expected error after "FILE:")."""
    return [
        ("benchmark placeholder typo",
         BASE.replace("{artifact:prog}", "{artifcat:prog}"),
         "18:12: unknown placeholder {artifcat:prog} in benchmark 'b'.command (did you mean "
         "{artifact:prog}?); expected one of " + BENCHMARK_KEYS),
        ("build placeholder typo",
         last_replaced(BASE, "cp /bin/true prog", "cp /bin/true {biuld_dir}/prog"),
         "14:9: unknown placeholder {biuld_dir} in system 'cand'.shell (did you mean "
         "{build_dir}?); expected one of {source_dir}, {build_dir}, {campaign_dir}, {system}, "
         "{build_index}, {seed}"),
        ("artifact of one system only",
         BASE.replace('artifacts = ["prog"]', 'artifacts = ["prog", "extra"]', 1)
             .replace("{artifact:prog}", "{artifact:extra}"),
         "18:12: expected {artifact:extra} in benchmark 'b'.command to name an artifact of "
         "every system (the benchmark runs on the builds of each); system 'cand' has "
         'artifacts = ["prog"]'),
        ("benchmark env typo",
         BASE + 'env = { N = "{iteration}" }\n',
         "19:13: unknown placeholder {iteration} in benchmark 'b'.env.N (did you mean "
         "{iterations}?); expected one of " + BENCHMARK_KEYS),
        ("missing stdin file",
         BASE + 'stdin = "input.txt"\n',
         f"19:9: expected an existing file for benchmark 'b'.stdin: "
         f"'{case_dir}/input.txt' does not exist"),
        ("missing working directory of one system",
         BASE + 'workdir = "{source_dir}/run/{system}"\n',
         f"19:11: expected an existing directory for benchmark 'b'.workdir: "
         f"'{case_dir}/run/cand' does not exist"),
        ("missing input",
         BASE + 'inputs = ["data.txt"]\n',
         f"19:11: expected an existing input file for benchmark 'b': "
         f"'{case_dir}/data.txt' does not exist"),
        # The parser takes CPU numbers up to 4095; alea pins with a cpu_set_t
        # (1024 CPUs), so 4095 is never one this process can run on.
        ("CPU this process cannot run on",
         BASE.replace("timeout = 30\n", "timeout = 30\ncpus = [4095]\n"),
         "4:9: expected a CPU this process can run on in campaign.cpus: CPU 4095 is offline or "
         f"outside its affinity mask (available: {cpu_ranges(os.sched_getaffinity(0))})"),
    ]


def main():
    alea = os.path.join(sys.argv[1], "bin", "alea")
    with tempfile.TemporaryDirectory(prefix="alea-early-") as tmp:
        for i, (name, text, expected) in enumerate(cases(os.path.join(tmp, "case"))):
            case_dir = os.path.join(tmp, "case")
            os.makedirs(os.path.join(case_dir, "run", "base"))  # not run/cand
            path = os.path.join(case_dir, "c.toml")
            with open(path, "w") as f:
                f.write(text)
            r = subprocess.run([alea, "run", path, "--no-report"], capture_output=True,
                               text=True, timeout=120)
            check(r.returncode == 1, f"{name}: exit {r.returncode}: {r.stderr}")
            check(r.stderr == f"alea: error: {path}:{expected}\n",
                  f"{name}: stderr {r.stderr!r}, expected ...{expected!r}")
            check(not os.path.exists(os.path.join(case_dir, "c.alea")),
                  f"{name}: a campaign directory was created")
            built = glob.glob(os.path.join(case_dir, "built-*"))
            check(not built, f"{name}: builds ran: {built}")
            subprocess.run(["rm", "-rf", case_dir], check=True)

        # The same campaign without a mistake builds and runs (the markers
        # appear), with values that only the run can check ({build_dir}).
        case_dir = os.path.join(tmp, "good")
        os.makedirs(case_dir)
        with open(os.path.join(case_dir, "input.txt"), "w") as f:
            f.write("42\n")
        path = os.path.join(case_dir, "c.toml")
        with open(path, "w") as f:
            f.write(BASE + 'workdir = "{build_dir}"\nstdin = "input.txt"\n'
                    'inputs = ["input.txt"]\n')
        r = subprocess.run([alea, "run", path, "--no-report"], capture_output=True, text=True,
                           timeout=120)
        check(r.returncode == 0, f"good campaign: exit {r.returncode}: {r.stderr}")
        check("2 of 2 executions recorded (0 failed)" in r.stderr, f"good campaign: {r.stderr}")
        check(sorted(os.path.basename(p) for p in glob.glob(os.path.join(case_dir, "built-*")))
              == ["built-base", "built-cand"], "good campaign: the builds left no markers")
    finish("every bad campaign file refused before any build, with its file:line:column")


if __name__ == "__main__":
    main()
