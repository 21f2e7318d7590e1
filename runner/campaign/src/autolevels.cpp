// Pilot-based "auto" levels and warm-up (see autolevels.hpp for the method
// and its sources).
#include "alea/campaign/autolevels.hpp"

#include "alea/analysis/changepoint.hpp"
#include "alea/analysis/hierarchy.hpp"
#include "alea/analysis/math_policy.hpp"
#include "alea/analysis/planner.hpp"
#include "alea/analysis/ratio_planner.hpp"
#include "alea/analysis/variance.hpp"
#include "alea/words.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <utility>

namespace alea::runner {

namespace {
constexpr int kPilotBuilds = 3, kPilotExecutions = 3, kPilotIterations = 10, kWarmupProbe = 10;
constexpr int kMaxBuilds = 100, kMaxExecutions = 100, kMaxIterations = 10000;

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}
} // namespace

LevelCounts pilotCounts(const CampaignConfig &c) {
  LevelCounts p;
  p.builds = c.builds.automatic ? kPilotBuilds : c.builds.count;
  p.executions = c.executions.automatic ? kPilotExecutions : c.executions.count;
  p.iterations = c.iterations.automatic ? kPilotIterations : c.iterations.count;
  p.warmup = c.warmup.automatic ? 0 : c.warmup.count;
  if (c.warmup.automatic)
    p.iterations += kWarmupProbe;
  return p;
}

CampaignConfig pilotConfig(const CampaignConfig &c) {
  CampaignConfig p = c;
  LevelCounts n = pilotCounts(c);
  p.builds = {false, n.builds};
  p.executions = {false, n.executions};
  p.iterations = {false, n.iterations};
  p.warmup = {false, n.warmup};
  p.name = c.name + " (pilot)";
  p.adaptive = {}; // the pilot is a fixed design; the main campaign adapts
  return p;
}

WarmupDetection detectWarmup(const std::vector<WarmupSeries> &series) {
  WarmupDetection out;
  // Per (system, benchmark), in the order first seen: one classification per
  // execution (analysis::classifySteadyState), summarized.
  std::vector<std::pair<std::string, std::vector<analysis::SteadyState>>> groups;
  std::vector<analysis::SteadyState> all;
  for (const auto &s : series) {
    const std::string who = s.benchmark + " on " + s.system;
    auto g =
        std::find_if(groups.begin(), groups.end(), [&](const auto &x) { return x.first == who; });
    if (g == groups.end())
      g = groups.insert(groups.end(), {who, {}});
    g->second.push_back(analysis::classifySteadyState(s.values));
    all.push_back(g->second.back());
  }
  const analysis::WarmupSummary total = analysis::summarizeWarmup(all);
  std::vector<std::string> notes;
  for (const auto &[who, states] : groups) {
    const analysis::WarmupSummary s = analysis::summarizeWarmup(states);
    // One count for the campaign: the largest a benchmark asks for.
    out.warmup = std::max(out.warmup, static_cast<int>(s.warmupIterations));
    if (s.noSteadyState > 0) {
      std::size_t window = 0;
      for (const auto &st : states)
        if (st.kind == analysis::SteadyKind::NoSteadyState)
          window = std::max(window, st.window);
      notes.push_back("warm-up: " + std::to_string(s.noSteadyState) + " of " +
                      std::to_string(s.executions) + " executions of " + who +
                      " never reach a steady state (changepoints within their last " +
                      std::to_string(window) + " iterations)");
      out.noSteadyState += static_cast<int>(s.noSteadyState);
    }
    if (s.slowdown > 0)
      notes.push_back("warm-up: " + std::to_string(s.slowdown) + " of " +
                      std::to_string(s.executions) + " executions of " + who +
                      " slow down (from iteration " + std::to_string(s.slowdownMedianAt) +
                      ", median); not counted as warm-up");
  }
  out.explanation.push_back(
      "warm-up: " + counted(out.warmup, "iteration") +
      " (PELT changepoints and warmup_stats' classification of " +
      std::to_string(total.executions) + " pilot executions: " + analysis::describeCounts(total) +
      "; the latest steady-state start over the flat and warm-up executions, the largest over "
      "the benchmarks)");
  out.explanation.insert(out.explanation.end(), notes.begin(), notes.end());
  return out;
}

