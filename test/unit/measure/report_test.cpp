// Tests of `alea report`'s library (report/model's alea/model/campaign_report.hpp
// and runner/store's alea/store/campaign_data.hpp):
// campaign data built by hand (synthetic measurements drawn with alea::Rng
// from a known model) through buildCampaignReport, and a real SQLite store
// written with the runner's Store API through loadCampaignData. Expected
// values are computed here independently from the same inputs (means of the
// generated data), never copied from the code's output.
#include "alea/report/render.hpp"
#include "alea/store/campaign_data.hpp"

#include "alea/random.hpp"
#include "store_test_access.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <unistd.h>

namespace alea::runner {

using namespace alea::model;
namespace {

bool contains(const std::vector<std::string> &v, const std::string &needle) {
  return std::any_of(v.begin(), v.end(),
                     [&](const std::string &s) { return s.find(needle) != std::string::npos; });
}

// builds x executions x iterations per (system, benchmark); value =
// base * factor * (1 + build effect + execution effect + noise).
void addSystem(CampaignData &d, const std::string &sys, const std::string &bench, double base,
               int builds, int execs, int iters, std::uint64_t seed, double buildSd = 0.02) {
  Rng rng(seed);
  auto normalish = [&] { // sum of uniforms: bounded, mean 0, sd ~ 1
    double s = 0;
    for (int k = 0; k < 12; ++k)
      s += rng.uniform();
    return s - 6;
  };
  for (int b = 0; b < builds; ++b) {
    double be = buildSd * normalish();
    for (int e = 0; e < execs; ++e) {
      double ee = 0.005 * normalish();
      for (int i = 0; i < iters; ++i)
        d.measurements.push_back({sys, bench, b, e, i, base * (1 + be + ee + 0.002 * normalish())});
    }
  }
}

CampaignData twoSystems() {
  CampaignData d;
  d.name = "synthetic";
  d.storePath = "mem";
  d.systems = {"base", "cand"};
  d.baseline = "base";
  d.benchmarks = {"alpha", "beta"};
  d.seed = "0x2a";
  d.confidence = 0.95;
  d.threshold = 0.01;
  addSystem(d, "base", "alpha", 0.010, 4, 3, 5, 1);
  addSystem(d, "cand", "alpha", 0.008, 4, 3, 5, 2); // 20% faster
  addSystem(d, "base", "beta", 0.020, 4, 3, 5, 3);
  addSystem(d, "cand", "beta", 0.016, 4, 3, 5, 4);
  d.planned = d.executed = 2 * 2 * 4 * 3;
  for (const char *s : {"base", "cand"})
    for (int b = 0; b < 4; ++b)
      d.builds.push_back(
          {s, b, 0x1, BuildStatus::Ok, 2.0, std::string(s) + std::to_string(b), "", "", {}, ""});
  d.meanExecutionSeconds = 0.1;
  return d;
}

CampaignReportOptions fast() {
  CampaignReportOptions o;
  o.bootstrapReplicates = 1000; // the engine's minimum
  o.threads = 1;
  return o;
}

double meanOf(const CampaignData &d, const std::string &sys, const std::string &bench) {
  double s = 0;
  std::size_t n = 0;
  for (const auto &p : d.measurements)
    if (p.system == sys && p.benchmark == bench) {
      s += p.value;
      ++n;
    }
  return s / n;
}

TEST(CampaignReport, TwoSystemsGiveRatiosAndDecisions) {
  CampaignData d = twoSystems();
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_TRUE(r.analysis) << r.analysisError;
  EXPECT_FALSE(r.layoutStudy);
  EXPECT_EQ(r.analysis->baseline, "base");
  ASSERT_EQ(r.analysis->benchmarks.size(), 2u);
  for (const auto &b : r.analysis->benchmarks) {
    ASSERT_EQ(b.ratios.size(), 1u);
    // Balanced data: the ratio of means is the ratio of the plain means.
    EXPECT_NEAR(b.ratios[0].estimate, meanOf(d, "cand", b.name) / meanOf(d, "base", b.name), 1e-12);
    EXPECT_EQ(b.ratios[0].decision, analysis::Decision::Faster);
  }
  ASSERT_EQ(r.analysis->suite.size(),
            1u); // suite: geometric mean of 2 benchmarks
  EXPECT_NEAR(r.analysis->suite[0].geometricMean, 0.8, 0.05);
  EXPECT_EQ(r.analysis->levels, (std::vector<std::string>{"build", "execution", "iteration"}));
  EXPECT_TRUE(r.failures.empty());
  EXPECT_EQ(r.builds, 8u);
  // Planner costs measured from the campaign: 2 s builds / mean measurement.
  ASSERT_EQ(r.analysis->options.costs.size(), 2u);
  double meanValue = 0;
  for (const auto &p : d.measurements)
    meanValue += p.value;
  meanValue /= d.measurements.size();
  EXPECT_NEAR(r.analysis->options.costs[0], 2.0 / meanValue, 1e-9);
}

TEST(CampaignReport, ObservedLayoutSpreadIsMaxOverMinOfBuildMeansAndLabelledSo) {
  CampaignData d = twoSystems();
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_TRUE(r.analysis) << r.analysisError;
  std::size_t checked = 0;
  for (const auto &b : r.analysis->benchmarks)
    for (const auto &s : b.systems) {
      std::map<int, std::pair<double, int>> sums; // balanced: build mean = plain mean
      for (const auto &p : d.measurements)
        if (p.system == s.name && p.benchmark == b.name) {
          sums[p.build].first += p.value;
          sums[p.build].second++;
        }
      double lo = 1e300, hi = 0;
      for (const auto &[build, v] : sums) {
        lo = std::min(lo, v.first / v.second);
        hi = std::max(hi, v.first / v.second);
      }
      EXPECT_NEAR(s.layout.observedSpread, hi / lo - 1, 1e-9);
      EXPECT_EQ(s.layout.units, 4u);
      ++checked;
    }
  EXPECT_EQ(checked, 4u);
  std::string text = report::render(r, report::Format::Text);
  EXPECT_NE(text.find("observed best-to-worst"), std::string::npos);
  EXPECT_NE(text.find("(includes execution noise)"), std::string::npos);
}

TEST(CampaignReport, FailuresAreGroupedAndTheRestIsAnalysed) {
  CampaignData d = twoSystems();
  d.benchmarks.push_back("crash");
  for (int b = 0; b < 4; ++b)
    for (const char *s : {"base", "cand"})
      d.failures.push_back({s, "crash", b, 0, ExecutionStatus::Signal, 0, 11,
                            "killed by signal 11 (SIGSEGV)", "about to crash\nSegfault here\n"});
  d.failures.push_back(
      {"cand", "beta", 1, 2, ExecutionStatus::Timeout, 0, 9, "timed out after 5 s", ""});
  d.executed += 9;
  d.planned = d.executed;
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_EQ(r.failures.size(), 3u);
  EXPECT_EQ(r.failed, 9);
  std::size_t segv = 0;
  for (const auto &g : r.failures)
    if (g.cause == "killed by signal 11 (SIGSEGV)") {
      segv += g.count;
      EXPECT_EQ(g.stderrTail, "about to crash\nSegfault here");
    }
  EXPECT_EQ(segv, 8u);
  EXPECT_TRUE(contains(r.warnings, "failed: 4 executions of crash on base: killed by signal 11"));
  EXPECT_TRUE(contains(r.warnings, "failed: 1 execution of beta on cand: timed out after 5 s"));
  EXPECT_TRUE(contains(r.warnings, "not analysed: crash: base has data from 0 builds"));
  ASSERT_TRUE(r.analysis);
  EXPECT_EQ(r.analysis->benchmarks.size(), 2u); // alpha and beta
  EXPECT_TRUE(contains(r.analysis->warnings, "failed: 4 executions of crash on cand"));
  std::string text = report::render(r, report::Format::Text);
  EXPECT_NE(text.find("stderr| Segfault here"), std::string::npos);
  std::string csv = report::render(r, report::Format::Csv);
  EXPECT_NE(csv.find("crash,base,,failures,signal,4,,,"), std::string::npos);
}

TEST(CampaignReport, NothingAnalysableStillReports) {
  CampaignData d;
  d.systems = {"a", "b"};
  d.benchmarks = {"crash"};
  d.failures.push_back(
      {"a", "crash", 0, 0, ExecutionStatus::Signal, 0, 11, "killed by signal 11 (SIGSEGV)", ""});
  d.planned = 4;
  d.executed = 1;
  CampaignReport r = buildCampaignReport(d, fast());
  EXPECT_FALSE(r.analysis);
  EXPECT_FALSE(r.analysisError.empty());
  EXPECT_TRUE(contains(r.warnings, "incomplete campaign: 1 of 4 planned executions"));
  for (auto f :
       {report::Format::Text, report::Format::Markdown, report::Format::Json, report::Format::Csv})
    EXPECT_FALSE(report::render(r, f).empty());
  const auto json = nlohmann::json::parse(report::render(r, report::Format::Json));
  EXPECT_TRUE(json.at("report").is_null());
  EXPECT_EQ(json.at("campaign").at("analysis_error").get<std::string>(), r.analysisError);
}

TEST(CampaignReport, OneSystemIsALayoutSensitivityStudy) {
  CampaignData d;
  d.systems = {"only"};
  d.benchmarks = {"k"};
  addSystem(d, "only", "k", 0.01, 5, 2, 4, 9, 0.05);
  CampaignReport r = buildCampaignReport(d, fast());
  EXPECT_TRUE(r.layoutStudy);
  ASSERT_TRUE(r.analysis) << r.analysisError;
  ASSERT_EQ(r.analysis->benchmarks.size(), 1u);
  EXPECT_TRUE(r.analysis->benchmarks[0].ratios.empty());
  EXPECT_TRUE(contains(r.analysis->warnings, "layout-sensitivity study"));
  EXPECT_GT(r.analysis->benchmarks[0].systems[0].layout.observedSpread, 0);
  // A layout-sensitivity study leads with the layout effect.
  EXPECT_EQ(report::render(r, report::Format::Text).find("layout sensitivity (one system)"),
            report::render(r, report::Format::Text).find("layout sensitivity"));
  EXPECT_NE(report::render(r, report::Format::Text).find("a layout-sensitivity study"),
            std::string::npos);
}

TEST(CampaignReport, IdenticalLayoutsMachineChangesAndFailedBuilds) {
  CampaignData d = twoSystems();
  d.builds[1].fingerprint = d.builds[0].fingerprint; // base builds 0 and 1
  d.builds.push_back(
      {"cand", 4, 0x9, BuildStatus::Failed, 1.0, "", "", "cc: error: boom\n", {}, ""});
  d.machineChanges.push_back("2026-01-01T00:00:00Z: governor");
  CampaignReport r = buildCampaignReport(d, fast());
  EXPECT_TRUE(contains(r.warnings, "identical layouts: builds 0 and 1 of base"));
  EXPECT_FALSE(contains(r.warnings, "identical layouts: builds 0 and 1 of cand"));
  EXPECT_TRUE(contains(r.warnings, "machine state changed during the campaign at "
                                   "2026-01-01T00:00:00Z: governor"));
  EXPECT_TRUE(contains(r.warnings, "failed: build 4 of cand: cc: error: boom"));
  EXPECT_EQ(r.failedBuilds, 1u);
}

// The executions of failed builds are one group per benchmark and system,
// naming the builds (one per build before: a warning each).
TEST(CampaignReport, TheExecutionsOfFailedBuildsAreOneGroup) {
  CampaignData d = twoSystems();
  d.benchmarks.push_back("gone");
  for (int b : {3, 0, 2})
    for (int e = 0; e < 2; ++e)
      d.failures.push_back({"cand", "gone", b, e, ExecutionStatus::Build, 0, 0,
                            "build cand #" + std::to_string(b) + " failed", ""});
  d.failures.push_back(
      {"base", "gone", 1, 0, ExecutionStatus::Build, 0, 0, "build base #1 failed", ""});
  d.executed += 7;
  d.planned = d.executed;
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_EQ(r.failures.size(), 2u);
  EXPECT_EQ(r.failures[0].system, "base");
  EXPECT_EQ(r.failures[0].cause, "build base #1 failed");
  EXPECT_EQ(r.failures[1].cause, "builds cand #0, #2 and #3 failed");
  EXPECT_EQ(r.failures[1].count, 6u);
  EXPECT_TRUE(contains(r.warnings, "failed: 6 executions of gone on cand: builds cand #0, #2 and "
                                   "#3 failed"));
}

// Builds that failed alike are one warning, with the output that names the
// cause (a wrong build command fails every build the same way).
TEST(CampaignReport, BuildsThatFailedAlikeAreOneWarningWithTheirOutput) {
  CampaignData d = twoSystems();
  const std::string log = "make: Entering directory '/b'\nld: cannot find -lfoo\n"
                          "cc: error: linker command failed\nmake: *** [lz4] Error 1\n\n"
                          "build exited with status 2";
  for (int b : {4, 5, 6})
    d.builds.push_back({"cand", b, 0x9, BuildStatus::Failed, 1.0, "", "", log, {}, ""});
  d.builds.push_back({"cand", 7, 0x9, BuildStatus::Failed, 1.0, "", "", "timed out", {}, ""});
  CampaignReport r = buildCampaignReport(d, fast());
  std::vector<std::string> failed;
  for (const auto &w : r.warnings)
    if (w.rfind("failed: build", 0) == 0)
      failed.push_back(w);
  ASSERT_EQ(failed.size(), 2u) << ::testing::PrintToString(failed);
  EXPECT_EQ(failed[0], "failed: builds 4, 5 and 6 of cand: build exited with status 2; the first "
                       "one's output ended: ld: cannot find -lfoo / cc: error: linker command "
                       "failed / make: *** [lz4] Error 1");
  EXPECT_EQ(failed[1], "failed: build 7 of cand: timed out");
  EXPECT_EQ(r.failedBuilds, 4u);
}

// Warm-up as the changepoints see it, over each execution's iterations:
// base's executions are 5x slower for their first 4 iterations and none is
// dropped (warm-up left in the measurements); 2 of cand's 12 executions
// change again in their last 3 iterations (no steady state). With the 4
// iterations dropped as warm-up (stored apart), base's warning goes.
TEST(CampaignReport, WarmupLeftAndNoSteadyStateAreWarned) {
  CampaignData d;
  d.name = "warm";
  d.storePath = "mem";
  d.systems = {"base", "cand"};
  d.baseline = "base";
  d.benchmarks = {"alpha"};
  addSystem(d, "base", "alpha", 0.010, 4, 3, 20, 5);
  addSystem(d, "cand", "alpha", 0.008, 4, 3, 20, 6);
  for (auto &m : d.measurements) {
    if (m.system == "base" && m.iteration < 4)
      m.value *= 5;
    if (m.system == "cand" && m.build == 1 && m.execution < 2 && m.iteration >= 17)
      m.value *= 1.5;
  }
  for (const char *s : {"base", "cand"})
    for (int b = 0; b < 4; ++b)
      d.builds.push_back(
          {s, b, 0x1, BuildStatus::Ok, 2.0, std::string(s) + std::to_string(b), "", "", {}, ""});
  d.planned = d.executed = 24;
  CampaignReport r = buildCampaignReport(d, fast());
  EXPECT_TRUE(contains(r.warnings, "warm-up: 12 of 12 executions of alpha on base are still "
                                   "warming up after the 0 iterations dropped (the latest "
                                   "steady state starts at iteration 4): set "
                                   "levels.warmup to 4 or \"auto\""));
  EXPECT_TRUE(contains(r.warnings, "warm-up: 2 of 12 executions of alpha on cand never reach a "
                                   "steady state (changepoints within their last 5 iterations)"));
  EXPECT_FALSE(contains(r.warnings, "executions of alpha on cand are still warming up"));
  EXPECT_FALSE(contains(r.warnings, "executions of alpha on base never reach"));
  // The same data with the 4 slow iterations dropped as warm-up.
  CampaignData dropped = d;
  dropped.warmup = 4;
  dropped.measurements.clear();
  for (const auto &m : d.measurements)
    (m.iteration < 4 ? dropped.warmupMeasurements : dropped.measurements).push_back(m);
  CampaignReport w = buildCampaignReport(dropped, fast());
  EXPECT_FALSE(contains(w.warnings, "still warming up")) << w.warnings.size();
  EXPECT_TRUE(contains(w.warnings, "warm-up: 2 of 12 executions of alpha on cand never reach"));
}

TEST(CampaignReport, BuildsWithoutArtifactsAreReportedAsUnchecked) {
  CampaignData d = twoSystems();
  for (auto &b : d.builds)
    if (b.system == "cand") {
      b.fingerprint.clear();
      b.binaryHash.clear();
    }
  CampaignReport r = buildCampaignReport(d, fast());
  EXPECT_TRUE(contains(r.warnings, "layouts not checked: the builds of cand keep no artifacts"));
  EXPECT_FALSE(contains(r.warnings, "layouts not checked: the builds of base"));
}

TEST(CampaignReport, LayoutSensitivityIsPrintedInEachBenchmarksUnit) {
  CampaignData d = twoSystems();
  d.units = {{"alpha", "s"}, {"beta", "KiB"}};
  for (auto &p : d.measurements)
    if (p.benchmark == "beta")
      p.value *= 1e6; // e.g. peak RSS around 20,000 KiB
  CampaignReport r = buildCampaignReport(d, fast());
  const std::string text = report::render(r, report::Format::Text);
  EXPECT_NE(text.find("benchmark alpha (s)"), std::string::npos) << text;
  EXPECT_NE(text.find("benchmark beta (KiB)"), std::string::npos) << text; // not seconds
  EXPECT_EQ(text.find("20000.000 s"), std::string::npos) << text;
  const auto json = nlohmann::json::parse(report::render(r, report::Format::Json));
  EXPECT_EQ(json.at("campaign").at("units").at("beta").get<std::string>(), "KiB");
  EXPECT_EQ(json.at("campaign").at("units").at("alpha").get<std::string>(), "s");
}

TEST(CampaignReport, TrendingIterationsAreFlagged) {
  CampaignData d;
  d.systems = {"a"};
  d.benchmarks = {"k"};
  // Every execution gets 20% faster over its 12 iterations: warm-up not done.
  for (int b = 0; b < 3; ++b)
    for (int e = 0; e < 3; ++e)
      for (int i = 0; i < 12; ++i)
        d.measurements.push_back({"a", "k", b, e, i, 0.01 * (1.2 - 0.02 * i) + 1e-5 * b});
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_TRUE(r.analysis) << r.analysisError;
  const auto &diag = r.analysis->benchmarks.at(0).systems.at(0).diagnostics;
  EXPECT_TRUE(diag.trendsTested);
  EXPECT_EQ(diag.trendExecutions, 9u);
  EXPECT_EQ(diag.trendFlagged, 9u);
  EXPECT_EQ(diag.trendDecreasing, 9u);
  EXPECT_NE(report::render(r, report::Format::Text).find("still trend"), std::string::npos);
}

// Executions whose times rise over their iterations are not "warm-up not
// over": the warning says which way they trend.
TEST(CampaignReport, RisingIterationsAreNotCalledWarmup) {
  CampaignData d;
  d.systems = {"a"};
  d.benchmarks = {"k"};
  for (int b = 0; b < 3; ++b)
    for (int e = 0; e < 3; ++e)
      for (int i = 0; i < 12; ++i)
        d.measurements.push_back({"a", "k", b, e, i, 0.01 * (1.0 + 0.02 * i) + 1e-5 * b});
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_TRUE(r.analysis) << r.analysisError;
  const auto &w = r.analysis->benchmarks.at(0).warnings;
  EXPECT_TRUE(contains(w, "a: 9 of 9 executions still trend over their iterations (9 increasing: "
                          "slowing down as they run?)"))
      << w.size();
  EXPECT_FALSE(contains(w, "decreasing")) << "no execution gets faster";
  EXPECT_FALSE(contains(w, "warm-up not over"));
}

// A store made by `alea import` was not run by alea: the report says where
// its measurements came from, and gives no advice about a campaign file or
// a store age that do not apply.
TEST(CampaignReport, AnImportedStoreIsReportedAsImported) {
  CampaignData d = twoSystems();
  d.importedFrom = "gcc.json, clang.json";
  for (auto &b : d.builds) {
    b.status = BuildStatus::Imported;
    b.fingerprint.clear();
    b.binaryHash.clear();
  }
  for (auto &m : d.measurements) // warm-up left in: the advice must fit an import
    if (m.system == "base" && m.iteration < 2)
      m.value *= 5;
  CampaignReport r = buildCampaignReport(d, fast());
  EXPECT_EQ(r.importedFrom, "gcc.json, clang.json");
  ASSERT_FALSE(r.noise.empty());
  for (const auto &n : r.noise) {
    EXPECT_FALSE(n.diagnosis);
    EXPECT_EQ(n.error, "imported measurements carry no execution conditions: no load, CPU "
                       "frequency or migrations to relate them to");
  }
  // One warning names every system whose builds cannot be checked.
  EXPECT_TRUE(contains(r.warnings, "layouts not checked: the builds of base, cand were imported "
                                   "without their binaries"));
  EXPECT_TRUE(contains(r.warnings, "leave out the first 2 iterations of each execution before "
                                   "importing"));
  EXPECT_EQ(r.designNote, "design: imported measurements (the order they were taken in is not "
                          "known): systems analysed as independent");
  for (const auto format : {report::Format::Text, report::Format::Markdown, report::Format::Html,
                            report::Format::Json}) {
    const std::string out = report::render(r, format);
    for (const char *wrong : {"predates", "artifacts`", "levels.warmup", "one random order"})
      EXPECT_EQ(out.find(wrong), std::string::npos) << wrong << " in\n" << out;
    EXPECT_NE(out.find("gcc.json, clang.json"), std::string::npos) << out;
  }
}

// The warm-up applied is stated in every format of a campaign's report.
TEST(CampaignReport, TheWarmupAppliedIsStated) {
  CampaignData d = twoSystems();
  d.warmup = 3;
  CampaignReport r = buildCampaignReport(d, fast());
  EXPECT_EQ(r.warmup, 3);
  const std::string text = report::render(r, report::Format::Text);
  EXPECT_NE(text.find("\n  warm-up: 3 iterations dropped at the start of every execution\n"),
            std::string::npos)
      << text;
  EXPECT_NE(report::render(r, report::Format::Markdown)
                .find("Warm-up: 3 iterations dropped at the start of every execution."),
            std::string::npos);
  EXPECT_NE(report::render(r, report::Format::Html)
                .find("<tr><th>warm-up</th><td>3 iterations dropped at the start of every "
                      "execution</td></tr>"),
            std::string::npos);
  const auto json = nlohmann::json::parse(report::render(r, report::Format::Json));
  EXPECT_EQ(json.at("campaign").at("warmup_iterations").get<int>(), 3);
}

// A campaign on [[target]]s names them, with each one's host and machine, in
// every format; one that never answered is said to have none.
TEST(CampaignReport, TargetsAreNamedWithTheirHostsAndMachines) {
  CampaignData d = twoSystems();
  d.machines = Machines::Pool;
  d.targets = 2;
  d.targetNames = {"left", "right"};
  MachineState m;
  m.hostname = "node-17";
  m.cpuModel = "EPYC 7302";
  m.cpuCount = 16;
  m.governor = "performance";
  m.kernel = "6.1.0-18-amd64";
  m.aslr = 2;
  d.targetMachines["left"] = m;
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_EQ(r.targets.size(), 2u);
  EXPECT_EQ(r.targets[0].name, "left");
  ASSERT_TRUE(r.targets[0].machine);
  EXPECT_EQ(r.targets[0].machine->hostname, "node-17");
  EXPECT_FALSE(r.targets[1].machine);
  EXPECT_NE(r.designNote.find("on a pool of 2 targets (left, right; assumed identical"),
            std::string::npos)
      << r.designNote;
  const std::string left = "left: node-17: EPYC 7302, 16 CPUs, governor performance, ASLR on; "
                           "kernel 6.1.0-18-amd64";
  const std::string right = "right: no machine state recorded (the target never answered)";
  for (const auto format : {report::Format::Text, report::Format::Markdown, report::Format::Html}) {
    const std::string out = report::render(r, format);
    EXPECT_NE(out.find(left), std::string::npos) << out;
    EXPECT_NE(out.find(right), std::string::npos) << out;
  }
  const auto json = nlohmann::json::parse(report::render(r, report::Format::Json));
  const auto &targets = json.at("campaign").at("targets");
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[0].at("name"), "left");
  EXPECT_EQ(targets[0].at("hostname"), "node-17");
  EXPECT_EQ(targets[0].at("cpus"), 16);
  EXPECT_EQ(targets[0].at("aslr"), true);
  EXPECT_TRUE(targets[1].at("hostname").is_null());
  // One target: "1 target", not "1 targets".
  d.targets = 1;
  d.targetNames = {"left"};
  EXPECT_NE(buildCampaignReport(d, fast()).designNote.find("on a pool of 1 target (left;"),
            std::string::npos);
}

TEST(CampaignReport, OneMeasurementPerExecutionDropsTheIterationLevel) {
  CampaignData d;
  d.systems = {"a", "b"};
  d.baseline = "a";
  d.benchmarks = {"k"};
  addSystem(d, "a", "k", 1.0, 3, 4, 1, 5);
  addSystem(d, "b", "k", 1.1, 3, 4, 1, 6);
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_TRUE(r.analysis) << r.analysisError;
  EXPECT_EQ(r.analysis->levels, (std::vector<std::string>{"build", "execution"}));
}

// --- a real store
// -------------------------------------------------------------

// Stores from before issue 18 hold the hash of nothing as the fingerprint of
// every stripped build: never evidence that two layouts are the same.
TEST(LoadCampaignData, TheOldFingerprintOfAStrippedBuildIsUnknown) {
  const test::TempDir dir; // the store, its -wal and -shm go with it
  const std::string file = dir.file("stripped.db");
  {
    auto store = Store::open(file);
    ASSERT_TRUE(store) << store.error();
    auto sa = store->ensureSystem("a", true, 0);
    ASSERT_TRUE(sa);
    for (int b = 0; b < 2; ++b) {
      BuildRecord br;
      br.systemId = *sa;
      br.buildIndex = b;
      br.seed = 7 + b;
      br.status = BuildStatus::Ok;
      br.fingerprint = "cbf29ce484222325";
      br.binaryHash = std::string(64, static_cast<char>('a' + b));
      ASSERT_TRUE(store->recordBuild(br));
    }
  }
  auto d = loadCampaignData(file);
  ASSERT_TRUE(d) << d.error();
  ASSERT_EQ(d->builds.size(), 2u);
  for (const auto &b : d->builds)
    EXPECT_EQ(b.fingerprint, "");
  CampaignReport r = buildCampaignReport(*d, fast());
  EXPECT_FALSE(contains(r.warnings, "identical layouts")) << "different binaries";
}

TEST(LoadCampaignData, ReadsWhatTheRunnerStored) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("alea-report-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    auto store = Store::open((dir / "campaign.db").string());
    ASSERT_TRUE(store) << store.error();
    ASSERT_TRUE(store->setMeta("campaign_name", "stored"));
    ASSERT_TRUE(store->setMeta("threshold", "0.02"));
    ASSERT_TRUE(store->setMeta("levels.warmup", "1"));
    ASSERT_TRUE(store->setMeta("factors", "function-order,env-padding"));
    MachineState first, later;
    first.hostname = "bench-host";
    first.cpuCount = 8;
    later.hostname = "bench-host";
    later.governor = "powersave";
    ASSERT_TRUE(store->addMachine(first, "start"));
    ASSERT_TRUE(store->addMachine(later, "change: governor"));
    auto sa = store->ensureSystem("a", true, 0);
    auto sb = store->ensureSystem("b", false, 1);
    auto k = store->ensureBenchmark("k", 0, "s");
    ASSERT_TRUE(sa && sb && k);
    std::vector<PlanEntry> plan;
    std::int64_t pos = 0;
    for (auto sys : {*sa, *sb})
      for (int b = 0; b < 2; ++b)
        for (int e = 0; e < 2; ++e)
          plan.push_back({pos++, sys, *k, b, e});
    ASSERT_TRUE(store->savePlan(plan));
    std::map<std::pair<std::int64_t, int>, std::int64_t> buildIds;
    for (auto sys : {*sa, *sb})
      for (int b = 0; b < 2; ++b) {
        BuildRecord br;
        br.systemId = sys;
        br.buildIndex = b;
        br.seed = 7 + b;
        br.status = BuildStatus::Ok;
        br.seconds = 1.5;
        br.fingerprint = "fp" + std::to_string(sys) + std::to_string(b);
        auto id = store->recordBuild(br);
        ASSERT_TRUE(id) << id.error();
        buildIds[{sys, b}] = *id;
      }
    for (const auto &p : plan) {
      ExecutionRecord e;
      e.planPosition = p.position;
      e.buildId = buildIds[{p.systemId, p.buildIndex}];
      e.benchmarkId = p.benchmarkId;
      e.executionIndex = p.executionIndex;
      e.wallSeconds = 0.05;
      std::vector<MeasurementRecord> m;
      if (p.position == 5) { // one crash
        e.status = ExecutionStatus::Signal;
        e.signal = 11;
        e.error = "killed by signal 11 (SIGSEGV)";
        e.stderrTail = "boom\n";
      } else {
        e.status = ExecutionStatus::Ok;
        for (int i = 0; i < 4; ++i) // iteration 0 is warm-up
          m.push_back({i, 0.01 * (p.systemId == *sa ? 1.0 : 0.9) + 1e-4 * i, i == 0});
      }
      ASSERT_TRUE(store->recordExecution(e, m, "s"));
    }
  }
  auto d = loadCampaignData(dir.string()); // the directory works as well as the file
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->name, "stored");
  EXPECT_EQ(d->baseline, "a");
  EXPECT_DOUBLE_EQ(d->threshold, 0.02);
  EXPECT_EQ(d->systems, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(d->benchmarks, (std::vector<std::string>{"k"}));
  EXPECT_EQ(d->planned, 8);
  EXPECT_EQ(d->executed, 8);
  EXPECT_EQ(d->measurements.size(), 7u * 3); // warm-up excluded, crash has none
  for (const auto &m : d->measurements)
    EXPECT_GE(m.iteration, 1);
  // The warm-up iterations apart, in the same store order.
  ASSERT_EQ(d->warmupMeasurements.size(), 7u);
  for (const auto &m : d->warmupMeasurements)
    EXPECT_EQ(m.iteration, 0);
  EXPECT_EQ(d->warmupMeasurements.front().system, "a");
  EXPECT_DOUBLE_EQ(d->warmupMeasurements.back().value, 0.009);
  EXPECT_EQ(d->factors, "function-order,env-padding");
  ASSERT_TRUE(d->machine);
  EXPECT_EQ(d->machine->cpuCount, 8); // the first state recorded, not the change
  EXPECT_EQ(d->machine->governor, "");
  ASSERT_EQ(d->machineChanges.size(), 1u);
  EXPECT_NE(d->machineChanges[0].find(": governor"), std::string::npos);
  ASSERT_EQ(d->failures.size(), 1u);
  EXPECT_EQ(d->failures[0].system, "b");
  EXPECT_EQ(d->failures[0].buildIndex, 0);
  EXPECT_EQ(d->failures[0].executionIndex, 1);
  EXPECT_EQ(d->failures[0].signal, 11);
  EXPECT_EQ(d->builds.size(), 4u);
  EXPECT_DOUBLE_EQ(d->builds[0].seconds, 1.5);

  CampaignReport r = buildCampaignReport(*d, fast());
  ASSERT_TRUE(r.analysis) << r.analysisError;
  EXPECT_EQ(r.failed, 1);
  // The crashed execution leaves b unbalanced: the engine trims and says so.
  EXPECT_FALSE(r.analysis->dropped.empty());

  auto missing = loadCampaignData((dir / "nope").string());
  EXPECT_FALSE(missing);
  EXPECT_NE(missing.error().find("no such campaign store"), std::string::npos);
  fs::remove_all(dir);
}

