// The campaign loop behind the executor seam, with a FakeExecutor: builds with
// their seeds and environment, executions in plan order with their padding,
// failures recorded while the campaign goes on, resume without duplicates.
#include "alea/campaign/builder.hpp"
#include "alea/campaign/campaign.hpp"
#include "alea/campaign/lock.hpp"
#include "alea/campaign/seeds.hpp"
#include "alea/contract.hpp"
#include "alea/exec/hash.hpp"

#include "store_test_access.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sys/wait.h>

using namespace alea::runner;
namespace fs = std::filesystem;

namespace {

const char *kCampaign = R"toml(
[campaign]
seed = 5
env_padding = [10, 90]
timeout = 7

[levels]
builds = 3
executions = 2
iterations = 3
warmup = 1

[measure]
source = "regex"
regex = 't=([0-9.]+)'

[[system]]
name = "base"
baseline = true
build = ["fake-build", "{build_dir}"]
artifacts = ["prog"]

[[system]]
name = "cand"
build = ["fake-build", "{build_dir}"]
artifacts = ["prog"]
env = { FAST = "1" }

[[benchmark]]
name = "good"
command = ["{artifact:prog}", "good"]
)toml";

const char *kBadBenchmarks = R"toml(
[[benchmark]]
name = "crash"
command = ["{artifact:prog}", "crash"]

[[benchmark]]
name = "hang"
command = ["{artifact:prog}", "hang"]

[[benchmark]]
name = "garbage"
command = ["{artifact:prog}", "garbage"]
)toml";

bool isBuild(const ExecutionRequest &r) { return r.argv[0] == "fake-build"; }

// Builds write `prog` (content depends on the seed); benchmarks answer by name.
ExecutionResult respond(const ExecutionRequest &r) {
  ExecutionResult res;
  res.output.wallSeconds = 0.25;
  if (isBuild(r)) {
    if (envValue(r.env, "FAIL_BUILD") == "1") {
      res.output.exitCode = 2;
      res.output.stderrTail = "make: *** [all] Error 2\n";
      return res;
    }
    std::ofstream(r.workdir + "/prog") << "binary " << envValue(r.env, "ALEA_SEED");
    return res;
  }
  const std::string &what = r.argv[1];
  if (what == "crash") {
    res.output.signal = SIGSEGV;
    res.output.exitCode = 128 + SIGSEGV;
  } else if (what == "hang") {
    res.output.timedOut = true;
    res.output.wallSeconds = r.timeoutSeconds;
  } else if (what == "garbage") {
    res.output.stdoutText = "no numbers here\n";
  } else {
    res.output.stdoutText = "t=2.0\nt=1.0\nt=1.1\nt=1.2\n";
  }
  return res;
}

struct Harness {
  test::TempDir dir;
  CampaignConfig cfg;
  CampaignOptions opts;
  explicit Harness(const std::string &text) {
    auto c = parseCampaignText(text, dir.file("c.toml"));
    EXPECT_TRUE(c.ok()) << c.error();
    cfg = *c;
    opts.dir = dir.file("camp");
    opts.toolDir = "/opt/alea/bin";
    opts.baseEnv = {"PATH=/usr/bin:/bin", "ALEA_SEED=999", "HOME=/root"};
    opts.recheckMachine = false;
  }
  Expected<CampaignOutcome> run(FakeExecutor &ex, std::int64_t max = -1) {
    NullProgress p;
    opts.maxExecutions = max;
    return runCampaign(cfg, opts, ex, p);
  }
  Store store() { return std::move(*Store::open(storePath(opts.dir))); }
};

std::int64_t count(Store &s, const std::string &sql) { return StoreTestAccess::scalar(s, sql); }

// The requests of the benchmarks' executions, in the order they ran.
std::vector<ExecutionRequest> benchmarkRuns(const FakeExecutor &ex) {
  std::vector<ExecutionRequest> runs;
  for (const auto &r : ex.requests)
    if (!isBuild(r))
      runs.push_back(r);
  return runs;
}

std::map<std::int64_t, std::string> systemNames(Store &s) {
  std::map<std::int64_t, std::string> names;
  Statement st(StoreTestAccess::handle(s), "SELECT id, name FROM system");
  while (st.step())
    names[st.columnInt(0)] = st.columnText(1);
  return names;
}

} // namespace

TEST(Campaign, RunsEveryPlannedExecutionOnceAndStoresIterations) {
  Harness h(kCampaign);
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->complete);
  EXPECT_EQ(out->summary.planned, 2 * 1 * 3 * 2);
  EXPECT_EQ(out->summary.executed, 12);
  EXPECT_EQ(out->summary.failed, 0);
  EXPECT_EQ(out->summary.builds, 6);
  Store s = h.store();
  EXPECT_EQ(count(s, "SELECT count(*) FROM measurement"), 12 * 4);
  EXPECT_EQ(count(s, "SELECT count(*) FROM measurement WHERE warmup=1"), 12);
  auto rows = s.measurements();
  ASSERT_EQ(rows.size(), 36u);
  EXPECT_DOUBLE_EQ(rows[0].value, 1.0); // the first value (2.0) was warm-up
  EXPECT_EQ(rows[0].iteration, 1);
  EXPECT_EQ(s.integrityCheck(), "ok");
}

