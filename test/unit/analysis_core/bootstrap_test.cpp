// Hierarchical bootstrap (TR 2012 §3.2, §4.4, Figs. 1-2): the Table VI
// replicates by injected draws (spec_000 §8.4), the fast path equal to the
// reference walk, identical results for 1/2/3 threads, seeds, quantile rules,
// schemes, and the spec's Monte Carlo limits on Table V data.
#include "alea/analysis/bootstrap.hpp"

#include "alea/random.hpp"
#include "paper_data.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

using namespace alea::analysis;

namespace {

// Replays a fixed list of 0-based draws and checks each bound.
struct Replay {
  std::vector<std::size_t> draws;
  std::vector<std::size_t> bounds;
  std::size_t next = 0;
  std::size_t operator()(std::size_t /*level*/, std::size_t bound) {
    EXPECT_LT(next, draws.size());
    EXPECT_EQ(bound, bounds[next]);
    return draws[next++];
  }
};

// Table VI slot notation "b; e -> (m, m), e -> (m, m)" (1-based) to a draw
// sequence in the resampler's order: binary, then per execution slot the
// execution and its two measurements.
Replay slots(std::initializer_list<std::array<int, 7>> s) {
  Replay r;
  for (const auto &a : s) {
    r.draws.push_back(a[0] - 1);
    r.bounds.push_back(3);
    for (int e = 0; e < 2; ++e) {
      r.draws.push_back(a[1 + 3 * e] - 1);
      r.bounds.push_back(2);
      for (int m = 0; m < 2; ++m) {
        r.draws.push_back(a[2 + 3 * e + m] - 1);
        r.bounds.push_back(2);
      }
    }
  }
  return r;
}

BootstrapOptions quick(std::size_t b, std::uint64_t seed = 7) {
  BootstrapOptions o;
  o.replicates = b;
  o.seed = seed;
  o.threads = 1;
  o.allowFewReplicates = b < 1000;
  return o;
}

} // namespace

TEST(Bootstrap, TableVIReplicatesByInjectedDraws) {
  const Hierarchy old = testdata::tableVOld();
  const std::vector<bool> rrr(3, true);
  // Replicate 1: b1; e1->(1,2), e2->(1,1) | b2; e2->(1,2), e2->(2,1) | b1; e1->(1,1), e1->(2,1)
  Replay r1 = slots({{1, 1, 1, 2, 2, 1, 1}, {2, 2, 1, 2, 2, 2, 1}, {1, 1, 1, 1, 1, 2, 1}});
  EXPECT_DOUBLE_EQ(resampledMeanWith(old, rrr, std::ref(r1)), 9.0);
  EXPECT_EQ(r1.next, r1.draws.size());
  // Replicate 2: b3; e2->(2,1), e1->(1,2) | b2; e1->(2,2), e2->(2,1) | b2; e2->(2,2), e1->(1,2)
  Replay r2 = slots({{3, 2, 2, 1, 1, 1, 2}, {2, 1, 2, 2, 2, 2, 1}, {2, 2, 2, 2, 1, 1, 2}});
  EXPECT_NEAR(resampledMeanWith(old, rrr, std::ref(r2)), 11.416667, 1e-6);
  // Replicate 3: b3; e1->(2,2), e1->(1,1) | b1; e1->(2,2), e1->(1,2) | b1; e1->(1,1), e1->(1,1)
  Replay r3 = slots({{3, 1, 2, 2, 1, 1, 1}, {1, 1, 2, 2, 1, 1, 2}, {1, 1, 1, 1, 1, 1, 1}});
  EXPECT_NEAR(resampledMeanWith(old, rrr, std::ref(r3)), 10.166667, 1e-6);
}

TEST(Bootstrap, FastPathEqualsTheReferenceWalk) {
  // Replicate r of bootstrapMean must be exactly the reference walk fed by
  // alea::Rng(mixSeed(seed, r)), for every scheme.
  const Hierarchy old = testdata::tableVOld();
  for (const char *name : {"RRR", "RRN", "RNN", "NRR", "RNR"}) {
    BootstrapOptions o = quick(50, 99);
    o.scheme = *ResamplingScheme::parse(name);
    o.keepReplicates = true;
    auto res = bootstrapMean(old, o);
    ASSERT_TRUE(res.ok()) << res.error();
    for (std::size_t r = 0; r < 50; ++r) {
      alea::Rng rng(alea::mixSeed(99, r));
      auto draw = [&](std::size_t, std::size_t bound) { return rng.below(bound); };
      EXPECT_DOUBLE_EQ(res->replicateValues[r],
                       resampledMeanWith(old, o.scheme.replacementFor(3), draw))
          << name << " replicate " << r;
    }
  }
}

