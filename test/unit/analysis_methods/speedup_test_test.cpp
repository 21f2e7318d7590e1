// The Speedup-Test protocol on Touati 2009's worked example (spec_002_004
// §1.7) and on constructed cases for each branch: non-normal small samples,
// the large-sample path, unequal variances, no speedup; and the suite-level
// formulas (V19-V25).
#include "alea/analysis/speedup_test.hpp"

#include "alea/analysis/hierarchy.hpp"

#include "alea/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace alea::analysis {
namespace {

const std::vector<double> t1 = {2.799, 2.046, 1.259, 1.877, 2.244};
const std::vector<double> t2 = {1.046, 0.259, 0.877, 1.244, 1.799};

TEST(SpeedupTest, PaperExampleAtRiskFivePercentIsSignificant) {
  auto r = speedupTest(t1, t2);
  ASSERT_TRUE(r) << r.error();
  EXPECT_NEAR(r->minSpeedup, 4.861004, 5e-7);    // V1 (the naive speedup)
  EXPECT_NEAR(r->medianSpeedup, 1.956023, 5e-7); // V14
  EXPECT_NEAR(r->meanSpeedup, 1.956938, 5e-7);
  EXPECT_NEAR(1 / r->meanSpeedup, 0.5110024, 5e-8);   // V12
  EXPECT_NEAR(1 / r->medianSpeedup, 0.5112414, 5e-8); // V13
  EXPECT_TRUE(r->smallSample);
  ASSERT_TRUE(r->normalityX && r->normalityY);
  EXPECT_NEAR(r->normalityX->pValue, 0.9647, 5e-5);
  ASSERT_TRUE(r->fTest); // both normal -> F test -> equal variances -> Student
  EXPECT_NEAR(r->fTest->pValue, 1, 1e-9);
  ASSERT_TRUE(r->tTest);
  EXPECT_TRUE(r->tTest->pooled);
  EXPECT_NEAR(r->tTest->pValue, 0.01118, 5e-6);
  EXPECT_EQ(r->meanVerdict, MeanVerdict::Significant);
  // Median path: WMW exact p = 2/252 and equal shapes (KS p = 1).
  ASSERT_TRUE(r->wilcoxon && r->ks);
  EXPECT_NEAR(r->wilcoxon->pValue, 2.0 / 252, 1e-12);
  EXPECT_EQ(r->medianVerdict, MedianVerdict::MedianSpeedup);
  EXPECT_TRUE(r->probabilityAboveHalf);
  EXPECT_NEAR(r->probabilityXGreater, 0.96, 1e-12);
}

TEST(SpeedupTest, PaperExampleAtRiskOnePercentIsNotSignificant) {
  // V5: the 99% one-sided CI [-0.0257, inf) contains 0.
  auto r = speedupTest(t1, t2, {.risk = 0.01});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->meanVerdict, MeanVerdict::NotSignificant);
  EXPECT_LT(r->tTest->lower, 0);
  EXPECT_EQ(r->medianVerdict, MedianVerdict::MedianSpeedup); // 2/252 < 0.01
}

TEST(SpeedupTest, NonNormalSmallSampleAsksForMoreRuns) {
  // A strongly skewed baseline (one slow run among fast ones).
  const std::vector<double> x = {1.00, 1.01, 1.00, 1.02, 1.01, 1.00, 2.50, 1.01};
  const std::vector<double> y = {0.90, 0.91, 0.92, 0.90, 0.93, 0.91, 0.92, 0.90};
  auto r = speedupTest(x, y);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->meanVerdict, MeanVerdict::NotNormal);
  EXPECT_FALSE(r->tTest);
  EXPECT_FALSE(r->notes.empty());
  // The median path still decides: every y is below every x.
  EXPECT_NEAR(r->probabilityXGreater, 1.0, 1e-12);
  EXPECT_TRUE(r->probabilityAboveHalf);
}

TEST(SpeedupTest, LargeSamplesSkipNormalityAndUseWelch) {
  Rng rng(42);
  std::vector<double> x, y;
  for (int i = 0; i < 40; ++i) {
    x.push_back(2.0 + 0.1 * rng.uniform());
    y.push_back(1.9 + 0.3 * rng.uniform()); // different spread
  }
  auto r = speedupTest(x, y);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->smallSample);
  EXPECT_FALSE(r->normalityX);
  EXPECT_FALSE(r->fTest);
  ASSERT_TRUE(r->tTest);
  EXPECT_FALSE(r->tTest->pooled);
  // 31 runs as "large" threshold is configurable (spec A2-3).
  auto strict = speedupTest(std::span(x).first(30), std::span(y).first(30), {.largeSample = 31});
  ASSERT_TRUE(strict);
  EXPECT_TRUE(strict->smallSample);
}

TEST(SpeedupTest, NoSpeedupWhenCandidateIsSlower) {
  auto r = speedupTest(t2, t1);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->meanVerdict, MeanVerdict::NotSignificant);
  EXPECT_EQ(r->medianVerdict, MedianVerdict::NotSignificant);
  EXPECT_FALSE(r->probabilityAboveHalf);
  EXPECT_LT(r->medianSpeedup, 1);
}

