// The metrics a busy machine cannot move (measure_spec.hpp, counters.hpp,
// cachegrind.hpp): their [measure] words and mistakes, cachegrind's output
// format (a hand-made file and one Valgrind writes here), the estimated-cycles
// model against an iai-callgrind report, the machine checks' messages, and
// real executions of a loop of known work (spin_fixture.c) with a software
// counter, a hardware counter where the machine has a PMU (its documented
// error where it has none), and under cachegrind. No assertion on a time.
#include "alea/config/config.hpp"
#include "alea/config/measure_spec_toml.hpp"
#include "alea/config/validate.hpp"
#include "alea/exec/cachegrind.hpp"
#include "alea/exec/counters.hpp"
#include "alea/exec/executor.hpp"
#include "alea/exec/machine_facts.hpp"
#include "alea/exec/measure.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

namespace alea::runner {
namespace {

const std::string kSpin = ALEA_METRIC_SPIN_FIXTURE;

MeasureSpecResult parseSpec(std::string_view text) {
  toml::table doc = toml::parse(text, std::string_view("campaign.toml"));
  const toml::table *t = doc["measure"].as_table();
  EXPECT_NE(t, nullptr);
  if (!t)
    return parseMeasureSpec(toml::table{});
  return parseMeasureSpec(*t);
}

ExecutionRequest spin(unsigned long iterations) {
  ExecutionRequest r;
  r.argv = {kSpin, std::to_string(iterations)};
  r.env = {"PATH=/usr/bin:/bin"};
  r.timeoutSeconds = 300; // a safety net only
  return r;
}

// One value of `metric` for the request, as a campaign extracts it.
Extraction measure(Metric metric, ExecutionRequest req) {
  MeasureSpec spec;
  spec.metric = metric;
  if (isCounter(metric))
    req.counters = {metric};
  if (isSimulated(metric))
    req.simulate = spec.simCache;
  LocalExecutor ex;
  ExecutionResult r = ex.run(req);
  EXPECT_FALSE(r.spawnFailed) << r.spawnError;
  return measureExecution(spec, r.output);
}

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// --- the [measure] words -------------------------------------------------------

TEST(MetricSpec, CountersAndSimulatedMetricsByName) {
  for (auto [word, metric, kind, unit] :
       {std::tuple{"instructions", Metric::Instructions, MetricKind::HardwareCounter, "count"},
        std::tuple{"l1i-misses", Metric::L1iMisses, MetricKind::HardwareCounter, "count"},
        std::tuple{"itlb-misses", Metric::ItlbMisses, MetricKind::HardwareCounter, "count"},
        std::tuple{"task-clock", Metric::TaskClock, MetricKind::SoftwareCounter, "s"},
        std::tuple{"page-faults", Metric::PageFaults, MetricKind::SoftwareCounter, "count"},
        std::tuple{"context-switches", Metric::ContextSwitches, MetricKind::SoftwareCounter,
                   "count"},
        std::tuple{"sim-instructions", Metric::SimInstructions, MetricKind::Simulated, "count"},
        std::tuple{"sim-cycles", Metric::SimCycles, MetricKind::Simulated, "count"},
        std::tuple{"rss", Metric::Rss, MetricKind::Process, "KiB"},
        std::tuple{"wall", Metric::Wall, MetricKind::Process, "s"}}) {
    auto r = parseSpec(std::string("[measure]\nmetric = \"") + word + "\"\n");
    ASSERT_TRUE(r.ok()) << word << ": " << r.error->message;
    EXPECT_EQ(r.spec.metric, metric) << word;
    EXPECT_EQ(metricKind(metric), kind) << word;
    EXPECT_EQ(r.spec.valueUnit(), unit) << word;
    EXPECT_EQ(r.spec.metricLine, 2) << word;
    EXPECT_EQ(r.spec.metricColumn, 10) << word;
  }
  // Every counter has a perf event, and nothing else has one.
  for (std::size_t i = 0; i < kEnumNames<Metric>.size(); ++i) {
    auto m = static_cast<Metric>(i);
    EXPECT_EQ(counterEvent(m).has_value(), isCounter(m)) << enumName(m);
  }
}

TEST(MetricSpec, UnknownMetricListsTheNewOnes) {
  auto r = parseSpec("[measure]\nmetric = \"instr\"\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line, 2);
  EXPECT_NE(r.error->message.find("instructions, cycles"), std::string::npos) << r.error->message;
  EXPECT_NE(r.error->message.find("sim-cycles"), std::string::npos) << r.error->message;
}

TEST(MetricSpec, SimCacheOverridesTheGeometry) {
  auto r = parseSpec("[measure]\nmetric = \"sim-cycles\"\n"
                     "sim_cache = { i1 = \"16384,4,64\", ll = \"1048576,8,128\" }\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.spec.simCache.i1, "16384,4,64");
  EXPECT_EQ(r.spec.simCache.d1, "32768,8,64"); // the default
  EXPECT_EQ(r.spec.simCache.ll, "1048576,8,128");
  auto defaults = parseSpec("[measure]\nmetric = \"sim-instructions\"\n");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults.spec.simCache, (SimCache{"32768,8,64", "32768,8,64", "8388608,16,64"}));
}

TEST(MetricSpec, SimCacheMistakesAtTheirValue) {
  auto notSim = parseSpec("[measure]\nmetric = \"wall\"\nsim_cache = { i1 = \"32768,8,64\" }\n");
  ASSERT_FALSE(notSim.ok());
  EXPECT_EQ(notSim.error->line, 3);
  EXPECT_NE(notSim.error->message.find("only applies to the simulated metrics"), std::string::npos)
      << notSim.error->message;
  auto badSets = parseSpec("[measure]\nmetric = \"sim-cycles\"\n"
                           "sim_cache = { d1 = \"49152,8,64\" }\n");
  ASSERT_FALSE(badSets.ok());
  EXPECT_EQ(badSets.error->line, 3);
  EXPECT_EQ(badSets.error->column, 20); // at the string
  EXPECT_EQ(badSets.error->message,
            "measure.sim_cache.d1: \"49152,8,64\": the number of sets (size / (associativity x "
            "line size)) is not a power of two");
  auto key = parseSpec("[measure]\nmetric = \"sim-cycles\"\nsim_cache = { l2 = \"1,1,1\" }\n");
  ASSERT_FALSE(key.ok());
  EXPECT_NE(key.error->message.find("unknown key \"l2\"; expected one of i1, d1, ll"),
            std::string::npos);
  auto notTable = parseSpec("[measure]\nmetric = \"sim-cycles\"\nsim_cache = \"32768,8,64\"\n");
  ASSERT_FALSE(notTable.ok());
  EXPECT_NE(notTable.error->message.find("expected a table"), std::string::npos);
  auto number = parseSpec("[measure]\nmetric = \"sim-cycles\"\nsim_cache = { i1 = 32768 }\n");
  ASSERT_FALSE(number.ok());
  EXPECT_NE(number.error->message.find("expected a string"), std::string::npos);
  auto other = parseSpec("[measure]\nsource = \"records\"\nsim_cache = {}\n");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error->message.find("only applies to source = \"none\""), std::string::npos);
}

TEST(MetricSpec, CacheGeometryFollowsCachegrindsChecks) {
  EXPECT_EQ(cacheGeometryProblem("32768,8,64"), "");
  EXPECT_EQ(cacheGeometryProblem("8388608,16,64"), "");
  EXPECT_EQ(cacheGeometryProblem("12582912,24,64"), ""); // 8192 sets: a 12 MiB LL is fine
  const std::string syntax = "expected three positive integers \"size,associativity,line size\" "
                             "(bytes)";
  for (const char *bad : {"", "32768,8", "32768,8,64,1", "32768,8,x", "0,8,64", "32768, 8,64",
                          "-1,8,64", "32768,8,64,"})
    EXPECT_EQ(cacheGeometryProblem(bad), syntax) << bad;
  EXPECT_NE(cacheGeometryProblem("32768,7,64").find("sets"), std::string::npos);
  EXPECT_EQ(cacheGeometryProblem("1536,1,48"), "the line size is not a power of two");
  EXPECT_EQ(cacheGeometryProblem("1024,2,8"), "the line size is below 16 bytes");
  EXPECT_EQ(cacheGeometryProblem("64,1,64"), "the size is not larger than the line size");
}

// --- cachegrind's output --------------------------------------------------------

// The format of the Valgrind 3.19 manual (5.9.2): desc lines, cmd, events,
// per-line counts ("." = 0), a summary whose missing counts are 0.
const char *kHandMade = "desc: I1 cache:         16384 B, 64 B, 4-way associative\n"
                        "desc: D1 cache:         32768 B, 64 B, 8-way associative\n"
                        "desc: LL cache:         8388608 B, 64 B, 16-way associative\n"
                        "cmd: ./prog 3\n"
                        "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n"
                        "fl=prog.c\n"
                        "fn=main\n"
                        "3 10 1 1 4 . . 2 1 1 2 1\n"
                        "summary: 1000 10 2 300 20 3 200 5 1 90 7 . \n";

TEST(CachegrindOutput, HandMadeFile) {
  auto out = parseCachegrindOutput(kHandMade);
  ASSERT_TRUE(out) << out.error();
  const CachegrindCounts &c = out->counts;
  EXPECT_EQ(c.ir, 1000u);
  EXPECT_EQ(c.i1mr, 10u);
  EXPECT_EQ(c.ilmr, 2u);
  EXPECT_EQ(c.dr, 300u);
  EXPECT_EQ(c.d1mr, 20u);
  EXPECT_EQ(c.dlmr, 3u);
  EXPECT_EQ(c.dw, 200u);
  EXPECT_EQ(c.d1mw, 5u);
  EXPECT_EQ(c.dlmw, 1u);
  EXPECT_EQ(c.bc, 90u);
  EXPECT_EQ(c.bcm, 7u);
  EXPECT_EQ(c.bi, 0u);  // "."
  EXPECT_EQ(c.bim, 0u); // missing
  EXPECT_EQ(out->cache, (SimCache{"16384,4,64", "32768,8,64", "8388608,16,64"}));
  EXPECT_EQ(out->command, "./prog 3");
  // Events in another order are read by name.
  auto reordered = parseCachegrindOutput(
      "events: Bim Bi Bcm Bc DLmw D1mw Dw DLmr D1mr Dr ILmr I1mr Ir\nsummary: 1 2 3 4 5 6 7 8 9 "
      "10 11 12 13\n");
  ASSERT_TRUE(reordered) << reordered.error();
  EXPECT_EQ(reordered->counts.ir, 13u);
  EXPECT_EQ(reordered->counts.bim, 1u);
}

TEST(CachegrindOutput, Mistakes) {
  EXPECT_EQ(parseCachegrindOutput("summary: 1\n").error(),
            "not a cachegrind output file: no \"events:\" line");
  EXPECT_EQ(parseCachegrindOutput("events: Ir\nfl=x\n").error(),
            "cachegrind output without a \"summary:\" line (Valgrind did not finish it)");
  EXPECT_EQ(parseCachegrindOutput("events: Ir\nsummary: 12345\n").error(),
            "cachegrind's events lack I1mr (it ran without --cache-sim=yes --branch-sim=yes)");
  EXPECT_EQ(parseCachegrindOutput("events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n"
                                  "summary: 1 2 x\n")
                .error(),
            "cachegrind's summary count of ILmr is not a number: \"x\"");
  EXPECT_EQ(parseCachegrindOutput("events: Ir\nsummary: 1 2\n").error(),
            "cachegrind's summary has 2 counts for 1 events");
}

// Sums the files of a directory: a shell and the programs it ran.
TEST(CachegrindOutput, SumsEveryProcessFileAndChecksTheGeometry) {
  test::TempDir dir;
  std::string second = kHandMade;
  second.replace(second.find("summary: 1000"), 13, "summary: 2000");
  dir.write("cachegrind.out.11", kHandMade);
  dir.write("cachegrind.out.12", second);
  dir.write("valgrind.11.log", "");
  const SimCache handMade{"16384,4,64", "32768,8,64", "8388608,16,64"};
  auto sum = sumCachegrindOutputs(dir.path(), handMade);
  ASSERT_TRUE(sum) << sum.error();
  EXPECT_EQ(sum->ir, 3000u);
  EXPECT_EQ(sum->bcm, 14u);
  auto other = sumCachegrindOutputs(dir.path(), SimCache{});
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().find("simulated I1 16384,4,64"), std::string::npos) << other.error();
  test::TempDir empty;
  empty.write("valgrind.7.log",
              "--7-- warning: L3 cache found, using its data for the LL simulation.\n"
              "valgrind: Bad option: --I1=1,1,1\n");
  EXPECT_EQ(sumCachegrindOutputs(empty.path(), SimCache{}).error(),
            "cachegrind wrote no output file (valgrind: Bad option: --I1=1,1,1)");
}

// Valgrind 3.19 (Debian 12) gives up on clang 19's DWARF 5 debug info: the
// complaint says so, and what helps (its log as Valgrind wrote it).
TEST(CachegrindOutput, DebugInfoValgrindCannotReadIsNamedWithWhatHelps) {
  test::TempDir dir;
  dir.write("valgrind.13379.log",
            "--13379-- warning: L3 cache found, using its data for the LL simulation.\n"
            "### unhandled dwarf2 abbrev form code 0x25\n"
            "==13379== Valgrind: debuginfo reader: ensure_valid failed:\n"
            "==13379== Valgrind: I can't recover.  Giving up.  Sorry.\n");
  EXPECT_EQ(valgrindComplaint(dir.path()),
            "valgrind cannot read the program's debug info (\"Valgrind: debuginfo reader: "
            "ensure_valid failed:\"): build it with -gdwarf-4 (e.g. CFLAGS='-g -gdwarf-4'), or "
            "without -g");
  // The notes on the parts it skips alone are not why a run failed.
  test::TempDir skipped;
  skipped.write("valgrind.7.log", "### unhandled dwarf2 abbrev form code 0x25\n"
                                  "==7== Some other complaint\n");
  EXPECT_EQ(valgrindComplaint(skipped.path()), "valgrind: Some other complaint");
}

// A file Valgrind writes here, from the loop of known work: at least its two
// instructions per iteration, one conditional branch per iteration, and the
// geometry asked for.
TEST(CachegrindOutput, RealFileFromValgrind) {
  test::TempDir dir;
  const SimCache cache;
  ExecutionRequest req;
  req.argv = {"valgrind"};
  for (auto &o : cachegrindOptions(cache, dir.path()))
    req.argv.push_back(o);
  req.argv.push_back(kSpin);
  req.argv.push_back("100000");
  req.env = {"PATH=/usr/bin:/bin"};
  req.timeoutSeconds = 300;
  LocalExecutor ex;
  ExecutionResult r = ex.run(req);
  ASSERT_FALSE(r.spawnFailed) << r.spawnError << " (Valgrind: scripts/setup.sh installs it)";
  ASSERT_EQ(r.output.exitCode, 0) << r.output.stderrTail;
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(dir.path()))
    if (e.path().filename().string().starts_with("cachegrind.out."))
      files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  auto out = parseCachegrindOutput(slurp(files[0]));
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->cache, cache);
  EXPECT_EQ(out->command, kSpin + " 100000");
  EXPECT_GT(out->counts.ir, 200000u);
  EXPECT_GT(out->counts.bc, 100000u);
  EXPECT_GT(out->counts.dr, 0u);
  EXPECT_GT(out->counts.i1mr, 0u); // cold misses at least
  EXPECT_GE(out->counts.i1mr, out->counts.ilmr);
  EXPECT_GE(out->counts.d1mr, out->counts.dlmr);
}

