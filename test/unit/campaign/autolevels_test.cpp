// "auto" levels: the pilot run, the planner's counts recorded in the store and
// used by the main run, resume without a second pilot, warm-up detection.
#include "alea/campaign/autolevels.hpp"
#include "alea/campaign/builder.hpp"
#include "alea/campaign/campaign.hpp"
#include "alea/random.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

using namespace alea::runner;

namespace {

// `executions` series of `n` iterations of benchmark "b" on `system`: `slow`
// leading iterations 10x slower, 1% deterministic noise.
std::vector<WarmupSeries> leadingSlow(const std::string &system, int executions, int n, int slow,
                                      std::uint64_t seed) {
  alea::Rng rng(seed);
  std::vector<WarmupSeries> out;
  for (int e = 0; e < executions; ++e) {
    WarmupSeries s{system, "b", {}};
    for (int i = 0; i < n; ++i)
      s.values.push_back((i < slow ? 10.0 : 1.0) * (1.0 + 0.01 * rng.uniform()));
    out.push_back(s);
  }
  return out;
}

bool has(const std::vector<std::string> &lines, const std::string &text) {
  for (const auto &l : lines)
    if (l.find(text) != std::string::npos)
      return true;
  return false;
}

} // namespace

// The issue's case: 3 slow leading iterations were found as 1, 5 as 4. The
// changepoints find them exactly, per benchmark, and the campaign drops the
// largest count any benchmark needs.
TEST(Warmup, FindsThreeAndFiveSlowLeadingIterations) {
  for (int slow : {0, 1, 3, 5}) {
    const WarmupDetection w = detectWarmup(leadingSlow("base", 9, 20, slow, 3 + slow));
    EXPECT_EQ(w.warmup, slow);
    EXPECT_EQ(w.noSteadyState, 0);
  }
  auto both = leadingSlow("base", 9, 20, 3, 1);
  const auto cand = leadingSlow("cand", 9, 20, 5, 2);
  both.insert(both.end(), cand.begin(), cand.end());
  const WarmupDetection w = detectWarmup(both);
  EXPECT_EQ(w.warmup, 5);
  ASSERT_FALSE(w.explanation.empty());
  EXPECT_EQ(w.explanation[0],
            "warm-up: 5 iterations (PELT changepoints and warmup_stats' classification of 18 "
            "pilot executions: 0 flat, 18 warm-up, 0 slowdown, 0 no steady state; the latest "
            "steady-state start over the flat and warm-up executions, the largest over the "
            "benchmarks)");
}

// Executions that change again in their last iterations never reach a
// steady state: named in the plan, and not counted in the warm-up; one
// execution of the eight others with a longer warm-up raises it to its 8, so
// that every execution that settles is steady after the warm-up (issue 18:
// the upper quartile, 4 here, left that execution's 4 slow iterations in the
// data).
TEST(Warmup, FlagsExecutionsWithoutSteadyState) {
  auto series = leadingSlow("base", 9, 20, 4, 5);
  for (int i = 17; i < 20; ++i)
    series[0].values[static_cast<std::size_t>(i)] *= 3; // changes in the last 3 iterations
  for (int i = 0; i < 8; ++i)
    series[1].values[static_cast<std::size_t>(i)] = 10; // a warm-up of 8
  const WarmupDetection w = detectWarmup(series);
  EXPECT_EQ(w.warmup, 8);
  EXPECT_EQ(w.noSteadyState, 1);
  EXPECT_TRUE(has(w.explanation, "warm-up: 1 of 9 executions of b on base never reach a steady "
                                 "state (changepoints within their last 5 iterations)"));
}

TEST(AutoLevels, PilotCountsKeepFixedLevels) {
  auto c = parseCampaignText(R"toml(
[levels]
builds = "auto"
executions = 4
iterations = "auto"
warmup = "auto"
[measure]
source = "regex"
regex = '([0-9.]+)'
[[system]]
name = "a"
build = ["true"]
[[benchmark]]
name = "b"
command = ["true"]
)toml",
                             "c.toml");
  ASSERT_TRUE(c.ok()) << c.error();
  LevelCounts p = pilotCounts(*c);
  EXPECT_EQ(p.builds, 3);
  EXPECT_EQ(p.executions, 4);
  EXPECT_EQ(p.iterations, 20); // 10 + 10 to observe the warm-up
  EXPECT_EQ(p.warmup, 0);
  CampaignConfig pc = pilotConfig(*c);
  EXPECT_FALSE(pc.anyAuto());
  EXPECT_FALSE(pc.warmup.automatic);
  // An adaptive campaign's pilot is not adaptive itself.
  CampaignConfig adaptive = *c;
  adaptive.adaptive.enabled = true;
  adaptive.adaptive.halfWidth = 0.02;
  EXPECT_FALSE(pilotConfig(adaptive).adaptive.enabled);
}

