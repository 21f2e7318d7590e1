// Paired designs (issue 8): the interleaved blocks and their extension by an
// adaptive batch, the duet's CPU sets and simultaneous runs (recorded together,
// with their CPUs and overlap), the quiet gate driven by a fake clock, the
// campaign-file keys, and adaptive campaigns that add builds until the ratio's
// interval is narrow enough or the budget ends.
#include "alea/campaign/campaign.hpp"
#include "alea/campaign/scheduler.hpp"
#include "alea/config/validate.hpp"
#include "alea/exec/quiet.hpp"
#include "alea/store/campaign_data.hpp"

#include "store_test_access.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

using namespace alea;
using namespace alea::runner;
using namespace alea::model;
namespace fs = std::filesystem;

namespace {

ScheduleShape pairedShape(Design d) {
  ScheduleShape s{{1, 2, 3}, {10, 20}, 4, 3};
  s.design = d;
  return s;
}

} // namespace

TEST(Design, InterleavedBlocksHoldBuildIOfEverySystemContiguously) {
  auto plan = makeSchedule(pairedShape(Design::Interleaved), 42);
  ASSERT_EQ(plan.size(), 3u * 2 * 4 * 3);
  std::set<std::tuple<std::int64_t, std::int64_t, int, int>> combos;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].position, static_cast<std::int64_t>(i));
    combos.insert(
        {plan[i].systemId, plan[i].benchmarkId, plan[i].buildIndex, plan[i].executionIndex});
  }
  EXPECT_EQ(combos.size(), plan.size());
  // Block k is positions 3k..3k+2: one entry per system, same benchmark,
  // build and execution index.
  std::set<std::vector<std::int64_t>> withinBlockOrders;
  for (std::size_t k = 0; k < plan.size() / 3; ++k) {
    std::set<std::int64_t> systems;
    std::vector<std::int64_t> order;
    for (std::size_t i = 3 * k; i < 3 * k + 3; ++i) {
      EXPECT_EQ(plan[i].block, static_cast<std::int64_t>(k));
      EXPECT_EQ(plan[i].benchmarkId, plan[3 * k].benchmarkId);
      EXPECT_EQ(plan[i].buildIndex, plan[3 * k].buildIndex);
      EXPECT_EQ(plan[i].executionIndex, plan[3 * k].executionIndex);
      systems.insert(plan[i].systemId);
      order.push_back(plan[i].systemId);
    }
    EXPECT_EQ(systems.size(), 3u);
    withinBlockOrders.insert(order);
  }
  EXPECT_GT(withinBlockOrders.size(), 1u); // the order within blocks is random too
  // The blocks are in random order, not nested order.
  bool nested = true;
  for (std::size_t k = 1; k < plan.size() / 3; ++k)
    nested = nested && std::make_tuple(plan[3 * k].benchmarkId, plan[3 * k].buildIndex) >=
                           std::make_tuple(plan[3 * k - 3].benchmarkId, plan[3 * k - 3].buildIndex);
  EXPECT_FALSE(nested);
  EXPECT_EQ(plan, makeSchedule(pairedShape(Design::Interleaved), 42));
  EXPECT_NE(plan, makeSchedule(pairedShape(Design::Interleaved), 43));
}

TEST(Design, EverySystemFollowsEveryOtherEquallyOftenInInterleavedPlans) {
  // Two systems: in a plan of mirrored block pairs, base follows cand exactly
  // as often as base follows base (and the same for cand), up to the one
  // execution at the start: a carry-over from the previous execution cannot
  // fall on one system more than on the other.
  ScheduleShape s{{1, 2}, {10, 20}, 6, 5};
  s.design = Design::Interleaved;
  for (std::uint64_t seed : {1, 2, 3, 42}) {
    auto plan = makeSchedule(s, seed);
    std::map<std::pair<std::int64_t, std::int64_t>, int> follows; // (previous, current)
    for (std::size_t i = 1; i < plan.size(); ++i)
      ++follows[{plan[i - 1].systemId, plan[i].systemId}];
    for (std::int64_t current : {1, 2}) {
      int afterOne = follows[{1, current}], afterTwo = follows[{2, current}];
      EXPECT_LE(std::abs(afterOne - afterTwo), 1) << "seed " << seed << " system " << current;
    }
  }
}

