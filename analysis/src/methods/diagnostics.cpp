// Outliers (Tukey fences, MAD), layout modes (Engelman-Hartigan two-cluster
// test on build means) and warm-up trends (Mann-Kendall per execution with a
// Benjamini-Hochberg summary). See diagnostics.hpp for the sources.
#include "alea/analysis/diagnostics.hpp"
#include "alea/analysis/noise.hpp"

#include "alea/analysis/htest.hpp"
#include "alea/analysis/math_policy.hpp"
#include "alea/random.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>

namespace alea::analysis {

namespace {

// What `method` finds wrong with its input before looking at it: fewer than 4
// values (`values` names them), or a non-finite one; nullopt when nothing.
std::optional<Error> inputError(std::string_view method, std::span<const double> x,
                                std::string_view values) {
  if (x.size() < 4)
    return fail(std::string(method) + " needs at least 4 " + std::string(values));
  for (double v : x)
    if (!std::isfinite(v))
      return fail(std::string(method) + ": non-finite value");
  return std::nullopt;
}

} // namespace

// ---------------------------------------------------------------------------
Expected<OutlierReport> findOutliers(std::span<const double> values, const OutlierOptions &o) {
  if (auto e = inputError("outlier detection", values, "values"))
    return *e;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  OutlierReport r;
  r.n = values.size();
  r.q1 = quantileType7Sorted(sorted, 0.25);
  r.median = quantileType7Sorted(sorted, 0.5);
  r.q3 = quantileType7Sorted(sorted, 0.75);
  r.iqr = r.q3 - r.q1;
  r.lowerFence = r.q1 - o.tukeyK * r.iqr;
  r.upperFence = r.q3 + o.tukeyK * r.iqr;
  const double farLow = r.q1 - o.tukeyFarK * r.iqr, farHigh = r.q3 + o.tukeyFarK * r.iqr;
  std::vector<double> dev(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    dev[i] = std::abs(values[i] - r.median);
  r.mad = median(dev);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    Outlier out;
    out.index = i;
    out.value = v;
    out.high = v > r.median;
    const bool notable = std::abs(v - r.median) > o.minDeviation;
    out.tukey = notable && (v < r.lowerFence || v > r.upperFence);
    out.farOut = notable && (v < farLow || v > farHigh);
    // Iglewicz & Hoaglin: 0.6745 = Phi^-1(3/4) makes the MAD consistent with
    // sigma under normality.
    if (r.mad > 0) {
      out.modifiedZ = 0.6745 * (v - r.median) / r.mad;
      out.mad = notable && std::abs(out.modifiedZ) > o.madCutoff;
    }
    if (out.tukey || out.mad)
      r.outliers.push_back(out);
  }
  return r;
}

// ---------------------------------------------------------------------------
namespace {

struct Split {
  double rSquared = 0;
  std::size_t lowCount = 0; // size of the low cluster in sorted order
};

// Best split of sorted values into a low and a high group by within sum of
// squares (Fisher 1958: an optimal 1-D partition is contiguous), via prefix
// sums. Groups have at least one member.
Split bestSplit(std::span<const double> sorted) {
  const std::size_t n = sorted.size();
  double total = 0, totalSq = 0;
  const double shift = sorted[n / 2]; // centre for numerical stability
  for (double v : sorted) {
    total += v - shift;
    totalSq += (v - shift) * (v - shift);
  }
  const double tss = totalSq - total * total / static_cast<double>(n);
  Split best;
  if (!(tss > 0))
    return best;
  double left = 0;
  for (std::size_t k = 1; k < n; ++k) {
    left += sorted[k - 1] - shift;
    const double nl = static_cast<double>(k), nr = static_cast<double>(n - k);
    const double right = total - left;
    // between SS = nl nr / n (mean_l - mean_r)^2
    const double diff = left / nl - right / nr;
    const double between = nl * nr / static_cast<double>(n) * diff * diff;
    const double r2 = between / tss;
    if (r2 > best.rSquared) {
      best.rSquared = r2;
      best.lowCount = k;
    }
  }
  return best;
}

} // namespace

Expected<LayoutModes> findLayoutModes(std::span<const double> means, const ModeOptions &o) {
  if (auto e = inputError("layout-mode detection", means, "top-level units"))
    return *e;
  const std::size_t n = means.size();
  const std::vector<std::size_t> order = ascendingOrder(means);
  std::vector<double> sorted(n);
  for (std::size_t i = 0; i < n; ++i)
    sorted[i] = means[order[i]];
  LayoutModes r;
  r.n = n;
  const Split split = bestSplit(sorted);
  if (split.lowCount == 0) { // all equal
    r.lowMean = r.highMean = sorted[0];
    r.threshold = sorted[0];
    return r;
  }
  r.rSquared = split.rSquared;
  for (std::size_t i = 0; i < n; ++i)
    (i < split.lowCount ? r.lowUnits : r.highUnits).push_back(order[i]);
  std::sort(r.lowUnits.begin(), r.lowUnits.end());
  std::sort(r.highUnits.begin(), r.highUnits.end());
  r.lowMean = std::accumulate(sorted.begin(), sorted.begin() + split.lowCount, 0.0) /
              static_cast<double>(split.lowCount);
  r.highMean = std::accumulate(sorted.begin() + split.lowCount, sorted.end(), 0.0) /
               static_cast<double>(n - split.lowCount);
  r.threshold = (sorted[split.lowCount - 1] + sorted[split.lowCount]) / 2;
  r.relativeGap = (r.highMean - r.lowMean) / std::abs(r.lowMean);

  // Null distribution of the best-split R^2 for n normal values (R^2 is
  // location and scale invariant, so N(0, 1) suffices). Each simulation has
  // its own stream mixSeed(seed, s): the result does not depend on order.
  std::size_t atLeast = 0;
  std::vector<double> sim(n);
  const Normal standard(0, 1);
  for (std::size_t s = 0; s < o.simulations; ++s) {
    Rng rng(mixSeed(o.seed, s));
    for (double &v : sim) {
      double u;
      do
        u = rng.uniform();
      while (u == 0);
      v = quantile(standard, u);
    }
    std::sort(sim.begin(), sim.end());
    if (bestSplit(sim).rSquared >= r.rSquared)
      ++atLeast;
  }
  r.pValue = static_cast<double>(atLeast + 1) / static_cast<double>(o.simulations + 1);
  r.multimodal = r.pValue < o.significance && r.lowUnits.size() >= o.minClusterSize &&
                 r.highUnits.size() >= o.minClusterSize;
  return r;
}

namespace {

// Sorts v[lo, hi) and returns the number of pairs i < j with v_i > v_j
// (strictly: equal values are not inversions).
std::uint64_t countInversions(std::vector<double> &v, std::vector<double> &buf, std::size_t lo,
                              std::size_t hi) {
  if (hi - lo < 2)
    return 0;
  const std::size_t mid = lo + (hi - lo) / 2;
  std::uint64_t count = countInversions(v, buf, lo, mid) + countInversions(v, buf, mid, hi);
  std::size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    if (v[j] < v[i]) { // v[j] is below every remaining left value
      count += mid - i;
      buf[k++] = v[j++];
    } else {
      buf[k++] = v[i++];
    }
  }
  while (i < mid)
    buf[k++] = v[i++];
  while (j < hi)
    buf[k++] = v[j++];
  std::copy(buf.begin() + static_cast<std::ptrdiff_t>(lo),
            buf.begin() + static_cast<std::ptrdiff_t>(hi),
            v.begin() + static_cast<std::ptrdiff_t>(lo));
  return count;
}

} // namespace