TEST(Bootstrap, IdenticalForOneTwoAndThreeThreads) {
  const Hierarchy a = testdata::tableVNew();
  const Hierarchy b = testdata::tableVOld();
  std::vector<BootstrapResult> means, ratios;
  for (unsigned t : {1u, 2u, 3u}) {
    BootstrapOptions o;
    o.replicates = 2001;
    o.seed = 0xfeedULL;
    o.threads = t;
    o.keepReplicates = true;
    means.push_back(*bootstrapMean(b, o));
    ratios.push_back(*bootstrapRatio(a, b, o));
  }
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(means[i].replicateValues, means[0].replicateValues);
    EXPECT_EQ(ratios[i].replicateValues, ratios[0].replicateValues);
    EXPECT_EQ(ratios[i].interval.lower, ratios[0].interval.lower);
    EXPECT_EQ(ratios[i].interval.upper, ratios[0].interval.upper);
  }
}

TEST(Bootstrap, SameSeedSameResultDifferentSeedDifferent) {
  BootstrapOptions o;
  o.keepReplicates = true;
  o.seed = 1;
  auto x = bootstrapRatio(testdata::tableVNew(), testdata::tableVOld(), o);
  auto y = bootstrapRatio(testdata::tableVNew(), testdata::tableVOld(), o);
  o.seed = 2;
  auto z = bootstrapRatio(testdata::tableVNew(), testdata::tableVOld(), o);
  EXPECT_EQ(x->replicateValues, y->replicateValues);
  EXPECT_NE(x->replicateValues, z->replicateValues);
  EXPECT_EQ(x->replicates, 1000u);
  EXPECT_NEAR(x->estimate, 6.5 / 10.5, 1e-15);
}

TEST(Bootstrap, MonteCarloLimitsOfSpec000OnTableV) {
  // spec_000 §8.4: B >= 1e5, tolerance about 0.01; the mean limits sit on atoms.
  struct Case {
    const char *scheme;
    double meanLo, meanHi, ratioLo, ratioHi;
  };
  const Case cases[] = {{"RRR", 7.5, 13.25, 0.341, 1.014},
                        {"RRN", 7.75, 12.9167, 0.374, 0.972},
                        {"RNN", 7.75, 12.25, 0.4236, 0.8796}};
  for (const Case &c : cases) {
    BootstrapOptions o;
    o.replicates = 100000;
    o.seed = 2012;
    o.threads = 2;
    o.scheme = *ResamplingScheme::parse(c.scheme);
    auto m = bootstrapMean(testdata::tableVOld(), o);
    ASSERT_TRUE(m.ok());
    EXPECT_NEAR(m->interval.lower, c.meanLo, 1e-3) << c.scheme;
    EXPECT_NEAR(m->interval.upper, c.meanHi, 1e-3) << c.scheme;
    auto r = bootstrapRatio(testdata::tableVNew(), testdata::tableVOld(), o);
    ASSERT_TRUE(r.ok());
    EXPECT_NEAR(r->interval.lower, c.ratioLo, 0.01) << c.scheme;
    EXPECT_NEAR(r->interval.upper, c.ratioHi, 0.01) << c.scheme;
  }
}

TEST(Bootstrap, QuantileRules) {
  std::vector<double> v(1000);
  std::iota(v.begin(), v.end(), 1.0);
  std::vector<double> w = v;
  // The paper: the 25th and 975th ordered values of 1000.
  Interval paper = percentileInterval(v, 0.95, QuantileRule::PaperOrderStatistic);
  EXPECT_EQ(paper.lower, 25.0);
  EXPECT_EQ(paper.upper, 975.0);
  // R: quantile(1:1000, c(0.025, 0.975), type = 7) = 25.975, 975.025.
  Interval r7 = percentileInterval(w, 0.95, QuantileRule::RType7);
  EXPECT_NEAR(r7.lower, 25.975, 1e-9);
  EXPECT_NEAR(r7.upper, 975.025, 1e-9);
  // Non-integer ranks widen: B = 1001 -> floor(25.025) = 25, ceil(975.975) = 976.
  std::vector<double> u(1001);
  std::iota(u.begin(), u.end(), 1.0);
  Interval odd = percentileInterval(u, 0.95, QuantileRule::PaperOrderStatistic);
  EXPECT_EQ(odd.lower, 25.0);
  EXPECT_EQ(odd.upper, 976.0);
  // 90%: 50th and 950th.
  std::vector<double> q = w;
  Interval ninety = percentileInterval(q, 0.90, QuantileRule::PaperOrderStatistic);
  EXPECT_EQ(ninety.lower, 50.0);
  EXPECT_EQ(ninety.upper, 950.0);
}

