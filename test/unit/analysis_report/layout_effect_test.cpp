// The layout effect (layout_effect.hpp, issue 10): d2(n) against its
// published table and R's integrate(); the MLS interval against the same
// formula in R (test/r/compute_layout.R -> golden/layout.csv, which also holds
// a one-way example whose interval [0.2358, 3.6925] a published R package
// documents) and against a Monte Carlo coverage simulation with a fixed seed;
// and the report's LayoutEffect on 2- and 3-level data, T^2 <= 0, one level.
#include "alea/analysis/csv.hpp"
#include "alea/analysis/layout_effect.hpp"
#include "alea/analysis/report.hpp"
#include "alea/analysis/variance.hpp"

#include "../analysis_core/normal_source.hpp"
#include "../analysis_methods/golden_io.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace alea::analysis;
namespace rt = alea::analysis::testing;

namespace {

Hierarchy hierarchy(std::vector<std::string> names, std::vector<std::size_t> shape,
                    std::vector<double> values) {
  auto h = makeHierarchy(std::move(names), std::move(shape), std::move(values));
  EXPECT_TRUE(h.ok()) << (h.ok() ? "" : h.error());
  return h.ok() ? *h : Hierarchy{};
}

} // namespace

TEST(LayoutEffect, ExpectedRangeMatchesTheControlChartTable) {
  // d2 of the control-chart tables (e.g. Montgomery, Introduction to
  // Statistical Quality Control, Appendix VI), three decimals.
  const std::vector<std::pair<std::size_t, double>> table = {{2, 1.128}, {3, 1.693},  {4, 2.059},
                                                             {5, 2.326}, {10, 3.078}, {25, 3.931}};
  for (const auto &[n, d2] : table)
    EXPECT_NEAR(expectedRange(n), d2, 5e-4) << "n = " << n;
  EXPECT_NEAR(expectedRange(2), 2 / std::sqrt(std::acos(-1.0)), 1e-9); // 2/sqrt(pi)
  EXPECT_EQ(expectedRange(1), 0);
  EXPECT_EQ(expectedRange(0), 0);
}

TEST(LayoutEffect, ExpectedRangeMatchesRIntegrate) {
  const auto golden = rt::readGolden("layout.csv");
  const auto &d2 = golden.at("d2");
  ASSERT_EQ(d2.size(), 8u);
  for (const auto &[n, value] : d2)
    EXPECT_TRUE(rt::closeRelative(expectedRange(std::stoul(n)), value, 1e-8))
        << "n = " << n << ": " << expectedRange(std::stoul(n)) << " vs " << value;
}

TEST(LayoutEffect, MlsIntervalMatchesR) {
  const auto golden = rt::readGolden("layout.csv");
  std::size_t checked = 0;
  for (const auto &[id, g] : golden) {
    if (id.rfind("mls_", 0) != 0)
      continue;
    SCOPED_TRACE(id);
    auto i =
        mlsDifferenceInterval(g.at("s1"), g.at("nu1"), g.at("s2"), g.at("nu2"), g.at("confidence"));
    ASSERT_TRUE(i.ok()) << i.error();
    EXPECT_TRUE(rt::closeRelative(i->lower, g.at("lower"), 1e-9)) << i->lower;
    EXPECT_TRUE(rt::closeRelative(i->upper, g.at("upper"), 1e-9)) << i->upper;
    ++checked;
  }
  EXPECT_EQ(checked, 5u);
  // The one-way example of the golden file, in its own unit (sigma_A^2 =
  // (MS_A - MS_E) / 5): [0.236, 3.692].
  auto i = mlsDifferenceInterval(6.0 / 5, 9, 1.5 / 5, 40, 0.95);
  ASSERT_TRUE(i.ok());
  EXPECT_NEAR(i->lower, 0.236, 5e-4);
  EXPECT_NEAR(i->upper, 3.692, 5e-4);
}

TEST(LayoutEffect, MlsIntervalRefusesBadInput) {
  EXPECT_FALSE(mlsDifferenceInterval(-1, 3, 1, 4, 0.95).ok());
  EXPECT_FALSE(mlsDifferenceInterval(1, 0, 1, 4, 0.95).ok());
  EXPECT_FALSE(mlsDifferenceInterval(1, 3, 1, 0, 0.95).ok());
  EXPECT_FALSE(mlsDifferenceInterval(1, 3, INFINITY, 4, 0.95).ok());
  EXPECT_FALSE(mlsDifferenceInterval(1, 3, 1, 4, 1.0).ok());
  EXPECT_FALSE(mlsDifferenceInterval(1, 3, 1, 4, 0.0).ok());
}

