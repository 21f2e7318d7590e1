// The layout effect (layout_effect.hpp): the top level's variance component
// T^2 (Kalibera & Jones TR 2012 §6.1), its modified large-sample interval
// (Graybill & Wang 1980; Ting et al. 1990; Burdick & Graybill 1992, the
// interval on theta1 - theta2 of two independent mean squares) and the
// expected range d2(n) of n standard normals (Tippett 1925). Every quantile
// comes from Boost.Math with the engine's policy (math_policy.hpp).
#include "alea/analysis/layout_effect.hpp"

#include "alea/analysis/math_policy.hpp"
#include "alea/analysis/variance.hpp"

#include <boost/math/quadrature/exp_sinh.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace alea::analysis {

double expectedRange(std::size_t n) {
  if (n < 2)
    return 0;
  // The integrand is even in x (Phi(-x) = 1 - Phi(x)), so d2 is twice the
  // integral over [0, inf). With Q = 1 - Phi(x), 1 - Phi^n = -expm1(n
  // log1p(-Q)) keeps its digits where Phi^n is close to 1 (large x).
  const Normal standard(0.0, 1.0);
  const double nn = static_cast<double>(n);
  const auto integrand = [&](double x) {
    const double q = boost::math::cdf(boost::math::complement(standard, x));
    return -std::expm1(nn * std::log1p(-q)) - std::pow(q, nn);
  };
  boost::math::quadrature::exp_sinh<double> integrator;
  return 2 * integrator.integrate(integrand, 0.0, std::numeric_limits<double>::infinity());
}

Expected<Interval> mlsDifferenceInterval(double s1, double nu1, double s2, double nu2,
                                         double confidence) {
  if (!(s1 >= 0 && std::isfinite(s1) && s2 >= 0 && std::isfinite(s2)))
    return fail("the mean squares must be finite and >= 0");
  if (!(nu1 > 0 && nu2 > 0))
    return fail("the degrees of freedom must be > 0");
  if (!(confidence > 0 && confidence < 1))
    return fail("confidence must lie strictly between 0 and 1");
  // A two-sided 1 - alpha interval is the pair of one-sided 1 - a bounds with
  // a = alpha / 2 (Burdick & Graybill write the bounds for a 1 - 2a interval).
  const double a = (1 - confidence) / 2;
  using boost::math::complement;
  using boost::math::quantile;
  // F_{a:nu,inf} = chi^2_{upper a, nu} / nu: the F distribution's limit as
  // the denominator degrees of freedom grow.
  const auto fInfUpper = [&](double nu) { return quantile(complement(ChiSquared(nu), a)) / nu; };
  const auto fInfLower = [&](double nu) { return quantile(ChiSquared(nu), a) / nu; };
  const FisherF f12(nu1, nu2);
  const double fUpper = quantile(complement(f12, a)); // F_{a:nu1,nu2}
  const double fLower = quantile(f12, a);             // F_{1-a:nu1,nu2}

  const double g1 = 1 - 1 / fInfUpper(nu1);
  const double h2 = 1 / fInfLower(nu2) - 1;
  const double g12 = ((fUpper - 1) * (fUpper - 1) - g1 * g1 * fUpper * fUpper - h2 * h2) / fUpper;
  const double vL = g1 * g1 * s1 * s1 + h2 * h2 * s2 * s2 + g12 * s1 * s2;

  const double h1 = 1 / fInfLower(nu1) - 1;
  const double g2 = 1 - 1 / fInfUpper(nu2);
  const double h12 = ((1 - fLower) * (1 - fLower) - h1 * h1 * fLower * fLower - g2 * g2) / fLower;
  const double vU = h1 * h1 * s1 * s1 + g2 * g2 * s2 * s2 + h12 * s1 * s2;

  const double estimate = s1 - s2;
  // vL and vU are sums of squares up to the cross terms, which can make them
  // slightly negative when one mean square dwarfs the other: read as 0.
  const double lower = estimate - std::sqrt(std::max(vL, 0.0));
  const double upper = estimate + std::sqrt(std::max(vU, 0.0));
  return Interval{std::max(lower, 0.0), std::max(upper, 0.0)};
}

LayoutEffect layoutEffect(const Hierarchy &h, double topShare, double confidence) {
  LayoutEffect e;
  if (std::string problem = validateHierarchy(h); !problem.empty()) {
    e.error = problem;
    return e;
  }
  e.level = h.levelNames[0];
  e.units = h.topCount();
  e.share = topShare;
  if (e.units < 2) {
    e.error = "the layout effect needs at least 2 units at the top level '" + e.level + "'";
    return e;
  }
  const std::vector<double> top = h.topMeans();
  const auto [lo, hi] = std::minmax_element(top.begin(), top.end());
  if (*lo > 0)
    e.observedSpread = *hi / *lo - 1;
  if (h.depth() < 2) {
    e.error = "the data has one level ('" + e.level + "'): the variance between " + e.level +
              "s cannot be told from the noise within them";
    return e;
  }
  const std::size_t nBelow = h.shape[1];
  if (nBelow < 2) {
    e.error = "one '" + h.levelNames[1] + "' per '" + e.level + "': the variance between " +
              e.level + "s cannot be told from the variance between " + h.levelNames[1] + "s";
    return e;
  }
  const double mean = h.grandMean();
  if (!(mean > 0)) {
    e.error = "the grand mean is not positive: no relative layout effect";
    return e;
  }
  // TR 2012 §6.1: T^2_top = S^2_top - S^2_below / n_below, an unbiased
  // difference of two independent mean squares with nu1 = n_top - 1 and
  // nu2 = n_top (n_below - 1) (the pooled within-unit variance of the level
  // below, balanced data).
  const std::vector<double> s2 = sSquared(h);
  const double s1 = s2[0];
  const double s2Scaled = s2[1] / static_cast<double>(nBelow);
  const double nu1 = static_cast<double>(e.units - 1);
  const double nu2 = static_cast<double>(e.units) * static_cast<double>(nBelow - 1);
  auto interval = mlsDifferenceInterval(s1, nu1, s2Scaled, nu2, confidence);
  if (!interval) {
    e.error = interval.error();
    return e;
  }
  const double t2 = s1 - s2Scaled;
  e.sd = t2 > 0 ? std::sqrt(t2) : 0.0;
  e.relativeSd = e.sd / mean;
  e.relativeSdCi = {std::sqrt(interval->lower) / mean, std::sqrt(interval->upper) / mean};
  e.d2 = expectedRange(e.units);
  e.expectedSpread = e.d2 * e.relativeSd;
  e.expectedSpreadCi = {e.d2 * e.relativeSdCi.lower, e.d2 * e.relativeSdCi.upper};
  e.ok = true;
  return e;
}

} // namespace alea::analysis
