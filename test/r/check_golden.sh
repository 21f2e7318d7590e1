#!/bin/sh
# Re-runs every test/r/compute_*.R into a temporary directory and checks the
# output still matches the committed golden file (numerically, 1e-9 relative:
# the golden files are R's own output, so only an R or lme4 upgrade that
# changes the numbers can fail this). Usage: check_golden.sh [test/r dir].
set -eu
dir=${1:-$(dirname "$0")}
rscript=${RSCRIPT:-Rscript}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for script in "$dir"/compute_*.R; do
  name=$(basename "$script" .R)
  name=${name#compute_}
  "$rscript" "$script" "$tmp/$name.csv" "$dir" >/dev/null 2>"$tmp/$name.err" || {
    echo "FAIL: $script did not run:"; cat "$tmp/$name.err"; status=1; continue; }
  "$rscript" -e '
    a <- commandArgs(TRUE)
    old <- read.csv(a[1], colClasses = "character"); new <- read.csv(a[2], colClasses = "character")
    key <- function(d) paste(d$id, d$field)
    if (!identical(key(old), key(new))) { cat("FAIL: rows differ in", a[1], "\n"); quit(status = 1) }
    num <- function(v) as.numeric(ifelse(v == "Inf", "Inf", ifelse(v == "-Inf", "-Inf", v)))
    o <- num(old$value); n <- num(new$value)
    bad <- !((is.infinite(o) & o == n) | abs(o - n) <= 1e-9 * pmax(abs(o), 1e-300) | (o == 0 & abs(n) < 1e-15))
    if (any(bad)) { print(cbind(old[bad, ], new = new$value[bad])); quit(status = 1) }
    cat("ok:", a[1], nrow(old), "values\n")' "$dir/golden/$name.csv" "$tmp/$name.csv" || status=1
done
exit $status
