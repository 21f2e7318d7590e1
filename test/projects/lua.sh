#!/usr/bin/env bash
# Lua 5.4 from Debian's source package, built by its own upstream makefile
# (`make linux CC=alea-cc`; Debian's libtool/readline packaging patch is left
# out, its CVE fixes are applied) for three seeds with every factor on, and once
# without a seed. The Lua source package ships no test suite, so the checks are
# real Lua programs (test/projects/lua/*.lua: asserting scripts over the core
# language, metatables, coroutines, errors, GC, load/dump), `lua -e`, and luac
# bytecode round trips; every build must print exactly what the plain build
# prints, and the seeds must give different layouts.
source "$(dirname "$0")/common.sh"

src=$(fetch_source lua5.4 --skip-patches)
work="$ALEA_BUILD/projects/lua"
mkdir -p "$work"
seeds=(1 42 3405691582)
scripts="$PROJECTS_SRC/lua"

build_lua() { # DIR [SEED]
  local dir=$1 seed=${2:-}
  fresh_copy "$src" "$dir"
  (
    cd "$dir"
    for p in $(grep -i cve debian/patches/series); do
      patch -p1 -s <"debian/patches/$p" || fail "cannot apply debian/patches/$p"
    done
    if [[ -n $seed ]]; then export ALEA_SEED=$seed; fi
    # CC replaces the makefile's `gcc -std=gnu99`: compile and link by alea-cc.
    make -j2 linux CC=alea-cc >make.out 2>&1 || { tail -40 make.out; fail "lua make linux (seed ${seed:-none}) failed"; }
    grep -q "gcc" make.out && { grep gcc make.out | head; fail "lua build invoked gcc"; }
    make test >test.out 2>&1 || { cat test.out; fail "lua make test (seed ${seed:-none}) failed"; }
    grep -q "^Lua 5.4.4" test.out || { cat test.out; fail "lua -v did not print its version"; }
  )
  note "lua seed ${seed:-none}: make linux, make test OK"
}

# run_checks DIR -> writes DIR/checks.out: everything the interpreter printed.
run_checks() {
  local dir=$1 lua=$1/src/lua luac=$1/src/luac out=$1/checks.out script
  : >"$out"
  for script in core runtime; do
    "$lua" "$scripts/$script.lua" >>"$out" 2>&1 || { tail -20 "$out"; fail "$lua $script.lua failed"; }
  done
  "$lua" "$scripts/bench.lua" 20000 >>"$out" 2>&1 || fail "$lua bench.lua failed"
  "$lua" -e 'print(("x"):rep(3), 2^53 == 2^53 + 1, string.format("%5.2f", 1/3))' >>"$out" 2>&1 ||
    fail "$lua -e failed"
  # luac: compile to stripped bytecode, run it, and keep the bytecode to compare.
  "$luac" -s -o "$dir/core.luac" "$scripts/core.lua" || fail "$luac failed"
  "$lua" "$dir/core.luac" >>"$out" 2>&1 || fail "$lua core.luac failed"
  grep -q "^core OK" "$out" && grep -q "^runtime OK" "$out" || { cat "$out"; fail "$lua: scripts did not finish"; }
}

build_lua "$work/plain"
check_unrandomized "$work/plain/src/lua"
run_checks "$work/plain"
for s in "${seeds[@]}"; do
  build_lua "$work/seed-$s" "$s"
  check_recorded "$work/seed-$s/src/lua" "$s"
  check_recorded "$work/seed-$s/src/luac" "$s"
  run_checks "$work/seed-$s"
  diff -u "$work/plain/checks.out" "$work/seed-$s/checks.out" ||
    fail "seed $s: Lua programs print something else than with the plain build"
  cmp "$work/plain/core.luac" "$work/seed-$s/core.luac" ||
    fail "seed $s: luac produced different bytecode than the plain build"
  note "lua seed $s: $(wc -l <"$work/seed-$s/checks.out") output lines identical to the plain build"
done

for pair in "0 1" "0 2" "1 2"; do
  set -- $pair
  a=${seeds[$1]} b=${seeds[$2]}
  note "layout diff lua seed $a vs $b"
  check_layouts_differ "$work/seed-$a/src/lua" "$work/seed-$b/src/lua"
done
note "lua: PASS"
