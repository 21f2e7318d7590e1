// S_i^2, T_i^2, level removal and shares against the specs' vectors:
// TR 2012 Tables III/IV (spec_000 §8.1-8.2 = spec_001 TV1), Table V
// components (spec_000 §8.3), the libkalibera data (spec_001 TV2) and the
// telescoping identity (spec_000 §2.3).
#include "alea/analysis/variance.hpp"

#include "paper_data.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace alea::analysis;

namespace {
constexpr double kTol = 1e-6;
}

TEST(Variance, TableIIISAndT) {
  const Hierarchy h = testdata::tableIII();
  const std::vector<double> s2 = sSquared(h);
  ASSERT_EQ(s2.size(), 3u);
  EXPECT_NEAR(s2[0], 3.5625, kTol);    // S_3^2 = VMM
  EXPECT_NEAR(s2[1], 31.0 / 12, kTol); // S_2^2 = MVM = 2.583333
  EXPECT_NEAR(s2[2], 16.5, kTol);      // S_1^2 = MMV
  const std::vector<double> t2 = tSquared(s2, h.shape);
  EXPECT_NEAR(t2[0], 2.270833, kTol);
  EXPECT_NEAR(t2[1], -5.666667, kTol);
  EXPECT_NEAR(t2[2], 16.5, kTol);
}

TEST(Variance, TelescopingIdentity) {
  // sum_i T_i^2 / prod_{k>=i} n_k == S_{n+1}^2 / n_{n+1} (exact algebra).
  for (const Hierarchy &h : {testdata::tableIII(), testdata::tableVOld(), testdata::tv2()}) {
    const std::vector<double> s2 = sSquared(h);
    const std::vector<double> t2 = tSquared(s2, h.shape);
    double sum = 0, prod = 1;
    for (std::size_t k = 0; k < h.depth(); ++k) {
      prod *= static_cast<double>(h.shape[k]);
      sum += t2[k] / prod;
    }
    EXPECT_NEAR(sum, s2[0] / static_cast<double>(h.shape[0]), 1e-12);
  }
  EXPECT_NEAR(sSquared(testdata::tableIII())[0] / 3, 1.1875, 1e-12);
}