// Balanced random-effects data with known components: 2000 data sets per
// design, fixed seed. MLS intervals are close to exact for a difference of
// two mean squares (Burdick & Graybill 1992): the share of intervals holding
// the true sigma_top^2 lies within 0.93..0.97 at 95%. The interval is read
// back from LayoutEffect (times the grand mean), so the degrees of freedom and
// the level below are the report's own.
struct CoverageCase {
  std::vector<std::string> names;
  std::vector<std::size_t> shape;
  std::vector<double> sigmas; // per level, highest first
};

double coverage(const CoverageCase &c, std::uint64_t seed) {
  alea::analysis::test::NormalSource normal{alea::Rng(seed)};
  const int runs = 2000;
  int covered = 0;
  std::size_t total = 1;
  for (std::size_t n : c.shape)
    total *= n;
  std::vector<double> values(total);
  for (int run = 0; run < runs; ++run) {
    // Each value is 100 plus one effect per level, the effect of a unit
    // drawn once and shared by everything below it.
    std::vector<double> effects(c.shape.size(), 0.0);
    for (std::size_t v = 0; v < total; ++v) {
      std::size_t stride = total;
      for (std::size_t l = 0; l < c.shape.size(); ++l) {
        stride /= c.shape[l];
        if (v % stride == 0)
          effects[l] = c.sigmas[l] * normal.next();
      }
      double x = 100;
      for (double e : effects)
        x += e;
      values[v] = x;
    }
    const Hierarchy h = hierarchy(c.names, c.shape, values);
    const LayoutEffect e = layoutEffect(h, 0, 0.95);
    EXPECT_TRUE(e.ok) << e.error;
    const double mean = h.grandMean();
    const double lower = e.relativeSdCi.lower * mean, upper = e.relativeSdCi.upper * mean;
    const double truth = c.sigmas[0];
    covered += lower <= truth * (1 + 1e-12) && truth <= upper * (1 + 1e-12);
  }
  return static_cast<double>(covered) / runs;
}

TEST(LayoutEffect, MlsIntervalCoversTheLayoutSigmaAtNominalRate) {
  // Builds x iterations, a layout effect half the iteration noise.
  const double twoLevels = coverage({{"build", "iteration"}, {10, 4}, {1.0, 2.0}}, 101);
  EXPECT_GE(twoLevels, 0.93);
  EXPECT_LE(twoLevels, 0.97);
  // Builds x executions x iterations.
  const double threeLevels =
      coverage({{"build", "execution", "iteration"}, {8, 3, 5}, {0.5, 1.0, 2.0}}, 202);
  EXPECT_GE(threeLevels, 0.93);
  EXPECT_LE(threeLevels, 0.97);
}

TEST(LayoutEffect, ThreeLevelsUseTheExecutionLevelBelow) {
  // spec_000 §8.3 Table V, system "old": S^2 build 5.8125 (nu1 = 2),
  // S^2 execution 6.916667 over 2 executions (nu2 = 3 x 1 = 3).
  const int y[3][2][2] = {{{9, 11}, {5, 6}}, {{16, 13}, {12, 8}}, {{15, 7}, {10, 14}}};
  std::vector<double> v;
  for (const auto &b : y)
    for (const auto &e : b)
      for (int x : e)
        v.push_back(x);
  const Hierarchy h = hierarchy({"build", "execution", "iteration"}, {3, 2, 2}, v);
  const LayoutEffect e = layoutEffect(h, 0.25, 0.95);
  ASSERT_TRUE(e.ok) << e.error;
  EXPECT_EQ(e.level, "build");
  EXPECT_EQ(e.units, 3u);
  EXPECT_EQ(e.share, 0.25);
  const double t2 = 5.8125 - 6.916666666666667 / 2;
  EXPECT_NEAR(e.sd, std::sqrt(t2), 1e-12);
  EXPECT_NEAR(e.relativeSd, std::sqrt(t2) / 10.5, 1e-12);
  const auto golden = rt::readGolden("layout.csv").at("mls_table5_old");
  EXPECT_EQ(e.relativeSdCi.lower, 0);
  EXPECT_TRUE(rt::closeRelative(e.relativeSdCi.upper, std::sqrt(golden.at("upper")) / 10.5, 1e-9));
  EXPECT_NEAR(e.d2, 1.692569, 1e-6);
  EXPECT_NEAR(e.expectedSpread, e.d2 * e.relativeSd, 1e-15);
  EXPECT_NEAR(e.expectedSpreadCi.upper, e.d2 * e.relativeSdCi.upper, 1e-15);
  EXPECT_NEAR(e.observedSpread, 12.25 / 7.75 - 1, 1e-12); // build means 7.75, 12.25, 11.5
}

