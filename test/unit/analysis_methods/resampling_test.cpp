// Li, Chen & Peng resampling: the exact synthetic randomization-test vector of
// spec_002_004 §2.9, Monte Carlo convergence to it, seed reproducibility and
// thread-count independence, and the bootstrap properties of spec Part 3
// (observed ratio inside the CI, scale equivariance, collapse on constant
// data, coverage in an MC2-style simulation).
#include "alea/analysis/resampling.hpp"

#include "alea/analysis/math_policy.hpp"
#include "alea/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace alea::analysis {
namespace {

// spec §2.9: A = {[1.0, 1.2], [2.0, 2.2]}, B = {[1.5, 1.7], [2.4, 2.6]};
// g = GM(A) / GM(B), so A is the candidate (numerator) here.
std::vector<BenchmarkRuns> synthetic() {
  return {{{1.5, 1.7}, {1.0, 1.2}}, {{2.4, 2.6}, {2.0, 2.2}}};
}

TEST(Randomization, ExhaustiveSyntheticVectorGmOfMeans) {
  const auto suite = synthetic();
  auto r = randomizationTest(suite);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->exhaustive);
  EXPECT_EQ(r->replicates, 36u);
  EXPECT_NEAR(r->observed, 0.7599342077, 5e-11);
  EXPECT_EQ(r->countGreaterEqual, 36u); // p_1a = 36/36
  EXPECT_EQ(r->countLessEqual, 1u);     // p_1b = 1/36
  EXPECT_NEAR(r->pLess, 1.0 / 36, 1e-15);
  EXPECT_NEAR(r->pTwoSided, 2.0 / 36, 1e-15);
}

TEST(Randomization, ExhaustiveSyntheticVectorGmOfAll) {
  const auto suite = synthetic();
  auto r = randomizationTest(suite, {.mean = SuiteMean::GeometricOfAll});
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->observed, 0.7589746807, 5e-11);
  EXPECT_EQ(r->countLessEqual, 1u);
  EXPECT_NEAR(r->pTwoSided, 0.055556, 5e-7);
}

TEST(Randomization, MonteCarloConvergesToTheExactAnswer) {
  const auto suite = synthetic();
  auto r = randomizationTest(suite, {.replicates = 20000, .seed = 7, .exhaustiveLimit = 0});
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->exhaustive);
  // Binomial(20000, 1/36): sd of the proportion ~ 0.0012.
  EXPECT_NEAR(r->pLess, 1.0 / 36, 0.005);
  EXPECT_GT(r->pLessMc, r->pLess); // (count + 1) / (M + 1) > count / M here
}

TEST(Randomization, SameSeedSameResultAnyThreadCount) {
  std::vector<BenchmarkRuns> suite;
  Rng rng(3);
  for (int b = 0; b < 5; ++b) {
    BenchmarkRuns runs;
    for (int i = 0; i < 7; ++i) {
      runs.baseline.push_back(1 + b + 0.1 * rng.uniform());
      runs.candidate.push_back(0.995 * (1 + b) + 0.1 * rng.uniform());
    }
    suite.push_back(runs);
  }
  RandomizationOptions o{.replicates = 3001, .seed = 99, .threads = 1, .exhaustiveLimit = 0};
  auto one = randomizationTest(suite, o);
  o.threads = 2;
  auto two = randomizationTest(suite, o);
  o.threads = 3;
  auto three = randomizationTest(suite, o);
  ASSERT_TRUE(one && two && three);
  EXPECT_EQ(one->countLessEqual, two->countLessEqual);
  EXPECT_EQ(one->countLessEqual, three->countLessEqual);
  EXPECT_EQ(one->countGreaterEqual, three->countGreaterEqual);
  o.seed = 100;
  auto other = randomizationTest(suite, o);
  EXPECT_NE(one->countLessEqual + 1000 * one->countGreaterEqual,
            other->countLessEqual + 1000 * other->countGreaterEqual);
}

std::vector<BenchmarkRuns> noisySuite(std::uint64_t seed, double trueRatio, int runs) {
  std::vector<BenchmarkRuns> suite;
  Rng rng(seed);
  const Normal z(0, 1);
  auto draw = [&] { return quantile(z, 0.0005 + 0.999 * rng.uniform()); };
  const double base[] = {1.0, 3.0, 0.5, 8.0, 2.0};
  for (double b : base) {
    BenchmarkRuns r;
    for (int i = 0; i < runs; ++i) {
      r.baseline.push_back(b * (1 + 0.03 * draw()));
      r.candidate.push_back(trueRatio * b * (1 + 0.03 * draw()));
    }
    suite.push_back(r);
  }
  return suite;
}

TEST(Bootstrap, ObservedRatioInsideAndThreadIndependent) {
  const auto suite = noisySuite(11, 0.9, 10);
  SuiteBootstrapOptions o{.replicates = 2000, .seed = 5, .threads = 1, .keepReplicates = true};
  auto one = bootstrapSuiteRatio(suite, o);
  o.threads = 2;
  auto two = bootstrapSuiteRatio(suite, o);
  ASSERT_TRUE(one && two);
  EXPECT_LT(one->lower, one->estimate);
  EXPECT_GT(one->upper, one->estimate);
  EXPECT_EQ(one->values, two->values); // bit for bit
  EXPECT_EQ(one->lower, two->lower);
  EXPECT_LE(one->oneSidedUpper, one->upper);
  EXPECT_GE(one->oneSidedLower, one->lower);
}

