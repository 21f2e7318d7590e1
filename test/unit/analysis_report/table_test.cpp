// Nesting a long table into per-system unit trees and the unbalanced-data
// policies: every deviation from the common balanced shape is listed;
// trimming keeps the first units in source order, dropping removes the
// incomplete units bottom up, mixed drops them at the lowest level and trims
// above, auto picks the shape with the smallest variance of the grand mean
// (meanVarianceFactor); everything removed is listed.
#include "alea/analysis/csv.hpp"
#include "alea/analysis/table.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

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

TEST(Nest, LabelsOutOfOrderStillFindTheirUnitsAndDuplicates) {
  // nest() looks a unit's children up without a search while their labels
  // come in increasing order, and by hash once they do not: both ways must
  // find the same units, keep first-seen order and catch a duplicate.
  Table t({"build", "execution"});
  const auto add = [&](const char *build, const char *execution, double v, std::size_t line) {
    const std::string_view units[] = {build, execution};
    t.add("a", "", units, v, line);
  };
  add("0", "2", 1, 2);
  add("0", "0", 2, 3);
  add("1", "0", 3, 4);
  add("0", "1", 4, 5);
  add("1", "2", 5, 6);
  add("1", "1", 6, 7);
  auto n = nest(t);
  ASSERT_FALSE(n.error) << *n.error;
  EXPECT_EQ(flatten(n.benchmarks[0].systems[0]), (std::vector<double>{1, 2, 4, 3, 5, 6}));
  EXPECT_EQ(n.benchmarks[0].systems[0].units[1].children[2].label, "1");
  add("0", "0", 7, 8); // build 0 looks its children up by hash by now
  n = nest(t);
  ASSERT_TRUE(n.error);
  EXPECT_EQ(n.errorLine, 8u);
  EXPECT_EQ(*n.error, "duplicate measurement: system \"a\" already has a value "
                      "for this execution (first on line 3)");

  Table u({"iteration"}); // in order, then a label seen before the last one
  for (const char *label : {"0", "1", "2", "1"}) {
    const std::string_view units[] = {label};
    u.add("a", "", units, 1, u.size() + 2);
  }
  n = nest(u);
  ASSERT_TRUE(n.error);
  EXPECT_EQ(n.errorLine, 5u);
  EXPECT_EQ(*n.error, "duplicate measurement: system \"a\" already has a value "
                      "for this iteration (first on line 3)");
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

TEST(Balance, AutoPicksTheSmallestVarianceOfTheMean) {
  // The crash above: trimming keeps 3x2x1 (V = 1/3 + 1/6 + 1/6 = 0.6667, 15
  // measurements lost), mixed 3x1x4 (1/3 + 1/3 + 1/12 = 0.75, 9 lost),
  // dropping 2x2x4 (1/2 + 1/4 + 1/16 = 0.8125, 5 lost): auto trims, although
  // trimming removes the most measurements (with 3 builds, a build is worth
  // more than iterations).
  auto crash = balanced(crashCsv({{2, 1, 1}, {2, 1, 2}, {2, 1, 3}}), UnbalancedPolicy::Auto);
  ASSERT_EQ(crash.systems.size(), 1u);
  const SystemBalance &c = crash.systems[0];
  EXPECT_EQ(c.applied, UnbalancedPolicy::Trim);
  EXPECT_NEAR(c.varianceByTrim, 2.0 / 3, 1e-12);
  EXPECT_NEAR(c.varianceByMixed, 0.75, 1e-12);
  EXPECT_NEAR(c.varianceByDrop, 0.8125, 1e-12);
  EXPECT_EQ(c.lostByTrim, 15u);
  EXPECT_EQ(c.lostByMixed, 9u);
  EXPECT_EQ(c.lostByDrop, 5u);
  EXPECT_EQ(c.shapeByMixed, (std::vector<std::size_t>{3, 1, 4}));
  EXPECT_EQ(crash.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{3, 2, 1}));
  // Only the last iteration of one execution lost: trimming loses one
  // iteration in each of the 5 other executions (3x2x3, V = 0.5556), dropping
  // loses the 3 iterations left and the rest of the build (2x2x4) -> trim.
  auto last = balanced(crashCsv({{2, 1, 3}}), UnbalancedPolicy::Auto);
  ASSERT_EQ(last.systems.size(), 1u);
  EXPECT_EQ(last.systems[0].applied, UnbalancedPolicy::Trim);
  EXPECT_EQ(last.systems[0].lostByTrim, 5u);
  EXPECT_EQ(last.systems[0].lostByDrop, 7u);
  EXPECT_NEAR(last.systems[0].varianceByTrim, 1.0 / 3 + 1.0 / 6 + 1.0 / 18, 1e-12);
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
  for (UnbalancedPolicy p :
       {UnbalancedPolicy::Error, UnbalancedPolicy::Trim, UnbalancedPolicy::Drop,
        UnbalancedPolicy::Auto, UnbalancedPolicy::Mixed})
    EXPECT_EQ(parseUnbalancedPolicy(unbalancedPolicyName(p)), p);
  EXPECT_STREQ(unbalancedPolicyName(UnbalancedPolicy::Auto), "auto");
  EXPECT_STREQ(unbalancedPolicyName(UnbalancedPolicy::Mixed), "mixed");
  EXPECT_FALSE(parseUnbalancedPolicy("cut"));
}