namespace {

// One pilot execution: all its iteration values in order, and its wall time.
struct PilotExec {
  std::vector<double> values;
  double wall = 0;
};
// Per (system, benchmark, build, execution).
using PilotExecs = std::map<std::tuple<std::string, std::string, int, int>, PilotExec>;

Expected<PilotExecs> readPilotExecutions(Store &pilot) {
  PilotExecs execs;
  // Warm-up included: the pilot's first iterations are what detectWarmup tests.
  if (Status s = pilot.visitMeasurements(
          /*includeWarmup=*/true,
          [&execs](const MeasurementView &m) {
            PilotExec &e =
                execs[{std::string(m.system), std::string(m.benchmark), m.build, m.execution}];
            e.wall = m.executionWallSeconds;
            e.values.push_back(m.value);
          });
      !s)
    return Error{"pilot store: " + s.error()};
  return execs;
}

// A (system, benchmark) with complete pilot data, as the planners see it.
struct Combo {
  std::string system, benchmark;
  analysis::Hierarchy h;
  double mean = 0;
  double buildCost = 0; // seconds
  double execOverhead = 0;
};

// A candidate's and the baseline's combos of one benchmark.
struct Pair {
  const Combo *candidate, *baseline;
  std::string name; // "cand/b vs base"
};

void keepLargest(std::size_t &count, std::string &who, std::size_t asked, const std::string &by) {
  if (asked > count) {
    count = asked;
    who = by;
  }
}

// planFromPilot's steps and what they share. With a baseline and at least
// one candidate, the counts are planned for the RATIO candidate/baseline
// (analysis::planRatio: the target half-width is the ratio's); with one
// system, for its mean (analysis::planExperiment). Either way a build level
// without variance in the pilot (T^2 <= 0) is planned with the upper
// confidence bound of its variance.
struct PilotPlanner {
  const CampaignConfig &cfg;
  const LevelCounts &pl;
  AutoPlan &out;
  std::map<std::string, double> buildSeconds; // per system, mean of ok builds
  int warmup = 0;
  bool iterLevel = false;
  int useIters = 0; // iterations used per pilot execution, after the warm-up
  const SystemConfig *baseline = nullptr;
  bool forRatio = false;
  // The planner's counts below the build level: the largest over the pairs,
  // and the pair that asked for it (named when alea's cap cuts it).
  std::size_t autoExec = 0, autoIter = 0;
  std::string autoExecFor, autoIterFor;
  std::vector<Combo> combos;
  std::vector<Pair> pairs;

  PilotPlanner(const CampaignConfig &c, const LevelCounts &p, AutoPlan &o,
               std::map<std::string, double> seconds)
      : cfg(c), pl(p), out(o), buildSeconds(std::move(seconds)) {}

  // The pilot counts below the build level, kept for `who`.
  void keepPilotCounts(const std::string &who) {
    keepLargest(autoExec, autoExecFor, static_cast<std::size_t>(pl.executions), who);
    keepLargest(autoIter, autoIterFor, static_cast<std::size_t>(useIters), who);
  }

  // Warm-up first: it decides which iterations the level planning sees.
  void planWarmup(const PilotExecs &execs) {
    warmup = pl.warmup;
    if (cfg.warmup.automatic) {
      std::vector<WarmupSeries> series;
      for (const auto &[k, e] : execs)
        series.push_back({std::get<0>(k), std::get<1>(k), e.values});
      WarmupDetection w = detectWarmup(series);
      warmup = w.warmup;
      out.counts.warmup = warmup;
      out.explanation.insert(out.explanation.end(), w.explanation.begin(), w.explanation.end());
    }
    int measured = pl.iterations + pl.warmup - warmup; // usable iterations per pilot execution
    iterLevel = cfg.iterations.automatic || cfg.iterations.count > 1;
    useIters = iterLevel ? std::min(measured, pl.iterations) : 1;
  }