// --- the formulas ---------------------------------------------------------------

TEST(EstimatedCycles, L1Plus5LLPlus35Ram) {
  // RAM = 2 + 3 + 1 = 6; LL hits = (10 + 20 + 5) - 6 = 29; L1 hits =
  // (1000 + 300 + 200) - 35 = 1465: 1465 + 5 x 29 + 35 x 6 = 1820.
  auto c = parseCachegrindOutput(kHandMade)->counts;
  EXPECT_EQ(estimatedCycles(c), 1820u);
  // An iai-callgrind report (typst's benches, "bench_setup"): L1 Accesses
  // 477649053, L2 Accesses 307162, RAM Accesses 1425767, Estimated Cycles
  // 529086708; counts that give those hits.
  CachegrindCounts iai;
  iai.ilmr = 1425767;
  iai.i1mr = 1425767 + 307162;
  iai.ir = 477649053 + iai.i1mr;
  EXPECT_EQ(estimatedCycles(iai), 529086708u);
}

TEST(EstimatedCycles, EachSimulatedMetric) {
  auto c = parseCachegrindOutput(kHandMade)->counts;
  c.bi = 40;
  c.bim = 4;
  EXPECT_EQ(simulatedValue(Metric::SimInstructions, c), 1000);
  EXPECT_EQ(simulatedValue(Metric::SimI1Misses, c), 10);
  EXPECT_EQ(simulatedValue(Metric::SimD1Misses, c), 25);
  EXPECT_EQ(simulatedValue(Metric::SimLlMisses, c), 6);
  EXPECT_EQ(simulatedValue(Metric::SimBranchMisses, c), 11);
  EXPECT_EQ(simulatedValue(Metric::SimCycles, c), 1820);
  EXPECT_EQ(simulatedValue(Metric::Wall, c), 0);
}

