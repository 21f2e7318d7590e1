// The report model on data whose answers are known independently: the
// Kalibera & Jones tech report's Table V data set (spec_000 §8.3: Fieller
// [0.109834, 1.725302], t-CIs, S^2/T^2, the normal-quantile variant, the
// bootstrap ratio limits from a 200,000-replicate Monte Carlo), plus the
// report's own policies (baseline choice, decision basis, disagreement
// warning, unbalanced data, several candidates, suites).
#include "alea/analysis/csv.hpp"
#include "alea/analysis/report.hpp"
#include "alea/random.hpp"
#include "suite_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace alea::analysis;

namespace {

// spec_000 §8.3 Table V: 3 builds x 2 executions x 2 iterations per system.
std::string table5Csv(const std::string &benchmark = "", int offset = 0) {
  const int oldY[3][2][2] = {{{9, 11}, {5, 6}}, {{16, 13}, {12, 8}}, {{15, 7}, {10, 14}}};
  const int newY[3][2][2] = {{{10, 12}, {6, 7}}, {{9, 1}, {11, 4}}, {{8, 5}, {3, 2}}};
  std::string s;
  for (int k = 0; k < 2; ++k)
    for (int b = 0; b < 3; ++b)
      for (int e = 0; e < 2; ++e)
        for (int i = 0; i < 2; ++i)
          s += std::string(k == 0 ? "old" : "new") + "," + benchmark + "," + std::to_string(b + 1) +
               "," + std::to_string(e + 1) + "," + std::to_string(i + 1) + "," +
               std::to_string(offset + (k == 0 ? oldY[b][e][i] : newY[b][e][i])) + "\n";
  return s;
}

Table table5() {
  auto r = parseCsv("system,benchmark,build,execution,iteration,value\n" + table5Csv());
  EXPECT_FALSE(r.error);
  return *r.table;
}

Report reportOf(const Table &t, ReportOptions o = {}) {
  auto r = buildReport(t, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error());
  return r.ok() ? *r : Report{};
}

} // namespace

TEST(Report, Table5MeansAndTIntervals) {
  Report r = reportOf(table5());
  ASSERT_EQ(r.benchmarks.size(), 1u);
  const auto &b = r.benchmarks[0];
  ASSERT_EQ(b.systems.size(), 2u);
  EXPECT_EQ(r.baseline, "old");
  EXPECT_EQ(b.systems[0].name, "old");
  EXPECT_DOUBLE_EQ(b.systems[0].mean, 10.5);
  EXPECT_NEAR(b.systems[0].ci.interval.lower, 4.510961, 1e-6);
  EXPECT_NEAR(b.systems[0].ci.interval.upper, 16.489039, 1e-6);
  EXPECT_DOUBLE_EQ(b.systems[1].mean, 6.5);
  EXPECT_NEAR(b.systems[1].ci.interval.lower, 1.193880, 1e-6);
  EXPECT_NEAR(b.systems[1].ci.interval.upper, 11.806120, 1e-6);
  EXPECT_EQ(b.systems[0].shape, (std::vector<std::size_t>{3, 2, 2}));
  EXPECT_EQ(b.systems[0].measurements, 12u);
  // Layout sensitivity: old build means 7.75, 12.25, 11.5.
  EXPECT_EQ(b.systems[0].bestUnit, "1");
  EXPECT_DOUBLE_EQ(b.systems[0].bestUnitMean, 7.75);
  EXPECT_EQ(b.systems[0].worstUnit, "2");
  EXPECT_DOUBLE_EQ(b.systems[0].worstUnitMean, 12.25);
}

TEST(Report, Table5VarianceComponentsAndShares) {
  Report r = reportOf(table5());
  const auto &old = r.benchmarks[0].systems[0].levels;
  ASSERT_EQ(old.size(), 3u);
  EXPECT_EQ(old[0].name, "build");
  EXPECT_NEAR(old[0].s2, 5.8125, 1e-9);
  EXPECT_NEAR(old[1].s2, 6.916667, 1e-6);
  EXPECT_NEAR(old[2].s2, 9.166667, 1e-6);
  EXPECT_NEAR(old[0].t2, 2.354167, 1e-6);
  EXPECT_NEAR(old[1].t2, 2.333333, 1e-6);
  EXPECT_NEAR(old[2].t2, 9.166667, 1e-6);
  // All T^2 > 0: shares are T_i^2 / sum T^2.
  const double sum = 2.354167 + 2.333333 + 9.166667;
  EXPECT_NEAR(old[0].share, 2.354167 / sum, 1e-6);
  EXPECT_NEAR(old[2].share, 9.166667 / sum, 1e-6);
  const auto &neu = r.benchmarks[0].systems[1].levels;
  EXPECT_NEAR(neu[0].t2, 1.020833, 1e-6);
  EXPECT_NEAR(neu[1].t2, 1.75, 1e-9);
  EXPECT_NEAR(neu[2].s2, 10.666667, 1e-6);
}

TEST(Report, Table5FiellerBootstrapDecision) {
  ReportOptions o;
  o.bootstrapReplicates = 100000; // spec_000 §8.4: B >= 1e5, tolerance 0.01
  o.seed = 7;
  Report r = reportOf(table5(), o);
  ASSERT_EQ(r.benchmarks[0].ratios.size(), 1u);
  const RatioReport &x = r.benchmarks[0].ratios[0];
  EXPECT_EQ(x.candidate, "new");
  EXPECT_EQ(x.baseline, "old");
  EXPECT_NEAR(x.estimate, 0.619048, 1e-6);
  EXPECT_EQ(x.fiellerStatus, FiellerStatus::Bounded);
  ASSERT_TRUE(x.fieller);
  EXPECT_NEAR(x.fieller->lower, 0.109834, 1e-6);
  EXPECT_NEAR(x.fieller->upper, 1.725302, 1e-6);
  EXPECT_NEAR(x.bootstrap.lower, 0.341, 0.01);
  EXPECT_NEAR(x.bootstrap.upper, 1.014, 0.01);
  // [0.11, 1.73] straddles 1 +- 1%: inconclusive, decided on Fieller.
  EXPECT_EQ(x.decision, Decision::Inconclusive);
  EXPECT_EQ(x.decisionBasis, "fieller");
  // Upper limits differ by ~0.71 > 25% of the wider width (1.615).
  EXPECT_TRUE(x.disagreement);
  ASSERT_FALSE(r.benchmarks[0].warnings.empty());
  EXPECT_NE(r.benchmarks[0].warnings[0].find("disagree"), std::string::npos);
}

