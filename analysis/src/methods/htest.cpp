// Classical two-sample tests, computed the way R's `stats` package computes
// them (R 4.2, the version Debian ships), so the golden files in test/r/ agree
// to 1e-6 relative. Every distribution function comes from Boost.Math through
// math_policy.hpp; the only series written here is Kolmogorov's limiting
// distribution, which Boost 1.74 does not provide (see ksLimitCdf).
#include "alea/analysis/htest.hpp"

#include "alea/analysis/math_policy.hpp"

#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>

namespace alea::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool validConfidence(double c) { return c > 0 && c < 1; }

// The one of a test's three values (a statistic, a bound, a tail) that its
// alternative takes.
template <class T> T sided(Alternative a, T twoSided, T greater, T less) {
  return a == Alternative::TwoSided ? twoSided : a == Alternative::Greater ? greater : less;
}

bool allFinite(std::span<const double> x) {
  return std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
}

// The pooled sample of the rank tests (Wilcoxon, Kolmogorov-Smirnov): x
// shifted by -shiftX, then y; an error for an empty or non-finite sample.
Expected<std::vector<double>> pooledSample(std::string_view test, std::span<const double> x,
                                           std::span<const double> y, double shiftX) {
  if (x.empty() || y.empty())
    return fail(std::string(test) + ": each sample needs at least 1 observation");
  if (!allFinite(x) || !allFinite(y))
    return fail(std::string(test) + ": non-finite value");
  std::vector<double> pooled;
  pooled.reserve(x.size() + y.size());
  for (double v : x)
    pooled.push_back(v - shiftX);
  pooled.insert(pooled.end(), y.begin(), y.end());
  return pooled;
}

double normalCdf(double z) { return cdf(Normal(0, 1), z); }
double normalUpper(double z) { return cdf(complement(Normal(0, 1), z)); }
double normalQuantile(double p) { return quantile(Normal(0, 1), p); }

std::vector<double> sortedCopy(std::span<const double> x) {
  std::vector<double> s(x.begin(), x.end());
  std::sort(s.begin(), s.end());
  return s;
}

} // namespace

const char *alternativeName(Alternative alt) { return enumName(alt); }

double sampleMean(std::span<const double> x) {
  if (x.empty())
    return 0;
  double s = 0;
  for (double v : x)
    s += v;
  return s / static_cast<double>(x.size());
}

double sampleVariance(std::span<const double> x) {
  if (x.size() < 2)
    return 0;
  // Two-pass algorithm (as R's var), numerically stable for times ~1e0..1e3.
  const double m = sampleMean(x);
  double ss = 0;
  for (double v : x)
    ss += (v - m) * (v - m);
  return ss / static_cast<double>(x.size() - 1);
}

double quantileType7Sorted(std::span<const double> sorted, double q) {
  // Hyndman & Fan (1996) definition 7, R's default: h = (n - 1) q (0-based).
  const std::size_t n = sorted.size();
  if (n == 1)
    return sorted[0];
  const double h = static_cast<double>(n - 1) * q;
  const double lo = std::floor(h);
  const auto i = static_cast<std::size_t>(lo);
  if (i + 1 >= n)
    return sorted[n - 1];
  return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

double quantileType7(std::span<const double> x, double q) {
  const auto s = sortedCopy(x);
  return quantileType7Sorted(s, q);
}

double median(std::span<const double> x) {
  const std::size_t n = x.size();
  if (n == 0)
    return std::numeric_limits<double>::quiet_NaN();
  // The middle order statistics by selection (linear time) instead of a full
  // sort: the same two values, so the same median. The diagnostics take the
  // median of every execution's iterations and of a million residuals.
  std::vector<double> s(x.begin(), x.end());
  const auto mid = s.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(s.begin(), mid, s.end());
  if (n % 2 == 1)
    return *mid;
  return (*std::max_element(s.begin(), mid) + *mid) / 2;
}

std::vector<std::size_t> ascendingOrder(std::span<const double> x) {
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  return order;
}

std::vector<double> averageRanks(std::span<const double> x) {
  const std::size_t n = x.size();
  const std::vector<std::size_t> order = ascendingOrder(x);
  std::vector<double> ranks(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && x[order[j + 1]] == x[order[i]])
      ++j;
    const double r = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2;
    for (std::size_t k = i; k <= j; ++k)
      ranks[order[k]] = r;
    i = j + 1;
  }
  return ranks;
}

