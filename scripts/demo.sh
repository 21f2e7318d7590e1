#!/usr/bin/env bash
# The main job (README's first command): on a fresh Debian machine, install the
# dependencies, build alea, run the demo campaign (examples/demo/campaign.toml:
# -O2 vs -O1 of the demo kernels over randomized layouts) into _work/demo, and
# print the report. A second run resumes the stored campaign (nothing is redone)
# unless ALEA_DEMO_FRESH=1 removes it first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ALEA_BUILD_DIR:-$root/build}
work=$root/_work/demo

"$root/scripts/setup.sh"
# Only what the demo runs: the CLI, the wrappers and the plugin. The compiler's
# output goes to a log, shown only if the build fails.
mkdir -p "$root/_work"
echo "demo: building alea into $build (log: _work/build.log)" >&2
if ! ALEA_BUILD_DIR=$build "$root/scripts/build.sh" alea alea-cc alea-c++ alea-ld AleaPlugin \
       >"$root/_work/build.log" 2>&1; then
  tail -40 "$root/_work/build.log" >&2
  echo "demo: the build failed (full log: _work/build.log)" >&2
  exit 1
fi

if [[ ${ALEA_DEMO_FRESH:-0} == 1 ]]; then
  rm -rf "$work"
fi
mkdir -p "$root/_work"
start=$(date +%s)
# Exit status 3: finished, with failed executions (recorded, listed in the
# report): still worth the report. Anything else but 0 stops the demo.
status=0
"$build/bin/alea" run "$root/examples/demo/campaign.toml" --dir "$work" --no-report || status=$?
if [[ $status -ne 0 && $status -ne 3 ]]; then
  exit "$status"
fi
echo
"$build/bin/alea" report "$work" --format "${ALEA_DEMO_FORMAT:-text}"
echo
echo "demo: campaign and report took $(( $(date +%s) - start )) s; store: $work"
