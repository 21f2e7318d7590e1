#!/usr/bin/env python3
"""`alea compare A B` on a real git repository the test makes: a small C
program with two kernels, k1 and k2, whose second commit makes k1 do 20% more
work. The program prints its work (the regex source reads it), not a time, so
the decisions are the same on any machine: the environment padding alea
draws per execution moves the value by under 0.3%, the same for both builds
of a pair (they share their seed).

  compare HEAD~1 HEAD --fail-on slower   exits 5; the Markdown names k1 slower
                                         and k2 no change
  the same command again                 resumes (nothing run twice), exits 5
  compare HEAD HEAD --fail-on change     exits 0
  compare DIR_A DIR_B                    directories work as revisions do
  from a subdirectory                    the whole revision is exported
  an alea.toml with a [compare] table    stands in for --build, --run, ...
  ./bench, made by the build             the builds' artifact: layouts checked
                                         (CC=cc ignores alea-cc: "identical
                                         layouts ... did not take")
  the user's repository                  untouched: git status, HEAD, the
                                         worktree list and the stash identical

Usage: compare_test.py BUILD_DIR SOURCE_DIR"""
import os
import re
import sys
import tempfile

from e2e_common import alea, check, finish, run, write
from git_fixture import COMMANDS, MAKEFILE, PROGRAM, git, make_repo

def repo_state(repo):
    return [git(repo, "status", "--porcelain", "--ignored"), git(repo, "rev-parse", "HEAD"),
            git(repo, "worktree", "list", "--porcelain"), git(repo, "stash", "list")]