TEST(Campaign, BuildsGetTheirSeedFactorsWrappersAndOwnDirectory) {
  Harness h(kCampaign);
  FakeExecutor ex(respond);
  ASSERT_TRUE(h.run(ex).ok());
  int builds = 0;
  for (const auto &r : ex.requests) {
    if (!isBuild(r))
      continue;
    ++builds;
    std::string system = fs::path(r.workdir).parent_path().filename().string();
    int index = std::stoi(fs::path(r.workdir).filename().string());
    EXPECT_EQ(r.workdir, buildDirectory(h.opts.dir, system, index));
    EXPECT_EQ(r.argv[1], r.workdir); // {build_dir} substituted
    EXPECT_EQ(envValue(r.env, "ALEA_SEED"),
              alea::formatSeed(campaignBuildSeed(5, pairedDesign(h.cfg.design), system, index)));
    EXPECT_EQ(envValue(r.env, "ALEA_FACTORS"), joinFactors(h.cfg.factors));
    EXPECT_EQ(envValue(r.env, "CC"), "/opt/alea/bin/alea-cc");
    EXPECT_EQ(envValue(r.env, "CXX"), "/opt/alea/bin/alea-c++");
    EXPECT_EQ(envValue(r.env, "LD"), "/opt/alea/bin/alea-ld");
    EXPECT_EQ(envValue(r.env, "FAST"), system == "cand" ? "1" : "");
    EXPECT_EQ(envValue(r.env, "HOME"), "/root");
  }
  EXPECT_EQ(builds, 6);
  // Artifacts are snapshotted content-addressed, one object per distinct content.
  Store s = h.store();
  Statement st(StoreTestAccess::handle(s), "SELECT object_hash FROM artifact");
  int objects = 0;
  while (st.step()) {
    std::string hash = st.columnText(0);
    auto digest = sha256File(objectPath(h.opts.dir, hash));
    ASSERT_TRUE(digest.has_value()) << hash;
    EXPECT_EQ(*digest, hash);
    ++objects;
  }
  EXPECT_EQ(objects, 6);
}

// A paired design's build i of every system is one seed draw (pairSeed), so the
// pair shares its layout; an unpaired campaign draws one per system and build.
TEST(Campaign, PairedDesignsShareEachBuildPairsSeedUnpairedDoNot) {
  for (const char *design : {"interleaved", "duet", "unpaired"}) {
    std::string text = kCampaign;
    text.replace(text.find("seed = 5\n"), 9,
                 std::string("seed = 5\ndesign = \"") + design + "\"\n");
    Harness h(text);
    FakeExecutor ex(respond);
    ASSERT_TRUE(h.run(ex).ok()) << design;
    std::map<std::pair<std::string, int>, std::string> seeds;
    for (const auto &r : ex.requests)
      if (isBuild(r))
        seeds[{fs::path(r.workdir).parent_path().filename().string(),
               std::stoi(fs::path(r.workdir).filename().string())}] = envValue(r.env, "ALEA_SEED");
    ASSERT_EQ(seeds.size(), 6u) << design;
    const bool paired = std::string(design) != "unpaired";
    std::set<std::string> distinct;
    for (int b = 0; b < 3; ++b) {
      const std::string base = seeds[std::make_pair(std::string("base"), b)];
      const std::string cand = seeds[std::make_pair(std::string("cand"), b)];
      EXPECT_EQ(base == cand, paired) << design << " build " << b;
      EXPECT_EQ(base, alea::formatSeed(paired ? pairSeed(5, b) : buildSeed(5, "base", b)));
      distinct.insert(base);
    }
    EXPECT_EQ(distinct.size(), 3u) << design; // the pairs stay independent draws
  }
}

TEST(Campaign, ExecutionsFollowThePlanWithSeededPaddingAndTheirArtifact) {
  Harness h(kCampaign);
  FakeExecutor ex(respond);
  ASSERT_TRUE(h.run(ex).ok());
  Store s = h.store();
  auto plan = s.loadPlan();
  std::vector<ExecutionRequest> runs = benchmarkRuns(ex);
  ASSERT_EQ(runs.size(), plan.size());
  std::map<std::int64_t, std::string> systemName = systemNames(s);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const std::string &sys = systemName[plan[i].systemId];
    auto build = s.findBuild(plan[i].systemId, plan[i].buildIndex);
    ASSERT_TRUE(build.has_value());
    EXPECT_EQ(runs[i].argv[0], objectPath(h.opts.dir, build->artifacts[0].objectHash));
    std::int64_t pad =
        envPaddingSize(campaignBuildSeed(5, pairedDesign(h.cfg.design), sys, plan[i].buildIndex),
                       plan[i].executionIndex, 10, 90);
    EXPECT_EQ(runs[i].envPadBytes, pad);
    EXPECT_EQ(runs[i].workdir, build->dir);
    EXPECT_DOUBLE_EQ(runs[i].timeoutSeconds, 7);
    EXPECT_EQ(envValue(runs[i].env, "ALEA_ITERATIONS"), "4");
    EXPECT_EQ(envValue(runs[i].env, "ALEA_SEED"), ""); // the caller's ALEA_* are not passed
    Statement e(StoreTestAccess::handle(s),
                "SELECT env_padding FROM execution WHERE plan_position=?");
    e.bind(1, plan[i].position);
    ASSERT_TRUE(e.step());
    EXPECT_EQ(e.columnInt(0), pad);
  }
}

