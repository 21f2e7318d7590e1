// The classical tests against the numbers printed in Touati 2009 and the
// derived vectors of spec_002_004 §1.7 (V2-V28), and their edge cases: ties,
// tiny samples, identical samples, zero variance. The full-precision R
// comparison lives in r_golden_test.cpp.
#include "alea/analysis/htest.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace alea::analysis {
namespace {

// Touati 2009 s102: T (initial program) and T' (optimised), seconds.
const std::vector<double> t1 = {2.799, 2.046, 1.259, 1.877, 2.244};
const std::vector<double> t2 = {1.046, 0.259, 0.877, 1.244, 1.799};

TEST(ShapiroWilk, PaperVectorsV2V3) {
  auto a = shapiroWilk(t1), b = shapiroWilk(t2);
  ASSERT_TRUE(a && b);
  EXPECT_NEAR(a->w, 0.9862, 5e-5); // printed W = 0.9862
  EXPECT_NEAR(a->pValue, 0.9647, 5e-5);
  // t2 is a permutation of t1 - 1: same W and p (symmetry check).
  EXPECT_NEAR(a->w, b->w, 1e-12);
  EXPECT_NEAR(a->pValue, b->pValue, 1e-9);
}

TEST(ShapiroWilk, EdgeCases) {
  EXPECT_FALSE(shapiroWilk(std::vector<double>{1, 2}));       // n < 3
  EXPECT_FALSE(shapiroWilk(std::vector<double>{4, 4, 4, 4})); // identical
  auto three = shapiroWilk(std::vector<double>{1, 2, 3});     // exact, W = 1
  ASSERT_TRUE(three);
  EXPECT_NEAR(three->w, 1.0, 1e-12);
  EXPECT_NEAR(three->pValue, 1.0, 1e-6);
  // Scale and location invariance.
  auto s1 = shapiroWilk(t1);
  std::vector<double> scaled;
  for (double v : t1)
    scaled.push_back(1000 * v + 7);
  auto s2 = shapiroWilk(scaled);
  EXPECT_NEAR(s1->w, s2->w, 1e-12);
}

TEST(TTest, PaperVectorsV5ToV11) {
  TTestOptions o;
  o.alternative = Alternative::Greater;
  o.confidence = 0.99;
  auto v5 = tTest(t1, t2, o);
  ASSERT_TRUE(v5);
  EXPECT_NEAR(v5->lower, -0.02574667, 5e-9); // verbatim R output
  EXPECT_TRUE(std::isinf(v5->upper));
  o.confidence = 0.95;
  auto v6 = tTest(t1, t2, o);
  EXPECT_NEAR(v6->lower, 0.3414632, 5e-8);
  EXPECT_NEAR(v6->statistic, 2.8238, 5e-5); // V7
  EXPECT_NEAR(v6->df, 8, 1e-9);
  EXPECT_NEAR(v6->pValue, 0.01118, 5e-6);
  EXPECT_NEAR(v6->meanX - v6->meanY, 1.0, 1e-12);
  o.equalVariance = true; // V8: identical because n = m and s1 = s2
  auto v8 = tTest(t1, t2, o);
  EXPECT_NEAR(v8->lower, v6->lower, 1e-12);
  EXPECT_NEAR(v8->pValue, v6->pValue, 1e-12);
  TTestOptions two; // V9
  auto v9 = tTest(t1, t2, two);
  EXPECT_NEAR(v9->lower, 0.1833561, 5e-8);
  EXPECT_NEAR(v9->upper, 1.8166439, 5e-8);
  EXPECT_NEAR(v9->pValue, 0.02236, 5e-6);
  // V10 prints se = 0.354140; sqrt(2 * 0.3135345 / 5) = 0.3541381 (spec rounding).
  EXPECT_NEAR(v9->stdError, 0.3541381, 5e-7);
  TTestOptions rev; // V11: the meaningless "1% confidence" example
  rev.alternative = Alternative::Greater;
  rev.confidence = 0.01;
  auto v11 = tTest(t2, t1, rev);
  EXPECT_NEAR(v11->lower, 0.02574667, 5e-9);
  EXPECT_NEAR(v11->pValue, 0.9888, 5e-5);
}

TEST(TTest, IdenticalAndTinySamplesFailCleanly) {
  const std::vector<double> c = {3, 3, 3, 3};
  auto r = tTest(c, c);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("constant"), std::string::npos);
  EXPECT_FALSE(tTest(std::vector<double>{1}, t2)); // Welch needs n >= 2
  EXPECT_FALSE(tTest(t1, t2, {.confidence = 1.0}));
  // Zero variance in one sample only is fine (Welch).
  auto z = tTest(c, t2);
  ASSERT_TRUE(z);
  EXPECT_NEAR(z->df, 4, 1e-12);
}

TEST(VarTest, PaperVectorV26) {
  auto f = varTest(t1, t2);
  ASSERT_TRUE(f);
  EXPECT_NEAR(f->statistic, 1, 1e-9);
  EXPECT_EQ(f->dfNum, 4);
  EXPECT_NEAR(f->pValue, 1, 1e-9);
  EXPECT_NEAR(f->lower, 0.1041175, 5e-8);
  EXPECT_NEAR(f->upper, 9.6045299, 5e-7);
}

