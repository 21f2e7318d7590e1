#!/usr/bin/env bash
# Repeated code in the product (issue 22): runs the `duplicates` tool of this
# workplace over the files git tracks outside test/, bench/ and examples/ (the
# tests, benchmarks and example programs are not product code), copied into a
# scratch folder because the tool takes one folder. Extra arguments go to the
# tool (e.g. --most 100).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command -v duplicates >/dev/null || { echo "product_duplicates: no duplicates command" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$root"
git ls-files -z | grep -zvE '^(test|bench|examples)/' |
  xargs -0 cp --parents -t "$scratch"
cd "$scratch"
duplicates --seconds 120 "$@"