TEST(LayoutEffect, NoVarianceAboveTheNoiseGivesSdZeroAndAPositiveUpperLimit) {
  // 4 builds x 2 iterations: build means 10, 11.2, 9.2, 10.8 (S1 = 0.7867),
  // each build's iterations 2 apart (S2 = S^2_iteration / 2 = 1): T^2 < 0.
  const Hierarchy h =
      hierarchy({"build", "iteration"}, {4, 2}, {9, 11, 10.2, 12.2, 8.2, 10.2, 9.8, 11.8});
  const std::vector<double> s2 = sSquared(h);
  ASSERT_LT(s2[0] - s2[1] / 2, 0);
  const LayoutEffect e = layoutEffect(h, 0, 0.95);
  ASSERT_TRUE(e.ok) << e.error;
  EXPECT_EQ(e.sd, 0);
  EXPECT_EQ(e.relativeSd, 0);
  EXPECT_EQ(e.expectedSpread, 0);
  EXPECT_EQ(e.relativeSdCi.lower, 0);
  EXPECT_GT(e.relativeSdCi.upper, 0);
  auto i = mlsDifferenceInterval(s2[0], 3, s2[1] / 2, 4, 0.95);
  ASSERT_TRUE(i.ok());
  EXPECT_NEAR(e.relativeSdCi.upper, std::sqrt(i->upper) / h.grandMean(), 1e-15);
  EXPECT_GT(e.expectedSpreadCi.upper, 0);
}

TEST(LayoutEffect, OneLevelOrOneUnitBelowSaysWhy) {
  const Hierarchy one = hierarchy({"build"}, {3}, {1.0, 1.2, 1.1});
  const LayoutEffect e = layoutEffect(one, 1, 0.95);
  EXPECT_FALSE(e.ok);
  EXPECT_NE(e.error.find("one level"), std::string::npos) << e.error;
  EXPECT_NEAR(e.observedSpread, 0.2, 1e-12); // the build means are there
  const Hierarchy single =
      hierarchy({"build", "execution", "iteration"}, {2, 1, 2}, {1.0, 1.1, 1.2, 1.3});
  const LayoutEffect s = layoutEffect(single, 0, 0.95);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.error.find("one 'execution' per 'build'"), std::string::npos) << s.error;
}

TEST(LayoutEffect, TheReportCarriesItPerSystemInTheDataUnit) {
  // Two levels, values around 1e100: the report rescales them internally
  // (report.cpp chooseScale) and must give sigma back in the data's unit.
  std::string csv = "system,build,iteration,value\n";
  const double v[2][4][2] = {{{9, 11}, {10.2, 12.2}, {8.2, 10.2}, {9.8, 11.8}},
                             {{10, 12}, {12, 13}, {9, 10}, {11, 12.5}}};
  for (int s = 0; s < 2; ++s)
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 2; ++i) {
        char value[64];
        std::snprintf(value, sizeof value, "%.17ge100", v[s][b][i]);
        csv += std::string(s == 0 ? "base" : "cand") + "," + std::to_string(b) + "," +
               std::to_string(i) + "," + value + "\n";
      }
  auto t = parseCsv(csv);
  ASSERT_FALSE(t.error) << t.error->message;
  auto r = buildReport(*t.table);
  ASSERT_TRUE(r.ok()) << r.error();
  const SystemReport &cand = r->benchmarks[0].systems[1];
  ASSERT_TRUE(cand.layout.ok) << cand.layout.error;
  EXPECT_EQ(cand.layout.level, "build");
  EXPECT_EQ(cand.layout.units, 4u);
  EXPECT_EQ(cand.layout.share, cand.levels[0].share);
  EXPECT_NEAR(cand.layout.sd / 1e100, std::sqrt(cand.levels[0].t2 / 1e200), 1e-9);
  EXPECT_NEAR(cand.layout.relativeSd * cand.mean / 1e100, cand.layout.sd / 1e100, 1e-9);
  EXPECT_NEAR(cand.layout.observedSpread, cand.worstUnitMean / cand.bestUnitMean - 1, 1e-12);
  EXPECT_EQ(r->benchmarks[0].systems[0].layout.sd, 0); // "base": T^2 < 0, as above
}
