// Simulated A/A campaigns of the interleaved (paired) design (issue 19, item
// 2): does the paired analysis raise more false alarms than its nominal 5%,
// and under which kind of noise? Each campaign is 2 systems x B builds x E
// executions x 1 iteration (default 5 x 3) with the SAME true mean; its plan is
// the product's (runner::makeSchedule, design "interleaved": shuffled blocks,
// mirrored orders), its times come from a scenario's noise model walked in plan
// order (layout effects per build, execution noise, time-local noise over
// positions, carry-over between neighbours, position in the block, heavy
// tails), and its analysis is the product's (analysis::buildReport, as `alea
// report` calls it: balancing, pairing by build label, paired Fieller, the
// paired bootstrap when Fieller is unbounded, the decision), once paired and
// once unpaired on the same data. A false alarm is the decision's interval
// (Fieller's; the bootstrap's when Fieller is unbounded) excluding 1.0.
// Prints per scenario both false-alarm rates with Clopper-Pearson intervals
// and the median relative half-widths; docs/benchmarks.md holds the table.
// A benchmark, not a test: nothing is asserted. Campaign k of scenario NAME
// draws from mixSeed(mixSeed(seed, NAME), k): results do not depend on --threads.
//
//   alea_validity_sim [--campaigns N] [--seed S] [--threads T]
//                     [--bootstrap R] [--only NAME[,NAME...]] [--list]
#include "alea/analysis/htest.hpp"
#include "alea/analysis/report.hpp"
#include "alea/analysis/table.hpp"
#include "alea/campaign/scheduler.hpp"
#include "alea/random.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using alea::analysis::Pairing;

enum class Shape { Normal, T3, Lognormal };

// One noise model. Times are mu x (1 + sum of the relative effects below),
// outliers then doubled; "sd" are standard deviations relative to mu.
struct Scenario {
  const char *name;
  const char *what;
  int builds = 5, executions = 3;
  // Layout (build) effect, one per system and build: independent layouts, as
  // an A/A campaign's cand build i and base build i are different seeds.
  double layoutSd = 0.02;
  Shape layoutShape = Shape::Normal;
  bool sameLayout = false; // cand build i has base build i's layout
  // Execution noise, independent per execution.
  double noiseSd = 0.03;
  Shape noiseShape = Shape::Normal;
  double outlierRate = 0; // an execution takes twice as long
  // Time-local noise over plan positions.
  double arPhi = 0, arSd = 0; // AR(1), stationary sd
  double burstRate = 0;       // per position, when no burst is on
  double burstLength = 0;     // mean positions (geometric)
  double burstSize = 0;       // added while on
  double trend = 0;           // added linearly from 0 (first) to this (last)
  double maSd = 0; // MA(1): (u_t + u_{t-1}) / sqrt 2, a slowdown shared by two neighbours
  // Carry-over from the previous execution in plan order.
  double afterOther = 0, afterSame = 0; // added after a different / the same system
  double carryShare = 0;                // this share of the previous time added
  double firstInBlock = 0;              // added to the first execution of a block
  // A build's blocks run one after another (as an adaptive campaign's batches
  // are contiguous in time), not shuffled among all blocks.
  bool clustered = false;
  // A schedule considered as a fix for noise shared by neighbours: a build pair's blocks
  // run one after another, the build pairs in random order, the mirrored
  // orders continuing across the whole plan (A B | B A | A B | B A ...), so
  // that a block boundary lies between two blocks of the same pair in all
  // but B - 1 places.
  bool pairConsecutive = false;
  // Another candidate: orders repeated, then mirrored, two blocks at a time
  // (A B | A B | B A | B A ...): half the block boundaries have the same
  // system on both sides, half different ones; each system is first in half
  // the blocks, but follows the other system in 3 of 4 executions.
  bool twoByTwo = false;
};