namespace {

const char *kAuto = R"toml(
[campaign]
seed = 11
[levels]
builds = "auto"
executions = "auto"
iterations = 4
warmup = "auto"
target_half_width = 0.05
[measure]
source = "regex"
regex = 'v=([0-9.]+)'
[[system]]
name = "base"
baseline = true
build = ["fake-build"]
artifacts = ["prog"]
[[system]]
name = "cand"
build = ["fake-build"]
artifacts = ["prog"]
[[benchmark]]
name = "b"
command = ["{artifact:prog}"]
)toml";

// Each build has its own layout effect (from its seed); executions add noise;
// the first two iterations are slow (warm-up).
ExecutionResult respond(const ExecutionRequest &r) {
  ExecutionResult res;
  if (r.argv[0] == "fake-build") {
    std::ofstream(r.workdir + "/prog") << envValue(r.env, "ALEA_SEED");
    res.output.wallSeconds = 0.5;
    return res;
  }
  std::ifstream in(r.argv[0]);
  std::string seed;
  in >> seed;
  alea::Rng layout(alea::hashName(seed));
  double buildEffect = 1.0 + 0.2 * layout.uniform();
  alea::Rng noise(alea::hashName(seed) ^ static_cast<std::uint64_t>(r.envPadBytes));
  int n = std::stoi(envValue(r.env, "ALEA_ITERATIONS"));
  std::string out;
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double v = buildEffect * (1.0 + 0.02 * noise.uniform()) * (i < 2 ? 3.0 - i : 1.0) * 0.01;
    total += v;
    out += "v=" + std::to_string(v) + "\n";
  }
  res.output.stdoutText = out;
  res.output.wallSeconds = total + 0.002;
  return res;
}

} // namespace

TEST(AutoLevels, PilotThenPlannedCountsRecordedAndUsed) {
  test::TempDir dir;
  auto c = parseCampaignText(kAuto, dir.file("c.toml"));
  ASSERT_TRUE(c.ok()) << c.error();
  CampaignOptions o;
  o.dir = dir.file("camp");
  o.recheckMachine = false;
  NullProgress p;
  FakeExecutor ex(respond);
  auto out = runCampaign(*c, o, ex, p);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->complete);
  EXPECT_TRUE(std::filesystem::exists(dir.file("camp/pilot/campaign.db")));
  auto store = Store::open(storePath(o.dir));
  ASSERT_TRUE(store.ok());
  int builds = std::stoi(*store->meta("levels.builds"));
  int execs = std::stoi(*store->meta("levels.executions"));
  int warmup = std::stoi(*store->meta("levels.warmup"));
  EXPECT_GE(builds, 2);
  EXPECT_GE(execs, 1);
  EXPECT_EQ(warmup, 2); // the two slow leading iterations
  EXPECT_EQ(*store->meta("levels.iterations"), "4");
  EXPECT_NE(store->meta("auto_plan")->find("from a pilot of 3 x 3 x 14"), std::string::npos)
      << *store->meta("auto_plan");
  EXPECT_EQ(store->summary().planned, 2 * builds * execs);
  EXPECT_EQ(store->summary().executed, 2 * builds * execs);
  // The pilot's 3 builds of each system are the main campaign's first ones:
  // each (system, build index) is built once over both (same seed, same
  // build), and the main store says which builds were reused.
  std::map<std::string, int> built;
  for (const auto &r : ex.requests)
    if (r.argv[0] == "fake-build")
      ++built[std::filesystem::path(r.workdir).parent_path().filename().string() + " " +
              envValue(r.env, "ALEA_SEED")]; // a paired design's pair shares its seed
  EXPECT_EQ(built.size(), static_cast<std::size_t>(2 * std::max(3, builds)));
  for (const auto &[seed, n] : built)
    EXPECT_EQ(n, 1) << seed;
  for (int b = 0; b < builds; ++b) {
    auto rec = store->findBuild(*store->findSystemId("cand"), b);
    ASSERT_TRUE(rec);
    EXPECT_EQ(rec->logTail.rfind(kReusedBuildMarker, 0) == 0, b < 3) << b << ": " << rec->logTail;
  }
  // Resume: no second pilot, same counts.
  std::size_t before = ex.requests.size();
  auto again = runCampaign(*c, o, ex, p);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(ex.requests.size(), before);
}