TEST(Bootstrap, ScalingTheCandidateScalesTheReplicates) {
  auto suite = noisySuite(12, 1.0, 6);
  SuiteBootstrapOptions o{.replicates = 500, .seed = 8, .keepReplicates = true};
  auto before = bootstrapSuiteRatio(suite, o);
  for (auto &b : suite)
    for (double &v : b.candidate)
      v *= 1.25;
  auto after = bootstrapSuiteRatio(suite, o);
  ASSERT_TRUE(before && after);
  for (std::size_t i = 0; i < before->values.size(); ++i)
    EXPECT_NEAR(after->values[i], 1.25 * before->values[i], 1e-12 * after->values[i]);
}

TEST(Bootstrap, ConstantRunsCollapseToThePoint) {
  const std::vector<BenchmarkRuns> suite = {{{2, 2, 2}, {1, 1, 1}}, {{4, 4}, {3, 3, 3, 3}}};
  auto r = bootstrapSuiteRatio(suite, {.replicates = 200});
  ASSERT_TRUE(r);
  const double expected = std::sqrt(0.5 * 0.75);
  EXPECT_NEAR(r->estimate, expected, 1e-15);
  EXPECT_NEAR(r->lower, expected, 1e-15);
  EXPECT_NEAR(r->upper, expected, 1e-15);
}

TEST(Bootstrap, CoverageOfTheTrueRatioInAnMc2StyleSimulation) {
  // spec §2.7 MC2: true ratio 2 (here 0.8), 100 experiments of 5 benchmarks
  // x 10 runs; the percentile CI under-covers slightly with few runs
  // ((m-1)/m variance), so require >= 85 of 100.
  int covered = 0;
  for (int e = 0; e < 100; ++e) {
    const auto suite = noisySuite(1000 + static_cast<std::uint64_t>(e), 0.8, 10);
    auto r = bootstrapSuiteRatio(suite, {.replicates = 400, .seed = static_cast<std::uint64_t>(e)});
    ASSERT_TRUE(r);
    covered += r->lower <= 0.8 && 0.8 <= r->upper;
  }
  EXPECT_GE(covered, 85);
}

TEST(Bootstrap, MeansOtherThanGeometric) {
  const auto suite = synthetic();
  EXPECT_NEAR(*suiteRatio(suite, SuiteMean::Arithmetic), (1.1 + 2.1) / (1.6 + 2.5), 1e-14);
  EXPECT_NEAR(*suiteRatio(suite, SuiteMean::Harmonic),
              (2 / (1 / 1.1 + 1 / 2.1)) / (2 / (1 / 1.6 + 1 / 2.5)), 1e-14);
  EXPECT_FALSE(suiteRatio(std::vector<BenchmarkRuns>{}));
  EXPECT_FALSE(suiteRatio(std::vector<BenchmarkRuns>{{{1.0}, {}}}));
  EXPECT_FALSE(suiteRatio(std::vector<BenchmarkRuns>{{{1.0}, {0.0}}}));
}

TEST(Empirical, FiveNumberSummaryAndSinglePickPerBenchmark) {
  const auto f = fiveNumberSummary(std::vector<double>{3, 1, 4, 1, 5, 9, 2, 6});
  EXPECT_DOUBLE_EQ(f.minimum, 1);
  EXPECT_DOUBLE_EQ(f.q1, 1.75);
  EXPECT_DOUBLE_EQ(f.median, 3.5);
  EXPECT_DOUBLE_EQ(f.q3, 5.25);
  EXPECT_DOUBLE_EQ(f.maximum, 9);
  // One run per benchmark: every replicate is the GM of the data.
  const std::vector<std::vector<double>> one = {{2}, {8}};
  auto d = empiricalDistribution(one, {.replicates = 50});
  ASSERT_TRUE(d);
  EXPECT_NEAR(d->summary.minimum, 4, 1e-12);
  EXPECT_NEAR(d->summary.maximum, 4, 1e-12);
  EXPECT_NEAR(d->observed, 4, 1e-12);
  // Two runs each: the GM ranges over the 4 combinations.
  const std::vector<std::vector<double>> two = {{1, 4}, {1, 4}};
  auto e = empiricalDistribution(two, {.replicates = 400, .seed = 3});
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->summary.minimum, 1, 1e-12);
  EXPECT_NEAR(e->summary.maximum, 4, 1e-12);
  EXPECT_NEAR(e->summary.median, 2, 1e-12);
}

} // namespace
} // namespace alea::analysis

namespace alea::analysis {
namespace {

TEST(Resampling, TopLevelRunsAreTheBuildMeans) {
  auto a = makeHierarchy({"build", "iteration"}, {3, 2}, {1, 3, 2, 2, 5, 7});
  auto b = makeHierarchy({"build", "iteration"}, {2, 2}, {1, 1, 2, 4});
  ASSERT_TRUE(a && b);
  const auto runs = topLevelRuns(*a, *b);
  EXPECT_EQ(runs.baseline, (std::vector<double>{2, 2, 6}));
  EXPECT_EQ(runs.candidate, (std::vector<double>{1, 3}));
}

} // namespace
} // namespace alea::analysis
