#!/usr/bin/env bash
# Configures and builds alea into ${ALEA_BUILD_DIR:-build} (Release, Ninja).
# Arguments, if any, are the targets to build (default: everything, tests included).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ALEA_BUILD_DIR:-$root/build}
if [[ ! -f $build/build.ninja ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm >/dev/null
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