TEST(Design, EachBuildPairRunsEitherSystemFirstInHalfItsBlocks) {
  // Two systems alternate first and second from block to block; a build whose
  // blocks fell on one parity would have one system first in all its pairs
  // (issue 19: a place-in-block effect then widens the paired interval). Each
  // build runs cand first in half its blocks, the odd one out either way.
  for (int executions : {3, 4}) {
    ScheduleShape s{{1, 2}, {10, 20}, 5, executions};
    s.design = Design::Interleaved;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      auto plan = makeSchedule(s, seed);
      std::map<std::pair<std::int64_t, int>, int> firstTwo; // (bench, build) -> blocks
      for (std::size_t i = 0; i < plan.size(); i += 2)
        firstTwo[{plan[i].benchmarkId, plan[i].buildIndex}] += plan[i].systemId == 2;
      ASSERT_EQ(firstTwo.size(), 10u);
      for (const auto &[key, count] : firstTwo)
        EXPECT_TRUE(count == executions / 2 || count == (executions + 1) / 2)
            << "executions " << executions << " seed " << seed << " build " << key.second
            << ": cand first in " << count;
    }
  }
}

TEST(Design, UnpairedPlansHaveNoBlocks) {
  for (const auto &e : makeSchedule(pairedShape(Design::Unpaired), 42))
    EXPECT_EQ(e.block, -1);
}

TEST(Design, AnAdaptiveBatchPlansOnlyTheNewBuildsAfterTheOldPlan) {
  ScheduleShape s = pairedShape(Design::Interleaved);
  auto first = makeSchedule(s, 42);
  s.firstBuild = 4;
  s.builds = 6;
  auto added = makeSchedule(s, 42, 72, 24);
  ASSERT_EQ(added.size(), 3u * 2 * 2 * 3);
  for (std::size_t i = 0; i < added.size(); ++i) {
    EXPECT_EQ(added[i].position, 72 + static_cast<std::int64_t>(i));
    EXPECT_EQ(added[i].block, 24 + static_cast<std::int64_t>(i / 3));
    EXPECT_GE(added[i].buildIndex, 4);
    EXPECT_LT(added[i].buildIndex, 6);
  }
  // Another batch of the same campaign is shuffled differently.
  s.firstBuild = 6;
  s.builds = 8;
  auto next = makeSchedule(s, 42, 108, 36);
  std::vector<std::int64_t> a, b;
  for (std::size_t i = 0; i < added.size(); ++i) {
    a.push_back(added[i].systemId * 1000 + added[i].benchmarkId * 10 + added[i].buildIndex - 4);
    b.push_back(next[i].systemId * 1000 + next[i].benchmarkId * 10 + next[i].buildIndex - 6);
  }
  EXPECT_NE(a, b);
}

namespace {
CampaignConfig twoSystems() {
  CampaignConfig c;
  c.systems.resize(2);
  return c;
}
} // namespace