TEST(ExtractNone, CountersAndSimulatedCounts) {
  ExecutionOutput out;
  MeasureSpec spec;
  spec.metric = Metric::TaskClock;
  out.counterValues[Metric::TaskClock] = 1.5e9; // ns
  out.counterValues[Metric::PageFaults] = 1.5e9;
  auto clock = extractIterations(spec, out);
  ASSERT_TRUE(clock.ok()) << clock.error;
  EXPECT_DOUBLE_EQ(clock.values.at(0), 1.5);
  spec.metric = Metric::PageFaults;
  EXPECT_DOUBLE_EQ(extractIterations(spec, out).values.at(0), 1.5e9);
  out.counterValues.clear();
  out.metricError = "the counter never ran (the PMU was busy with other events)";
  EXPECT_EQ(extractIterations(spec, out).error, out.metricError);
  spec.metric = Metric::SimCycles;
  out.metricError.clear();
  EXPECT_EQ(extractIterations(spec, out).error, "no counts of cachegrind");
  out.simulated = parseCachegrindOutput(kHandMade)->counts;
  EXPECT_DOUBLE_EQ(extractIterations(spec, out).values.at(0), 1820);
  out.simulated->bcm = 0;
  spec.metric = Metric::SimBranchMisses;
  EXPECT_EQ(extractIterations(spec, out).error,
            "measured 0 for the whole execution: not a positive value (a count of 0: the ratio "
            "of means needs events)");
  // Valgrind that could not start exits 1 too: both reasons.
  out.exitCode = 1;
  out.metricError = "cachegrind wrote no output file (valgrind: Bad option: --I1=1,1,1)";
  EXPECT_EQ(measureExecution(spec, out).error,
            "exit status 1, expected 0 (cachegrind wrote no output file (valgrind: Bad option: "
            "--I1=1,1,1))");
}

