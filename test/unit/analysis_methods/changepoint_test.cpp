// Warm-up detection by changepoints (analysis/changepoint.hpp): synthetic
// series with a known number of slow leading iterations, deterministic noise
// (seeded alea::Rng, normal by Box-Muller), several noise levels and step
// sizes; a gradual decay; a late slowdown; changes to the end (no steady
// state); short series; the summary over executions.
#include "alea/analysis/changepoint.hpp"
#include "alea/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace alea::analysis;

namespace {

// Normal noise of SD `sd` (relative), from a seeded generator.
class Noise {
public:
  Noise(std::uint64_t seed, double sd) : rng_(seed), sd_(sd) {}
  double operator()() {
    const double u1 = 1.0 - rng_.uniform(), u2 = rng_.uniform();
    return sd_ * std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
  }

private:
  alea::Rng rng_;
  double sd_;
};

// `slow` leading iterations `step` times slower than the steady value 1e-3 s,
// `n` iterations in all, each with relative noise.
std::vector<double> leading(std::size_t slow, double step, std::size_t n, double noise,
                            std::uint64_t seed) {
  Noise e(seed, noise);
  std::vector<double> x;
  for (std::size_t i = 0; i < n; ++i)
    x.push_back(1e-3 * (i < slow ? step : 1.0) * (1.0 + e()));
  return x;
}

std::string where(std::size_t slow, double step, double noise, std::uint64_t seed) {
  return "slow=" + std::to_string(slow) + " step=" + std::to_string(step) +
         " noise=" + std::to_string(noise) + " seed=" + std::to_string(seed);
}

} // namespace

// The exact warm-up length, for every combination whose step stands at least
// 10 noise SDs clear (a 1.5x step at 5% noise: 10 SDs).
TEST(Changepoint, ExactWarmupLengthsAcrossNoiseAndSteps) {
  for (std::size_t slow : {0, 1, 3, 5, 10, 20})
    for (double step : {1.5, 3.0, 10.0})
      for (double noise : {0.0, 0.005, 0.02, 0.05})
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
          const auto x = leading(slow, step, 60, noise, seed * 7919 + slow);
          const SteadyState s = classifySteadyState(x);
          ASSERT_TRUE(s.steadyStart) << where(slow, step, noise, seed);
          EXPECT_EQ(*s.steadyStart, slow) << where(slow, step, noise, seed);
          EXPECT_EQ(s.kind, slow == 0 ? SteadyKind::Flat : SteadyKind::Warmup)
              << where(slow, step, noise, seed) << ": " << steadyKindName(s.kind);
        }
}

// A warm-up that fades linearly from 2x to the steady value over k
// iterations (the k-th is the first steady one): found within one iteration.
TEST(Changepoint, GradualDecayWithinOneIteration) {
  for (std::size_t k : {4, 6, 10})
    for (double noise : {0.0, 0.005, 0.01})
      for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        Noise e(seed, noise);
        std::vector<double> x;
        for (std::size_t i = 0; i < 50; ++i)
          x.push_back((i < k ? 1.0 + double(k - i) / double(k) : 1.0) * (1.0 + e()));
        const SteadyState s = classifySteadyState(x);
        const std::string at = "k=" + std::to_string(k) + " noise=" + std::to_string(noise) +
                               " seed=" + std::to_string(seed);
        EXPECT_EQ(s.kind, SteadyKind::Warmup) << at << ": " << steadyKindName(s.kind);
        ASSERT_TRUE(s.steadyStart) << at;
        EXPECT_NEAR(double(*s.steadyStart), double(k), 1.0) << at;
      }
}

// Faster first, slower from iteration 35 of 60 on: a slowdown, whose steady
// state (the slower one) starts at 35.
TEST(Changepoint, LateSlowdown) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Noise e(seed, 0.01);
    std::vector<double> x;
    for (std::size_t i = 0; i < 60; ++i)
      x.push_back((i < 35 ? 1.0 : 1.3) * (1.0 + e()));
    const SteadyState s = classifySteadyState(x);
    EXPECT_EQ(s.kind, SteadyKind::Slowdown) << seed << ": " << steadyKindName(s.kind);
    ASSERT_TRUE(s.steadyStart);
    EXPECT_EQ(*s.steadyStart, 35u);
  }
}