TEST(Design, DuetCpuSetsSplitTheCpusInOrder) {
  CampaignConfig c = twoSystems();
  EXPECT_EQ(duetCpuSets(c, {0, 1, 2, 3}), (std::vector<std::vector<int>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(duetCpuSets(c, {0, 1, 2}), (std::vector<std::vector<int>>{{0}, {1}}));
  EXPECT_TRUE(duetCpuSets(c, {0}).empty());
  c.cpus = {4, 6};
  EXPECT_EQ(duetCpuSets(c, {0, 1, 2, 3, 4, 5, 6}), (std::vector<std::vector<int>>{{4}, {6}}));
  c.duetCpus = {{1}, {0}};
  EXPECT_EQ(duetCpuSets(c, {0, 1}), c.duetCpus);
}

namespace {
const char *kHead = R"toml(
[[system]]
name = "base"
baseline = true
build = ["fake-build"]
[[system]]
name = "cand"
build = ["fake-build"]
[[benchmark]]
name = "b"
command = ["true"]
)toml";

Expected<CampaignConfig> parse(const std::string &campaign) {
  return parseCampaignText(campaign + kHead, "/tmp/c.toml");
}
} // namespace

TEST(Design, CampaignFileKeys) {
  auto d = parse("[campaign]\n");
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_EQ(d->design, Design::Interleaved); // the default (docs/campaign.md, "Designs")
  EXPECT_FALSE(d->quiet.enabled);
  EXPECT_FALSE(d->adaptive.enabled);
  auto c = parse("[campaign]\ndesign = \"duet\"\nduet_cpus = [[0], [1]]\n"
                 "quiet = { load = 0.5, wait = 9 }\n[adaptive]\nhalf_width = 0.02\n"
                 "time_budget = 600\nmax_builds = 40\n");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->design, Design::Duet);
  EXPECT_EQ(c->duetCpus, (std::vector<std::vector<int>>{{0}, {1}}));
  EXPECT_TRUE(c->quiet.enabled);
  EXPECT_DOUBLE_EQ(c->quiet.load, 0.5);
  EXPECT_DOUBLE_EQ(c->quiet.waitSeconds, 9);
  EXPECT_TRUE(c->adaptive.enabled);
  EXPECT_DOUBLE_EQ(c->adaptive.halfWidth, 0.02);
  EXPECT_DOUBLE_EQ(c->adaptive.timeBudgetSeconds, 600);
  EXPECT_EQ(c->adaptive.maxBuilds, 40);
  EXPECT_EQ(parse("[campaign]\ndesign = \"interleaved\"\n")->design, Design::Interleaved);

  auto bad = parse("[campaign]\ndesign = \"pairs\"\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("c.toml:2:10: expected design = \"interleaved\""), std::string::npos)
      << bad.error();
  auto overlap = parse("[campaign]\nduet_cpus = [[0, 1], [1]]\n");
  ASSERT_FALSE(overlap.ok());
  EXPECT_NE(overlap.error().find("CPU 1 is in two sets"), std::string::npos) << overlap.error();
  auto empty = parse("[adaptive]\nmax_builds = 10\n");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().find("expected half_width or time_budget"), std::string::npos);
  auto quietKey = parse("[campaign]\nquiet = { loud = 1 }\n");
  ASSERT_FALSE(quietKey.ok());
  EXPECT_NE(quietKey.error().find("unknown key 'loud'"), std::string::npos) << quietKey.error();
}

TEST(Design, ADuetNeedsACpuPerSystem) {
  auto c = parse("[campaign]\ndesign = \"duet\"\n");
  ASSERT_TRUE(c.ok());
  Status one = validateCampaign(*c, MachineFacts{{0}});
  ASSERT_FALSE(one.ok());
  EXPECT_NE(one.error().find("c.toml:2:10: expected at least one CPU per system for design = "
                             "\"duet\" (2 systems, CPUs 0)"),
            std::string::npos)
      << one.error();
  EXPECT_TRUE(validateCampaign(*c, MachineFacts{{0, 1}}).ok());
  auto sets = parse("[campaign]\ndesign = \"duet\"\nduet_cpus = [[0], [5]]\n");
  Status outside = validateCampaign(*sets, MachineFacts{{0, 1}});
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.error().find("CPU 5 is offline"), std::string::npos) << outside.error();
}

namespace {
// A clock whose windows report the given loads (CPUs busy), 0.1 s each.
QuietClock fakeClock(std::vector<double> loads, int &sleeps) {
  auto state = std::make_shared<std::pair<double, double>>(0.0, 0.0); // busy, time
  auto index = std::make_shared<std::size_t>(0);
  QuietClock clock;
  clock.read = [state] { return CpuTimes{true, state->first, state->second, 0, std::nullopt}; };
  clock.sleep = [state, index, loads, &sleeps](double s) {
    ++sleeps;
    double load = loads[std::min(*index, loads.size() - 1)];
    ++*index;
    state->first += load * s;
    state->second += s;
  };
  return clock;
}
} // namespace

TEST(Design, TheQuietGateWaitsForTheFirstQuietWindow) {
  int sleeps = 0;
  QuietGate gate{true, 0.25, 60};
  QuietOutcome q = waitForQuiet(gate, nullptr, fakeClock({1.5, 0.9, 0.1}, sleeps));
  EXPECT_EQ(sleeps, 3);
  EXPECT_NEAR(q.waited, 0.3, 1e-9);
  EXPECT_NEAR(q.lastLoad, 0.1, 1e-9);
  EXPECT_FALSE(q.ranBusy);
}

TEST(Design, TheQuietGateGivesUpAfterItsWaitAndSaysSo) {
  int sleeps = 0;
  QuietGate gate{true, 0.25, 1.0};
  QuietOutcome q = waitForQuiet(gate, nullptr, fakeClock({1.0}, sleeps));
  EXPECT_TRUE(q.ranBusy);
  EXPECT_GE(q.waited, 1.0 - 1e-9);
  EXPECT_LE(sleeps, 11);
  std::atomic<bool> cancel{true};
  EXPECT_TRUE(waitForQuiet(gate, &cancel, fakeClock({1.0}, sleeps)).cancelled);
}

