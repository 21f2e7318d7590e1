#!/usr/bin/env bash
# CMake's compiler detection with CC=alea-cc CXX=alea-c++ and ALEA_SEED set:
# configure must succeed and identify Clang 19 for C and C++, the project must
# build, its CTest test pass, and the executable carry the seed.
# CMake's binary tools (CMakeFindBinUtils: CMAKE_LINKER, CMAKE_OBJCOPY,
# CMAKE_STRIP...) must be LLVM 19's, or alea-ld over LLVM 19's lld, although
# the PATH also holds unversioned tools of another LLVM: /usr/bin/ld.lld,
# llvm-objcopy... are LLVM 14's on Debian 12, and decoys of those names that
# fail and log when run come first on PATH here, so that the test does not
# depend on this machine; `cmake --install --strip` must strip with LLVM 19's
# llvm-strip. FC=alea-fc must give a Fortran-only project the same tools as
# FC=flang-new-19.
source "$(dirname "$0")/common.sh"

work="$ALEA_BUILD/projects/cmake-detect"
rm -rf "$work"
mkdir -p "$work"
seed=77
export ALEA_SEED=$seed

# The unversioned names CMake tries after alea's prefixed ones.
decoys="$work/decoys"
mkdir -p "$decoys"
for tool in ld.lld llvm-objcopy llvm-strip llvm-readelf llvm-objdump llvm-addr2line \
  llvm-ar llvm-ranlib llvm-nm llvm-dlltool; do
  printf '#!/bin/sh\necho "decoy %s run: $*" >>"%s/decoys.log"\nexit 1\n' "$tool" "$work" \
    >"$decoys/$tool"
  chmod +x "$decoys/$tool"
done
export PATH="$decoys:$PATH"
llvm19_bin=$(dirname "$(realpath "$(command -v clang-19)")")
[[ -x $llvm19_bin/llvm-objcopy ]] || fail "LLVM 19's tools are not in $llvm19_bin"
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

# Each tool CMake found is LLVM 19's (through alea's links next to alea-cc),
# the linker alea-ld (which runs LLVM 19's ld.lld).
for tool in LINKER OBJCOPY STRIP READELF OBJDUMP ADDR2LINE AR RANLIB NM DLLTOOL; do
  value=$(sed -n "s/^CMAKE_$tool:FILEPATH=//p" "$work/CMakeCache.txt")
  [[ -n $value ]] || fail "CMakeCache.txt has no CMAKE_$tool"
  real=$(realpath "$value")
  if [[ $tool == LINKER ]]; then
    [[ $real == "$ALEA_BUILD/bin/alea-ld" ]] ||
      fail "CMAKE_LINKER is $value (-> $real), not alea-ld"
  else
    [[ $real == "$llvm19_bin"/* ]] || fail "CMAKE_$tool is $value (-> $real), not LLVM 19's"
  fi
  note "CMAKE_$tool=$value -> $real"
done
# --install --strip runs CMAKE_STRIP: the installed program has no symbol
# table, still runs, and has the built program's code.
cmake --install "$work" --prefix "$work/prefix" --strip || fail "cmake --install --strip failed"
[[ $("$work/prefix/bin/detect") == "area sum = 38.00" ]] || fail "the installed program fails"
"$llvm19_bin/llvm-readelf" -S "$work/prefix/bin/detect" | grep -q '\.symtab' &&
  fail "cmake --install --strip left the symbol table in"
diff_out=$("$ALEA" layout --diff "$work/detect" "$work/prefix/bin/detect") ||
  fail "alea layout --diff of the built and the installed program failed"
grep -q "^layouts: *identical (compared: the code bytes; B is stripped)" <<<"$diff_out" ||
  fail "the stripped program's code differs from the built one's:"$'\n'"$diff_out"
[[ ! -e $work/decoys.log ]] || fail "a decoy tool ran: $(cat "$work/decoys.log")"

# Fortran: CMake asks for GNU binutils' names for LLVMFlang; alea-fc must get
# what flang-new-19 gets.
if [[ -x $ALEA_BUILD/bin/alea-fc ]] && command -v flang-new-19 >/dev/null; then
  for fc in alea-fc flang-new-19; do
    FC=$fc cmake -S "$PROJECTS_SRC/cmake-detect-fortran" -B "$work/fortran-$fc" -G Ninja \
      >"$work/fortran-$fc.configure.out" 2>&1 || {
      cat "$work/fortran-$fc.configure.out"
      fail "cmake configure with FC=$fc failed"
    }
    grep -q "alea-detect: Fortran LLVMFlang 19\." "$work/fortran-$fc.configure.out" ||
      fail "FC=$fc: CMake did not identify LLVMFlang 19"
    grep -E "^CMAKE_(LINKER|OBJCOPY|STRIP|READELF|OBJDUMP|ADDR2LINE|AR|RANLIB|NM):" \
      "$work/fortran-$fc/CMakeCache.txt" >"$work/fortran-$fc.tools"
  done
  [[ -s $work/fortran-alea-fc.tools ]] || fail "FC=alea-fc: no tools in CMakeCache.txt"
  diff "$work/fortran-alea-fc.tools" "$work/fortran-flang-new-19.tools" ||
    fail "FC=alea-fc finds other tools than FC=flang-new-19"
  [[ ! -e $work/decoys.log ]] || fail "a decoy tool ran: $(cat "$work/decoys.log")"
  note "FC=alea-fc: the same tools as FC=flang-new-19 ($(tr '\n' ' ' <"$work/fortran-alea-fc.tools"))"
fi
note "cmake detection: PASS"