// Table V a million up: the intervals keep their shapes (Fieller's still
// reaches ~0.7 of its width past the bootstrap's) but both lie within
// 1 +- 1e-5, where they print alike: not a disagreement, and no warning.
TEST(Report, DisagreementTooSmallToShowIsNone) {
  ReportOptions o;
  o.seed = 7;
  auto csv =
      parseCsv("system,benchmark,build,execution,iteration,value\n" + table5Csv("", 1000000));
  ASSERT_FALSE(csv.error);
  Report r = reportOf(*csv.table, o);
  ASSERT_EQ(r.benchmarks[0].ratios.size(), 1u);
  const RatioReport &x = r.benchmarks[0].ratios[0];
  ASSERT_TRUE(x.fieller);
  EXPECT_LT(x.fieller->width(), 2e-5); // Table V's 1.615, about 1e-5 of it
  const double diff = std::max(std::fabs(x.fieller->lower - x.bootstrap.lower),
                               std::fabs(x.fieller->upper - x.bootstrap.upper));
  EXPECT_GT(diff, 0.25 * std::max(x.fieller->width(), x.bootstrap.width())); // the shape's
  EXPECT_FALSE(x.disagreement);
  for (const auto &w : r.benchmarks[0].warnings)
    EXPECT_EQ(w.find("disagree"), std::string::npos) << w;
}

TEST(Report, NormalQuantileVariant) {
  ReportOptions o;
  o.ciMethod = IntervalMethod::Normal;
  Report r = reportOf(table5(), o);
  const RatioReport &x = r.benchmarks[0].ratios[0];
  ASSERT_TRUE(x.fieller);
  EXPECT_NEAR(x.fieller->lower, 0.369621, 1e-6);
  EXPECT_NEAR(x.fieller->upper, 0.958107, 1e-6);
  EXPECT_EQ(x.decision, Decision::Faster); // 0.958 < 0.99
}

TEST(Report, ThresholdDecidesNoChangeVersusFaster) {
  ReportOptions o;
  o.ciMethod = IntervalMethod::Normal; // Fieller [0.3696, 0.9581]
  o.threshold = 0.05;                  // 0.958 is not < 0.95
  EXPECT_EQ(reportOf(table5(), o).benchmarks[0].ratios[0].decision, Decision::Inconclusive);
  o.threshold = 0.04; // 0.958 < 0.96
  EXPECT_EQ(reportOf(table5(), o).benchmarks[0].ratios[0].decision, Decision::Faster);
}

TEST(Report, BaselineOptionInvertsTheRatio) {
  ReportOptions o;
  o.baseline = "new";
  Report r = reportOf(table5(), o);
  EXPECT_EQ(r.benchmarks[0].systems[0].name, "new");
  EXPECT_NEAR(r.benchmarks[0].ratios[0].estimate, 10.5 / 6.5, 1e-12);
  o.baseline = "nope";
  auto bad = buildReport(table5(), o);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "baseline system \"nope\" is not in the data (systems: old, new)");
}

TEST(Report, UnboundedFiellerFallsBackToBootstrap) {
  // spec_000 §8.11: baseline top-level means {0.1, 10, 0.1}: a < 0.
  auto p = parseCsv("system,build,value\nold,1,0.1\nold,2,10\nold,3,0.1\n"
                    "new,1,1\nnew,2,2\nnew,3,3\n");
  ASSERT_FALSE(p.error);
  Report r = reportOf(*p.table);
  const RatioReport &x = r.benchmarks[0].ratios[0];
  EXPECT_EQ(x.fiellerStatus, FiellerStatus::Unbounded);
  EXPECT_FALSE(x.fieller);
  EXPECT_EQ(x.decisionBasis, "bootstrap");
  EXPECT_FALSE(x.disagreement);
  // The unbounded interval, then both t intervals of the means reaching
  // below zero (3 builds each: t(2) = 4.30).
  ASSERT_EQ(r.benchmarks[0].warnings.size(), 3u);
  EXPECT_NE(r.benchmarks[0].warnings[0].find("unbounded"), std::string::npos);
  EXPECT_NE(r.benchmarks[0].warnings[1].find("old: the t interval of the mean reaches below zero"),
            std::string::npos);
  EXPECT_NE(r.benchmarks[0].warnings[2].find("new: the t interval of the mean reaches below zero"),
            std::string::npos);
}

TEST(Report, SeveralCandidatesEachAgainstTheBaseline) {
  std::string csv = "system,build,value\n";
  for (const char *s : {"b", "c1", "c2"})
    for (int i = 0; i < 4; ++i)
      csv += std::string(s) + "," + std::to_string(i) + "," +
             std::to_string((s[1] == '1'   ? 90
                             : s[1] == '2' ? 120
                                           : 100) +
                            i) +
             "\n";
  auto p = parseCsv(csv);
  ASSERT_FALSE(p.error);
  Report r = reportOf(*p.table);
  ASSERT_EQ(r.benchmarks[0].ratios.size(), 2u);
  EXPECT_EQ(r.benchmarks[0].ratios[0].candidate, "c1");
  EXPECT_NEAR(r.benchmarks[0].ratios[0].estimate, 91.5 / 101.5, 1e-12);
  EXPECT_EQ(r.benchmarks[0].ratios[0].decision, Decision::Faster);
  EXPECT_EQ(r.benchmarks[0].ratios[1].candidate, "c2");
  EXPECT_EQ(r.benchmarks[0].ratios[1].decision, Decision::Slower);
}

TEST(Report, UnbalancedDataIsTrimmedAndListedOrRejected) {
  std::string csv = "system,benchmark,build,execution,iteration,value\n" + table5Csv();
  const std::string gone = "new,,3,2,2,2\n"; // a lost iteration
  csv.erase(csv.find(gone), gone.size());
  auto p = parseCsv(csv);
  ASSERT_FALSE(p.error);
  ReportOptions trim;
  trim.unbalanced = UnbalancedPolicy::Trim;
  Report r = reportOf(*p.table, trim);
  EXPECT_EQ(r.unbalanced.size(), 5u); // new: 5 executions keep 2, trimmed to 1
  EXPECT_EQ(r.dropped.size(), 5u);
  EXPECT_EQ(r.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{3, 2, 1}));
  EXPECT_EQ(r.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{3, 2, 2}));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "unbalanced data: trimmed 5 measurements in 5 places to balance "
                           "the design (see the list)");
  // New's trimmed data keeps the first iteration: build means 8, 10, 5.5.
  EXPECT_NEAR(r.benchmarks[0].systems[1].mean, (10 + 6 + 9 + 11 + 8 + 3) / 6.0, 1e-12);
  ReportOptions o;
  o.unbalanced = UnbalancedPolicy::Error;
  auto bad = buildReport(*p.table, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "unbalanced data: system \"new\", unit 1/1 has 2 iteration units "
                         "where others have 1 (5 such units; use --unbalanced=auto, trim, mixed or "
                         "drop to balance it)");
}

