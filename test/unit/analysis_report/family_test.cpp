// Holm's family of comparisons (family.hpp, issue 10): the step-down adjusted
// p-values and ranks against R's p.adjust(p, "holm") (test/r/compute_holm.R ->
// golden/holm.csv); the threshold p-value by bisection against closed forms
// (a t interval; Fieller's interval from the top-level means); the bootstrap
// p-value's count; Holm's decision; and the report: four systems where two
// candidates differ from the baseline and one does not, and all pairs.
#include "alea/analysis/family.hpp"
#include "alea/analysis/math_policy.hpp"
#include "alea/analysis/report.hpp"

#include "../analysis_core/normal_source.hpp"
#include "../analysis_methods/golden_io.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace alea::analysis;
namespace rt = alea::analysis::testing;

TEST(HolmFamily, AdjustedPValuesAndRanksMatchR) {
  const auto golden = rt::readGolden("holm.csv");
  ASSERT_EQ(golden.size(), 4u);
  for (const auto &[id, g] : golden) {
    SCOPED_TRACE(id);
    std::vector<double> p;
    while (g.count("p." + std::to_string(p.size())))
      p.push_back(g.at("p." + std::to_string(p.size())));
    ASSERT_GE(p.size(), 3u);
    const auto steps = holmSteps(p, 0.05);
    ASSERT_EQ(steps.size(), p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
      const std::string k = std::to_string(i);
      EXPECT_TRUE(rt::closeRelative(steps[i].adjustedP, g.at("holm." + k), 1e-12)) << i;
      EXPECT_EQ(static_cast<double>(steps[i].rank), g.at("rank." + k)) << i;
      const double m = static_cast<double>(p.size());
      EXPECT_DOUBLE_EQ(steps[i].level, 1 - 0.05 / (m - static_cast<double>(steps[i].rank)));
      EXPECT_EQ(steps[i].rejected, g.at("holm." + k) <= 0.05) << i;
    }
  }
  // "mixed": the smallest p (0.005, x6 = 0.03) and 0.01 (x5 = 0.05, on the
  // boundary) are rejected, then 0.03 (x4 = 0.12) stops the procedure.
  const auto mixed = holmSteps(std::vector<double>{0.01, 0.04, 0.03, 0.2, 0.005, 0.5}, 0.05);
  EXPECT_TRUE(mixed[4].rejected);
  EXPECT_TRUE(mixed[0].rejected);
  EXPECT_FALSE(mixed[2].rejected);
}

TEST(HolmFamily, DecisionNeedsHolmToReject) {
  // p = 0.02, 0.02 of m = 3: the first is tested at 1 - 0.05/3 and kept, so
  // the second stays kept although p <= 0.05/2 (its own level's interval
  // would lie beyond the band).
  const auto steps = holmSteps(std::vector<double>{0.02, 0.02, 0.5}, 0.05);
  EXPECT_FALSE(steps[0].rejected);
  EXPECT_FALSE(steps[1].rejected);
  const Interval faster{0.90, 0.95}, within{0.995, 1.005}, across{0.95, 1.05};
  EXPECT_EQ(holmDecision(faster, 0.01, steps[1]), Decision::Inconclusive);
  EXPECT_EQ(holmDecision(within, 0.01, steps[1]), Decision::NoChange);
  EXPECT_EQ(holmDecision(across, 0.01, steps[1]), Decision::Inconclusive);
  EXPECT_EQ(holmDecision(std::nullopt, 0.01, steps[1]), Decision::Inconclusive);
  HolmStep rejected;
  rejected.rejected = true;
  EXPECT_EQ(holmDecision(faster, 0.01, rejected), Decision::Faster);
  EXPECT_EQ(holmDecision(Interval{1.02, 1.1}, 0.01, rejected), Decision::Slower);
  EXPECT_EQ(holmDecision(across, 0.01, rejected), Decision::Inconclusive);
}