// ---------------------------------------------------------------------------
// t.test: Welch (1947) / pooled Student; spec_002_004 §1.3 and Appendix B.
Expected<TTestResult> tTest(std::span<const double> x, std::span<const double> y,
                            const TTestOptions &o) {
  if (!validConfidence(o.confidence))
    return fail("confidence level must be in (0, 1)");
  if (!allFinite(x) || !allFinite(y))
    return fail("t-test: non-finite value");
  const double nx = static_cast<double>(x.size()), ny = static_cast<double>(y.size());
  TTestResult r;
  r.pooled = o.equalVariance;
  r.meanX = sampleMean(x);
  r.meanY = sampleMean(y);
  const double vx = sampleVariance(x), vy = sampleVariance(y);
  if (o.equalVariance) {
    if (x.size() < 1 || y.size() < 1 || x.size() + y.size() < 3)
      return fail("t-test: not enough observations");
    r.df = nx + ny - 2;
    double v = 0;
    if (nx > 1)
      v += (nx - 1) * vx;
    if (ny > 1)
      v += (ny - 1) * vy;
    v /= r.df;
    r.stdError = std::sqrt(v * (1 / nx + 1 / ny));
  } else {
    if (x.size() < 2 || y.size() < 2)
      return fail("t-test: each sample needs at least 2 observations");
    const double sex = std::sqrt(vx / nx), sey = std::sqrt(vy / ny);
    r.stdError = std::sqrt(sex * sex + sey * sey);
    r.df = std::pow(r.stdError, 4) / (std::pow(sex, 4) / (nx - 1) + std::pow(sey, 4) / (ny - 1));
  }
  if (r.stdError < 10 * std::numeric_limits<double>::epsilon() *
                       std::max(std::abs(r.meanX), std::abs(r.meanY)) ||
      r.stdError == 0)
    return fail("t-test: data are essentially constant");
  r.statistic = (r.meanX - r.meanY - o.mu) / r.stdError;
  const StudentsT dist(r.df);
  switch (o.alternative) {
  case Alternative::Less:
    r.pValue = cdf(dist, r.statistic);
    r.lower = -kInf;
    r.upper = o.mu + (r.statistic + quantile(dist, o.confidence)) * r.stdError;
    break;
  case Alternative::Greater:
    r.pValue = cdf(complement(dist, r.statistic));
    r.lower = o.mu + (r.statistic - quantile(dist, o.confidence)) * r.stdError;
    r.upper = kInf;
    break;
  case Alternative::TwoSided: {
    r.pValue = 2 * cdf(dist, -std::abs(r.statistic));
    const double q = quantile(dist, 1 - (1 - o.confidence) / 2);
    r.lower = o.mu + (r.statistic - q) * r.stdError;
    r.upper = o.mu + (r.statistic + q) * r.stdError;
    break;
  }
  }
  return r;
}