TEST(Report, UnbalancedDataByDefaultTakesTheSmallestVarianceOfTheMean) {
  // The same lost iteration under the default policy (auto). Trimming keeps
  // 3x2x1 (V = 1/3 + 1/6 + 1/6 = 0.667, 5 measurements lost), mixed drops
  // execution 3/2 and trims every build to 1 execution, 3x1x2 (V = 0.833, 5
  // lost), dropping also loses build 3, 2x2x2 (V = 0.875, 3 lost): auto trims.
  std::string csv = "system,benchmark,build,execution,iteration,value\n" + table5Csv();
  const std::string gone = "new,,3,2,2,2\n";
  csv.erase(csv.find(gone), gone.size());
  auto p = parseCsv(csv);
  ASSERT_FALSE(p.error);
  EXPECT_EQ(ReportOptions{}.unbalanced, UnbalancedPolicy::Auto);
  Report a = reportOf(*p.table);
  ASSERT_EQ(a.balancing.size(), 1u);
  EXPECT_EQ(a.balancing[0].applied, UnbalancedPolicy::Trim);
  EXPECT_NEAR(a.balancing[0].varianceByTrim, 2.0 / 3, 1e-12);
  EXPECT_NEAR(a.balancing[0].varianceByMixed, 5.0 / 6, 1e-12);
  EXPECT_NEAR(a.balancing[0].varianceByDrop, 0.875, 1e-12);
  EXPECT_EQ(a.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{3, 2, 1}));

  // Mixed: execution 3/2 goes, builds 1 and 2 lose their execution 2.
  ReportOptions mixed;
  mixed.unbalanced = UnbalancedPolicy::Mixed;
  Report m = reportOf(*p.table, mixed);
  ASSERT_EQ(m.balancing.size(), 1u);
  EXPECT_EQ(m.balancing[0].applied, UnbalancedPolicy::Mixed);
  EXPECT_EQ(m.balancing[0].lost(), 5u);
  EXPECT_EQ(m.benchmarks[0].systems[1].shape, (std::vector<std::size_t>{3, 1, 2}));
  // new keeps execution 1 of every build: (10 + 12 + 9 + 1 + 8 + 5) / 6.
  EXPECT_DOUBLE_EQ(m.benchmarks[0].systems[1].mean, 7.5);
  EXPECT_FALSE(m.benchmarks[0].ratios[0].unequalTopUnits());
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0], "unbalanced data: dropped 1 incomplete unit (1 measurement) and "
                           "trimmed 4 measurements in 2 places to balance the design (see the "
                           "list)");

  // Drop: new's incomplete execution 3/2 (1 measurement) and then its
  // incomplete build 3 (2 more): build 3 goes.
  ReportOptions dropOptions;
  dropOptions.unbalanced = UnbalancedPolicy::Drop;
  Report r = reportOf(*p.table, dropOptions);
  ASSERT_EQ(r.balancing.size(), 1u);
  EXPECT_EQ(r.balancing[0].system, "new");
  EXPECT_EQ(r.balancing[0].applied, UnbalancedPolicy::Drop);
  EXPECT_EQ(r.balancing[0].lostByDrop, 3u);
  EXPECT_EQ(r.balancing[0].lostByTrim, 5u);
  EXPECT_EQ(r.unbalanced.size(), 5u);
  ASSERT_EQ(r.dropped.size(), 2u);
  EXPECT_EQ(r.dropped[1].labels, (std::vector<std::string>{"3"}));
  const auto &b = r.benchmarks[0];
  EXPECT_EQ(b.systems[1].shape, (std::vector<std::size_t>{2, 2, 2}));
  // new keeps builds 1 and 2: (10 + 12 + 6 + 7 + 9 + 1 + 11 + 4) / 8 = 7.5.
  EXPECT_DOUBLE_EQ(b.systems[1].mean, 7.5);
  EXPECT_NEAR(b.ratios[0].estimate, 7.5 / 10.5, 1e-12);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "unbalanced data: dropped 2 incomplete units (3 measurements) to "
                           "balance the design (see the list)");
  // Dropping can leave a system with too few top-level units: say why.
  ReportOptions drop;
  drop.unbalanced = UnbalancedPolicy::Drop;
  auto q = parseCsv("system,build,iteration,value\na,1,1,1\na,1,2,1.1\na,2,1,1.2\na,2,2,1\n"
                    "b,1,1,1\nb,1,2,1.1\nb,2,1,1.2\n");
  ASSERT_FALSE(q.error);
  auto bad = buildReport(*q.table, drop);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "system \"b\" has only 1 build after dropping incomplete units "
                         "(--unbalanced=trim keeps 2 builds); a confidence interval needs at "
                         "least 2");
}

TEST(Report, MixedCanLoseATopLevelUnitAndSaysSo) {
  // b's build 3: both executions stopped after 1 of 2 iterations, so mixed
  // drops them and the build left without data. b then has 2 builds, a 3.
  std::string csv = "system,build,execution,iteration,value\n";
  for (const char *s : {"a", "b"})
    for (int bld = 1; bld <= 3; ++bld)
      for (int e = 1; e <= 2; ++e)
        for (int i = 1; i <= (s[0] == 'b' && bld == 3 ? 1 : 2); ++i)
          csv += std::string(s) + "," + std::to_string(bld) + "," + std::to_string(e) + "," +
                 std::to_string(i) + "," + std::to_string(bld + 0.1 * e + 0.01 * i) + "\n";
  auto p = parseCsv(csv);
  ASSERT_FALSE(p.error);
  ReportOptions mixed;
  mixed.unbalanced = UnbalancedPolicy::Mixed;
  Report r = reportOf(*p.table, mixed);
  ASSERT_EQ(r.balancing.size(), 1u);
  EXPECT_EQ(r.balancing[0].topUnitsByMixed, 2u);
  const RatioReport &x = r.benchmarks[0].ratios[0];
  EXPECT_TRUE(x.unequalTopUnits());
  ASSERT_FALSE(r.benchmarks[0].warnings.empty());
  EXPECT_EQ(r.benchmarks[0].warnings[0],
            "b has 2 builds, a has 3: Fieller's interval uses nu = min(n) - 1 = 1 "
            "(conservative), the bootstrap resamples each system within its own builds; b lost "
            "1 build to the unbalanced-data policy (mixed)");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "unbalanced data: dropped 3 incomplete units (2 measurements) to "
                           "balance the design (see the list)");

  // With 2 builds only, mixed leaves 1: refused, and the message says why.
  auto q = parseCsv("system,build,execution,iteration,value\n"
                    "a,1,1,1,1\na,1,1,2,1.1\na,2,1,1,1.2\na,2,1,2,1\n"
                    "b,1,1,1,1\nb,1,1,2,1.1\nb,2,1,1,1.2\n");
  ASSERT_FALSE(q.error);
  auto bad = buildReport(*q.table, mixed);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "system \"b\" has only 1 build after dropping incomplete units "
                         "(mixed; --unbalanced=trim keeps 2 builds); a confidence interval needs "
                         "at least 2");
}

