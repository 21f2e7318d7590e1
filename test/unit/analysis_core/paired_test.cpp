// The paired analysis of a ratio (issue 8: interleaved pairs, Abedi & Brecht
// ICPE 2017; duet, Bulej et al. ICPE 2020): Fieller's interval with the
// covariance term (Fieller 1954; docs/statistics.md §4 "Paired") against a
// hand computation and against the closed form computed in R
// (test/r/compute_paired.R -> test/r/golden/paired.csv, on the frozen
// test/r/data/paired.csv), and the paired hierarchical bootstrap: its draw
// order, reproducibility from the seed, thread-count independence, and the
// narrower interval of positively correlated pairs.
#include "alea/analysis/fieller.hpp"

#include "../analysis_methods/golden_io.hpp"
#include "alea/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace alea::analysis;
namespace rt = alea::analysis::testing; // the R golden readers
using rt::closeRelative;

namespace {

// test/r/data/paired.csv: dataset,system,build,execution,value, each system's
// rows build-major, executions in order: one build > execution hierarchy per
// (dataset, system).
std::map<std::string, std::map<std::string, Hierarchy>> pairedData() {
  std::map<std::string, std::map<std::string, std::vector<double>>> values;
  std::map<std::string, std::map<std::string, std::pair<std::size_t, std::size_t>>> shape;
  const auto rows = rt::readCsv(rt::rDir() + "/data/paired.csv");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto &r = rows[i];
    values[r.at(0)][r.at(1)].push_back(rt::parseNumber(r.at(4)));
    auto &s = shape[r.at(0)][r.at(1)];
    s.first = std::max<std::size_t>(s.first, std::stoul(r.at(2)));
    s.second = std::max<std::size_t>(s.second, std::stoul(r.at(3)));
  }
  std::map<std::string, std::map<std::string, Hierarchy>> out;
  for (auto &[id, systems] : values)
    for (auto &[system, v] : systems) {
      const auto [nb, ne] = shape[id][system];
      auto h = makeHierarchy({"build", "execution"}, {nb, ne}, std::move(v));
      EXPECT_TRUE(h.ok()) << h.error();
      out[id][system] = *h;
    }
  return out;
}

} // namespace

// --- Fieller ----------------------------------------------------------------

TEST(FiellerPaired, HandComputation) {
  // n = 3 pairs, one level: c = {9, 10, 14}, b = {10, 12, 14}.
  //   m = 11, d = 12; S_c^2 = (4 + 1 + 9)/2 = 7, S_b^2 = (4 + 0 + 4)/2 = 4,
  //   cov(c, b) = ((-2)(-2) + (-1)(0) + (3)(2))/2 = 5;
  //   v_mm = 7/3, v_dd = 4/3, v_md = 5/3; nu = 2.
  //   t_{0.975,2}^2 = 0.95^2 / (2 * 0.975 * 0.025) = 722/39 (closed form for 2 df).
  //   a = 144 - (722/39)(4/3) = 13960/117, b = 132 - (722/39)(5/3) = 11834/117,
  //   c = 121 - (722/39)(7/3) = 9103/117. Times 117: 13960, 11834, 9103;
  //   b^2 - ac = 140043556 - 127077880 = 12965676, sqrt = 3600.788247037029;
  //   limits (11834 -+ 3600.788247037029) / 13960 = [0.589771615541760, 1.105643857237610].
  //   Unpaired (v_md = 0): b = 15444, b^2 - ac = 111439256:
  //   [0.350108929988907, 1.862498519867826], much wider.
  const Hierarchy c{{"build"}, {3}, {9, 10, 14}};
  const Hierarchy b{{"build"}, {3}, {10, 12, 14}};
  auto p = fiellerPairedRatio(c, b);
  ASSERT_TRUE(p.ok()) << p.error();
  ASSERT_EQ(p->status, FiellerStatus::Bounded);
  EXPECT_DOUBLE_EQ(p->df, 2.0);
  EXPECT_NEAR(p->quantile * p->quantile, 722.0 / 39.0, 1e-12);
  EXPECT_DOUBLE_EQ(p->estimate, 11.0 / 12.0);
  const double root = std::sqrt(12965676.0);
  EXPECT_NEAR(p->interval->lower, (11834 - root) / 13960, 1e-12);
  EXPECT_NEAR(p->interval->upper, (11834 + root) / 13960, 1e-12);
  EXPECT_NEAR(p->interval->lower, 0.589771615541760, 1e-12);
  EXPECT_NEAR(p->interval->upper, 1.105643857237610, 1e-12);
  auto u = fiellerRatio(c, b);
  ASSERT_TRUE(u.ok());
  EXPECT_NEAR(u->interval->lower, 0.350108929988907, 1e-12);
  EXPECT_NEAR(u->interval->upper, 1.862498519867826, 1e-12);
  // Correlation 5 / sqrt(7 * 4) = 0.944911.
  EXPECT_NEAR(pairCorrelation(c, b), 5 / std::sqrt(28.0), 1e-15);
}