// ---------------------------------------------------------------------------
// var.test: Fisher's F test for the ratio of two normal variances.
Expected<FTestResult> varTest(std::span<const double> x, std::span<const double> y,
                              const FTestOptions &o) {
  if (!validConfidence(o.confidence))
    return fail("confidence level must be in (0, 1)");
  if (x.size() < 2 || y.size() < 2)
    return fail("F test: each sample needs at least 2 observations");
  if (!allFinite(x) || !allFinite(y))
    return fail("F test: non-finite value");
  if (!(o.ratio > 0))
    return fail("F test: the null ratio must be positive");
  const double vx = sampleVariance(x), vy = sampleVariance(y);
  if (vy == 0)
    return fail("F test: the second sample has zero variance");
  FTestResult r;
  r.dfNum = static_cast<double>(x.size() - 1);
  r.dfDen = static_cast<double>(y.size() - 1);
  r.estimate = vx / vy;
  r.statistic = r.estimate / o.ratio;
  const FisherF dist(r.dfNum, r.dfDen);
  const double lowerTail = cdf(dist, r.statistic);
  const double upperTail = cdf(complement(dist, r.statistic));
  switch (o.alternative) {
  case Alternative::TwoSided: {
    r.pValue = std::min(1.0, 2 * std::min(lowerTail, upperTail));
    const double beta = (1 - o.confidence) / 2;
    r.lower = r.estimate / quantile(dist, 1 - beta);
    r.upper = r.estimate / quantile(dist, beta);
    break;
  }
  case Alternative::Greater:
    r.pValue = upperTail;
    r.lower = r.estimate / quantile(dist, o.confidence);
    r.upper = kInf;
    break;
  case Alternative::Less:
    r.pValue = lowerTail;
    r.lower = 0;
    r.upper = r.estimate / quantile(dist, 1 - o.confidence);
    break;
  }
  return r;
}

// ---------------------------------------------------------------------------
// wilcox.test. The exact null distribution of the Mann-Whitney statistic
// (Mann & Whitney 1947) is the count of n-subsets of the ranks 1..n+m by rank
// sum, obtained here by a subset-sum recursion (the same counts as R's
// cwilcox). Normal approximation: Hollander & Wolfe (1999) §4.1, tie-corrected
// variance nm/12 ((N+1) - sum(t^3 - t)/(N(N-1))), continuity correction 1/2.
namespace {

// counts[u] = number of n-subsets of {1..N} whose rank sum is u + n(n+1)/2.
std::vector<double> mannWhitneyCounts(std::size_t n, std::size_t m) {
  const std::size_t total = n + m;
  const std::size_t maxSum = n * total; // generous bound on a rank sum
  std::vector<std::vector<double>> dp(n + 1, std::vector<double>(maxSum + 1, 0.0));
  dp[0][0] = 1;
  for (std::size_t rank = 1; rank <= total; ++rank)
    for (std::size_t k = std::min(n, rank); k >= 1; --k) {
      // k of the ranks 1..rank sum to at most k rank - k(k-1)/2.
      const std::size_t top = std::min(maxSum, k * rank - k * (k - 1) / 2);
      for (std::size_t s = top; s >= rank; --s)
        dp[k][s] += dp[k - 1][s - rank];
    }
  const std::size_t offset = n * (n + 1) / 2;
  std::vector<double> counts(n * m + 1, 0.0);
  for (std::size_t u = 0; u <= n * m; ++u)
    counts[u] = dp[n][u + offset];
  return counts;
}

} // namespace