TEST(Report, UnequalTopLevelCountsAreWarned) {
  // The candidate lost a whole build (no unbalance within a system): Fieller
  // runs with nu = min(3, 2) - 1 = 1 and the report says so.
  std::string csv = "system,benchmark,build,execution,iteration,value\n" + table5Csv();
  for (const char *gone : {"new,,3,1,1,8\n", "new,,3,1,2,5\n", "new,,3,2,1,3\n", "new,,3,2,2,2\n"})
    csv.erase(csv.find(gone), std::strlen(gone));
  auto p = parseCsv(csv);
  ASSERT_FALSE(p.error);
  Report r = reportOf(*p.table);
  EXPECT_TRUE(r.unbalanced.empty());
  EXPECT_TRUE(r.balancing.empty());
  const RatioReport &x = r.benchmarks[0].ratios[0];
  EXPECT_EQ(x.candidateTopUnits, 2u);
  EXPECT_EQ(x.baselineTopUnits, 3u);
  EXPECT_TRUE(x.unequalTopUnits());
  EXPECT_EQ(x.fiellerDf, 1.0);
  const auto &w = r.benchmarks[0].warnings;
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w[0], "new has 2 builds, old has 3: Fieller's interval uses nu = min(n) - 1 = 1 "
                  "(conservative), the bootstrap resamples each system within its own builds");
  // Equal counts: no such warning.
  Report same = reportOf(table5());
  EXPECT_FALSE(same.benchmarks[0].ratios[0].unequalTopUnits());
  EXPECT_EQ(same.benchmarks[0].ratios[0].candidateTopUnits, 3u);
  for (const auto &s : same.benchmarks[0].warnings)
    EXPECT_EQ(s.find("has 3"), std::string::npos) << s;
}

TEST(Report, SuiteGeometricMean) {
  auto p = parseCsv("system,benchmark,build,execution,iteration,value\n" + table5Csv("a") +
                    table5Csv("b"));
  ASSERT_FALSE(p.error);
  Report r = reportOf(*p.table);
  ASSERT_EQ(r.benchmarks.size(), 2u);
  ASSERT_EQ(r.suite.size(), 1u);
  EXPECT_EQ(r.suite[0].benchmarks, 2u);
  // Both benchmarks have ratio 13/21: so has their geometric mean.
  EXPECT_NEAR(r.suite[0].geometricMean, 13.0 / 21.0, 1e-12);
  EXPECT_TRUE(r.suite[0].bootstrap.contains(r.suite[0].geometricMean));
  // Averaging two independent replicates narrows the interval.
  EXPECT_LT(r.suite[0].bootstrap.width(), r.benchmarks[0].ratios[0].bootstrap.width());
}

TEST(Report, SameSeedSameReportAnyThreads) {
  ReportOptions o;
  o.seed = 42;
  o.threads = 1;
  Report a = reportOf(table5(), o);
  o.threads = 2;
  Report b = reportOf(table5(), o);
  EXPECT_EQ(a.benchmarks[0].ratios[0].bootstrap.lower, b.benchmarks[0].ratios[0].bootstrap.lower);
  EXPECT_EQ(a.benchmarks[0].ratios[0].bootstrap.upper, b.benchmarks[0].ratios[0].bootstrap.upper);
  EXPECT_EQ(a.benchmarks[0].systems[1].bootstrap.interval.lower,
            b.benchmarks[0].systems[1].bootstrap.interval.lower);
}

TEST(Report, PlanAdviceUsesCosts) {
  // spec_000 §8.2: Table IV pooled design, c_1 = 10 (warm-up only), T from
  // the raw data gives n_1 = ceil(sqrt(10 * 12.722222 / 0.381944)) = 19.
  auto p = parseCsv(test::table4Csv());
  ASSERT_FALSE(p.error);
  PlanRequest req;
  req.costs = {10};
  req.targetHalfWidth = 0.5;
  auto plans = buildPlans(*p.table, req);
  ASSERT_TRUE(plans.ok()) << plans.error();
  ASSERT_EQ(plans->plans.size(), 1u);
  const auto &pl = plans->plans[0].plan;
  ASSERT_TRUE(pl.ok) << pl.error;
  EXPECT_EQ(pl.counts[1], 19u);
  EXPECT_NEAR(plans->plans[0].levels[1].t2, 12.722222, 1e-6);
  EXPECT_NEAR(plans->plans[0].levels[0].t2, 0.381944, 1e-6);
  ASSERT_TRUE(pl.topUnitsNeeded);
  EXPECT_LE(pl.predictedHalfWidth, 0.5);
}

namespace {

// `t` with every value multiplied by 2^exponent (exact).
Table timesPowerOfTwo(const Table &t, int exponent) {
  Table out(t.levels());
  std::vector<std::string_view> units(t.levels().size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Row &r = t.row(i);
    for (std::size_t l = 0; l < units.size(); ++l)
      units[l] = t.label(i, l);
    out.add(t.systems()[r.system], t.benchmarks().empty() ? "" : t.benchmarks()[r.benchmark], units,
            std::ldexp(r.value, exponent));
  }
  return out;
}

} // namespace

