// The Speedup-Test decision procedure (Touati 2009 §3-§5; Touati, Worms &
// Briais 2013 §4) over the R-exact tests of htest.cpp. spec_002_004 §1.3 gives
// the mean path, Appendix A the median path, §1.4-§1.5 the suite formulas.
#include "alea/analysis/speedup_test.hpp"

#include "alea/analysis/math_policy.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace alea::analysis {

const char *meanVerdictName(MeanVerdict v) { return enumName(v); }

const char *medianVerdictName(MedianVerdict v) { return enumName(v); }

namespace {

std::string formatP(double p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", p);
  return buf;
}

} // namespace

Expected<SpeedupTestResult> speedupTest(std::span<const double> x, std::span<const double> y,
                                        const SpeedupTestOptions &o) {
  if (!(o.risk > 0 && o.risk < 0.5))
    return fail("Speedup-Test: the risk level must be in (0, 0.5)");
  if (x.size() < 2 || y.size() < 2)
    return fail("Speedup-Test: each program needs at least 2 runs");
  for (auto s : {x, y})
    for (double v : s)
      if (!std::isfinite(v) || v <= 0)
        return fail("Speedup-Test: execution times must be finite and positive");

  SpeedupTestResult r;
  r.n = x.size();
  r.m = y.size();
  r.risk = o.risk;
  r.meanSpeedup = sampleMean(x) / sampleMean(y);
  r.medianSpeedup = median(x) / median(y);
  r.minSpeedup = *std::min_element(x.begin(), x.end()) / *std::min_element(y.begin(), y.end());
  const double confidence = 1 - o.risk;

  // Mean path (seed 002 §3, flowchart steps 1-2). Small samples: the t-test
  // needs normal data, checked by Shapiro-Wilk on each sample; if either is
  // rejected the protocol asks for more runs instead of testing.
  r.smallSample = r.n < o.largeSample || r.m < o.largeSample;
  bool equalVariance = false;
  bool meanPathOpen = true;
  if (r.smallSample) {
    auto swX = shapiroWilk(x), swY = shapiroWilk(y);
    if (!swX || !swY) {
      r.notes.push_back("Shapiro-Wilk not computable: " + (!swX ? swX.error() : swY.error()));
      r.meanVerdict = MeanVerdict::NotComputable;
      meanPathOpen = false;
    } else {
      r.normalityX = *swX;
      r.normalityY = *swY;
      if (swX->pValue < o.risk || swY->pValue < o.risk) {
        r.meanVerdict = MeanVerdict::NotNormal;
        r.notes.push_back("normality rejected (Shapiro-Wilk p = " + formatP(swX->pValue) + ", " +
                          formatP(swY->pValue) + "): run each program at least " +
                          std::to_string(o.largeSample) + " times before testing the mean");
        meanPathOpen = false;
      } else if (o.fTestSelectsStudent) {
        FTestOptions fo;
        fo.confidence = confidence;
        auto f = varTest(x, y, fo);
        if (f) {
          r.fTest = *f;
          equalVariance = f->pValue >= o.risk;
        } else {
          r.notes.push_back("F test not computable (" + f.error() + "): using Welch");
        }
      }
    }
  }
  if (meanPathOpen) {
    TTestOptions to;
    to.alternative = Alternative::Greater;
    to.confidence = confidence;
    to.equalVariance = equalVariance;
    auto t = tTest(x, y, to);
    if (!t) {
      r.meanVerdict = MeanVerdict::NotComputable;
      r.notes.push_back(t.error());
    } else {
      r.tTest = *t;
      // p < risk is equivalent to the one-sided CI [a, inf) excluding 0.
      r.meanVerdict = t->pValue < o.risk ? MeanVerdict::Significant : MeanVerdict::NotSignificant;
    }
  }

  // Median path (Appendix A): one-sided WMW for "x tends to be larger than
  // y"; KS on the median-centred samples decides whether the two differ by a
  // location shift only, in which case the WMW rejection is about medians.
  WilcoxonOptions wo;
  wo.alternative = Alternative::Greater;
  auto w = wilcoxonTest(x, y, wo);
  std::vector<double> xc(x.begin(), x.end()), yc(y.begin(), y.end());
  const double mx = median(x), my = median(y);
  for (double &v : xc)
    v -= mx;
  for (double &v : yc)
    v -= my;
  auto ks = ksTest(xc, yc);
  if (!w) {
    r.medianVerdict = MedianVerdict::NotComputable;
    r.notes.push_back(w.error());
  } else {
    r.wilcoxon = *w;
    r.probabilityXGreater = w->probabilityXGreater;
    r.probabilityAboveHalf = w->pValue < o.risk;
    if (!r.probabilityAboveHalf) {
      r.medianVerdict = MedianVerdict::NotSignificant;
    } else if (!ks) {
      r.medianVerdict = MedianVerdict::ProbabilityOnly;
      r.notes.push_back("KS test not computable (" + ks.error() + ")");
    } else {
      r.medianVerdict =
          ks->pValue >= o.risk ? MedianVerdict::MedianSpeedup : MedianVerdict::ProbabilityOnly;
    }
    if (w->ties && x.size() < 50 && y.size() < 50)
      r.notes.push_back("ties in the data: Wilcoxon p-value from the normal approximation");
  }
  if (ks)
    r.ks = *ks;
  return r;
}

