#!/usr/bin/env bash
# Byte-identity check of alea's rendered results across a refactoring (issue 22):
# `make` records five small campaign stores (local unpaired, paired interleaved, on an
# SSH target, imported, a duet with failures) and a long-form CSV, and renders `alea report` of each store and
# `alea analyze` of the CSV in every format (FORMATS below) into REF_DIR/expected;
# `check` renders the same outputs from the same stores with another build and diffs them
# against REF_DIR/expected, one line per output, exiting 1 on any difference. The stores
# are made once and kept, so the check compares renderings, not measurements (which vary
# from run to run). Bootstrap threads are pinned (--threads 2): the results do not depend
# on them today (1, 2 and all cores render the same bytes), and the pin keeps a change
# that made them depend from passing on one machine and failing on another.
#
#   scripts/report_identity.sh make  REF_DIR BUILD_DIR   # REF_DIR must not exist yet
#   scripts/report_identity.sh check REF_DIR BUILD_DIR
#
# `make` needs the source tree this script sits in (ALEA_SOURCE_DIR overrides it) for the
# SSH fixture of the e2e tests (test/e2e/targets_fixture.py: its own sshd on a free
# localhost port, started and stopped here, under REF_DIR/make/sshd); `check` needs only
# REF_DIR.
set -euo pipefail

