#!/usr/bin/env bash
# The tree's C and C++ in clang-format-19's layout (.clang-format: LLVM style, 100
# columns; passes/ keeps LLVM's 80): prints the files that are not and exits 1, or
# exits 0. Left as written: lit inputs (FileCheck patterns name their lines), the
# example programs and test projects (shown as users write them), and the C
# workloads of bench/validity. To fix a file: clang-format-19 -i FILE.
#
#   scripts/check_format.sh [SOURCE_DIR]
set -euo pipefail
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
command -v clang-format-19 >/dev/null ||
  { echo "check_format: no clang-format-19 (scripts/setup.sh installs it)" >&2; exit 2; }
cd "$root"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.inc' '*.c'; }
else
  list() { find . -path ./build -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' -o \
             -name '*.h' -o -name '*.inc' -o -name '*.c' \) -printf '%P\0'; }
fi
bad=$(list | grep -zvE '^(examples|test/lit|test/projects|bench/validity)/|/Inputs/' |
  xargs -0 clang-format-19 --dry-run 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning:.*/\1/p' |
  sort -u)
if [[ -n $bad ]]; then
  echo "check_format: not in clang-format-19's layout (clang-format-19 -i FILE):"
  echo "$bad"
  exit 1
fi