Expected<SpeedupTestResult> speedupTest(const Hierarchy &baseline, const Hierarchy &candidate,
                                        const SpeedupTestOptions &options) {
  for (const Hierarchy *h : {&baseline, &candidate})
    if (auto why = validateHierarchy(*h); !why.empty())
      return fail(why);
  const auto x = baseline.topMeans(), y = candidate.topMeans();
  return speedupTest(std::span<const double>(x), std::span<const double>(y), options);
}

Expected<SuiteProportion> suiteProportion(std::size_t a, std::size_t b, double confidence) {
  PropTestOptions po;
  po.confidence = confidence;
  auto p = propTest(a, b, po);
  if (!p)
    return fail(p.error());
  SuiteProportion s;
  s.accelerated = a;
  s.benchmarks = b;
  s.proportion = p->estimate;
  s.confidence = confidence;
  s.lower = p->lower;
  s.upper = p->upper;
  const auto wald = waldProportionInterval(a, b, confidence);
  s.waldLower = wald.lower;
  s.waldUpper = wald.upper;
  s.normalApproximationValid = static_cast<double>(b) * s.proportion >= 10;
  return s;
}

Expected<std::size_t> benchmarksNeeded(double c, double r, double confidence) {
  if (!(c >= 0 && c <= 1))
    return fail("the pilot proportion must be in [0, 1]");
  if (!(r > 0 && r < 1))
    return fail("the half-width must be in (0, 1)");
  if (!(confidence > 0 && confidence < 1))
    return fail("confidence level must be in (0, 1)");
  const double z = quantile(Normal(0, 1), (1 + confidence) / 2);
  const double b = z * z * c * (1 - c) / (r * r);
  return static_cast<std::size_t>(std::max(1.0, std::ceil(b)));
}

Expected<double> averageSpeedup(std::span<const double> speedups, SpeedupAverage average) {
  if (speedups.empty())
    return fail("average speedup: no speedups");
  double sum = 0;
  for (double x : speedups) {
    if (!std::isfinite(x) || !(x > 0))
      return fail("average speedup: speedups must be finite and > 0");
    sum += average == SpeedupAverage::Arithmetic  ? x
           : average == SpeedupAverage::Geometric ? std::log(x)
                                                  : 1 / x;
  }
  const double n = static_cast<double>(speedups.size());
  switch (average) {
  case SpeedupAverage::Arithmetic:
    return sum / n;
  case SpeedupAverage::Geometric:
    return std::exp(sum / n);
  case SpeedupAverage::Harmonic:
    break;
  }
  return n / sum;
}

Expected<double> gainFactor(std::span<const BenchmarkMedians> benchmarks, GainWeights weights) {
  if (benchmarks.empty())
    return fail("gain factor: no benchmarks");
  double num = 0, den = 0;
  for (const auto &b : benchmarks) {
    if (!(b.baseline > 0) || !(b.candidate > 0))
      return fail("gain factor: medians must be positive");
    const double wk = weights == GainWeights::BaselineMedian ? b.baseline : 1.0;
    num += wk * b.candidate;
    den += wk * b.baseline;
  }
  return 1 - num / den;
}

} // namespace alea::analysis
