// The report value of alea (issue 22: below the runner, above the engine):
// what every renderer (report/render.hpp) draws from, assembled from plain
// records. `alea report STORE` takes three steps, each a library function the
// tests call:
//  1. loadCampaignData(store) (runner/store, alea/store/campaign_data.hpp):
//     everything the report needs, read from the SQLite store into a
//     CampaignData of common records (alea/records.hpp);
//  2. buildCampaignReport(data): the statistics engine's report (analysis/
//     report.hpp: ratio CIs, decision, variance shares, planner advice, suite
//     geometric mean and randomization test) on the benchmarks that have enough
//     data, with its diagnostics (outliers, layout modes, non-steady
//     iterations), plus the campaign warnings only a campaign can tell:
//     failures, incomplete plans, benchmarks without enough data, machine-state
//     changes, identical layouts, and the layout sensitivity of every system. A
//     campaign with one system is reported as a layout-sensitivity study;
//  3. report/render.hpp renders the value (CampaignReport) in every format.
// `alea analyze` takes only analyzeTable: rows to the report value. Nothing
// here reads a store, a file or a process: it depends on analysis and common
// only.
#pragma once

#include "alea/analysis/attribution.hpp"
#include "alea/analysis/figures.hpp"
#include "alea/analysis/noise.hpp"
#include "alea/analysis/report.hpp"
#include "alea/expected.hpp"
#include "alea/model/layout_facts.hpp"
#include "alea/records.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace alea::model {

// A build (alea/records.hpp) with what its binary tells.
struct BuildInfo : Build {
  // Read from the binary only for builds whose fingerprint another build of
  // the system shares (the "identical layouts" warning's counts).
  std::optional<LayoutFacts> layout;
  // ODR findings of the binary's link record (odrFindings(), builder.hpp),
  // "" when none: read from the artifact's snapshot, not from the store.
  std::string odr;
};

// What a campaign is and how far it got, as the store holds it
// (CampaignData) and the report says it (CampaignReport): one set of fields
// for both, so nothing is copied field by field on the way.
struct CampaignSummary {
  std::string name;
  std::string storePath;
  std::vector<std::string> systems;    // store order (baseline flagged there)
  std::vector<std::string> benchmarks; // store order
  std::int64_t planned = 0;            // executions in the plan
  std::int64_t executed = 0;           // executions recorded (ok or failed)
};

// What a campaign store holds for the report, as loadCampaignData
// (runner/store) reads it.
struct CampaignData : CampaignSummary {
  std::string baseline;                     // "" = the first system
  std::string unit = "s";                   // of the values (the first benchmark's)
  std::map<std::string, std::string> units; // per benchmark (absent: `unit`)
  std::string seed;                         // campaign seed, hex ("" unknown)
  double confidence = 0.95;
  double threshold = 0.01;
  int warmup = 0;
  // Builds per system in the plan (levels.builds, with an adaptive
  // campaign's batches); 0 when the store does not say (imports). With 1, no
  // layouts were drawn (`alea compare --cmd`): the executions are the top level.
  int plannedBuilds = 0;
  std::vector<MeasurementPoint> measurements;
  std::vector<FailedExecution> failures;
  std::vector<LeftoverGroup> leftovers;
  std::vector<BuildInfo> builds;
  std::vector<std::string> machineChanges; // "<time>: <what changed>"
  double meanExecutionSeconds = 0;         // wall time of ok executions
  // Issue 8: the design the plan was made with (unpaired for old stores),
  // the adaptive campaign's decisions, and every execution's conditions.
  Design design = Design::Unpaired;
  // Campaigns on [[target]]s: how machines enter (none: no targets) and how
  // many targets; with Level, build i ran on target i mod targets.
  std::optional<Machines> machines;
  int targets = 0;
  // Their names in the campaign file's order, and the machine state first
  // recorded on each (none: the target never answered).
  std::vector<std::string> targetNames;
  std::map<std::string, MachineState> targetMachines;
  // An imported store (`alea import`): where its measurements came from;
  // "" for a campaign alea ran.
  std::string importedFrom;
  std::string adaptiveLog;
  double targetHalfWidth = 0.01; // the campaign's (levels or adaptive), for the plans
  std::vector<ExecutionConditions> executions;
  std::vector<DuetSyncRow> duetSync; // how a duet kept its partners together
  // For the reader: the machine as first recorded, and the factors.
  std::optional<MachineState> machine;
  std::string factors;
  // The iterations dropped as warm-up (iteration < warmup), for the warm-up figure.
  std::vector<MeasurementPoint> warmupMeasurements;
  // Several metrics per execution (docs/measure.md): the metric `measurements`
  // are of, the one the decision is on ("" for a campaign of one measure),
  // and the measurements of every other metric, in the campaign file's order.
  std::string decidedOn;
  // The benchmarks whose decision is on a simulated count (a sim-* metric,
  // Valgrind's): values no other process on the machine can move.
  std::set<std::string> simulated;
  struct Metric {
    std::string name, unit;
    std::vector<MeasurementPoint> measurements;
  };
  std::vector<Metric> otherMetrics;
  // Per-function simulated profiles of the builds (issue 20; none: no
  // simulated metric, or an older store), one per system and benchmark.
  std::vector<analysis::AttributionInput> attribution;
};

