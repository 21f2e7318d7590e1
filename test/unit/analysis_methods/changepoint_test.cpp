// Warm-up detection by changepoints (analysis/changepoint.hpp): synthetic
// series with a known number of slow leading iterations, deterministic noise
// (seeded alea::Rng, normal by Box-Muller), several noise levels and step
// sizes; a gradual decay; a late slowdown; changes to the end (no steady
// state); short series; the summary over executions.
#include "alea/analysis/changepoint.hpp"
#include "alea/random.hpp"
#include "normal_noise.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace alea::analysis;

namespace {

using alea::analysis::test::Noise;

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

// The campaign's warm-up is the latest steady-state start of the flat and
// warm-up executions, so that every one of them is steady once it is dropped;
// the others are counted apart. (It was the upper quartile, 5 here: the
// execution still warming up at 9 kept 4 warm-up iterations in the data.)
TEST(Changepoint, SummaryCoversEveryExecution) {
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
  EXPECT_EQ(s.warmupIterations, 9u);
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

namespace {

// One execution of 20 iterations on a loaded machine (issue 18): the first 4
// iterations 6-20x slower than the steady 1 ms (each drawn on its own), the
// steady state with log-normal noise of SD `noise`, and 2 or 3 interrupts of
// 1 or 2 iterations each, 5 iterations at most, slowed 2-4x, anywhere from
// iteration 5 on and never touching each other: the warm-up and the
// interrupts together stay fewer than half the series. (An interrupt right
// at iteration 4 cannot be told from a last warm-up iteration:
// AnInterruptRightAfterTheWarmupCountsAsWarmup.)
std::vector<double> loadedMachine(alea::Rng &rng, double noise) {
  const auto normal = [&] {
    const double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
  };
  std::vector<double> x;
  for (int i = 0; i < 20; ++i)
    x.push_back(1e-3 * (i < 4 ? 6 + 14 * rng.uniform() : std::exp(noise * normal())));
  std::vector<bool> hit(20, false);
  const int runs = rng.uniform() < 0.5 ? 2 : 3;
  for (int r = 0, total = 0; r < runs && total < 5;) {
    const int len = std::min(rng.uniform() < 0.5 ? 1 : 2, 5 - total);
    const int at = 5 + static_cast<int>(rng.uniform() * (16 - len));
    bool free = true;
    for (int j = at - 1; j <= at + len && j < 20; ++j)
      free = free && !hit[j];
    if (!free)
      continue;
    for (int j = at; j < at + len; ++j) {
      hit[j] = true;
      x[j] *= 2 + 2 * rng.uniform();
    }
    total += len;
    ++r;
  }
  return x;
}

} // namespace

// Issue 18 item 12: a pilot of 9 such executions was "4 flat, 5 warm-up".
// Two causes: the interrupts after the slow start drew the mean-and-variance
// likelihood to one first segment holding the warm-up and the interrupts
// (its SD then reached the steady state), and a warm-up segment's own SD,
// as large as its mean when its iterations range over 6-20x, overlapped the
// steady state. Now every execution is a warm-up of exactly 4, and so is the
// campaign's. Measured on 1000 such executions per noise level: before the
// fix 16%, 11% and 11% were "flat" at 5%, 10% and 15% noise (and 3 to 6%
// found elsewhere); after it 1000, 1000 and 994 are warm-ups of 4, and 986
// at 30% noise (the rest: an interrupt at 5-6 within 2.5 SDs of a noisy
// steady state, noise of 2.5 SDs right at iteration 4, or so much noise
// that 4 slow iterations in 20 do not pay the penalty 15 log n). The test
// takes the noise levels at which all 1000 were right.
TEST(Changepoint, FourSlowStartsOnALoadedMachineAreWarmups) {
  for (double noise : {0.05, 0.1})
    for (std::uint64_t pilot = 1; pilot <= 8; ++pilot) {
      alea::Rng rng(pilot * 1000 + static_cast<std::uint64_t>(noise * 100));
      std::vector<SteadyState> states;
      for (int e = 0; e < 9; ++e) {
        const auto x = loadedMachine(rng, noise);
        states.push_back(classifySteadyState(x));
        std::string series;
        for (double v : x)
          series += " " + std::to_string(v * 1e3).substr(0, 5);
        EXPECT_EQ(states.back().kind, SteadyKind::Warmup)
            << steadyKindName(states.back().kind) << " noise " << noise << ":" << series;
        EXPECT_EQ(states.back().steadyStart.value_or(99), 4u) << "noise " << noise << ":" << series;
      }
      const WarmupSummary s = summarizeWarmup(states);
      EXPECT_EQ(s.warmup, 9u);
      EXPECT_EQ(s.warmupIterations, 4u);
    }
}

// A warm-up whose iterations differ wildly (5x, 99x, 11x, 13x the steady
// time): its mean +- SD reached below the steady state, so the execution
// was "flat". A segment other than the final one is now taken at its mean
// +- standard error, how well its level is known.
TEST(Changepoint, AWarmupsOwnSpreadDoesNotMakeItFlat) {
  Noise e(3, 0.01);
  std::vector<double> x = {5, 99, 11, 13};
  for (int i = 0; i < 16; ++i)
    x.push_back(1.0 + e());
  const SteadyState s = classifySteadyState(x);
  ASSERT_EQ(s.segments.size(), 2u);
  EXPECT_EQ(s.segments[0].end, 4u);
  EXPECT_GT(s.segments[0].sd, s.segments[0].mean); // the spread that made it "flat"
  EXPECT_EQ(s.kind, SteadyKind::Warmup) << steadyKindName(s.kind);
  EXPECT_EQ(s.steadyStart.value_or(99), 4u);
}

// What is left out of the segmentation as interference: runs of at most 2
// iterations above the steady level + 2.5 SDs, not at iteration 0; the level
// and SD come from the shortest half, so 4 warm-up iterations and 5
// interrupts in 20 do not hide the interrupts. A slow start of any length,
// and longer slow runs (a phase), stay.
TEST(Changepoint, InterferenceIsLeftOutOfTheSegmentation) {
  Noise e(5, 0.01);
  std::vector<double> x;
  for (int i = 0; i < 20; ++i)
    x.push_back(1.0 + e());
  for (int i : {0, 1, 2, 3})
    x[i] *= 8;
  for (int i : {6, 7, 10, 14, 15})
    x[i] *= 3;
  std::vector<bool> want(20, false);
  for (int i : {6, 7, 10, 14, 15})
    want[i] = true;
  EXPECT_EQ(interference(x), want);
  const SteadyState s = classifySteadyState(x);
  EXPECT_EQ(s.interference, 5u);
  EXPECT_EQ(s.kind, SteadyKind::Warmup);
  EXPECT_EQ(s.steadyStart.value_or(99), 4u);
  // Three slow iterations in a row are a phase, not an interrupt.
  std::vector<double> phase(20, 1.0);
  for (int i : {9, 10, 11})
    phase[i] = 3;
  EXPECT_EQ(interference(phase), std::vector<bool>(20, false));
  // A coarse clock (two ticks 1% apart, the upper one isolated): the upper
  // ticks are left out, which leaves a flat series flat.
  std::vector<double> ticks;
  for (int i = 0; i < 20; ++i)
    ticks.push_back(i % 3 ? 1.00 : 1.01);
  EXPECT_EQ(classifySteadyState(ticks).kind, SteadyKind::Flat);
  EXPECT_EQ(interference(std::vector<double>{1, 5}), std::vector<bool>(2, false));
}

// An interrupt right after the warm-up (iteration 4, 2.5x while the warm-up
// is 8-16x) is one more slow iteration at the start: the steady state starts
// after it, the safe side. A steady iteration 1.3x the median there is
// within the steady state's noise and is not taken for warm-up, even though
// the mean-and-variance likelihood puts it in the wide warm-up segment.
TEST(Changepoint, AnInterruptRightAfterTheWarmupCountsAsWarmup) {
  Noise e(7, 0.1);
  std::vector<double> x = {8, 12, 16, 10};
  for (int i = 0; i < 16; ++i)
    x.push_back(std::exp(e()));
  x[4] = 2.5;
  EXPECT_EQ(classifySteadyState(x).steadyStart.value_or(99), 5u);
  x[4] = 1.3;
  const SteadyState s = classifySteadyState(x);
  EXPECT_EQ(s.kind, SteadyKind::Warmup);
  EXPECT_EQ(s.steadyStart.value_or(99), 4u);
}
