#!/usr/bin/env bash
# An installed alea works on its own: `cmake --install` into a fresh prefix,
# then, with nothing but <prefix>/bin on PATH and no ALEA_PLUGIN, the installed
# alea-cc finds its plugin and randomizes a build (the program runs, two seeds
# give two layouts, `alea layout` reads the seed), a benchmark can include
# <alea/iter.h>, and `alea run` finds its wrappers next to itself.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
prefix=$(mktemp -d "${TMPDIR:-/tmp}/alea-install-XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/alea bin/alea-cc bin/alea-c++ bin/alea-fc bin/alea-ld lib/AleaPlugin.so include/alea/iter.h; do
  [[ -e $prefix/$f ]] || fail "$f not installed"
done
# The binary tools CMake finds next to alea-cc (docs/wrapper.md): links that
# the install kept as links, to LLVM 19's tools and to the installed alea-ld.
for t in alea-llvm-ar alea-llvm-ranlib alea-llvm-nm alea-llvm-objcopy alea-llvm-strip \
  alea-llvm-readelf alea-llvm-objdump alea-llvm-addr2line; do
  [[ -L $prefix/bin/$t ]] || fail "$t not installed as a link"
  "$prefix/bin/$t" --version 2>&1 | grep -q "LLVM version 19\." || fail "$t is not LLVM 19's"
done
[[ -L $prefix/bin/alea-llvm-dlltool && -x $prefix/bin/alea-llvm-dlltool ]] ||
  fail "alea-llvm-dlltool not installed as a link"
[[ $(realpath "$prefix/bin/alea-ld.lld") == "$(realpath "$prefix/bin/alea-ld")" ]] ||
  fail "alea-ld.lld does not name the installed alea-ld"
for v in $(env | grep -o '^ALEA_[A-Z_]*'); do unset "$v"; done
export PATH=$prefix/bin:/usr/bin:/bin

cd "$prefix"
cat > p.c <<'C'
#include <alea/iter.h>
#include <stdio.h>
static int twice(int x) { return 2 * x; }
int helper(int x) { return twice(x) + 1; }
int main(void) { printf("%d\n", helper(20)); return 0; }
C
ALEA_SEED=1 alea-cc -O2 -I"$prefix/include" p.c -o p1 || fail "installed alea-cc (seed 1)"
ALEA_SEED=2 alea-cc -O2 -I"$prefix/include" p.c -o p2 || fail "installed alea-cc (seed 2)"
[[ $(./p1) == 41 && $(./p2) == 41 ]] || fail "randomized programs print the wrong result"
alea layout p1 | grep -q 'seed: *0x0000000000000001' || fail "alea layout does not read seed 1: $(alea layout p1 | head -5)"
alea layout --diff p1 p2 | grep -q 'layouts: *different' || fail "seeds 1 and 2 gave the same layout"

cat > c.toml <<TOML
[levels]
builds = 2
executions = 1
[measure]
source = "none"
[[system]]
name = "p"
shell = "\$CC -O2 -I$prefix/include $prefix/p.c -o p"
artifacts = ["p"]
[[benchmark]]
name = "p"
command = ["{artifact:p}"]
TOML
alea run c.toml --dir camp --no-report 2>run.err || { cat run.err; fail "installed alea run"; }
grep -q "2 of 2 executions recorded (0 failed)" run.err || { cat run.err; fail "installed alea run did not record 2 executions"; }
echo "ok: installed tree under $prefix works on its own"