struct CampaignReportOptions {
  std::size_t bootstrapReplicates = 2000;
  unsigned threads = 0;              // 0 = all cores; results do not depend on it
  std::optional<std::uint64_t> seed; // bootstrap seed; default: the campaign's
  // The ratio planner's target (relative half-width), and whether it keeps
  // the campaign's executions and iterations (an adaptive campaign's batches).
  std::optional<double> targetHalfWidth;
  bool planKeepsLowerCounts = false;
  // Three or more systems: compare every pair too (analysis::ReportOptions::allPairs).
  bool allPairs = false;
  // A benchmark some systems have no data of (their builds failed) is
  // analysed with the others, if the baseline is among them, instead of not
  // at all (`alea history`: one broken commit must not hide the rest).
  bool skipSystemsWithoutData = false;
};

// A group of failed executions with the same system, benchmark and cause.
struct FailureGroup {
  std::string system, benchmark, status, cause;
  std::size_t count = 0;
  std::vector<std::string> where; // "build 0 execution 2", first few
  std::string stderrTail;         // of the first one, last lines only
};

// One [[target]] of a campaign, as the report names it: its name and the
// machine state first recorded there (none: it never answered).
struct TargetReport {
  std::string name;
  std::optional<MachineState> machine;
};

// The report value every renderer draws from (report/render.hpp): the
// engine's statistics, the figures' numbers, and what only the runner knows.
// `alea analyze` fills only the statistics and figures (campaign = false).
struct CampaignReport : CampaignSummary {
  bool campaign = true;     // from a campaign store (false: `alea analyze` on a table)
  bool layoutStudy = false; // one system: a layout-sensitivity study
  std::int64_t failed = 0;
  std::size_t measurements = 0, builds = 0, failedBuilds = 0;
  std::vector<FailureGroup> failures;
  // Of each benchmark's values ("s" for times); absent: "s".
  std::map<std::string, std::string> units;
  // How the plan ordered and paired the executions, in one sentence.
  std::string design = "unpaired", designNote;
  // The iterations dropped as warm-up at the start of every execution.
  int warmup = 0;
  // The [[target]]s the executions ran on (none: this host), and how
  // machines entered the analysis ("pool" or "level").
  std::vector<TargetReport> targets;
  std::string machines;
  // Measurements imported from other tools (`alea import`): from where.
  std::string importedFrom;
  // The noise diagnosis of each benchmark (analysis/noise.hpp): where the
  // execution-level variance came from and what would shrink it.
  struct Noise {
    std::string benchmark;
    std::optional<analysis::NoiseDiagnosis> diagnosis;
    std::string error; // why there is none (too few executions, an old store)
  };
  std::vector<Noise> noise;
  std::size_t ranBusy = 0;              // executions the quiet gate let run while busy
  std::vector<std::string> adaptiveLog; // an adaptive campaign's decisions
  // Campaign warnings (also appended to analysis->warnings).
  std::vector<std::string> warnings;
  // The engine's report; absent when no benchmark has data enough to analyse.
  std::optional<analysis::Report> analysis;
  std::string analysisError; // why the engine failed, when it did
  // The campaign's facts for the reader, in order: machine, compilers,
  // seeds, factors ("" values are left out).
  std::vector<std::pair<std::string, std::string>> facts;
  // The numbers behind the figures (analysis/figures.hpp), per benchmark.
  std::vector<analysis::BenchmarkFigures> figures;
  // Several metrics per execution: the metric `analysis` (the decision, the
  // exit status) is on ("" for a campaign of one measure), and every other
  // metric's statistics, computed as the decision metric's (same designs,
  // levels, pairing, confidence and threshold; no figures or diagnostics).
  std::string decidedOn;
  struct Metric {
    std::string name, unit;
    std::optional<analysis::Report> analysis;
    std::string error; // why there is none
  };
  std::vector<Metric> otherMetrics;
  // Which functions' placement matters (analysis/attribution.hpp), per
  // system and benchmark with profiles; empty: no section in any format.
  std::vector<analysis::Attribution> placement;
};

// Pure: the data in, the report out (never fails: what cannot be analysed is
// said in warnings).
CampaignReport buildCampaignReport(const CampaignData &data,
                                   const CampaignReportOptions &options = {});

// The pipeline from rows to the report value, shared by `alea analyze` and
// buildCampaignReport: the engine's report and the figures of `table`
// (`warmup`: the iterations dropped as warm-up, or nullptr). Fails as
// analysis::buildReport does.
Expected<CampaignReport> analyzeTable(const analysis::Table &table,
                                      const analysis::ReportOptions &options,
                                      const analysis::Table *warmup = nullptr,
                                      std::size_t warmupIterations = 0);

} // namespace alea::model