// ------------------------------------------------- mixed and the V criterion

TEST(MeanVarianceFactor, SumOfInverseProductsFromTheTop) {
  // V = sum_i 1 / (n1 * ... * ni), highest level first (TR 2012 eq. 10 with
  // every variance component 1).
  using S = std::vector<std::size_t>;
  EXPECT_NEAR(meanVarianceFactor(S{10, 5, 3}), 0.1 + 0.02 + 1.0 / 150, 1e-15); // 0.12667
  EXPECT_NEAR(meanVarianceFactor(S{9, 5, 50}), 1.0 / 9 + 1.0 / 45 + 1.0 / 2250, 1e-15);
  EXPECT_NEAR(meanVarianceFactor(S{9, 5, 50}), 0.13378, 5e-6);
  EXPECT_NEAR(meanVarianceFactor(S{10, 4, 50}), 0.1255, 1e-15);
  EXPECT_NEAR(meanVarianceFactor(S{10, 5, 3}), 0.12667, 5e-6);
  EXPECT_NEAR(meanVarianceFactor(S{10, 2, 50}), 0.151, 1e-15);
  EXPECT_NEAR(meanVarianceFactor(S{5, 1, 1}), 0.6, 1e-15);
  EXPECT_NEAR(meanVarianceFactor(S{2, 1, 3}), 1.0 / 2 + 1.0 / 2 + 1.0 / 6, 1e-15);
  EXPECT_EQ(meanVarianceFactor(S{7}), 1.0 / 7);
  EXPECT_TRUE(std::isinf(meanVarianceFactor(S{})));
  EXPECT_TRUE(std::isinf(meanVarianceFactor(S{3, 0, 2})));
}

namespace {

// One system "b": iterations[build][execution] measurements under each
// execution (0: the execution does not exist), labels 0, 1, ...
std::string shapeCsv(const std::vector<std::vector<int>> &iterations) {
  std::string s = "system,build,execution,iteration,value\n";
  for (std::size_t bld = 0; bld < iterations.size(); ++bld)
    for (std::size_t e = 0; e < iterations[bld].size(); ++e)
      for (int i = 0; i < iterations[bld][e]; ++i)
        s += "b," + std::to_string(bld) + "," + std::to_string(e) + "," + std::to_string(i) + "," +
             std::to_string(1 + 0.001 * i) + "\n";
  return s;
}

// 10 builds x 5 executions x 50 iterations, then `change` applied.
std::string tenFiveFifty(void (*change)(std::vector<std::vector<int>> &)) {
  std::vector<std::vector<int>> it(10, std::vector<int>(5, 50));
  change(it);
  return shapeCsv(it);
}

} // namespace