TEST(Campaign, HeapOffsetIsSeededPerExecutionSwitchedPerSystemAndRecorded) {
  // cand's own factor list leaves heap-offset out: its executions get none.
  std::string text = kCampaign;
  const std::string env = "env = { FAST = \"1\" }\n";
  text.replace(text.find(env), env.size(), env + "factors = [\"function-order\"]\n");
  Harness h(text);
  FakeExecutor ex([](const ExecutionRequest &r) {
    ExecutionResult res = respond(r);
    if (r.heapOffset >= 0)
      res.heapStatus = "applied"; // what the executor read from the runtime
    return res;
  });
  ASSERT_TRUE(h.run(ex).ok());
  Store s = h.store();
  EXPECT_EQ(s.meta("factors").value_or(""),
            "function-order,global-order,symbol-names,code-padding,stack-offset,link-order,"
            "section-order,heap-offset");
  auto plan = s.loadPlan();
  std::vector<ExecutionRequest> runs = benchmarkRuns(ex);
  ASSERT_EQ(runs.size(), plan.size());
  std::map<std::int64_t, std::string> systemName = systemNames(s);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const std::string &sys = systemName[plan[i].systemId];
    const bool on = sys == "base";
    const std::int64_t offset =
        on ? heapOffsetBytes(
                 campaignBuildSeed(5, pairedDesign(h.cfg.design), sys, plan[i].buildIndex),
                 plan[i].executionIndex)
           : -1;
    EXPECT_EQ(runs[i].heapOffset, offset) << sys;
    Statement e(StoreTestAccess::handle(s), "SELECT heap_offset, heap_status, environment "
                                            "FROM execution WHERE plan_position=?");
    e.bind(1, plan[i].position);
    ASSERT_TRUE(e.step());
    if (on) {
      EXPECT_EQ(e.columnInt(0), offset);
      EXPECT_EQ(e.columnText(1), "applied");
      EXPECT_NE(e.columnText(2).find("ALEA_HEAP_OFFSET=<" + std::to_string(offset) + " bytes>"),
                std::string::npos);
    } else {
      EXPECT_TRUE(e.columnIsNull(0));
      EXPECT_EQ(e.columnText(1), "off");
      EXPECT_EQ(e.columnText(2).find("ALEA_HEAP_OFFSET"), std::string::npos);
    }
  }
}

TEST(Campaign, FailuresAreRecordedAndTheCampaignGoesOn) {
  Harness h(std::string(kCampaign) + kBadBenchmarks);
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->complete);
  EXPECT_EQ(out->summary.executed, 2 * 4 * 3 * 2);
  EXPECT_EQ(out->summary.failed, 3 * 12);
  Store s = h.store();
  auto statusOf = [&](const char *bench) {
    std::map<std::string, std::int64_t> m;
    Statement st(StoreTestAccess::handle(s),
                 "SELECT e.status, count(*) FROM execution e JOIN benchmark b ON "
                 "b.id=e.benchmark_id WHERE b.name=? GROUP BY e.status");
    st.bind(1, std::string_view(bench));
    while (st.step())
      m[st.columnText(0)] = st.columnInt(1);
    return m;
  };
  EXPECT_EQ(statusOf("good"), (std::map<std::string, std::int64_t>{{"ok", 12}}));
  EXPECT_EQ(statusOf("crash"), (std::map<std::string, std::int64_t>{{"signal", 12}}));
  EXPECT_EQ(statusOf("hang"), (std::map<std::string, std::int64_t>{{"timeout", 12}}));
  EXPECT_EQ(statusOf("garbage"), (std::map<std::string, std::int64_t>{{"iterations", 12}}));
  // Failures carry no data; their reason is kept.
  EXPECT_EQ(count(s, "SELECT count(*) FROM measurement m JOIN execution e ON e.id=m.execution_id "
                     "WHERE e.status <> 'ok'"),
            0);
  Statement why(StoreTestAccess::handle(s),
                "SELECT error, signal FROM execution WHERE status='signal' LIMIT 1");
  ASSERT_TRUE(why.step());
  EXPECT_NE(why.columnText(0).find("signal 11"), std::string::npos) << why.columnText(0);
  EXPECT_EQ(why.columnInt(1), SIGSEGV);
  bool warned = false;
  for (const auto &w : out->warnings)
    warned |= w.find("36 of 48 executions failed") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(Campaign, AFailedBuildFailsItsExecutionsWithoutRunningThem) {
  std::string text = kCampaign;
  text.replace(text.find("env = { FAST = \"1\" }"), 20, "env = { FAIL_BUILD = \"1\" }");
  Harness h(text);
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_EQ(out->summary.failedBuilds, 3);
  EXPECT_EQ(out->summary.failed, 6);
  int benchRuns = 0;
  for (const auto &r : ex.requests)
    benchRuns += !isBuild(r);
  EXPECT_EQ(benchRuns, 6); // only the baseline's executions ran
  Store s = h.store();
  Statement st(StoreTestAccess::handle(s),
               "SELECT log_tail FROM build WHERE status='failed' LIMIT 1");
  ASSERT_TRUE(st.step());
  EXPECT_NE(st.columnText(0).find("Error 2"), std::string::npos);
  EXPECT_EQ(
      count(s, "SELECT count(*) FROM execution WHERE status='build' AND build_id IS NOT NULL"), 6);
}