// Values near the ends of the double range (2^1000 ~ 1e301, 2^-1000 ~
// 1e-301) used to overflow (inf means, NaN intervals) or underflow (intervals
// of zero width). The report of the data times 2^k is that of the data with
// every location result times 2^k, variances times 4^k (where a double holds
// them), and every ratio, share and relative figure the same.
TEST(Report, ValuesNearTheDoubleRangeGiveTheReportOfRescaledData) {
  ReportOptions o;
  o.seed = 5;
  const Table plain = test::touatiSuiteTable();
  const Report ref = reportOf(plain, o);
  for (const int k : {1000, 400, -400, -1000}) {
    SCOPED_TRACE("values times 2^" + std::to_string(k));
    const Report r = reportOf(timesPowerOfTwo(plain, k), o);
    const auto scaled = [k](double v) { return std::ldexp(v, k); };
    ASSERT_EQ(r.benchmarks.size(), ref.benchmarks.size());
    for (std::size_t b = 0; b < r.benchmarks.size(); ++b) {
      const BenchmarkReport &x = r.benchmarks[b], &y = ref.benchmarks[b];
      ASSERT_EQ(x.systems.size(), y.systems.size());
      for (std::size_t s = 0; s < x.systems.size(); ++s) {
        const SystemReport &xs = x.systems[s], &ys = y.systems[s];
        EXPECT_DOUBLE_EQ(xs.mean, scaled(ys.mean));
        EXPECT_DOUBLE_EQ(xs.ci.interval.lower, scaled(ys.ci.interval.lower));
        EXPECT_DOUBLE_EQ(xs.ci.interval.upper, scaled(ys.ci.interval.upper));
        EXPECT_DOUBLE_EQ(xs.ci.halfWidth, scaled(ys.ci.halfWidth));
        EXPECT_DOUBLE_EQ(xs.bootstrap.interval.lower, scaled(ys.bootstrap.interval.lower));
        EXPECT_DOUBLE_EQ(xs.bootstrap.interval.upper, scaled(ys.bootstrap.interval.upper));
        EXPECT_DOUBLE_EQ(xs.bestUnitMean, scaled(ys.bestUnitMean));
        EXPECT_DOUBLE_EQ(xs.worstUnitMean, scaled(ys.worstUnitMean));
        EXPECT_DOUBLE_EQ(xs.plan.predictedHalfWidth, ys.plan.predictedHalfWidth);
        EXPECT_EQ(xs.plan.counts, ys.plan.counts);
        ASSERT_EQ(xs.levels.size(), ys.levels.size());
        for (std::size_t l = 0; l < xs.levels.size(); ++l) {
          EXPECT_DOUBLE_EQ(xs.levels[l].share, ys.levels[l].share);
          // 2^800 and 2^-800 times a variance of ~1e-4 fit a double; 2^2000
          // does not (infinite), 2^-2000 underflows to 0.
          const double want = std::abs(k) == 400 ? std::ldexp(ys.levels[l].s2, 2 * k)
                              : k > 0            ? INFINITY
                                                 : 0.0;
          EXPECT_DOUBLE_EQ(xs.levels[l].s2, want);
        }
      }
      ASSERT_EQ(x.ratios.size(), y.ratios.size());
      for (std::size_t c = 0; c < x.ratios.size(); ++c) {
        const RatioReport &xr = x.ratios[c], &yr = y.ratios[c];
        EXPECT_DOUBLE_EQ(xr.estimate, yr.estimate);
        ASSERT_EQ(xr.fieller.has_value(), yr.fieller.has_value());
        if (xr.fieller) {
          EXPECT_DOUBLE_EQ(xr.fieller->lower, yr.fieller->lower);
          EXPECT_DOUBLE_EQ(xr.fieller->upper, yr.fieller->upper);
        }
        EXPECT_DOUBLE_EQ(xr.bootstrap.lower, yr.bootstrap.lower);
        EXPECT_DOUBLE_EQ(xr.bootstrap.upper, yr.bootstrap.upper);
        EXPECT_EQ(xr.decision, yr.decision);
      }
    }
    ASSERT_EQ(r.suite.size(), 1u);
    EXPECT_DOUBLE_EQ(r.suite[0].geometricMean, ref.suite[0].geometricMean);
    EXPECT_DOUBLE_EQ(r.suite[0].bootstrap.lower, ref.suite[0].bootstrap.lower);
    EXPECT_DOUBLE_EQ(r.suite[0].bootstrap.upper, ref.suite[0].bootstrap.upper);
    ASSERT_EQ(r.suiteSystems.size(), 2u);
    // Geometric means of means go through logarithms: equal to rounding.
    EXPECT_NEAR(r.suiteSystems[0].observed / scaled(ref.suiteSystems[0].observed), 1.0, 1e-14);
    EXPECT_NEAR(r.suiteSystems[0].summary.median / scaled(ref.suiteSystems[0].summary.median), 1.0,
                1e-14);
    // Variances no double holds are said, once per benchmark (each has its
    // own scale and its own warnings).
    for (const BenchmarkReport &b : r.benchmarks) {
      const auto said = std::count_if(b.warnings.begin(), b.warnings.end(), [](const auto &w) {
        return w.find("the variance components (S2, T2)") != std::string::npos;
      });
      EXPECT_EQ(said, std::abs(k) == 1000 ? 1 : 0) << b.name;
    }
  }
}

// buildPlans rescales the same way; the budget is in the values' unit.
TEST(Report, PlansOfValuesNearTheDoubleRange) {
  auto p = parseCsv(test::table4Csv());
  ASSERT_FALSE(p.error);
  PlanRequest req;
  req.costs = {10};
  req.budget = 500;
  auto ref = buildPlans(*p.table, req);
  ASSERT_TRUE(ref.ok()) << ref.error();
  req.budget = std::ldexp(500, 400);
  auto big = buildPlans(timesPowerOfTwo(*p.table, 400), req);
  ASSERT_TRUE(big.ok()) << big.error();
  const PlanReport &x = big->plans[0], &y = ref->plans[0];
  EXPECT_DOUBLE_EQ(x.mean, std::ldexp(y.mean, 400));
  EXPECT_DOUBLE_EQ(x.levels[0].t2, std::ldexp(y.levels[0].t2, 800));
  EXPECT_DOUBLE_EQ(x.budgetMeasurements, y.budgetMeasurements);
  EXPECT_EQ(x.plan.counts, y.plan.counts);
  EXPECT_DOUBLE_EQ(x.plan.predictedHalfWidth, y.plan.predictedHalfWidth);
  // The component table is the plan's result: one that no double holds fails.
  auto huge = buildPlans(timesPowerOfTwo(*p.table, 1000), req);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().find("the variance components exceed the double range"), std::string::npos)
      << huge.error();
}

TEST(Report, ValuesSpanningMoreThanDoublePrecisionHoldsAreRefused) {
  Table t({"build"});
  const std::string_view u1[] = {"1"}, u2[] = {"2"};
  t.add("a", "", u1, 1e-250);
  t.add("a", "", u2, 1e200);
  auto r = buildReport(t);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "the values span too wide a range for double precision, from 1e-250 to "
                       "1e+200 (the largest may be at most 2^400 times the smallest)");
}

