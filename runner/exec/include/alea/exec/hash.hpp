// SHA-256 for content-addressed build artifacts: the campaign directory keeps
// each artifact once, under objects/<hex digest> (alea/sha256.hpp, shared
// with the wrappers' build cache).
#pragma once

#include "alea/sha256.hpp"

namespace alea::runner {

using alea::Sha256;
using alea::sha256File;
using alea::sha256Hex;

} // namespace alea::runner