// A series that alternates between two levels every 10 iterations never
// settles; nor does one that changes within its last quarter. (Blocks of 5
// in 60 iterations would be one noisy segment: 11 changepoints cost more
// penalty than they explain, in warmup_stats as here.)
TEST(Changepoint, NoSteadyState) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Noise e(seed, 0.01);
    std::vector<double> periodic, late;
    for (std::size_t i = 0; i < 60; ++i) {
      periodic.push_back(((i / 10) % 2 ? 1.4 : 1.0) * (1.0 + e()));
      late.push_back((i < 55 ? 1.0 : 1.5) * (1.0 + e()));
    }
    const SteadyState p = classifySteadyState(periodic), l = classifySteadyState(late);
    EXPECT_EQ(p.kind, SteadyKind::NoSteadyState) << seed << ": " << steadyKindName(p.kind);
    EXPECT_FALSE(p.steadyStart);
    EXPECT_EQ(l.kind, SteadyKind::NoSteadyState) << seed << ": " << steadyKindName(l.kind);
    EXPECT_EQ(l.window, 15u); // the last quarter of 60
  }
}

// Short series (a pilot of 5 to 10 iterations) keep the exact answer.
TEST(Changepoint, ShortSeries) {
  struct Case {
    std::size_t n, slow;
  };
  for (const Case c : {Case{5, 0}, Case{5, 1}, Case{5, 2}, Case{5, 3}, Case{8, 3}, Case{10, 0},
                       Case{10, 1}, Case{10, 4}, Case{10, 7}})
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto x = leading(c.slow, 3.0, c.n, 0.01, seed);
      const SteadyState s = classifySteadyState(x);
      const std::string at = "n=" + std::to_string(c.n) + " " + where(c.slow, 3, 0.01, seed);
      ASSERT_TRUE(s.steadyStart) << at << ": " << steadyKindName(s.kind);
      EXPECT_EQ(*s.steadyStart, c.slow) << at;
      EXPECT_EQ(s.kind, c.slow ? SteadyKind::Warmup : SteadyKind::Flat) << at;
    }
  // 8 slow of 10: the final 2 fall in the final window (the last 3).
  const SteadyState s = classifySteadyState(leading(8, 3.0, 10, 0.01, 3));
  EXPECT_EQ(s.kind, SteadyKind::NoSteadyState) << steadyKindName(s.kind);
}

// An interrupt of one or two iterations in a steady series is an outlier,
// not a warm-up ending after it; a slow start plus such a spike keeps k; two
// slower iterations at the very end are no lost steady state either.
TEST(Changepoint, ShortExcursionsAreNotPhases) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Noise e(seed, 0.01);
    std::vector<double> spike, both, end;
    for (std::size_t i = 0; i < 40; ++i) {
      const double v = 1.0 + e();
      spike.push_back((i == 20 || i == 21 ? 2.5 : 1.0) * v);
      both.push_back((i < 3 ? 4.0 : i == 25 ? 2.0 : 1.0) * v);
      end.push_back((i >= 38 ? 1.3 : 1.0) * v); // slower last 2: interference
    }
    EXPECT_EQ(classifySteadyState(end).kind, SteadyKind::Flat) << seed;
    const SteadyState s = classifySteadyState(spike), b = classifySteadyState(both);
    EXPECT_EQ(s.kind, SteadyKind::Flat) << seed << ": " << steadyKindName(s.kind);
    EXPECT_EQ(b.kind, SteadyKind::Warmup) << seed << ": " << steadyKindName(b.kind);
    EXPECT_EQ(b.steadyStart.value_or(99), 3u) << seed;
  }
}