// --- the machine checks' decisions -------------------------------------------------

TEST(CounterProblem, NoPmuPermissionAndSuccess) {
  EXPECT_EQ(counterProblem(Metric::Instructions, {0, 2}), "");
  EXPECT_EQ(counterProblem(Metric::Instructions, {ENOENT, 2}),
            "perf_event_open: No such file or directory (no PMU: this machine, a VM without "
            "hardware counters, cannot count it); use sim-instructions (Valgrind) or task-clock "
            "instead");
  EXPECT_TRUE(counterProblem(Metric::L1iMisses, {ENOENT, 2})
                  .ends_with("; use sim-i1-misses (Valgrind) or task-clock instead"));
  EXPECT_TRUE(counterProblem(Metric::ItlbMisses, {ENOENT, 2})
                  .ends_with("; use sim-instructions (Valgrind) or task-clock instead"));
  EXPECT_EQ(counterProblem(Metric::Cycles, {EACCES, 3}),
            "perf_event_open: Permission denied (kernel.perf_event_paranoid is 3; counting user "
            "space needs 2 or less, or CAP_PERFMON); use sim-cycles (Valgrind) or cpu instead");
  EXPECT_EQ(counterProblem(Metric::ContextSwitches, {EACCES, 2}),
            "perf_event_open: Permission denied (kernel.perf_event_paranoid is 2; counting this "
            "kernel-side event needs 1 or less, or CAP_PERFMON); use sim-instructions (Valgrind) "
            "or cpu instead");
  EXPECT_NE(counterProblem(Metric::TaskClock, {EPERM, std::nullopt}).find("is unreadable"),
            std::string::npos);
}

