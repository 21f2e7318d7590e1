// Layout collision odds (see collision.hpp for the model).
#include "alea/analysis/collision.hpp"

#include <algorithm>
#include <cmath>

namespace alea::analysis {

namespace {

double lnFactorial(std::size_t n) { return std::lgamma(static_cast<double>(n) + 1.0); }

} // namespace

CollisionOdds layoutCollisionOdds(const LayoutSpace &s, std::size_t builds) {
  double lnL = 0; // natural log of the layouts counted
  if (s.sectionOrder) {
    lnL += lnFactorial(s.functions + (s.otherFunctions > 0 ? 1 : 0));
  } else {
    const std::size_t m = std::max<std::size_t>(s.modules, 1);
    if (s.functionOrder) {
      // n functions over m modules, as evenly as possible: r modules hold
      // q + 1, the others q (the fewest orders of any split).
      const std::size_t q = s.functions / m, r = s.functions % m;
      lnL +=
          static_cast<double>(r) * lnFactorial(q + 1) + static_cast<double>(m - r) * lnFactorial(q);
    }
    if (s.linkOrder)
      lnL += lnFactorial(s.modules);
  }
  if (s.codePadding)
    lnL += static_cast<double>(s.functions) * std::log(4.0);
  CollisionOdds o;
  o.log10Layouts = lnL / std::log(10.0);
  o.pairProbability = std::exp(-lnL);
  // Birthday: log prod_{i=1}^{b-1} (1 - i/L), with log1p for tiny i/L.
  double lnNone = 0;
  for (std::size_t i = 1; i < builds; ++i) {
    const double share = static_cast<double>(i) * o.pairProbability;
    if (share >= 1) {
      lnNone = -INFINITY;
      break;
    }
    lnNone += std::log1p(-share);
  }
  o.anyPairProbability = builds < 2 ? 0 : -std::expm1(lnNone);
  return o;
}

} // namespace alea::analysis
