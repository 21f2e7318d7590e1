#!/usr/bin/env bash
# An autotools project (autoreconf at test time): ./configure with
# CC=alea-cc CXX=alea-c++ and ALEA_SEED set must pass every compiler probe, build
# a libtool shared library and pass `make check`; the library and test
# programs carry the seed.
source "$(dirname "$0")/common.sh"

work="$ALEA_BUILD/projects/autotools"
fresh_copy "$PROJECTS_SRC/autotools" "$work"
cd "$work"
autoreconf -fi >autoreconf.out 2>&1 || { cat autoreconf.out; fail "autoreconf -fi failed"; }
seed=0x5eed
export ALEA_SEED=$seed
./configure CC=alea-cc CXX=alea-c++ >configure.out 2>&1 || {
  tail -40 config.log
  fail "./configure CC=alea-cc CXX=alea-c++ failed"
}
grep -q "checking whether the C compiler works... yes" configure.out || fail "configure: C compiler not working"
grep -q "checking whether we are using the GNU C++ compiler... yes\|checking whether the compiler supports GNU C++... yes" configure.out ||
  fail "configure: C++ compiler not detected as GNU-compatible"
grep -q "checking whether the alea-cc linker .* supports shared libraries... yes" configure.out ||
  fail "configure: libtool found no shared-library support"
make -j2 check >check.out 2>&1 || {
  cat check.out test-suite.log 2>/dev/null | tail -40
  fail "make check failed"
}
grep -q "^# PASS: *2$" check.out || { cat check.out; fail "make check did not pass its 2 tests"; }
check_recorded "$work/.libs/test_greet" $((seed))
check_recorded "$(ls "$work"/.libs/libgreet.so.*.*.* | head -n1)" $((seed))
note "autotools: PASS"
