#!/usr/bin/env bash
# zlib from Debian's source package, built with its own build system
# (`./configure && make && make test`) by alea-cc for three seeds with every
# factor on, and once without a seed (plain clang). All of zlib's tests must
# pass; the randomized binaries must record their seed and differ in layout.
source "$(dirname "$0")/common.sh"

src=$(fetch_source zlib)
work="$ALEA_BUILD/projects/zlib"
mkdir -p "$work"
seeds=(1 42 3405691582)

build_zlib() { # DIR [SEED]
  local dir=$1 seed=${2:-}
  fresh_copy "$src" "$dir"
  (
    cd "$dir"
    if [[ -n $seed ]]; then export ALEA_SEED=$seed; fi
    CC=alea-cc CFLAGS="-O2" ./configure >configure.out 2>&1 || {
      cat configure.out configure.log 2>/dev/null | tail -40
      fail "zlib ./configure with CC=alea-cc (seed ${seed:-none}) failed"
    }
    # Same configuration as plain clang: zlib's configure silently drops the
    # shared library when its link probe fails, so insist on it.
    if grep -q "No shared library support" configure.out; then
      grep -B3 -A6 "Checking for shared library support" configure.log | head -30
      # (Seen with lld >= 16, which rejects version-script names of undefined
      # symbols unless given --undefined-version; GNU ld accepts them.)
      fail "zlib ./configure (seed ${seed:-none}): alea-cc failed the shared-library link probe"
    fi
    make -j2 >make.out 2>&1 || { tail -40 make.out; fail "zlib make (seed ${seed:-none}) failed"; }
    make test >test.out 2>&1 || { tail -40 test.out; fail "zlib make test (seed ${seed:-none}) failed"; }
    # zlib's test target prints "*** zlib test OK ***" for static, shared, 64-bit.
    [[ $(grep -c '\*\*\* zlib .*test OK \*\*\*' test.out) -ge 3 ]] || {
      cat test.out
      fail "zlib make test (seed ${seed:-none}) did not report its tests OK"
    }
  )
  note "zlib seed ${seed:-none}: configure, make, make test OK"
}

build_zlib "$work/plain"
check_unrandomized "$work/plain/minigzip"
for s in "${seeds[@]}"; do
  build_zlib "$work/seed-$s" "$s"
  for bin in minigzip example libz.so.*.*.*; do
    check_recorded "$(echo "$work/seed-$s"/$bin)" "$s"
  done
done

# Same data through every build: identical compressed streams and round trips.
head -c 300000 /usr/lib/llvm-19/bin/clang >"$work/data.bin" 2>/dev/null ||
  head -c 300000 /bin/sh >"$work/data.bin"
"$work/plain/minigzip" -c "$work/data.bin" >"$work/plain.gz"
for s in "${seeds[@]}"; do
  "$work/seed-$s/minigzip" -c "$work/data.bin" >"$work/seed-$s.gz"
  cmp "$work/plain.gz" "$work/seed-$s.gz" || fail "seed $s: minigzip output differs from plain build"
  "$work/seed-$s/minigzip" -d -c "$work/seed-$s.gz" | cmp - "$work/data.bin" ||
    fail "seed $s: minigzip round trip failed"
done

for pair in "0 1" "0 2" "1 2"; do
  set -- $pair
  a=${seeds[$1]} b=${seeds[$2]}
  note "layout diff minigzip seed $a vs $b"
  check_layouts_differ "$work/seed-$a/minigzip" "$work/seed-$b/minigzip"
  note "layout diff libz.so seed $a vs $b"
  check_layouts_differ "$(echo "$work/seed-$a"/libz.so.*.*.*)" "$(echo "$work/seed-$b"/libz.so.*.*.*)"
done
note "zlib: PASS"