// A scenario that plausibly matches a loaded 2-core machine: drifting load,
// bursts, some carry-over and position effect, skewed noise, rare outliers.
Scenario loaded(const char *name, const char *what) {
  Scenario s{name, what};
  s.noiseShape = Shape::Lognormal;
  s.outlierRate = 0.01;
  s.arPhi = 0.9;
  s.arSd = 0.05;
  s.burstRate = 0.03;
  s.burstLength = 6;
  s.burstSize = 0.3;
  s.afterOther = 0.03;
  s.firstInBlock = 0.02;
  return s;
}

// Noise that neighbouring executions share, 15% (MA(1) when maSd > 0, else
// AR(1) with this phi), with the pair seed (a pair's builds share their layout).
Scenario sharedByNeighbours(const char *name, const char *what, double maSd, double arPhi) {
  Scenario s{name, what};
  s.layoutSd = 0.04;
  s.sameLayout = true;
  s.maSd = maSd;
  s.arPhi = arPhi;
  s.arSd = maSd > 0 ? 0 : 0.15;
  return s;
}

std::vector<Scenario> scenarios() {
  std::vector<Scenario> out;
  auto add = [&](Scenario s) { out.push_back(s); };
  add({"iid", "normal layouts 2%, normal noise 3%"});
  {
    Scenario s{"no-layout", "no layout effect, normal noise 3%"};
    s.layoutSd = 0;
    add(s);
  }
  {
    Scenario s{"layout-lognormal", "skewed (lognormal) layouts 3%"};
    s.layoutSd = 0.03;
    s.layoutShape = Shape::Lognormal;
    add(s);
  }
  {
    Scenario s{"layout-t3", "heavy-tailed (t3) layouts 3%"};
    s.layoutSd = 0.03;
    s.layoutShape = Shape::T3;
    add(s);
  }
  {
    Scenario s{"same-layout", "cand build i = base build i's layout (rho ~ 0.8)"};
    s.layoutSd = 0.04;
    s.sameLayout = true;
    add(s);
  }
  {
    Scenario s{"ar1", "+ AR(1) drift, phi 0.9, sd 5%"};
    s.arPhi = 0.9;
    s.arSd = 0.05;
    add(s);
  }
  {
    Scenario s{"ar1-slow", "+ AR(1) drift, phi 0.99, sd 10%"};
    s.arPhi = 0.99;
    s.arSd = 0.10;
    add(s);
  }
  {
    Scenario s{"bursts", "+ load bursts: 3%/position, ~6 long, +30%"};
    s.burstRate = 0.03;
    s.burstLength = 6;
    s.burstSize = 0.3;
    add(s);
  }
  {
    Scenario s{"trend", "+ linear trend, +20% over the campaign"};
    s.trend = 0.2;
    add(s);
  }
  {
    Scenario s{"after-other", "+ 5% slower after the other system"};
    s.afterOther = 0.05;
    add(s);
  }
  {
    Scenario s{"after-same", "+ 5% slower after the same system"};
    s.afterSame = 0.05;
    add(s);
  }
  {
    Scenario s{"carry-share", "+ 20% of the previous execution's time"};
    s.carryShare = 0.2;
    add(s);
  }
  {
    Scenario s{"first-in-block", "+ 5% slower when first in its block"};
    s.firstInBlock = 0.05;
    add(s);
  }
  {
    Scenario s{"noise-t3", "heavy-tailed (t3) noise 3%"};
    s.noiseShape = Shape::T3;
    add(s);
  }
  {
    Scenario s{"outliers", "+ 2% of executions take 2x"};
    s.outlierRate = 0.02;
    add(s);
  }
  {
    Scenario s{"noise-lognormal", "skewed (lognormal) noise 3%"};
    s.noiseShape = Shape::Lognormal;
    add(s);
  }
  {
    Scenario s{"exec-4", "iid, 4 executions per build"};
    s.executions = 4;
    add(s);
  }
  {
    Scenario s{"builds-10", "iid, 10 builds"};
    s.builds = 10;
    add(s);
  }
  {
    Scenario s{"clustered-ar1", "a build's blocks contiguous + AR(1) 0.99, 10%"};
    s.clustered = true;
    s.arPhi = 0.99;
    s.arSd = 0.10;
    add(s);
  }
  add(loaded("loaded", "ar1 + bursts + after-other 3% + first 2% + lognormal + 1% outliers"));
  {
    Scenario s = loaded("loaded-exec-4", "loaded, 4 executions per build");
    s.executions = 4;
    add(s);
  }
  {
    Scenario s = loaded("loaded-builds-10", "loaded, 10 builds");
    s.builds = 10;
    add(s);
  }
  {
    Scenario s = loaded("loaded-carry", "loaded + 20% carry-share + after-same 3%");
    s.carryShare = 0.2;
    s.afterSame = 0.03;
    add(s);
  }
  {
    Scenario s = loaded("loaded-clustered", "loaded, a build's blocks contiguous");
    s.clustered = true;
    add(s);
  }
  {
    Scenario s = loaded("loaded-no-layout", "loaded, no layout effect");
    s.layoutSd = 0;
    add(s);
  }
  // Noise that two neighbouring executions share (issue 19, Lua under a
  // parallel build: consecutive executions' wall times correlate at +0.45 to
  // +0.49, within a block and across its boundary alike). The mirrored orders
  // put the same system on both sides of every block boundary, so such noise
  // moves neighbouring blocks' differences the same way, and neighbouring
  // blocks belong to different build pairs: the pairs' differences are
  // correlated, which the paired analysis takes as independent.
  add(sharedByNeighbours("ma1", "pair seed; MA(1) noise sd 15%: two neighbours share it", 0.15, 0));
  {
    Scenario s = sharedByNeighbours("ma1-consecutive", "ma1, a pair's blocks consecutive", 0.15, 0);
    s.pairConsecutive = true;
    add(s);
  }
  {
    Scenario s = sharedByNeighbours("ma1-two-by-two", "ma1, orders A B | A B | B A | B A", 0.15, 0);
    s.twoByTwo = true;
    add(s);
  }
  add(sharedByNeighbours("ar1-fast", "pair seed; AR(1) drift phi 0.5, sd 15%", 0, 0.5));
  {
    Scenario s =
        sharedByNeighbours("ar1-fast-consecutive", "ar1-fast, a pair's blocks consecutive", 0, 0.5);
    s.pairConsecutive = true;
    add(s);
  }
  return out;
}

