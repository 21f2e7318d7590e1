// The ratio planner (issue 8 item 4): a worked example computed by hand, the
// T^2 <= 0 fallback (chi-square upper bound), the adaptive stopping rule's
// batches, and a coverage simulation of the adaptive rule (fixed seed).
#include "alea/analysis/ratio_planner.hpp"

#include "alea/analysis/fieller.hpp"
#include "alea/analysis/variance.hpp"

#include "alea/random.hpp"

#include "normal_source.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

using namespace alea::analysis;

namespace {

// Worked example (checked with R 4.x: qt, qchisq; every number below).
//
// Levels build > execution > iteration, pilot 4 x 3 x 5 for both systems.
// Baseline, mean 100: S^2 = {5, 2, 5}
//   T_iter^2 = 5, T_exec^2 = 2 - 5/5 = 1, T_build^2 = 5 - 2/3 = 4.333333
//   relative (/ 100^2): {4.333333e-4, 1e-4, 5e-4}
// Candidate, mean 110: S^2 = {6.05, 2.42, 6.05} (the baseline's x 1.21)
//   T^2 = {5.243333, 1.21, 6.05}, relative (/ 12100): the same as above.
// Combined (sum): {8.666667e-4, 2e-4, 1e-3}.
// Overheads {build 100, execution 10} measurements; TR 2012 eq. 14:
//   executions = sqrt(100/10 * 2e-4 / 8.666667e-4) = sqrt(2.307692) = 1.519109 -> 2
//   iterations = sqrt(10/1 * 1e-3 / 2e-4)          = sqrt(50)       = 7.071068 -> 8
// One build's mean, relative variance per system:
//   V = 4.333333e-4 + 1e-4/2 + 5e-4/(2*8) = 4.333333e-4 + 5e-5 + 3.125e-5 = 5.145833e-4
// Cost of one build: 100 + 2 * 10 + 2 * 8 = 136 measurements; a pair 272.
// Fieller (relative, both means 1): a = 1 - t^2 V/n, b = 1 - t^2 rho V/n,
// c = a; half-width = sqrt(b^2 - a c) / a.
//   rho = 0, target 2%: n = 12: t = 2.200985, half-width 0.0203862 > 0.02;
//                       n = 13: t = 2.178813, half-width 0.0193889 <= 0.02 -> 13
//   total cost 13 * 272 = 3536.
//   rho = 0.5: n = 7: t = 2.446912, 0.0209854 > 0.02; n = 8: t = 2.364624,
//   0.0189689 -> 8.
RatioPilot examplePilot(double mean, double scale) {
  RatioPilot p;
  p.levelNames = {"build", "execution", "iteration"};
  p.shape = {4, 3, 5};
  p.s2 = {5 * scale, 2 * scale, 5 * scale};
  p.mean = mean;
  return p;
}

RatioPlanOptions exampleOptions() {
  RatioPlanOptions o;
  o.overheads = {100, 10};
  o.targetHalfWidth = 0.02;
  return o;
}

} // namespace

TEST(RatioPlanner, WorkedExampleByHand) {
  auto plan = planRatio(examplePilot(110, 1.21), examplePilot(100, 1), exampleOptions());
  ASSERT_TRUE(plan.ok()) << plan.error();
  ASSERT_EQ(plan->levels.size(), 3u);
  EXPECT_NEAR(plan->levels[0].combined, 8.666667e-4, 1e-9);
  EXPECT_NEAR(plan->levels[1].combined, 2e-4, 1e-12);
  EXPECT_NEAR(plan->levels[2].combined, 1e-3, 1e-12);
  EXPECT_NEAR(plan->levels[1].exact, 1.519109, 1e-6);
  EXPECT_NEAR(plan->levels[2].exact, 7.071068, 1e-6);
  EXPECT_EQ(plan->levels[1].count, 2u);
  EXPECT_EQ(plan->levels[2].count, 8u);
  EXPECT_NEAR(plan->candidateUnitVariance, 5.145833e-4, 1e-9);
  EXPECT_NEAR(plan->baselineUnitVariance, 5.145833e-4, 1e-9);
  EXPECT_DOUBLE_EQ(plan->costPerTopUnit, 136);
  EXPECT_DOUBLE_EQ(plan->costPerPair, 272);
  EXPECT_TRUE(plan->reachable);
  EXPECT_EQ(plan->topCount, 13u);
  EXPECT_EQ(plan->levels[0].count, 13u);
  EXPECT_NEAR(plan->predictedHalfWidth, 0.0193889, 1e-7);
  EXPECT_NEAR(predictedRatioHalfWidth(*plan, 12), 0.0203862, 1e-7);
  EXPECT_DOUBLE_EQ(plan->totalCost, 3536);
  EXPECT_NEAR(plan->ratio, 1.1, 1e-12);
  EXPECT_FALSE(plan->fallbackUsed());
  EXPECT_TRUE(plan->notes.empty());
}