Expected<WilcoxonResult> wilcoxonTest(std::span<const double> x, std::span<const double> y,
                                      const WilcoxonOptions &o) {
  const auto pooled = pooledSample("Wilcoxon test", x, y, o.mu);
  if (!pooled)
    return fail(pooled.error());
  const std::size_t n = x.size(), m = y.size();
  const auto ranks = averageRanks(*pooled);
  double rankSumX = 0;
  for (std::size_t i = 0; i < n; ++i)
    rankSumX += ranks[i];
  const double nx = static_cast<double>(n), ny = static_cast<double>(m);
  WilcoxonResult r;
  r.statistic = rankSumX - nx * (nx + 1) / 2;
  r.probabilityXGreater = r.statistic / (nx * ny);
  // Tie groups of the pooled sample (R: table(r)).
  auto sortedRanks = ranks;
  std::sort(sortedRanks.begin(), sortedRanks.end());
  double tieTerm = 0;
  for (std::size_t i = 0; i < sortedRanks.size();) {
    std::size_t j = i;
    while (j < sortedRanks.size() && sortedRanks[j] == sortedRanks[i])
      ++j;
    const double t = static_cast<double>(j - i);
    if (j - i > 1)
      r.ties = true;
    tieTerm += t * t * t - t;
    i = j;
  }
  // A forced exact test is capped at n + m <= 200 (the counts take
  // O(k^2 (n+m)^2) time for the smaller size k; beyond that the normal
  // approximation is excellent), and `exact` reports what was used.
  constexpr std::size_t kMaxExactTotal = 200;
  const bool wantExact = (o.exact == ExactMode::Exact && n + m <= kMaxExactTotal) ||
                         (o.exact == ExactMode::Auto && n < 50 && m < 50);
  if (wantExact && !r.ties) {
    r.exact = true;
    // The null distribution of U is the same for sizes (n, m) and (m, n).
    const auto counts = mannWhitneyCounts(std::min(n, m), std::max(n, m));
    const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
    const auto w = static_cast<std::size_t>(std::llround(r.statistic));
    auto lowerTail = [&](std::size_t q) { // P(W <= q)
      double s = 0;
      for (std::size_t u = 0; u <= q && u < counts.size(); ++u)
        s += counts[u];
      return s / total;
    };
    auto upperTail = [&](std::size_t q) { // P(W >= q)
      double s = 0;
      for (std::size_t u = q; u < counts.size(); ++u)
        s += counts[u];
      return s / total;
    };
    // Hodges-Lehmann interval: order statistics of the pairwise differences
    // at R's qwilcox positions (smallest q with P(W <= q) >= p, with R's
    // 10 DBL_EPSILON fuzz).
    if (validConfidence(o.confidence)) {
      std::vector<double> diffs;
      diffs.reserve(n * m);
      for (double a : x)
        for (double b : y)
          diffs.push_back(a - b);
      std::sort(diffs.begin(), diffs.end());
      auto qwilcox = [&](double p) -> std::size_t {
        double acc = 0;
        const double target = p - 10 * std::numeric_limits<double>::epsilon();
        for (std::size_t q = 0; q < counts.size(); ++q) {
          acc += counts[q] / total;
          if (acc >= target)
            return q;
        }
        return counts.size() - 1;
      };
      const double alpha = 1 - o.confidence;
      const std::size_t nm = n * m;
      std::size_t qu = qwilcox(o.alternative == Alternative::TwoSided ? alpha / 2 : alpha);
      if (qu == 0)
        qu = 1;
      const std::size_t ql = nm - qu;
      r.hasLocationInterval = true;
      r.locationEstimate = median(diffs);
      r.locationLower = o.alternative == Alternative::Less ? -kInf : diffs[qu - 1];
      r.locationUpper = o.alternative == Alternative::Greater ? kInf : diffs[ql];
    }
    switch (o.alternative) {
    case Alternative::Greater:
      r.pValue = upperTail(w);
      break;
    case Alternative::Less:
      r.pValue = lowerTail(w);
      break;
    case Alternative::TwoSided: {
      const double p = r.statistic > nx * ny / 2 ? upperTail(w) : lowerTail(w);
      r.pValue = std::min(1.0, 2 * p);
      break;
    }
    }
    return r;
  }
  const double big = nx + ny;
  const double sigma = std::sqrt((nx * ny / 12) * ((big + 1) - tieTerm / (big * (big - 1))));
  if (!(sigma > 0))
    return fail("Wilcoxon test: all observations are tied");
  double z = r.statistic - nx * ny / 2;
  const double correction =
      o.correct ? sided(o.alternative, z > 0 ? 0.5 : (z < 0 ? -0.5 : 0), 0.5, -0.5) : 0;
  z = (z - correction) / sigma;
  r.pValue = sided(o.alternative, std::min(1.0, 2 * std::min(normalCdf(z), normalUpper(z))),
                   normalUpper(z), normalCdf(z));
  return r;
}