// The targets a campaign ran on (meta "targets") and the machine state first
// recorded on each (machine rows with their target).
TEST(LoadCampaignData, ReadsTheTargetsAndTheirMachines) {
  namespace fs = std::filesystem;
  fs::path file =
      fs::temp_directory_path() / ("alea-targets-" + std::to_string(::getpid()) + ".db");
  fs::remove(file);
  {
    auto store = Store::open(file.string());
    ASSERT_TRUE(store) << store.error();
    ASSERT_TRUE(store->setMeta("targets", "a,b"));
    ASSERT_TRUE(store->setMeta("machines", "pool"));
    MachineState host, first, later;
    host.hostname = "the-host";
    first.hostname = "node-a";
    first.cpuCount = 4;
    later.hostname = "node-a";
    later.cpuCount = 8;
    ASSERT_TRUE(store->addMachine(host, "start"));
    ASSERT_TRUE(store->addMachine(first, "start", "a"));
    ASSERT_TRUE(store->addMachine(later, "change: cpus", "a"));
  }
  auto d = loadCampaignData(file.string());
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->targets, 2);
  EXPECT_EQ(d->targetNames, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(d->targetMachines.count("a"), 1u);
  EXPECT_EQ(d->targetMachines.at("a").hostname, "node-a");
  EXPECT_EQ(d->targetMachines.at("a").cpuCount, 4) << "the first state recorded";
  EXPECT_EQ(d->targetMachines.count("b"), 0u) << "b never answered";
  ASSERT_TRUE(d->machine);
  EXPECT_EQ(d->machine->hostname, "the-host");
  for (const char *suffix : {"", "-wal", "-shm"})
    fs::remove(file.string() + suffix);
}