namespace {

const char *kPaired = R"toml(
[levels]
builds = 3
executions = 2

[[system]]
name = "base"
baseline = true
build = ["fake-build", "{build_dir}"]
artifacts = ["prog"]

[[system]]
name = "cand"
build = ["fake-build", "{build_dir}"]
artifacts = ["prog"]
env = { SLOW = "1" }

[[benchmark]]
name = "b"
command = ["{artifact:prog}"]
)toml";

// Builds write `prog` holding the seed; an execution takes 1 s (+10% for the
// candidate) plus a layout effect from the seed and a per-execution wobble.
class PairedFake final : public Executor {
public:
  ExecutionResult run(const ExecutionRequest &r) override {
    ExecutionResult res;
    if (r.argv[0] == "fake-build") {
      std::ofstream(r.argv[1] + "/prog")
          << envValue(r.env, "ALEA_SEED") << " " << envValue(r.env, "SLOW");
      res.output.wallSeconds = 2;
      return res;
    }
    std::ifstream in(r.argv[0]);
    std::string seed, slow;
    in >> seed >> slow;
    double layout = static_cast<double>(std::hash<std::string>{}(seed) % 100) / 1000;
    double wobble = static_cast<double>(calls++ % 7) / 200;
    res.output.wallSeconds = (1 + layout + wobble) * (slow.empty() ? 1.0 : 1.1);
    res.steadyStart = calls;
    res.steadyEnd = calls + res.output.wallSeconds;
    res.startedAt = 1.8e9 + calls;
    return res;
  }
  std::vector<ExecutionResult> runTogether(const std::vector<ExecutionRequest> &requests) override {
    together.push_back(requests);
    std::vector<ExecutionResult> out;
    for (const auto &r : requests)
      out.push_back(run(r));
    return out;
  }
  int calls = 0;
  std::vector<std::vector<ExecutionRequest>> together;
};

struct Campaign {
  test::TempDir dir;
  CampaignConfig cfg;
  CampaignOptions opts;
  explicit Campaign(const std::string &head) {
    auto c = parseCampaignText(head + kPaired, dir.file("c.toml"));
    EXPECT_TRUE(c.ok()) << c.error();
    cfg = *c;
    opts.dir = dir.file("camp");
    opts.toolDir = "/opt/alea/bin";
    opts.baseEnv = {"PATH=/usr/bin:/bin"};
    opts.recheckMachine = false;
  }
  Expected<CampaignOutcome> run(Executor &ex) {
    NullProgress p;
    return runCampaign(cfg, opts, ex, p);
  }
  Expected<CampaignOutcome> run(Executor &ex, Progress &p) { return runCampaign(cfg, opts, ex, p); }
  Store store() { return std::move(*Store::open(storePath(opts.dir))); }
};

std::int64_t scalar(Store &s, const std::string &sql) { return StoreTestAccess::scalar(s, sql); }

} // namespace

TEST(Design, ADuetRunsEachBlockTogetherOnDisjointCpusAndRecordsIt) {
  Campaign c("[campaign]\nseed = 3\ndesign = \"duet\"\nduet_cpus = [[0], [1]]\n");
  PairedFake ex;
  auto out = c.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->complete);
  ASSERT_EQ(ex.together.size(), 6u); // 3 builds x 2 executions, one duet each
  std::set<std::vector<int>> firstCpus;
  for (const auto &pair : ex.together) {
    ASSERT_EQ(pair.size(), 2u);
    EXPECT_NE(pair[0].cpus, pair[1].cpus);
    EXPECT_EQ(pair[0].cpus.size(), 1u);
    firstCpus.insert(pair[0].cpus);
  }
  EXPECT_EQ(firstCpus.size(), 2u); // the assignment is drawn per block
  Store s = c.store();
  EXPECT_EQ(*s.meta("design"), "duet");
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM execution WHERE cpus IN ('0','1') AND overlap IS "
                      "NOT NULL AND started_at > 0"),
            12);
  // The partners of a block: same build index, other system, other CPU.
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM plan p JOIN plan q ON p.block = q.block AND "
                      "p.position < q.position WHERE p.build_index = q.build_index AND "
                      "p.execution_index = q.execution_index AND p.system_id <> q.system_id"),
            6);
}