// Box-Muller on alea::Rng (portable: the same normals everywhere).
double normal(alea::Rng &rng) {
  double u1;
  do
    u1 = rng.uniform();
  while (u1 <= 0);
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * rng.uniform());
}

// A draw of mean 0 and standard deviation 1 of the given shape.
double standardDraw(Shape shape, alea::Rng &rng) {
  switch (shape) {
  case Shape::Normal:
    return normal(rng);
  case Shape::T3: { // t with 3 df has variance 3
    double chi2 = 0;
    for (int i = 0; i < 3; ++i) {
      const double z = normal(rng);
      chi2 += z * z;
    }
    return normal(rng) / std::sqrt(chi2 / 3) / std::sqrt(3.0);
  }
  case Shape::Lognormal: { // exp(N(0,1)): skewness 6.2
    const double mean = std::exp(0.5), sd = std::sqrt((std::exp(1.0) - 1) * std::exp(1.0));
    return (std::exp(normal(rng)) - mean) / sd;
  }
  }
  return 0;
}

struct Outcome {
  bool alarm = false;     // the decision's interval excludes 1
  bool bootstrap = false; // Fieller unbounded: the bootstrap decided
  double halfWidth = 0;   // relative: (upper - lower) / 2 / estimate
  bool ok = false;
};

