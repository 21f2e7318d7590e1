// The paired analysis of a ratio (issue 8: interleaved pairs, Abedi & Brecht
// ICPE 2017; duet, Bulej et al. ICPE 2020): Fieller's interval with the
// covariance term (Fieller 1954; docs/statistics.md §4 "Paired") against a
// hand computation and against the closed form computed in R
// (test/r/compute_paired.R -> test/r/golden/paired.csv, on the frozen
// test/r/data/paired.csv), and the paired hierarchical bootstrap: its draw
// order, reproducibility from the seed, thread-count independence, and the
// narrower interval of positively correlated pairs.
#include "alea/analysis/bootstrap.hpp"
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

BootstrapOptions quick(std::uint64_t seed, unsigned threads = 1) {
  BootstrapOptions o;
  o.replicates = 1000;
  o.seed = seed;
  o.threads = threads;
  o.keepReplicates = true;
  return o;
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

// --- bootstrap ----------------------------------------------------------------

TEST(BootstrapPaired, DrawOrderOfReplicateZero) {
  // bootstrap.hpp: per pair slot one top-level draw for both systems, then the
  // candidate's children of that unit, then the baseline's (RRR, 2 levels).
  const Hierarchy c{{"build", "execution"}, {3, 2}, {1, 2, 3, 4, 5, 6}};
  const Hierarchy b{{"build", "execution"}, {3, 3}, {10, 20, 30, 40, 50, 60, 70, 80, 90}};
  BootstrapOptions o = quick(11);
  auto r = bootstrapPairedRatio(c, b, o);
  ASSERT_TRUE(r.ok()) << r.error();
  alea::Rng rng(alea::mixSeed(11, 0));
  double sc = 0, sb = 0;
  for (int j = 0; j < 3; ++j) {
    const auto i = rng.below(3);
    for (int k = 0; k < 2; ++k)
      sc += c.values[i * 2 + rng.below(2)];
    for (int k = 0; k < 3; ++k)
      sb += b.values[i * 3 + rng.below(3)];
  }
  EXPECT_NEAR(r->replicateValues[0], (sc / 6) / (sb / 9), 1e-14);
  EXPECT_DOUBLE_EQ(r->estimate, 3.5 / 50);
}

TEST(BootstrapPaired, ProportionalPairsGiveADegenerateInterval) {
  // The candidate is 0.9 x the baseline build by build: every paired replicate
  // is 0.9 (RNN on one level: only pair indices are drawn), while the unpaired
  // bootstrap sees the full spread of the build means.
  const Hierarchy b{{"build"}, {6}, {10, 14, 9, 12, 16, 11}};
  Hierarchy c = b;
  for (double &v : c.values)
    v *= 0.9;
  auto p = bootstrapPairedRatio(c, b, quick(5));
  auto u = bootstrapRatio(c, b, quick(5));
  ASSERT_TRUE(p.ok() && u.ok());
  EXPECT_NEAR(p->interval.lower, 0.9, 1e-12);
  EXPECT_NEAR(p->interval.upper, 0.9, 1e-12);
  EXPECT_GT(u->interval.width(), 0.1);
}

TEST(BootstrapPaired, SameSeedIdenticalDifferentSeedDifferent) {
  const auto data = pairedData();
  const Hierarchy &c = data.at("mix").at("cand");
  const Hierarchy &b = data.at("mix").at("base");
  auto x = bootstrapPairedRatio(c, b, quick(42));
  auto y = bootstrapPairedRatio(c, b, quick(42));
  auto z = bootstrapPairedRatio(c, b, quick(43));
  ASSERT_TRUE(x.ok() && y.ok() && z.ok());
  EXPECT_EQ(x->replicateValues, y->replicateValues);
  EXPECT_EQ(x->interval.lower, y->interval.lower);
  EXPECT_EQ(x->interval.upper, y->interval.upper);
  EXPECT_NE(x->replicateValues, z->replicateValues);
}

TEST(BootstrapPaired, OneAndFourThreadsAreIdentical) {
  const auto data = pairedData();
  const Hierarchy &c = data.at("pos").at("cand");
  const Hierarchy &b = data.at("pos").at("base");
  auto one = bootstrapPairedRatio(c, b, quick(7, 1));
  auto four = bootstrapPairedRatio(c, b, quick(7, 4));
  ASSERT_TRUE(one.ok() && four.ok());
  EXPECT_EQ(one->replicateValues, four->replicateValues);
  EXPECT_EQ(one->interval.lower, four->interval.lower);
  EXPECT_EQ(one->interval.upper, four->interval.upper);
}

TEST(BootstrapPaired, PositivelyCorrelatedPairsGiveANarrowerInterval) {
  // "pos": build means correlate at 0.95 (golden/paired.csv); the shared time
  // effect cancels in the paired ratio (Fieller: [0.9426, 0.9730] paired
  // against [0.8914, 1.0289] unpaired).
  const auto data = pairedData();
  const Hierarchy &c = data.at("pos").at("cand");
  const Hierarchy &b = data.at("pos").at("base");
  for (const char *scheme : {"RRR", "RNN"}) {
    SCOPED_TRACE(scheme);
    BootstrapOptions o = quick(3);
    o.scheme = *ResamplingScheme::parse(scheme);
    auto p = bootstrapPairedRatio(c, b, o);
    auto u = bootstrapRatio(c, b, o);
    ASSERT_TRUE(p.ok() && u.ok());
    EXPECT_LT(p->interval.width(), 0.5 * u->interval.width());
    EXPECT_TRUE(p->interval.contains(p->estimate));
  }
}

TEST(BootstrapPaired, Errors) {
  const Hierarchy three{{"build"}, {3}, {1, 2, 3}};
  const Hierarchy four{{"build"}, {4}, {1, 2, 3, 4}};
  const Hierarchy deep{{"build", "execution"}, {3, 1}, {1, 2, 3}};
  EXPECT_FALSE(bootstrapPairedRatio(three, four).ok()); // unaligned
  EXPECT_FALSE(bootstrapPairedRatio(three, deep).ok()); // depths differ
  BootstrapOptions flat;
  flat.scheme.kind = ResamplingScheme::Kind::Flat;
  EXPECT_FALSE(bootstrapPairedRatio(three, three, flat).ok());
  BootstrapOptions few;
  few.replicates = 10;
  EXPECT_FALSE(bootstrapPairedRatio(three, three, few).ok());
}