// A benchmark decided on a simulated count (sim-*) is named so, and its
// noise diagnosis does not ask to quiet a busy machine; one on wall time does.
TEST(LoadCampaignData, BenchmarksDecidedOnASimulatedCountAreNamed) {
  const test::TempDir dir; // the store, its -wal and -shm go with it
  const std::string file = dir.file("simulated.db");
  {
    auto store = Store::open(file);
    ASSERT_TRUE(store) << store.error();
    auto sa = store->ensureSystem("a", true, 0);
    auto sb = store->ensureSystem("b", false, 1);
    auto sim = store->ensureBenchmark("sim", 0, "count", "sim-cycles");
    auto wall = store->ensureBenchmark("wall", 1, "s", "wall");
    ASSERT_TRUE(sa && sb && sim && wall);
    std::vector<PlanEntry> plan;
    for (auto sys : {*sa, *sb})
      for (int b = 0; b < 2; ++b)
        for (auto bench : {*sim, *wall})
          for (int e = 0; e < 3; ++e)
            plan.push_back({static_cast<std::int64_t>(plan.size()), sys, bench, b, e});
    ASSERT_TRUE(store->savePlan(plan));
    std::int64_t pos = 0;
    for (auto sys : {*sa, *sb})
      for (int b = 0; b < 2; ++b) {
        BuildRecord br;
        br.systemId = sys;
        br.buildIndex = b;
        auto id = store->recordBuild(br);
        ASSERT_TRUE(id) << id.error();
        for (auto bench : {*sim, *wall})
          for (int e = 0; e < 3; ++e) {
            ExecutionRecord rec;
            rec.planPosition = pos++;
            rec.buildId = *id;
            rec.benchmarkId = bench;
            rec.executionIndex = e;
            rec.startedAt = 1.8e9 + static_cast<double>(pos);
            rec.otherLoad = 1.5; // busy throughout
            const bool simulated = bench == *sim;
            const double v = (simulated ? 1e6 : 0.01) * (1 + 1e-3 * (b + e * e));
            const MeasurementRecord m{0, v, false, simulated ? "sim-cycles" : "wall",
                                      simulated ? "count" : "s"};
            Status st = store->recordExecution(rec, std::span(&m, 1), m.unit);
            ASSERT_TRUE(st) << st.error();
          }
      }
  }
  auto d = loadCampaignData(file);
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->simulated, (std::set<std::string>{"sim"}));
  CampaignReport r = buildCampaignReport(*d, fast());
  ASSERT_EQ(r.noise.size(), 2u);
  for (const auto &n : r.noise) {
    ASSERT_TRUE(n.diagnosis) << n.benchmark << ": " << n.error;
    auto busy = std::find_if(n.diagnosis->findings.begin(), n.diagnosis->findings.end(),
                             [](const auto &f) { return f.kind == "busy-machine"; });
    ASSERT_NE(busy, n.diagnosis->findings.end()) << n.benchmark;
    EXPECT_EQ(busy->significant, n.benchmark == "wall") << n.benchmark;
    EXPECT_EQ(busy->advice.empty(), n.benchmark == "sim") << n.benchmark;
  }
}

