// Standard normal draws for the simulation tests (coverage, the adaptive
// stopping rule): Box-Muller on alea::Rng, the same numbers everywhere.
#pragma once

#include "alea/random.hpp"

#include <cmath>
#include <numbers>

namespace alea::analysis::test {

// Box-Muller on alea::Rng (portable: the same normals everywhere).
struct NormalSource {
  alea::Rng rng;
  bool hasSpare = false;
  double spare = 0;
  double next() {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    double u1;
    do
      u1 = rng.uniform();
    while (u1 <= 0);
    const double u2 = rng.uniform();
    const double r = std::sqrt(-2 * std::log(u1));
    spare = r * std::sin(2 * std::numbers::pi * u2);
    hasSpare = true;
    return r * std::cos(2 * std::numbers::pi * u2);
  }
};

} // namespace alea::analysis::test
