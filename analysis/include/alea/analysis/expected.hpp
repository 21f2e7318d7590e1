// The statistics engine's return type is alea's one Expected (common/,
// alea/expected.hpp); these names keep the engine's spelling of it:
// `return fail("...")` into an Expected<T>, whose error() is one sentence.
#pragma once

#include "alea/expected.hpp"

namespace alea::analysis {

using alea::Expected;
using alea::fail;

} // namespace alea::analysis
