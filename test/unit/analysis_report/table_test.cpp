// Nesting a long table into per-system unit trees and the unbalanced-data
// policy: every deviation from the common balanced shape is listed, and
// trimming keeps the first units in source order, listing what it dropped.
#include "alea/analysis/csv.hpp"
#include "alea/analysis/table.hpp"

#include <gtest/gtest.h>

using namespace alea::analysis;

namespace {

Table tableOf(std::string_view csv) {
  auto r = parseCsv(csv);
  EXPECT_FALSE(r.error) << (r.error ? r.error->format("t.csv") : "");
  return *r.table;
}

// 2 systems x 2 builds x 2 executions x 2 iterations; value = 1000 + code.
std::string balancedCsv() {
  std::string s = "system,build,execution,iteration,value\n";
  for (const char *sys : {"base", "cand"})
    for (int b = 0; b < 2; ++b)
      for (int e = 0; e < 2; ++e)
        for (int i = 0; i < 2; ++i)
          s += std::string(sys) + "," + std::to_string(b) + "," + std::to_string(e) + "," +
               std::to_string(i) + "," +
               std::to_string(1000 + (sys[0] == 'c' ? 100 : 0) + b * 10 + e * 2 + i) + "\n";
  return s;
}

} // namespace

TEST(Nest, BuildsTreesInSourceOrder) {
  Table t = tableOf(balancedCsv());
  auto n = nest(t);
  ASSERT_FALSE(n.error);
  ASSERT_EQ(n.benchmarks.size(), 1u);
  const auto &systems = n.benchmarks[0].systems;
  ASSERT_EQ(systems.size(), 2u);
  EXPECT_EQ(systems[1].system, "cand");
  EXPECT_EQ(systems[1].firstLine, 10u);
  ASSERT_EQ(systems[0].units.size(), 2u);
  EXPECT_EQ(systems[0].units[1].label, "1");
  EXPECT_EQ(systems[0].units[1].children.size(), 2u);
  EXPECT_EQ(flatten(systems[1]),
            (std::vector<double>{1100, 1101, 1102, 1103, 1110, 1111, 1112, 1113}));
}

TEST(Nest, RowsMayComeInAnyOrder) {
  Table t = tableOf("system,build,iteration,value\n"
                    "a,1,0,3\na,0,1,2\na,0,0,1\na,1,1,4\n");
  auto n = nest(t);
  ASSERT_FALSE(n.error);
  // Units keep their first-seen order: build 1 first, then build 0.
  EXPECT_EQ(flatten(n.benchmarks[0].systems[0]), (std::vector<double>{3, 4, 2, 1}));
}

TEST(Nest, DuplicateMeasurementIsAnError) {
  // Built directly (the CSV reader rejects duplicates itself), as the
  // runner's store does.
  Table t({"build", "iteration"});
  const std::string_view p0[] = {"0", "0"}, p1[] = {"1", "0"};
  t.add("a", "", p0, 1, 2);
  t.add("a", "", p1, 2, 3);
  t.add("a", "", p0, 3, 4);
  auto n = nest(t);
  ASSERT_TRUE(n.error);
  EXPECT_EQ(n.errorLine, 4u);
  EXPECT_EQ(*n.error, "duplicate measurement: system \"a\" already has a value "
                      "for this iteration (first on line 2)");
}

TEST(Balance, BalancedDataIsUntouched) {
  Table t = tableOf(balancedCsv());
  auto b = balance(nest(t).benchmarks, t.levels());
  EXPECT_TRUE(b.balanced());
  EXPECT_TRUE(b.dropped.empty());
  for (const auto &sys : b.benchmarks[0].systems)
    EXPECT_EQ(sys.shape, (std::vector<std::size_t>{2, 2, 2}));
}

TEST(Balance, MissingIterationTrimsEveryExecutionToTheMinimum) {
  std::string csv = balancedCsv();
  // Remove cand build 1 execution 0 iteration 1 (a failed iteration).
  const std::string gone = "cand,1,0,1,1111\n";
  csv.erase(csv.find(gone), gone.size());
  Table t = tableOf(csv);
  auto b = balance(nest(t).benchmarks, t.levels());
  EXPECT_FALSE(b.balanced());
  // Only cand is trimmed: its 3 other executions have 2 iterations, not 1.
  ASSERT_EQ(b.issues.size(), 3u);
  EXPECT_EQ(b.issues[0].system, "cand");
  EXPECT_EQ(b.issues[0].path, (std::vector<std::string>{"0", "0"}));
  EXPECT_EQ(b.issues[0].level, "iteration");
  EXPECT_EQ(b.issues[0].found, 2u);
  EXPECT_EQ(b.issues[0].expected, 1u);
  EXPECT_EQ(b.dropped.size(), 3u);
  std::size_t total = 0;
  for (const auto &d : b.dropped)
    total += d.measurements;
  EXPECT_EQ(total, 3u); // cand: 7 measurements -> 4 (2 x 2 x 1)
  EXPECT_EQ(b.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{2, 2, 2}));
  EXPECT_EQ(b.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{2, 2, 1}));
  EXPECT_EQ(flatten(b.benchmarks[0].systems[1]), (std::vector<double>{1100, 1102, 1110, 1112}));
}

TEST(Balance, FailedBuildCostsNoOtherSystemABuild) {
  std::string csv = "system,build,execution,value\n";
  for (int bld = 0; bld < 3; ++bld)
    for (int e = 0; e < 2; ++e)
      csv += "a," + std::to_string(bld) + "," + std::to_string(e) + ",1\n";
  for (int bld : {0, 2}) // build 1 of b failed
    for (int e = 0; e < 2; ++e)
      csv += "b," + std::to_string(bld) + "," + std::to_string(e) + ",2\n";
  Table t = tableOf(csv);
  auto b = balance(nest(t).benchmarks, t.levels());
  // Each system is balanced on its own: nothing to drop.
  EXPECT_TRUE(b.balanced());
  EXPECT_TRUE(b.dropped.empty());
  EXPECT_EQ(b.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(b.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{2, 2}));
  EXPECT_EQ(b.benchmarks[0].systems[1].units[1].label, "2");
}

TEST(Balance, MissingExecutionDropsItsSiblingsElsewhere) {
  std::string csv = "system,build,execution,iteration,value\n";
  for (const char *s : {"a", "b"})
    for (int bld = 0; bld < 2; ++bld)
      for (int e = 0; e < 3; ++e) {
        if (s[0] == 'b' && bld == 0 && e == 1)
          continue; // execution crashed: no iterations at all
        for (int i = 0; i < 2; ++i)
          csv += std::string(s) + "," + std::to_string(bld) + "," + std::to_string(e) + "," +
                 std::to_string(i) + ",1\n";
      }
  Table t = tableOf(csv);
  auto b = balance(nest(t).benchmarks, t.levels());
  EXPECT_EQ(b.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{2, 3, 2}));
  EXPECT_EQ(b.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{2, 2, 2}));
  ASSERT_EQ(b.dropped.size(), 1u); // b build 1 loses its execution 2
  EXPECT_EQ(b.dropped[0].system, "b");
  EXPECT_EQ(b.dropped[0].path, (std::vector<std::string>{"1"}));
  EXPECT_EQ(b.dropped[0].level, "execution");
  EXPECT_EQ(b.dropped[0].labels, (std::vector<std::string>{"2"}));
  EXPECT_EQ(b.dropped[0].measurements, 2u);
  // b build 0 kept executions 0 and 2 (first two in source order).
  EXPECT_EQ(b.benchmarks[0].systems[1].units[0].children[1].label, "2");
}
