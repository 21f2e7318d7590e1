// Step changes over revisions (analysis/revision_steps.hpp): a hand example
// against R; synthetic series of build means with deterministic layout noise
// (seeded alea::Rng, normal by Box-Muller) and known steps (one, two, none);
// the false-step rate over seeded level series; the optimal partitioning
// against a brute force over every partition; the error cases.
#include "alea/analysis/revision_steps.hpp"
#include "alea/random.hpp"
#include "normal_noise.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace alea::analysis;

namespace {

using Series = std::vector<std::vector<double>>;

using alea::analysis::test::Noise;

// `builds` build means per revision, revision r at level levels[r] (seconds
// around 2e-3), each build's mean off by its layout's relative noise.
Series series(const std::vector<double> &levels, std::size_t builds, double noise,
              std::uint64_t seed) {
  Noise e(seed, noise);
  Series out;
  for (double level : levels) {
    out.emplace_back();
    for (std::size_t b = 0; b < builds; ++b)
      out.back().push_back(2e-3 * level * (1.0 + e()));
  }
  return out;
}

std::vector<std::size_t> stepsAt(const StepAnalysis &a) {
  std::vector<std::size_t> at;
  for (const RevisionStep &s : a.steps)
    at.push_back(s.at);
  return at;
}

// The test's own pooled within-revision variance of log values, and the
// penalized cost of the partition that starts segments at `starts`, computed
// directly (segment by segment, two passes), not as the DP does.
struct Pooled {
  double variance = 0;
  std::size_t df = 0;
};

Pooled pooled(const Series &x) {
  Pooled p;
  double ss = 0;
  for (const auto &revision : x) {
    double mean = 0;
    for (double v : revision)
      mean += std::log(v);
    mean /= static_cast<double>(revision.size());
    for (double v : revision)
      ss += (std::log(v) - mean) * (std::log(v) - mean);
    p.df += revision.size() - 1;
  }
  p.variance = ss / static_cast<double>(p.df);
  return p;
}

double penalizedCost(const Series &x, const std::vector<std::size_t> &starts, double variance,
                     double beta) {
  double cost = beta * static_cast<double>(starts.size() - 1);
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t end = k + 1 < starts.size() ? starts[k + 1] : x.size();
    std::vector<double> y;
    for (std::size_t r = starts[k]; r < end; ++r)
      for (double v : x[r])
        y.push_back(std::log(v));
    double mean = 0;
    for (double v : y)
      mean += v;
    mean /= static_cast<double>(y.size());
    for (double v : y)
      cost += (v - mean) * (v - mean) / variance;
  }
  return cost;
}

} // namespace

// Three revisions, a 21% step between revisions 1 and 2; reference values
// from R 4.2.2 (y = log(x); df = sum(n - 1); sigma^2 = pooled within SS / df;
// d = mean(y after) - mean(y before); exp(d +- qt(0.975, df) * sigma *
// sqrt(1/5 + 1/3)); the segmentation by a brute force over the 4
// partitions with beta = 2 log 8).
TEST(RevisionSteps, HandExampleAgainstR) {
  const Series x{{1.00, 1.02, 0.98}, {1.01, 0.99}, {1.21, 1.19, 1.23}};
  const auto a = findRevisionSteps(x);
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a->df, 5u);
  EXPECT_NEAR(a->sigma, 0.017588497154578, 1e-14);
  EXPECT_EQ(a->segmentStarts, (std::vector<std::size_t>{0, 2}));
  ASSERT_EQ(a->steps.size(), 1u);
  const RevisionStep &s = a->steps[0];
  EXPECT_EQ(s.at, 2u);
  EXPECT_NEAR(s.ratio, 1.21001081273071, 1e-12);
  EXPECT_NEAR(s.interval.lower, 1.17071026544148, 1e-12);
  EXPECT_NEAR(s.interval.upper, 1.25063067280195, 1e-12);
  EXPECT_EQ(s.decision, Decision::Slower);
  // R: the optimal penalized cost 9.15891003673848.
  const Pooled p = pooled(x);
  EXPECT_NEAR(penalizedCost(x, a->segmentStarts, p.variance, 2 * std::log(8.0)), 9.15891003673848,
              1e-10);
}

// 6 revisions x 4 builds, 2.5% layout noise, 20% slower from revision 3 on.
TEST(RevisionSteps, OneTwentyPercentStepAtRevision3) {
  const Series x = series({1, 1, 1, 1.2, 1.2, 1.2}, 4, 0.025, 20240611);
  const auto a = findRevisionSteps(x);
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a->df, 18u);
  EXPECT_NEAR(a->sigma, 0.025, 0.01); // the noise put in
  EXPECT_EQ(a->segmentStarts, (std::vector<std::size_t>{0, 3}));
  ASSERT_EQ(a->steps.size(), 1u);
  const RevisionStep &s = a->steps[0];
  EXPECT_EQ(s.at, 3u);
  EXPECT_NEAR(s.ratio, 1.2, 0.03);
  EXPECT_TRUE(s.interval.contains(1.2)) << s.interval.lower << " " << s.interval.upper;
  EXPECT_TRUE(s.interval.contains(s.ratio));
  EXPECT_GT(s.interval.lower, 1.1); // 12 builds a side: a narrow interval
  EXPECT_LT(s.interval.upper, 1.3);
  EXPECT_EQ(s.decision, Decision::Slower);
}