TEST(Bootstrap, TiesAndConstantData) {
  Hierarchy h{testdata::kLevels3, {3, 2, 2}, std::vector<double>(12, 2.5)};
  auto m = bootstrapMean(h, quick(1000));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->interval.lower, 2.5);
  EXPECT_EQ(m->interval.upper, 2.5);
  auto r = bootstrapRatio(h, h, quick(1000));
  EXPECT_EQ(r->interval.lower, 1.0);
  EXPECT_EQ(r->interval.upper, 1.0);
}

TEST(Bootstrap, AllLevelsIntactIsTheGrandMean) {
  BootstrapOptions o = quick(1000);
  o.scheme = *ResamplingScheme::parse("NNN");
  auto m = bootstrapMean(testdata::tableVOld(), o);
  ASSERT_TRUE(m.ok());
  EXPECT_DOUBLE_EQ(m->interval.lower, 10.5);
  EXPECT_DOUBLE_EQ(m->interval.upper, 10.5);
}

TEST(Bootstrap, FlatSchemeIgnoresTheHierarchy) {
  // FLAT on Table III equals RRR on the same values seen as one level.
  BootstrapOptions o = quick(1000, 5);
  o.keepReplicates = true;
  o.scheme = *ResamplingScheme::parse("flat");
  auto flat = bootstrapMean(testdata::tableIII(), o);
  BootstrapOptions p = quick(1000, 5);
  p.keepReplicates = true;
  auto oneLevel = bootstrapMean(flatHierarchy(testdata::tableIII().values), p);
  ASSERT_TRUE(flat.ok() && oneLevel.ok());
  EXPECT_EQ(flat->replicateValues, oneLevel->replicateValues);
  EXPECT_EQ(flat->scheme, "FLAT");
}

TEST(Bootstrap, SchemeParsingAndGeneralisation) {
  EXPECT_EQ(ResamplingScheme::parse("rrn")->replacementFor(4), (std::vector<bool>{1, 1, 1, 0}));
  EXPECT_EQ(ResamplingScheme::parse("RNN")->replacementFor(4), (std::vector<bool>{1, 0, 0, 0}));
  EXPECT_EQ(ResamplingScheme::parse("RRN")->replacementFor(1), (std::vector<bool>{1}));
  EXPECT_EQ(ResamplingScheme::parse("RNRN")->name(), "RNRN");
  EXPECT_FALSE(ResamplingScheme::parse("RXR").ok());
  EXPECT_FALSE(ResamplingScheme::parse("").ok());
  BootstrapOptions o = quick(1000);
  o.scheme = *ResamplingScheme::parse("RN");
  EXPECT_FALSE(bootstrapMean(testdata::tableIII(), o).ok()); // 2 letters, 3 levels
}

TEST(Bootstrap, OptionErrors) {
  BootstrapOptions o;
  o.replicates = 999;
  EXPECT_FALSE(bootstrapMean(testdata::tableIII(), o).ok());
  o.replicates = 1000;
  o.confidence = 1;
  EXPECT_FALSE(bootstrapMean(testdata::tableIII(), o).ok());
  o.confidence = 0.95;
  Hierarchy twoLevels{{"build", "iteration"}, {2, 2}, {1, 2, 3, 4}};
  EXPECT_FALSE(bootstrapRatio(testdata::tableIII(), twoLevels, o).ok());
}

TEST(Bootstrap, OneLevelAndSeed002) {
  // One-level data: the ordinary percentile bootstrap; the estimate is
  // mean(t2)/mean(t1) = 0.5110024 (seed 002, V12) and 1 lies above the CI.
  BootstrapOptions o;
  o.seed = 2009;
  auto r = bootstrapRatio(flatHierarchy(testdata::kSeed002TPrime),
                          flatHierarchy(testdata::kSeed002T), o);
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r->estimate, 0.511002444987775, 1e-12);
  EXPECT_LT(r->interval.lower, r->estimate);
  EXPECT_GT(r->interval.upper, r->estimate);
  EXPECT_LT(r->interval.upper, 1.0);
}

TEST(Bootstrap, ZeroBaselineMeanGivesInfiniteReplicates) {
  Hierarchy num{{"build"}, {2}, {1, 1}};
  Hierarchy den{{"build"}, {2}, {0, 1}};
  BootstrapOptions o;
  o.seed = 3;
  auto r = bootstrapRatio(num, den, o);
  ASSERT_TRUE(r.ok());
  EXPECT_GT(r->infiniteReplicates, 0u); // P(both draws pick 0) = 1/4
  EXPECT_TRUE(std::isinf(r->interval.upper));
  EXPECT_FALSE(std::isnan(r->interval.lower));
}

