// Planner: eq. 14 with level removal (TR 2012 §6.1-6.2, Table IV example incl.
// the 19 vs 18 rounding case, spec_000 §8.2), libkalibera TV2 counts, KT06
// TV7, the FFT dimensioning of spec_000 §8.6-8.7 (incl. a numeric check that
// eq. 14 minimises eq. 23), and the KJ13 Tables 6/7 rule (spec_001 TV6).
#include "alea/analysis/planner.hpp"

#include "paper_data.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace alea::analysis;

TEST(Planner, TableIVPrintedValueFromRoundedInputsIs18) {
  auto r = optimalCounts({0.4, 12.7}, {10});
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR((*r)[0], 17.8185, 1e-4);
  EXPECT_EQ(std::ceil((*r)[0]), 18);
}

TEST(Planner, TableIIIPilotGives19WithExactArithmetic) {
  // Pilot Table III, warm-up c_1 = 10 per execution, build cost 100; the
  // execution level is removed (T^2 < 0) and pooled. Paper's cost rule:
  // the merged unit costs the warm-up only -> ceil(sqrt(10 * 12.722/0.38194)).
  PlanOptions opts;
  opts.overheads = {100, 10};
  opts.costMerge = CostMerge::PaperWarmupOnly;
  auto plan = planExperiment(testdata::tableIII(), opts);
  ASSERT_TRUE(plan.ok()) << plan.error();
  ASSERT_EQ(plan->levels.size(), 3u);
  EXPECT_TRUE(plan->levels[1].removed);
  EXPECT_EQ(plan->levels[1].count, 1u);
  EXPECT_NEAR(plan->levels[2].exact, 18.2508, 1e-4);
  EXPECT_EQ(plan->levels[2].count, 19u);
  EXPECT_EQ(plan->levels[0].count, 3u); // pilot's top count; eq. 14 does not give it
  EXPECT_DOUBLE_EQ(plan->levels[2].overhead, 0.0);
  EXPECT_DOUBLE_EQ(plan->levels[0].overhead, 10.0);
  // One build now costs 10 + 19 measurements under the paper's rule.
  EXPECT_DOUBLE_EQ(plan->costPerTopUnit, 29.0);
}

TEST(Planner, AdditiveCostMergeChargesTheBuildToo) {
  PlanOptions opts;
  opts.overheads = {100, 10};
  auto plan = planExperiment(testdata::tableIII(), opts);
  ASSERT_TRUE(plan.ok());
  // sqrt(110 * 12.722222 / 0.381944) = 60.53 -> 61; one build = 110 + 61.
  EXPECT_NEAR(plan->levels[2].exact, std::sqrt(110 * 12.7222222222 / 0.3819444444), 1e-6);
  EXPECT_EQ(plan->levels[2].count, 61u);
  EXPECT_DOUBLE_EQ(plan->costPerTopUnit, 171.0);
}

TEST(Planner, LibkaliberaTV2Counts) {
  // KJ13 costs c_3 = 100, c_2 = 20, c_1 = 3 (time per binary, execution,
  // iteration); in units of one measurement: overheads {100/3, 20/3}.
  PlanOptions opts;
  opts.overheads = {100.0 / 3, 20.0 / 3};
  auto plan = planExperiment(testdata::tv2(), opts);
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_NEAR(plan->levels[2].exact, 4.29366, 1e-5);
  EXPECT_EQ(plan->levels[2].count, 5u);
  EXPECT_NEAR(plan->levels[1].exact, 1.30229, 1e-5);
  EXPECT_EQ(plan->levels[1].count, 2u);
  for (const auto &l : plan->levels)
    EXPECT_FALSE(l.removed);
}

TEST(Planner, KT06OptimumTV7) {
  // KT06 eq. 21 uses the biased S^2 (TV1 data): m_0 = sqrt(b/w S_B^2/S_V^2),
  // n_0 = sqrt(w S_E^2/S_B^2), b = 100, w = 10.
  const std::vector<double> s2 = {3.5625, 31.0 / 12, 16.5};
  auto r = optimalCounts(s2, {100, 10});
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR((*r)[0], 2.692854, 1e-6);
  EXPECT_NEAR((*r)[1], 7.991931, 1e-6);
  // Partial operation q = 4 (eq. 23): the build costs b/q repetitions.
  auto q = optimalCounts(s2, {100.0 / 4, 10});
  EXPECT_NEAR((*q)[0], 1.346427, 1e-6);
  EXPECT_NEAR((*q)[1], 7.991931, 1e-6);
}