// Issue 18 item 8: one benchmark near 1e-320 (subnormal) and one near 1e308
// used to make the whole report "the values span too wide a range". Each
// benchmark has its own scale: the subnormal one is refused on its own, the
// huge one is analysed with its own warning, and the ordinary ones get
// exactly the statistics they get without the other two; the suite says
// which benchmark it left out.
TEST(Report, OneExtremeBenchmarkLeavesTheOthersTheirStatistics) {
  const Table plain = test::touatiSuiteTable(); // b1, b2: cand 10% faster
  Table mixed(plain.levels()), ordinary(plain.levels());
  std::vector<std::string_view> units(plain.levels().size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    const Row &row = plain.row(i);
    const std::string &bench = plain.benchmarks()[row.benchmark];
    const std::string &system = plain.systems()[row.system];
    for (std::size_t l = 0; l < units.size(); ++l)
      units[l] = plain.label(i, l);
    if (bench == "b1") {
      mixed.add(system, "tiny", units, row.value * 1e-320);
      mixed.add(system, "ordinary", units, row.value);
      ordinary.add(system, "ordinary", units, row.value);
    } else if (bench == "b2") {
      mixed.add(system, "huge", units, row.value * 5e307);
      mixed.add(system, "second", units, row.value);
      ordinary.add(system, "second", units, row.value);
    }
  }
  ReportOptions o;
  o.seed = 3;
  const Report r = reportOf(mixed, o), ref = reportOf(ordinary, o);
  ASSERT_EQ(r.benchmarks.size(), 4u);
  ASSERT_EQ(ref.benchmarks.size(), 2u);
  const BenchmarkReport &tiny = r.benchmarks[0], &ord = r.benchmarks[1], &huge = r.benchmarks[2],
                        &second = r.benchmarks[3];
  EXPECT_EQ(tiny.name, "tiny");
  EXPECT_EQ(huge.name, "huge");
  // The subnormal benchmark: refused, with the count, the range and why.
  EXPECT_EQ(tiny.error.rfind("24 of 24 values are subnormal (from ", 0), 0u) << tiny.error;
  EXPECT_NE(tiny.error.find("express them in a larger unit"), std::string::npos) << tiny.error;
  EXPECT_TRUE(tiny.systems.empty());
  EXPECT_TRUE(tiny.ratios.empty());
  // The huge one: statistics in its unit, and its own warning.
  ASSERT_TRUE(huge.error.empty()) << huge.error;
  ASSERT_EQ(huge.ratios.size(), 1u);
  EXPECT_NEAR(huge.ratios[0].estimate, second.ratios[0].estimate, 1e-12);
  ASSERT_TRUE(huge.ratios[0].fieller);
  EXPECT_NEAR(huge.systems[0].mean, 5e307 * 2.031, 1e304);
  EXPECT_TRUE(std::isfinite(huge.systems[0].ci.interval.upper));
  EXPECT_TRUE(std::any_of(huge.warnings.begin(), huge.warnings.end(), [](const std::string &w) {
    return w.find("the variance components (S2, T2) exceed the double range") != std::string::npos;
  }));
  // The ordinary ones: bit for bit what they get alone.
  for (std::size_t k = 0; k < 2; ++k) {
    const BenchmarkReport &x = k == 0 ? ord : second, &y = ref.benchmarks[k];
    SCOPED_TRACE(x.name);
    ASSERT_TRUE(x.error.empty()) << x.error;
    ASSERT_EQ(x.ratios.size(), 1u);
    EXPECT_EQ(x.ratios[0].estimate, y.ratios[0].estimate);
    ASSERT_TRUE(x.ratios[0].fieller);
    EXPECT_EQ(x.ratios[0].fieller->lower, y.ratios[0].fieller->lower);
    EXPECT_EQ(x.ratios[0].fieller->upper, y.ratios[0].fieller->upper);
    EXPECT_EQ(x.ratios[0].bootstrap.lower, y.ratios[0].bootstrap.lower);
    EXPECT_EQ(x.ratios[0].bootstrap.upper, y.ratios[0].bootstrap.upper);
    EXPECT_EQ(x.ratios[0].decision, Decision::Faster);
    EXPECT_EQ(x.systems[0].mean, y.systems[0].mean);
    EXPECT_EQ(x.warnings, y.warnings);
  }
  // The suite: over the three benchmarks with a ratio, naming the fourth.
  ASSERT_EQ(r.suite.size(), 1u);
  EXPECT_EQ(r.suite[0].benchmarks, 3u);
  EXPECT_EQ(r.suite[0].leftOut, std::vector<std::string>{"tiny"});
  EXPECT_EQ(r.suite[0].faster, 3u);
  ASSERT_EQ(r.suiteSystems.size(), 2u);
  EXPECT_EQ(r.suiteSystems[0].benchmarks, 3u);
  EXPECT_EQ(r.suiteSystems[0].leftOut, std::vector<std::string>{"tiny"});
  EXPECT_TRUE(ref.suite[0].leftOut.empty());
  // The report's general warnings are not about any one benchmark's values.
  for (const auto &w : r.warnings)
    EXPECT_EQ(w.find("values from"), std::string::npos) << w;
}

// A Table from any source (the runner's store, a test) is checked per
// benchmark too: a zero or negative value refuses its benchmark, not the
// report; when no benchmark is left, the report fails naming each one.
TEST(Report, ValuesRefusedPerBenchmark) {
  Table t({"build"});
  for (int b = 0; b < 3; ++b) {
    const std::string bl = std::to_string(b);
    const std::string_view u[] = {bl};
    t.add("base", "zero", u, b == 1 ? 0.0 : 1.0 + 0.01 * b);
    t.add("cand", "zero", u, 0.9 + 0.01 * b);
    t.add("base", "fine", u, 1.0 + 0.01 * b);
    t.add("cand", "fine", u, 0.9 + 0.01 * b);
  }
  const Report r = reportOf(t);
  ASSERT_EQ(r.benchmarks.size(), 2u);
  EXPECT_EQ(r.benchmarks[0].error,
            "1 of 6 values is not positive (0); a time is a finite number > 0");
  ASSERT_EQ(r.benchmarks[1].ratios.size(), 1u);
  EXPECT_TRUE(r.suite.empty()); // one benchmark with a ratio: no suite

  Table both({"build"});
  for (int b = 0; b < 2; ++b) {
    const std::string bl = std::to_string(b);
    const std::string_view u[] = {bl};
    both.add("a", "x", u, 1e-310);
    both.add("a", "y", u, -1.0);
  }
  auto bad = buildReport(both);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("no benchmark could be analysed: benchmark \"x\": 2 of 2 values "
                              "are subnormal (1e-310)",
                              0),
            0u)
      << bad.error();
  EXPECT_NE(bad.error().find("; benchmark \"y\": 2 of 2 values are not positive (-1); a time is "
                             "a finite number > 0"),
            std::string::npos)
      << bad.error();
}