TEST(SpeedupTest, IdenticalConstantSamplesAreNotComputableNotAnError) {
  const std::vector<double> c = {2, 2, 2, 2, 2};
  auto r = speedupTest(c, c);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->meanVerdict, MeanVerdict::NotComputable);
  EXPECT_EQ(r->medianVerdict, MedianVerdict::NotComputable);
  EXPECT_DOUBLE_EQ(r->medianSpeedup, 1);
}

TEST(SpeedupTest, BadInputIsAnError) {
  EXPECT_FALSE(speedupTest(std::vector<double>{1}, t2));
  EXPECT_FALSE(speedupTest(t1, std::vector<double>{1, -2, 3}));
  EXPECT_FALSE(speedupTest(t1, t2, {.risk = 0.95})); // seed 002's "alpha" is a confidence
}

TEST(SuiteLevel, ProportionOfAcceleratedBenchmarksV21V22) {
  auto s = suiteProportion(17, 30, 0.90);
  ASSERT_TRUE(s);
  EXPECT_NEAR(s->lower, 0.4027157, 5e-8);
  EXPECT_NEAR(s->upper, 0.7184049, 5e-8);
  EXPECT_NEAR(s->waldLower, 0.4178534, 5e-8);
  EXPECT_TRUE(s->normalApproximationValid); // b C = 17 >= 10
  auto small = suiteProportion(3, 8, 0.95);
  EXPECT_FALSE(small->normalApproximationValid);
}

TEST(SuiteLevel, BenchmarksNeededV25Is378) {
  auto b = benchmarksNeeded(17.0 / 30.0, 0.05, 0.95);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, 378u);
  auto paper = benchmarksNeeded(0.5666, 0.05, 0.95);
  EXPECT_EQ(*paper, 378u);
  EXPECT_FALSE(benchmarksNeeded(0.5, 0, 0.95));
}

TEST(SuiteLevel, AveragesOfSpeedupsV15) {
  // Seed 002 s142: speedups 300% and 105% average to 202.5% (the paper writes
  // 202%), geometric 177.48%, harmonic 155.56% (spec V15: 2.025, 1.774824,
  // 1.555556).
  const std::vector<double> s = {3.00, 1.05};
  EXPECT_NEAR(*averageSpeedup(s, SpeedupAverage::Arithmetic), 2.025, 1e-12);
  EXPECT_NEAR(*averageSpeedup(s, SpeedupAverage::Geometric), 1.774824, 1e-6);
  EXPECT_NEAR(*averageSpeedup(s, SpeedupAverage::Harmonic), 1.555556, 1e-6);
  EXPECT_NEAR(*averageSpeedup(s, SpeedupAverage::Geometric), std::sqrt(3.15), 1e-12);
  EXPECT_NEAR(*averageSpeedup(s, SpeedupAverage::Harmonic), 2 / (1 / 3.0 + 1 / 1.05), 1e-12);
  EXPECT_FALSE(averageSpeedup(std::vector<double>{}, SpeedupAverage::Arithmetic).ok());
  EXPECT_FALSE(averageSpeedup(std::vector<double>{1.0, 0.0}, SpeedupAverage::Harmonic).ok());
}

TEST(SuiteLevel, GainFactorV19V20) {
  const std::vector<BenchmarkMedians> b = {{3, 1}, {3600, 3428}};
  EXPECT_NEAR(*gainFactor(b), 0.0477782, 5e-8);
  EXPECT_NEAR(*gainFactor(b, GainWeights::Unit), 174.0 / 3603.0, 1e-12);
  const std::vector<BenchmarkMedians> exact = {{3, 1}, {3600, 3600 / 1.05}};
  EXPECT_NEAR(*gainFactor(exact), 0.0476195, 5e-8);
  EXPECT_NEAR(*gainFactor(exact, GainWeights::Unit), 0.0481345, 5e-8);
}

} // namespace
} // namespace alea::analysis

namespace alea::analysis {
namespace {

TEST(SpeedupTest, OnHierarchiesUsesTheBuildMeans) {
  // 5 builds x 2 iterations whose build means are Touati's t1 and t2.
  std::vector<double> a, b;
  for (std::size_t i = 0; i < 5; ++i) {
    a.insert(a.end(), {t1[i] - 0.01, t1[i] + 0.01});
    b.insert(b.end(), {t2[i] + 0.02, t2[i] - 0.02});
  }
  auto ha = makeHierarchy({"build", "iteration"}, {5, 2}, a);
  auto hb = makeHierarchy({"build", "iteration"}, {5, 2}, b);
  ASSERT_TRUE(ha && hb);
  auto viaHierarchy = speedupTest(*ha, *hb);
  auto direct = speedupTest(t1, t2);
  ASSERT_TRUE(viaHierarchy && direct);
  EXPECT_NEAR(viaHierarchy->tTest->pValue, direct->tTest->pValue, 1e-12);
  EXPECT_EQ(viaHierarchy->n, 5u);
  EXPECT_EQ(viaHierarchy->medianVerdict, direct->medianVerdict);
}

} // namespace
} // namespace alea::analysis