const char *kCampaign = R"toml([campaign]
seed = 1
[levels]
builds = 2
executions = 2
[[system]]
name = "base"
baseline = true
build = ["true"]
[[benchmark]]
name = "spin"
command = ["true"]
measure = { metric = "%s" }
)toml";

CampaignConfig campaignMeasuring(const std::string &metric) {
  std::string text = kCampaign;
  text.replace(text.find("%s"), 2, metric);
  auto cfg = parseCampaignText(text, "c.toml");
  EXPECT_TRUE(cfg.ok()) << cfg.error();
  return *cfg;
}

TEST(ValidateMetrics, OneLineBeforeTheFirstBuildAtTheMetric) {
  MachineFacts noPmu;
  noPmu.counters[Metric::Instructions] = {ENOENT, 2};
  Status s = validateCampaign(campaignMeasuring("instructions"), noPmu);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "c.toml:13:22: benchmark 'spin': metric \"instructions\" cannot be counted "
                       "on this machine: perf_event_open: No such file or directory (no PMU: "
                       "this machine, a VM without hardware counters, cannot count it); use "
                       "sim-instructions (Valgrind) or task-clock instead");
  EXPECT_EQ(s.error().find('\n'), std::string::npos);
  // Not probed: not checked; on targets: not this machine's business.
  EXPECT_TRUE(validateCampaign(campaignMeasuring("instructions"), MachineFacts{}).ok());
  MachineFacts noValgrind;
  noValgrind.simulators.push_back({SimCache{}, "valgrind is not on PATH"});
  Status sim = validateCampaign(campaignMeasuring("sim-cycles"), noValgrind);
  ASSERT_FALSE(sim.ok());
  EXPECT_EQ(sim.error(), "c.toml:13:22: benchmark 'spin': metric \"sim-cycles\" cannot be "
                         "simulated on this machine: valgrind is not on PATH; install Valgrind "
                         "(Debian: apt-get install valgrind) or use task-clock");
}

