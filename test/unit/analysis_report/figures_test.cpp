// The figures' numbers (figures.hpp, issue 10) on small tables whose answers
// are written out by hand: build means sorted with their t intervals, the
// strip plot's execution means and which builds show them, the warm-up curve
// (medians and counts per iteration index, warm-up rows first), the drift
// series in run order; each size bound and its sampling; one and two levels;
// and a 1,000,000-row table (bounded output, the same result twice).
#include "alea/analysis/figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace alea::analysis;

namespace {

void add(Table &t, const std::string &system, const std::vector<std::string> &units, double value,
         const std::string &benchmark = "") {
  std::vector<std::string_view> u(units.begin(), units.end());
  t.add(system, benchmark, u, value);
}

// Builds x executions x iterations of one system, value = f(b, e, i).
template <typename F>
void addSystem(Table &t, const std::string &system, int builds, int executions, int iterations, F f,
               const std::string &benchmark = "") {
  for (int b = 0; b < builds; ++b)
    for (int e = 0; e < executions; ++e)
      for (int i = 0; i < iterations; ++i)
        add(t, system, {std::to_string(b), std::to_string(e), std::to_string(i)}, f(b, e, i),
            benchmark);
}

} // namespace

TEST(Figures, BuildMeansSortedWithTIntervalsOverTheirExecutions) {
  Table t({"build", "execution", "iteration"});
  // Build "0": executions 10, 12 -> mean 11; "1": 7, 9 -> 8; "2": 9, 9.5, 10 -> 9.5.
  const std::vector<std::vector<double>> builds = {{10, 12}, {7, 9}, {9, 9.5, 10}};
  for (std::size_t b = 0; b < builds.size(); ++b)
    for (std::size_t e = 0; e < builds[b].size(); ++e)
      for (double d : {-0.5, 0.5})
        add(t, "sys", {std::to_string(b), std::to_string(e), d < 0 ? "0" : "1"}, builds[b][e] + d);
  const auto figures = buildFigures(t, nullptr, {"sys"});
  ASSERT_EQ(figures.size(), 1u);
  const BenchmarkFigures &f = figures[0];
  EXPECT_EQ(f.benchmark, "");
  EXPECT_EQ(f.topLevel, "build");
  EXPECT_EQ(f.secondLevel, "execution");
  EXPECT_EQ(f.lowestLevel, "iteration");
  ASSERT_EQ(f.systems.size(), 1u);
  const auto &b = f.systems[0].builds;
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].label, "1");
  EXPECT_EQ(b[1].label, "2");
  EXPECT_EQ(b[2].label, "0");
  EXPECT_DOUBLE_EQ(b[0].mean, 8);
  EXPECT_DOUBLE_EQ(b[1].mean, 9.5);
  EXPECT_DOUBLE_EQ(b[2].mean, 11);
  EXPECT_EQ(b[1].executionMeans, (std::vector<double>{9, 9.5, 10}));
  // t interval of {7, 9}: 8 +- t_{0.975,1} x 1 = 8 +- 12.7062.
  ASSERT_TRUE(b[0].hasCi);
  EXPECT_NEAR(b[0].ci.lower, 8 - 12.706205, 1e-6);
  EXPECT_NEAR(b[0].ci.upper, 8 + 12.706205, 1e-6);
  // {9, 9.5, 10}: sd 0.5, 9.5 +- t_{0.975,2} 0.5/sqrt(3) = 9.5 +- 4.302653 x 0.288675.
  EXPECT_NEAR(b[1].ci.upper, 9.5 + 1.242069, 1e-6);
  for (const auto &x : b)
    EXPECT_TRUE(x.stripShown);
  // Warm-up curve: iteration 0 is every execution's value - 0.5, 1 its + 0.5.
  const auto &s = f.systems[0];
  ASSERT_EQ(s.iterationMedians.size(), 2u);
  EXPECT_EQ(s.iterationCounts, (std::vector<std::size_t>{7, 7}));
  EXPECT_DOUBLE_EQ(s.iterationMedians[0], 9.5 - 0.5); // median of 10 12 7 9 9 9.5 10
  EXPECT_DOUBLE_EQ(s.iterationMedians[1], 9.5 + 0.5);
  EXPECT_EQ(f.executions, 7u);
  EXPECT_EQ(f.warmupIterations, 0u);
  // A build with one execution has no interval.
  Table one({"build", "execution", "iteration"});
  add(one, "sys", {"0", "0", "0"}, 1);
  add(one, "sys", {"1", "0", "0"}, 2);
  const auto g = buildFigures(one, nullptr, {});
  EXPECT_FALSE(g[0].systems[0].builds[0].hasCi);
}

