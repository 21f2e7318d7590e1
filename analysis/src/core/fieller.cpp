// Fieller's interval for the ratio of two means (Kalibera & Jones TR 2012
// Lemma 7.7, eq. 12; KJ13 eq. 5). Implemented in the general quadratic form of
// spec_000 §4.2, a theta^2 - 2 b theta + c <= 0 with a = d^2 - t^2 v_dd,
// b = m d - t^2 v_md, c = m^2 - t^2 v_mm, where d is the BASELINE
// (denominator) mean: the paper's Lemma 7.7 mislabels numerator and
// denominator (spec_000 §9.1). Bounded iff a > 0 (the baseline mean is
// significantly non-zero); otherwise the set is two rays or the whole line and
// we report Unbounded with no numbers (spec_000 §9.4).
#include "alea/analysis/fieller.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace alea::analysis {

FiellerResult fiellerFromMoments(double m, double vmm, double d, double vdd, double vmd, double q,
                                 double confidence) {
  FiellerResult out;
  out.confidence = confidence;
  out.quantile = q;
  out.estimate = d != 0 ? m / d : std::numeric_limits<double>::infinity();
  const double q2 = q * q;
  const double a = d * d - q2 * vdd;
  const double b = m * d - q2 * vmd;
  const double c = m * m - q2 * vmm;
  if (!(a > 0)) {
    out.status = FiellerStatus::Unbounded;
    return out;
  }
  // With a > 0 and a valid covariance matrix D >= 0 (for v_md = 0,
  // D = q^2 (a v_mm + m^2 v_dd)); clamp rounding noise.
  const double disc = std::max(b * b - a * c, 0.0);
  const double root = std::sqrt(disc);
  out.status = FiellerStatus::Bounded;
  out.interval = Interval{(b - root) / a, (b + root) / a};
  return out;
}

std::optional<Interval> fiellerFromRelativeHalfWidths(double ratio, double e, double ePrime) {
  // spec_001 B.9.3: the discriminant over Ybar^2 Ybar'^2 is e^2 + e'^2 -
  // e^2 e'^2, the denominator Ybar^2 - h^2 over Ybar^2 is 1 - e^2.
  if (!(e >= 0 && e < 1) || !(ePrime >= 0))
    return std::nullopt;
  const double e2 = e * e, p2 = ePrime * ePrime;
  const double root = std::sqrt(std::max(e2 + p2 - e2 * p2, 0.0));
  const double a = ratio * (1 - root) / (1 - e2), b = ratio * (1 + root) / (1 - e2);
  return Interval{std::min(a, b), std::max(a, b)};
}

double ratioHalfWidthApproximation(double ratio, double e, double ePrime) {
  return std::fabs(ratio) * std::sqrt(e * e + ePrime * ePrime); // KJ13 eq. 6
}

namespace {

struct TopMoments {
  double mean = 0;
  double varOfMean = 0; // S_{n+1}^2 / n_{n+1}
  std::size_t n = 0;
};

TopMoments topMoments(const Hierarchy &h) {
  const std::vector<double> top = h.topMeans();
  TopMoments out;
  out.n = top.size();
  for (double x : top)
    out.mean += x;
  out.mean /= static_cast<double>(out.n);
  double ss = 0;
  for (double x : top)
    ss += (x - out.mean) * (x - out.mean);
  out.varOfMean = ss / static_cast<double>(out.n - 1) / static_cast<double>(out.n);
  return out;
}

// Sum of cross products of the paired top-level means about their means.
double crossProducts(const std::vector<double> &c, double mc, const std::vector<double> &b,
                     double mb) {
  double s = 0;
  for (std::size_t i = 0; i < c.size(); ++i)
    s += (c[i] - mc) * (b[i] - mb);
  return s;
}

std::string checkPair(const Hierarchy &candidate, const Hierarchy &baseline, double confidence) {
  for (const Hierarchy *h : {&candidate, &baseline}) {
    if (std::string problem = validateHierarchy(*h); !problem.empty())
      return problem;
    if (h->topCount() < 2)
      return "Fieller's interval needs at least 2 units at the top level '" + h->levelNames[0] +
             "' of each system";
  }
  if (candidate.topCount() != baseline.topCount())
    return "paired systems need the same number of top-level units (" +
           std::to_string(candidate.topCount()) + " and " + std::to_string(baseline.topCount()) +
           ")";
  if (!(confidence > 0 && confidence < 1))
    return "confidence must lie strictly between 0 and 1";
  return {};
}

} // namespace