// --- real executions ----------------------------------------------------------------

TEST(SoftwareCounters, TaskClockAndPageFaultsOfATinyProgram) {
  ASSERT_EQ(probeCounter(Metric::TaskClock).error, 0) << "perf_event_open of a software event";
  auto clock = measure(Metric::TaskClock, spin(1000000));
  ASSERT_TRUE(clock.ok()) << clock.error;
  EXPECT_GT(clock.values.at(0), 0);
  auto faults = measure(Metric::PageFaults, spin(1000));
  ASSERT_TRUE(faults.ok()) << faults.error;
  EXPECT_GT(faults.values.at(0), 0);
}

// inherit = 1: the processes a shell starts count too. Four programs fault
// in more pages than one (each maps and touches its own).
TEST(SoftwareCounters, CountTheWholeProcessTree) {
  auto tree = [](int programs) {
    std::string script;
    for (int i = 0; i < programs; ++i)
      script += (i ? "; " : "") + kSpin + " 1000";
    ExecutionRequest r = spin(0);
    r.argv = {"/bin/sh", "-c", script};
    auto ex = measure(Metric::PageFaults, r);
    EXPECT_TRUE(ex.ok()) << ex.error;
    return ex.ok() ? ex.values.at(0) : 0.0;
  };
  const double one = tree(1), four = tree(4);
  EXPECT_GT(four, one) << one << " vs " << four;
}

// A machine with a PMU counts; one without (a VM, as the machines these
// tests run on) fails the campaign before its first build, with the
// documented message.
TEST(HardwareCounters, CountWithAPmuOrFailValidationWithout) {
  CounterFacts facts = probeCounter(Metric::Instructions);
  if (counterProblem(Metric::Instructions, facts).empty()) {
    auto ex = measure(Metric::Instructions, spin(1000000));
    ASSERT_TRUE(ex.ok()) << ex.error;
    EXPECT_GT(ex.values.at(0), 2000000); // two instructions per iteration, at least
    return;
  }
  CampaignConfig cfg = campaignMeasuring("instructions");
  Status s = validateCampaign(cfg, readMachineFacts(cfg));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("metric \"instructions\" cannot be counted on this machine: "
                           "perf_event_open: "),
            std::string::npos)
      << s.error();
  EXPECT_NE(s.error().find("use sim-instructions (Valgrind) or "), std::string::npos) << s.error();
  // The executor says the same per execution, should one run all the same.
  LocalExecutor ex;
  ExecutionRequest req = spin(1000);
  req.counters = {Metric::Instructions};
  ExecutionResult r = ex.run(req);
  EXPECT_TRUE(r.spawnFailed);
  EXPECT_EQ(r.spawnError.find("perf_event_open '" + kSpin + "': "), 0u) << r.spawnError;
}

// Valgrind is deterministic: the same program, input and environment give
// the same count; twice the work gives exactly 2 x 100000 more instructions
// (the loop's dec and jnz; the argument has as many digits).
TEST(Simulated, SameProgramSameCountMoreWorkMore) {
  ExecutionRequest small = spin(100000), twice = spin(200000);
  small.disableAslr = twice.disableAslr = true;
  auto a = measure(Metric::SimInstructions, small);
  auto b = measure(Metric::SimInstructions, small);
  auto c = measure(Metric::SimInstructions, twice);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok()) << a.error << b.error << c.error;
  EXPECT_EQ(a.values.at(0), b.values.at(0));
  EXPECT_EQ(c.values.at(0) - a.values.at(0), 200000);
  auto cycles = measure(Metric::SimCycles, small);
  ASSERT_TRUE(cycles.ok()) << cycles.error;
  EXPECT_GT(cycles.values.at(0), a.values.at(0)); // every access costs at least one
}