namespace {
// TR 2012 eq. 23 (2-way), up to the constant 1/c.
double costTimesVariance(double n1, double n2, double c1, double c2, double s1, double s2,
                         double s3) {
  return (c2 + n2 * c1 + n1 * n2) * (s1 + s2 * n1 + s3 * n1 * n2) / (n1 * n2);
}
} // namespace

TEST(Planner, FFTDimensioningAndEquation14IsTheMinimum) {
  // spec_000 §8.7 / §8.11: s = (21.16, 44.41978, 16.3611), c_1 = 19, c_2 = 5343.
  auto r = optimalCounts({16.3611, 44.41978, 21.16}, {5343, 19});
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR((*r)[0], 27.631, 1e-3);
  EXPECT_NEAR((*r)[1], 3.0085, 1e-4);
  EXPECT_EQ(std::ceil((*r)[0]), 28);
  EXPECT_EQ(std::ceil((*r)[1]), 4);
  // Eq. 14 minimises h of eq. 23: every perturbation is worse.
  const double n2 = (*r)[0], n1 = (*r)[1];
  const double best = costTimesVariance(n1, n2, 19, 5343, 21.16, 44.41978, 16.3611);
  for (double f1 : {0.9, 0.99, 1.0, 1.01, 1.1}) {
    for (double f2 : {0.9, 0.99, 1.0, 1.01, 1.1}) {
      if (f1 != 1.0 || f2 != 1.0) {
        EXPECT_GT(costTimesVariance(n1 * f1, n2 * f2, 19, 5343, 21.16, 44.41978, 16.3611), best);
      }
    }
  }
}

TEST(Planner, FFTTableVIIIRowFromBudgetAndPredictedHalfWidth) {
  // spec_000 §8.6, FFT row: n_1 = 4, n_2 = 28, t_meas = 1200/5343 s; binaries
  // for 3/6/9 h = 8/16/24 and half-widths 3.56/2.27/1.80 (relative %, t).
  Plan plan;
  plan.costPerTopUnit = 5343 + 28 * (19 + 4);
  plan.unitVariance = 16.3611 + 44.41978 / 28 + 21.16 / (28 * 4);
  const double tMeas = 1200.0 / 5343;
  const std::size_t expectedBinaries[] = {8, 16, 24};
  const double expectedHalf[] = {3.56, 2.27, 1.80};
  for (int i = 0; i < 3; ++i) {
    const double budget = 3600.0 * 3 * (i + 1) / tMeas;
    const std::size_t nb = topCountForBudget(plan, budget);
    EXPECT_EQ(nb, expectedBinaries[i]);
    EXPECT_NEAR(predictedHalfWidth(plan, nb), expectedHalf[i], 0.005);
  }
  // And the smallest number of binaries for a +-2.5% target.
  auto n = topCountForHalfWidth(plan, 2.5);
  ASSERT_TRUE(n.has_value());
  EXPECT_LE(predictedHalfWidth(plan, *n), 2.5);
  EXPECT_GT(predictedHalfWidth(plan, *n - 1), 2.5);
}

