// Layout collision odds (analysis/collision.hpp): the counts by hand for small
// programs, the birthday probability over several builds, and the order of
// magnitude for a large program.
#include "alea/analysis/collision.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace alea::analysis;

// 3 functions in one module and 2 objects, function order and link order
// only: 3! x 2! = 12 layouts; over 10 builds some pair coincides with
// 1 - (11/12)(10/12)...(3/12).
TEST(Collision, FunctionAndLinkOrderOfATinyProgram) {
  LayoutSpace s;
  s.functions = 3;
  s.modules = 1;
  s.functionOrder = true;
  const CollisionOdds one = layoutCollisionOdds(s, 2);
  EXPECT_NEAR(one.pairProbability, 1.0 / 6, 1e-12);
  EXPECT_NEAR(one.anyPairProbability, 1.0 / 6, 1e-12);
  s.modules = 2; // two objects: link order, and the functions split 2 + 1
  s.linkOrder = true;
  const CollisionOdds two = layoutCollisionOdds(s, 10);
  EXPECT_NEAR(two.pairProbability, 1.0 / (2 * 1 * 2), 1e-12); // 2! 1! x 2!
  EXPECT_DOUBLE_EQ(two.anyPairProbability, 1.0);              // 10 builds, 4 layouts
  s.modules = 1;
  s.linkOrder = false;
  s.functions = 4; // 24 layouts
  double none = 1;
  for (int i = 1; i < 5; ++i)
    none *= 1.0 - i / 24.0;
  EXPECT_NEAR(layoutCollisionOdds(s, 5).anyPairProbability, 1 - none, 1e-12);
  EXPECT_NEAR(layoutCollisionOdds(s, 5).log10Layouts, std::log10(24.0), 1e-12);
}

// Section order over every function section (the C runtime as one more)
// subsumes the per-module order; code padding adds 4 choices per function.
TEST(Collision, SectionOrderAndPadding) {
  LayoutSpace s;
  s.functions = 2;
  s.otherFunctions = 3;
  s.modules = 1;
  s.functionOrder = s.sectionOrder = s.codePadding = s.linkOrder = true;
  EXPECT_NEAR(layoutCollisionOdds(s, 2).pairProbability, 1.0 / (6 * 16), 1e-12); // 3! x 4^2
  s.otherFunctions = 0;
  EXPECT_NEAR(layoutCollisionOdds(s, 2).pairProbability, 1.0 / (2 * 16), 1e-12);
  // No randomized draw at all: every build is the same layout.
  EXPECT_DOUBLE_EQ(layoutCollisionOdds(LayoutSpace{}, 3).anyPairProbability, 1.0);
  EXPECT_DOUBLE_EQ(layoutCollisionOdds(s, 1).anyPairProbability, 0.0);
}

// 1200 functions in 40 modules: far below 1e-12 even over 100 builds, and
// the birthday probability is about C(100, 2) / L, not rounded to 0 or 1.
TEST(Collision, LargeProgramIsAstronomicallyUnlikely) {
  LayoutSpace s;
  s.functions = 1200;
  s.modules = 40;
  s.functionOrder = s.linkOrder = true;
  const CollisionOdds o = layoutCollisionOdds(s, 100);
  EXPECT_GT(o.log10Layouts, 1000);
  EXPECT_LT(o.anyPairProbability, 1e-12);
  s.functions = 20;
  s.modules = 1;
  s.functionOrder = true;
  s.linkOrder = false;
  const CollisionOdds mid = layoutCollisionOdds(s, 100); // 20! = 2.43e18
  EXPECT_NEAR(mid.anyPairProbability / (4950 / 2.43290200817664e18), 1.0, 1e-6);
}