TEST(RatioPlanner, PairedCorrelationNeedsFewerBuilds) {
  RatioPlanOptions o = exampleOptions();
  o.rho = 0.5;
  auto plan = planRatio(examplePilot(110, 1.21), examplePilot(100, 1), o);
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_EQ(plan->levels[1].count, 2u); // rho enters only the top-level count
  EXPECT_EQ(plan->levels[2].count, 8u);
  EXPECT_EQ(plan->topCount, 8u);
  EXPECT_NEAR(plan->predictedHalfWidth, 0.0189689, 1e-7);
  EXPECT_NEAR(predictedRatioHalfWidth(*plan, 7), 0.0209854, 1e-7);
}

TEST(RatioPlanner, AVarianceFactorWidensThePredictionAndPlansMoreBuilds) {
  // The neighbouring-blocks factor f multiplies every variance of the paired
  // interval: the prediction widens by about sqrt(f) (Fieller's interval is
  // nearly the delta method's at these small variances), and the top count
  // becomes the smallest that reaches the target under it.
  RatioPlanOptions o = exampleOptions();
  o.rho = 0.5;
  auto plain = planRatio(examplePilot(110, 1.21), examplePilot(100, 1), o);
  o.varianceFactor = 2;
  auto widened = planRatio(examplePilot(110, 1.21), examplePilot(100, 1), o);
  ASSERT_TRUE(plain.ok() && widened.ok());
  EXPECT_EQ(widened->varianceFactor, 2.0);
  EXPECT_EQ(widened->levels[1].count, plain->levels[1].count); // the top count only
  EXPECT_EQ(widened->levels[2].count, plain->levels[2].count);
  EXPECT_NEAR(predictedRatioHalfWidth(*widened, 7) / predictedRatioHalfWidth(*plain, 7),
              std::sqrt(2.0), 2e-3);
  const std::size_t n = widened->topCount;
  EXPECT_TRUE(widened->reachable);
  EXPECT_LE(predictedRatioHalfWidth(*widened, n), o.targetHalfWidth);
  EXPECT_GT(predictedRatioHalfWidth(*widened, n - 1), o.targetHalfWidth);
  EXPECT_GT(n, plain->topCount); // 13 against 8 (fewer than twice: t's quantile falls with n)
  o.varianceFactor = 0.5;
  EXPECT_FALSE(planRatio(examplePilot(110, 1.21), examplePilot(100, 1), o).ok());
  o.varianceFactor = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(planRatio(examplePilot(110, 1.21), examplePilot(100, 1), o).ok());
}

TEST(RatioPlanner, FixedLowerCountsAndUnreachableTarget) {
  RatioPlanOptions o = exampleOptions();
  o.lowerCounts = std::vector<std::size_t>{3, 5};
  o.targetHalfWidth = 1e-4;
  o.maxTopCount = 50;
  auto plan = planRatio(examplePilot(110, 1.21), examplePilot(100, 1), o);
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_EQ(plan->levels[1].count, 3u);
  EXPECT_EQ(plan->levels[2].count, 5u);
  // V = 4.333333e-4 + 1e-4/3 + 5e-4/15 = 5e-4.
  EXPECT_NEAR(plan->candidateUnitVariance, 5e-4, 1e-12);
  EXPECT_FALSE(plan->reachable);
  EXPECT_EQ(plan->topCount, 50u);
  EXPECT_GT(plan->predictedHalfWidth, 1e-4);
  EXPECT_DOUBLE_EQ(plan->costPerTopUnit, 100 + 3 * 10 + 15);
}