TEST(HolmFamily, ThresholdPValueOfATIntervalIsTheTTestsPValue) {
  // estimate +- t_{1-alpha/2,nu} se lies below 1 - thr iff alpha >= 2 P(T_nu
  // > (1 - thr - estimate) / se): bisection must find that alpha.
  const double se = 0.01, thr = 0.01;
  const double nu = 7;
  for (double estimate : {0.97, 0.985, 0.9899, 1.02, 1.05, 1.3}) {
    SCOPED_TRACE(estimate);
    const auto tInterval = [&](double confidence) -> std::optional<Interval> {
      const double h = tQuantileTwoSided(confidence, nu) * se;
      return Interval{estimate - h, estimate + h};
    };
    const double edge = estimate < 1 ? 1 - thr : 1 + thr;
    const double t = std::fabs(edge - estimate) / se;
    const double expected = 2 * boost::math::cdf(boost::math::complement(StudentsT(nu), t));
    const double p = thresholdPValue(tInterval, estimate, thr);
    if (expected < kMinThresholdPValue)
      EXPECT_EQ(p, kMinThresholdPValue);
    else
      EXPECT_TRUE(rt::closeRelative(p, expected, 1e-6)) << p << " vs " << expected;
  }
  // Inside the band (or on its edge): never beyond it.
  const auto point = [](double) -> std::optional<Interval> { return Interval{0.995, 0.995}; };
  EXPECT_EQ(thresholdPValue(point, 0.995, thr), 1);
  EXPECT_EQ(thresholdPValue(point, 0.99, thr), 1);
  // Unbounded at every level: never beyond it either.
  const auto unbounded = [](double) -> std::optional<Interval> { return std::nullopt; };
  EXPECT_EQ(thresholdPValue(unbounded, 0.5, thr), 1);
}

TEST(HolmFamily, BootstrapPValueCountsTheReplicatesAcrossTheBandEdge) {
  // 99 replicates: 4 at or above 0.99 for an estimate below the band.
  std::vector<double> r(99, 0.95);
  r[0] = 0.99;
  r[1] = 1.0;
  r[2] = 1.2;
  r[3] = INFINITY; // a resampled baseline mean of 0
  EXPECT_DOUBLE_EQ(bootstrapThresholdPValue(r, 0.95, 0.01), 2.0 * 5 / 100);
  // Above the band: replicates at or below 1.01 count.
  std::vector<double> s(99, 1.2);
  s[0] = 1.01;
  EXPECT_DOUBLE_EQ(bootstrapThresholdPValue(s, 1.2, 0.01), 2.0 * 2 / 100);
  EXPECT_EQ(bootstrapThresholdPValue(s, 1.0, 0.01), 1); // inside the band
  EXPECT_EQ(bootstrapThresholdPValue({}, 1.2, 0.01), 1);
  EXPECT_EQ(bootstrapThresholdPValue(std::vector<double>(9, 1.0), 1.2, 0.01), 1); // capped
}

namespace {

// Systems on one benchmark, 10 builds x 4 iterations each, fixed seed, each
// `factor` times the baseline's time.
Table systemsTable(const std::vector<std::pair<std::string, double>> &systems) {
  Table t({"build", "iteration"});
  alea::analysis::test::NormalSource normal{alea::Rng(0x4011ULL)};
  for (const auto &[name, factor] : systems)
    for (int b = 0; b < 10; ++b) {
      const double build = 0.01 * normal.next();
      for (int i = 0; i < 4; ++i) {
        const std::string bl = std::to_string(b), il = std::to_string(i);
        const std::string_view units[] = {bl, il};
        t.add(name, "", units, factor * (1 + build + 0.01 * normal.next()));
      }
    }
  return t;
}

// "base"; "fast" and "slow" 10% either way; "same" as the baseline.
Table fourSystems() {
  return systemsTable({{"base", 1.0}, {"fast", 0.9}, {"slow", 1.1}, {"same", 1.0}});
}

// Fieller's threshold p-value in closed form (unpaired, t with nu = n - 1):
// theta0 lies outside the interval iff t^2 < (m - theta0 d)^2 / (v_mm +
// theta0^2 v_dd), and the interval is bounded iff t^2 < d^2 / v_dd; 1 when
// the estimate lies inside the band.
double fiellerPValue(const std::vector<double> &c, const std::vector<double> &b, double thr) {
  const auto moments = [](const std::vector<double> &x, double &mean, double &varOfMean) {
    mean = 0;
    for (double v : x)
      mean += v;
    mean /= static_cast<double>(x.size());
    double ss = 0;
    for (double v : x)
      ss += (v - mean) * (v - mean);
    varOfMean = ss / static_cast<double>(x.size() - 1) / static_cast<double>(x.size());
  };
  double m, vmm, d, vdd;
  moments(c, m, vmm);
  moments(b, d, vdd);
  if (std::fabs(m / d - 1) <= thr)
    return 1; // the estimate lies inside the band
  const double theta0 = m / d < 1 ? 1 - thr : 1 + thr;
  const double t0 = std::fabs(m - theta0 * d) / std::sqrt(vmm + theta0 * theta0 * vdd);
  const double bound = d / std::sqrt(vdd);
  const StudentsT dist(static_cast<double>(c.size() - 1));
  return 2 * boost::math::cdf(boost::math::complement(dist, std::min(t0, bound)));
}

std::vector<double> buildMeans(const Table &t, const std::string &system) {
  std::vector<double> sum(10, 0);
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t.systems()[t.row(i).system] == system)
      sum[std::stoul(t.label(i, 0))] += t.row(i).value / 4;
  return sum;
}

} // namespace