TEST(Campaign, ResumeRunsOnlyWhatIsMissingAndDuplicatesNothing) {
  Harness h(std::string(kCampaign) + kBadBenchmarks);
  FakeExecutor first(respond);
  auto partial = h.run(first, 7);
  ASSERT_TRUE(partial.ok()) << partial.error();
  EXPECT_FALSE(partial->complete);
  EXPECT_EQ(partial->summary.executed, 7);

  FakeExecutor second(respond);
  auto rest = h.run(second, 20);
  ASSERT_TRUE(rest.ok()) << rest.error();
  EXPECT_EQ(rest->summary.executed, 27);
  for (const auto &r : second.requests)
    EXPECT_FALSE(isBuild(r)) << "builds are recorded once, never redone";

  FakeExecutor third(respond);
  auto done = h.run(third);
  ASSERT_TRUE(done.ok()) << done.error();
  EXPECT_TRUE(done->complete);
  EXPECT_EQ(third.requests.size(), 48u - 27u);

  // Same result as an uninterrupted campaign: same plan, same measurements.
  Harness once(std::string(kCampaign) + kBadBenchmarks);
  FakeExecutor all(respond);
  ASSERT_TRUE(once.run(all).ok());
  Store a = h.store(), b = once.store();
  EXPECT_EQ(a.loadPlan(), b.loadPlan());
  EXPECT_EQ(count(a, "SELECT count(*) FROM measurement"),
            count(b, "SELECT count(*) FROM measurement"));
  EXPECT_EQ(count(a, "SELECT count(DISTINCT plan_position) FROM execution"), 48);
  EXPECT_EQ(count(a, "SELECT count(*) FROM execution"), 48);
  EXPECT_EQ(a.integrityCheck(), "ok");
}

TEST(Campaign, AResumeOnAChangedMachineIsRecordedAsAChange) {
  Harness h(kCampaign);
  FakeExecutor first(respond);
  ASSERT_TRUE(h.run(first, 3).ok());
  {
    // As if the first part had run with another governor on another host.
    Store s = h.store();
    ASSERT_TRUE(StoreTestAccess::exec(s, "UPDATE machine SET governor = 'powersave-elsewhere', "
                                         "hostname = 'other-host'")
                    .ok());
  }
  FakeExecutor second(respond);
  auto rest = h.run(second, 2);
  ASSERT_TRUE(rest.ok()) << rest.error();
  Store s = h.store();
  Statement st(StoreTestAccess::handle(s), "SELECT reason FROM machine ORDER BY id DESC LIMIT 1");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.columnText(0), "change on resume: host,governor");
  EXPECT_EQ(s.summary().machineChanges, 1);

  // Resuming again on the same machine is a plain resume.
  FakeExecutor third(respond);
  ASSERT_TRUE(h.run(third, 1).ok());
  Store again = h.store();
  Statement last(StoreTestAccess::handle(again),
                 "SELECT reason FROM machine ORDER BY id DESC LIMIT 1");
  ASSERT_TRUE(last.step());
  EXPECT_EQ(last.columnText(0), "resume");
  EXPECT_EQ(again.summary().machineChanges, 1);
}

TEST(Campaign, AChangedCampaignFileIsNotMixedIntoAnExistingStore) {
  Harness h(kCampaign);
  FakeExecutor ex(respond);
  ASSERT_TRUE(h.run(ex, 2).ok());
  auto changed = parseCampaignText(std::string(kCampaign) + "\n# edited\n", h.dir.file("c.toml"));
  ASSERT_TRUE(changed.ok());
  h.cfg = *changed;
  FakeExecutor again(respond);
  auto out = h.run(again);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("different campaign file"), std::string::npos) << out.error();
  EXPECT_TRUE(again.requests.empty());
}

TEST(Campaign, ResumeRequiresAStore) {
  Harness h(kCampaign);
  h.opts.requireExisting = true;
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("nothing to resume"), std::string::npos);
}

TEST(Campaign, AnInterruptedBuildDirectoryIsMovedAsideNotReused) {
  Harness h(kCampaign);
  std::string dir0 = buildDirectory(h.opts.dir, "base", 0);
  fs::create_directories(dir0);
  std::ofstream(dir0 + "/half-written.o") << "junk";
  FakeExecutor ex(respond);
  ASSERT_TRUE(h.run(ex).ok());
  EXPECT_TRUE(fs::exists(dir0 + ".interrupted-1/half-written.o"));
  EXPECT_FALSE(fs::exists(dir0 + "/half-written.o"));
  EXPECT_TRUE(fs::exists(dir0 + "/prog"));
}

TEST(Campaign, MissingInputFileIsAnErrorBeforeAnythingRuns) {
  Harness h(std::string(kCampaign) + "inputs = [\"data/missing.txt\"]\n");
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error(), h.dir.file("c.toml") +
                             ":32:11: expected an existing input file for benchmark 'good': '" +
                             h.dir.file("data/missing.txt") + "' does not exist");
  EXPECT_TRUE(ex.requests.empty());
  EXPECT_FALSE(fs::exists(h.opts.dir)) << "nothing is created for a campaign that cannot run";
}

