// Fieller's ratio interval (TR 2012 eq. 12, KJ13 eq. 5) against spec_000 §8.3
// / spec_001 TV4, TV5, the unbounded vector of spec_000 §8.11, and edge cases.
#include "alea/analysis/fieller.hpp"

#include "paper_data.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace alea::analysis;

TEST(Fieller, TableVTV4) {
  auto r = fiellerRatio(testdata::tableVNew(), testdata::tableVOld());
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->status, FiellerStatus::Bounded);
  ASSERT_TRUE(r->interval.has_value());
  EXPECT_NEAR(r->interval->lower, 0.109834, 1e-6);
  EXPECT_NEAR(r->interval->upper, 1.725302, 1e-6);
  EXPECT_NEAR(r->estimate, 0.619048, 1e-6);
  EXPECT_DOUBLE_EQ(r->df, 2.0);
  EXPECT_NEAR(r->quantile * r->quantile, 18.512821, 1e-6);
}

TEST(Fieller, TableVNormalVariant) {
  auto r = fiellerRatio(testdata::tableVNew(), testdata::tableVOld(), 0.95, IntervalMethod::Normal);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->interval.has_value());
  EXPECT_NEAR(r->interval->lower, 0.369621, 1e-6);
  EXPECT_NEAR(r->interval->upper, 0.958107, 1e-6);
}

TEST(Fieller, TableVWithThePapersRoundedInputs) {
  // t^2 = 18.5, S_old^2 = 5.8, S_new^2 = 4.6 -> [0.108084, 1.724541].
  const FiellerResult r =
      fiellerFromMoments(6.5, 4.6 / 3, 10.5, 5.8 / 3, 0.0, std::sqrt(18.5), 0.95);
  ASSERT_TRUE(r.interval.has_value());
  EXPECT_NEAR(r.interval->lower, 0.108084, 1e-6);
  EXPECT_NEAR(r.interval->upper, 1.724541, 1e-6);
}

TEST(Fieller, TV5RelativeForm) {
  // Ybar = 100, Ybar' = 95, e = e' = 0.02 (h = q sqrt(v) = 2 and 1.9).
  const FiellerResult r = fiellerFromMoments(95, 1.9 * 1.9, 100, 4.0, 0.0, 1.0, 0.95);
  ASSERT_TRUE(r.interval.has_value());
  EXPECT_NEAR(r.interval->lower, 0.923502, 1e-6);
  EXPECT_NEAR(r.interval->upper, 0.977258, 1e-6);
  EXPECT_NEAR((r.interval->upper - r.interval->lower) / 2, 0.026878, 1e-6);
}

TEST(Fieller, TV5Equation6Approximation) {
  // spec_001 TV5 / KJ13 eq. 6: ratio 0.95, e = e' = 0.02: the approximate
  // half-width 0.95 sqrt(0.02^2 + 0.02^2) = 0.026870 against the exact 0.026878.
  EXPECT_NEAR(ratioHalfWidthApproximation(0.95, 0.02, 0.02), 0.026870, 1e-6);
  auto exact = fiellerFromRelativeHalfWidths(0.95, 0.02, 0.02);
  ASSERT_TRUE(exact);
  EXPECT_NEAR(exact->lower, 0.923502, 1e-6);
  EXPECT_NEAR(exact->upper, 0.977258, 1e-6);
  EXPECT_NEAR(exact->width() / 2, 0.026878, 1e-6);
  EXPECT_NEAR((exact->lower + exact->upper) / 2, 0.950380, 1e-6);
  // The approximation understates the exact half-width, by 8e-6 here.
  EXPECT_LT(ratioHalfWidthApproximation(0.95, 0.02, 0.02), exact->width() / 2);
}

TEST(Fieller, RelativeFormGivesTheTV4Limits) {
  // spec_001 TV4: e = 5.989039 / 10.5 = 0.570385 (old), e' = 5.306120 / 6.5
  // = 0.816326 (new): the same limits as the quadratic form.
  auto r = fiellerFromRelativeHalfWidths(6.5 / 10.5, 5.989039 / 10.5, 5.306120 / 6.5);
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->lower, 0.109834, 1e-6);
  EXPECT_NEAR(r->upper, 1.725302, 1e-6);
  // e >= 1: the baseline mean is not significantly non-zero: unbounded.
  EXPECT_FALSE(fiellerFromRelativeHalfWidths(0.9, 1.0, 0.1));
  EXPECT_FALSE(fiellerFromRelativeHalfWidths(0.9, 1.5, 0.1));
}