// The analyses of one campaign's data: paired as `alea report` does it (the
// rows carry their start times: the factor for neighbouring blocks, issue
// 19), paired without the start times (as `alea analyze --paired` of a CSV,
// and `alea report` before that factor), and unpaired.
enum Analysis { kPaired, kPairedWithoutTimes, kUnpaired, kAnalyses };

struct CampaignResult {
  Outcome outcome[kAnalyses];
};

constexpr double kMu = 0.15; // seconds, as the Lua workload

CampaignResult simulateCampaign(const Scenario &sc, std::uint64_t seed,
                                std::size_t bootstrapReplicates) {
  namespace runner = alea::runner;
  runner::ScheduleShape shape;
  shape.systemIds = {1, 2}; // 1 = base, 2 = cand
  shape.benchmarkIds = {1};
  shape.builds = sc.builds;
  shape.executions = sc.executions;
  shape.design = alea::Design::Interleaved;
  std::vector<runner::PlanEntry> plan = runner::makeSchedule(shape, seed);
  if (sc.clustered) // blocks of one build together, each block's order kept
    std::stable_sort(plan.begin(), plan.end(),
                     [](const auto &a, const auto &b) { return a.buildIndex < b.buildIndex; });
  if (sc.pairConsecutive) { // builds in the order they first appear, orders mirrored throughout
    std::vector<int> rank(sc.builds, -1);
    int next = 0;
    for (const auto &p : plan)
      if (rank[p.buildIndex] < 0)
        rank[p.buildIndex] = next++;
    std::stable_sort(plan.begin(), plan.end(), [&](const auto &a, const auto &b) {
      return rank[a.buildIndex] < rank[b.buildIndex];
    });
    const std::int64_t first = plan[0].systemId;
    for (std::size_t t = 0; t + 1 < plan.size(); t += 2) {
      const bool mirrored = (t / 2) % 2 == 1;
      if ((plan[t].systemId == first) == mirrored)
        std::swap(plan[t], plan[t + 1]);
    }
  }

  if (sc.twoByTwo) { // block k (positions 2k, 2k+1): the first system first when (k / 2) is even
    const std::int64_t first = plan[0].systemId;
    for (std::size_t t = 0; t + 1 < plan.size(); t += 2)
      if ((plan[t].systemId == first) != ((t / 4) % 2 == 0))
        std::swap(plan[t], plan[t + 1]);
  }
  alea::Rng rng(alea::mixSeed(seed, "times"));
  std::vector<double> layout(2 * sc.builds);
  for (int b = 0; b < sc.builds; ++b) {
    layout[b] = sc.layoutSd * standardDraw(sc.layoutShape, rng);
    layout[sc.builds + b] =
        sc.sameLayout ? layout[b] : sc.layoutSd * standardDraw(sc.layoutShape, rng);
  }
  alea::analysis::Table table({"build", "execution"}), plain({"build", "execution"});
  const std::size_t n = plan.size();
  double ar = sc.arSd * normal(rng);
  double maPrevious = sc.maSd > 0 ? normal(rng) : 0; // no draw otherwise: the other
                                                     // scenarios keep their streams
  int burstLeft = 0;
  double previous = 0;
  std::int64_t previousSystem = 0, previousBlock = -2;
  for (std::size_t t = 0; t < n; ++t) {
    const runner::PlanEntry &p = plan[t];
    if (t > 0)
      ar = sc.arPhi * ar + std::sqrt(1 - sc.arPhi * sc.arPhi) * sc.arSd * normal(rng);
    if (burstLeft > 0)
      --burstLeft;
    else if (sc.burstRate > 0 && rng.uniform() < sc.burstRate) {
      burstLeft = 1; // geometric length with mean burstLength
      while (rng.uniform() < 1 - 1 / sc.burstLength)
        ++burstLeft;
    }
    const double maNow = sc.maSd > 0 ? normal(rng) : 0;
    const double ma = sc.maSd * (maNow + maPrevious) / std::sqrt(2.0);
    maPrevious = maNow;
    double rel = ma + layout[(p.systemId - 1) * sc.builds + p.buildIndex] +
                 sc.noiseSd * standardDraw(sc.noiseShape, rng) + ar +
                 (burstLeft > 0 ? sc.burstSize : 0) +
                 (n > 1 ? sc.trend * static_cast<double>(t) / static_cast<double>(n - 1) : 0);
    if (p.block != previousBlock)
      rel += sc.firstInBlock;
    if (t > 0)
      rel += p.systemId == previousSystem ? sc.afterSame : sc.afterOther;
    double value = kMu * (1 + rel) + (t > 0 ? sc.carryShare * previous : 0);
    if (sc.outlierRate > 0 && rng.uniform() < sc.outlierRate)
      value *= 2;
    value = std::max(value, 1e-3 * kMu); // a time stays positive
    previous = value;
    previousSystem = p.systemId;
    previousBlock = p.block;
    const std::string b = std::to_string(p.buildIndex), e = std::to_string(p.executionIndex);
    const std::string_view units[] = {b, e};
    table.add(p.systemId == 1 ? "base" : "cand", "", units, value, 0, static_cast<double>(t));
    plain.add(p.systemId == 1 ? "base" : "cand", "", units, value);
  }

  CampaignResult out;
  for (int a = 0; a < kAnalyses; ++a) {
    const Pairing pairing = a == kUnpaired ? Pairing::Unpaired : Pairing::Paired;
    // As report/model/src/campaign_report.cpp sets them for a campaign of this shape.
    alea::analysis::ReportOptions ro;
    ro.baseline = "base";
    ro.bootstrapReplicates = bootstrapReplicates;
    ro.threads = 1; // campaigns run in parallel instead
    ro.pairing = pairing;
    // Warnings only (outliers, layout modes; Touati's test): they never touch
    // the ratio's interval or decision, and would cost half the time.
    ro.diagnostics = false;
    ro.speedupTest = false;
    ro.seed = alea::mixSeed(seed, "report-bootstrap");
    auto report = alea::analysis::buildReport(a == kPairedWithoutTimes ? plain : table, ro);
    Outcome &o = out.outcome[a];
    if (!report || report->benchmarks.empty() || report->benchmarks[0].ratios.empty())
      continue;
    const auto &r = report->benchmarks[0].ratios[0];
    const alea::analysis::Interval interval = r.fieller ? *r.fieller : r.bootstrap;
    o.ok = true;
    o.bootstrap = !r.fieller;
    o.alarm = !interval.contains(1.0);
    o.halfWidth = interval.width() / 2 / r.estimate;
  }
  return out;
}