// Mistakes that used to fail every execution after all the builds ran are
// campaign-file errors before the first build: nothing runs, no store exists.
namespace {

std::string replaced(std::string text, const std::string &from, const std::string &to) {
  std::size_t at = text.rfind(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// Runs `text` as a campaign and returns its error; checks that nothing ran
// and nothing was created.
std::string earlyError(const std::string &text) {
  Harness h(text);
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  EXPECT_FALSE(out.ok()) << "the campaign ran";
  EXPECT_TRUE(ex.requests.empty()) << ex.requests.size() << " builds or executions ran";
  EXPECT_FALSE(fs::exists(h.opts.dir)) << "the campaign directory was created";
  std::string prefix = h.dir.file("c.toml") + ":";
  if (out.ok() || out.error().rfind(prefix, 0) != 0)
    return out.ok() ? "ran" : out.error();
  return out.error().substr(prefix.size());
}

} // namespace

TEST(Campaign, APlaceholderTypoIsAFileErrorBeforeAnyBuild) {
  EXPECT_EQ(earlyError(replaced(kCampaign, "{artifact:prog}", "{artifcat:prog}")),
            "31:12: unknown placeholder {artifcat:prog} in benchmark 'good'.command (did you mean "
            "{artifact:prog}?); expected one of {source_dir}, {build_dir}, {campaign_dir}, "
            "{system}, {benchmark}, {build_index}, {execution_index}, {iterations}, "
            "{artifact:prog}");
  EXPECT_EQ(earlyError(replaced(kCampaign, "\"{build_dir}\"]\nartifacts = [\"prog\"]\nenv",
                                "\"{biuld_dir}\"]\nartifacts = [\"prog\"]\nenv")),
            "25:24: unknown placeholder {biuld_dir} in system 'cand'.build (did you mean "
            "{build_dir}?); expected one of {source_dir}, {build_dir}, {campaign_dir}, {system}, "
            "{build_index}, {seed}");
}

TEST(Campaign, AnArtifactMissingFromOneSystemIsAFileErrorBeforeAnyBuild) {
  EXPECT_EQ(earlyError(replaced(kCampaign, "artifacts = [\"prog\"]", "artifacts = [\"prog.o\"]")),
            "31:12: expected {artifact:prog} in benchmark 'good'.command to name an artifact of "
            "every system (the benchmark runs on the builds of each); system 'cand' has "
            "artifacts = [\"prog.o\"]");
}

TEST(Campaign, AMissingStdinOrWorkdirIsAFileErrorBeforeAnyBuild) {
  test::TempDir other;
  std::string e = earlyError(std::string(kCampaign) + "stdin = \"input.txt\"\n");
  EXPECT_EQ(e.rfind("32:9: expected an existing file for benchmark 'good'.stdin: '", 0), 0u) << e;
  EXPECT_NE(e.find("/input.txt' does not exist"), std::string::npos) << e;
  e = earlyError(std::string(kCampaign) + "workdir = \"" + other.file("gone") + "\"\n");
  EXPECT_EQ(e, "32:11: expected an existing directory for benchmark 'good'.workdir: '" +
                   other.file("gone") + "' does not exist");
}

TEST(Campaign, ACpuThisProcessCannotUseIsAFileErrorBeforeAnyBuild) {
  // The parser accepts CPU numbers up to 4095; the executor pins with a
  // cpu_set_t (CPU_SETSIZE = 1024), so 4095 is never one this process can use.
  std::string e = earlyError(replaced(kCampaign, "timeout = 7\n", "timeout = 7\ncpus = [4095]\n"));
  EXPECT_EQ(e.rfind("6:9: expected a CPU this process can run on in campaign.cpus: CPU 4095 is "
                    "offline or outside its affinity mask (available: 0",
                    0),
            0u)
      << e;
}

TEST(Campaign, EveryPlaceholderTheChecksAcceptIsOneTheRunSubstitutes) {
  // Pins the validator's lists (validate.cpp) to runBuild and Run::execute:
  // a campaign using every placeholder passes the checks and runs without a
  // failed build or execution.
  std::string text = replaced(kCampaign, "build = [\"fake-build\", \"{build_dir}\"]",
                              "build = [\"fake-build\", \"{build_dir}\", \"{source_dir}\", "
                              "\"{campaign_dir}\", \"{system}\", \"{build_index}\", \"{seed}\"]");
  text = replaced(text, "command = [\"{artifact:prog}\", \"good\"]",
                  "command = [\"{artifact:prog}\", \"good\", \"{source_dir}\", \"{build_dir}\", "
                  "\"{campaign_dir}\", \"{system}\", \"{benchmark}\", \"{build_index}\", "
                  "\"{execution_index}\", \"{iterations}\"]");
  Harness h(text);
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->complete);
  EXPECT_EQ(out->summary.failedBuilds, 0);
  EXPECT_EQ(out->summary.failed, 0);
}

TEST(Campaign, CancelStopsBetweenExecutions) {
  Harness h(kCampaign);
  std::atomic<bool> cancel{false};
  h.opts.cancel = &cancel;
  int benchRuns = 0;
  FakeExecutor ex([&](const ExecutionRequest &r) {
    if (!isBuild(r) && ++benchRuns == 3)
      cancel = true;
    return respond(r);
  });
  auto out = h.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->cancelled);
  EXPECT_EQ(out->summary.executed, 3);
}

