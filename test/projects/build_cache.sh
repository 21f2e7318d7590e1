#!/usr/bin/env bash
# The wrappers' build cache (ALEA_BUILD_CACHE; docs/wrapper.md, "Build cache")
# on real projects from Debian's source packages: every object and binary a
# build makes through the cache is byte-identical to the one the same seed
# makes without it.
#  - Lua 5.4 (its makefile, `make linux`): seed 1 uncached and cached (the
#    cold cache stores every unit), then seed 2 cached (every compile a hit,
#    by the manifests, no preprocessing) and uncached; a header changed in a
#    comment only (the manifests miss, the preprocessed text hits again); the
#    same sources at -O1 (nothing reused: other words).
#  - zlib under CMake (Ninja: -MD -MT -MF dependency files, absolute source
#    paths, out-of-tree build directories): seed 5 uncached, seed 7 cached,
#    seed 5 cached; objects AND dependency files compared, zlib's own test run.
#  - a C++ unit (templates, lambdas, exceptions, the standard library) under
#    option sets the pipeline and the target machine depend on (-O0's
#    pipeline, -O3 -fPIC, debug information, -march=native,
#    -fno-integrated-as, -mcmodel=large): a hit gives the uncached bytes.
source "$(dirname "$0")/common.sh"

work="$ALEA_BUILD/projects/build-cache"
rm -rf "$work"
mkdir -p "$work"
cache="$work/cache"

# hits LOG -> "<hits> <misses>" of the wrapper log of one build
hits() {
  echo "$(grep -c ' build-cache=hit key=' "$1" || true) $(grep -c ' build-cache=miss ' "$1" || true)"
}

# same_files A B GLOB...: every file matching GLOB under A is byte-identical under B
same_files() {
  local a=$1 b=$2 n=0 f
  shift 2
  while IFS= read -r f; do
    cmp -s "$a/$f" "$b/$f" || fail "$b/$f differs from $a/$f"
    n=$((n + 1))
  done < <(cd "$a" && for g in "$@"; do find . -path "./$g" -type f; done | sort)
  [[ $n -gt 0 ]] || fail "no files matching $* under $a"
  echo "$n"
}

# --- Lua ---------------------------------------------------------------------
lua_src=$(fetch_source lua5.4 --skip-patches)
build_lua() { # NAME SEED CACHE(on|off) [MYCFLAGS]
  local dir="$work/lua-$1"
  fresh_copy "$lua_src" "$dir"
  (
    cd "$dir"
    export ALEA_SEED=$2 ALEA_LOG="$dir/wrapper.log"
    [[ $3 == on ]] && export ALEA_BUILD_CACHE="$cache"
    make -j2 linux CC=alea-cc MYCFLAGS="${4:-}" >make.out 2>&1 ||
      { tail -30 make.out; fail "lua $1: make failed"; }
    touch wrapper.log
  )
}

build_lua u1 1 off
build_lua c1 1 on
read -r h m < <(hits "$work/lua-c1/wrapper.log")
[[ $h -eq 0 && $m -gt 20 ]] || fail "lua, cold cache: $h hits and $m misses (expected none and every unit)"
n=$(same_files "$work/lua-u1" "$work/lua-c1" 'src/*.o' src/lua src/luac)
note "lua seed 1: $n objects and binaries identical with a cold cache ($m units stored)"

build_lua c2 2 on
build_lua u2 2 off
read -r h2 m2 < <(hits "$work/lua-c2/wrapper.log")
[[ $h2 -eq $m && $m2 -eq 0 ]] || fail "lua seed 2, warm cache: $h2 hits and $m2 misses (expected $m and 0)"
[[ $(grep -c 'build-cache=hit key=.* by=manifest' "$work/lua-c2/wrapper.log") -eq $m ]] ||
  fail "lua seed 2: not every hit came from a manifest (preprocessed again)"
n=$(same_files "$work/lua-u2" "$work/lua-c2" 'src/*.o' src/lua src/luac)
cmp -s "$work/lua-u1/src/lua" "$work/lua-u2/src/lua" && fail "lua: seeds 1 and 2 gave the same binary"
"$work/lua-c2/src/lua" -e 'assert(("x"):rep(3) == "xxx") print("lua from the cache runs")' ||
  fail "lua from the cache does not run"
note "lua seed 2: all $h2 compiles hits (by manifest), $n objects and binaries identical to the uncached build"

# A header changed in a comment: the manifests see a changed file, the
# preprocessed text is the same: hits again, by preprocessing.
lua_src_orig=$lua_src
lua_src="$work/lua-src-comment"
fresh_copy "$lua_src_orig" "$lua_src"
echo '/* a comment added after the build */' >>"$lua_src/src/lua.h"
build_lua c3 3 on
build_lua u3 3 off
read -r h3 m3 < <(hits "$work/lua-c3/wrapper.log")
[[ $m3 -eq 0 ]] || fail "lua, comment in lua.h: $m3 misses"
pre=$(grep -c 'build-cache=hit key=.* by=preprocessed' "$work/lua-c3/wrapper.log" || true)
[[ $pre -gt 0 ]] || fail "lua, comment in lua.h: no hit by preprocessing (the manifests did not see lua.h change)"
n=$(same_files "$work/lua-u3" "$work/lua-c3" 'src/*.o' src/lua src/luac)
note "lua, lua.h changed in a comment: $pre hits by preprocessing, $((h3 - pre)) by manifest, $n files identical"