  // One (system, benchmark)'s combo, when its pilot is complete; without a
  // baseline, also its own plan below the build level.
  Status addCombo(const SystemConfig &sys, const BenchmarkConfig &bench, const PilotExecs &execs) {
    std::vector<double> values;
    double overheadSum = 0;
    int overheadN = 0;
    bool complete = true;
    for (int b = 0; b < pl.builds && complete; ++b)
      for (int e = 0; e < pl.executions && complete; ++e) {
        auto it = execs.find({sys.name, bench.name, b, e});
        if (it == execs.end() || static_cast<int>(it->second.values.size()) < warmup + useIters) {
          complete = false;
          break;
        }
        const auto &v = it->second.values;
        double sum = 0;
        for (int i = warmup; i < warmup + useIters; ++i) {
          values.push_back(v[static_cast<std::size_t>(i)]);
          sum += v[static_cast<std::size_t>(i)];
        }
        overheadSum += std::max(0.0, it->second.wall - sum);
        ++overheadN;
      }
    if (!complete) {
      out.explanation.push_back(sys.name + "/" + bench.name +
                                ": pilot incomplete (failed executions), not used for planning");
      return {};
    }
    std::vector<std::size_t> shape{static_cast<std::size_t>(pl.builds),
                                   static_cast<std::size_t>(pl.executions)};
    std::vector<std::string> names{"build", "execution"};
    if (iterLevel) {
      shape.push_back(static_cast<std::size_t>(useIters));
      names.push_back("iteration");
    }
    auto h = analysis::makeHierarchy(names, shape, values);
    if (!h)
      return Error{"pilot data of " + sys.name + "/" + bench.name + ": " + h.error()};
    double mean = h->grandMean();
    if (!(mean > 0))
      return Error{"pilot data of " + sys.name + "/" + bench.name + ": mean is not positive"};
    double buildCost = buildSeconds.count(sys.name) ? buildSeconds[sys.name] : 0;
    double execOverhead = overheadN ? overheadSum / overheadN : 0;
    if (!forRatio)
      planMean(sys.name + "/" + bench.name, *h, mean, buildCost, execOverhead);
    combos.push_back({sys.name, bench.name, *h, mean, buildCost, execOverhead});
    return {};
  }

  // One system's plan below the build level, for its mean.
  void planMean(const std::string &who, const analysis::Hierarchy &h, double mean, double buildCost,
                double execOverhead) {
    analysis::PlanOptions po;
    po.confidence = cfg.confidence;
    po.overheads.push_back(buildCost / mean);
    if (iterLevel)
      po.overheads.push_back(execOverhead / mean);
    po.topUpperBound = true;
    auto plan = analysis::planExperiment(h, po);
    if (plan) {
      if (cfg.executions.automatic)
        keepLargest(autoExec, autoExecFor, plan->levels[1].count, who);
      if (iterLevel && cfg.iterations.automatic)
        keepLargest(autoIter, autoIterFor, plan->levels[2].count, who);
      if (plan->top.upperBound)
        out.explanation.push_back(
            who + ": the build level shows no variance (T^2 = " + fmt(plan->top.pilotT2) +
            " <= 0); planned with the " + fmt(cfg.confidence * 100) +
            "% upper confidence bound of its variance, a build-to-build SD of " +
            fmt(std::sqrt(plan->top.t2) / mean * 100) + "% of the mean");
    } else {
      out.explanation.push_back(who + ": planner: " + plan.error() +
                                "; keeping the pilot counts below the build level");
      keepPilotCounts(who);
    }
  }

  // The ratio planner's options for a pair: costs averaged over the pair, in
  // units of the pair's mean measurement (ratio_planner.hpp).
  analysis::RatioPlanOptions ratioOptions(const Pair &p) const {
    analysis::RatioPlanOptions ro;
    const double unit = (p.candidate->mean + p.baseline->mean) / 2;
    ro.overheads.push_back((p.candidate->buildCost + p.baseline->buildCost) / 2 / unit);
    if (iterLevel)
      ro.overheads.push_back((p.candidate->execOverhead + p.baseline->execOverhead) / 2 / unit);
    ro.targetHalfWidth = cfg.targetHalfWidth;
    ro.confidence = cfg.confidence;
    ro.maxTopCount = kMaxBuilds;
    return ro;
  }

