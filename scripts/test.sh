#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test (unit, lit,
# real projects, end-to-end) through CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "${ALEA_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)" "$@"
