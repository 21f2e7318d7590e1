// Hierarchy: validation, unit means, grand mean and the pooling view
// (TR 2012 Table III -> Table IV, spec_000 §8.2).
#include "alea/analysis/hierarchy.hpp"

#include "paper_data.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace alea::analysis;

TEST(Hierarchy, TableIIIUnitMeansMatchThePaper) {
  const Hierarchy h = testdata::tableIII();
  EXPECT_TRUE(validateHierarchy(h).empty());
  EXPECT_EQ(h.depth(), 3u);
  EXPECT_EQ(h.valuesPerUnit(0), 4u);
  EXPECT_EQ(h.unitCount(1), 6u);
  const std::vector<double> exec = h.unitMeans(1);
  const std::vector<double> expectedExec = {7.0, 5.5, 8.0, 9.0, 6.5, 3.0};
  EXPECT_EQ(exec, expectedExec);
  const std::vector<double> top = h.topMeans();
  const std::vector<double> expectedTop = {6.25, 8.5, 4.75};
  EXPECT_EQ(top, expectedTop);
  EXPECT_DOUBLE_EQ(h.grandMean(), 6.5);
}

TEST(Hierarchy, PoolingExecutionsGivesTableIV) {
  const Hierarchy p = testdata::tableIII().pooled(1);
  EXPECT_EQ(p.shape, (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ(p.levelNames, (std::vector<std::string>{"build", "iteration"}));
  // b1 = {9, 8, 5, 3} in the paper's order; the set is what matters.
  EXPECT_EQ(p.values, testdata::tableIII().values);
  EXPECT_DOUBLE_EQ(p.topMeans()[1], 8.5);
}

TEST(Hierarchy, PoolingTheTopLevelMakesExecutionsTheTop) {
  const Hierarchy p = testdata::tableIII().pooled(0);
  EXPECT_EQ(p.shape, (std::vector<std::size_t>{6, 2}));
  EXPECT_EQ(p.levelNames.front(), "execution");
}

TEST(Hierarchy, ValidationRejectsBadShapes) {
  EXPECT_FALSE(makeHierarchy({}, {}, {}).ok());
  EXPECT_FALSE(makeHierarchy({"a"}, {2, 2}, {1, 2, 3, 4}).ok());
  EXPECT_FALSE(makeHierarchy({"a", "b"}, {2, 0}, {}).ok());
  auto wrongSize = makeHierarchy({"a", "b"}, {2, 2}, {1, 2, 3});
  ASSERT_FALSE(wrongSize.ok());
  EXPECT_NE(wrongSize.error().find("3 values"), std::string::npos);
  EXPECT_FALSE(makeHierarchy({"a"}, {2}, {1, std::numeric_limits<double>::quiet_NaN()}).ok());
  EXPECT_FALSE(makeHierarchy({"a"}, {2}, {1, std::numeric_limits<double>::infinity()}).ok());
  EXPECT_TRUE(makeHierarchy({"a"}, {2}, {1, 2}).ok());
}

TEST(Hierarchy, FlatHierarchyHasOneLevel) {
  const Hierarchy h = flatHierarchy(testdata::kSeed002T, "execution");
  EXPECT_EQ(h.depth(), 1u);
  EXPECT_EQ(h.topCount(), 5u);
  EXPECT_NEAR(h.grandMean(), 2.045, 1e-12);
}