TEST(Figures, WarmupCurveTakesMediansOverExecutionsWithTheirCounts) {
  Table t({"build", "execution", "iteration"});
  // Three executions with 3, 2 and 4 iterations.
  const std::vector<std::vector<double>> execs = {{5, 3, 2}, {7, 4}, {9, 1, 3, 8}};
  for (std::size_t e = 0; e < execs.size(); ++e)
    for (std::size_t i = 0; i < execs[e].size(); ++i)
      add(t, "sys", {"0", std::to_string(e), std::to_string(i)}, execs[e][i]);
  const auto f = buildFigures(t, nullptr, {"sys"});
  const auto &s = f[0].systems[0];
  EXPECT_EQ(s.iterationCounts, (std::vector<std::size_t>{3, 3, 2, 1}));
  EXPECT_EQ(s.iterationMedians, (std::vector<double>{7, 3, 2.5, 8}));
}

TEST(Figures, WarmupRowsComeFirstOnTheCurve) {
  Table measured({"build", "execution", "iteration"});
  Table warmup({"build", "execution", "iteration"});
  // Two executions of build "b": 2 warm-up iterations each (recorded in the
  // warm-up table under their own labels), then 2 measured ones.
  add(measured, "sys", {"b", "x", "2"}, 10);
  add(measured, "sys", {"b", "x", "3"}, 11);
  add(measured, "sys", {"b", "y", "2"}, 12);
  add(measured, "sys", {"b", "y", "3"}, 13);
  add(warmup, "other", {"b", "x", "0"}, 99); // a system not measured: left out
  add(warmup, "sys", {"b", "y", "0"}, 30);
  add(warmup, "sys", {"b", "y", "1"}, 20);
  add(warmup, "sys", {"b", "y", "9"}, 77); // beyond the 2 warm-up iterations: left out
  add(warmup, "sys", {"b", "x", "0"}, 40);
  add(warmup, "sys", {"b", "x", "1"}, 22);
  add(warmup, "sys", {"b", "z", "0"}, 55); // an execution not measured: left out
  FigureOptions o;
  o.warmupIterations = 2;
  const auto f = buildFigures(measured, &warmup, {"sys"}, o);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].warmupIterations, 2u);
  const auto &s = f[0].systems[0];
  EXPECT_EQ(s.iterationCounts, (std::vector<std::size_t>{2, 2, 2, 2}));
  EXPECT_EQ(s.iterationMedians, (std::vector<double>{35, 21, 11, 12}));
  // The build mean is the measured values' only.
  EXPECT_DOUBLE_EQ(s.builds[0].mean, 11.5);
  // Without the warm-up table the curve starts at the first measured value.
  const auto g = buildFigures(measured, nullptr, {"sys"}, o);
  EXPECT_EQ(g[0].warmupIterations, 0u);
  EXPECT_EQ(g[0].systems[0].iterationMedians, (std::vector<double>{11, 12}));
}

TEST(Figures, DriftFollowsRunOrderAcrossSystemsInTheReportsOrder) {
  Table t({"build", "execution", "iteration"});
  // "cand" ran first; the report puts "base" first.
  add(t, "cand", {"0", "0", "0"}, 1);
  add(t, "cand", {"0", "0", "1"}, 3);
  add(t, "base", {"0", "0", "0"}, 5);
  add(t, "cand", {"0", "1", "0"}, 7);
  add(t, "base", {"0", "1", "0"}, 9);
  add(t, "base", {"0", "0", "1"}, 6); // back to an earlier execution: same unit
  const auto f = buildFigures(t, nullptr, {"base", "cand"});
  ASSERT_EQ(f[0].systems.size(), 2u);
  EXPECT_EQ(f[0].systems[0].system, "base");
  EXPECT_EQ(f[0].systems[1].system, "cand");
  EXPECT_EQ(f[0].executions, 4u);
  EXPECT_EQ(f[0].driftSampledEvery, 1u);
  ASSERT_EQ(f[0].drift.size(), 4u);
  const std::vector<std::size_t> system = {1, 0, 1, 0};
  const std::vector<double> value = {2, 5.5, 7, 9};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(f[0].drift[i].order, i);
    EXPECT_EQ(f[0].drift[i].system, system[i]);
    EXPECT_DOUBLE_EQ(f[0].drift[i].value, value[i]);
  }
}