TEST(Design, InterleavedRunsEntriesOneAtATimeInBlocks) {
  Campaign c("[campaign]\nseed = 3\ndesign = \"interleaved\"\n");
  PairedFake ex;
  auto out = c.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(ex.together.empty());
  Store s = c.store();
  EXPECT_EQ(*s.meta("design"), "interleaved");
  EXPECT_EQ(scalar(s, "SELECT count(DISTINCT block) FROM plan"), 6);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM execution WHERE overlap IS NULL"), 12);
}

TEST(Design, AnAdaptiveCampaignAddsBuildsUntilItsCapThenStops) {
  // A target no campaign this small reaches: batches until max_builds.
  Campaign c("[campaign]\nseed = 3\ndesign = \"interleaved\"\n[adaptive]\nhalf_width = "
             "0.0001\nmax_builds = 7\n");
  PairedFake ex;
  auto out = c.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->complete);
  Store s = c.store();
  EXPECT_EQ(*s.meta("levels.builds"), "7");
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM build"), 14);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM plan"), 7 * 2 * 2);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM execution"), 7 * 2 * 2);
  std::string log = *s.meta("adaptive_log");
  // 3 builds -> +3 (batches at most double) -> +1 (the cap) -> stop.
  EXPECT_NE(log.find("3 builds"), std::string::npos) << log;
  EXPECT_NE(log.find("6 builds"), std::string::npos) << log;
  EXPECT_NE(log.find("7 builds"), std::string::npos) << log;
  // Running it again adds nothing: the cap is reached.
  PairedFake again;
  auto resumed = c.run(again);
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  EXPECT_EQ(again.calls, 0);
}

TEST(Design, AnAdaptiveCampaignStopsWhenItsTimeBudgetIsSpent) {
  // Each build costs 2 s and each execution about 1 s: 3 builds of 2 systems
  // with 2 executions each spend ~25 s; a 40 s budget affords one more build.
  Campaign c("[campaign]\nseed = 3\ndesign = \"interleaved\"\n[adaptive]\nhalf_width = "
             "0.0001\ntime_budget = 40\n");
  PairedFake ex;
  auto out = c.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  Store s = c.store();
  EXPECT_EQ(*s.meta("levels.builds"), "4");
  EXPECT_NE(s.meta("adaptive_log")->find("stop"), std::string::npos);
}

TEST(Design, AnAdaptiveCampaignStopsOnTheTargetOnlyFromFiveBuilds) {
  // A target every interval meets: the rule still grows 3 builds to KJ13's
  // minimum of 5, then stops; running it again adds nothing.
  Campaign c("[campaign]\nseed = 3\ndesign = \"interleaved\"\n[adaptive]\nhalf_width = 0.9\n");
  PairedFake ex;
  auto out = c.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  Store s = c.store();
  EXPECT_EQ(*s.meta("levels.builds"), "5");
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM plan"), 20);
  EXPECT_NE(s.meta("adaptive_log")->find("5 builds"), std::string::npos);
  // The report's plans aim at the adaptive target.
  EXPECT_EQ(std::stod(*s.meta("target_half_width")), 0.9);
  PairedFake again;
  ASSERT_TRUE(c.run(again).ok());
  EXPECT_EQ(again.calls, 0);
}

// PairedFake whose builds of the candidate fail (all, or its first only), or
// whose candidate executions all exit 1.
class FailingFake final : public Executor {
public:
  enum class Fails { EveryCandidateBuild, FirstCandidateBuild, EveryCandidateExecution };
  explicit FailingFake(Fails f) : fails(f) {}
  ExecutionResult run(const ExecutionRequest &r) override {
    ExecutionResult res = paired.run(r);
    // A build has the system's env; an execution runs the prog its build
    // wrote (seed and SLOW).
    std::string seed, slow;
    if (r.argv[0] == "fake-build")
      slow = envValue(r.env, "SLOW");
    else
      std::ifstream(r.argv[0]) >> seed >> slow;
    const bool candidate = !slow.empty();
    if (candidate && r.argv[0] == "fake-build") {
      const bool first = candidateBuilds++ == 0;
      if (fails == Fails::EveryCandidateBuild || (fails == Fails::FirstCandidateBuild && first)) {
        res.output.exitCode = 1;
        // With a terminal's escape sequence: shown escaped, never raw.
        res.output.stderrTail = "ld: cannot find -lmissing\x1b[2J\n";
      }
    } else if (candidate && fails == Fails::EveryCandidateExecution) {
      res.output.exitCode = 1;
    }
    return res;
  }
  std::vector<ExecutionResult> runTogether(const std::vector<ExecutionRequest> &requests) override {
    std::vector<ExecutionResult> out;
    for (const auto &r : requests)
      out.push_back(run(r));
    return out;
  }
  Fails fails;
  int candidateBuilds = 0;
  PairedFake paired;
};