  // The (candidate, baseline) pairs of every benchmark with complete pilots,
  // each planned below the build level for the ratio.
  void planPairs() {
    if (forRatio)
      for (const auto &c : combos)
        if (c.system != baseline->name)
          for (const auto &b : combos)
            if (b.system == baseline->name && b.benchmark == c.benchmark)
              pairs.push_back({&c, &b, c.system + "/" + c.benchmark + " vs " + b.system});
    if (forRatio && pairs.empty())
      out.explanation.push_back("no candidate has a complete pilot beside the baseline " +
                                baseline->name + ": keeping the pilot counts");
    for (const auto &p : pairs) {
      auto plan = analysis::planRatio(p.candidate->h, p.baseline->h, ratioOptions(p));
      if (!plan) {
        out.explanation.push_back(p.name + ": planner: " + plan.error() +
                                  "; keeping the pilot counts below the build level");
        keepPilotCounts(p.name);
        continue;
      }
      if (cfg.executions.automatic)
        keepLargest(autoExec, autoExecFor, plan->levels[1].count, p.name);
      if (iterLevel && cfg.iterations.automatic)
        keepLargest(autoIter, autoIterFor, plan->levels[2].count, p.name);
      // What the planner asks for at the auto levels below the build level.
      std::string asks;
      const auto ask = [&](std::size_t n, const char *level) {
        asks += (asks.empty() ? "" : " x ") + std::to_string(n) + " " + level + (n == 1 ? "" : "s");
      };
      if (cfg.executions.automatic)
        ask(plan->levels[1].count, "execution");
      if (iterLevel && cfg.iterations.automatic)
        ask(plan->levels[2].count, "iteration");
      if (!asks.empty())
        out.explanation.push_back(p.name + ": ratio " + fmt(plan->ratio) +
                                  "; the planner asks for " + asks +
                                  " per build (TR 2012 eq. 14 on both systems' variance "
                                  "components relative to their means)");
      for (const auto &n : plan->notes)
        out.explanation.push_back(p.name + ": " + n);
    }
    if (forRatio && pairs.empty())
      keepPilotCounts("the pilot");
  }

  // alea's caps keep a campaign finite when the planner asks for more (builds
  // that cost far more than a measurement ask for many executions each); the
  // plan says so, with what was asked, since the counts then miss the optimum.
  void capLowerCounts() {
    const auto capped = [&](const char *level, std::size_t asked, const std::string &who, int cap) {
      if (asked <= static_cast<std::size_t>(cap))
        return std::max(1, static_cast<int>(asked));
      out.explanation.push_back(std::string(level) + ": " + std::to_string(cap) +
                                ", alea's cap; the planner asked for " + std::to_string(asked) +
                                " (for " + who + ")");
      return cap;
    };
    if (cfg.executions.automatic)
      out.counts.executions = capped("executions", autoExec, autoExecFor, kMaxExecutions);
    if (cfg.iterations.automatic)
      out.counts.iterations = capped("iterations", autoIter, autoIterFor, kMaxIterations);
  }