TEST(Figures, DriftIsSampledEveryKthExecutionToFitTheBound) {
  for (const auto &[executions, limit, k] : std::vector<std::tuple<int, std::size_t, std::size_t>>{
           {10, 3, 4}, {9, 3, 3}, {10, 10, 1}, {10, 11, 1}, {1, 1, 1}}) {
    SCOPED_TRACE(std::to_string(executions) + " executions, at most " + std::to_string(limit));
    Table t({"build", "execution", "iteration"});
    for (int e = 0; e < executions; ++e)
      add(t, "sys", {"0", std::to_string(e), "0"}, e);
    FigureOptions o;
    o.maxDriftPoints = limit;
    const auto f = buildFigures(t, nullptr, {}, o);
    EXPECT_EQ(f[0].executions, static_cast<std::size_t>(executions));
    EXPECT_EQ(f[0].driftSampledEvery, k);
    EXPECT_LE(f[0].drift.size(), limit);
    EXPECT_EQ(f[0].drift.size(), (static_cast<std::size_t>(executions) + k - 1) / k);
    for (std::size_t i = 0; i < f[0].drift.size(); ++i) {
      EXPECT_EQ(f[0].drift[i].order, i * k);
      EXPECT_DOUBLE_EQ(f[0].drift[i].value, static_cast<double>(i * k));
    }
  }
  Table t({"build", "execution", "iteration"});
  add(t, "sys", {"0", "0", "0"}, 1);
  FigureOptions none;
  none.maxDriftPoints = 0;
  EXPECT_TRUE(buildFigures(t, nullptr, {}, none)[0].drift.empty());
}

TEST(Figures, WarmupCurveStopsAtItsBound) {
  Table t({"build", "execution", "iteration"});
  addSystem(t, "sys", 1, 2, 6, [](int, int e, int i) { return 10.0 * e + i; });
  FigureOptions o;
  o.maxWarmupIndices = 4;
  const auto f = buildFigures(t, nullptr, {}, o);
  const auto &s = f[0].systems[0];
  EXPECT_EQ(s.iterationMedians, (std::vector<double>{5, 6, 7, 8}));
  EXPECT_EQ(s.iterationCounts, (std::vector<std::size_t>{2, 2, 2, 2}));
}

TEST(Figures, StripShowsTheLowestHighestMiddleThenEvenlySpacedBuilds) {
  Table t({"build", "execution", "iteration"});
  // 12 builds; build b's mean is 100 - b (so sorted position = 11 - b).
  addSystem(t, "sys", 12, 2, 1, [](int b, int e, int) { return 100.0 - b + (e ? 0.1 : -0.1); });
  for (const auto &[limit, positions] : std::vector<std::pair<std::size_t, std::vector<int>>>{
           {5, {0, 3, 5, 8, 11}},
           {3, {0, 5, 11}},
           {2, {0, 11}},
           {1, {0}},
           {0, {}},
           {12, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}}) {
    SCOPED_TRACE(limit);
    FigureOptions o;
    o.maxStripBuilds = limit;
    const auto f = buildFigures(t, nullptr, {}, o);
    const auto &builds = f[0].systems[0].builds;
    ASSERT_EQ(builds.size(), 12u);
    std::vector<int> shown;
    for (std::size_t i = 0; i < builds.size(); ++i) {
      EXPECT_EQ(builds[i].label, std::to_string(11 - i)); // sorted, lowest mean first
      if (builds[i].stripShown) {
        shown.push_back(static_cast<int>(i));
        EXPECT_EQ(builds[i].executionMeans.size(), 2u);
      } else {
        EXPECT_TRUE(builds[i].executionMeans.empty());
      }
      EXPECT_TRUE(builds[i].hasCi); // computed for every build
    }
    EXPECT_EQ(shown, positions);
  }
}

TEST(Figures, OneLevelGivesBuildMeansOnly) {
  Table t({"build"});
  for (int b = 0; b < 4; ++b)
    add(t, "sys", {std::to_string(b)}, 4.0 - b);
  add(t, "sys", {"0"}, 2); // a second value of build 0: its mean is 3
  const auto f = buildFigures(t, nullptr, {"sys"});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].topLevel, "build");
  EXPECT_EQ(f[0].secondLevel, "");
  EXPECT_EQ(f[0].lowestLevel, "");
  EXPECT_EQ(f[0].executions, 0u);
  EXPECT_TRUE(f[0].drift.empty());
  const auto &s = f[0].systems[0];
  EXPECT_TRUE(s.iterationMedians.empty());
  ASSERT_EQ(s.builds.size(), 4u);
  EXPECT_EQ(s.builds[0].label, "3");
  EXPECT_DOUBLE_EQ(s.builds[2].mean, 3);
  for (const auto &b : s.builds) {
    EXPECT_FALSE(b.hasCi);
    EXPECT_FALSE(b.stripShown);
    EXPECT_TRUE(b.executionMeans.empty());
  }
}