TEST(Fieller, UnboundedWhenTheBaselineIsNotSignificantlyNonZero) {
  // spec_000 §8.11: old top means {0.1, 10, 0.1}, a = 11.56 - 18.5128 * 10.89 < 0.
  const Hierarchy old{{"build"}, {3}, {0.1, 10.0, 0.1}};
  for (const Hierarchy &neu : {testdata::tableVNew(), Hierarchy{{"build"}, {3}, {5, 6, 7}}}) {
    Hierarchy candidate = neu;
    if (candidate.depth() != 1)
      candidate = Hierarchy{{"build"}, {3}, candidate.topMeans()};
    auto r = fiellerRatio(candidate, old);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->status, FiellerStatus::Unbounded);
    EXPECT_FALSE(r->interval.has_value());
    EXPECT_FALSE(std::isnan(r->estimate));
  }
}

TEST(Fieller, BoundsAreNeverSwappedOrNaN) {
  // Negative means, zero variance, tiny counts: whatever comes out is ordered.
  const FiellerResult zeroVar = fiellerFromMoments(3, 0, 4, 0, 0, 2, 0.95);
  ASSERT_TRUE(zeroVar.interval.has_value());
  EXPECT_DOUBLE_EQ(zeroVar.interval->lower, 0.75);
  EXPECT_DOUBLE_EQ(zeroVar.interval->upper, 0.75);
  const FiellerResult negative = fiellerFromMoments(-3, 0.1, -4, 0.1, 0, 2, 0.95);
  ASSERT_TRUE(negative.interval.has_value());
  EXPECT_LE(negative.interval->lower, negative.interval->upper);
  EXPECT_TRUE(negative.interval->contains(0.75));
  const FiellerResult zeroDen = fiellerFromMoments(3, 0.1, 0, 0.1, 0, 2, 0.95);
  EXPECT_EQ(zeroDen.status, FiellerStatus::Unbounded);
  EXPECT_FALSE(std::isnan(zeroDen.estimate));
}

TEST(Fieller, TwoTopLevelUnits) {
  // nu = 1, t^2 = 161.4: tight data stays bounded, loose data does not.
  Hierarchy tightOld{{"build"}, {2}, {10.0, 10.1}};
  Hierarchy tightNew{{"build"}, {2}, {9.0, 9.1}};
  auto a = fiellerRatio(tightNew, tightOld);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->status, FiellerStatus::Bounded);
  EXPECT_DOUBLE_EQ(a->df, 1.0);
  EXPECT_TRUE(a->interval->contains(a->estimate));
  Hierarchy looseOld{{"build"}, {2}, {1.0, 10.0}};
  auto b = fiellerRatio(tightNew, looseOld);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->status, FiellerStatus::Unbounded);
}

TEST(Fieller, UnequalTopCounts) {
  Hierarchy old{{"build"}, {3}, {10, 11, 12}};
  Hierarchy neu{{"build"}, {5}, {9, 9.5, 10, 10.5, 11}};
  auto minRule = fiellerRatio(neu, old);
  ASSERT_TRUE(minRule.ok());
  EXPECT_DOUBLE_EQ(minRule->df, 2.0);
  auto welch = fiellerRatio(neu, old, 0.95, IntervalMethod::T, FiellerDf::Welch);
  ASSERT_TRUE(welch.ok());
  // Welch-Satterthwaite: v_o = 1/3, v_n = 0.625/5 = 0.125;
  // df = (0.4583)^2 / (0.1111/2 + 0.015625/4) = 3.5668.
  EXPECT_NEAR(welch->df, 0.2100694444 / (0.0555555556 + 0.00390625), 1e-6);
  EXPECT_LT(welch->interval->width(), minRule->interval->width());
}

TEST(Fieller, ErrorsOnBadInput) {
  EXPECT_FALSE(fiellerRatio(Hierarchy{{"b"}, {1}, {1}}, testdata::tableVOld()).ok());
  EXPECT_FALSE(fiellerRatio(testdata::tableVNew(), testdata::tableVOld(), 1.5).ok());
}