// The same series in seconds and in nanoseconds, and ties from a coarse
// clock (values rounded to 1% steps): same answers, no spurious changes.
TEST(Changepoint, ScaleFreeAndTieTolerant) {
  const auto x = leading(4, 2.0, 30, 0.01, 11);
  std::vector<double> ns, coarse;
  for (double v : x)
    ns.push_back(v * 1e9);
  const SteadyState a = classifySteadyState(x), b = classifySteadyState(ns);
  ASSERT_EQ(a.segments.size(), b.segments.size());
  for (std::size_t i = 0; i < a.segments.size(); ++i)
    EXPECT_EQ(a.segments[i].start, b.segments[i].start);
  EXPECT_EQ(b.steadyStart.value_or(99), 4u);
  for (double v : leading(0, 1.0, 40, 0.02, 12))
    coarse.push_back(std::round(v * 1e5) / 1e5); // 1e-3 s in steps of 1e-5
  EXPECT_EQ(classifySteadyState(coarse).kind, SteadyKind::Flat);
  // Constant and tiny series are flat.
  EXPECT_EQ(classifySteadyState(std::vector<double>(20, 5.0)).kind, SteadyKind::Flat);
  EXPECT_EQ(classifySteadyState(std::vector<double>{3.0, 1.0}).steadyStart.value_or(99), 0u);
  EXPECT_TRUE(segmentSeries(std::vector<double>{}).empty());
}

// The campaign's warm-up is the upper quartile of the steady-state starts of
// the flat and warm-up executions; the others are counted apart.
TEST(Changepoint, SummaryTakesTheUpperQuartile) {
  std::vector<SteadyState> e;
  for (std::size_t k : {0, 4, 4, 4, 4, 5, 4, 9}) {
    SteadyState s;
    s.kind = k ? SteadyKind::Warmup : SteadyKind::Flat;
    s.steadyStart = k;
    e.push_back(s);
  }
  SteadyState none;
  none.kind = SteadyKind::NoSteadyState;
  none.steadyStart.reset();
  e.push_back(none);
  SteadyState slow;
  slow.kind = SteadyKind::Slowdown;
  slow.steadyStart = 12;
  e.push_back(slow);
  const WarmupSummary s = summarizeWarmup(e);
  EXPECT_EQ(s.executions, 10u);
  EXPECT_EQ(s.flat, 1u);
  EXPECT_EQ(s.warmup, 7u);
  EXPECT_EQ(s.noSteadyState, 1u);
  EXPECT_EQ(s.slowdown, 1u);
  // Sorted 0 4 4 4 4 4 5 9: type 7 at 0.75 -> h = 5.25, between 4 and 5 -> 4.25, up to 5.
  EXPECT_EQ(s.warmupIterations, 5u);
  EXPECT_EQ(s.longestWarmup, 9u);
  EXPECT_EQ(s.slowdownMedianAt, 12u);
  EXPECT_EQ(describeCounts(s), "1 flat, 7 warm-up, 1 slowdown, 1 no steady state");
  EXPECT_EQ(summarizeWarmup({}).warmupIterations, 0u);
}

// Series longer than 500 iterations are segmented as block means (PELT is
// quadratic without changes): the warm-up is found at block resolution,
// rounded up to a whole block.
TEST(Changepoint, LongSeriesAtBlockResolution) {
  const SteadyState a = classifySteadyState(leading(100, 3.0, 2000, 0.01, 21)); // blocks of 4
  EXPECT_EQ(a.kind, SteadyKind::Warmup);
  EXPECT_EQ(a.steadyStart.value_or(0), 100u);
  const SteadyState b = classifySteadyState(leading(5, 3.0, 10000, 0.01, 22)); // blocks of 20
  EXPECT_EQ(b.kind, SteadyKind::Warmup);
  EXPECT_EQ(b.steadyStart.value_or(0), 20u);
  EXPECT_EQ(b.window, 2500u);
  EXPECT_EQ(classifySteadyState(leading(0, 1.0, 10000, 0.01, 23)).kind, SteadyKind::Flat);
}
