// t- and normal-based CI of one system's mean (TR 2012 §6.2 / eq. 11; KJ13
// eq. 4) against spec_000 §8.3, spec_001 TV3, the t-quantile table of
// spec_000 §8.11, and R's t.test on seed 002's data; KT06's eq. 17 interval
// against TV3.
#include "alea/analysis/interval.hpp"

#include "paper_data.hpp"

#include <gtest/gtest.h>

using namespace alea::analysis;

TEST(Quantiles, StudentTTableOfSpec000) {
  const std::pair<double, double> table[] = {
      {1, 12.706205}, {2, 4.302653},  {3, 3.182446},  {4, 2.776445},  {7, 2.364624},
      {9, 2.262157},  {14, 2.144787}, {15, 2.131450}, {16, 2.119905}, {19, 2.093024},
      {23, 2.068658}, {25, 2.059539}, {29, 2.045230}, {99, 1.984217}};
  for (auto [df, t] : table)
    EXPECT_NEAR(tQuantileTwoSided(0.95, df), t, 5e-7) << "df " << df;
  EXPECT_NEAR(normalQuantileTwoSided(0.95), 1.959964, 5e-7);
  // R: qt(0.975, 2) = 4.30265272974946.
  EXPECT_NEAR(tQuantileTwoSided(0.95, 2), 4.30265272974946, 1e-12);
}

TEST(MeanInterval, TableVOldAndNew) {
  auto old = meanInterval(testdata::tableVOld());
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_DOUBLE_EQ(old->mean, 10.5);
  EXPECT_EQ(old->df, 2u);
  EXPECT_NEAR(old->halfWidth, 5.989039, 1e-6);
  EXPECT_NEAR(old->interval.lower, 4.510961, 1e-6);
  EXPECT_NEAR(old->interval.upper, 16.489039, 1e-6);
  auto neu = meanInterval(testdata::tableVNew());
  ASSERT_TRUE(neu.ok());
  EXPECT_NEAR(neu->halfWidth, 5.306120, 1e-6);
  EXPECT_NEAR(neu->interval.lower, 1.193880, 1e-6);
}

TEST(MeanInterval, TV3TAndNormalOnTableIII) {
  auto t = meanInterval(testdata::tableIII());
  ASSERT_TRUE(t.ok());
  EXPECT_NEAR(t->standardError * t->standardError, 1.1875, 1e-12); // S_3^2 / 3
  EXPECT_NEAR(t->halfWidth, 4.688707, 1e-6);
  // R: t.test(c(6.25, 8.5, 4.75))$conf.int
  EXPECT_NEAR(t->interval.lower, 1.81129289046817, 1e-9);
  EXPECT_NEAR(t->interval.upper, 11.18870710953183, 1e-9);
  auto z = meanInterval(testdata::tableIII(), 0.95, IntervalMethod::Normal);
  ASSERT_TRUE(z.ok());
  EXPECT_NEAR(z->halfWidth, 2.135821, 1e-6);
  // R: t.test(c(6.25, 8.5, 4.75), conf.level = 0.9)$conf.int
  auto t90 = meanInterval(testdata::tableIII(), 0.90);
  EXPECT_NEAR(t90->interval.lower, 3.31801948466054, 1e-9);
}

TEST(Kt06Interval, TV3OnTableIII) {
  // spec_001 TV3: KT06 eq. 17 variance 16.5/12 + 2.583333/6 + 3.5625/3 =
  // 2.993056 and, with u = 1.959964, half-width 3.390826 (against KJ13's
  // variance 1.1875 above: 2.5x too large).
  auto k = kt06MeanInterval(testdata::tableIII());
  ASSERT_TRUE(k.ok()) << k.error();
  EXPECT_NEAR(k->variance, 2.993056, 1e-6);
  EXPECT_NEAR(k->variance, 16.5 / 12 + 31.0 / 12 / 6 + 3.5625 / 3, 1e-12); // S^2 exactly
  EXPECT_NEAR(k->halfWidth, 3.390826, 1e-6);
  EXPECT_NEAR(k->quantile, 1.959964, 5e-7);
  EXPECT_DOUBLE_EQ(k->mean, 6.5);
  EXPECT_NEAR(k->interval.lower, 6.5 - 3.390826, 1e-6);
  EXPECT_NEAR(k->interval.upper, 6.5 + 3.390826, 1e-6);
  auto t = meanInterval(testdata::tableIII());
  ASSERT_TRUE(t.ok());
  EXPECT_NEAR(k->variance / (t->standardError * t->standardError), 2.520468, 1e-6);
  // Errors as meanInterval's.
  EXPECT_FALSE(kt06MeanInterval(testdata::tableIII(), 1.0).ok());
  EXPECT_FALSE(kt06MeanInterval(flatHierarchy(std::vector<double>{1.0})).ok());
}

TEST(MeanInterval, Seed002OneLevelMatchesR) {
  // R: t.test(t1)$conf.int and t.test(t2)$conf.int (one-level data).
  auto a = meanInterval(flatHierarchy(testdata::kSeed002T));
  ASSERT_TRUE(a.ok());
  EXPECT_NEAR(a->interval.lower, 1.3497407799693, 1e-9);
  EXPECT_NEAR(a->interval.upper, 2.7402592200307, 1e-9);
  auto b = meanInterval(flatHierarchy(testdata::kSeed002TPrime));
  EXPECT_NEAR(b->interval.lower, 0.3497407799693, 1e-9);
  EXPECT_NEAR(b->interval.upper, 1.7402592200307, 1e-9);
}

TEST(MeanInterval, TwoTopLevelUnitsUseOneDegreeOfFreedom) {
  Hierarchy h{{"build", "iteration"}, {2, 2}, {1, 3, 5, 7}};
  auto r = meanInterval(h);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->df, 1u);
  EXPECT_NEAR(r->quantile, 12.706205, 1e-6);
  // top means 2 and 6: S^2 = 8, se = 2.
  EXPECT_DOUBLE_EQ(r->standardError, 2.0);
}

TEST(MeanInterval, ZeroVarianceGivesAPointInterval) {
  Hierarchy h{{"build"}, {3}, {4, 4, 4}};
  auto r = meanInterval(h);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->interval.lower, 4.0);
  EXPECT_EQ(r->interval.upper, 4.0);
}

TEST(MeanInterval, Errors) {
  EXPECT_FALSE(meanInterval(Hierarchy{{"build"}, {1}, {4}}).ok());
  EXPECT_FALSE(meanInterval(testdata::tableIII(), 1.0).ok());
  EXPECT_FALSE(meanInterval(testdata::tableIII(), 0.0).ok());
  EXPECT_FALSE(meanInterval(Hierarchy{{"build"}, {3}, {1, 2}}).ok());
}