TEST(RatioPlanner, HierarchyAndComponentFormsAgree) {
  // 2 levels, 3 builds x 2 executions.
  Hierarchy c{{"build", "execution"}, {3, 2}, {10, 11, 12, 12.5, 9, 10}};
  Hierarchy b{{"build", "execution"}, {3, 2}, {8, 8.2, 9, 9.5, 8.8, 8.1}};
  RatioPlanOptions o;
  o.overheads = {5};
  auto fromData = planRatio(c, b, o);
  RatioPilot pc{c.levelNames, c.shape, sSquared(c), c.grandMean()};
  RatioPilot pb{b.levelNames, b.shape, sSquared(b), b.grandMean()};
  auto fromComponents = planRatio(pc, pb, o);
  ASSERT_TRUE(fromData.ok() && fromComponents.ok());
  EXPECT_EQ(fromData->topCount, fromComponents->topCount);
  EXPECT_EQ(fromData->levels[1].count, fromComponents->levels[1].count);
  EXPECT_DOUBLE_EQ(fromData->predictedHalfWidth, fromComponents->predictedHalfWidth);
}

TEST(RatioPlanner, RejectsBadInput) {
  RatioPlanOptions o = exampleOptions();
  o.overheads = {100};
  EXPECT_FALSE(planRatio(examplePilot(110, 1.21), examplePilot(100, 1), o).ok());
  o = exampleOptions();
  o.rho = 1.5;
  EXPECT_FALSE(planRatio(examplePilot(110, 1.21), examplePilot(100, 1), o).ok());
  RatioPilot zero = examplePilot(0, 1);
  EXPECT_FALSE(planRatio(examplePilot(110, 1.21), zero, exampleOptions()).ok());
}

// The fallback: baseline pilot 3 x 3 x 5 with S^2 = {0.5, 3, 5}: T_build^2 =
// 0.5 - 3/3 = -0.5 <= 0. chi2_{0.05, 2} = 0.1025866 (R: qchisq(0.05, 2)), so
// E[S_top^2] <= 0.5 * 2 / 0.1025866 = 9.747863 at 95%, and sigma_build^2 =
// E[S_top^2] - 1 (the lower-level contribution): the bound used is 8.747863.
TEST(RatioPlanner, TopLevelWithoutVarianceUsesTheUpperBound) {
  const TopComponent t = topComponentForPlanning(0.5, 3, 1.0, 7.0, 0.95);
  EXPECT_TRUE(t.upperBound);
  EXPECT_DOUBLE_EQ(t.pilotT2, -0.5);
  EXPECT_NEAR(t.upperExpected, 9.747863, 1e-6);
  EXPECT_NEAR(t.t2, 9.747863 - 1.0, 1e-6); // U minus the lower levels' 1.0
  // S_top^2 = 0 (identical builds): the bound is 0, the floor 1e-6 x total.
  const TopComponent z = topComponentForPlanning(0, 3, 1.0, 7.0, 0.95);
  EXPECT_TRUE(z.upperBound);
  EXPECT_DOUBLE_EQ(z.t2, 7e-6);
  // The same S_top^2 far under the lower-level contribution (T^2 = -9.5): the
  // bound is still U, not a floor.
  EXPECT_NEAR(topComponentForPlanning(0.5, 3, 10.0, 16.0, 0.95).t2, 9.747863, 1e-6);
  // A positive T^2 is used as is.
  const TopComponent p = topComponentForPlanning(3, 3, 1.0, 7.0, 0.95);
  EXPECT_FALSE(p.upperBound);
  EXPECT_DOUBLE_EQ(p.t2, 2);

  RatioPilot base;
  base.levelNames = {"build", "execution", "iteration"};
  base.shape = {3, 3, 5};
  base.s2 = {0.5, 3, 5};
  base.mean = 100;
  auto plan = planRatio(examplePilot(110, 1.21), base, exampleOptions());
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_TRUE(plan->fallbackUsed());
  EXPECT_TRUE(plan->baselineTop.upperBound);
  EXPECT_FALSE(plan->candidateTop.upperBound);
  EXPECT_NEAR(plan->levels[0].baseline, 8.747863e-4, 1e-10);
  EXPECT_TRUE(plan->reachable);
  EXPECT_GE(plan->topCount, 2u);
  EXPECT_TRUE(std::isfinite(plan->predictedHalfWidth));
  ASSERT_EQ(plan->notes.size(), 1u);
  EXPECT_NE(plan->notes[0].find("baseline: the build level shows no variance"), std::string::npos)
      << plan->notes[0];
  // sqrt(8.747863) / 100 = 2.96% of the mean.
  EXPECT_NE(plan->notes[0].find("SD of 2.96% of the mean"), std::string::npos) << plan->notes[0];
}

