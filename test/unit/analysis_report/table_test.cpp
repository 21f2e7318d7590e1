// Nesting a long table into per-system unit trees and the unbalanced-data
// policies: every deviation from the common balanced shape is listed;
// trimming keeps the first units in source order, dropping removes the
// incomplete units bottom up, auto picks whichever keeps more measurements;
// everything removed is listed.
#include "alea/analysis/csv.hpp"
#include "alea/analysis/table.hpp"

#include <gtest/gtest.h>

#include <array>

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

namespace {

// a and b: 3 builds x 2 executions x 4 iterations, value = 1000 + code, minus
// the iterations of b listed in `lost` as {build, execution, iteration}.
std::string crashCsv(std::initializer_list<std::array<int, 3>> lost) {
  std::string s = "system,build,execution,iteration,value\n";
  for (const char *sys : {"a", "b"})
    for (int bld = 0; bld < 3; ++bld)
      for (int e = 0; e < 2; ++e)
        for (int i = 0; i < 4; ++i) {
          bool gone = false;
          for (const auto &l : lost)
            gone |= sys[0] == 'b' && l == std::array<int, 3>{bld, e, i};
          if (!gone)
            s += std::string(sys) + "," + std::to_string(bld) + "," + std::to_string(e) + "," +
                 std::to_string(i) + "," + std::to_string(1000 + bld * 100 + e * 10 + i) + "\n";
        }
  return s;
}

BalanceResult balanced(const std::string &csv, UnbalancedPolicy policy) {
  Table t = tableOf(csv);
  return balance(nest(t).benchmarks, t.levels(), policy);
}

} // namespace

TEST(Balance, TwoArgumentFormTrims) {
  const std::string csv = crashCsv({{2, 1, 1}, {2, 1, 2}, {2, 1, 3}});
  Table t = tableOf(csv);
  auto a = balance(nest(t).benchmarks, t.levels());
  auto b = balance(nest(t).benchmarks, t.levels(), UnbalancedPolicy::Trim);
  EXPECT_EQ(a.benchmarks[0].systems[1].shape, b.benchmarks[0].systems[1].shape);
  EXPECT_EQ(a.dropped.size(), b.dropped.size());
  ASSERT_EQ(a.systems.size(), 1u);
  EXPECT_EQ(a.systems[0].applied, UnbalancedPolicy::Trim);
}

TEST(Balance, DropRemovesTheIncompleteUnitAndItsIncompleteParents) {
  // b's build 2, execution 1 crashed after one iteration. Trimming would cut
  // every execution of b to 1 iteration (15 of 21 measurements); dropping
  // removes the execution (1), which leaves build 2 with 1 of 2 executions, so
  // build 2 goes too (4 more): 5 lost, 2 builds x 2 executions x 4 kept.
  auto r = balanced(crashCsv({{2, 1, 1}, {2, 1, 2}, {2, 1, 3}}), UnbalancedPolicy::Drop);
  EXPECT_FALSE(r.balanced());
  const auto &a = r.benchmarks[0].systems[0];
  const auto &b = r.benchmarks[0].systems[1];
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{3, 2, 4}));
  EXPECT_EQ(b.shape, (std::vector<std::size_t>{2, 2, 4}));
  EXPECT_EQ(flatten(b).size(), 16u);
  EXPECT_EQ(flatten(b).front(), 1000);
  EXPECT_EQ(flatten(b).back(), 1113);
  ASSERT_EQ(r.dropped.size(), 2u);
  const DroppedUnits &exec = r.dropped[0];
  EXPECT_EQ(exec.reason, DropReason::Incomplete);
  EXPECT_EQ(exec.system, "b");
  EXPECT_EQ(exec.path, (std::vector<std::string>{"2"}));
  EXPECT_EQ(exec.level, "execution");
  EXPECT_EQ(exec.labels, (std::vector<std::string>{"1"}));
  EXPECT_EQ(exec.childLevel, "iteration");
  EXPECT_EQ(exec.found, 1u);
  EXPECT_EQ(exec.expected, 4u);
  EXPECT_EQ(exec.measurements, 1u);
  const DroppedUnits &build = r.dropped[1];
  EXPECT_EQ(build.reason, DropReason::Incomplete);
  EXPECT_TRUE(build.path.empty());
  EXPECT_EQ(build.level, "build");
  EXPECT_EQ(build.labels, (std::vector<std::string>{"2"}));
  EXPECT_EQ(build.childLevel, "execution");
  EXPECT_EQ(build.found, 1u);
  EXPECT_EQ(build.expected, 2u);
  EXPECT_EQ(build.measurements, 4u);
  ASSERT_EQ(r.systems.size(), 1u);
  const SystemBalance &sb = r.systems[0];
  EXPECT_EQ(sb.system, "b");
  EXPECT_EQ(sb.applied, UnbalancedPolicy::Drop);
  EXPECT_EQ(sb.measurements, 21u);
  EXPECT_EQ(sb.topUnits, 3u);
  EXPECT_EQ(sb.lostByDrop, 5u);
  EXPECT_EQ(sb.lostByTrim, 15u);
  EXPECT_EQ(sb.topUnitsByDrop, 2u);
  EXPECT_EQ(sb.topUnitsByTrim, 3u);
  EXPECT_EQ(sb.lost(), 5u);
  // The issues are the trim pass's, whatever the policy.
  EXPECT_EQ(r.issues.size(), 5u);
  EXPECT_EQ(
      balanced(crashCsv({{2, 1, 1}, {2, 1, 2}, {2, 1, 3}}), UnbalancedPolicy::Trim).issues.size(),
      5u);
}