TEST(Balance, CrashedExecutionIsBestBalancedByMixed) {
  // 10x5x50, build 7's execution 2 crashed after 3 iterations (2453
  // measurements). trim: 10x5x3, V = 0.12667; drop: 9x5x50, V = 0.13378;
  // mixed: the execution goes and every build is trimmed to 4 executions,
  // 10x4x50, V = 0.1255 -> auto applies mixed (drop would remove fewest).
  const std::string csv = tenFiveFifty([](auto &it) { it[7][2] = 3; });
  auto r = balanced(csv, UnbalancedPolicy::Auto);
  ASSERT_EQ(r.systems.size(), 1u);
  const SystemBalance &sb = r.systems[0];
  EXPECT_EQ(sb.applied, UnbalancedPolicy::Mixed);
  EXPECT_EQ(sb.measurements, 2453u);
  EXPECT_EQ(sb.topUnits, 10u);
  EXPECT_EQ(sb.shapeByTrim, (std::vector<std::size_t>{10, 5, 3}));
  EXPECT_EQ(sb.shapeByDrop, (std::vector<std::size_t>{9, 5, 50}));
  EXPECT_EQ(sb.shapeByMixed, (std::vector<std::size_t>{10, 4, 50}));
  EXPECT_NEAR(sb.varianceByTrim, 0.12667, 5e-6);
  EXPECT_NEAR(sb.varianceByDrop, 0.13378, 5e-6);
  EXPECT_NEAR(sb.varianceByMixed, 0.1255, 1e-12);
  EXPECT_EQ(sb.lostByTrim, 2453u - 150u);
  EXPECT_EQ(sb.lostByDrop, 3u + 4 * 50u);
  EXPECT_EQ(sb.lostByMixed, 3u + 9 * 50u);
  EXPECT_EQ(sb.topUnitsByTrim, 10u);
  EXPECT_EQ(sb.topUnitsByDrop, 9u);
  EXPECT_EQ(sb.topUnitsByMixed, 10u);
  EXPECT_EQ(sb.lost(), 453u);
  EXPECT_EQ(sb.lostBy(UnbalancedPolicy::Drop), 203u);
  EXPECT_EQ(sb.topUnitsBy(UnbalancedPolicy::Mixed), 10u);
  EXPECT_EQ(sb.shapeBy(UnbalancedPolicy::Trim), sb.shapeByTrim);
  EXPECT_EQ(sb.varianceBy(UnbalancedPolicy::Mixed), sb.varianceByMixed);
  const SystemData &b = r.benchmarks[0].systems[0];
  EXPECT_EQ(b.shape, (std::vector<std::size_t>{10, 4, 50}));
  EXPECT_EQ(flatten(b).size(), 2000u);
  // Build 7 keeps executions 0, 1, 3, 4; the others their first four.
  EXPECT_EQ(b.units[7].children[2].label, "3");
  EXPECT_EQ(b.units[6].children[3].label, "3");
  // The list: the incomplete execution, then the trimming of every other
  // build's last execution.
  ASSERT_EQ(r.dropped.size(), 10u);
  const DroppedUnits &exec = r.dropped[0];
  EXPECT_EQ(exec.reason, DropReason::Incomplete);
  EXPECT_EQ(exec.path, (std::vector<std::string>{"7"}));
  EXPECT_EQ(exec.level, "execution");
  EXPECT_EQ(exec.labels, (std::vector<std::string>{"2"}));
  EXPECT_EQ(exec.childLevel, "iteration");
  EXPECT_EQ(exec.found, 3u);
  EXPECT_EQ(exec.expected, 50u);
  EXPECT_EQ(exec.measurements, 3u);
  std::size_t total = 0;
  for (std::size_t k = 1; k < r.dropped.size(); ++k) {
    const DroppedUnits &d = r.dropped[k];
    EXPECT_EQ(d.reason, DropReason::Trimmed);
    EXPECT_EQ(d.level, "execution");
    EXPECT_EQ(d.labels, (std::vector<std::string>{"4"}));
    EXPECT_NE(d.path, (std::vector<std::string>{"7"}));
    total += d.measurements;
  }
  EXPECT_EQ(total, 450u);
  // Each policy forced gives its own shape.
  EXPECT_EQ(balanced(csv, UnbalancedPolicy::Mixed).benchmarks[0].systems[0].shape,
            (std::vector<std::size_t>{10, 4, 50}));
  EXPECT_EQ(balanced(csv, UnbalancedPolicy::Trim).benchmarks[0].systems[0].shape,
            (std::vector<std::size_t>{10, 5, 3}));
  EXPECT_EQ(balanced(csv, UnbalancedPolicy::Drop).benchmarks[0].systems[0].shape,
            (std::vector<std::size_t>{9, 5, 50}));
  EXPECT_EQ(balanced(csv, UnbalancedPolicy::Drop).systems[0].applied, UnbalancedPolicy::Drop);
}

TEST(Balance, BuildMissingMostExecutionsIsBestDropped) {
  // Build 7 ran 2 of 5 executions (complete ones): trim 10x2x50 (V = 0.151),
  // mixed has nothing to drop at the lowest level and trims to the same shape,
  // drop keeps 9x5x50 (V = 0.13378) -> drop.
  auto r = balanced(tenFiveFifty([](auto &it) { it[7][2] = it[7][3] = it[7][4] = 0; }),
                    UnbalancedPolicy::Auto);
  ASSERT_EQ(r.systems.size(), 1u);
  const SystemBalance &sb = r.systems[0];
  EXPECT_EQ(sb.applied, UnbalancedPolicy::Drop);
  EXPECT_EQ(sb.shapeByTrim, (std::vector<std::size_t>{10, 2, 50}));
  EXPECT_EQ(sb.shapeByMixed, (std::vector<std::size_t>{10, 2, 50}));
  EXPECT_EQ(sb.shapeByDrop, (std::vector<std::size_t>{9, 5, 50}));
  EXPECT_NEAR(sb.varianceByTrim, 0.151, 1e-12);
  EXPECT_NEAR(sb.varianceByMixed, 0.151, 1e-12);
  EXPECT_NEAR(sb.varianceByDrop, 0.13378, 5e-6);
  EXPECT_EQ(sb.lostByTrim, 1350u);
  EXPECT_EQ(sb.lostByMixed, 1350u);
  EXPECT_EQ(sb.lostByDrop, 100u);
  EXPECT_EQ(r.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{9, 5, 50}));
}