// The same design over 100 seeds: the step is always found at revision 3 and
// decided Slower; an extra (spurious) step is rare, and the interval holds
// 1.2 about as often as a 95% interval should.
TEST(RevisionSteps, TwentyPercentStepAcrossSeeds) {
  std::size_t exactlyOne = 0, covered = 0;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    const Series x = series({1, 1, 1, 1.2, 1.2, 1.2}, 4, 0.025, alea::mixSeed(11, seed));
    const auto a = findRevisionSteps(x);
    ASSERT_TRUE(a.ok()) << a.error();
    bool found = false;
    for (const RevisionStep &s : a->steps)
      if (s.at == 3) {
        found = true;
        EXPECT_EQ(s.decision, Decision::Slower) << "seed " << seed;
        covered += s.interval.contains(1.2);
      }
    EXPECT_TRUE(found) << "seed " << seed;
    exactlyOne += a->steps.size() == 1;
  }
  EXPECT_GE(exactlyOne, 90u);
  EXPECT_GE(covered, 88u);
}

// 8 revisions x 4 builds at one level, 2.5% layout noise, 200 seeded series:
// the share of series in which a step is found (the false-step rate). Under
// BIC's 2 log 32 = 6.9 per step: 16 of 200 (8%), 7 of them (3.5%) with a step
// decided Faster or Slower at the default 1% threshold (20,000 series: 7.5%
// and 3.2%); under the default 3 log N (MBIC-like), 5 of 200. The bounds
// leave about 4 binomial SDs of room.
TEST(RevisionSteps, FalseStepRateOfLevelSeries) {
  std::size_t withStep = 0, decided = 0;
  StepOptions bic;
  bic.penaltyPerLogN = 2;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const Series x = series(std::vector<double>(8, 1.0), 4, 0.025, alea::mixSeed(22, seed));
    const auto a = findRevisionSteps(x, bic);
    ASSERT_TRUE(a.ok()) << a.error();
    withStep += !a->steps.empty();
    bool anyDecided = false;
    for (const RevisionStep &s : a->steps) {
      anyDecided |= s.decision == Decision::Faster || s.decision == Decision::Slower;
      EXPECT_NEAR(s.ratio, 1.0, 0.1) << "seed " << seed; // spurious steps are small
    }
    decided += anyDecided;
  }
  EXPECT_LE(withStep, 30u); // 15%
  EXPECT_LE(decided, 16u);  // 8%
  // The default, 3 log N (MBIC-like, cpt.mean's default), finds fewer.
  std::size_t withStepDefault = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const Series x = series(std::vector<double>(8, 1.0), 4, 0.025, alea::mixSeed(22, seed));
    withStepDefault += !findRevisionSteps(x)->steps.empty();
  }
  EXPECT_LT(withStepDefault, withStep);
  EXPECT_LE(withStepDefault, 10u); // 5%
}

// Up by 25% at revision 3, back down at revision 6 (9 revisions x 4 builds).
TEST(RevisionSteps, TwoStepsUpThenDown) {
  const Series x = series({1, 1, 1, 1.25, 1.25, 1.25, 1, 1, 1}, 4, 0.025, 31337);
  const auto a = findRevisionSteps(x);
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a->segmentStarts, (std::vector<std::size_t>{0, 3, 6}));
  ASSERT_EQ(a->steps.size(), 2u);
  EXPECT_EQ(a->steps[0].at, 3u);
  EXPECT_NEAR(a->steps[0].ratio, 1.25, 0.04);
  EXPECT_TRUE(a->steps[0].interval.contains(1.25));
  EXPECT_EQ(a->steps[0].decision, Decision::Slower);
  EXPECT_EQ(a->steps[1].at, 6u);
  EXPECT_NEAR(a->steps[1].ratio, 0.8, 0.03);
  EXPECT_TRUE(a->steps[1].interval.contains(0.8));
  EXPECT_EQ(a->steps[1].decision, Decision::Faster);
}

