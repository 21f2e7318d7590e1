#!/bin/sh
# Tests of check_golden.sh itself, on a copy of test/r holding two scripts
# (compute_kj.R, which needs lme4, and compute_diagnostics.R, base R only):
#   check_golden_test.sh skip TEST_R_DIR
#     with lme4 hidden from R (R_LIBS_SITE/R_LIBS_USER point to an empty
#     library), the lme4 part is skipped with a message and the rest is still
#     checked: exit 0.
#   check_golden_test.sh tolerance TEST_R_DIR   (needs lme4)
#     the lme4 golden values are checked at 1e-6 relative, the others at 1e-9:
#     a golden kj value moved by 5e-7 passes, by 3e-6 fails; a diagnostics
#     value moved by 1e-8 fails (exit 1 with FAIL lines from check_golden.sh).
set -eu
mode=$1
src=$2
rscript=${RSCRIPT:-Rscript}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/r/golden" "$tmp/empty-library"
cp -R "$src/data" "$tmp/r/"
cp "$src/compute_kj.R" "$src/compute_diagnostics.R" "$tmp/r/"
cp "$src/golden/kj.csv" "$src/golden/diagnostics.csv" "$tmp/r/golden/"
check="$src/check_golden.sh"

fail() { echo "FAIL: $*"; exit 1; }

# Multiplies the value of row $2 (1-based, after the header) of golden file $1
# by $3, in place.
scale() {
  "$rscript" -e 'a <- commandArgs(TRUE); d <- read.csv(a[1], colClasses = "character")
    i <- as.integer(a[2]); d$value[i] <- sprintf("%.17g", as.numeric(d$value[i]) * as.numeric(a[3]))
    write.csv(d, a[1], row.names = FALSE, quote = FALSE)' "$1" "$2" "$3"
}

case $mode in
skip)
  export R_LIBS_SITE="$tmp/empty-library" R_LIBS_USER="$tmp/empty-library"
  if "$rscript" -e 'quit(status = if (requireNamespace("lme4", quietly = TRUE)) 0 else 1)'; then
    fail "cannot hide lme4 from R with R_LIBS_SITE/R_LIBS_USER (is it in R's own library?)"
  fi
  out=$(RSCRIPT=$rscript sh "$check" "$tmp/r") || fail "check_golden.sh failed without lme4: $out"
  echo "$out"
  echo "$out" | grep -qx "SKIP: compute_kj.R needs the R package(s) lme4, not installed; golden/kj.csv is still checked by the unit tests" ||
    fail "no skip message for the lme4 part"
  echo "$out" | grep -q "^ok: .*golden/diagnostics.csv 68 values within 1e-09 relative$" ||
    fail "the other scripts were not checked"
  ;;
tolerance)
  # Run 1: kj moved by 5e-7 (within 1e-6: ok), diagnostics by 1e-8 (beyond
  # 1e-9: FAIL). Run 2: kj moved by 3e-6 (beyond 1e-6: FAIL).
  scale "$tmp/r/golden/kj.csv" 1 1.0000005
  scale "$tmp/r/golden/diagnostics.csv" 1 1.00000001
  if out=$(RSCRIPT=$rscript sh "$check" "$tmp/r"); then fail "1e-8 relative on a closed-form value must fail: $out"; fi
  echo "$out"
  echo "$out" | grep -q "^ok: .*golden/kj.csv 21 values within 1e-06 relative$" ||
    fail "5e-7 relative on an lme4 value must pass"
  echo "$out" | grep -q "^FAIL: .*golden/diagnostics.csv beyond 1e-09 relative:$" ||
    fail "1e-8 relative on a closed-form value must be reported"
  cp "$src/golden/kj.csv" "$src/golden/diagnostics.csv" "$tmp/r/golden/"
  scale "$tmp/r/golden/kj.csv" 1 1.000003
  if out=$(RSCRIPT=$rscript sh "$check" "$tmp/r"); then fail "3e-6 relative on an lme4 value must fail: $out"; fi
  echo "$out"
  echo "$out" | grep -q "^FAIL: .*golden/kj.csv beyond 1e-06 relative:$" ||
    fail "3e-6 relative on an lme4 value must be reported"
  echo "$out" | grep -q "^ok: .*golden/diagnostics.csv 68 values within 1e-09 relative$" ||
    fail "diagnostics: $out"
  ;;
*)
  fail "usage: check_golden_test.sh skip|tolerance TEST_R_DIR"
  ;;
esac