TEST(Variance, TableIIIRemovesExecutionsByPoolingIntoTableIV) {
  auto r = varianceComponents(testdata::tableIII());
  ASSERT_TRUE(r.ok()) << r.error();
  const VarianceComponents &vc = *r;
  ASSERT_EQ(vc.levels.size(), 3u);
  EXPECT_EQ(vc.reducedShape, (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ(vc.reducedNames, (std::vector<std::string>{"build", "iteration"}));
  // Removed level keeps the values that condemned it.
  EXPECT_TRUE(vc.levels[1].removed);
  EXPECT_NEAR(vc.levels[1].t2, -5.666667, kTol);
  EXPECT_EQ(vc.levels[1].effectiveN, 1u);
  EXPECT_EQ(vc.levels[1].share, 0.0);
  // Table IV values.
  EXPECT_NEAR(vc.levels[0].s2, 3.5625, kTol);
  EXPECT_NEAR(vc.levels[0].t2, 0.381944, kTol);
  EXPECT_NEAR(vc.levels[2].s2, 12.722222, kTol);
  EXPECT_NEAR(vc.levels[2].t2, 12.722222, kTol);
  EXPECT_EQ(vc.levels[2].n, 2u);
  EXPECT_EQ(vc.levels[2].effectiveN, 4u);
  EXPECT_FALSE(vc.levels[0].removed);
  EXPECT_FALSE(vc.levels[2].removed);
  const double total = 0.381944444444 + 12.722222222222;
  EXPECT_NEAR(vc.levels[0].share, 0.381944444444 / total, 1e-9);
  EXPECT_NEAR(vc.levels[0].share + vc.levels[1].share + vc.levels[2].share, 1.0, 1e-12);
  EXPECT_FALSE(vc.topLevelWithoutVariation);
  EXPECT_DOUBLE_EQ(vc.grandMean, 6.5);
}

TEST(Variance, TableVComponents) {
  auto old = varianceComponents(testdata::tableVOld());
  ASSERT_TRUE(old.ok());
  EXPECT_NEAR(old->levels[2].s2, 9.166667, kTol);
  EXPECT_NEAR(old->levels[1].s2, 6.916667, kTol);
  EXPECT_NEAR(old->levels[0].s2, 5.8125, kTol);
  EXPECT_NEAR(old->levels[1].t2, 2.333333, kTol);
  EXPECT_NEAR(old->levels[0].t2, 2.354167, kTol);
  auto neu = varianceComponents(testdata::tableVNew());
  ASSERT_TRUE(neu.ok());
  EXPECT_NEAR(neu->levels[2].s2, 10.666667, kTol);
  EXPECT_NEAR(neu->levels[1].s2, 7.083333, kTol);
  EXPECT_NEAR(neu->levels[0].s2, 4.5625, kTol);
  EXPECT_NEAR(neu->levels[1].t2, 1.75, kTol);
  EXPECT_NEAR(neu->levels[0].t2, 1.020833, kTol);
  for (const auto &l : neu->levels)
    EXPECT_FALSE(l.removed);
}

TEST(Variance, LibkaliberaVectorUsesTheSVersionOfT) {
  const Hierarchy h = testdata::tv2();
  const std::vector<double> s2 = sSquared(h);
  EXPECT_NEAR(s2[2], 0.726667, kTol);
  EXPECT_NEAR(s2[1], 0.505000, kTol);
  EXPECT_NEAR(s2[0], 1.027222, kTol);
  const std::vector<double> t2 = tSquared(s2, h.shape);
  EXPECT_NEAR(t2[2], 0.726667, kTol);
  EXPECT_NEAR(t2[1], 0.262778, kTol);
  EXPECT_NEAR(t2[0], 0.774722, kTol);
  // The wrong published variant S_3^2 - T_2^2 / r_2 would give 0.895833.
  EXPECT_GT(std::fabs(t2[0] - 0.895833), 0.1);
}

TEST(Variance, ZeroVarianceAtALevelIsRemovedWithoutNaN) {
  // Two executions per build with identical iterations: S^2(execution) = 0,
  // so T^2(execution) = -S_1^2/n_1 < 0 and the level is pooled.
  Hierarchy h{testdata::kLevels3, {3, 2, 2}, {1, 2, 1, 2, 3, 5, 3, 5, 2, 2, 2, 2}};
  auto r = varianceComponents(h);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->levels[1].removed);
  double shares = 0;
  for (const auto &l : r->levels) {
    EXPECT_TRUE(std::isfinite(l.s2) && std::isfinite(l.t2) && std::isfinite(l.share));
    shares += l.share;
  }
  EXPECT_NEAR(shares, 1.0, 1e-12);
}

TEST(Variance, ConstantDataHasZeroSharesEverywhere) {
  Hierarchy h{testdata::kLevels3, {2, 2, 2}, std::vector<double>(8, 3.0)};
  auto r = varianceComponents(h);
  ASSERT_TRUE(r.ok());
  for (const auto &l : r->levels) {
    EXPECT_EQ(l.share, 0.0);
    EXPECT_EQ(l.s2, 0.0);
  }
  EXPECT_TRUE(r->topLevelWithoutVariation);
}

TEST(Variance, OneLevelOnly) {
  auto r = varianceComponents(flatHierarchy(testdata::kSeed002T));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->levels.size(), 1u);
  // var(t1) = 0.3135345 (spec_002 V10).
  EXPECT_NEAR(r->levels[0].s2, 0.3135345, 1e-7);
  EXPECT_NEAR(r->levels[0].t2, 0.3135345, 1e-7);
  EXPECT_DOUBLE_EQ(r->levels[0].share, 1.0);
}

TEST(Variance, TopLevelIsFlaggedNotRemovedByDefault) {
  // Builds identical, executions differ: T^2(build) < 0.
  Hierarchy h{{"build", "execution"}, {2, 3}, {1, 2, 3, 3, 2, 1}};
  auto r = varianceComponents(h);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->levels[0].removed);
  EXPECT_TRUE(r->topLevelWithoutVariation);
  EXPECT_EQ(r->levels[0].share, 0.0);
  VarianceOptions allow;
  allow.allowTopRemoval = true;
  auto pooledTop = varianceComponents(h, allow);
  ASSERT_TRUE(pooledTop.ok());
  EXPECT_TRUE(pooledTop->levels[0].removed);
  EXPECT_EQ(pooledTop->reducedShape, (std::vector<std::size_t>{6}));
}