TEST(VarTest, ZeroVarianceInDenominatorFails) {
  EXPECT_FALSE(varTest(t1, std::vector<double>{2, 2, 2}));
  EXPECT_FALSE(varTest(std::vector<double>{1}, t2));
}

TEST(Wilcoxon, PaperVectorV27ExactIsTwoOver252) {
  auto w = wilcoxonTest(t1, t2, {.alternative = Alternative::Greater});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->statistic, 24);
  EXPECT_TRUE(w->exact);
  EXPECT_NEAR(w->pValue, 2.0 / 252.0, 1e-15);
  EXPECT_NEAR(w->probabilityXGreater, 24.0 / 25.0, 1e-15);
  // V27 with conf.int: 95% CI [0.247, Inf), location estimate 1.
  ASSERT_TRUE(w->hasLocationInterval);
  EXPECT_NEAR(w->locationLower, 0.247, 1e-12);
  EXPECT_TRUE(std::isinf(w->locationUpper));
  EXPECT_NEAR(w->locationEstimate, 1, 1e-12);
}

TEST(Wilcoxon, ExactDistributionIsSymmetricAndSumsToOne) {
  // P(W >= w) + P(W <= w - 1) = 1 and the null distribution is symmetric.
  const std::vector<double> x = {1.1, 2.3, 3.2, 4.8}, y = {0.5, 1.7, 2.9, 3.9, 5.5, 6.1};
  auto g = wilcoxonTest(x, y, {.alternative = Alternative::Greater});
  auto l = wilcoxonTest(y, x, {.alternative = Alternative::Less});
  ASSERT_TRUE(g && l);
  // W(x,y) + W(y,x) = n m: P(W_xy >= w) = P(W_yx <= nm - w).
  EXPECT_EQ(g->statistic + l->statistic, 24);
  EXPECT_NEAR(g->pValue, l->pValue, 1e-15);
}

TEST(Wilcoxon, TiesForceTheCorrectedNormalApproximation) {
  const std::vector<double> x = {1, 2, 2, 3, 4}, y = {2, 3, 3, 5, 6};
  auto w = wilcoxonTest(x, y);
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->ties);
  EXPECT_FALSE(w->exact);
  // All values tied: no variance, a clean failure rather than NaN.
  const std::vector<double> c = {2, 2, 2};
  EXPECT_FALSE(wilcoxonTest(c, c));
}

TEST(KolmogorovSmirnov, CentredPaperSamplesAreTheFloatingPointTrapV28) {
  std::vector<double> a = t1, b = t2;
  const double ma = median(a), mb = median(b);
  for (double &v : a)
    v -= ma;
  for (double &v : b)
    v -= mb;
  auto k = ksTest(a, b);
  ASSERT_TRUE(k);
  EXPECT_NEAR(k->statistic, 0.2, 1e-12); // as R: the doubles differ in the last ulp
  EXPECT_NEAR(k->pValue, 1, 1e-12);
  EXPECT_TRUE(k->exact);
}

TEST(KolmogorovSmirnov, IdenticalAndDisjointSamples) {
  auto same = ksTest(t1, t1);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->statistic, 0);
  EXPECT_NEAR(same->pValue, 1, 1e-12);
  // Completely separated samples of 5 and 5: D = 1, p = 2 / choose(10, 5).
  auto apart = ksTest(t1, std::vector<double>{10, 11, 12, 13, 14});
  ASSERT_TRUE(apart);
  EXPECT_EQ(apart->statistic, 1);
  EXPECT_NEAR(apart->pValue, 2.0 / 252.0, 1e-12);
}

TEST(PropTest, PaperVectorsV21V24AndWaldV22) {
  auto v21 = propTest(17, 30, {.confidence = 0.90});
  ASSERT_TRUE(v21);
  EXPECT_NEAR(v21->lower, 0.4027157, 5e-8);
  EXPECT_NEAR(v21->upper, 0.7184049, 5e-8);
  auto v24a = propTest(17, 30, {.confidence = 0.80});
  EXPECT_NEAR(v24a->lower, 0.4340335, 5e-8);
  EXPECT_NEAR(v24a->upper, 0.6914105, 5e-8);
  auto v24b = propTest(17, 30, {.confidence = 0.95});
  EXPECT_NEAR(v24b->lower, 0.3766139, 5e-8);
  EXPECT_NEAR(v24b->upper, 0.7402456, 5e-8);
  auto wald = waldProportionInterval(17, 30, 0.90);
  EXPECT_NEAR(wald.lower, 0.4178534, 5e-8);
  EXPECT_NEAR(wald.upper, 0.7154799, 5e-8);
}

