#!/usr/bin/env bash
# CMake's compiler detection with CC=alea-cc CXX=alea-c++ and ALEA_SEED set:
# configure must succeed and identify Clang 19 for C and C++, the project must
# build, its CTest test pass, and the executable carry the seed.
source "$(dirname "$0")/common.sh"

work="$ALEA_BUILD/projects/cmake-detect"
rm -rf "$work"
seed=77
export ALEA_SEED=$seed
CC=alea-cc CXX=alea-c++ cmake -S "$PROJECTS_SRC/cmake-detect" -B "$work" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release >"$work.configure.out" 2>&1 || {
  cat "$work.configure.out"
  fail "cmake configure with CC=alea-cc CXX=alea-c++ failed"
}
cat "$work.configure.out"
grep -q "alea-detect: C Clang 19\." "$work.configure.out" || fail "CMake did not identify Clang 19 as the C compiler"
grep -q "alea-detect: CXX Clang 19\." "$work.configure.out" || fail "CMake did not identify Clang 19 as the C++ compiler"
grep -q "CMAKE_C_COMPILER:.*alea-cc" "$work/CMakeCache.txt" || fail "CMake does not use alea-cc"
grep -q "CMAKE_CXX_COMPILER:.*alea-c++" "$work/CMakeCache.txt" || fail "CMake does not use alea-c++"
cmake --build "$work" -j2 || fail "building the CMake project failed"
# A second build has nothing to do: nothing alea adds (the link record is an
# inherited memfd) makes Ninja think an input changed.
ninja -C "$work" -n -d explain >"$work.rebuild.out" 2>&1 || fail "ninja -n failed"
grep -q "no work to do" "$work.rebuild.out" || { cat "$work.rebuild.out"; fail "the second build is not a no-op"; }
(cd "$work" && ctest --output-on-failure) || fail "the CMake project's test failed"
check_recorded "$work/detect" "$seed"
note "cmake detection: PASS"