TEST(Bootstrap, SimdLanesDrawAndAddAsTheScalarResampler) {
  // bootstrap.cpp runs 8 (AVX-512) or 4 (AVX2) replicates at once; its
  // self-check compares every lane set this CPU has with the scalar code,
  // Lemire's rejection step included (crafted generator states).
  EXPECT_EQ(bootstrapSelfCheck(), "") << bootstrapLanes();
}

TEST(Bootstrap, EveryReplicateIsTheReferenceWalkWhateverTheLanesAndThreads) {
  // Replicates in lane blocks and the leftovers of each thread's range one by
  // one: each must be the reference walk fed by Rng(mixSeed(seed, r)), to
  // the bit, for 1003 replicates (not a multiple of 4 or 8) on 1-3 threads.
  alea::Rng values(5);
  auto hierarchy = [&](std::vector<std::size_t> shape, std::vector<std::string> names) {
    Hierarchy h{std::move(names), std::move(shape), {}};
    std::size_t n = 1;
    for (std::size_t k : h.shape)
      n *= k;
    for (std::size_t i = 0; i < n; ++i)
      h.values.push_back(0.01 * (1 + values.uniform()));
    return h;
  };
  const Hierarchy cand = hierarchy({6, 4, 9}, {"build", "execution", "iteration"});
  const Hierarchy base = hierarchy({7, 3, 5}, {"build", "execution", "iteration"});
  for (const char *name : {"RRR", "RRN", "NRR", "RNR"}) {
    const auto replace = ResamplingScheme::parse(name)->replacementFor(3);
    for (unsigned threads : {1u, 2u, 3u}) {
      BootstrapOptions o;
      o.replicates = 1003;
      o.seed = 0x1e55ULL;
      o.threads = threads;
      o.scheme = *ResamplingScheme::parse(name);
      o.keepReplicates = true;
      auto mean = bootstrapMean(cand, o);
      auto ratio = bootstrapRatio(cand, base, o);
      ASSERT_TRUE(mean.ok() && ratio.ok());
      for (std::size_t r = 0; r < o.replicates; ++r) {
        alea::Rng rng(alea::mixSeed(o.seed, r));
        auto draw = [&](std::size_t, std::size_t bound) { return rng.below(bound); };
        ASSERT_EQ(mean->replicateValues[r], resampledMeanWith(cand, replace, draw))
            << name << ", " << threads << " threads, replicate " << r;
        alea::Rng rng2(alea::mixSeed(o.seed, r));
        auto draw2 = [&](std::size_t, std::size_t bound) { return rng2.below(bound); };
        const double num = resampledMeanWith(cand, replace, draw2);
        const double den = resampledMeanWith(base, replace, draw2);
        ASSERT_EQ(ratio->replicateValues[r], num / den)
            << name << ", " << threads << " threads, replicate " << r;
      }
    }
  }
}

TEST(Bootstrap, WidenReplicatesSpreadsThemAroundTheEstimate) {
  // The neighbouring-blocks factor f multiplies the replicates' variance:
  // each distance from the estimate on the log scale times sqrt(f), the
  // interval's too; every replicate stays positive.
  BootstrapResult r;
  r.estimate = 1.0;
  r.interval = {0.9, 1.2};
  r.replicateValues = {0.8, 1.0, 1.1, std::numeric_limits<double>::infinity(), 0.1};
  BootstrapResult same = r;
  widenReplicates(same, 1.0);
  EXPECT_EQ(same.interval.lower, 0.9);
  EXPECT_EQ(same.replicateValues, r.replicateValues);
  widenReplicates(r, 4.0); // sqrt(4) = 2: v -> v^2 around an estimate of 1
  EXPECT_DOUBLE_EQ(r.interval.lower, 0.81);
  EXPECT_DOUBLE_EQ(r.interval.upper, 1.44);
  EXPECT_DOUBLE_EQ(r.replicateValues[0], 0.64);
  EXPECT_DOUBLE_EQ(r.replicateValues[1], 1.0);
  EXPECT_DOUBLE_EQ(r.replicateValues[2], 1.21);
  EXPECT_TRUE(std::isinf(r.replicateValues[3])); // a zero baseline mean stays infinite
  EXPECT_DOUBLE_EQ(r.replicateValues[4], 0.01);  // far below: still positive
  BootstrapResult scaled = same;                 // around another estimate: (v / e)^k x e
  scaled.estimate = 2.0;
  scaled.interval = {1.0, 4.0};
  widenReplicates(scaled, 4.0);
  EXPECT_DOUBLE_EQ(scaled.interval.lower, 0.5);
  EXPECT_DOUBLE_EQ(scaled.interval.upper, 8.0);
}