namespace {

// The planned levels and the plan's explanation of kAuto with `from` replaced
// by `to`, planned from a pilot answered by `responder` (no main run).
struct Planned {
  int builds = 0, executions = 0, iterations = 0;
  std::string text;
};

Planned planOf(const std::string &from, const std::string &to,
               FakeExecutor::Respond responder = respond) {
  test::TempDir dir;
  std::string text = kAuto;
  text.replace(text.find(from), from.size(), to);
  auto c = parseCampaignText(text, dir.file("c.toml"));
  EXPECT_TRUE(c.ok()) << c.error();
  CampaignOptions o;
  o.dir = dir.file("camp");
  o.recheckMachine = false;
  o.maxExecutions = 0; // plan only
  NullProgress p;
  FakeExecutor ex(std::move(responder));
  auto out = runCampaign(*c, o, ex, p);
  EXPECT_TRUE(out.ok()) << out.error();
  auto store = Store::open(storePath(o.dir));
  Planned r;
  r.builds = std::stoi(*store->meta("levels.builds"));
  r.executions = std::stoi(*store->meta("levels.executions"));
  r.iterations = std::stoi(*store->meta("levels.iterations"));
  r.text = *store->meta("auto_plan");
  return r;
}

// The number written right after `key` in `text` (-1 if absent).
double numberAfter(const std::string &text, const std::string &key) {
  const auto at = text.find(key);
  return at == std::string::npos ? -1 : std::stod(text.substr(at + key.size()));
}

} // namespace

TEST(AutoLevels, TimeBudgetScalesTheBuilds) {
  auto buildsFor = [](double budget) {
    return planOf("target_half_width = 0.05", "time_budget = " + std::to_string(budget)).builds;
  };
  // One more build of both systems costs about 1 s of build time plus the
  // executions (a few tens of ms each): 20 s affords several, 60 s about 3x.
  int small = buildsFor(20), large = buildsFor(60);
  EXPECT_GE(small, 2);
  EXPECT_GT(large, small);
  EXPECT_NEAR(static_cast<double>(large) / small, 3.0, 0.6);
}

// A budget that affords more builds than alea's cap: the plan says the cap
// is what is used, and how many the budget would have afforded.
TEST(AutoLevels, TimeBudgetBeyondTheBuildCapSaysSo) {
  const Planned p = planOf("target_half_width = 0.05", "time_budget = 1000000");
  EXPECT_EQ(p.builds, 100);
  EXPECT_EQ(p.text.find("fit the time budget"), std::string::npos) << p.text;
  const std::string key = "builds: 100, alea's cap; the time budget of 1e+06 s would fit ";
  ASSERT_NE(p.text.find(key), std::string::npos) << p.text;
  // About 1 s of builds and a few tens of ms of executions per build of both
  // systems (TimeBudgetScalesTheBuilds): far more than 100 builds fit.
  EXPECT_GT(numberAfter(p.text, key), 100000) << p.text;
}

// A half-width target that more than alea's cap of builds would be needed
// for: the plan says the cap is used, the target it misses, and the
// half-width the capped count predicts (wider than the target, and as wide
// as the pilot's variation predicts for 100 builds).
TEST(AutoLevels, HalfWidthBeyondTheBuildCapSaysWhatTheCapPredicts) {
  const Planned p = planOf("target_half_width = 0.05", "target_half_width = 0.0001");
  EXPECT_EQ(p.builds, 100);
  // Two systems: the target is the ratio's (docs/campaign.md).
  const std::string key = "builds: 100, alea's cap, short of a relative half-width of +-0.01% on "
                          "the ratio at 95% confidence (more than 100 builds needed); 100 builds "
                          "predict +-";
  ASSERT_NE(p.text.find(key), std::string::npos) << p.text;
  const double predicted = numberAfter(p.text, key);
  EXPECT_GT(predicted, 0.01) << p.text;
  // The build effects spread over 20% (respond()): the ratio of the means of
  // 100 builds is known to well under 5%, but not to 0.01%.
  EXPECT_LT(predicted, 5) << p.text;
  EXPECT_NE(p.text.find("cand/b vs base: more than 100 builds needed for +-0.01% on the ratio; "
                        "100 predict +-"),
            std::string::npos)
      << p.text;
  // A target within reach keeps the plain sentence.
  const Planned reachable = planOf("target_half_width = 0.05", "target_half_width = 0.05");
  EXPECT_LT(reachable.builds, 100);
  EXPECT_NE(reachable.text.find("builds: " + std::to_string(reachable.builds) +
                                " for a relative half-width of +-5% on the ratio at 95% "
                                "confidence"),
            std::string::npos)
      << reachable.text;
  EXPECT_NE(reachable.text.find("cand/b vs base: " + std::to_string(reachable.builds) +
                                " builds predict +-"),
            std::string::npos)
      << reachable.text;
}

