#!/usr/bin/env bash
# Cost of the link-time ODR check (linker/odr/odr_check.cpp) against the link
# it guards, on large C++ links of alea's own build: the CLI (`bin/alea`,
# CLI11, Boost.Math, nlohmann-json; 135 objects with the archive members the
# link extracts) and a GoogleTest binary (`bin/linker_tests`). Each round runs,
# back to back, the link itself with lld (the target's link command from
# `ninja -t commands`, its compiler replaced by `clang++-19 -fuse-ld=lld`, as
# the wrapper links) and the check alone on the same inputs, fast and detailed
# (alea_odr_bench, in-process CPU time). CPU times (user + system), medians of
# ROUNDS interleaved rounds, so load on the machine hits all alike. Prints the
# check's cost as a ratio of the lld link (goal: a few percent).
# Usage: bench/build/odr_check.sh BUILD_DIR [ROUNDS=15] [TARGET...]
# (the targets and alea_odr_bench must be built: scripts/build.sh alea
# linker_tests alea_odr_bench)
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [ROUNDS] [TARGET...]}" && pwd)
rounds=${2:-15}
shift $(($# > 1 ? 2 : 1))
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(alea linker_tests)
bench=$build/bin/alea_odr_bench
[[ -x $bench ]] || { echo "build alea_odr_bench first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
cpu_ms() { # CMD... -> CPU ms of the command and its children
  /usr/bin/time -f '%U %S' -o "$out/t" "$@" >/dev/null
  awk '{printf "%.3f", ($1 + $2) * 1000}' "$out/t"
}

for t in "${targets[@]}"; do
  # The link command: `: && /usr/bin/c++ <flags> <inputs> -o bin/T <libs> && <post-link steps>`.
  line=$(ninja -C "$build" -t commands "bin/$t" | tail -n1 | sed -e 's/^: && //' -e 's/ && .*$//')
  read -r -a words <<<"$line"
  link=(clang++-19 -fuse-ld=lld)
  inputs=()
  for ((k = 1; k < ${#words[@]}; ++k)); do
    w=${words[k]}
    if [[ $w == -o ]]; then link+=(-o "$out/$t"); ((++k)); continue; fi
    link+=("$w")
    [[ $w == *.o || $w == *.a ]] && inputs+=("$w")
  done
  cd "$build"
  "${link[@]}" # once, so that the inputs are in the page cache
  "$bench" --list "${inputs[@]}" | sed "s/^/$t: /" | cut -c1-200
  lld=() fast=() detailed=()
  for r in $(seq 1 "$rounds"); do
    lld+=("$(cpu_ms "${link[@]}")")
    fast+=("$("$bench" "${inputs[@]}" | awk '{print $2}')")
    detailed+=("$("$bench" --detailed "${inputs[@]}" | awk '{print $2}')")
  done
  m_lld=$(printf '%s\n' "${lld[@]}" | median)
  m_fast=$(printf '%s\n' "${fast[@]}" | median)
  m_det=$(printf '%s\n' "${detailed[@]}" | median)
  awk -v t="$t" -v n="${#inputs[@]}" -v r="$rounds" -v l="$m_lld" -v f="$m_fast" -v d="$m_det" 'BEGIN {
    printf "%s (%d inputs, %d rounds, median cpu): link with lld %.1f ms; check %.1f ms fast, %.1f ms detailed\n", t, n, r, l, f, d
    printf "%s: check / lld link = %.3f fast, %.3f detailed; whole link with the check %.3fx\n", t, f / l, d / l, (l + f) / l
  }'
  cd - >/dev/null
done