TEST(Campaign, CancelDuringABuildStopsWithoutRecordingIt) {
  Harness h(kCampaign);
  std::atomic<bool> cancel{false};
  h.opts.cancel = &cancel;
  int builds = 0;
  FakeExecutor ex([&](const ExecutionRequest &r) {
    if (isBuild(r) && ++builds == 2) {
      EXPECT_EQ(r.cancel, &cancel) << "the build can be interrupted";
      cancel = true; // Ctrl-C while the second build runs: the executor kills it
      ExecutionResult killed;
      killed.cancelled = true;
      return killed;
    }
    return respond(r);
  });
  auto out = h.run(ex);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->cancelled);
  EXPECT_EQ(out->summary.executed, 0);
  // Issue 18 item 11: "0 of 12", the plan to come, not "0 of 0".
  EXPECT_EQ(out->summary.planned, 12);
  EXPECT_EQ(builds, 2);
  Store s = h.store();
  EXPECT_EQ(count(s, "SELECT count(*) FROM build"), 1) << "the interrupted build is not recorded";

  // Resumed: the interrupted build is redone (its directory moved aside).
  cancel = false;
  FakeExecutor again(respond);
  auto rest = h.run(again);
  ASSERT_TRUE(rest.ok()) << rest.error();
  EXPECT_TRUE(rest->complete);
  Store done = h.store();
  EXPECT_EQ(count(done, "SELECT count(*) FROM build"), 6);
}

TEST(Campaign, AnImportedStoreIsNotRunAsACampaign) {
  Harness h(kCampaign);
  std::filesystem::create_directories(h.opts.dir);
  {
    auto s = Store::open(storePath(h.opts.dir));
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->setMeta("imported_from", "x.csv").ok());
  }
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("imported from x.csv"), std::string::npos) << out.error();
  EXPECT_TRUE(ex.requests.empty());
}

TEST(Campaign, ADirectoryLockedByAnotherRunIsRefusedBeforeAnythingRuns) {
  Harness h(kCampaign);
  fs::create_directories(h.opts.dir);
  auto holder = CampaignLock::acquire(h.opts.dir);
  ASSERT_TRUE(holder.ok());
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.errorKind(), ErrorKind::Busy);
  EXPECT_NE(out.error().find("is in use by another alea run (pid"), std::string::npos)
      << out.error();
  EXPECT_TRUE(ex.requests.empty()) << "nothing built, nothing run";
  EXPECT_FALSE(fs::exists(storePath(h.opts.dir))) << "the store is not even opened";
}

TEST(Campaign, LosingTheLockFileStopsTheRunBeforeItRecordsMore) {
  Harness h(kCampaign);
  int benchRuns = 0;
  FakeExecutor ex([&](const ExecutionRequest &r) {
    if (!isBuild(r) && ++benchRuns == 2)
      fs::remove(lockPath(h.opts.dir)); // someone removes the lock during execution 2
    return respond(r);
  });
  auto out = h.run(ex);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("lost the lock"), std::string::npos) << out.error();
  Store s = h.store();
  EXPECT_EQ(count(s, "SELECT count(*) FROM execution"), 1);
}

TEST(Campaign, AFaultOutsideTheBuildIsNotRecordedAndTheBuildIsRetriedOnResume) {
  Harness h(kCampaign);
  // The objects directory cannot be created (a file is in its place), as when
  // the disk is full or the directory is not writable: not the build's fault.
  fs::create_directories(h.opts.dir);
  std::ofstream(h.opts.dir + "/objects") << "in the way";
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("build base #0: cannot create"), std::string::npos) << out.error();
  EXPECT_NE(out.error().find("retries it"), std::string::npos) << out.error();
  {
    Store s = h.store();
    EXPECT_EQ(count(s, "SELECT count(*) FROM build"), 0) << "a fault is not a build failure";
  }
  fs::remove(h.opts.dir + "/objects");
  FakeExecutor again(respond);
  auto rest = h.run(again);
  ASSERT_TRUE(rest.ok()) << rest.error();
  EXPECT_TRUE(rest->complete);
  Store s = h.store();
  EXPECT_EQ(count(s, "SELECT count(*) FROM build WHERE status = 'ok'"), 6);
  EXPECT_EQ(count(s, "SELECT count(*) FROM execution WHERE status = 'ok'"), 12);
}

TEST(Campaign, AGenuineBuildFailureIsRecordedAndNotRetried) {
  Harness h(kCampaign);
  h.opts.baseEnv.push_back("FAIL_BUILD=1");
  FakeExecutor ex(respond);
  ASSERT_TRUE(h.run(ex).ok());
  std::size_t builds = 0;
  for (const auto &r : ex.requests)
    builds += isBuild(r);
  EXPECT_EQ(builds, 6u);
  FakeExecutor again(respond);
  ASSERT_TRUE(h.run(again).ok());
  for (const auto &r : again.requests)
    EXPECT_FALSE(isBuild(r)) << "a recorded build failure is final";
  Store s = h.store();
  EXPECT_EQ(count(s, "SELECT count(*) FROM build WHERE status = 'failed'"), 6);
}

