// Diagnostics: outliers are reported with both rules and never dropped,
// build means in two clusters are flagged as layout modes (and unimodal ones
// are not), executions that still trend are flagged with a BH summary.
#include "alea/analysis/diagnostics.hpp"

#include "alea/analysis/math_policy.hpp"
#include "alea/random.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace alea::analysis {
namespace {

TEST(Outliers, TukeyFencesAndMadOnAKnownSample) {
  // Quartiles (type 7) of 1..10 plus 30: Q1 = 3.5, Q3 = 8.5, IQR = 5; upper
  // inner fence 16, outer 23.5: 30 is far out. MAD = 3, z(30) = 0.6745*24/3.
  std::vector<double> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 30};
  const auto copy = v;
  auto r = findOutliers(v);
  ASSERT_TRUE(r);
  EXPECT_EQ(v, copy); // never dropped or reordered
  EXPECT_DOUBLE_EQ(r->q1, 3.5);
  EXPECT_DOUBLE_EQ(r->q3, 8.5);
  EXPECT_DOUBLE_EQ(r->upperFence, 16);
  EXPECT_DOUBLE_EQ(r->mad, 3);
  ASSERT_EQ(r->outliers.size(), 1u);
  EXPECT_EQ(r->outliers[0].index, 10u);
  EXPECT_TRUE(r->outliers[0].tukey && r->outliers[0].farOut && r->outliers[0].mad);
  EXPECT_TRUE(r->outliers[0].high);
  EXPECT_NEAR(r->outliers[0].modifiedZ, 0.6745 * 24 / 3, 1e-12);
}

TEST(Outliers, ConstantDataAndTooFewValues) {
  auto r = findOutliers(std::vector<double>{2, 2, 2, 2, 2});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->outliers.empty());
  EXPECT_EQ(r->mad, 0);
  EXPECT_FALSE(findOutliers(std::vector<double>{1, 2, 3}));
}

std::vector<double> normals(std::uint64_t seed, std::size_t n, double mean, double sd) {
  Rng rng(seed);
  const Normal z(0, 1);
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i)
    v.push_back(mean + sd * quantile(z, 0.0005 + 0.999 * rng.uniform()));
  return v;
}

TEST(LayoutModes, TwoClustersOfBuildsAreFlagged) {
  // 10 builds around 1.00 and 10 around 1.08 (the 'bimod' sample of test/r).
  auto means = normals(1, 10, 1.00, 0.01);
  const auto high = normals(2, 10, 1.08, 0.01);
  means.insert(means.begin() + 3, high.begin(), high.end());
  auto r = findLayoutModes(means);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->multimodal);
  EXPECT_LT(r->pValue, 0.01);
  EXPECT_EQ(r->highUnits.size(), 10u);
  EXPECT_EQ(r->highUnits.front(), 3u); // indices into the input
  EXPECT_NEAR(r->relativeGap, 0.08, 0.02);
  EXPECT_GT(r->threshold, 1.02);
  EXPECT_LT(r->threshold, 1.06);
}

TEST(LayoutModes, UnimodalBuildsAreMostlyNotFlagged) {
  // Under the null the test rejects at about its level: over 40 normal
  // samples of 12 builds expect ~2 flags at 5%; allow up to 6.
  int flagged = 0;
  for (std::uint64_t s = 0; s < 40; ++s) {
    auto r = findLayoutModes(normals(100 + s, 12, 5.0, 0.05), {.simulations = 499});
    ASSERT_TRUE(r);
    flagged += r->multimodal;
  }
  EXPECT_LE(flagged, 6);
}

TEST(LayoutModes, EqualMeansAndTinyInputs) {
  auto r = findLayoutModes(std::vector<double>{1, 1, 1, 1, 1});
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->multimodal);
  EXPECT_FALSE(findLayoutModes(std::vector<double>{1, 2, 3}));
  // Same seed, same p-value.
  const auto v = normals(9, 8, 1, 0.1);
  EXPECT_EQ(findLayoutModes(v)->pValue, findLayoutModes(v)->pValue);
}

TEST(Trends, BenjaminiHochbergMatchesRsPAdjust) {
  // R: p.adjust(c(0.04, 0.2, 0.001, 0.03, 0.9, 0.02), "BH")
  const std::vector<double> p = {0.04, 0.2, 0.001, 0.03, 0.9, 0.02};
  const auto q = adjustBenjaminiHochberg(p);
  const std::vector<double> r = {0.06, 0.24, 0.006, 0.06, 0.9, 0.06};
  for (std::size_t i = 0; i < p.size(); ++i)
    EXPECT_NEAR(q[i], r[i], 1e-15);
}