TEST(StoppingRule, BatchSizes) {
  StoppingInput in;
  in.targetHalfWidth = 0.01;
  in.halfWidth = 0.03;
  in.builds = 3;
  in.maxBuilds = 100;
  // The planner asks for 20: 17 still needed, at most double -> 3.
  in.plannedBuilds = 20;
  StoppingDecision d = stoppingRule(in);
  EXPECT_FALSE(d.stop);
  EXPECT_EQ(d.reason, StopReason::Continue);
  EXPECT_EQ(d.addBuilds, 3u);
  // At 12 builds, 8 still needed (<= 12).
  in.builds = 12;
  EXPECT_EQ(stoppingRule(in).addBuilds, 8u);
  // The planner's count already run but the target missed: one more.
  in.builds = 20;
  EXPECT_EQ(stoppingRule(in).addBuilds, 1u);
  // No plan (out of reach within its cap): double.
  in.plannedBuilds.reset();
  EXPECT_EQ(stoppingRule(in).addBuilds, 20u);
  // ... within the cap and the budget.
  in.maxBuilds = 30;
  EXPECT_EQ(stoppingRule(in).addBuilds, 10u);
  in.remainingBudgetBuilds = 4;
  EXPECT_EQ(stoppingRule(in).addBuilds, 4u);
  EXPECT_NE(stoppingRule(in).explanation.find(
                ": add 4 (the planner gives no count within its cap; the budget affords 4)"),
            std::string::npos)
      << stoppingRule(in).explanation;
  in.remainingBudgetBuilds = 0;
  d = stoppingRule(in);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::BudgetExhausted);
  EXPECT_EQ(d.addBuilds, 0u);
  in.remainingBudgetBuilds.reset();
  in.builds = 30;
  EXPECT_EQ(stoppingRule(in).reason, StopReason::CapReached);
  // Target reached: stop, whatever the rest says.
  in.builds = 8;
  in.halfWidth = 0.009;
  d = stoppingRule(in);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::TargetReached);
  // ... but not below minBuilds (5): 3 -> 5, even when the planner is
  // content with 4.
  in.builds = 3;
  in.plannedBuilds = 4;
  d = stoppingRule(in);
  EXPECT_FALSE(d.stop);
  EXPECT_EQ(d.addBuilds, 2u);
  // ... and its explanation says why a precise enough interval goes on.
  EXPECT_NE(d.explanation.find("+-0.9% against the target +-1% (within it, but below the "
                               "minimum of 5 builds): add 2 (to reach the minimum of 5 builds)"),
            std::string::npos)
      << d.explanation;
  // Unbounded interval: continue.
  in.builds = 6;
  in.halfWidth = INFINITY;
  in.plannedBuilds = 7;
  EXPECT_EQ(stoppingRule(in).addBuilds, 1u);
}

TEST(StoppingRule, CombinedOverPairsTakesTheLargestBatch) {
  StoppingDecision a, b, c;
  a.stop = true;
  a.reason = StopReason::TargetReached;
  b.addBuilds = 2;
  c.addBuilds = 5;
  EXPECT_EQ(combineStopping({a, b, c}).addBuilds, 5u);
  EXPECT_FALSE(combineStopping({a, b, c}).stop);
  const StoppingDecision all = combineStopping({a, a});
  EXPECT_TRUE(all.stop);
  EXPECT_EQ(all.reason, StopReason::TargetReached);
}