// ---------------------------------------------------------------------------
// Shapiro-Wilk W and its p-value: Royston (1992) "Approximating the
// Shapiro-Wilk W-test for non-normality", Statistics and Computing 2:117-119,
// and Royston (1995) "Remark AS R94", Applied Statistics 44(4):547-551, the
// algorithm behind R's shapiro.test. The coefficients a_i are Blom-type normal
// scores m_i = Phi^-1((i - 3/8)/(n + 1/4)) normalised, with the two extreme
// ones replaced by Royston's polynomial approximations in u = 1/sqrt(n); the
// p-value comes from a normalising transformation of log(1 - W) whose mean and
// sd are polynomials in n (n <= 11) or log(n) (n >= 12); n = 3 is exact.
namespace {

// c[0] + c[1] x + ... + c[k-1] x^(k-1) (Royston's "poly").
double polynomial(std::span<const double> c, double x) {
  double result = 0;
  for (std::size_t i = c.size(); i-- > 0;)
    result = result * x + c[i];
  return result;
}

} // namespace

Expected<ShapiroWilkResult> shapiroWilk(std::span<const double> input) {
  if (!allFinite(input))
    return fail("Shapiro-Wilk test: non-finite value");
  if (input.size() < 3 || input.size() > 5000)
    return fail("Shapiro-Wilk test: sample size must be between 3 and 5000");
  auto x = sortedCopy(input);
  const std::size_t n = x.size();
  double range = x[n - 1] - x[0];
  if (range == 0)
    return fail("Shapiro-Wilk test: all values are identical");
  if (range < 1e-10) { // R rescales tiny ranges before calling swilk
    for (double &v : x)
      v /= range;
    range = x[n - 1] - x[0];
  }
  static constexpr double c1[] = {0.0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056};
  static constexpr double c2[] = {0.0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633};
  static constexpr double c3[] = {0.544, -0.39978, 0.025054, -6.714e-4};
  static constexpr double c4[] = {1.3822, -0.77857, 0.062767, -0.0020322};
  static constexpr double c5[] = {-1.5861, -0.31082, -0.083751, 0.0038915};
  static constexpr double c6[] = {-0.4803, -0.082676, 0.0030302};
  static constexpr double g[] = {-2.273, 0.459};

  const std::size_t half = n / 2;
  const double an = static_cast<double>(n);
  std::vector<double> a(half + 1, 0.0); // 1-based: a[1] is the largest weight
  if (n == 3) {
    a[1] = std::sqrt(0.5);
  } else {
    const double an25 = an + 0.25;
    double summ2 = 0;
    for (std::size_t i = 1; i <= half; ++i) {
      a[i] = normalQuantile((static_cast<double>(i) - 0.375) / an25);
      summ2 += a[i] * a[i];
    }
    summ2 *= 2;
    const double ssumm2 = std::sqrt(summ2);
    const double rsn = 1 / std::sqrt(an);
    const double a1 = polynomial(c1, rsn) - a[1] / ssumm2;
    std::size_t first = 2;
    double fac;
    if (n > 5) {
      first = 3;
      const double a2 = -a[2] / ssumm2 + polynomial(c2, rsn);
      fac =
          std::sqrt((summ2 - 2 * a[1] * a[1] - 2 * a[2] * a[2]) / (1 - 2 * a1 * a1 - 2 * a2 * a2));
      a[2] = a2;
    } else {
      fac = std::sqrt((summ2 - 2 * a[1] * a[1]) / (1 - 2 * a1 * a1));
    }
    a[1] = a1;
    for (std::size_t i = first; i <= half; ++i)
      a[i] /= -fac;
  }

  // W as the squared correlation between the ordered data (scaled by the
  // range) and the antisymmetric coefficient vector; 1 - W is computed
  // directly to keep precision for W near 1 (AS R94).
  auto coefficient = [&](std::size_t i) { // for the i-th order statistic, 0-based
    const std::size_t j = n - 1 - i;
    if (i == j)
      return 0.0;
    return i < j ? -a[1 + i] : a[1 + j];
  };
  double sa = 0, sx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sa += coefficient(i);
    sx += x[i] / range;
  }
  sa /= an;
  sx /= an;
  double ssa = 0, ssx = 0, sax = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double asa = coefficient(i) - sa;
    const double xsx = x[i] / range - sx;
    ssa += asa * asa;
    ssx += xsx * xsx;
    sax += asa * xsx;
  }
  const double ssassx = std::sqrt(ssa * ssx);
  const double w1 = (ssassx - sax) * (ssassx + sax) / (ssa * ssx);
  ShapiroWilkResult r;
  r.w = 1 - w1;
  if (n == 3) { // exact (Shapiro & Wilk 1965)
    const double pi6 = 6 / M_PI, stqr = std::asin(std::sqrt(0.75));
    r.pValue = std::max(0.0, pi6 * (std::asin(std::sqrt(r.w)) - stqr));
    return r;
  }
  double y = std::log(w1);
  double mean, sd;
  if (n <= 11) {
    const double gamma = polynomial(g, an);
    if (y >= gamma) {
      r.pValue = 1e-99; // R's "obvious" value for a W this far from 1
      return r;
    }
    y = -std::log(gamma - y);
    mean = polynomial(c3, an);
    sd = std::exp(polynomial(c4, an));
  } else {
    const double lx = std::log(an);
    mean = polynomial(c5, lx);
    sd = std::exp(polynomial(c6, lx));
  }
  r.pValue = cdf(complement(Normal(mean, sd), y));
  return r;
}