TEST(LoadCampaignData, RefusesAForeignSqliteFile) {
  namespace fs = std::filesystem;
  fs::path file =
      fs::temp_directory_path() / ("alea-foreign-" + std::to_string(::getpid()) + ".db");
  fs::remove(file);
  {
    auto st = Store::open(file.string()); // creates alea's schema...
    ASSERT_TRUE(st);
    ASSERT_TRUE(StoreTestAccess::exec(*st, "DROP TABLE meta")); // ...which we then break
  }
  auto d = loadCampaignData(file.string());
  EXPECT_FALSE(d);
  EXPECT_NE(d.error().find("is not an alea store"), std::string::npos);
  for (const char *suffix : {"", "-wal", "-shm"}) // the read-only open leaves WAL files
    fs::remove(file.string() + suffix);
}

// A campaign that planned one build per system (`alea compare --cmd`) drew
// no layouts: its executions are the top level, it is analysed unpaired, no
// "layouts not checked" warning, and the design note says so.
TEST(CampaignReport, OneBuildPerSystemHasExecutionsOnTop) {
  CampaignData d;
  d.name = "commands";
  d.storePath = "mem";
  d.systems = {"a", "b"};
  d.baseline = "a";
  d.benchmarks = {"command"};
  d.seed = "0x2a";
  d.design = alea::Design::Interleaved; // pairs of builds: there is one
  d.plannedBuilds = 1;
  addSystem(d, "a", "command", 0.010, 1, 20, 1, 1);
  addSystem(d, "b", "command", 0.013, 1, 20, 1, 2); // 30% slower
  d.planned = d.executed = 40;
  for (const char *s : {"a", "b"})
    d.builds.push_back({s, 0, 0x1, BuildStatus::Ok, 0.01, "", "", "", {}, ""});
  // A simulated metric's profile of the one build: no layouts to attribute.
  d.attribution.push_back({"a", "command", "sim-instructions", {"instructions"}, 64, 0, {}});
  CampaignReport r = buildCampaignReport(d, fast());
  ASSERT_TRUE(r.analysis) << r.analysisError;
  EXPECT_TRUE(r.placement.empty());
  EXPECT_EQ(r.analysis->levels, (std::vector<std::string>{"execution"}));
  ASSERT_EQ(r.analysis->benchmarks.size(), 1u);
  ASSERT_EQ(r.analysis->benchmarks[0].ratios.size(), 1u);
  const auto &ratio = r.analysis->benchmarks[0].ratios[0];
  EXPECT_NEAR(ratio.estimate, meanOf(d, "b", "command") / meanOf(d, "a", "command"), 1e-12);
  EXPECT_EQ(ratio.decision, analysis::Decision::Slower);
  EXPECT_EQ(r.analysis->options.pairing, analysis::Pairing::Unpaired);
  EXPECT_FALSE(contains(r.warnings, "layouts not checked"));
  EXPECT_NE(r.designNote.find("one build per system: no layouts were drawn"), std::string::npos)
      << r.designNote;

  // The same data from a campaign that planned 4 builds (3 lost) is not
  // analysed across executions: a layout study needs its builds.
  d.plannedBuilds = 4;
  CampaignReport lost = buildCampaignReport(d, fast());
  EXPECT_FALSE(lost.analysis);
  EXPECT_TRUE(contains(lost.warnings, "not analysed: command: a has data from 1 build"));
}

} // namespace
} // namespace alea::runner
