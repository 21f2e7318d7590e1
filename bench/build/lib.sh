# Shared helpers of the build-overhead benchmarks (sourced, not run):
# float arithmetic without bc, medians, and `timed`, which runs the caller's
# `compile_all TOOL OUTDIR` with ALEA_SEED set to its third argument (empty:
# unset, a plain build) and prints "wall cpu" seconds, cpu = user+sys of all
# children, less sensitive than wall time to other load on the machine.
calc() { awk "BEGIN { printf \"%.9f\", $* }"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
med() { printf '%s\n' "$@" | median; }
timed() {
  local TIMEFORMAT='%R %U %S' t
  t=$({ time ALEA_SEED=${3:-} compile_all "$1" "$2" >/dev/null; } 2>&1 | tail -n1)
  set -- $t
  echo "$1 $(calc "$2 + $3")"
}