// ---------------------------------------------------------------------------
// Two-sample Kolmogorov-Smirnov (Smirnov 1939). D is the largest gap between
// the two empirical CDFs, evaluated only between distinct pooled values (as R
// does, so ties are handled). Exact p-value: the number of monotone lattice
// paths from (0,0) to (n,m) that stay strictly inside the band |u/n - v/m| < D
// at every step that ends a tie block (Schroer & Trenkler 1995; R >= 4.2's
// psmirnov), over choose(n+m, n). Asymptotic: Kolmogorov's limit
// 1 - K(sqrt(nm/(n+m)) D) (two-sided) or exp(-2 nm/(n+m) D^2) (one-sided).
namespace {

// Kolmogorov's limiting CDF K(x) = 1 - 2 sum_k (-1)^(k-1) exp(-2 k^2 x^2),
// with the theta-function form sqrt(2 pi)/x sum exp(-(2k-1)^2 pi^2/(8x^2)) for
// x < 1, truncated with R's tolerance 1e-6 (R's pkstwo) so that the p-values
// agree with R's digits. Boost.Math 1.74 has no Kolmogorov distribution
// (kolmogorov_smirnov_distribution arrived in 1.75), hence this series.
double ksLimitCdf(double x) {
  constexpr double tol = 1e-6;
  if (x <= 0)
    return 0;
  if (x < 1) {
    const int kMax = static_cast<int>(std::sqrt(2 - std::log(tol)));
    const double z = -(M_PI_2 * M_PI_4) / (x * x);
    const double w = std::log(x);
    double s = 0;
    for (int k = 1; k < kMax; k += 2)
      s += std::exp(k * k * z - w);
    return s * std::sqrt(2 * M_PI);
  }
  const double z = -2 * x * x;
  double s = -1, prev = 0, cur = 1;
  for (int k = 1; std::abs(prev - cur) > tol; ++k) {
    prev = cur;
    cur += 2 * s * std::exp(z * k * k);
    s = -s;
  }
  return cur;
}

// P(D < q) * choose(n+m, n) by the lattice recursion; `blockEnd[k-1]` says
// whether step k (1-based, k = u + v) ends a block of tied pooled values.
double smirnovInsideCount(double q, std::size_t n, std::size_t m, const std::vector<bool> &blockEnd,
                          bool twoSided) {
  const double nd = static_cast<double>(n), md = static_cast<double>(m);
  std::vector<double> cur(n + 1, 0.0), next(n + 1, 0.0);
  cur[0] = 1;
  for (std::size_t k = 1; k <= n + m; ++k) {
    std::fill(next.begin(), next.end(), 0.0);
    const std::size_t uLo = k > m ? k - m : 0, uHi = std::min(k, n);
    for (std::size_t u = uLo; u <= uHi; ++u) {
      const std::size_t v = k - u;
      double c = 0;
      if (v >= 1 && u <= k - 1)
        c += cur[u]; // from (u, v - 1)
      if (u >= 1)
        c += cur[u - 1]; // from (u - 1, v)
      if (blockEnd[k - 1]) {
        double d = static_cast<double>(u) / nd - static_cast<double>(v) / md;
        if (twoSided)
          d = std::abs(d);
        if (!(q > d))
          c = 0;
      }
      next[u] = c;
    }
    std::swap(cur, next);
  }
  return cur[n];
}

} // namespace