// R 4.2: binom.test(x, n, conf.level = c)$conf.int, printed with digits = 10.
TEST(ClopperPearson, AgreesWithRBinomTest) {
  auto pooled = clopperPearsonInterval(12, 140);
  ASSERT_TRUE(pooled);
  EXPECT_NEAR(pooled->lower, 0.04507586147, 1e-9);
  EXPECT_NEAR(pooled->upper, 0.14493883490, 1e-9);
  auto at90 = clopperPearsonInterval(37, 500, 0.90);
  ASSERT_TRUE(at90);
  EXPECT_NEAR(at90->lower, 0.05566519084, 1e-9);
  EXPECT_NEAR(at90->upper, 0.09620286084, 1e-9);
  auto none = clopperPearsonInterval(0, 300);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->lower, 0);
  EXPECT_NEAR(none->upper, 0.01222097469, 1e-9);
  auto all = clopperPearsonInterval(300, 300);
  ASSERT_TRUE(all);
  EXPECT_NEAR(all->lower, 0.9877790253, 1e-9);
  EXPECT_EQ(all->upper, 1);
  EXPECT_FALSE(clopperPearsonInterval(1, 0));
  EXPECT_FALSE(clopperPearsonInterval(4, 3));
  EXPECT_FALSE(clopperPearsonInterval(1, 3, 1.0));
}

TEST(PropTest, BoundsAndBadInput) {
  auto none = propTest(0, 12);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->lower, 0);
  auto all = propTest(12, 12);
  EXPECT_EQ(all->upper, 1);
  EXPECT_FALSE(propTest(3, 0));
  EXPECT_FALSE(propTest(4, 3));
  EXPECT_FALSE(propTest(1, 3, {.p = 0}));
}

TEST(Descriptive, QuantileType7MedianAndRanks) {
  const std::vector<double> x = {3, 1, 4, 1, 5, 9, 2, 6};
  EXPECT_DOUBLE_EQ(median(x), 3.5);
  EXPECT_DOUBLE_EQ(quantileType7(x, 0), 1);
  EXPECT_DOUBLE_EQ(quantileType7(x, 1), 9);
  EXPECT_DOUBLE_EQ(quantileType7(x, 0.25), 1.75); // R: quantile(x, .25) = 1.75
  const auto r = averageRanks(x);
  EXPECT_DOUBLE_EQ(r[1], 1.5);
  EXPECT_DOUBLE_EQ(r[3], 1.5);
  EXPECT_DOUBLE_EQ(r[5], 8);
  EXPECT_DOUBLE_EQ(sampleVariance(t1), sampleVariance(t2));
  EXPECT_NEAR(sampleVariance(t1), 0.3135345, 5e-8); // V10
}

} // namespace
} // namespace alea::analysis

namespace alea::analysis {
namespace {

TEST(KolmogorovSmirnov, ForcedExactOnHugeSamplesFallsBackToTheLimit) {
  std::vector<double> x, y;
  for (int i = 0; i < 800; ++i) {
    x.push_back(i * 0.001);
    y.push_back(i * 0.001 + 0.05);
  }
  auto r = ksTest(x, y, {.exact = ExactMode::Exact});
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->exact);
  EXPECT_TRUE(std::isfinite(r->pValue));
  auto a = ksTest(x, y, {.exact = ExactMode::Asymptotic});
  EXPECT_EQ(r->pValue, a->pValue);
}

} // namespace
} // namespace alea::analysis

namespace alea::analysis {
namespace {

TEST(Wilcoxon, ForcedExactIsSymmetricInSizesAndCappedForHugeSamples) {
  // Exact p for sizes (3, 7) and (7, 3) describe the same distribution.
  const std::vector<double> a = {1.5, 2.5, 9.5}, b = {1, 2, 3, 4, 5, 6, 7};
  auto ab = wilcoxonTest(a, b, {.alternative = Alternative::Greater});
  auto ba = wilcoxonTest(b, a, {.alternative = Alternative::Less});
  ASSERT_TRUE(ab && ba);
  EXPECT_TRUE(ab->exact && ba->exact);
  EXPECT_NEAR(ab->pValue, ba->pValue, 1e-15);
  // Forced exact with 60 + 70 values is computed exactly and agrees with the
  // normal approximation to a few 1e-3; 300 + 300 falls back.
  std::vector<double> x, y;
  for (int i = 0; i < 70; ++i) {
    if (i < 60)
      x.push_back(i + 0.25);
    y.push_back(i * 0.9);
  }
  auto exact = wilcoxonTest(x, y, {.exact = ExactMode::Exact});
  auto approx = wilcoxonTest(x, y, {.exact = ExactMode::Asymptotic});
  ASSERT_TRUE(exact && approx);
  EXPECT_TRUE(exact->exact);
  EXPECT_NEAR(exact->pValue, approx->pValue, 5e-3);
  std::vector<double> big1(300), big2(300);
  for (int i = 0; i < 300; ++i) {
    big1[i] = i;
    big2[i] = i + 0.5;
  }
  auto capped = wilcoxonTest(big1, big2, {.exact = ExactMode::Exact});
  ASSERT_TRUE(capped);
  EXPECT_FALSE(capped->exact);
}

} // namespace
} // namespace alea::analysis