TEST(Balance, ManyShortExecutionsAreBestTrimmed) {
  // 5 builds x 1 execution with 3, 3, 2, 2, 1 iterations: drop (and mixed)
  // keep 2x1x3 (5 measurements lost, V = 1/2 + 1/2 + 1/6 = 1.1667), trim keeps
  // 5x1x1 (6 lost, V = 0.6): counting measurements would drop 3 of 5 builds;
  // auto trims.
  auto r = balanced(shapeCsv({{3}, {3}, {2}, {2}, {1}}), UnbalancedPolicy::Auto);
  ASSERT_EQ(r.systems.size(), 1u);
  const SystemBalance &sb = r.systems[0];
  EXPECT_EQ(sb.applied, UnbalancedPolicy::Trim);
  EXPECT_EQ(sb.shapeByTrim, (std::vector<std::size_t>{5, 1, 1}));
  EXPECT_EQ(sb.shapeByDrop, (std::vector<std::size_t>{2, 1, 3}));
  EXPECT_EQ(sb.shapeByMixed, (std::vector<std::size_t>{2, 1, 3}));
  EXPECT_NEAR(sb.varianceByTrim, 0.6, 1e-12);
  EXPECT_NEAR(sb.varianceByDrop, 7.0 / 6, 1e-12);
  EXPECT_NEAR(sb.varianceByMixed, 7.0 / 6, 1e-12);
  EXPECT_EQ(sb.lostByTrim, 6u);
  EXPECT_EQ(sb.lostByDrop, 5u);
  EXPECT_EQ(sb.lostByMixed, 5u);
  EXPECT_EQ(sb.topUnitsByMixed, 2u);
  EXPECT_EQ(r.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{5, 1, 1}));
}

TEST(Balance, MixedDropsABuildAllOfWhoseExecutionsWereIncomplete) {
  // 4 builds x 2 executions x 4 iterations; both executions of build 3 stopped
  // after 2 iterations: mixed drops them, then build 3, left without data.
  auto r = balanced(shapeCsv({{4, 4}, {4, 4}, {4, 4}, {2, 2}}), UnbalancedPolicy::Mixed);
  ASSERT_EQ(r.systems.size(), 1u);
  EXPECT_EQ(r.systems[0].applied, UnbalancedPolicy::Mixed);
  EXPECT_EQ(r.systems[0].topUnitsByMixed, 3u);
  EXPECT_EQ(r.systems[0].lostByMixed, 4u);
  EXPECT_EQ(r.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{3, 2, 4}));
  ASSERT_EQ(r.dropped.size(), 3u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(r.dropped[k].reason, DropReason::Incomplete);
    EXPECT_EQ(r.dropped[k].level, "execution");
    EXPECT_EQ(r.dropped[k].path, (std::vector<std::string>{"3"}));
    EXPECT_EQ(r.dropped[k].labels, (std::vector<std::string>{std::to_string(k)}));
    EXPECT_EQ(r.dropped[k].found, 2u);
    EXPECT_EQ(r.dropped[k].expected, 4u);
    EXPECT_EQ(r.dropped[k].measurements, 2u);
  }
  const DroppedUnits &build = r.dropped[2];
  EXPECT_EQ(build.reason, DropReason::Incomplete);
  EXPECT_TRUE(build.path.empty());
  EXPECT_EQ(build.level, "build");
  EXPECT_EQ(build.labels, (std::vector<std::string>{"3"}));
  EXPECT_EQ(build.childLevel, "execution");
  EXPECT_EQ(build.found, 0u);
  EXPECT_EQ(build.expected, 2u);
  EXPECT_EQ(build.measurements, 0u); // counted with its executions
}