TEST(Figures, TwoLevelsRunTheCurveOverEachBuildsIterations) {
  // (build, iteration): one process per build, its iterations are the
  // second level and the warm-up curve's index.
  Table t({"build", "iteration"});
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < 3; ++i)
      add(t, "sys", {std::to_string(b), std::to_string(i)}, 10.0 * b + i);
  const auto f = buildFigures(t, nullptr, {"sys"});
  EXPECT_EQ(f[0].secondLevel, "iteration");
  EXPECT_EQ(f[0].lowestLevel, "iteration");
  EXPECT_EQ(f[0].executions, 9u);
  const auto &s = f[0].systems[0];
  EXPECT_EQ(s.iterationMedians, (std::vector<double>{10, 11, 12}));
  EXPECT_EQ(s.iterationCounts, (std::vector<std::size_t>{3, 3, 3}));
  EXPECT_EQ(s.builds[0].executionMeans, (std::vector<double>{0, 1, 2}));
  EXPECT_TRUE(s.builds[0].hasCi);
}

TEST(Figures, BenchmarksInTableOrderWithTheSystemsThatRanThem) {
  Table t({"build", "execution", "iteration"});
  const auto one = [](int b, int e, int i) { return 1.0 + b + e + i; };
  addSystem(t, "base", 2, 1, 1, one, "bzip2");
  addSystem(t, "cand", 2, 1, 1, one, "bzip2");
  addSystem(t, "cand", 2, 1, 1, one, "astar"); // base did not run astar
  const auto f = buildFigures(t, nullptr, {"base", "cand", "absent"});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].benchmark, "bzip2");
  EXPECT_EQ(f[0].systems.size(), 2u);
  EXPECT_EQ(f[1].benchmark, "astar");
  ASSERT_EQ(f[1].systems.size(), 1u);
  EXPECT_EQ(f[1].systems[0].system, "cand");
  EXPECT_EQ(f[1].drift[0].system, 0u);
}

TEST(Figures, AMillionRowsGiveBoundedFiguresTheSameEachTime) {
  // 2 systems x 50 builds x 20 executions x 500 iterations.
  Table t({"build", "execution", "iteration"});
  std::vector<std::string> labels;
  for (int i = 0; i < 500; ++i)
    labels.push_back(std::to_string(i));
  for (const char *system : {"base", "cand"})
    for (int b = 0; b < 50; ++b)
      for (int e = 0; e < 20; ++e)
        for (int i = 0; i < 500; ++i) {
          const std::string_view units[] = {labels[b], labels[e], labels[i]};
          t.add(system, "", units, 1.0 + 0.001 * b + 0.0001 * e + (i < 5 ? 0.1 : 0.0));
        }
  ASSERT_EQ(t.size(), 1000000u);
  FigureOptions o;
  o.maxDriftPoints = 700;
  const auto f = buildFigures(t, nullptr, {"base", "cand"}, o);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].executions, 2000u);
  EXPECT_EQ(f[0].driftSampledEvery, 3u);
  EXPECT_EQ(f[0].drift.size(), 667u);
  for (const auto &s : f[0].systems) {
    ASSERT_EQ(s.builds.size(), 50u);
    std::size_t shown = 0;
    for (const auto &b : s.builds)
      shown += b.stripShown;
    EXPECT_EQ(shown, 40u);
    EXPECT_EQ(s.iterationMedians.size(), 500u);
    EXPECT_EQ(s.iterationCounts[499], 1000u);
    EXPECT_NEAR(s.iterationMedians[0] - s.iterationMedians[5], 0.1, 1e-9); // the warm-up
  }
  const auto g = buildFigures(t, nullptr, {"base", "cand"}, o);
  ASSERT_EQ(g[0].drift.size(), f[0].drift.size());
  for (std::size_t i = 0; i < f[0].drift.size(); ++i)
    EXPECT_EQ(g[0].drift[i].value, f[0].drift[i].value);
  EXPECT_EQ(g[0].systems[1].iterationMedians, f[0].systems[1].iterationMedians);
}