Expected<KsResult> ksTest(std::span<const double> x, std::span<const double> y,
                          const KsOptions &o) {
  const auto pooled = pooledSample("Kolmogorov-Smirnov test", x, y, 0);
  if (!pooled)
    return fail(pooled.error());
  const std::vector<double> &w = *pooled;
  const std::size_t n = x.size(), m = y.size();
  const double nd = static_cast<double>(n), md = static_cast<double>(m);
  const std::vector<std::size_t> order = ascendingOrder(w);
  // Running difference of the ECDFs in pooled order (R: cumsum of +-1/n;
  // R's cumsum accumulates in long double, which we mirror so that a D that
  // is 0 in exact arithmetic comes out the same as in R).
  std::vector<double> z(n + m);
  long double acc = 0;
  for (std::size_t i = 0; i < n + m; ++i) {
    acc += order[i] < n ? 1 / nd : -1 / md;
    z[i] = static_cast<double>(acc);
  }
  std::vector<bool> blockEnd(n + m, true);
  KsResult r;
  for (std::size_t i = 0; i + 1 < n + m; ++i)
    if (w[order[i]] == w[order[i + 1]]) {
      blockEnd[i] = false;
      r.ties = true;
    }
  double dPlus = -kInf, dMinus = kInf, dAbs = 0;
  for (std::size_t i = 0; i < n + m; ++i) {
    if (!blockEnd[i])
      continue;
    dPlus = std::max(dPlus, z[i]);
    dMinus = std::min(dMinus, z[i]);
    dAbs = std::max(dAbs, std::abs(z[i]));
  }
  r.statistic = sided(o.alternative, dAbs, dPlus, -dMinus);
  const bool twoSided = o.alternative == Alternative::TwoSided;
  r.exact = o.exact == ExactMode::Exact || (o.exact == ExactMode::Auto && nd * md < 10000);
  if (r.exact) {
    // Shift D half a lattice step down so that "d < D" is decided on the
    // integer grid nm*d, not on rounded doubles (R's psmirnov does the same).
    const double q = (0.5 + std::floor(r.statistic * nd * md - 1e-7)) / (nd * md);
    const double inside = smirnovInsideCount(q, n, m, blockEnd, twoSided);
    const double logDenom = boost::math::lgamma(nd + md + 1, MathPolicy()) -
                            boost::math::lgamma(nd + 1, MathPolicy()) -
                            boost::math::lgamma(md + 1, MathPolicy());
    const double denom = std::exp(logDenom);
    if (std::isfinite(inside) && std::isfinite(denom))
      r.pValue = 1 - inside / denom;
    else
      r.exact = false; // counts overflow a double (n + m > ~1000): use the limit
  }
  if (!r.exact) {
    const double eff = nd * md / (nd + md);
    if (twoSided)
      r.pValue = r.statistic < std::numeric_limits<double>::epsilon()
                     ? 1
                     : 1 - ksLimitCdf(std::sqrt(eff) * r.statistic);
    else
      r.pValue = std::exp(-2 * eff * r.statistic * r.statistic);
  }
  r.pValue = std::clamp(r.pValue, 0.0, 1.0);
  return r;
}