TEST(HolmFamily, FourSystemsTwoCandidatesDifferOneDoesNot) {
  const Table t = fourSystems();
  auto r = buildReport(t);
  ASSERT_TRUE(r.ok()) << r.error();
  const BenchmarkReport &b = r->benchmarks[0];
  ASSERT_EQ(b.ratios.size(), 3u);
  EXPECT_TRUE(b.pairs.empty()); // allPairs is off
  for (const RatioReport &x : b.ratios) {
    SCOPED_TRACE(x.candidate);
    ASSERT_TRUE(x.family);
    EXPECT_EQ(x.family->size, 3u);
    EXPECT_EQ(x.decisionBasis, "fieller");
    // The p-value of Fieller's interval, from the build means.
    const double expected = fiellerPValue(buildMeans(t, x.candidate), buildMeans(t, "base"), 0.01);
    EXPECT_TRUE(rt::closeRelative(x.family->pValue, std::max(expected, kMinThresholdPValue), 1e-6))
        << x.family->pValue << " vs " << expected;
    // Holm's level is stricter than the report's: the interval widens.
    EXPECT_DOUBLE_EQ(x.family->level, 1 - 0.05 / static_cast<double>(3 - x.family->rank));
    ASSERT_TRUE(x.family->interval);
    ASSERT_TRUE(x.fieller);
    EXPECT_LE(x.family->interval->lower, x.fieller->lower);
    EXPECT_GE(x.family->interval->upper, x.fieller->upper);
  }
  const RatioReport &fast = b.ratios[0], &slow = b.ratios[1], &same = b.ratios[2];
  ASSERT_EQ(fast.candidate, "fast");
  ASSERT_EQ(same.candidate, "same");
  EXPECT_EQ(fast.family->decision, Decision::Faster);
  EXPECT_EQ(slow.family->decision, Decision::Slower);
  EXPECT_LT(fast.family->adjustedP, 1e-6);
  EXPECT_LT(slow.family->adjustedP, 1e-6);
  EXPECT_NE(same.family->decision, Decision::Faster);
  EXPECT_NE(same.family->decision, Decision::Slower);
  EXPECT_EQ(same.family->rank, 2u); // the largest p-value
  EXPECT_GT(same.family->adjustedP, 0.05);
  EXPECT_EQ(same.family->level, 0.95);
}

TEST(HolmFamily, FiellerPValueMatchesItsClosedForm) {
  // Differences of 1.6-3% against 1% noise: p-values well inside (0, 1).
  const Table t = systemsTable({{"base", 1.0}, {"a", 0.975}, {"b", 1.03}, {"c", 0.984}});
  auto r = buildReport(t);
  ASSERT_TRUE(r.ok()) << r.error();
  std::size_t moderate = 0;
  for (const RatioReport &x : r->benchmarks[0].ratios) {
    SCOPED_TRACE(x.candidate);
    ASSERT_TRUE(x.family);
    const double expected = fiellerPValue(buildMeans(t, x.candidate), buildMeans(t, "base"), 0.01);
    EXPECT_TRUE(rt::closeRelative(x.family->pValue, expected, 1e-6))
        << x.family->pValue << " vs " << expected;
    moderate += expected > 1e-6 && expected < 0.9;
  }
  EXPECT_GE(moderate, 2u);
}