// Every process of the tree under cachegrind, summed; the program keeps
// its exit status; the directory is removed.
TEST(Simulated, SumsTheProcessesOfAShell) {
  ExecutionRequest one = spin(0), shell = spin(0);
  one.argv = {"/bin/sh", "-c", kSpin + " 100000"};
  shell.argv = {"/bin/sh", "-c", kSpin + " 100000; " + kSpin + " 100000; exit 3"};
  one.disableAslr = shell.disableAslr = true;
  one.simulate = shell.simulate = SimCache{};
  LocalExecutor ex;
  ExecutionResult r1 = ex.run(one), r2 = ex.run(shell);
  ASSERT_TRUE(r1.output.simulated && r2.output.simulated)
      << r1.output.metricError << r2.output.metricError;
  EXPECT_EQ(r2.output.exitCode, 3);
  // The second program's own instructions at least (its loop and start-up).
  EXPECT_GT(r2.output.simulated->ir, r1.output.simulated->ir + 200000);
}

TEST(Simulated, ValgrindMissingIsASpawnFailure) {
  ExecutionRequest req = spin(1);
  req.env = {"PATH=/nonexistent"};
  req.simulate = SimCache{};
  LocalExecutor ex;
  ExecutionResult r = ex.run(req);
  EXPECT_TRUE(r.spawnFailed);
  EXPECT_EQ(r.spawnError, "valgrind is not on PATH (the sim-* metrics run the benchmark under "
                          "Valgrind's cachegrind)");
}

// The probe runs `true` under cachegrind: nothing stops it here; a geometry
// Valgrind refuses (one the parser would not let through) is its error.
TEST(Simulated, ProbeRunsCachegrind) {
  EXPECT_EQ(probeSimulator(SimCache{}).problem, "");
  std::string refused =
      probeSimulator(SimCache{"32768,7,64", "32768,8,64", "8388608,16,64"}).problem;
  EXPECT_NE(refused.find("valgrind: "), std::string::npos) << refused;
}

// --- several metrics per execution ------------------------------------------------

TEST(SeveralMetrics, MetricsListAndDecideOn) {
  auto none = parseSpec("[measure]\nmetrics = [\"wall\", \"sim-cycles\", \"task-clock\"]\n"
                        "decide_on = \"sim-cycles\"\n");
  ASSERT_TRUE(none.ok()) << none.error->message;
  EXPECT_EQ(none.spec.metric, Metric::Wall);
  EXPECT_EQ(none.spec.extraMetrics, (std::vector<Metric>{Metric::SimCycles, Metric::TaskClock}));
  EXPECT_EQ(none.spec.primaryName(), "wall");
  EXPECT_EQ(none.spec.decisionName(), "sim-cycles");
  EXPECT_EQ(none.spec.decisionUnit(), "count");
  EXPECT_EQ(none.spec.counters(), (std::vector<Metric>{Metric::TaskClock}));
  EXPECT_TRUE(none.spec.simulates());
  EXPECT_TRUE(none.spec.needsNativeRun());
  EXPECT_EQ(none.spec.metricLine, 2);

  // The default decision: the first metric.
  auto first = parseSpec("[measure]\nmetrics = [\"sim-cycles\", \"sim-i1-misses\"]\n");
  ASSERT_TRUE(first.ok()) << first.error->message;
  EXPECT_EQ(first.spec.decisionName(), "sim-cycles");
  EXPECT_FALSE(first.spec.needsNativeRun()); // every metric is simulated: one run

  // With an iteration source the iterations come first, as "time".
  auto records = parseSpec("[measure]\nsource = \"records\"\nmetrics = [\"sim-cycles\"]\n");
  ASSERT_TRUE(records.ok()) << records.error->message;
  EXPECT_EQ(records.spec.extraMetrics, (std::vector<Metric>{Metric::SimCycles}));
  EXPECT_EQ(records.spec.decisionName(), "time");
  EXPECT_EQ(records.spec.decisionUnit(), "s");
  EXPECT_TRUE(records.spec.needsNativeRun());
  auto onSim = parseSpec("[measure]\nsource = \"records\"\nmetrics = [\"sim-cycles\"]\n"
                         "decide_on = \"sim-cycles\"\n");
  ASSERT_TRUE(onSim.ok()) << onSim.error->message;
  EXPECT_EQ(onSim.spec.decisionName(), "sim-cycles");

  // One metric as before: nothing else measured, the decision on it.
  auto one = parseSpec("[measure]\nmetric = \"cpu\"\n");
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(one.spec.extraMetrics.empty());
  EXPECT_EQ(one.spec.decisionName(), "cpu");
  EXPECT_FALSE(one.spec.simulates());
}

