#!/usr/bin/env bash
# `alea compare --cmd` beside hyperfine on the same two commands (docs/compare.md,
# "Beside hyperfine"): gzip -1 and gzip -9 of the same 1.5 MB text, 30 runs each,
# wall time in both tools, then alea with --measure cpu. Prints both tools'
# verdicts one under the other, and the machine's load. Not a test: the figures
# depend on the machine and its load. Usage: run.sh [BUILD_DIR]
set -euo pipefail
build=$(cd "${1:-$(dirname "$0")/../../build}" && pwd)
command -v hyperfine >/dev/null || { echo "no hyperfine (scripts/setup.sh installs it)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 - <<'PY'
import random
r = random.Random(1)
words = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(2, 9)))
         for _ in range(2000)]
with open("data.txt", "w") as f:
    for _ in range(20000):
        f.write(" ".join(r.choice(words) for _ in range(12)) + "\n")
PY
a='gzip -1 -c data.txt' b='gzip -9 -c data.txt'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== hyperfine --runs 30 (wall time; the shell's start-up subtracted)"
hyperfine --runs 30 --style basic "$a" "$b" 2>&1 | grep -E "Time|faster|slower|times" || true
for measure in wall cpu; do
  echo "== alea compare --cmd --measure $measure (30 executions each, unpaired)"
  XDG_CACHE_HOME=$work/cache "$build/bin/alea" compare --cmd "$a" --cmd "$b" --measure "$measure" \
    --dir "$work/$measure" 2>/dev/null | grep -E "^  [^ ].*(: mean| vs )" || true
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