TEST(Balance, MixedDropsOnlyAtTheLowestLevelThenTrims) {
  // 4 levels: build > execution > run > iteration. A short run is dropped; its
  // execution is then one run short and is trimmed, not dropped, like every
  // other execution (each keeps 1 run of 3 iterations).
  std::string csv = "system,build,execution,run,iteration,value\n";
  for (int bld = 0; bld < 3; ++bld)
    for (int e = 0; e < 2; ++e)
      for (int run = 0; run < 2; ++run)
        for (int i = 0; i < (bld == 1 && e == 0 && run == 1 ? 1 : 3); ++i)
          csv += "b," + std::to_string(bld) + "," + std::to_string(e) + "," + std::to_string(run) +
                 "," + std::to_string(i) + ",1\n";
  auto r = balanced(csv, UnbalancedPolicy::Mixed);
  ASSERT_EQ(r.systems.size(), 1u);
  EXPECT_EQ(r.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{3, 2, 1, 3}));
  EXPECT_EQ(r.systems[0].shapeByDrop, (std::vector<std::size_t>{2, 2, 2, 3}));
  EXPECT_EQ(r.systems[0].shapeByTrim, (std::vector<std::size_t>{3, 2, 2, 1}));
  ASSERT_FALSE(r.dropped.empty());
  EXPECT_EQ(r.dropped[0].reason, DropReason::Incomplete);
  EXPECT_EQ(r.dropped[0].level, "run");
  EXPECT_EQ(r.dropped[0].path, (std::vector<std::string>{"1", "0"}));
  for (std::size_t k = 1; k < r.dropped.size(); ++k) {
    EXPECT_EQ(r.dropped[k].reason, DropReason::Trimmed);
    EXPECT_EQ(r.dropped[k].level, "run");
  }
  EXPECT_EQ(r.dropped.size(), 6u); // the short run, then the second run of 5 executions
}

TEST(Balance, AutoKeepsTwoTopLevelUnitsEvenAtALargerVariance) {
  // Build 0: 10 executions x 10 iterations; build 1: 1 execution of 1
  // iteration. Drop and mixed keep build 0 only (1x10x10, V = 1.11), trim
  // keeps 2x1x1 (V = 1.5): a confidence interval needs 2 builds -> trim.
  std::vector<std::vector<int>> it{std::vector<int>(10, 10), {1}};
  auto r = balanced(shapeCsv(it), UnbalancedPolicy::Auto);
  ASSERT_EQ(r.systems.size(), 1u);
  const SystemBalance &sb = r.systems[0];
  EXPECT_EQ(sb.topUnitsByDrop, 1u);
  EXPECT_EQ(sb.topUnitsByMixed, 1u);
  EXPECT_LT(sb.varianceByDrop, sb.varianceByTrim);
  EXPECT_LT(sb.varianceByMixed, sb.varianceByTrim);
  EXPECT_EQ(sb.applied, UnbalancedPolicy::Trim);
  EXPECT_EQ(r.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{2, 1, 1}));
}

TEST(Balance, AutoTiesGoToTrimThenMixedThenDrop) {
  // A whole execution missing: mixed has nothing to drop at the lowest level
  // and trims to trim's shape (3x1x4, V = 0.75; drop 2x2x4, 0.8125) -> trim.
  auto gone =
      balanced(crashCsv({{2, 1, 0}, {2, 1, 1}, {2, 1, 2}, {2, 1, 3}}), UnbalancedPolicy::Auto);
  ASSERT_EQ(gone.systems.size(), 1u);
  EXPECT_EQ(gone.systems[0].varianceByTrim, gone.systems[0].varianceByMixed);
  EXPECT_EQ(gone.systems[0].applied, UnbalancedPolicy::Trim);
  // Two levels (build > iteration): mixed is drop. 10 builds x 50
  // iterations, one build stopped at 3: trim 10x3 (V = 0.1333), drop and
  // mixed 9x50 (0.1133) -> mixed.
  std::string csv = "system,build,iteration,value\n";
  for (int bld = 0; bld < 10; ++bld)
    for (int i = 0; i < (bld == 4 ? 3 : 50); ++i)
      csv += "b," + std::to_string(bld) + "," + std::to_string(i) + ",1\n";
  auto two = balanced(csv, UnbalancedPolicy::Auto);
  ASSERT_EQ(two.systems.size(), 1u);
  EXPECT_EQ(two.systems[0].shapeByMixed, (std::vector<std::size_t>{9, 50}));
  EXPECT_EQ(two.systems[0].varianceByMixed, two.systems[0].varianceByDrop);
  EXPECT_EQ(two.systems[0].applied, UnbalancedPolicy::Mixed);
  EXPECT_EQ(two.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{9, 50}));
}