def row(markdown, benchmark):
    """The comparison's row of the benchmark's table in the Markdown report."""
    section = markdown.split(f"### {benchmark}\n", 1)[-1]
    m = re.search(r"^\| HEAD vs HEAD-1 \|.*\|$", section, re.M)
    return m.group(0) if m else ""


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-compare-") as tmp:
        repo = os.path.join(tmp, "repo")
        make_repo(repo)
        write(os.path.join(repo, "notes.txt"), "an untracked file of the user's\n")
        write(os.path.join(repo, "bench.c"), PROGRAM.replace("K1 1000", "K1 1200"))
        git(repo, "commit", "-q", "-am", "k1 does 20% more work")
        write(os.path.join(repo, "Makefile"), "bench: bench.c\n\t$(CC) -O2 -o bench bench.c\n# edited\n")
        before = repo_state(repo)

        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        common = [*COMMANDS, "--builds", "3", "--executions", "2"]
        compare = [exe, "compare", "HEAD~1", "HEAD", *common, "--fail-on", "slower",
                   "--format", "md"]
        r = run(compare, cwd=repo, env=env)
        check(r.returncode == 5, f"HEAD~1 HEAD --fail-on slower: exit {r.returncode}, expected 5: "
              f"{r.stderr}")
        check(re.search(r"\| 1\.200 \| 20\.0% slower \|.*\| slower \|$", row(r.stdout, "k1")),
              f"k1 is not named slower: {row(r.stdout, 'k1')!r}\n{r.stdout}")
        check(re.search(r"\| 1\.000 \| no change \|.*\| no change \|$", row(r.stdout, "k2")),
              f"k2 is not named no change: {row(r.stdout, 'k2')!r}")
        check("alea:   k1: HEAD vs HEAD-1 slower (ratio 1.200)" in r.stderr,
              f"the gate does not name k1: {r.stderr}")
        check("k2: HEAD" not in r.stderr, f"the gate names k2: {r.stderr}")
        # ./bench, which the build makes, is the builds' artifact: their
        # layouts are fingerprinted and checked (randomized; two functions
        # may coincide, which the report calls expected for so small a
        # program).
        check("layouts not checked" not in r.stdout and "did not take" not in r.stdout,
              f"the builds' layouts were not checked:\n{r.stdout}")

        # A build that ignores $CC is not randomized: the report says so.
        plain = run([exe, "compare", "HEAD~1", "HEAD", "--build", "make CC=cc",
                     *COMMANDS[2:], "--builds", "3", "--executions", "1", "--dir",
                     os.path.join(tmp, "plain-cc")], cwd=repo, env=env)
        check(re.search(r"identical layouts: builds 0, 1, [0-9, and]+ of HEAD have the same "
                        r"layout fingerprint; the binary carries no alea note: the "
                        r"randomization did not take", plain.stdout),
              f"a build with CC=cc is not named unrandomized: {plain.returncode}\n{plain.stdout}"
              f"\n{plain.stderr}")

        again = run(compare, cwd=repo, env=env)
        check(again.returncode == 5, f"rerun: exit {again.returncode}: {again.stderr}")
        m = re.search(r"resuming: (\d+) of (\d+) executions already done", again.stderr)
        check(m is not None and m.group(1) == m.group(2),
              f"the same command again does not resume the finished comparison: {again.stderr}")
        check("building" not in again.stderr, f"the rerun built again: {again.stderr}")

        same = run([exe, "compare", "HEAD", "HEAD", *common, "--fail-on", "change"], cwd=repo,
                   env=env)
        check(same.returncode == 0, f"HEAD HEAD --fail-on change: exit {same.returncode}: "
              f"{same.stderr}")
        check("HEAD-b vs HEAD-a: 1.000 (no change)" in same.stdout,
              f"HEAD vs HEAD is not no change: {same.stdout}")

        # From a subdirectory (git archive there would export it alone): the
        # whole revision is exported and built.
        sub = os.path.join(repo, "tools", "deep")
        os.makedirs(sub)
        r = run([exe, "compare", "HEAD~1", "HEAD", *common, "--fail-on", "slower", "--dir",
                 os.path.join(tmp, "from-sub")], cwd=sub, env=env)
        check(r.returncode == 5 and "k1: HEAD vs HEAD-1 slower" in r.stderr,
              f"from a subdirectory: exit {r.returncode}: {r.stderr}")
        os.removedirs(sub)

        check(repo_state(repo) == before, "the user's repository changed: "
              f"{before!r} -> {repo_state(repo)!r}")

        # The [compare] table of the repository's alea.toml stands in for the
        # flags: the same comparison as the first (so it resumes it).
        write(os.path.join(repo, "alea.toml"),
              "[compare]\nbuild = 'make'\nmeasure = 'regex:work ([0-9.]+)'\nbuilds = 3\n"
              "executions = 2\nrun = ['k1=./bench k1', 'k2=./bench k2']\n")
        r = run([exe, "compare", "HEAD~1", "HEAD", "--fail-on", "slower"], cwd=repo, env=env)
        check(r.returncode == 5 and "commands from " + os.path.join(repo, "alea.toml") in r.stderr
              and "k1: HEAD vs HEAD-1 slower" in r.stderr,
              f"compare with the [compare] table: exit {r.returncode}: {r.stderr}")
        check("building" not in r.stderr, "the table's comparison is not the flags' one: "
              f"{r.stderr}")
        os.remove(os.path.join(repo, "alea.toml"))

        # Directories: the two versions' files, outside any repository.
        dirs = []
        for name, k1 in (("old", "1000"), ("new", "1200")):
            d = os.path.join(tmp, name)
            os.mkdir(d)
            write(os.path.join(d, "bench.c"), PROGRAM.replace("K1 1000", "K1 " + k1))
            write(os.path.join(d, "Makefile"), MAKEFILE)
            dirs.append(d)
        r = run([exe, "compare", *dirs, *common, "--fail-on", "slower", "--dir",
                 os.path.join(tmp, "dirs")], cwd=tmp, env=env)
        check(r.returncode == 5, f"compare old new --fail-on slower: exit {r.returncode}: "
              f"{r.stderr}")
        check("k1: new vs old slower (ratio 1.200)" in r.stderr, f"directories: {r.stderr}")
        check(not os.path.exists(os.path.join(dirs[0], "bench")),
              "a build wrote into the user's directory")

        r = run([exe, "compare", "HEAD~9", "HEAD", *common], cwd=repo, env=env)
        check(r.returncode == 1 and "'HEAD~9' is neither a directory nor a revision" in r.stderr,
              f"an unknown revision: exit {r.returncode}: {r.stderr}")
    finish("compare HEAD~1 HEAD names the slower kernel and exits 5, resumes, HEAD HEAD exits 0, "
           "directories work, the repository is untouched")


if __name__ == "__main__":
    main()
