// Confidence interval for the mean of one system from its top-level means
// (TR 2012 §6.2 practitioner form, KJ13 eq. 4): Ybar +- q * sqrt(S_{n+1}^2 /
// n_{n+1}), with q = t_{1-alpha/2, n_{n+1}-1} (default, recommended) or the
// normal u_{1-alpha/2} (TR 2012 eq. 11, on request). Also the common Interval
// value type and the quantile helpers shared by Fieller and the planner.
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/expected.hpp"

#include <cstddef>

namespace alea::analysis {

// A closed interval [lower, upper] with lower <= upper.
struct Interval {
  double lower = 0;
  double upper = 0;
  bool contains(double x) const { return lower <= x && x <= upper; }
  double width() const { return upper - lower; }
};

// Which quantile multiplies the standard error.
enum class IntervalMethod {
  T,      // Student t with nu = n_top - 1 (spec_000 §3.1; the default)
  Normal, // standard normal u (TR 2012 eq. 11, "normal-asymptotic")
};

struct MeanInterval {
  double mean = 0;          // grand mean Ybar
  double standardError = 0; // sqrt(S_{n+1}^2 / n_{n+1})
  double quantile = 0;      // t_{1-alpha/2,nu} or u_{1-alpha/2}
  double halfWidth = 0;     // quantile * standardError
  Interval interval;        // [mean - halfWidth, mean + halfWidth]
  std::size_t df = 0;       // n_top - 1 (also reported for the normal variant)
  double confidence = 0.95;
  IntervalMethod method = IntervalMethod::T;
};

// Fails when the hierarchy is invalid, has fewer than 2 top-level units, or
// confidence is not in (0, 1).
Expected<MeanInterval> meanInterval(const Hierarchy &h, double confidence = 0.95,
                                    IntervalMethod method = IntervalMethod::T);

// Kalibera & Tůma 2006 (KT06) eq. 17, for comparison only: Ybar +-
// u_{1-alpha/2} sqrt(S_E^2/(lmn) + S_B^2/(lm) + S_V^2/l), generalised to any
// depth as sum_i S_i^2 / prod_{k <= i} n_k (levels highest first), with the
// naive S_i^2 of KJ13 eq. 1 (variance.hpp sSquared) and the normal quantile.
// KJ13 supersedes it: that variance is biased upward (spec_001 A.4, A.9; TV3:
// 2.993056 against KJ13's 1.1875 on TR 2012 Table III). meanInterval() is the
// interval alea reports.
struct Kt06Interval {
  double mean = 0;      // grand mean Ybar
  double variance = 0;  // the eq. 17 variance term
  double quantile = 0;  // u_{1-alpha/2}
  double halfWidth = 0; // quantile * sqrt(variance)
  Interval interval;
  double confidence = 0.95;
};

// Fails like meanInterval() (invalid hierarchy, < 2 top-level units,
// confidence outside (0, 1)).
Expected<Kt06Interval> kt06MeanInterval(const Hierarchy &h, double confidence = 0.95);

// t_{1-alpha/2, df} (df may be fractional, > 0), from Boost.Math.
double tQuantileTwoSided(double confidence, double df);
// u_{1-alpha/2}, from Boost.Math.
double normalQuantileTwoSided(double confidence);

} // namespace alea::analysis
