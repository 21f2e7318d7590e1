// Holm's family of comparisons (family.hpp): threshold p-values of a ratio
// from its Fieller interval (bisection on alpha) or its bootstrap replicates,
// and Holm's (1979) step-down levels and adjusted p-values (noise.hpp
// adjustHolm, R's p.adjust(p, "holm")).
#include "alea/analysis/family.hpp"

#include "alea/analysis/htest.hpp"
#include "alea/analysis/noise.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace alea::analysis {

namespace {

// Which side of the band [1 - thr, 1 + thr] the estimate lies on.
enum class Side { Inside, Below, Above };

Side sideOf(double estimate, double threshold) {
  if (estimate < 1 - threshold)
    return Side::Below;
  if (estimate > 1 + threshold)
    return Side::Above;
  return Side::Inside;
}

} // namespace

double thresholdPValue(const std::function<std::optional<Interval>(double)> &intervalAt,
                       double estimate, double threshold) {
  const Side side = sideOf(estimate, threshold);
  if (side == Side::Inside)
    return 1;
  const Decision wanted = side == Side::Below ? Decision::Faster : Decision::Slower;
  const auto beyond = [&](double alpha) {
    const auto i = intervalAt(1 - alpha);
    return i && decide(*i, threshold) == wanted;
  };
  // The intervals shrink towards the estimate as alpha grows: "beyond" holds
  // from p on. At confidence 1e-9 the interval is the estimate up to 1e-9 of
  // its width at 95%; an estimate that is still not beyond sits on the edge.
  double hi = 1 - 1e-9;
  if (!beyond(hi))
    return 1;
  double lo = kMinThresholdPValue;
  if (beyond(lo))
    return lo;
  // Invariant: !beyond(lo), beyond(hi). Geometric bisection resolves small
  // p-values as finely as large ones.
  for (int step = 0; step < 200 && hi > lo * (1 + 1e-9); ++step) {
    const double mid = std::sqrt(lo * hi);
    (beyond(mid) ? hi : lo) = mid;
  }
  return hi;
}

double bootstrapThresholdPValue(std::span<const double> replicates, double estimate,
                                double threshold) {
  const Side side = sideOf(estimate, threshold);
  if (side == Side::Inside || replicates.empty())
    return 1;
  // Replicates on the other side of (or on) the nearer band edge; an infinite
  // replicate (resampled baseline mean 0) counts there too.
  std::size_t c = 0;
  for (double r : replicates)
    c += side == Side::Below ? !(r < 1 - threshold) : !(r > 1 + threshold);
  const double b = static_cast<double>(replicates.size());
  return std::min(1.0, 2 * (static_cast<double>(c) + 1) / (b + 1));
}

std::vector<HolmStep> holmSteps(std::span<const double> pValues, double alpha) {
  const std::size_t m = pValues.size();
  // Ties in input order, as adjustHolm() sorts them.
  const std::vector<std::size_t> order = ascendingOrder(pValues);
  const std::vector<double> adjusted = adjustHolm(pValues);
  std::vector<HolmStep> steps(m);
  for (std::size_t rank = 0; rank < m; ++rank) {
    HolmStep &s = steps[order[rank]];
    s.rank = rank;
    s.adjustedP = adjusted[order[rank]];
    s.level = 1 - alpha / static_cast<double>(m - rank);
    s.rejected = s.adjustedP <= alpha;
  }
  return steps;
}

Decision holmDecision(const std::optional<Interval> &interval, double threshold,
                      const HolmStep &step) {
  if (!interval)
    return Decision::Inconclusive;
  const Decision d = decide(*interval, threshold);
  if ((d == Decision::Faster || d == Decision::Slower) && !step.rejected)
    return Decision::Inconclusive;
  return d;
}

} // namespace alea::analysis