TEST(Variance, RemovalFractionRemovesTinyComponents) {
  // Table V old: T^2 = (2.354, 2.333, 9.167); a 20% threshold of their sum
  // (2.77) removes the execution level, the default keeps it.
  VarianceOptions opts;
  opts.removalFraction = 0.2;
  auto r = varianceComponents(testdata::tableVOld(), opts);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->levels[1].removed);
  auto d = varianceComponents(testdata::tableVOld());
  EXPECT_FALSE(d->levels[1].removed);
}

TEST(Variance, NeedsTwoTopLevelUnits) {
  Hierarchy h{{"build", "iteration"}, {1, 3}, {1, 2, 3}};
  EXPECT_FALSE(varianceComponents(h).ok());
}

TEST(Variance, VarianceOfMeanMatchesEquation10) {
  // 3 levels: s3/n3 + s2/(n2 n3) + s1/(n1 n2 n3), negatives as 0.
  const std::vector<double> c = {4.0, -1.0, 8.0};
  const std::vector<std::size_t> n = {2, 2, 4};
  EXPECT_DOUBLE_EQ(varianceOfMean(c, n), 4.0 / 2 + 8.0 / 16);
}

TEST(Variance, FourLevelsByHandAndPooling) {
  // machine > build > execution > iteration, shape {2, 2, 2, 2}. S^2 by the
  // M/V recipe computed by hand:
  //   executions (pairs): (1,3) (2,4) (5,5) (6,8) | (10,12) (11,11) (20,22) (19,21)
  //   S_1^2 = mean of pair variances = (2+2+0+2+2+0+2+2)/8 = 1.5
  //   execution means 2,3,5,7 | 11,11,21,20; per build variance: 0.5, 2, 0, 0.5
  //   S_2^2 = 0.75
  //   build means 2.5, 6 | 11, 20.5; per machine variance 6.125, 45.125
  //   S_3^2 = 25.625
  //   machine means 4.25, 15.75 -> S_4^2 = 66.125
  Hierarchy h{{"machine", "build", "execution", "iteration"},
              {2, 2, 2, 2},
              {1, 3, 2, 4, 5, 5, 6, 8, 10, 12, 11, 11, 20, 22, 19, 21}};
  const std::vector<double> s2 = sSquared(h);
  EXPECT_NEAR(s2[3], 1.5, 1e-12);
  EXPECT_NEAR(s2[2], 0.75, 1e-12);
  EXPECT_NEAR(s2[1], 25.625, 1e-12);
  EXPECT_NEAR(s2[0], 66.125, 1e-12);
  const std::vector<double> t2 = tSquared(s2, h.shape);
  EXPECT_NEAR(t2[2], 0.75 - 1.5 / 2, 1e-12); // 0: removed by the paper's rule
  EXPECT_NEAR(t2[1], 25.625 - 0.75 / 2, 1e-12);
  EXPECT_NEAR(t2[0], 66.125 - 25.625 / 2, 1e-12);
  auto r = varianceComponents(h);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->levels[2].removed);
  EXPECT_EQ(r->reducedShape, (std::vector<std::size_t>{2, 2, 4}));
  // After pooling: the iterations of each build as one sample of 4.
  // build 1: {1,3,2,4} var 5/3; build 2: {5,5,6,8} var 2; build 3: {10,12,11,11}
  // var 2/3; build 4: {20,22,19,21} var 5/3 -> S_1'^2 = 1.5; T_build = 25.625 - 1.5/4.
  EXPECT_NEAR(r->levels[3].s2, 1.5, 1e-12);
  EXPECT_NEAR(r->levels[1].t2, 25.625 - 1.5 / 4, 1e-12);
  EXPECT_NEAR(r->levels[0].t2, 66.125 - 25.625 / 2, 1e-12);
  double shares = 0;
  for (const auto &l : r->levels)
    shares += l.share;
  EXPECT_NEAR(shares, 1.0, 1e-12);
}
