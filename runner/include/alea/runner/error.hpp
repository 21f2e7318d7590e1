// The runner's error values are alea's one Expected/Error/Status (common/,
// alea/expected.hpp): library code returns them instead of throwing (STYLE.md
// principle 8); the `alea` command turns one into a single `alea: error: ...`
// line, and an Error of kind Busy into its own exit status.
#pragma once

#include "alea/expected.hpp"

namespace alea::runner {

using alea::Error;
using alea::ErrorKind;
using alea::Expected;
using alea::Status;

} // namespace alea::runner
