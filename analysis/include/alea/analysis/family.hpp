// Several comparisons on one benchmark (issue 10: three or more systems, or
// every pair of candidates) form a family whose decisions Holm's step-down
// procedure makes together, controlling the family-wise error rate (Holm
// 1979). Each comparison contributes the p-value of the report's own
// decision rule (TR 2012 §4.2: faster iff the interval lies wholly below
// 1 - thr, slower iff wholly above 1 + thr): the smallest alpha at which its
// 1 - alpha interval lies beyond the threshold band. report.hpp
// RatioReport::Family holds the outcome.
#pragma once

#include "alea/analysis/decision.hpp"
#include "alea/analysis/interval.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace alea::analysis {

// p-values below this are not resolved (the interval functions take the
// confidence 1 - alpha, which a double cannot hold much closer to 1): such a
// comparison gets p = kMinThresholdPValue, an upper bound.
inline constexpr double kMinThresholdPValue = 1e-12;

// The smallest alpha at which intervalAt(1 - alpha) lies wholly beyond the
// band [1 - threshold, 1 + threshold] on the estimate's side (decide() would
// say Faster or Slower), by bisection on log alpha to a relative 1e-9.
// `intervalAt` gives nullopt for an unbounded interval (Fieller's, when the
// denominator is not significantly non-zero: never beyond), and its intervals
// must be nested, shrinking towards the estimate as alpha grows (Fieller's
// and t intervals are). 1 when the estimate lies inside the band.
double thresholdPValue(const std::function<std::optional<Interval>(double confidence)> &intervalAt,
                       double estimate, double threshold);

// The same decision read off bootstrap replicates of the ratio (the Monte
// Carlo p-value (c + 1) / (B + 1) of Davison & Hinkley 1997, ch. 4, for the
// percentile interval's test): with c the replicates at or beyond the band edge the estimate is
// compared with (>= 1 - threshold when the estimate is below the band, <= 1 +
// threshold when above) and B replicates, p = min(1, 2 (c + 1) / (B + 1)),
// the two-sided level at which the equal-tailed percentile interval starts to
// exclude that edge (the +1s keep p > 0 with B finite). 1 when the estimate
// lies inside the band or there are no replicates.
double bootstrapThresholdPValue(std::span<const double> replicates, double estimate,
                                double threshold);

// Holm's procedure at family-wise level alpha for one comparison of m.
struct HolmStep {
  std::size_t rank = 0;  // position in ascending p (0 = smallest; ties in input order)
  double adjustedP = 1;  // max over ranks <= this of min(1, (m - rank) p), R's p.adjust "holm"
  double level = 0;      // 1 - alpha / (m - rank): the confidence Holm tests it at
  bool rejected = false; // adjustedP <= alpha: every step up to this one rejected
};

// One step per p-value, in input order. alpha in (0, 1).
std::vector<HolmStep> holmSteps(std::span<const double> pValues, double alpha);

// The family's decision on one comparison: decide() on its interval at the
// step's level (none: unbounded, Inconclusive), except that faster or slower
// needs Holm to reject it; an interval beyond the band at its own level
// after an earlier step was not rejected is Inconclusive (Holm stops at the
// first acceptance).
Decision holmDecision(const std::optional<Interval> &intervalAtLevel, double threshold,
                      const HolmStep &step);

} // namespace alea::analysis