  // The builds that fit the time budget, at the counts below the build level.
  int buildsForBudget() {
    // Seconds one more build of every system costs, all benchmarks included.
    double perRound = 0;
    for (const auto &c : combos)
      perRound +=
          out.counts.executions *
          (c.execOverhead + (out.counts.warmup + (iterLevel ? out.counts.iterations : 1)) * c.mean);
    for (const auto &[s, secs] : buildSeconds)
      perRound += secs;
    // perRound > 0: there is a pair, and every pair's mean is positive. As
    // a double: a budget of many cheap builds must not overflow an int.
    const double fit = std::floor(cfg.timeBudgetSeconds / perRound);
    const std::string budget = "the time budget of " + fmt(cfg.timeBudgetSeconds) + " s";
    const std::string perBuild = " (" + fmt(perRound) + " s per build of every system)";
    int builds = 2;
    if (fit > kMaxBuilds) {
      builds = kMaxBuilds;
      out.explanation.push_back(
          "builds: " + std::to_string(kMaxBuilds) + ", alea's cap; " + budget + " would fit " +
          (fit < 1e15 ? std::to_string(static_cast<long long>(fit)) : fmt(fit)) + perBuild);
    } else {
      builds = static_cast<int>(fit);
      out.explanation.push_back("builds: " + std::to_string(builds) + " fit " + budget + perBuild);
    }
    if (builds < 2)
      out.explanation.push_back(
          "builds: raised to 2, the fewest that give a confidence interval across layouts; "
          "the main run will take about " +
          fmt(2 * perRound) + " s, over the budget");
    return builds;
  }

  // The smallest n whose predicted half-width is at most the target, over
  // every pair: of the ratio (Fieller, analysis::planRatio with the lower
  // counts fixed) with a baseline, else of each system's mean (TR 2012
  // eq. 10, t-based), relative.
  Expected<int> buildsForTarget(const std::vector<std::size_t> &lower) {
    const std::string onTheRatio = forRatio ? " on the ratio" : "";
    const std::string target = "a relative half-width of +-" + fmt(cfg.targetHalfWidth * 100) +
                               "%" + onTheRatio + " at " + fmt(cfg.confidence * 100) +
                               "% confidence";
    int builds = 2;
    double cappedHalfWidth = 0; // the widest relative half-width kMaxBuilds predict
    std::string widest;
    const auto consider = [&](const std::string &who, int n, double predictedAtCap) {
      builds = std::max(builds, n);
      if (n > kMaxBuilds) {
        out.explanation.push_back(who + ": more than " + std::to_string(kMaxBuilds) +
                                  " builds needed for +-" + fmt(cfg.targetHalfWidth * 100) + "%" +
                                  onTheRatio + "; " + std::to_string(kMaxBuilds) + " predict +-" +
                                  fmt(predictedAtCap * 100) + "%");
        if (predictedAtCap > cappedHalfWidth) {
          cappedHalfWidth = predictedAtCap;
          widest = who;
        }
      }
    };
    if (forRatio) {
      for (const auto &p : pairs) {
        analysis::RatioPlanOptions ro = ratioOptions(p);
        ro.lowerCounts = lower;
        auto plan = analysis::planRatio(p.candidate->h, p.baseline->h, ro);
        if (!plan) { // only bad data gets here: the lower counts are given
          out.explanation.push_back(p.name + ": planner: " + plan.error());
          continue;
        }
        const int n = plan->reachable ? static_cast<int>(plan->topCount) : kMaxBuilds + 1;
        consider(p.name, n, plan->predictedHalfWidth);
        if (plan->reachable)
          out.explanation.push_back(p.name + ": " + std::to_string(n) + " builds predict +-" +
                                    fmt(plan->predictedHalfWidth * 100) + "% on the ratio");
      }
    } else {
      for (const auto &c : combos) {
        auto n = buildsForMean(c, lower);
        if (!n)
          return Error{n.error()};
        consider(c.system + "/" + c.benchmark, n->first, n->second);
      }
    }
    if (builds > kMaxBuilds)
      out.explanation.push_back("builds: " + std::to_string(kMaxBuilds) +
                                ", alea's cap, short of " + target + " (more than " +
                                std::to_string(kMaxBuilds) + " builds needed); " +
                                std::to_string(kMaxBuilds) + " builds predict +-" +
                                fmt(cappedHalfWidth * 100) + "% (for " + widest + ")");
    else
      out.explanation.push_back("builds: " + std::to_string(builds) + " for " + target);
    return builds;
  }

