// Threshold decision with the paper's strict inequalities (TR 2012 §4.2,
// §8.3; spec_000 §5): different iff U < 1 - thr or L > 1 + thr.
#include "alea/analysis/decision.hpp"

#include <gtest/gtest.h>

using namespace alea::analysis;

TEST(Decision, StrictInequalitiesAtTheThreshold) {
  // Binary-exact numbers so the boundary cases are exact.
  EXPECT_EQ(decide(Interval{0.5, 0.75}, 0.25), Decision::Inconclusive); // U == 1 - thr
  EXPECT_EQ(decide(Interval{0.5, 0.7499}, 0.25), Decision::Faster);
  EXPECT_EQ(decide(Interval{1.25, 2.0}, 0.25), Decision::Inconclusive); // L == 1 + thr
  EXPECT_EQ(decide(Interval{1.2501, 2.0}, 0.25), Decision::Slower);
  EXPECT_EQ(decide(Interval{0.75, 1.25}, 0.25), Decision::NoChange);
  EXPECT_EQ(decide(Interval{0.875, 1.125}, 0.25), Decision::NoChange);
  EXPECT_EQ(decide(Interval{0.5, 1.0}, 0.25), Decision::Inconclusive);
}

TEST(Decision, ZeroThresholdIsTheSignificanceDecision) {
  EXPECT_EQ(decide(Interval{0.9, 0.99}, 0.0), Decision::Faster);
  EXPECT_EQ(decide(Interval{1.01, 1.1}, 0.0), Decision::Slower);
  EXPECT_EQ(decide(Interval{0.9, 1.0}, 0.0), Decision::Inconclusive);
  EXPECT_EQ(decide(Interval{0.9, 1.1}, 0.0), Decision::Inconclusive);
  EXPECT_EQ(decide(Interval{1.0, 1.0}, 0.0), Decision::NoChange);
}

TEST(Decision, PapersExamples) {
  // thr = 3%: a change is reported iff U < 0.97 or L > 1.03.
  EXPECT_EQ(decide(Interval{0.94, 0.969}, 0.03), Decision::Faster);
  EXPECT_EQ(decide(Interval{1.031, 1.05}, 0.03), Decision::Slower);
  // TR 2012 worked example [0.109834, 1.725302]: "may have the same performance".
  EXPECT_EQ(decide(Interval{0.109834, 1.725302}, 0.0), Decision::Inconclusive);
}

TEST(Decision, UnboundedFiellerIsInconclusive) {
  FiellerResult r;
  r.status = FiellerStatus::Unbounded;
  EXPECT_EQ(decide(r, 0.01), Decision::Inconclusive);
  r.status = FiellerStatus::Bounded;
  r.interval = Interval{0.8, 0.9};
  EXPECT_EQ(decide(r, 0.01), Decision::Faster);
  EXPECT_EQ(decisionName(Decision::NoChange), "no change");
}

// alea bisect: BAD 1.065 [1.045, 1.084] slower than GOOD. An inconclusive
// middle revision is placed by its interval against sqrt(1.065) = 1.0320
// (halfway on the log scale): the A/A revision of the lz4 bisection,
// 0.995 [0.976, 1.014], is like GOOD.
TEST(Decision, BisectSidePlacesInconclusiveRevisionsByTheHalfwayRatio) {
  const Decision bad = Decision::Slower;
  const double r = 1.065;
  EXPECT_EQ(bisectSide(Decision::Slower, Interval{1.05, 1.08}, bad, r), BisectSide::Bad);
  EXPECT_EQ(bisectSide(Decision::NoChange, Interval{0.995, 1.005}, bad, r), BisectSide::Good);
  EXPECT_EQ(bisectSide(Decision::Inconclusive, Interval{0.976, 1.014}, bad, r), BisectSide::Good);
  EXPECT_EQ(bisectSide(Decision::Inconclusive, Interval{0.99, 1.0319}, bad, r), BisectSide::Good);
  // Across the halfway ratio: neither (more builds, or a change in steps).
  EXPECT_EQ(bisectSide(Decision::Inconclusive, Interval{0.99, 1.04}, bad, r), BisectSide::Neither);
  // Wholly beyond it with a wide threshold (inconclusive, yet nearer BAD).
  EXPECT_EQ(bisectSide(Decision::Inconclusive, Interval{1.033, 1.06}, bad, r), BisectSide::Bad);
  // Unbounded, or the opposite change: neither.
  EXPECT_EQ(bisectSide(Decision::Inconclusive, std::nullopt, bad, r), BisectSide::Neither);
  EXPECT_EQ(bisectSide(Decision::Faster, Interval{0.9, 0.95}, bad, r), BisectSide::Neither);
  // BAD faster: the sides turn (sqrt(0.8) = 0.8944).
  EXPECT_EQ(bisectSide(Decision::Inconclusive, Interval{0.9, 1.02}, Decision::Faster, 0.8),
            BisectSide::Good);
  EXPECT_EQ(bisectSide(Decision::Inconclusive, Interval{0.85, 0.89}, Decision::Faster, 0.8),
            BisectSide::Bad);
}