struct Summary {
  std::size_t campaigns = 0, failed = 0;
  std::size_t alarms[kAnalyses] = {}, fallbacks[kAnalyses] = {};
  double medianHalfWidth[kAnalyses] = {};
};

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

Summary runScenario(const Scenario &sc, std::size_t campaigns, std::uint64_t seed, unsigned threads,
                    std::size_t bootstrapReplicates) {
  std::vector<CampaignResult> results(campaigns);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < campaigns;)
      results[k] =
          simulateCampaign(sc, alea::mixSeed(alea::mixSeed(seed, sc.name), k), bootstrapReplicates);
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i)
    pool.emplace_back(work);
  work();
  for (auto &t : pool)
    t.join();

  Summary s;
  std::vector<double> widths[kAnalyses];
  for (const CampaignResult &r : results) {
    if (!std::all_of(std::begin(r.outcome), std::end(r.outcome),
                     [](const Outcome &o) { return o.ok; })) {
      ++s.failed;
      continue;
    }
    ++s.campaigns;
    for (int a = 0; a < kAnalyses; ++a) {
      s.alarms[a] += r.outcome[a].alarm;
      s.fallbacks[a] += r.outcome[a].bootstrap;
      widths[a].push_back(r.outcome[a].halfWidth);
    }
  }
  for (int a = 0; a < kAnalyses; ++a)
    s.medianHalfWidth[a] = median(widths[a]);
  return s;
}