TEST(FiellerPaired, AgreesWithRClosedForm) {
  const auto golden = rt::readGolden("paired.csv");
  const auto data = pairedData();
  ASSERT_EQ(golden.size(), 3u);
  for (const auto &[id, g] : golden) {
    SCOPED_TRACE(id);
    const Hierarchy &cand = data.at(id).at("cand");
    const Hierarchy &base = data.at(id).at("base");
    ASSERT_EQ(cand.topCount(), static_cast<std::size_t>(g.at("n")));
    auto t = fiellerPairedRatio(cand, base);
    auto z = fiellerPairedRatio(cand, base, 0.95, IntervalMethod::Normal);
    auto u = fiellerRatio(cand, base);
    ASSERT_TRUE(t.ok() && z.ok() && u.ok());
    ASSERT_TRUE(t->interval && z->interval && u->interval);
    EXPECT_TRUE(closeRelative(t->estimate, g.at("estimate"), 1e-9));
    EXPECT_TRUE(closeRelative(t->quantile, g.at("q"), 1e-9));
    EXPECT_TRUE(closeRelative(t->interval->lower, g.at("lower"), 1e-9))
        << t->interval->lower << " vs R " << g.at("lower");
    EXPECT_TRUE(closeRelative(t->interval->upper, g.at("upper"), 1e-9))
        << t->interval->upper << " vs R " << g.at("upper");
    EXPECT_TRUE(closeRelative(z->interval->lower, g.at("lower.normal"), 1e-9));
    EXPECT_TRUE(closeRelative(z->interval->upper, g.at("upper.normal"), 1e-9));
    EXPECT_TRUE(closeRelative(u->interval->lower, g.at("unpaired.lower"), 1e-9));
    EXPECT_TRUE(closeRelative(u->interval->upper, g.at("unpaired.upper"), 1e-9));
    EXPECT_TRUE(closeRelative(pairCorrelation(cand, base), g.at("cor"), 1e-9));
    // The covariance term narrows the interval exactly when the build means
    // correlate positively and widens it when they correlate negatively.
    if (g.at("cor") > 0)
      EXPECT_LT(t->interval->width(), u->interval->width());
    else
      EXPECT_GT(t->interval->width(), u->interval->width());
  }
  EXPECT_GT(golden.at("pos").at("cor"), 0.9); // strongly positive
  EXPECT_LT(golden.at("neg").at("cor"), -0.5);
}

TEST(FiellerPaired, Errors) {
  const Hierarchy three{{"build"}, {3}, {1, 2, 3}};
  const Hierarchy four{{"build"}, {4}, {1, 2, 3, 4}};
  const Hierarchy one{{"build"}, {1}, {1}};
  EXPECT_FALSE(fiellerPairedRatio(three, four).ok()); // pairs must align
  EXPECT_FALSE(fiellerPairedRatio(one, one).ok());
  EXPECT_FALSE(fiellerPairedRatio(three, three, 1.0).ok());
  EXPECT_FALSE(fiellerPairedRatio(Hierarchy{{"build"}, {2}, {1}}, three).ok());
}

TEST(FiellerPaired, LowerLevelsMayDifferInShape) {
  // Only the build means enter: 2 executions of the candidate per build, 3 of
  // the baseline, same as the one-level hierarchies of the build means.
  const Hierarchy c{{"build", "execution"}, {3, 2}, {8, 10, 9, 11, 13, 15}};
  const Hierarchy b{{"build", "execution"}, {3, 3}, {9, 10, 11, 12, 12, 12, 13, 14, 15}};
  auto p = fiellerPairedRatio(c, b);
  auto q = fiellerPairedRatio(Hierarchy{{"build"}, {3}, {9, 10, 14}},
                              Hierarchy{{"build"}, {3}, {10, 12, 14}});
  ASSERT_TRUE(p.ok() && q.ok());
  EXPECT_NEAR(p->interval->lower, q->interval->lower, 1e-12);
  EXPECT_NEAR(p->interval->upper, q->interval->upper, 1e-12);
}