TEST(HolmFamily, AllPairsAreComparedLikeTheBaselineRatios) {
  const Table t = fourSystems();
  ReportOptions o;
  o.allPairs = true;
  auto r = buildReport(t, o);
  ASSERT_TRUE(r.ok()) << r.error();
  const BenchmarkReport &b = r->benchmarks[0];
  ASSERT_EQ(b.ratios.size(), 3u);
  ASSERT_EQ(b.pairs.size(), 3u);
  // The later in table order over the earlier.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"slow", "fast"}, {"same", "fast"}, {"same", "slow"}};
  std::vector<std::size_t> ranks;
  for (std::size_t i = 0; i < 3; ++i) {
    const RatioReport &p = b.pairs[i];
    SCOPED_TRACE(p.candidate + "/" + p.baseline);
    EXPECT_EQ(p.candidate, expected[i].first);
    EXPECT_EQ(p.baseline, expected[i].second);
    ASSERT_TRUE(p.family);
    EXPECT_EQ(p.family->size, 6u);
    ranks.push_back(p.family->rank);
    // The same computation as a baseline ratio: the pair as a two-system
    // report with the earlier system as the baseline gives the same
    // estimate, Fieller interval, planner advice and Speedup-Test.
    Table two({"build", "iteration"});
    for (std::size_t k = 0; k < t.size(); ++k) {
      const std::string &s = t.systems()[t.row(k).system];
      if (s != p.candidate && s != p.baseline)
        continue;
      const std::string_view units[] = {t.label(k, 0), t.label(k, 1)};
      two.add(s, "", units, t.row(k).value);
    }
    ReportOptions po;
    po.baseline = p.baseline;
    auto single = buildReport(two, po);
    ASSERT_TRUE(single.ok()) << single.error();
    const RatioReport &q = single->benchmarks[0].ratios.at(0);
    EXPECT_EQ(q.candidate, p.candidate);
    EXPECT_EQ(p.estimate, q.estimate);
    ASSERT_TRUE(p.fieller && q.fieller);
    EXPECT_EQ(p.fieller->lower, q.fieller->lower);
    EXPECT_EQ(p.fieller->upper, q.fieller->upper);
    EXPECT_EQ(p.decision, q.decision);
    EXPECT_EQ(p.ratioPlan.counts, q.ratioPlan.counts);
    ASSERT_TRUE(p.speedupTest && q.speedupTest);
    EXPECT_EQ(p.speedupTest->meanSpeedup, q.speedupTest->meanSpeedup);
    EXPECT_FALSE(q.family); // one comparison: no family
    // The bootstrap has its own seed: close, not identical.
    EXPECT_NEAR(p.bootstrap.lower, q.bootstrap.lower, 0.02);
  }
  for (const RatioReport &x : b.ratios) {
    ASSERT_TRUE(x.family);
    EXPECT_EQ(x.family->size, 6u);
    ranks.push_back(x.family->rank);
  }
  std::sort(ranks.begin(), ranks.end());
  EXPECT_EQ(ranks, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  // The baseline ratios are those of the report without pairs.
  auto plain = buildReport(t);
  ASSERT_TRUE(plain.ok());
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(b.ratios[i].bootstrap.lower, plain->benchmarks[0].ratios[i].bootstrap.lower);
    EXPECT_EQ(b.ratios[i].decision, plain->benchmarks[0].ratios[i].decision);
  }
}

TEST(HolmFamily, UnboundedFiellerTakesTheBootstrapReplicates) {
  // The baseline's two builds are 0.1 and 10 s: its mean is not
  // significantly above 0, Fieller is unbounded, the bootstrap decides.
  Table t({"build", "iteration"});
  const std::vector<std::pair<std::string, std::vector<double>>> data = {
      {"base", {0.1, 0.1, 10, 10.1}}, {"a", {1, 1.1, 1.05, 1.1}}, {"b", {2, 2.2, 2.1, 2.05}}};
  for (const auto &[name, values] : data)
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string bl = std::to_string(i / 2), il = std::to_string(i % 2);
      const std::string_view units[] = {bl, il};
      t.add(name, "", units, values[i]);
    }
  ReportOptions o;
  o.diagnostics = false;
  o.speedupTest = false;
  auto r = buildReport(t, o);
  ASSERT_TRUE(r.ok()) << r.error();
  for (const RatioReport &x : r->benchmarks[0].ratios) {
    SCOPED_TRACE(x.candidate);
    EXPECT_EQ(x.decisionBasis, "bootstrap");
    ASSERT_TRUE(x.family);
    // 2 (c + 1) / (B + 1) with B = 2000: a multiple of 2/2001.
    const double units = x.family->pValue * 2001 / 2;
    EXPECT_NEAR(units, std::round(units), 1e-9);
    EXPECT_GE(std::round(units), 1);
    ASSERT_TRUE(x.family->interval); // percentiles at Holm's level
    EXPECT_LE(x.family->interval->lower, x.bootstrap.lower);
    EXPECT_GE(x.family->interval->upper, x.bootstrap.upper);
  }
}

TEST(HolmFamily, TwoSystemsHaveNoFamily) {
  Table t = fourSystems();
  Table two({"build", "iteration"});
  for (std::size_t k = 0; k < t.size(); ++k) {
    const std::string &s = t.systems()[t.row(k).system];
    if (s == "base" || s == "fast") {
      const std::string_view units[] = {t.label(k, 0), t.label(k, 1)};
      two.add(s, "", units, t.row(k).value);
    }
  }
  ReportOptions o;
  o.allPairs = true; // no pair of candidates with one candidate
  auto r = buildReport(two, o);
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->benchmarks[0].ratios.size(), 1u);
  EXPECT_FALSE(r->benchmarks[0].ratios[0].family);
  EXPECT_TRUE(r->benchmarks[0].pairs.empty());
}