TEST(SeveralMetrics, MistakesAtTheirValue) {
  auto expectError = [](std::string_view text, int line, std::string_view words) {
    auto r = parseSpec(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error->line, line) << r.error->message;
    EXPECT_NE(r.error->message.find(words), std::string::npos) << r.error->message;
  };
  expectError("[measure]\nmetric = \"wall\"\nmetrics = [\"cpu\"]\n", 3,
              "give either metric or metrics, not both");
  expectError("[measure]\nmetrics = []\n", 2, "expected a non-empty list of metric names");
  expectError("[measure]\nmetrics = [\"wall\", \"wal\"]\n", 2, "got \"wal\"");
  expectError("[measure]\nmetrics = [\"wall\", \"wall\"]\n", 2, "\"wall\" is listed twice");
  expectError("[measure]\nmetrics = [\"wall\", \"cpu\"]\ndecide_on = \"sim-cycles\"\n", 3,
              "expected one of the metrics measured (wall, cpu), got \"sim-cycles\"");
  expectError("[measure]\nmetrics = [\"wall\"]\ndecide_on = \"time\"\n", 3,
              "expected one of the metrics measured (wall)");
  expectError("[measure]\nmetrics = [\"wall\", \"cpu\"]\nsim_cache = { i1 = \"16384,4,64\" }\n", 3,
              "only applies to the simulated metrics");
}

// Several counters on one execution: each its own descriptor, each read.
TEST(SeveralMetrics, SeveralCountersOnOneExecution) {
  ExecutionRequest req = spin(1000000);
  req.counters = {Metric::TaskClock, Metric::PageFaults, Metric::ContextSwitches};
  LocalExecutor ex;
  ExecutionResult r = ex.run(req);
  ASSERT_FALSE(r.spawnFailed) << r.spawnError;
  EXPECT_EQ(r.output.metricError, "");
  ASSERT_EQ(r.output.counterValues.size(), 3u); // a count of 0 switches is a value too
  EXPECT_GT(r.output.counterValues.at(Metric::TaskClock), 0);
  EXPECT_GT(r.output.counterValues.at(Metric::PageFaults), 0);
  std::string error;
  EXPECT_GT(measureMetric(Metric::TaskClock, r.output, error), 0) << error;
  EXPECT_GT(measureMetric(Metric::Wall, r.output, error), 0) << error;
}

// A simulated metric beside a native one: two runs of the execution, the
// native one's wall time and counters, the simulated counts from the run
// under cachegrind (the same count as a simulated run alone).
TEST(SeveralMetrics, NativeRunThenSimulatedRun) {
  ExecutionRequest both = spin(100000);
  both.disableAslr = true;
  both.counters = {Metric::TaskClock};
  both.simulate = SimCache{};
  both.nativeToo = true;
  LocalExecutor ex;
  ExecutionResult r = ex.run(both);
  ASSERT_FALSE(r.spawnFailed) << r.spawnError;
  ASSERT_TRUE(r.output.simulated) << r.output.metricError;
  ASSERT_TRUE(r.output.counterValues.count(Metric::TaskClock));
  auto alone = measure(Metric::SimInstructions, [] {
    ExecutionRequest s = spin(100000);
    s.disableAslr = true;
    return s;
  }());
  ASSERT_TRUE(alone.ok()) << alone.error;
  EXPECT_EQ(static_cast<double>(r.output.simulated->ir), alone.values.at(0));
  // The native run's wall time is far below Valgrind's start-up alone.
  ExecutionRequest simOnly = both;
  simOnly.nativeToo = false;
  simOnly.counters.clear();
  ExecutionResult s = ex.run(simOnly);
  ASSERT_TRUE(s.output.simulated) << s.output.metricError;
  EXPECT_LT(r.output.userSeconds, s.output.userSeconds);

  // A program that fails natively is not run again under the simulator.
  ExecutionRequest failing = both;
  failing.argv = {"/bin/sh", "-c", "exit 3"};
  ExecutionResult f = ex.run(failing);
  EXPECT_EQ(f.output.exitCode, 3);
  EXPECT_FALSE(f.output.simulated);
}

} // namespace
} // namespace alea::runner