usage() {
  echo "usage: $0 make|check REF_DIR BUILD_DIR" >&2
  exit 2
}
(($# == 3)) || usage
MODE=$1
REF=$(realpath -m "$2")
BUILD=$(realpath -m "$3")
ALEA=$BUILD/bin/alea
[[ -x $ALEA ]] || { echo "report_identity: no $ALEA" >&2; exit 2; }

STORES=(local paired ssh imported duet)
THREADS=(--threads 2)
# Every format both commands render (the issue asks for json and html; the others cost
# nothing and see the text renderers' share of a refactoring too).
FORMATS=(json html md text csv latex)

# Renders one output: `render_one FILE COMMAND...` writes COMMAND's standard output to
# FILE; its standard error (the analysis notes) is shown only if it fails.
render_one() {
  local file=$1 err
  shift
  err=$("$@" 2>&1 >"$file") && return 0
  echo "$(basename "$file"): '$*' failed: $err" >&2
  return 1
}

# Renders every output into directory $1, from the stores and CSV under REF_DIR. The
# stores are read in place, because the outputs name their paths: `alea report` only
# reads them (`check` verifies that they are unchanged afterwards).
render() {
  local out=$1 s f status=0
  mkdir -p "$out"
  for s in "${STORES[@]}"; do
    for f in "${FORMATS[@]}"; do
      render_one "$out/report-$s.$f" "$ALEA" report "$REF/stores/$s.alea" --format $f \
        "${THREADS[@]}" || status=1
    done
  done
  for f in "${FORMATS[@]}"; do
    render_one "$out/analyze.$f" "$ALEA" analyze "$REF/analyze.csv" --format $f \
      "${THREADS[@]}" || status=1
  done
  return $status
}

# A digest of every file under the stores, to show that rendering changed none of them;
# not of SQLite's shared-memory index (-shm), which every reader of a WAL database may
# rewrite.
stores_digest() {
  (cd "$REF/stores" && find . -type f ! -name '*-shm' -print0 | sort -z | xargs -0 sha256sum)
}

# Prints one line per output of $2 against $1; returns 1 if any differs or is missing.
compare() {
  local expected=$1 actual=$2 f name status=0
  for f in "$expected"/*; do
    name=$(basename "$f")
    if [[ ! -f $actual/$name ]]; then
      echo "$name: MISSING"
      status=1
    elif cmp -s "$f" "$actual/$name"; then
      echo "$name: identical"
    else
      echo "$name: DIFFERS"
      diff -u "$f" "$actual/$name" | head -n 20 | cut -c1-200 | sed 's/^/    /'
      status=1
    fi
  done
  return $status
}

# The tiny program every run campaign builds with alea-cc: a loop whose length the
# benchmark command chooses, exiting with the status its second argument names.
PROGRAM='#include <stdio.h>
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static unsigned long work(unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; ++i) s += i * i ^ (s >> 3);
  return s;
}
int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 200000;
  sink = work(n);
  return argc > 2 ? atoi(argv[2]) : 0;
}'

# campaign NAME DESIGN [GUARD [BENCH ARGS]]: a two-system, two-benchmark campaign file on
# stdout. GUARD, a shell test, runs before cand's build (a failing one fails that build);
# the second benchmark, BENCH (default long), runs prog with ARGS (default "300000").
campaign() {
  local guard=${3:+$3 && } bench=${4:-long} args=${5:-'"300000"'}
  cat <<EOF
[campaign]
name = "$1"
seed = 22
design = "$2"
[levels]
builds = 3
executions = 2
[[system]]
name = "base"
baseline = true
build = ["sh", "-c", "\$CC -O2 -o prog {source_dir}/prog.c"]
artifacts = ["prog"]
[[system]]
name = "cand"
build = ["sh", "-c", "$guard\$CC -O1 -o prog {source_dir}/prog.c"]
artifacts = ["prog"]
[[benchmark]]
name = "short"
command = ["{artifact:prog}", "100000"]
[[benchmark]]
name = "$bench"
command = ["{artifact:prog}", $args]
EOF
}

make_refs() {
  [[ ! -e $REF ]] || { echo "report_identity: $REF exists; remove it first" >&2; exit 2; }
  local src=${ALEA_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
  local work=$REF/make
  mkdir -p "$work" "$REF/stores"
  printf '%s\n' "$PROGRAM" >"$work/prog.c"

  # (a) local, unpaired; (b) local, paired (interleaved, the default design).
  campaign local unpaired >"$work/local.toml"
  campaign paired interleaved >"$work/paired.toml"
  "$ALEA" run "$work/local.toml" --dir "$REF/stores/local.alea" --no-report
  "$ALEA" run "$work/paired.toml" --dir "$REF/stores/paired.alea" --no-report
  # (e) a duet with what can go wrong: a benchmark whose every execution fails (exit 3),
  # cand's build 1 failing (its executions fail as "build"), and the duet's
  # synchronisation (restarts of whole-process executions).
  campaign duet duet 'test {build_index} != 1' fails '"100000", "3"' >"$work/duet.toml"
  "$ALEA" run "$work/duet.toml" --dir "$REF/stores/duet.alea" --no-report || true

  # (c) executed on an SSH target: the e2e tests' sshd fixture, started and stopped here.
  campaign ssh interleaved >"$work/ssh.toml"
  python3 - "$src/test/e2e" "$work" "$ALEA" "$REF/stores/ssh.alea" <<'PY'
import json, os, subprocess, sys
sys.path.insert(0, sys.argv[1])
from targets_fixture import SshServer
work, alea, store = sys.argv[2:5]
with SshServer(os.path.join(work, "sshd")) as ssh:
    host = ssh.hosts[0]
    opts = ", ".join(json.dumps(o) for o in ssh.ssh_options)
    with open(os.path.join(work, "ssh.toml"), "a") as f:
        f.write(f'[[target]]\nname = "{host}"\nssh = "{host}"\n'
                f'ssh_options = [{opts}]\nworkdir = "{work}/remote"\n')
    subprocess.run([alea, "run", os.path.join(work, "ssh.toml"), "--dir", store, "--no-report"],
                   check=True)
PY

  # (d) imported: a long-form CSV with fixed values (three levels, two systems, two
  # benchmarks), made by a formula so that it needs no run.
  python3 - "$work/import.csv" <<'PY'
import sys
rows = ["system,benchmark,build,execution,iteration,value"]
for s, scale in (("old", 1.0), ("new", 0.97)):
    for bi, bench in enumerate(("parse", "emit")):
        for b in range(4):
            for e in range(3):
                for i in range(3):
                    v = scale * (1.5 + bi) * (1 + 0.013 * ((b * 7 + e * 3 + i) % 5)
                                              + 0.004 * ((b * 5 + 1) % 3))
                    rows.append(f"{s},{bench},{b},{e},{i},{v:.6f}")
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
  "$ALEA" import "$work/import.csv" -o "$REF/stores/imported.alea"

  # The CSV for `alea analyze`: the paired campaign's export, whose settings line makes
  # the analysis paired.
  "$ALEA" export "$REF/stores/paired.alea" -o "$REF/analyze.csv"

  render "$REF/expected"
  # Deterministic references: a second rendering with the same binary is identical.
  rm -rf "$work/again"
  render "$work/again"
  if ! compare "$REF/expected" "$work/again" >"$work/again.log"; then
    cat "$work/again.log"
    echo "report_identity: two renderings with the same binary differ" >&2
    exit 1
  fi
  stores_digest >"$REF/stores.sha256"
  echo "report_identity: references in $REF/expected ($(ls "$REF/expected" | wc -l) outputs)"
}

check_refs() {
  [[ -d $REF/expected ]] || { echo "report_identity: no $REF/expected" >&2; exit 2; }
  local status=0
  OUT=$(mktemp -d "${TMPDIR:-/tmp}/report-identity.XXXXXX")
  trap 'rm -rf "$OUT"' EXIT
  local out=$OUT
  render "$out" || status=1
  compare "$REF/expected" "$out" || status=1
  if ! stores_digest | cmp -s - "$REF/stores.sha256"; then
    echo "stores: CHANGED by rendering (restore them from a copy; the references need them)"
    status=1
  fi
  if ((status)); then echo "report_identity: DIFFERENCES"; else echo "report_identity: all identical"; fi
  return $status
}

case $MODE in
make) make_refs ;;
check) check_refs ;;
*) usage ;;
esac
