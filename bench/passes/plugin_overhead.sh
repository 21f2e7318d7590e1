#!/usr/bin/env bash
# Cost of the layout pass alone (passes/, no wrapper, no -ffunction-sections):
# every C file of Lua 5.4 (Debian's source package) compiled with
# `clang-19 -O2 -c` and with `clang-19 -O2 -c -fpass-plugin=AleaPlugin.so`
# (ALEA_SEED set: all factors), plain and plugin alternating file by file so
# that machine drift hits both alike. Prints total compile CPU times (user +
# system of the compiler processes, from bash's `time`: less disturbed than
# wall time on a shared machine) per round, the median ratio, and what the padding costs in code size (.text of all
# objects, plain vs randomized) -- the one systematic side effect of the pass.
# Usage: bench/passes/plugin_overhead.sh BUILD_DIR [ROUNDS] [LUA_SOURCE_DIR]
# (without LUA_SOURCE_DIR: `apt-get source --download-only lua5.4`, cached in
# BUILD_DIR/bench-passes-cache; needs a deb-src entry, see scripts/setup.sh)
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [ROUNDS] [LUA_SOURCE_DIR]}" && pwd)
rounds=${2:-5}
plugin="$build/lib/AleaPlugin.so"
[[ -f $plugin ]] || { echo "no $plugin: build the AleaPlugin target" >&2; exit 1; }
cc=clang-19

if [[ -n ${3:-} ]]; then
  src=$3/src
else
  cache="$build/bench-passes-cache"
  mkdir -p "$cache"
  if ! compgen -G "$cache/lua5.4_*.orig.tar.gz" >/dev/null; then
    (cd "$cache" && apt-get source --download-only lua5.4 >download.log 2>&1) ||
      { echo "apt-get source lua5.4 failed: see $cache/download.log" >&2; exit 1; }
  fi
  if [[ ! -d $cache/lua ]]; then
    mkdir -p "$cache/lua"
    tar -xzf "$(compgen -G "$cache/lua5.4_*.orig.tar.gz" | head -n1)" -C "$cache/lua" --strip-components=1
  fi
  src=$cache/lua/src
fi
work="$build/bench-passes"
rm -rf "$work" && mkdir -p "$work/plain" "$work/alea"
flags=(-O2 -std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX)

# cpu CMD... -> user+system CPU time of CMD and its children, in milliseconds
# (bash's `time` keyword: no dependency on the `time` package)
cpu() {
  local TIMEFORMAT='%3U %3S' t
  t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%d", (a[1] + a[2]) * 1000 }'
}
plainTotals=() aleaTotals=()
for ((r = 1; r <= rounds; r++)); do
  plain=0 alea=0
  for f in "$src"/*.c; do
    o=$(basename "$f" .c).o
    t=$(cpu env -u ALEA_SEED "$cc" "${flags[@]}" -c "$f" -o "$work/plain/$o")
    plain=$((plain + t))
    t=$(cpu env ALEA_SEED=$r "$cc" "${flags[@]}" -fpass-plugin="$plugin" -c "$f" -o "$work/alea/$o")
    alea=$((alea + t))
  done
  plainTotals+=("$plain") aleaTotals+=("$alea")
  awk -v r="$r" -v p="$plain" -v a="$alea" \
    'BEGIN { printf "round %d: clang %.2f s CPU, clang+plugin %.2f s CPU, ratio %.4f\n", r, p/1e3, a/1e3, a/p }'
done

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratios=()
for ((i = 0; i < rounds; i++)); do
  ratios+=("$(awk -v p="${plainTotals[i]}" -v a="${aleaTotals[i]}" 'BEGIN { printf "%.6f", a/p }')")
done
echo "median ratio clang+plugin / clang: $(median "${ratios[@]}")  (goal <= 1.03)"

text() { llvm-size-19 "$1"/*.o | awk 'NR > 1 { t += $1 } END { print t }'; }
tp=$(text "$work/plain") ta=$(text "$work/alea")
awk -v p="$tp" -v a="$ta" \
  'BEGIN { printf "text (all objects): plain %d B, randomized %d B (%+.1f%%)\n", p, a, 100*(a-p)/p }'
