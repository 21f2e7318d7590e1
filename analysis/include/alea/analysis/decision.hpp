// Threshold decision on a confidence interval for theta = candidate / baseline
// of execution TIMES (TR 2012 §4.2 and §8.3; spec_000 §5): "different" iff
// U < 1 - thr (faster) or L > 1 + thr (slower), strict inequalities as in the
// paper. The paper has no third outcome; we split its "may have the same
// performance" into NoChange (the whole interval lies inside [1-thr, 1+thr])
// and Inconclusive (it crosses 1-thr or 1+thr, or Fieller is unbounded).
#pragma once

#include "alea/analysis/fieller.hpp"
#include "alea/analysis/interval.hpp"

#include "alea/enum_names.hpp"

#include <optional>
#include <string_view>

namespace alea::analysis {

#define ALEA_DECISIONS(X)                                                                          \
  X(Faster, "faster")             /* U < 1 - thr */                                                \
  X(Slower, "slower")             /* L > 1 + thr */                                                \
  X(NoChange, "no change")        /* 1 - thr <= L and U <= 1 + thr */                              \
  X(Inconclusive, "inconclusive") /* anything else */
enum class Decision { ALEA_DECISIONS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Decision, ALEA_DECISIONS);

// thr >= 0 is a relative change (0.02 = 2%). thr = 0 gives the significance
// style decision: Faster/Slower iff the interval excludes 1, and NoChange only
// for the degenerate interval [1, 1].
Decision decide(const Interval &interval, double threshold);
// Unbounded Fieller intervals are Inconclusive.
Decision decide(const FiellerResult &fieller, double threshold);

// Which end of a bisection (`alea bisect GOOD BAD`) a revision between them is
// like, from its ratio to GOOD: like BAD when its decision is BAD's (Faster or
// Slower); like GOOD when it is NoChange; when inconclusive, by its interval
// if that lies wholly on one side of sqrt(badRatio), halfway from GOOD (1) to
// BAD on the log scale (a test at the interval's level of "nearer GOOD than
// BAD", or the reverse); otherwise, or with an unbounded interval or BAD's
// opposite decision, neither.
enum class BisectSide { Good, Bad, Neither };
BisectSide bisectSide(Decision decision, const std::optional<Interval> &interval,
                      Decision badDecision, double badRatio);

// "faster", "slower", "no change", "inconclusive" (ALEA_DECISIONS).
std::string_view decisionName(Decision d);

} // namespace alea::analysis
