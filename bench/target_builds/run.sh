#!/usr/bin/env bash
# Builds on targets (issue 23, item 2; a benchmark, not a test: nothing asserts
# a time). The build phase of a 12-build, 2-system campaign of Lua 5.4
# (Debian's source package, its own makefile, a serial `make` per build) with
# build_on = "targets" on TWO SSH targets against ONE, side by side in one run,
# and their ratio (goal >= 1.8x; both targets are this machine, so two targets
# are two concurrent builds on its 2 cores); the host with build_jobs = 1 as a
# reference. Also checks that every variant made the host's artifacts.
#
# Set-up, all under a temporary directory removed at the end: a real sshd
# (test/e2e/targets_fixture.SshServer, host aliases alea-t1 and alea-t2), the
# Lua sources in the campaign file's directory (staged to each target once
# per connection, as a remote machine needs them), the targets' workdirs.
# Build phase = from `alea run`'s start to the last build recorded (the store's
# build.finished_at): alea's start-up, connecting, staging the sources, the
# builds and fetching their artifacts.
#
# Needs root (sshd), ssh and sshd, python3, network or a local apt cache for
# the Lua sources (test/projects/common.sh, fetch_source).
# Usage: bench/target_builds/run.sh [BUILD_DIR]  (ALEA_PROJECTS_CACHE: where the
# Debian sources are kept, default BUILD_DIR/projects-cache)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ALEA_BUILD=${1:-$here/../../build}
source "$here/../../test/projects/common.sh"
src=$(fetch_source lua5.4 --skip-patches)
exec python3 "$here/target_builds.py" "$ALEA_BUILD" "$src"
