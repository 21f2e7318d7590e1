#!/usr/bin/env bash
# Build overhead of alea-fc (issue 11, item 1): compile every Fortran file of
# the reference BLAS (LAPACK 3.11's BLAS/SRC, Debian's `lapack` source package,
# the project of test/projects/fortran.sh) with `flang-new-19 -O2 -fPIC -c` and
# with `alea-fc -O2 -fPIC -c` (ALEA_SEED set: all factors, the plugin, which
# also gives every function its own section), alternating plain/alea in each
# round so drift hits both alike, then link libblas.so with each. Prints
# per-round times, medians and the ratio (the C goal is <= 1.03x).
# Usage: bench/build/fortran_overhead.sh BUILD_DIR [ROUNDS]
set -euo pipefail
export ALEA_BUILD=$(cd "${1:?usage: $0 BUILD_DIR [ROUNDS]}" && pwd)
rounds=${2:-3}
source "$(dirname "$0")/../../test/projects/common.sh"
source "$(dirname "$0")/lib.sh" # calc, median, med, timed
[[ -x $ALEA_BUILD/bin/alea-fc ]] || fail "$ALEA_BUILD/bin/alea-fc is not built"

src=$(fetch_source lapack)/BLAS/SRC
work="$ALEA_BUILD/bench-build/fortran-overhead"
rm -rf "$work" && mkdir -p "$work/plain" "$work/alea"
ffiles=("$src"/*.f "$src"/*.f90)

compile_all() { # FC OUTDIR (ALEA_SEED from the environment; empty = plain)
  local fc=$1 out=$2 f
  [[ -n ${ALEA_SEED:-} ]] || unset ALEA_SEED
  for f in "${ffiles[@]}"; do
    $fc -O2 -fPIC -c "$f" -o "$out/$(basename "${f%.*}").o"
  done
  $fc -shared -o "$out/libblas.so" "$out"/*.o
}


echo "compiling ${#ffiles[@]} BLAS Fortran files at -O2 and linking libblas.so, $rounds rounds, alternating"
pw=() pc=() aw=() ac=() rw=() rc=()
for r in $(seq 1 "$rounds"); do
  set -- $(ALEA_SEED= timed flang-new-19 "$work/plain")
  pw+=("$1") pc+=("$2")
  set -- $(timed alea-fc "$work/alea" "$r")
  aw+=("$1") ac+=("$2")
  rw+=("$(calc "${aw[-1]} / ${pw[-1]}")") rc+=("$(calc "${ac[-1]} / ${pc[-1]}")")
  printf 'round %d: flang-new-19 %.3f s wall %.3f s cpu   alea-fc %.3f s wall %.3f s cpu   ratio wall %.4f cpu %.4f\n' \
    "$r" "${pw[-1]}" "${pc[-1]}" "${aw[-1]}" "${ac[-1]}" "${rw[-1]}" "${rc[-1]}"
done
"$ALEA_BUILD/bin/alea" layout "$work/alea/libblas.so" | sed -n 2,5p
printf 'median cpu: flang-new-19 %.3f s   alea-fc %.3f s   ratio %.4f   (median of per-round cpu ratios %.4f)\n' \
  "$(med "${pc[@]}")" "$(med "${ac[@]}")" "$(calc "$(med "${ac[@]}") / $(med "${pc[@]}")")" "$(med "${rc[@]}")"
printf 'median wall: flang-new-19 %.3f s   alea-fc %.3f s   ratio %.4f   (median of per-round wall ratios %.4f)\n' \
  "$(med "${pw[@]}")" "$(med "${aw[@]}")" "$(calc "$(med "${aw[@]}") / $(med "${pw[@]}")")" "$(med "${rw[@]}")"
