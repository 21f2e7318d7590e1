#!/bin/sh
# The statistics engine's layers (analysis/CMakeLists.txt): core < methods <
# report. Its headers share one folder (include/alea/analysis), so the
# compiler does not keep a lower layer from including a higher one's header:
# this does. Lists every `#include "alea/analysis/X.hpp"` in a core or
# methods file (source or header) that names a header of a layer above it,
# and exits 1 if there is one. A header's layer is the list it is in below;
# a header in neither list is the report layer's.
#   scripts/analysis_layers.sh [SOURCE_DIR]
cd "${1:-.}" || exit 2
core="bootstrap decision fieller hierarchy interval math_policy message planner ratio_planner variance"
methods="attribution changepoint collision diagnostics htest noise resampling revision_steps speedup_test"
headers() { for h in $*; do echo analysis/include/alea/analysis/$h.hpp; done; }
bad=0
check() { # check ALLOWED FILES...: includes of analysis headers not in ALLOWED
  allowed=$(echo $1 | tr ' ' '|')
  shift
  if grep -HnE '#include "alea/analysis/' "$@" | grep -vE "alea/analysis/($allowed)\.hpp"; then
    bad=1
  fi
}
check "$core" analysis/src/core/* $(headers $core)
check "$core $methods" analysis/src/methods/* $(headers $methods)
exit $bad