TEST(Campaign, PartialSnapshotsOfAKilledRunAreRemovedOnResume) {
  Harness h(kCampaign);
  fs::create_directories(h.opts.dir + "/objects");
  std::string leftover = h.opts.dir + "/objects/" + std::string(64, 'a') + ".tmp.4242";
  std::ofstream(leftover) << "half an artifact";
  FakeExecutor ex(respond);
  ASSERT_TRUE(h.run(ex).ok());
  EXPECT_FALSE(fs::exists(leftover));
}

namespace {

// Keeps the messages a run shows.
struct RecordingProgress final : Progress {
  std::vector<std::string> lines;
  void message(const std::string &line) override { lines.push_back(line); }
};

std::string fileText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A `sleep` started with ALEA_JOB=<marker>, as a killed run's job left it.
pid_t startMarked(const std::string &marker) {
  pid_t pid = ::fork();
  if (pid == 0) {
    std::string entry = std::string(kJobVariable) + "=" + marker;
    char *envp[] = {entry.data(), nullptr};
    char *argv[] = {const_cast<char *>("/bin/sleep"), const_cast<char *>("1000"), nullptr};
    ::execve("/bin/sleep", argv, envp);
    ::_exit(127);
  }
  return pid;
}

bool running(pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) == 0; }

std::string hex16(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

} // namespace

// Issue 18 item 11: a run refused because another holds the directory says
// so alone: the start line comes only once the directory and its store are
// this run's.
TEST(Campaign, TheStartMessageComesOnlyOnceTheDirectoryIsOurs) {
  Harness h(kCampaign);
  h.opts.startMessage = "campaign 'c': starting";
  fs::create_directories(h.opts.dir);
  FakeExecutor ex(respond);
  RecordingProgress progress;
  {
    auto holder = CampaignLock::acquire(h.opts.dir);
    ASSERT_TRUE(holder.ok());
    auto out = runCampaign(h.cfg, h.opts, ex, progress);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.errorKind(), ErrorKind::Busy);
  }
  EXPECT_TRUE(progress.lines.empty()) << progress.lines.front();
  auto out = runCampaign(h.cfg, h.opts, ex, progress);
  ASSERT_TRUE(out.ok()) << out.error();
  ASSERT_FALSE(progress.lines.empty());
  EXPECT_EQ(progress.lines.front(), "campaign 'c': starting");
}

// Issue 18 item 5: --resume continues a campaign and never starts one; an
// existing store that is empty is an error with or without it, and nothing
// runs or changes.
TEST(Campaign, ResumeNeverCreatesACampaignAndAnEmptyStoreIsAnError) {
  Harness h(kCampaign);
  fs::create_directories(h.opts.dir);
  FakeExecutor ex(respond);
  h.opts.requireExisting = true;
  auto none = h.run(ex);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("nothing to resume: no store at"), std::string::npos) << none.error();
  {
    ASSERT_TRUE(Store::open(storePath(h.opts.dir)).ok());
  } // a store holding no campaign
  auto bare = h.run(ex);
  ASSERT_FALSE(bare.ok());
  EXPECT_NE(bare.error().find("holds no campaign yet"), std::string::npos) << bare.error();
  fs::resize_file(storePath(h.opts.dir), 0);
  for (bool resume : {true, false}) {
    h.opts.requireExisting = resume;
    auto out = h.run(ex);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.error().rfind("'" + storePath(h.opts.dir) + "' is empty, not an alea store", 0),
              0u)
        << out.error();
    EXPECT_EQ(fs::file_size(storePath(h.opts.dir)), 0u);
  }
  EXPECT_TRUE(ex.requests.empty());
  EXPECT_FALSE(fs::exists(fs::path(h.opts.dir) / "builds"));
}

// Issue 18 item 7: explicit levels that plan more than 10^8 executions are
// refused before anything is created, unless forced.
TEST(Campaign, APlanBeyondTheBoundIsRefusedUnlessForced) {
  std::string text = kCampaign;
  text.replace(text.find("executions = 2"), 14, "executions = 1000000");
  text.replace(text.find("builds = 3"), 10, "builds = 100");
  Harness h(text);
  FakeExecutor ex(respond);
  auto out = h.run(ex);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("the levels plan 200000000 executions"), std::string::npos)
      << out.error();
  EXPECT_FALSE(fs::exists(h.opts.dir));
  // Forced, it starts (and is stopped here after its first build).
  std::atomic<bool> cancel{false};
  h.opts.cancel = &cancel;
  h.opts.force = true;
  FakeExecutor stop([&](const ExecutionRequest &r) {
    cancel = true;
    return respond(r);
  });
  auto forced = h.run(stop);
  ASSERT_TRUE(forced.ok()) << forced.error();
  EXPECT_TRUE(forced->cancelled);
  EXPECT_EQ(forced->summary.planned, 200000000);
}