TEST(Trends, WarmUpExecutionIsFlaggedSteadyOnesAreNot) {
  std::vector<std::vector<double>> executions;
  for (std::uint64_t e = 0; e < 6; ++e)
    executions.push_back(normals(200 + e, 30, 2.0, 0.01));
  auto &warm = executions[4];
  for (std::size_t i = 0; i < warm.size(); ++i)
    warm[i] += 0.3 * std::exp(-static_cast<double>(i) / 4);
  const auto r = findTrends(executions);
  EXPECT_EQ(r.executions, 6u);
  EXPECT_EQ(r.flagged, 1u);
  EXPECT_EQ(r.flaggedDecreasing, 1u);
  EXPECT_TRUE(r.trends[4].flagged);
  EXPECT_LT(r.trends[4].test.tau, 0);
}

TEST(Trends, KendallEdgeCases) {
  EXPECT_FALSE(kendallTrend(std::vector<double>{1, 2}));
  EXPECT_FALSE(kendallTrend(std::vector<double>{3, 3, 3, 3}));
  auto up = kendallTrend(std::vector<double>{1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(up);
  EXPECT_DOUBLE_EQ(up->tau, 1);
}

TEST(Diagnose, OnAHierarchyWithAModeAnOutlierAndAWarmUp) {
  // 8 builds x 3 executions x 10 iterations; builds 5-7 are 6% slower,
  // execution (0, 1) warms up, one iteration is a spike.
  std::vector<double> values;
  Rng rng(5);
  for (int b = 0; b < 8; ++b)
    for (int e = 0; e < 3; ++e)
      for (int i = 0; i < 10; ++i) {
        double v = (b >= 5 ? 1.06 : 1.0) + 0.002 * (rng.uniform() - 0.5);
        if (b == 0 && e == 1)
          v += 0.05 * std::exp(-i / 2.0);
        if (b == 3 && e == 2 && i == 7)
          v += 0.2;
        values.push_back(v);
      }
  auto h = makeHierarchy({"build", "execution", "iteration"}, {8, 3, 10}, values);
  ASSERT_TRUE(h);
  auto d = diagnose(*h);
  ASSERT_TRUE(d) << d.error();
  ASSERT_TRUE(d->modes);
  EXPECT_TRUE(d->modes->multimodal);
  EXPECT_EQ(d->modes->highUnits, (std::vector<std::size_t>{5, 6, 7}));
  bool spike = false;
  for (const auto &o : d->measurementOutliers.outliers)
    spike |= o.index == (3 * 3 + 2) * 10 + 7 && o.farOut;
  EXPECT_TRUE(spike);
  ASSERT_TRUE(d->trends);
  EXPECT_EQ(d->trends->executions, 24u);
  EXPECT_GE(d->trends->flagged, 1u);
  EXPECT_TRUE(d->trends->trends[1].flagged); // build 0, execution 1
}

// Simulated counts (2.29e8, a few hundred apart): a measurement 300 above
// the others and a build mean 150 above are far beyond fences a few counts
// wide, but 1.3e-6 of the value: no outlier. The same shape at 1% is one.
TEST(Diagnose, DeviationsTooSmallToShowAreNoOutliers) {
  for (double scale : {1e-6, 1e-2}) {
    std::vector<double> values;
    for (int b = 0; b < 6; ++b)
      for (int e = 0; e < 2; ++e)
        values.push_back(2.29e8 * (1 + scale * (b == 4 && e == 1 ? 1.3 : 0.01 * (b + e))));
    auto h = makeHierarchy({"build", "execution"}, {6, 2}, values);
    ASSERT_TRUE(h);
    auto d = diagnose(*h);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->measurementOutliers.outliers.empty(), scale < 1e-3) << scale;
    EXPECT_EQ(d->unitOutliers.outliers.empty(), scale < 1e-3) << scale;
  }
}

} // namespace
} // namespace alea::analysis

namespace alea::analysis {
namespace {

TEST(Trends, FastKendallEqualsTheDirectPairCount) {
  // The O(n log n) count against the O(n^2) definition, with many ties.
  Rng rng(17);
  for (std::size_t n : {3u, 4u, 10u, 57u, 200u}) {
    std::vector<double> x(n);
    for (double &v : x)
      v = static_cast<double>(rng.below(7)); // heavy ties
    double s = 0, tied = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        s += (x[j] > x[i]) - (x[j] < x[i]);
        tied += x[j] == x[i];
      }
    const double t0 = n * (n - 1) / 2.0;
    auto r = kendallTrend(x);
    if (tied == t0) {
      EXPECT_FALSE(r);
      continue;
    }
    ASSERT_TRUE(r);
    EXPECT_NEAR(r->tau, s / std::sqrt(t0 * (t0 - tied)), 1e-12) << n;
  }
}

} // namespace
} // namespace alea::analysis