// A found step whose interval lies inside the threshold band is reported,
// decided NoChange: 0.5% slower, 0.05% noise, threshold 1%.
TEST(RevisionSteps, SmallStepIsReportedAsNoChange) {
  const Series x = series({1, 1, 1, 1.005, 1.005, 1.005}, 4, 0.0005, 7);
  const auto a = findRevisionSteps(x);
  ASSERT_TRUE(a.ok()) << a.error();
  ASSERT_EQ(stepsAt(*a), (std::vector<std::size_t>{3}));
  EXPECT_NEAR(a->steps[0].ratio, 1.005, 0.001);
  EXPECT_GT(a->steps[0].interval.lower, 1.0);
  EXPECT_EQ(a->steps[0].decision, Decision::NoChange);
  // The same step with a 0.1% threshold is Slower.
  StepOptions strict;
  strict.threshold = 0.001;
  const auto b = findRevisionSteps(x, strict);
  ASSERT_TRUE(b.ok()) << b.error();
  ASSERT_EQ(b->steps.size(), 1u);
  EXPECT_EQ(b->steps[0].decision, Decision::Slower);
  EXPECT_EQ(b->steps[0].interval.lower, a->steps[0].interval.lower);
}

// The penalty's extremes: 0 makes every revision its own segment (a split
// never raises the cost); a huge one makes none.
TEST(RevisionSteps, PenaltyExtremes) {
  const Series x = series({1, 1, 1.1, 1.1, 1.1}, 3, 0.02, 5);
  StepOptions none;
  none.penaltyPerLogN = 0;
  const auto all = findRevisionSteps(x, none);
  ASSERT_TRUE(all.ok()) << all.error();
  EXPECT_EQ(all->segmentStarts, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  StepOptions huge;
  huge.penaltyPerLogN = 1e6;
  const auto one = findRevisionSteps(x, huge);
  ASSERT_TRUE(one.ok()) << one.error();
  EXPECT_EQ(one->segmentStarts, (std::vector<std::size_t>{0}));
  EXPECT_TRUE(one->steps.empty());
  EXPECT_EQ(one->sigma, all->sigma);
}

// Only ratios count: seconds or nanoseconds give the same segmentation,
// ratios and intervals.
TEST(RevisionSteps, UnitDoesNotMatter) {
  const Series s = series({1, 1, 1.2, 1.2, 0.9, 0.9}, 3, 0.02, 99);
  Series ns = s;
  for (auto &revision : ns)
    for (double &v : revision)
      v *= 1e9;
  const auto a = findRevisionSteps(s), b = findRevisionSteps(ns);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->segmentStarts, b->segmentStarts);
  EXPECT_EQ(stepsAt(*a), (std::vector<std::size_t>{2, 4}));
  EXPECT_NEAR(a->sigma, b->sigma, 1e-12);
  ASSERT_EQ(a->steps.size(), b->steps.size());
  for (std::size_t i = 0; i < a->steps.size(); ++i) {
    EXPECT_NEAR(a->steps[i].ratio, b->steps[i].ratio, 1e-12);
    EXPECT_NEAR(a->steps[i].interval.lower, b->steps[i].interval.lower, 1e-12);
    EXPECT_NEAR(a->steps[i].interval.upper, b->steps[i].interval.upper, 1e-12);
  }
}