TEST(Planner, KJ13TablesSixAndSevenRule) {
  struct Row {
    double s;
    std::vector<double> p;
    std::vector<long> expected; // -1 = more than 1000 ("∞")
  };
  const Row rows[] = {
      {5.003, {1, 1.5, 2.5, 5}, {99, 46, 18, 7}},    // bloat6
      {29.78, {1, 1.5, 2.5, 5}, {-1, -1, 548, 139}}, // lusearch9
      {8.955, {1, 1.5, 2.5, 5}, {311, 140, 52, 15}}, // xalan6
      {1.712, {0.5, 1, 1.5, 2}, {48, 14, 8, 6}},     // xalancbmk
      {1.594, {0.5, 1, 1.5, 2}, {42, 13, 7, 5}},     // mcf
      {0.258, {0.5}, {4}},                           // astar: "4 (5)"
  };
  for (const Row &row : rows)
    for (std::size_t i = 0; i < row.p.size(); ++i) {
      auto r = requiredTopCount(row.s, row.p[i]);
      if (row.expected[i] < 0) {
        EXPECT_FALSE(r.has_value()) << row.s << " " << row.p[i];
      } else {
        EXPECT_EQ(r.value_or(0), static_cast<std::size_t>(row.expected[i]))
            << row.s << " " << row.p[i];
      }
    }
  // With the rounded text value s = 1.7 the xalancbmk row reads 47, not 48.
  EXPECT_EQ(requiredTopCount(1.7, 0.5).value_or(0), 47u);
}

TEST(Planner, Errors) {
  PlanOptions opts;
  opts.overheads = {10}; // wrong size for 3 levels
  EXPECT_FALSE(planExperiment(testdata::tableIII(), opts).ok());
  opts.overheads = {100, -1};
  EXPECT_FALSE(planExperiment(testdata::tableIII(), opts).ok());
  // Top level without variation: the counts below it are unbounded.
  Hierarchy flatTop{{"build", "execution"}, {2, 3}, {1, 2, 3, 3, 2, 1}};
  opts.overheads = {100};
  auto r = planExperiment(flatTop, opts);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("top level"), std::string::npos);
}

TEST(Planner, OneLevelPilotOnlyPlansTheTopCount) {
  // Seed 002's T as 5 top-level units: nothing below to optimise; the unit
  // variance is var(t1) = 0.3135345 and each unit costs one measurement.
  auto plan = planExperiment(flatHierarchy(testdata::kSeed002T), PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.error();
  ASSERT_EQ(plan->levels.size(), 1u);
  EXPECT_EQ(plan->levels[0].count, 5u);
  EXPECT_NEAR(plan->unitVariance, 0.3135345, 1e-7);
  EXPECT_DOUBLE_EQ(plan->costPerTopUnit, 1.0);
  EXPECT_EQ(topCountForBudget(*plan, 42.5), 42u);
  // Same as the t-CI of the data for n = 5: 2.776445 * 0.5599415 / sqrt(5).
  EXPECT_NEAR(predictedHalfWidth(*plan, 5), 2.776445 * 0.5599415 / std::sqrt(5.0), 1e-6);
}

// The T^2 <= 0 fallback in the per-system planner (issue 8): 3 builds x 2
// executions with build means 2, 2, 2.2: S_build^2 = 0.0133333 (var of the
// means), S_exec^2 = (2 + 0.5 + 0.98) / 3 = 1.16, T_build^2 = 0.0133333 -
// 1.16/2 = -0.566667 <= 0. Without the option the planner refuses; with it,
// the build component is U = 0.0133333 * 2 / chi2_{0.05,2} (0.1025866) =
// 0.259943 and eq. 14 gives executions = ceil(sqrt(10 * 1.16 / 0.259943)) =
// ceil(6.680) = 7.
TEST(Planner, TopLevelWithoutVarianceFallsBackToTheUpperBound) {
  const Hierarchy h{{"build", "execution"}, {3, 2}, {1, 3, 2.5, 1.5, 2.9, 1.5}};
  PlanOptions opts;
  opts.overheads = {10};
  auto refused = planExperiment(h, opts);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("no evidence of variation at the top level"), std::string::npos);
  opts.topUpperBound = true;
  auto plan = planExperiment(h, opts);
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_TRUE(plan->top.upperBound);
  EXPECT_NEAR(plan->top.pilotT2, -0.566667, 1e-6);
  EXPECT_NEAR(plan->top.t2, 0.259943, 1e-6);
  EXPECT_NEAR(plan->levels[1].exact, 6.680, 1e-3);
  EXPECT_EQ(plan->levels[1].count, 7u);
  EXPECT_NEAR(plan->unitVariance, 0.259943 + 1.16 / 7, 1e-6);
  auto n = topCountForHalfWidth(*plan, 0.05 * plan->grandMean);
  ASSERT_TRUE(n.has_value());
  EXPECT_GE(*n, 2u);
}