// An adaptive campaign with a target no campaign this small reaches (only
// the failures or the cap of 7 builds stop it), run with a FailingFake; the
// progress messages kept.
struct FailingRun {
  struct Messages final : Progress {
    void message(const std::string &line) override { lines.push_back(line); }
    std::vector<std::string> lines;
  };
  Campaign c{"[campaign]\nseed = 3\ndesign = \"interleaved\"\n[adaptive]\nhalf_width = "
             "0.0001\nmax_builds = 7\n"};
  FailingFake ex;
  Messages progress;
  explicit FailingRun(FailingFake::Fails fails) : ex(fails) {
    auto out = c.run(ex, progress);
    EXPECT_TRUE(out.ok()) << out.error();
  }
  std::string meta(const std::string &key) { return c.store().meta(key).value_or(""); }
};

TEST(Design, AnAdaptiveCampaignStopsWhenEveryBuildOfASystemFailed) {
  FailingRun run(FailingFake::Fails::EveryCandidateBuild);
  EXPECT_EQ(run.meta("levels.builds"), "3"); // no batch was added
  EXPECT_EQ(run.ex.candidateBuilds, 3);
  const std::string log = run.meta("adaptive_log");
  EXPECT_NE(log.find("stop, every build of cand failed (3)"), std::string::npos) << log;
  // The first failure shows the build's output before its status; the
  // others their status only.
  std::vector<std::string> failed;
  for (const auto &line : run.progress.lines)
    if (line.find(" FAILED: ") != std::string::npos)
      failed.push_back(line);
  ASSERT_EQ(failed.size(), 3u);
  EXPECT_NE(failed[0].find("build exited with status 1\n    ld: cannot find -lmissing\\x1b[2J"),
            std::string::npos)
      << failed[0];
  EXPECT_EQ(failed[0].find('\x1b'), std::string::npos) << failed[0];
  EXPECT_EQ(failed[1].find("cannot find"), std::string::npos) << failed[1];
  EXPECT_EQ(failed[2].find("cannot find"), std::string::npos) << failed[2];
}

TEST(Design, AnAdaptiveCampaignStopsWhenEveryExecutionOfABenchmarkFailed) {
  FailingRun run(FailingFake::Fails::EveryCandidateExecution);
  EXPECT_EQ(run.meta("levels.builds"), "3");
  const std::string log = run.meta("adaptive_log");
  EXPECT_NE(log.find("stop, every execution of b on cand failed"), std::string::npos) << log;
}

TEST(Design, AnAdaptiveCampaignGoesOnWhenSomeBuildsOfASystemFailed) {
  // One failed build (a layout that breaks it): the others have data, and
  // the batches go on to the cap.
  FailingRun run(FailingFake::Fails::FirstCandidateBuild);
  EXPECT_EQ(run.meta("levels.builds"), "7");
  Store s = run.c.store();
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM build WHERE status = 'failed'"), 1);
  EXPECT_EQ(run.meta("adaptive_log").find("every build"), std::string::npos);
}

TEST(Design, ExecutionsTheQuietGateLetRunWhileBusyAreMarked) {
  // load = 0 can never be undercut and wait = 0 gives up after the first
  // window: every execution runs "while busy", whatever the machine does.
  Campaign c("[campaign]\nseed = 3\ndesign = \"interleaved\"\nquiet = { load = 0, wait = 0 }\n");
  PairedFake ex;
  auto out = c.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  Store s = c.store();
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM execution WHERE ran_busy = 1 AND quiet_wait >= 0"), 12);
  auto data = loadCampaignData(s);
  ASSERT_TRUE(data.ok()) << data.error();
  CampaignReport report = buildCampaignReport(*data);
  EXPECT_EQ(report.ranBusy, 12u);
  bool warned = false;
  for (const auto &w : report.warnings)
    warned = warned || w.find("12 executions ran while the machine was busy") != std::string::npos;
  EXPECT_TRUE(warned);
}