// ---------------------------------------------------------------------------
// prop.test(x, n, p): Pearson's X^2 with Yates' continuity correction and the
// Wilson (1927) score interval with continuity correction (Newcombe 1998,
// method 4), exactly as R computes them (spec_002_004 Appendix B).
Expected<PropTestResult> propTest(std::size_t successes, std::size_t trials,
                                  const PropTestOptions &o) {
  if (trials == 0)
    return fail("proportion test: the number of trials must be positive");
  if (successes > trials)
    return fail("proportion test: more successes than trials");
  if (!(o.p > 0 && o.p < 1))
    return fail("proportion test: the null proportion must be in (0, 1)");
  if (!validConfidence(o.confidence))
    return fail("confidence level must be in (0, 1)");
  const double x = static_cast<double>(successes), n = static_cast<double>(trials);
  PropTestResult r;
  r.estimate = x / n;
  const double yates = o.correct ? std::min(0.5, std::abs(x - n * o.p)) : 0.0;
  const double z = normalQuantile(o.alternative == Alternative::TwoSided ? (1 + o.confidence) / 2
                                                                         : o.confidence);
  const double z22n = z * z / (2 * n);
  double pc = r.estimate + yates / n;
  const double upper =
      pc >= 1 ? 1
              : (pc + z22n + z * std::sqrt(pc * (1 - pc) / n + z22n / (2 * n))) / (1 + 2 * z22n);
  pc = r.estimate - yates / n;
  const double lower =
      pc <= 0 ? 0
              : (pc + z22n - z * std::sqrt(pc * (1 - pc) / n + z22n / (2 * n))) / (1 + 2 * z22n);
  r.lower = o.alternative == Alternative::Less ? 0 : std::max(lower, 0.0);
  r.upper = o.alternative == Alternative::Greater ? 1 : std::min(upper, 1.0);
  // X^2 over the two cells (successes, failures), as R's sum((|x - E| - Y)^2 / E).
  const double e1 = n * o.p, e2 = n * (1 - o.p);
  const double d1 = std::abs(x - e1) - yates, d2 = std::abs((n - x) - e2) - yates;
  r.statistic = d1 * d1 / e1 + d2 * d2 / e2;
  if (o.alternative == Alternative::TwoSided) {
    r.pValue = cdf(complement(ChiSquared(1), r.statistic));
  } else {
    const double sign = r.estimate > o.p ? 1 : (r.estimate < o.p ? -1 : 0);
    const double zs = sign * std::sqrt(r.statistic);
    r.pValue = o.alternative == Alternative::Less ? normalCdf(zs) : normalUpper(zs);
  }
  return r;
}

ProportionInterval waldProportionInterval(std::size_t successes, std::size_t trials,
                                          double confidence) {
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double z = normalQuantile((1 + confidence) / 2);
  const double h = z * std::sqrt(p * (1 - p) / n);
  return {p - h, p + h};
}

Expected<ProportionInterval> clopperPearsonInterval(std::size_t successes, std::size_t trials,
                                                    double confidence) {
  if (trials == 0 || successes > trials)
    return fail("a proportion needs 1 or more trials and at most as many successes");
  if (!(confidence > 0 && confidence < 1))
    return fail("confidence must lie strictly between 0 and 1");
  const double x = static_cast<double>(successes), n = static_cast<double>(trials);
  const double alpha = 1 - confidence;
  ProportionInterval out{0, 1};
  if (successes > 0)
    out.lower = boost::math::ibeta_inv(x, n - x + 1, alpha / 2, MathPolicy());
  if (successes < trials)
    out.upper = boost::math::ibeta_inv(x + 1, n - x, 1 - alpha / 2, MathPolicy());
  return out;
}

} // namespace alea::analysis
