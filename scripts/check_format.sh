#!/usr/bin/env bash
# The tree's C and C++ in clang-format-19's layout (.clang-format: LLVM style, 100
# columns; passes/ keeps LLVM's 80): prints the files that are not and exits 1, or
# exits 0 (2: clang-format itself failed, its message shown). The files: those git
# tracks and the new ones it does not ignore (outside a git checkout, every file but
# the build and work folders). Left as written: lit inputs (FileCheck patterns name
# their lines), the example programs and test projects (shown as users write them),
# and the C workloads of bench/validity. To fix a file: clang-format-19 -i FILE.
#
#   scripts/check_format.sh [SOURCE_DIR]
set -uo pipefail
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
command -v clang-format-19 >/dev/null ||
  { echo "check_format: no clang-format-19 (scripts/setup.sh installs it)" >&2; exit 2; }
cd "$root" || exit 2
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files -z --cached --others --exclude-standard -- \
             '*.cpp' '*.hpp' '*.h' '*.inc' '*.c'; }
else
  list() { find . \( -path './build*' -o -path ./_work -o -path ./.git \) -prune -o -type f \
             \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.inc' -o -name '*.c' \) \
             -printf '%P\0'; }
fi
out=$(list | grep -zvE '^(examples|test/lit|test/projects|bench/validity)/|/Inputs/' |
  xargs -0 -r clang-format-19 --dry-run 2>&1)
rc=$?
bad=$(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning:.*/\1/p' <<<"$out" | sort -u)
if [[ -n $bad ]]; then
  echo "check_format: not in clang-format-19's layout (clang-format-19 -i FILE):"
  echo "$bad"
  exit 1
fi
if ((rc != 0)); then
  echo "check_format: clang-format-19 failed:" >&2
  echo "$out" >&2
  exit 2
fi