// The DP finds the least penalized cost over all 2^(R-1) partitions of the
// revisions: R = 2..8, unbalanced builds (1 to 4 per revision), random
// levels with a random number of jumps, three penalties; the cost of every
// partition computed directly. With continuous data the minimum is unique,
// so the partition must be the brute force's too. Each step's ratio is the
// adjacent segments' geometric-mean ratio, its interval the t interval.
TEST(RevisionSteps, OptimalPartitionMatchesBruteForce) {
  std::size_t cases = 0, multiStep = 0;
  for (std::size_t R = 2; R <= 8; ++R)
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      alea::Rng rng(alea::mixSeed(R, seed));
      Noise e(alea::mixSeed(seed, R), 0.03);
      Series x;
      double level = 1;
      for (std::size_t r = 0; r < R; ++r) {
        if (rng.below(3) == 0)
          level *= 0.9 + 0.2 * rng.uniform(); // a jump of up to +-10%
        x.emplace_back();
        const std::size_t builds = 1 + rng.below(4);
        for (std::size_t b = 0; b < builds; ++b)
          x.back().push_back(level * (1 + e()));
      }
      if (x[0].size() < 2)
        x[0].push_back(level * (1 + e())); // df > 0
      const Pooled p = pooled(x);
      std::size_t total = 0;
      for (const auto &revision : x)
        total += revision.size();
      for (double perLogN : {0.5, 2.0, 4.0}) {
        StepOptions o;
        o.penaltyPerLogN = perLogN;
        const double beta = perLogN * std::log(static_cast<double>(total));
        const auto a = findRevisionSteps(x, o);
        ASSERT_TRUE(a.ok()) << a.error();
        ++cases;
        EXPECT_EQ(a->df, p.df);
        EXPECT_NEAR(a->sigma, std::sqrt(p.variance), 1e-12);
        double best = std::numeric_limits<double>::infinity();
        std::vector<std::size_t> bestStarts;
        for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << (R - 1)); ++mask) {
          std::vector<std::size_t> starts{0};
          for (std::size_t r = 1; r < R; ++r)
            if (mask & (std::uint64_t{1} << (r - 1)))
              starts.push_back(r);
          const double cost = penalizedCost(x, starts, p.variance, beta);
          if (cost < best) {
            best = cost;
            bestStarts = starts;
          }
        }
        const std::string at = "R=" + std::to_string(R) + " seed=" + std::to_string(seed) +
                               " penalty=" + std::to_string(perLogN);
        EXPECT_NEAR(penalizedCost(x, a->segmentStarts, p.variance, beta), best,
                    1e-9 * std::abs(best) + 1e-9)
            << at;
        EXPECT_EQ(a->segmentStarts, bestStarts) << at;
        multiStep += a->steps.size() >= 2;
        // The steps' ratios and intervals, from the segments directly.
        const double q = tQuantileTwoSided(0.95, static_cast<double>(p.df));
        for (std::size_t i = 0; i < a->steps.size(); ++i) {
          const std::size_t from = a->segmentStarts[i], at1 = a->segmentStarts[i + 1];
          const std::size_t to = i + 2 < a->segmentStarts.size() ? a->segmentStarts[i + 2] : R;
          double before = 0, after = 0, nb = 0, na = 0;
          for (std::size_t r = from; r < to; ++r)
            for (double v : x[r]) {
              (r < at1 ? before : after) += std::log(v);
              (r < at1 ? nb : na) += 1;
            }
          const double d = after / na - before / nb;
          const double h = q * std::sqrt(p.variance * (1 / nb + 1 / na));
          EXPECT_EQ(a->steps[i].at, at1) << at;
          EXPECT_NEAR(a->steps[i].ratio, std::exp(d), 1e-12) << at;
          EXPECT_NEAR(a->steps[i].interval.lower, std::exp(d - h), 1e-12) << at;
          EXPECT_NEAR(a->steps[i].interval.upper, std::exp(d + h), 1e-12) << at;
          EXPECT_EQ(a->steps[i].decision, decide(a->steps[i].interval, 0.01)) << at;
          // Optimality: merging the two segments would save beta and cost
          // d^2 / (sigma^2 (1/nb + 1/na)), so that is at least beta.
          EXPECT_GE(d * d / (p.variance * (1 / nb + 1 / na)), beta * (1 - 1e-12)) << at;
        }
      }
    }
  EXPECT_EQ(cases, 7u * 40u * 3u);
  EXPECT_GT(multiStep, 20u); // the brute force was not only checked on 0 or 1 step
}

TEST(RevisionSteps, Errors) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  const auto error = [](const Series &x, const StepOptions &o = {}) {
    const auto a = findRevisionSteps(x, o);
    return a.ok() ? std::string("ok") : a.error();
  };
  const auto has = [](const std::string &message, const std::string &part) {
    return message.find(part) != std::string::npos;
  };
  EXPECT_TRUE(has(error({}), "at least 2 revisions, got 0"));
  EXPECT_TRUE(has(error({{1.0, 1.1}}), "at least 2 revisions, got 1"));
  EXPECT_TRUE(has(error({{1.0, 1.1}, {}}), "revision 1 has no build"));
  EXPECT_TRUE(has(error({{1.0, 1.1}, {0.0}}), "revision 1 has a build mean that is not"));
  EXPECT_TRUE(has(error({{-1.0, 1.1}, {1.0}}), "revision 0 has a build mean that is not"));
  EXPECT_TRUE(has(error({{1.0, nan}, {1.0}}), "not a finite number > 0"));
  EXPECT_TRUE(has(error({{1.0, inf}, {1.0}}), "not a finite number > 0"));
  EXPECT_TRUE(has(error({{1.0}, {1.1}, {1.2}}), "0 degrees of freedom"));
  EXPECT_TRUE(has(error({{1.0, 1.0}, {1.2, 1.2}, {1.3}}), "no layout noise"));
  const Series ok{{1.0, 1.1}, {1.2, 1.3}};
  EXPECT_EQ(error(ok), "ok");
  for (double c : {0.0, 1.0, nan}) {
    StepOptions o;
    o.confidence = c;
    EXPECT_TRUE(has(error(ok, o), "confidence")) << c;
  }
  for (double t : {-0.01, inf, nan}) {
    StepOptions o;
    o.threshold = t;
    EXPECT_TRUE(has(error(ok, o), "threshold")) << t;
  }
  for (double p : {-1.0, inf, nan}) {
    StepOptions o;
    o.penaltyPerLogN = p;
    EXPECT_TRUE(has(error(ok, o), "penalty")) << p;
  }
}