TEST(Balance, AutoPicksWhicheverKeepsMoreMeasurements) {
  // The crash above: dropping loses 5, trimming 15 -> drop.
  auto crash = balanced(crashCsv({{2, 1, 1}, {2, 1, 2}, {2, 1, 3}}), UnbalancedPolicy::Auto);
  ASSERT_EQ(crash.systems.size(), 1u);
  EXPECT_EQ(crash.systems[0].applied, UnbalancedPolicy::Drop);
  EXPECT_EQ(crash.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{2, 2, 4}));
  // Only the last iteration of one execution lost: trimming loses one
  // iteration in each of the 5 other executions (5), dropping loses the 3
  // iterations left and the rest of the build (3 + 4 = 7) -> trim.
  auto last = balanced(crashCsv({{2, 1, 3}}), UnbalancedPolicy::Auto);
  ASSERT_EQ(last.systems.size(), 1u);
  EXPECT_EQ(last.systems[0].applied, UnbalancedPolicy::Trim);
  EXPECT_EQ(last.systems[0].lostByTrim, 5u);
  EXPECT_EQ(last.systems[0].lostByDrop, 7u);
  EXPECT_EQ(last.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{3, 2, 3}));
  ASSERT_EQ(last.dropped.size(), 5u);
  for (const auto &d : last.dropped) {
    EXPECT_EQ(d.reason, DropReason::Trimmed);
    EXPECT_EQ(d.labels, (std::vector<std::string>{"3"})); // the last iteration
  }
  // The balanced system a is untouched and not listed.
  EXPECT_EQ(last.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{3, 2, 4}));
}

TEST(Balance, AutoNeverLeavesFewerThanTwoTopLevelUnitsWhenTrimmingKeepsThem) {
  // 2 builds; b's build 1 lost one iteration of 2 in its execution 1: both
  // alternatives lose 3 measurements, but dropping keeps 1 build only.
  std::string csv = "system,build,execution,iteration,value\n";
  for (const char *s : {"a", "b"})
    for (int bld = 0; bld < 2; ++bld)
      for (int e = 0; e < 2; ++e)
        for (int i = 0; i < 2; ++i)
          if (!(s[0] == 'b' && bld == 1 && e == 1 && i == 1))
            csv += std::string(s) + "," + std::to_string(bld) + "," + std::to_string(e) + "," +
                   std::to_string(i) + ",1\n";
  auto drop = balanced(csv, UnbalancedPolicy::Drop);
  EXPECT_EQ(drop.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{1, 2, 2}));
  auto autoPick = balanced(csv, UnbalancedPolicy::Auto);
  ASSERT_EQ(autoPick.systems.size(), 1u);
  EXPECT_EQ(autoPick.systems[0].lostByDrop, 3u);
  EXPECT_EQ(autoPick.systems[0].lostByTrim, 3u);
  EXPECT_EQ(autoPick.systems[0].topUnitsByDrop, 1u);
  EXPECT_EQ(autoPick.systems[0].applied, UnbalancedPolicy::Trim);
  EXPECT_EQ(autoPick.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{2, 2, 1}));
}

TEST(Balance, DropIgnoresUnitsEmptiedBelowWhenCountingTheMode) {
  // b: 5 builds x 1 execution with 3, 3, 2, 2, 1 iterations. Dropping the three
  // short executions empties builds 2-4; they must not make "0 executions" the
  // modal count (which would cut the complete builds 0 and 1 to nothing).
  std::string csv = "system,build,execution,iteration,value\n";
  const int iterations[] = {3, 3, 2, 2, 1};
  for (int bld = 0; bld < 5; ++bld)
    for (int i = 0; i < iterations[bld]; ++i)
      csv += "b," + std::to_string(bld) + ",0," + std::to_string(i) + ",1\n";
  auto r = balanced(csv, UnbalancedPolicy::Drop);
  EXPECT_EQ(r.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{2, 1, 3}));
  ASSERT_EQ(r.systems.size(), 1u);
  EXPECT_EQ(r.systems[0].lostByDrop, 5u);
  EXPECT_EQ(r.systems[0].topUnitsByDrop, 2u);
}

TEST(Balance, DropTrimsUnitsWithMoreChildrenThanTheMode) {
  // One execution of b has a fifth iteration: the modal count is 4, so the
  // extra one is trimmed (the last), nothing is dropped whole.
  std::string csv = crashCsv({}) + "b,1,0,4,2000\n";
  auto r = balanced(csv, UnbalancedPolicy::Drop);
  EXPECT_EQ(r.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{3, 2, 4}));
  ASSERT_EQ(r.dropped.size(), 1u);
  EXPECT_EQ(r.dropped[0].reason, DropReason::Trimmed);
  EXPECT_EQ(r.dropped[0].path, (std::vector<std::string>{"1", "0"}));
  EXPECT_EQ(r.dropped[0].level, "iteration");
  EXPECT_EQ(r.dropped[0].labels, (std::vector<std::string>{"4"}));
  EXPECT_EQ(r.dropped[0].measurements, 1u);
  // Trimming (top down, to the minimum) cuts the same iteration.
  EXPECT_EQ(balanced(csv, UnbalancedPolicy::Trim).dropped.size(), 1u);
}

TEST(Balance, PolicyNames) {
  for (UnbalancedPolicy p : {UnbalancedPolicy::Error, UnbalancedPolicy::Trim,
                             UnbalancedPolicy::Drop, UnbalancedPolicy::Auto})
    EXPECT_EQ(parseUnbalancedPolicy(unbalancedPolicyName(p)), p);
  EXPECT_STREQ(unbalancedPolicyName(UnbalancedPolicy::Auto), "auto");
  EXPECT_FALSE(parseUnbalancedPolicy("cut"));
}
