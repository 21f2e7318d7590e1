// Seeded normal noise for the analysis methods' tests (changepoint_test.cpp,
// revision_steps_test.cpp): Box-Muller over alea::Rng, so that a series is the
// same on every machine.
#pragma once

#include "alea/random.hpp"

#include <cmath>
#include <cstdint>

namespace alea::analysis::test {

// Normal noise of SD `sd` (relative), from a seeded generator.
class Noise {
public:
  Noise(std::uint64_t seed, double sd) : rng_(seed), sd_(sd) {}
  double operator()() {
    const double u1 = 1.0 - rng_.uniform(), u2 = rng_.uniform();
    return sd_ * std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
  }

private:
  alea::Rng rng_;
  double sd_;
};

} // namespace alea::analysis::test