std::string rateCell(std::size_t x, std::size_t n) {
  char buf[64];
  auto cp = alea::analysis::clopperPearsonInterval(x, std::max<std::size_t>(n, 1));
  std::snprintf(buf, sizeof buf, "%5.2f%% [%5.2f, %5.2f]", 100.0 * x / std::max<std::size_t>(n, 1),
                cp ? 100 * cp->lower : 0.0, cp ? 100 * cp->upper : 0.0);
  return buf;
}

bool selected(const std::string &only, std::string_view name) {
  if (only.empty())
    return true;
  std::string_view rest = only;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == name)
      return true;
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return false;
}

} // namespace

int main(int argc, char **argv) {
  std::size_t campaigns = 10000, bootstrapReplicates = 2000;
  std::uint64_t seed = 19;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::string only;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "--campaigns" && hasValue)
      campaigns = static_cast<std::size_t>(std::atoll(argv[++i]));
    else if (a == "--seed" && hasValue)
      seed = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--threads" && hasValue)
      threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    else if (a == "--bootstrap" && hasValue)
      bootstrapReplicates = static_cast<std::size_t>(std::atoll(argv[++i]));
    else if (a == "--only" && hasValue)
      only = argv[++i];
    else if (a == "--list")
      list = true;
    else {
      std::fprintf(stderr, "alea: error: unknown argument '%s' (see the file's header)\n",
                   a.c_str());
      return 2;
    }
  }
  const std::vector<Scenario> all = scenarios();
  if (list) {
    for (const Scenario &s : all)
      std::printf("%-18s %s\n", s.name, s.what);
    return 0;
  }
  std::printf("A/A campaigns per scenario: %zu (seed %llu, bootstrap %zu replicates); "
              "2 systems x builds x executions x 1, design interleaved\n",
              campaigns, static_cast<unsigned long long>(seed), bootstrapReplicates);
  std::printf("false alarm: the decision's 95%% interval excludes 1.0 [Clopper-Pearson 95%%]; "
              "hw: median relative half-width\n\n");
  std::printf("paired: as `alea report` (the start times known: the factor for neighbouring "
              "blocks); without times: paired as a CSV is (and `alea report` before issue 19's "
              "factor)\n\n");
  std::printf("%-20s %2s %2s  %-26s %-26s %-26s %7s %7s %7s %5s\n", "scenario", "B", "E",
              "paired false alarms", "without times", "unpaired false alarms", "hw pair",
              "hw w/o t", "hw unp", "boot");
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Scenario &sc = all[i];
    if (!selected(only, sc.name))
      continue;
    const Summary s = runScenario(sc, campaigns, seed, threads, bootstrapReplicates);
    std::printf("%-20s %2d %2d  %-26s %-26s %-26s %6.2f%% %6.2f%% %6.2f%% %5zu%s\n", sc.name,
                sc.builds, sc.executions, rateCell(s.alarms[kPaired], s.campaigns).c_str(),
                rateCell(s.alarms[kPairedWithoutTimes], s.campaigns).c_str(),
                rateCell(s.alarms[kUnpaired], s.campaigns).c_str(),
                100 * s.medianHalfWidth[kPaired], 100 * s.medianHalfWidth[kPairedWithoutTimes],
                100 * s.medianHalfWidth[kUnpaired],
                s.fallbacks[kPaired] + s.fallbacks[kPairedWithoutTimes] + s.fallbacks[kUnpaired],
                s.failed ? (" (" + std::to_string(s.failed) + " not analysed)").c_str() : "");
    std::fflush(stdout);
  }
  return 0;
}