TEST(Report, ParseFractionAndCosts) {
  EXPECT_DOUBLE_EQ(*parseFraction("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(*parseFraction("2.5%"), 0.025);
  EXPECT_FALSE(parseFraction("x%").ok());
  const std::vector<std::string> lv = {"build", "execution", "iteration"};
  EXPECT_EQ(*parseCosts("5343,19", lv), (std::vector<double>{5343, 19}));
  EXPECT_EQ(*parseCosts("execution=19,build=5343", lv), (std::vector<double>{5343, 19}));
  EXPECT_EQ(parseCosts("1", lv).error(),
            "expected 2 costs (one per level except the lowest: build,execution), got 1");
  EXPECT_EQ(parseCosts("build=1", lv).error(), "no cost for level \"execution\"");
  EXPECT_EQ(parseCosts("build=1,iteration=2", lv).error(),
            "the lowest level (iteration) has no overhead: costs are in units of one of its "
            "measurements");
  EXPECT_EQ(parseCosts("1,-2", lv).error(), "cost \"-2\" is not a number >= 0");
  EXPECT_EQ(describeRatio(0.962), "3.8% faster");
  EXPECT_EQ(describeRatio(1.021), "2.1% slower");
}

TEST(Report, TableBuiltDirectlyAsTheRunnerDoes) {
  // No CSV: the runner fills a Table from its store.
  Table t({"build", "execution"});
  for (int b = 0; b < 3; ++b)
    for (int e = 0; e < 2; ++e) {
      std::string bl = "b"; // (appended: GCC 12 -Wrestrict false positive on "b" + ...)
      bl += std::to_string(b);
      const std::string el = std::to_string(e);
      const std::string_view units[] = {bl, el};
      t.add("base", "prog", units, 2.0 + 0.1 * b + 0.01 * e);
      t.add("cand", "prog", units, 1.0 + 0.1 * b + 0.01 * e);
    }
  Report r = reportOf(t);
  ASSERT_EQ(r.benchmarks.size(), 1u);
  EXPECT_EQ(r.benchmarks[0].name, "prog");
  // base mean 2.105, cand mean 1.105.
  EXPECT_NEAR(r.benchmarks[0].ratios[0].estimate, 1.105 / 2.105, 1e-12);
  EXPECT_EQ(r.benchmarks[0].ratios[0].decision, Decision::Faster);
  // One top-level unit (e.g. every other build failed) is refused clearly.
  Table one({"build"});
  const std::string_view u0[] = {"0"};
  one.add("base", "", u0, 1.0);
  one.add("cand", "", u0, 1.0);
  auto bad = buildReport(one);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "system \"base\" has only 1 build; a confidence interval needs at "
                         "least 2");
}

TEST(Report, DiagnosticsBecomeWarnings) {
  // base: 8 builds in two layout modes (means ~1.00 and ~1.10) and
  // executions whose iterations keep falling (warm-up left in the data).
  Table t({"build", "execution", "iteration"});
  for (int b = 0; b < 8; ++b)
    for (int e = 0; e < 3; ++e)
      for (int i = 0; i < 10; ++i) {
        const std::string bl = std::to_string(b), el = std::to_string(e), il = std::to_string(i);
        const std::string_view units[] = {bl, el, il};
        const double mode = b % 2 ? 1.10 : 1.00;
        const double jitter = 0.001 * ((b * 7 + e * 3 + i * 5) % 11);
        t.add("base", "", units, mode + jitter + 0.02 * (10 - i));
        t.add("cand", "", units, 1.0 + jitter + 0.001 * b);
      }
  Report r = reportOf(t);
  const auto &d = r.benchmarks[0].systems[0].diagnostics;
  ASSERT_TRUE(d.ok) << d.error;
  EXPECT_TRUE(d.modesTested);
  EXPECT_TRUE(d.multimodal);
  EXPECT_EQ(d.lowUnits, 4u);
  EXPECT_EQ(d.highUnits, 4u);
  EXPECT_TRUE(d.trendsTested);
  EXPECT_EQ(d.trendExecutions, 24u);
  EXPECT_EQ(d.trendFlagged, 24u);
  EXPECT_EQ(d.trendDecreasing, 24u);
  const auto &w = r.benchmarks[0].warnings;
  auto has = [&](const std::string &needle) {
    for (const auto &s : w)
      if (s.find(needle) != std::string::npos)
        return true;
    return false;
  };
  EXPECT_TRUE(has("base: build means form two clusters (4 low, 4 high"));
  EXPECT_TRUE(has("apart): layout modes")); // builds are layouts
  EXPECT_TRUE(has("base: 24 of 24 executions still trend over their iterations (24 "
                  "decreasing: warm-up not over?)"));
  EXPECT_FALSE(r.benchmarks[0].systems[1].diagnostics.multimodal);
}

// Executions on top (a campaign of one build per system, `alea compare
// --cmd`): two clusters of execution means are modes, not layout modes.
TEST(Report, ModesOfExecutionsAreNotCalledLayoutModes) {
  Table t({"execution"});
  for (int e = 0; e < 12; ++e) {
    const std::string el = std::to_string(e);
    const std::string_view units[] = {el};
    const double jitter = 0.001 * ((e * 7) % 11);
    t.add("base", "", units, (e % 2 ? 1.10 : 1.00) + jitter);
    t.add("cand", "", units, 1.0 + jitter);
  }
  Report r = reportOf(t);
  ASSERT_TRUE(r.benchmarks[0].systems[0].diagnostics.multimodal);
  bool modes = false;
  for (const auto &w : r.benchmarks[0].warnings) {
    modes |= w.find("base: execution means form two clusters (6 low, 6 high") == 0;
    EXPECT_EQ(w.find("layout"), std::string::npos) << w;
  }
  EXPECT_TRUE(modes);
}

TEST(Report, AnyNumberOfLevels) {
  // Four levels (machine > build > execution > iteration) and one level.
  Table four({"machine", "build", "execution", "iteration"});
  Table one({"build"});
  for (int m = 0; m < 2; ++m)
    for (int b = 0; b < 2; ++b)
      for (int e = 0; e < 2; ++e)
        for (int i = 0; i < 3; ++i) {
          const std::string ml = std::to_string(m), bl = std::to_string(b), el = std::to_string(e),
                            il = std::to_string(i);
          const std::string_view units[] = {ml, bl, el, il};
          const double v = 1.0 + 0.05 * m + 0.01 * b + 0.003 * e + 0.001 * i;
          four.add("base", "", units, v);
          four.add("cand", "", units, 0.9 * v);
        }
  for (int b = 0; b < 5; ++b) {
    const std::string bl = std::to_string(b);
    const std::string_view units[] = {bl};
    one.add("base", "", units, 1.0 + 0.01 * b);
    one.add("cand", "", units, 0.9 + 0.01 * b);
  }
  Report r4 = reportOf(four);
  ASSERT_EQ(r4.benchmarks[0].systems[0].levels.size(), 4u);
  EXPECT_EQ(r4.benchmarks[0].systems[0].shape, (std::vector<std::size_t>{2, 2, 2, 3}));
  EXPECT_NEAR(r4.benchmarks[0].ratios[0].estimate, 0.9, 1e-12);
  ASSERT_TRUE(r4.benchmarks[0].systems[0].plan.ok) << r4.benchmarks[0].systems[0].plan.error;
  EXPECT_EQ(r4.benchmarks[0].systems[0].plan.counts.size(), 4u);
  Report r1 = reportOf(one);
  ASSERT_EQ(r1.benchmarks[0].systems[0].levels.size(), 1u);
  EXPECT_DOUBLE_EQ(r1.benchmarks[0].systems[0].levels[0].share, 1.0);
  EXPECT_NEAR(r1.benchmarks[0].ratios[0].estimate, 0.92 / 1.02, 1e-12);
  EXPECT_FALSE(r1.benchmarks[0].systems[0].diagnostics.trendsTested);
  EXPECT_TRUE(r1.benchmarks[0].systems[0].diagnostics.modesTested);
}

namespace {

using test::touatiSuiteTable;

} // namespace

TEST(Report, SuiteProportionBenchmarksNeededAndGainFactor) {
  Report r = reportOf(touatiSuiteTable());
  ASSERT_EQ(r.benchmarks.size(), 3u);
  EXPECT_EQ(r.benchmarks[0].ratios[0].decision, Decision::Faster);
  EXPECT_EQ(r.benchmarks[1].ratios[0].decision, Decision::Faster);
  EXPECT_NE(r.benchmarks[2].ratios[0].decision, Decision::Faster);
  ASSERT_EQ(r.suite.size(), 1u);
  const SuiteRatioReport &s = r.suite[0];
  EXPECT_EQ(s.faster, 2u);
  // Seed 002 §1.5 with R: prop.test(2, 3)$conf.int = [0.1253345, 0.9823472].
  ASSERT_TRUE(s.proportion) << s.proportionError;
  EXPECT_EQ(s.proportion->accelerated, 2u);
  EXPECT_EQ(s.proportion->benchmarks, 3u);
  EXPECT_NEAR(s.proportion->proportion, 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(s.proportion->lower, 0.1253345, 1e-7);
  EXPECT_NEAR(s.proportion->upper, 0.9823472, 1e-7);
  EXPECT_FALSE(s.proportion->normalApproximationValid); // 3 * 2/3 < 10
  // ceil(1.959964^2 C (1 - C) / 0.05^2): 341.46 -> 342 at C = 2/3, 384.15 ->
  // 385 at C = 1/2.
  EXPECT_DOUBLE_EQ(s.proportionHalfWidth, 0.05);
  ASSERT_TRUE(s.benchmarksNeeded);
  EXPECT_EQ(*s.benchmarksNeeded, 342u);
  ASSERT_TRUE(s.benchmarksNeededWorstCase);
  EXPECT_EQ(*s.benchmarksNeededWorstCase, 385u);
  // Gain factor on the medians of the build means: base 1.016, 2.031, 1.016;
  // cand 0.916, 1.831, 1.016.
  const double tb[] = {1.016, 2.031, 1.016}, tc[] = {0.916, 1.831, 1.016};
  double num = 0, den = 0, numU = 0, denU = 0;
  for (int k = 0; k < 3; ++k) {
    num += tb[k] * tc[k];
    den += tb[k] * tb[k];
    numU += tc[k];
    denU += tb[k];
  }
  ASSERT_TRUE(s.gainAll && s.gainAllUnitWeights);
  EXPECT_NEAR(*s.gainAll, 1 - num / den, 1e-12);
  EXPECT_NEAR(*s.gainAllUnitWeights, 1 - numU / denU, 1e-12);
  ASSERT_TRUE(s.gainFaster && s.gainFasterUnitWeights);
  EXPECT_NEAR(*s.gainFaster, 1 - (tb[0] * tc[0] + tb[1] * tc[1]) / (tb[0] * tb[0] + tb[1] * tb[1]),
              1e-12);
  EXPECT_NEAR(*s.gainFasterUnitWeights, 1 - (tc[0] + tc[1]) / (tb[0] + tb[1]), 1e-12);
  // The library functions on the same inputs.
  const BenchmarkMedians m[] = {{tb[0], tc[0]}, {tb[1], tc[1]}, {tb[2], tc[2]}};
  EXPECT_NEAR(*s.gainAll, *gainFactor(m), 1e-12);
  ReportOptions o;
  o.proportionHalfWidth = 0.1;
  Report wide = reportOf(touatiSuiteTable(), o);
  EXPECT_EQ(*wide.suite[0].benchmarksNeeded, *benchmarksNeeded(2.0 / 3.0, 0.1));
  EXPECT_EQ(*wide.suite[0].benchmarksNeeded, 86u); // 85.37
  o.proportionHalfWidth = 0;
  EXPECT_FALSE(buildReport(touatiSuiteTable(), o).ok());
}

// cand 5% slower on both benchmarks: 0 of 2 faster. C(1 - C) = 0 asks for
// "1 benchmark" at the observed proportion: no estimate; the worst case is
// the advice.
TEST(Report, SuiteNoneFasterHasNoObservedBenchmarksNeeded) {
  const Table t = test::noneFasterSuiteTable();
  Report r = reportOf(t);
  ASSERT_EQ(r.suite.size(), 1u);
  const SuiteRatioReport &s = r.suite[0];
  ASSERT_TRUE(s.proportion);
  EXPECT_EQ(s.proportion->accelerated, 0u);
  EXPECT_FALSE(s.benchmarksNeeded);
  ASSERT_TRUE(s.benchmarksNeededWorstCase);
  EXPECT_EQ(*s.benchmarksNeededWorstCase, 385u);
}

// A mean's t interval from few builds can reach below zero; the values are
// positive, so the report says so (and how to read it), for that system only.
TEST(Report, MeanIntervalBelowZeroIsNoted) {
  auto p = parseCsv("system,build,value\nwide,1,0.1\nwide,2,5\n"
                    "tight,1,1.00\ntight,2,1.01\n");
  ASSERT_FALSE(p.error);
  Report r = reportOf(*p.table);
  ASSERT_LT(r.benchmarks[0].systems[0].ci.interval.lower, 0);
  const auto &w = r.benchmarks[0].warnings;
  EXPECT_NE(std::find(w.begin(), w.end(),
                      "wide: the t interval of the mean reaches below zero, which no measured "
                      "value can (2 builds: few degrees of freedom): read its lower bound as 0, "
                      "or use the bootstrap interval, and run more builds"),
            w.end());
  for (const auto &x : w)
    EXPECT_EQ(x.find("tight: the t interval"), std::string::npos) << x;
}

TEST(Report, SuiteEmpiricalDistributionPerSystem) {
  ReportOptions o;
  o.seed = 11;
  Report r = reportOf(touatiSuiteTable(), o);
  ASSERT_EQ(r.suiteSystems.size(), 2u);
  const SuiteSystemReport &base = r.suiteSystems[0];
  EXPECT_EQ(base.name, "base");
  EXPECT_EQ(base.benchmarks, 3u);
  EXPECT_EQ(base.replicates, o.bootstrapReplicates);
  // Observed: geometric mean of the benchmark means 1.016, 2.031, 1.016.
  EXPECT_NEAR(base.observed, std::cbrt(1.016 * 2.031 * 1.016), 1e-12);
  // Each draw takes one build mean per benchmark: between the geometric
  // means of the smallest (1.001, 2.001) and largest (1.031, 2.061) ones.
  EXPECT_GE(base.summary.minimum, std::cbrt(1.001 * 2.001 * 1.001) - 1e-12);
  EXPECT_LE(base.summary.maximum, std::cbrt(1.031 * 2.061 * 1.031) + 1e-12);
  EXPECT_LE(base.summary.minimum, base.summary.q1);
  EXPECT_LE(base.summary.q1, base.summary.median);
  EXPECT_LE(base.summary.median, base.summary.q3);
  EXPECT_LE(base.summary.q3, base.summary.maximum);
  // Exactly resampling.hpp's empiricalDistribution on the build means, with
  // the documented seed.
  const std::vector<std::vector<double>> runs = {
      {1.001, 1.011, 1.021, 1.031}, {2.001, 2.021, 2.041, 2.061}, {1.001, 1.011, 1.021, 1.031}};
  EmpiricalOptions eo;
  eo.replicates = o.bootstrapReplicates;
  eo.seed = alea::mixSeed(o.seed, "empirical/base");
  auto e = empiricalDistribution(runs, eo);
  ASSERT_TRUE(e.ok());
  EXPECT_NEAR(base.summary.median, e->summary.median, 1e-12);
  EXPECT_NEAR(base.summary.q1, e->summary.q1, 1e-12);
  EXPECT_NEAR(base.summary.maximum, e->summary.maximum, 1e-12);
  EXPECT_EQ(r.suiteSystems[1].name, "cand");
  EXPECT_LT(r.suiteSystems[1].observed, base.observed);
  // One benchmark: no suite section.
  EXPECT_TRUE(reportOf(table5()).suiteSystems.empty());
}