namespace {

using alea::analysis::test::NormalSource;

// Appends `builds` builds of 3 executions x 5 iterations (row-major, so the
// values of earlier builds stay in place): layout effect 2% of the mean,
// execution 1%, iteration 2%.
void addBuilds(NormalSource &normal, std::vector<double> &values, double mu, std::size_t builds) {
  for (std::size_t b = 0; b < builds; ++b) {
    const double mb = mu * (1 + 0.02 * normal.next());
    for (int e = 0; e < 3; ++e) {
      const double me = mb + mu * 0.01 * normal.next();
      for (int i = 0; i < 5; ++i)
        values.push_back(me + mu * 0.02 * normal.next());
    }
  }
}

} // namespace

// The adaptive rule from 3 builds, target +-1.5% (about 19 builds per system
// expected: several batches, 3 -> 6 -> 12 -> ...), re-planning the builds from
// the data so far at every step; the final Fieller interval must cover the
// true ratio 1.10 in >= 93% of 2000 campaigns (about 0.3 s).
TEST(StoppingRule, AdaptiveCampaignsKeepFiellerCoverage) {
  NormalSource normal{alea::Rng(0x5EED0008ULL)};
  const int campaigns = 2000;
  const double trueRatio = 1.10;
  int covered = 0, bounded = 0;
  std::size_t totalBuilds = 0, totalSteps = 0, reachedTarget = 0;
  for (int x = 0; x < campaigns; ++x) {
    std::vector<double> base, cand;
    std::size_t builds = 3;
    addBuilds(normal, base, 100.0, builds);
    addBuilds(normal, cand, 100.0 * trueRatio, builds);
    FiellerResult f;
    while (true) {
      const Hierarchy hb{{"build", "execution", "iteration"}, {builds, 3, 5}, base};
      const Hierarchy hc{{"build", "execution", "iteration"}, {builds, 3, 5}, cand};
      auto fr = fiellerRatio(hc, hb);
      ASSERT_TRUE(fr.ok()) << fr.error();
      f = *fr;
      StoppingInput in;
      in.halfWidth = f.interval ? relativeHalfWidth(*f.interval, f.estimate) : INFINITY;
      in.targetHalfWidth = 0.015;
      in.builds = builds;
      in.maxBuilds = 64;
      RatioPlanOptions po;
      po.overheads = {100, 10};
      po.targetHalfWidth = in.targetHalfWidth;
      po.lowerCounts = std::vector<std::size_t>{3, 5};
      po.maxTopCount = in.maxBuilds;
      auto plan = planRatio(hc, hb, po);
      ASSERT_TRUE(plan.ok()) << plan.error();
      if (plan->reachable)
        in.plannedBuilds = plan->topCount;
      const StoppingDecision d = stoppingRule(in);
      if (d.stop) {
        reachedTarget += d.reason == StopReason::TargetReached;
        break;
      }
      ++totalSteps;
      addBuilds(normal, base, 100.0, d.addBuilds);
      addBuilds(normal, cand, 100.0 * trueRatio, d.addBuilds);
      builds += d.addBuilds;
    }
    totalBuilds += builds;
    if (f.interval) {
      ++bounded;
      covered += f.interval->contains(trueRatio);
    }
  }
  const double coverage = static_cast<double>(covered) / campaigns;
  std::printf("adaptive rule: coverage %.3f over %d campaigns (%d bounded), %.1f builds and "
              "%.2f batches on average, target reached in %zu\n",
              coverage, campaigns, bounded, static_cast<double>(totalBuilds) / campaigns,
              static_cast<double>(totalSteps) / campaigns, reachedTarget);
  EXPECT_EQ(bounded, campaigns);
  EXPECT_GE(coverage, 0.93);
  EXPECT_GE(static_cast<double>(totalSteps) / campaigns, 2.0); // several batches
}
