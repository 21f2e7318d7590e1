#!/usr/bin/env bash
# A real Fortran project: the reference BLAS and CBLAS of LAPACK 3.11 (Debian's
# `lapack` source package), configured by its own CMake with
# FC=alea-fc CC=alea-cc (CMake must identify LLVMFlang and Clang through the
# wrappers) and built as shared libraries for three seeds with every factor
# on. Each build runs the project's own BLAS tests (xblat1-3 in the four
# precisions: they compare every routine against a reference computation) and
# the double-precision CBLAS tests, whose programs are mixed C and Fortran
# (a Fortran main over C drivers) linked by alea-fc. libblas, libcblas and a
# test program must record their seed, and differ in layout between seeds.
source "$(dirname "$0")/common.sh"
[[ -x $ALEA_BUILD/bin/alea-fc ]] || fail "$ALEA_BUILD/bin/alea-fc is not built"
command -v flang-new-19 >/dev/null || fail "flang-new-19 not on PATH (scripts/setup.sh installs flang-19)"
command -v ninja >/dev/null || fail "ninja not on PATH"

src=$(fetch_source lapack)
work="$ALEA_BUILD/projects/fortran"
build="$work/build"
rm -rf "$work"
mkdir -p "$work"
seeds=(1 42 3405691582)
targets=(blas cblas
  xblat1s xblat1d xblat1c xblat1z xblat2s xblat2d xblat2c xblat2z xblat3s xblat3d xblat3c xblat3z
  xdcblat1 xdcblat2 xdcblat3)

# One configuration (without a seed, the wrappers are the plain compilers);
# each seed then rebuilds everything: make and Ninja do not see ALEA_SEED, so
# the build is cleaned first.
note "configure LAPACK (BLAS, CBLAS) with FC=alea-fc CC=alea-cc"
FC=alea-fc CC=alea-cc cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=ON -DBUILD_TESTING=ON -DCBLAS=ON -DLAPACKE=OFF \
  -DBUILD_SINGLE=ON -DBUILD_DOUBLE=ON -DBUILD_COMPLEX=ON -DBUILD_COMPLEX16=ON \
  >"$work/configure.out" 2>&1 || {
  tail -40 "$work/configure.out"
  fail "LAPACK's cmake configure with FC=alea-fc failed"
}
grep -q "The Fortran compiler identification is LLVMFlang 19" "$work/configure.out" || {
  grep -i "compiler identification" "$work/configure.out"
  fail "CMake did not identify alea-fc as LLVMFlang 19"
}

for s in "${seeds[@]}"; do
  log="$work/seed-$s.log"
  ninja -C "$build" -t clean >/dev/null
  ALEA_SEED=$s ALEA_LOG=$log ninja -C "$build" -j2 "${targets[@]}" >"$work/build-$s.out" 2>&1 || {
    tail -40 "$work/build-$s.out"
    fail "LAPACK BLAS/CBLAS build (seed $s) failed"
  }
  (cd "$build" && ctest -R '^(BLAS-|CBLAS-xdcblat)' --output-on-failure >"$work/test-$s.out" 2>&1) || {
    tail -40 "$work/test-$s.out"
    fail "LAPACK's BLAS/CBLAS tests (seed $s) failed"
  }
  # 12 BLAS programs, 3 CBLAS ones; ctest says how many passed.
  grep -q "100% tests passed, 0 tests failed out of 15" "$work/test-$s.out" || {
    cat "$work/test-$s.out"
    fail "LAPACK's tests (seed $s): not 15 of 15 passed"
  }
  # The Fortran sources went through the plugin, the mixed programs were
  # linked by alea-fc with alea's link step; nothing fell back.
  compiled=$(grep -c '^alea-fc .* mode=compile reason=' "$log" || true)
  [[ $compiled -ge 150 ]] || fail "seed $s: only $compiled Fortran compiles were randomized"
  grep -q '^alea-fc .* mode=link .*xdcblat3' "$log" ||
    fail "seed $s: the mixed C/Fortran program xdcblat3 was not linked by alea-fc"
  if grep -q 'internal error\|lld rejected' "$log"; then
    grep 'internal error\|lld rejected' "$log" | head -5
    fail "seed $s: a wrapper fell back"
  fi
  mkdir -p "$work/seed-$s"
  cp -L "$build/lib/libblas.so" "$build/lib/libcblas.so" "$build/bin/xdcblat3" "$work/seed-$s/"
  for f in libblas.so libcblas.so xdcblat3; do
    check_recorded "$work/seed-$s/$f" "$s"
  done
  note "LAPACK BLAS/CBLAS seed $s: build, 15 of 15 tests OK"
done

for pair in "0 1" "0 2" "1 2"; do
  set -- $pair
  a=${seeds[$1]} b=${seeds[$2]}
  for f in libblas.so libcblas.so xdcblat3; do
    note "layout diff $f seed $a vs $b"
    check_layouts_differ "$work/seed-$a/$f" "$work/seed-$b/$f"
  done
done
note "fortran (LAPACK BLAS/CBLAS): PASS"
