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