// ---------------------------------------------------------------------------
// Mann (1945) / Kendall (1975): S = sum_{i<j} sign(x_j - x_i) sign(t_j - t_i)
// with t = 1..n (no ties in time). tau_b = S / sqrt(T0 (T0 - T2)); var S =
// (n(n-1)(2n+5) - sum_ties u(u-1)(2u+5)) / 18 (Kendall 1975, eq. 4.3), the
// terms of R's cor.test for ties in one variable only.
Expected<TrendTest> kendallTrend(std::span<const double> x) {
  const std::size_t n = x.size();
  if (n < 3)
    return fail("trend test needs at least 3 values");
  for (double v : x)
    if (!std::isfinite(v))
      return fail("trend test: non-finite value");
  // S = concordant - discordant = T0 - tiedPairs - 2 * discordant, where the
  // discordant pairs (i < j, x_i > x_j) are counted in O(n log n) by merge
  // sort (Knight 1966), which also leaves `sorted` sorted.
  std::vector<double> sorted(x.begin(), x.end()), buffer(n);
  const std::uint64_t discordant = countInversions(sorted, buffer, 0, n);
  double tiePairs = 0, tieVar = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && sorted[j] == sorted[i])
      ++j;
    const double u = static_cast<double>(j - i);
    tiePairs += u * (u - 1) / 2;
    tieVar += u * (u - 1) * (2 * u + 5);
    i = j;
  }
  const double nd = static_cast<double>(n);
  const double t0 = nd * (nd - 1) / 2;
  if (tiePairs >= t0)
    return fail("trend test: all values are equal");
  const double s = t0 - tiePairs - 2 * static_cast<double>(discordant);
  TrendTest r;
  r.n = n;
  r.tau = s / std::sqrt(t0 * (t0 - tiePairs));
  const double varS = (nd * (nd - 1) * (2 * nd + 5) - tieVar) / 18;
  r.statistic = s / std::sqrt(varS);
  const Normal standard(0, 1);
  r.pValue = std::min(
      1.0, 2 * std::min(cdf(standard, r.statistic), cdf(complement(standard, r.statistic))));
  return r;
}