// Each build has a 20% layout effect, each execution a 2% effect of its own,
// iterations 0.1% noise, so that every level varies; `buildSeconds` and
// `execOverhead` are added to the wall times the pilot takes as costs.
FakeExecutor::Respond costly(double buildSeconds, double execOverhead) {
  return [=](const ExecutionRequest &r) {
    ExecutionResult res;
    if (r.argv[0] == "fake-build") {
      std::ofstream(r.workdir + "/prog") << envValue(r.env, "ALEA_SEED");
      res.output.wallSeconds = 0.5 + buildSeconds;
      return res;
    }
    std::ifstream in(r.argv[0]);
    std::string seed;
    in >> seed;
    alea::Rng layout(alea::hashName(seed));
    alea::Rng run(alea::hashName(seed) ^ static_cast<std::uint64_t>(r.envPadBytes));
    const double effect = (1.0 + 0.2 * layout.uniform()) * (1.0 + 0.02 * run.uniform());
    int n = std::stoi(envValue(r.env, "ALEA_ITERATIONS"));
    double total = 0;
    for (int i = 0; i < n; ++i) {
      double v = effect * (1.0 + 0.001 * run.uniform()) * 0.01;
      total += v;
      res.output.stdoutText += "v=" + std::to_string(v) + "\n";
    }
    res.output.wallSeconds = total + 0.002 + execOverhead;
    return res;
  };
}

// Builds that cost years against executions of milliseconds make the planner
// ask for more executions per build than alea's cap (TR 2012 eq. 14: the
// count grows with the square root of the cost ratio); likewise an execution
// overhead of years for iterations. The plan says what the planner asked for.
TEST(AutoLevels, ExecutionAndIterationCapsAreSaid) {
  const Planned e = planOf("iterations = 4", "iterations = 4", costly(1e9, 0));
  EXPECT_EQ(e.executions, 100);
  const std::string key = "executions: 100, alea's cap; the planner asked for ";
  ASSERT_NE(e.text.find(key), std::string::npos) << e.text;
  EXPECT_GT(numberAfter(e.text, key), 100) << e.text;
  const Planned i = planOf("iterations = 4", "iterations = \"auto\"", costly(0, 1e12));
  EXPECT_EQ(i.iterations, 10000);
  const std::string iterKey = "iterations: 10000, alea's cap; the planner asked for ";
  ASSERT_NE(i.text.find(iterKey), std::string::npos) << i.text;
  EXPECT_GT(numberAfter(i.text, iterKey), 10000) << i.text;
}

// A pilot whose builds do not differ (each build's three executions take
// the same three effects, so every build mean is the same up to 0.1%
// iteration noise): the build level shows T^2 <= 0. The planner no longer
// keeps the pilot counts: it plans with the upper confidence bound of the
// build variance and says so, with the number.
TEST(AutoLevels, BuildLevelWithoutVarianceIsPlannedWithTheUpperBound) {
  auto seen = std::make_shared<std::map<std::string, int>>();
  FakeExecutor::Respond sameBuilds = [seen](const ExecutionRequest &r) {
    ExecutionResult res;
    if (r.argv[0] == "fake-build") {
      std::ofstream(r.workdir + "/prog") << envValue(r.env, "ALEA_SEED");
      res.output.wallSeconds = 0.5;
      return res;
    }
    std::ifstream in(r.argv[0]);
    std::string seed;
    in >> seed;
    const double effects[] = {1.0, 1.02, 0.98};
    const double effect = effects[(*seen)[seed]++ % 3];
    alea::Rng run(alea::hashName(seed) ^ static_cast<std::uint64_t>(r.envPadBytes));
    int n = std::stoi(envValue(r.env, "ALEA_ITERATIONS"));
    double total = 0;
    for (int i = 0; i < n; ++i) {
      double v = effect * (1.0 + 0.001 * run.uniform()) * 0.01;
      total += v;
      res.output.stdoutText += "v=" + std::to_string(v) + "\n";
    }
    res.output.wallSeconds = total + 0.002;
    return res;
  };
  const Planned p = planOf("iterations = 4", "iterations = 4", sameBuilds);
  EXPECT_EQ(p.text.find("keeping the pilot counts"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("the build level shows no variance (T^2 = "), std::string::npos) << p.text;
  EXPECT_NE(
      p.text.find("% upper confidence bound of its variance instead, a build-to-build SD of "),
      std::string::npos)
      << p.text;
  EXPECT_GE(p.builds, 2);
  EXPECT_GE(p.executions, 1);
}