  // The builds one system's mean needs for the target (kMaxBuilds + 1: more
  // than the cap), and the half-width kMaxBuilds then predict (else 0).
  Expected<std::pair<int, double>> buildsForMean(const Combo &c,
                                                 const std::vector<std::size_t> &lower) const {
    // Each level's component; the build level's through the T^2 <= 0
    // fallback (analysis::topComponentForPlanning).
    auto comps = analysis::varianceComponents(c.h);
    if (!comps)
      return Error{"pilot data of " + c.system + "/" + c.benchmark + ": " + comps.error()};
    std::vector<double> sigma2;
    for (const auto &l : comps->levels)
      sigma2.push_back(std::max(0.0, l.t2));
    {
      const auto &rs2 = comps->reducedS2;
      const auto &rn = comps->reducedShape;
      double total = 0;
      for (double v : sigma2)
        total += v;
      const double lowerPart = rs2.size() > 1 ? rs2[1] / static_cast<double>(rn[1]) : 0.0;
      sigma2[0] =
          analysis::topComponentForPlanning(rs2[0], rn[0], lowerPart, total, cfg.confidence).t2;
    }
    // The relative half-width n builds predict.
    const auto halfWidth = [&](int n) {
      std::vector<std::size_t> counts{static_cast<std::size_t>(n)};
      counts.insert(counts.end(), lower.begin(), lower.end());
      double var = analysis::varianceOfMean(sigma2, counts);
      analysis::StudentsT t(static_cast<double>(n - 1));
      double q = boost::math::quantile(t, 1 - (1 - cfg.confidence) / 2);
      return q * std::sqrt(var) / c.mean;
    };
    int n = 2;
    while (n <= kMaxBuilds && halfWidth(n) > cfg.targetHalfWidth)
      ++n;
    return std::make_pair(n, n > kMaxBuilds ? halfWidth(kMaxBuilds) : 0.0);
  }

  Status planBuilds() {
    std::vector<std::size_t> lower{static_cast<std::size_t>(out.counts.executions)};
    if (iterLevel)
      lower.push_back(static_cast<std::size_t>(out.counts.iterations));
    int builds = 2;
    if (cfg.timeBudgetSeconds > 0) {
      builds = buildsForBudget();
    } else {
      auto n = buildsForTarget(lower);
      if (!n)
        return Error{n.error()};
      builds = *n;
    }
    out.counts.builds = std::clamp(builds, 2, kMaxBuilds);
    return {};
  }
};

} // namespace

Expected<AutoPlan> planFromPilot(const CampaignConfig &cfg, Store &pilot, const LevelCounts &pl) {
  AutoPlan out;
  out.counts = {cfg.builds.count, cfg.executions.count, cfg.iterations.count, cfg.warmup.count};
  auto execs = readPilotExecutions(pilot);
  if (!execs)
    return Error{execs.error()};
  PilotPlanner p(cfg, pl, out, pilot.meanBuildSeconds());
  if (execs->empty())
    return Error{"the pilot run produced no measurements (every pilot execution failed; see "
                 "`alea report` on its directory)"};
  p.planWarmup(*execs);
  p.baseline = cfg.systems.size() >= 2 ? cfg.baseline() : nullptr;
  p.forRatio = p.baseline != nullptr;
  for (const auto &sys : cfg.systems)
    for (const auto &bench : cfg.benchmarks)
      if (Status s = p.addCombo(sys, bench, *execs); !s)
        return Error{s.error()};
  if (p.combos.empty())
    return Error{"no (system, benchmark) pair has complete pilot data to plan from"};
  p.planPairs();
  p.capLowerCounts();
  if (cfg.builds.automatic)
    if (Status s = p.planBuilds(); !s)
      return Error{s.error()};
  out.explanation.push_back("levels: " + std::to_string(out.counts.builds) + " builds x " +
                            std::to_string(out.counts.executions) + " executions x " +
                            std::to_string(out.counts.iterations) + " iterations (+" +
                            std::to_string(out.counts.warmup) + " warm-up), from a pilot of " +
                            std::to_string(pl.builds) + " x " + std::to_string(pl.executions) +
                            " x " + std::to_string(pl.iterations + pl.warmup));
  return out;
}

} // namespace alea::runner