namespace {

// R's p.adjust for its step-wise methods: p sorted ascending, p_(i) scaled
// by `scaled(p_(i), i)` (i from 1), then a running bound, capped at 1: a
// running maximum from the smallest (step-down) or a running minimum from the
// largest (step-up).
template <class Scaled>
std::vector<double> adjustStepwise(std::span<const double> p, bool stepDown, Scaled scaled) {
  const std::size_t m = p.size();
  const std::vector<std::size_t> order = ascendingOrder(p);
  std::vector<double> q(m);
  double running = stepDown ? 0 : std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t i = stepDown ? k : m - 1 - k;
    const double v = scaled(p[order[i]], static_cast<double>(i + 1));
    running = stepDown ? std::max(running, v) : std::min(running, v);
    q[order[i]] = std::min(1.0, running);
  }
  return q;
}

} // namespace

// p.adjust(p, "BH"): q_(i) = min_{j >= i} min(1, m p_(j) / j).
std::vector<double> adjustBenjaminiHochberg(std::span<const double> p) {
  const double m = static_cast<double>(p.size());
  return adjustStepwise(p, false, [m](double pi, double i) { return m * pi / i; });
}

// (declared in noise.hpp, beside the noise diagnosis that uses it)
// p.adjust(p, "holm"): q_(i) = min(1, max_{j <= i} (m - j + 1) p_(j)).
std::vector<double> adjustHolm(std::span<const double> p) {
  const double m = static_cast<double>(p.size());
  return adjustStepwise(p, true, [m](double pi, double i) { return (m - i + 1) * pi; });
}

TrendReport findTrends(std::span<const std::vector<double>> executions, const TrendOptions &o) {
  TrendReport r;
  std::vector<double> pValues;
  for (std::size_t e = 0; e < executions.size(); ++e) {
    auto t = kendallTrend(executions[e]);
    if (!t)
      continue; // too short or constant: nothing to say about a trend
    ExecutionTrend et;
    et.execution = e;
    et.test = *t;
    r.trends.push_back(et);
    pValues.push_back(t->pValue);
  }
  const auto q = adjustBenjaminiHochberg(pValues);
  for (std::size_t i = 0; i < r.trends.size(); ++i) {
    auto &t = r.trends[i];
    t.qValue = q[i];
    t.flagged = q[i] < o.falseDiscoveryRate;
    if (t.flagged) {
      ++r.flagged;
      if (t.test.tau < 0)
        ++r.flaggedDecreasing;
    }
  }
  r.executions = r.trends.size();
  return r;
}

// ---------------------------------------------------------------------------
Expected<Diagnostics> diagnose(const Hierarchy &h, const OutlierOptions &oo, const ModeOptions &mo,
                               const TrendOptions &to) {
  if (auto why = validateHierarchy(h); !why.empty())
    return fail(why);
  Diagnostics d;
  // Measurements: residuals from the median of their lowest-level group (one
  // execution's iterations), so build and execution effects do not make every
  // measurement of a slow layout an "outlier". With one level, the residuals
  // are taken from the overall median.
  const std::size_t group = h.depth() >= 2 ? h.shape.back() : h.values.size();
  std::vector<double> residuals(h.values.size());
  for (std::size_t start = 0; start < h.values.size(); start += group) {
    std::span<const double> g(h.values.data() + start, group);
    const double med = median(g);
    for (std::size_t i = 0; i < group; ++i)
      residuals[start + i] = g[i] - med;
  }
  // Deviations below kNegligibleRelative of the values (their top-level
  // units' median: no pass over every value) are none.
  const auto top = h.topMeans();
  OutlierOptions notable = oo;
  notable.minDeviation = std::max(oo.minDeviation, kNegligibleRelative * std::abs(median(top)));
  if (auto m = findOutliers(residuals, notable)) {
    d.measurementOutliers = *m;
    for (auto &out : d.measurementOutliers.outliers)
      out.value = h.values[out.index]; // report the measurement, flag on residual
  } else {
    d.measurementOutliers.n = residuals.size();
  }
  if (auto u = findOutliers(top, notable))
    d.unitOutliers = *u;
  else
    d.unitOutliers.n = top.size();
  if (top.size() >= 4)
    if (auto modes = findLayoutModes(top, mo))
      d.modes = *modes;
  if (h.depth() >= 2 && h.shape.back() >= 3) {
    std::vector<std::vector<double>> series;
    for (std::size_t start = 0; start < h.values.size(); start += group)
      series.emplace_back(h.values.begin() + static_cast<std::ptrdiff_t>(start),
                          h.values.begin() + static_cast<std::ptrdiff_t>(start + group));
    d.trends = findTrends(series, to);
  }
  return d;
}

} // namespace alea::analysis