Expected<FiellerResult> fiellerPairedRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                                           double confidence, IntervalMethod method,
                                           double varianceFactor) {
  if (std::string problem = checkPair(candidate, baseline, confidence); !problem.empty())
    return fail(std::move(problem));
  const TopMoments num = topMoments(candidate);
  const TopMoments den = topMoments(baseline);
  const double n = static_cast<double>(num.n);
  // Fieller 1954 with the covariance of the two estimates: the pair means
  // (c_i, b_i) are i.i.d. across pairs, so cov(mean c, mean b) = cov(c, b)/n,
  // estimated with the sample covariance (divisor n - 1) like S_c^2 and S_b^2.
  const double vmd =
      crossProducts(candidate.topMeans(), num.mean, baseline.topMeans(), den.mean) / (n - 1) / n;
  // nu = n - 1 for n pairs: the interval is the set of theta that the
  // one-sample t-test of the n pair differences c_i - theta b_i does not
  // reject, (m - theta d)^2 <= t^2 (v_mm - 2 theta v_md + theta^2 v_dd)
  // (exact for bivariate normal pair means).
  const double df = method == IntervalMethod::Normal ? 0 : n - 1;
  const double q = method == IntervalMethod::Normal ? normalQuantileTwoSided(confidence)
                                                    : tQuantileTwoSided(confidence, df);
  const double k = std::max(1.0, varianceFactor);
  FiellerResult out = fiellerFromMoments(num.mean, k * num.varOfMean, den.mean, k * den.varOfMean,
                                         k * vmd, q, confidence);
  out.df = df;
  return out;
}

double neighbourVarianceFactor(std::vector<NeighbourBlock> blocks, std::size_t pairs,
                               double theta) {
  if (pairs < 2 || blocks.size() < 3)
    return 1;
  std::stable_sort(
      blocks.begin(), blocks.end(),
      [](const NeighbourBlock &a, const NeighbourBlock &b) { return a.order < b.order; });
  std::vector<double> sum(pairs, 0), count(pairs, 0);
  for (const NeighbourBlock &b : blocks) {
    sum[b.pair] += b.candidate - theta * b.baseline;
    count[b.pair] += 1;
  }
  double mean = 0, used = 0;
  for (std::size_t j = 0; j < pairs; ++j)
    if (count[j] > 0) {
      mean += sum[j] / count[j];
      used += 1;
    }
  if (used < 2)
    return 1;
  mean /= used;
  double ss = 0;
  for (std::size_t j = 0; j < pairs; ++j)
    if (count[j] > 0)
      ss += (sum[j] / count[j] - mean) * (sum[j] / count[j] - mean);
  const double independent = ss / (used - 1) / used;
  if (!(independent > 0))
    return 1;
  double neighbours = 0;
  for (std::size_t k = 0; k + 1 < blocks.size(); ++k) {
    const NeighbourBlock &a = blocks[k], &b = blocks[k + 1];
    if (a.pair == b.pair)
      continue;
    const double ra = a.candidate - theta * a.baseline - mean;
    const double rb = b.candidate - theta * b.baseline - mean;
    neighbours += ra * rb / (count[a.pair] * count[b.pair]);
  }
  return std::max(1.0, 1 + 2 * neighbours / (used * used) / independent);
}

double pairCorrelation(const Hierarchy &candidate, const Hierarchy &baseline) {
  const std::vector<double> c = candidate.topMeans(), b = baseline.topMeans();
  const TopMoments num = topMoments(candidate), den = topMoments(baseline);
  const double sxy = crossProducts(c, num.mean, b, den.mean);
  double sxx = 0, syy = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    sxx += (c[i] - num.mean) * (c[i] - num.mean);
    syy += (b[i] - den.mean) * (b[i] - den.mean);
  }
  if (!(sxx > 0 && syy > 0))
    return 0;
  return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

Expected<FiellerResult> fiellerRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                                     double confidence, IntervalMethod method, FiellerDf dfRule) {
  for (const Hierarchy *h : {&candidate, &baseline}) {
    if (std::string problem = validateHierarchy(*h); !problem.empty())
      return fail(std::move(problem));
    if (h->topCount() < 2)
      return fail("Fieller's interval needs at least 2 units at the top level '" +
                  h->levelNames[0] + "' of each system");
  }
  if (!(confidence > 0 && confidence < 1))
    return fail("confidence must lie strictly between 0 and 1");

  const TopMoments num = topMoments(candidate);
  const TopMoments den = topMoments(baseline);
  double df = 0;
  double q = 0;
  if (method == IntervalMethod::Normal) {
    q = normalQuantileTwoSided(confidence);
  } else {
    // nu = n_{n+1} - 1 (TR 2012 eq. 12; spec_000 §9.2). Unequal counts are not
    // covered by the paper (spec_001 D-B6): MinCount is the conservative
    // choice, Welch the Welch-Satterthwaite approximation.
    df = static_cast<double>(std::min(num.n, den.n) - 1);
    if (num.n != den.n && dfRule == FiellerDf::Welch) {
      const double v = num.varOfMean + den.varOfMean;
      const double w = num.varOfMean * num.varOfMean / static_cast<double>(num.n - 1) +
                       den.varOfMean * den.varOfMean / static_cast<double>(den.n - 1);
      if (w > 0)
        df = v * v / w;
    }
    q = tQuantileTwoSided(confidence, df);
  }
  FiellerResult out =
      fiellerFromMoments(num.mean, num.varOfMean, den.mean, den.varOfMean, 0.0, q, confidence);
  out.df = df;
  return out;
}

} // namespace alea::analysis