# Other words (-O1): nothing of the -O2 builds is reused.
lua_src=$lua_src_orig
build_lua c4 1 on -O1
read -r h4 m4 < <(hits "$work/lua-c4/wrapper.log")
[[ $h4 -eq 0 && $m4 -eq $m ]] || fail "lua at -O1: $h4 hits (expected none: other options)"
note "lua at -O1: no reuse of the -O2 units ($m4 stored)"

# --- zlib under CMake ----------------------------------------------------------
# Debian's zlib source (dfsg) drops win32/, whose resource file zlib's
# CMakeLists.txt names (unused on Linux): an empty one in a copy.
zlib_src="$work/zlib-src"
fresh_copy "$(fetch_source zlib)" "$zlib_src"
mkdir -p "$zlib_src/win32"
touch "$zlib_src/win32/zlib1.rc"
build_zlib() { # NAME SEED CACHE(on|off)
  local dir="$work/zlib-$1"
  (
    export ALEA_SEED=$2 ALEA_LOG="$dir.wrapper.log"
    [[ $3 == on ]] && export ALEA_BUILD_CACHE="$cache"
    CC=alea-cc cmake -S "$zlib_src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      >"$dir.configure.out" 2>&1 || { tail -30 "$dir.configure.out"; fail "zlib $1: cmake failed"; }
    cmake --build "$dir" -j2 >"$dir.build.out" 2>&1 ||
      { tail -30 "$dir.build.out"; fail "zlib $1: build failed"; }
    touch "$dir.wrapper.log"
  )
}
build_zlib u5 5 off
build_zlib c7 7 on
build_zlib c5 5 on
# Every object of the project a hit (CMake's configure checks compile
# throw-away sources under other names: those miss).
read -r hz mz < <(hits "$work/zlib-c5.wrapper.log")
objects=$(find "$work/zlib-c5/CMakeFiles" -name '*.o' | wc -l)
[[ $objects -gt 10 && $hz -ge $objects ]] ||
  fail "zlib seed 5, warm cache: $hz hits for $objects objects ($mz misses)"
# (Not the executables: CMake gives them a RUNPATH into their own build
# directory.)
n=$(same_files "$work/zlib-u5" "$work/zlib-c5" 'CMakeFiles/*.o' 'libz.so.*.*.*' libz.a)
# The dependency files, as Ninja read them (it keeps them in .ninja_deps).
# One "target dependency" line each, sorted (Ninja lists targets as they finished).
deps() {
  ninja -C "$work/zlib-$1" -t deps | sed -e "s|zlib-$1|BUILD|g" |
    awk '/#deps/ { target = $1; print target, "#deps", $3; next } NF { print target, $1 }' | sort
}
[[ $(deps u5 | grep -c '#deps') -gt 10 ]] || fail "zlib: ninja recorded no dependencies"
diff <(deps u5) <(deps c5) >/dev/null || { diff <(deps u5) <(deps c5) | head; fail "zlib: the dependencies differ"; }
(cd "$work/zlib-c5" && ./example >/dev/null) || fail "zlib example built from the cache failed"
note "zlib (CMake, Ninja) seed 5: $hz compiles hits, $n objects and libraries identical, the same dependencies; example passes"
# --- C++ and the options around the layout pass -----------------------------------
cxx="$work/cxx"
mkdir -p "$cxx"
cp "$PROJECTS_SRC/build_cache/unit.cpp" "$cxx/"
while IFS= read -r flags; do
  (
    cd "$cxx"
    rm -rf cache u c && mkdir -p u c
    for seed in 1 2; do
      # shellcheck disable=SC2086 # the option set is words
      ALEA_SEED=$seed alea-c++ $flags -c unit.cpp -o "u/$seed.o" || fail "alea-c++ $flags failed"
      ALEA_SEED=$seed ALEA_BUILD_CACHE="$cxx/cache" ALEA_LOG="$cxx/log" \
        alea-c++ $flags -c unit.cpp -o "c/$seed.o" || fail "alea-c++ $flags (cache) failed"
      cmp -s "u/$seed.o" "c/$seed.o" || fail "C++ $flags seed $seed: the cached object differs"
    done
    [[ $(tail -1 log) == *build-cache=hit* ]] || fail "C++ $flags: the second seed was no hit: $(tail -1 log)"
  )
done <<'FLAGS'
-O2
-O0
-O3 -fPIC
-O2 -g
-O2 -march=native
-O1 -fno-integrated-as
-Oz -mcmodel=large
FLAGS
note "C++: 7 option sets, every hit the uncached object"
note "build cache: PASS"