// Issue 18 item 6: every build and execution carries ALEA_JOB=<run>-<job>,
// <run> being the run named in the lock file, the same length for every job
// (it must not move the environment's size, which env_padding draws).
TEST(Campaign, BuildsAndExecutionsCarryTheirRunsMarker) {
  Harness h(kCampaign);
  FakeExecutor ex(respond);
  ASSERT_TRUE(h.run(ex).ok());
  std::string lock = fileText(lockPath(h.opts.dir));
  auto at = lock.find("\nrun ");
  ASSERT_NE(at, std::string::npos) << lock;
  std::string run = lock.substr(at + 5, 16);
  std::set<std::string> jobs;
  for (const auto &r : ex.requests) {
    std::string marker = envValue(r.env, kJobVariable);
    ASSERT_EQ(marker.size(), 16u + 1 + 17) << marker;
    EXPECT_EQ(marker.substr(0, 17), run + "-");
    EXPECT_EQ(marker[17], isBuild(r) ? 'b' : 'e') << marker;
    jobs.insert(marker);
  }
  EXPECT_EQ(jobs.size(), ex.requests.size()) << "one marker per job";
  // The next run is another: a new name.
  FakeExecutor again(respond);
  ASSERT_TRUE(h.run(again).ok());
  EXPECT_EQ(fileText(lockPath(h.opts.dir)).find("run " + run), std::string::npos);
}

// Issue 18 item 6: what a killed run left running (found by its marker) is
// ended when the campaign resumes: an interrupted execution's processes are
// recorded as that execution's leftovers, an interrupted build's are ended;
// processes of recorded builds and executions are left alone, as a run
// leaves them.
TEST(Campaign, AResumedRunEndsWhatTheKilledRunLeftAndRecordsIt) {
  Harness h(kCampaign);
  FakeExecutor first(respond);
  ASSERT_TRUE(h.run(first, 4).ok()); // 4 of 12 executions
  std::set<std::int64_t> done;
  std::int64_t pending = -1;
  {
    Store s = h.store();
    done = s.completedPositions();
    for (const PlanEntry &e : s.loadPlan())
      if (!done.count(e.position)) {
        pending = e.position;
        break;
      }
  }
  ASSERT_EQ(done.size(), 4u);
  ASSERT_GE(pending, 0);
  // The run "killed" while it ran position `pending`: its name in the lock.
  const std::string killed = "0123456789abcdef";
  {
    std::ofstream(lockPath(h.opts.dir)) << "pid 1 on elsewhere, since 2026\nrun " << killed << "\n";
  }
  pid_t interrupted = startMarked(killed + "-e" + hex16(static_cast<std::uint64_t>(pending)));
  pid_t grandchild = startMarked(killed + "-e" + hex16(static_cast<std::uint64_t>(pending)));
  pid_t ofRecorded = startMarked(killed + "-e" + hex16(static_cast<std::uint64_t>(*done.begin())));
  pid_t server = startMarked(killed + "-b" + hex16(1)); // base #1: recorded
  pid_t unbuilt = startMarked(killed + "-b" + hex16(std::uint64_t{1} << 32 | 7)); // cand #7: never
  for (pid_t p : {interrupted, grandchild, ofRecorded, server, unbuilt})
    ASSERT_TRUE(test::waitFor([&] {
      std::ifstream in("/proc/" + std::to_string(p) + "/environ", std::ios::binary);
      std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      return env.find(killed) != std::string::npos;
    }));

  FakeExecutor resumed(respond);
  RecordingProgress progress;
  h.opts.maxExecutions = -1;
  auto out = runCampaign(h.cfg, h.opts, resumed, progress);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_TRUE(out->complete);
  for (pid_t p : {interrupted, grandchild, unbuilt}) {
    int status = 0;
    ASSERT_EQ(::waitpid(p, &status, WNOHANG), p) << "pid " << p << " was not ended";
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  }
  for (pid_t p : {ofRecorded, server}) {
    EXPECT_TRUE(running(p)) << "pid " << p << " of a recorded job was ended";
    ::kill(p, SIGKILL);
    ::waitpid(p, nullptr, 0);
  }
  Store s = h.store();
  Statement st(StoreTestAccess::handle(s),
               "SELECT plan_position, leftovers FROM execution WHERE leftovers IS NOT NULL");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.columnInt(0), pending);
  const std::string leftovers = st.columnText(1);
  EXPECT_EQ(leftovers.rfind("killed pid ", 0), 0u) << leftovers;
  for (pid_t p : {interrupted, grandchild})
    EXPECT_NE(leftovers.find("pid " + std::to_string(p) + " (sleep)"), std::string::npos)
        << leftovers;
  EXPECT_NE(leftovers.find("when the campaign resumed"), std::string::npos) << leftovers;
  EXPECT_FALSE(st.step()) << "only the interrupted execution has leftovers";
  auto rows = s.leftovers();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u); // the report's "left running" warning
  bool toldBuild = false;
  for (const auto &l : progress.lines)
    toldBuild =
        toldBuild || (l.find("pid " + std::to_string(unbuilt) + " (sleep)") != std::string::npos &&
                      l.find("build cand #7") != std::string::npos);
  EXPECT_TRUE(toldBuild);
  // The lock now names this run only.
  EXPECT_EQ(fileText(lockPath(h.opts.dir)).find(killed), std::string::npos);
}
