// Confidence interval for one system's mean from its top-level means: the
// practitioner form of Kalibera & Jones TR 2012 §6.2 (KJ13 eq. 4),
// Ybar +- t_{1-alpha/2, n_{n+1}-1} sqrt(S_{n+1}^2 / n_{n+1}), and the
// normal-asymptotic variant of TR 2012 eq. 11 (u instead of t). Quantiles come
// from Boost.Math with the engine's single policy (math_policy.hpp).
#include "alea/analysis/interval.hpp"

#include "alea/analysis/math_policy.hpp"
#include "alea/analysis/variance.hpp"

#include <cmath>

namespace alea::analysis {

double tQuantileTwoSided(double confidence, double df) {
  // Upper tail alpha/2 through complement() keeps precision for small alpha.
  const double alpha = 1.0 - confidence;
  return boost::math::quantile(boost::math::complement(StudentsT(df), alpha / 2));
}

double normalQuantileTwoSided(double confidence) {
  const double alpha = 1.0 - confidence;
  return boost::math::quantile(boost::math::complement(Normal(0.0, 1.0), alpha / 2));
}

Expected<MeanInterval> meanInterval(const Hierarchy &h, double confidence, IntervalMethod method) {
  if (std::string problem = validateHierarchy(h); !problem.empty())
    return fail(std::move(problem));
  if (!(confidence > 0 && confidence < 1))
    return fail("confidence must lie strictly between 0 and 1");
  const std::size_t n = h.topCount();
  if (n < 2)
    return fail("a confidence interval needs at least 2 units at the top level '" +
                h.levelNames[0] + "'");

  const std::vector<double> top = h.topMeans();
  double mean = 0;
  for (double m : top)
    mean += m;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double m : top)
    ss += (m - mean) * (m - mean);
  const double s2 = ss / static_cast<double>(n - 1); // S_{n+1}^2

  MeanInterval out;
  out.mean = mean;
  out.standardError = std::sqrt(s2 / static_cast<double>(n));
  out.df = n - 1;
  out.confidence = confidence;
  out.method = method;
  out.quantile = method == IntervalMethod::T
                     ? tQuantileTwoSided(confidence, static_cast<double>(n - 1))
                     : normalQuantileTwoSided(confidence);
  out.halfWidth = out.quantile * out.standardError;
  out.interval = {mean - out.halfWidth, mean + out.halfWidth};
  return out;
}

Expected<Kt06Interval> kt06MeanInterval(const Hierarchy &h, double confidence) {
  if (std::string problem = validateHierarchy(h); !problem.empty())
    return fail(std::move(problem));
  if (!(confidence > 0 && confidence < 1))
    return fail("confidence must lie strictly between 0 and 1");
  if (h.topCount() < 2)
    return fail("a confidence interval needs at least 2 units at the top level '" +
                h.levelNames[0] + "'");
  // KT06 eq. 17 (spec_001 A.4): each level's naive S^2 (eqs. 14-16) over the
  // number of its units, l, lm, lmn for binary, execution, measurement.
  const std::vector<double> s2 = sSquared(h);
  Kt06Interval out;
  out.mean = h.grandMean();
  out.confidence = confidence;
  double units = 1;
  for (std::size_t i = 0; i < h.depth(); ++i) {
    units *= static_cast<double>(h.shape[i]);
    out.variance += s2[i] / units;
  }
  out.quantile = normalQuantileTwoSided(confidence);
  out.halfWidth = out.quantile * std::sqrt(out.variance);
  out.interval = {out.mean - out.halfWidth, out.mean + out.halfWidth};
  return out;
}

} // namespace alea::analysis
