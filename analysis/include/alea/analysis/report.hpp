// The report model shared by `alea analyze` (CSV in) and `alea report` (the
// runner's SQLite store in): from a Table of measurements to one value struct
// per benchmark holding, per system, the mean with its t and bootstrap CIs and
// the Kalibera-Jones variance components; per candidate, the ratio to the
// baseline with Fieller's and the bootstrap interval, the threshold decision
// and a disagreement warning; the planner's advice; the Speedup-Test on the
// top-level means; and, for suites, the geometric-mean ratio, the proportion
// of benchmarks decided faster, the gain factor and each system's empirical
// distribution (Touati; Li, Chen & Peng). Nothing here
// reads files or prints: report/ (report/render.hpp) renders it.
//
// Use from the runner (no CSV involved):
//   alea::analysis::Table table({"build", "execution", "iteration"});
//   table.add(system, benchmark, {build, execution, iteration}, seconds);
//   ...
//   alea::analysis::ReportOptions options;        // defaults: docs/analyze.md
//   options.costs = {buildCost, executionCost};   // measured, in measurements
//   auto report = alea::analysis::buildReport(table, options);
//   if (!report) -> report.error()                // one sentence
//   report->warnings.push_back("2 executions of cand failed");  // yours
//   then report/render.hpp renders it (through runner::CampaignReport).
#pragma once

#include "alea/analysis/bootstrap.hpp"
#include "alea/analysis/decision.hpp"
#include "alea/analysis/fieller.hpp"
#include "alea/analysis/interval.hpp"
#include "alea/analysis/resampling.hpp"
#include "alea/analysis/speedup_test.hpp"
#include "alea/analysis/table.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::analysis {

// Whether the candidate's and the baseline's top-level units are paired
// (issue 8): in an interleaved-pairs design (Abedi & Brecht ICPE 2017) or a
// duet (Bulej et al. ICPE 2020), build i of every system ran together and the
// two build means share the time-correlated noise.
enum class Pairing {
  Unpaired, // independent systems (TR 2012): fiellerRatio, bootstrapRatio
  Paired,   // pair top-level units by LABEL: fiellerPairedRatio, bootstrapPairedRatio
};

struct ReportOptions {
  // The denominator system of every ratio; empty = the first system seen.
  std::string baseline;
  double confidence = 0.95;
  // Decision threshold (relative; 0.01 = 1%), TR 2012 §4.2: faster iff the
  // upper limit < 1 - thr, slower iff the lower limit > 1 + thr.
  double threshold = 0.01;
  IntervalMethod ciMethod = IntervalMethod::T;
  // Hierarchical bootstrap (TR 2012 Fig. 1/2).
  std::size_t bootstrapReplicates = 2000;
  std::uint64_t seed = 0;
  unsigned threads = 0; // 0 = all cores; results do not depend on it
  ResamplingScheme scheme{};
  // Fieller and the bootstrap "disagree materially" when an endpoint of one
  // differs from the same endpoint of the other by more than this fraction of
  // the wider of the two intervals (docs/analyze.md).
  double disagreementFraction = 0.25;
  // docs/analyze.md: per system, trim, mixed or drop, whichever balanced shape
  // gives the grand mean the smallest variance under equal variance
  // components (table.hpp balance(), meanVarianceFactor()).
  UnbalancedPolicy unbalanced = UnbalancedPolicy::Auto;
  // Planner: overhead of starting one unit at each level except the lowest,
  // highest first, in units of one lowest-level measurement (planner.hpp).
  // Empty = 1 for every level (a new unit costs as much as one measurement).
  std::vector<double> costs;
  // Target relative half-width (0.01 = +-1%) for the planner's advice: of
  // each system's mean ("top-level units needed") and of each ratio
  // (RatioReport::ratioPlan).
  double targetHalfWidth = 0.01;
  // The ratio planner keeps the data's counts below the top level and plans
  // only the top level (an adaptive campaign adds builds of the same shape).
  bool ratioPlanKeepsLowerCounts = false;
  // Extra methods computed on the top-level means: Touati's Speedup-Test;
  // diagnostics (outliers, layout modes, warm-up trends); for suites, the
  // Li-Chen-Peng randomization test.
  bool speedupTest = true;
  bool diagnostics = true;
  std::size_t randomizationReplicates = 10000;
  // Paired: per candidate, the top-level units whose label both it and the
  // baseline have (after balancing) are paired, unit "3" with unit "3"; with
  // fewer than 2 such pairs that ratio falls back to unpaired (RatioReport
  // says why). The suite's Li-Chen-Peng top-level bootstrap and randomization
  // test stay unpaired.
  Pairing pairing = Pairing::Unpaired;
  // Suites: the absolute half-width wanted for the CI of the proportion of
  // benchmarks decided faster, for the "benchmarks needed" advice (seed 002
  // s189-s192; its example: 0.05).
  double proportionHalfWidth = 0.05;
  // Three or more systems: also compare every pair of candidates (Holm's
  // family is then all pairs).
  bool allPairs = false;
};

// One level of one system: TR 2012 §6.1 estimators (variance.hpp).
struct LevelReport {
  std::string name;
  std::size_t n = 0;    // repetition count in the (balanced) data
  double s2 = 0;        // S_i^2
  double t2 = 0;        // T_i^2 (may be negative)
  double share = 0;     // share of the variance, 0..1 (0 when removed)
  bool removed = false; // T^2 <= 0: pooled into the level below for planning
};

// What both planners advise (PlanAdvice for one system's mean,
// RatioPlanAdvice for a ratio): the count per level that reaches a target
// relative half-width, or why there is no plan.
struct PlanCounts {
  bool ok = false;
  std::string error;                   // why no plan (when !ok)
  std::vector<std::string> levelNames; // highest first
  std::vector<std::size_t> counts;     // per level; counts[0]: top-level units (per system)
  std::vector<bool> removed;           // levels the plan drops (count 1)
  double targetHalfWidth = 0;          // relative (to the mean or to the ratio)
  double predictedHalfWidth = 0;       // relative, with counts[0] top-level units
  bool defaultCosts = true;            // ReportOptions::costs was empty
};

// The planner's advice for the next campaign of one system.
struct PlanAdvice : PlanCounts {
  std::optional<std::size_t> topUnitsNeeded; // for targetHalfWidth; none if > 1000
  double costPerTopUnit = 0;                 // in measurements
  // The top level showed T^2 <= 0: planned with the upper confidence bound of
  // its variance (planner.hpp topComponentForPlanning); topNote says so with
  // the number.
  bool topUpperBound = false;
  std::string topNote;
};

// The ratio planner's advice for one candidate vs the baseline
// (ratio_planner.hpp): the counts that reach ReportOptions::targetHalfWidth
// on the RATIO (relative), with the same lower counts for both systems;
// predictedHalfWidth is Fieller's.
struct RatioPlanAdvice : PlanCounts {
  bool reachable = false;         // counts[0] <= the cap (1000)
  double rho = 0;                 // correlation of paired top-level means used
  double varianceFactor = 1;      // for the noise neighbouring blocks share (1: none)
  double costPerPair = 0;         // one top-level unit of each system, in measurements
  double totalCost = 0;           // counts[0] x costPerPair, in measurements
  double measurementValue = 0;    // mean measurement of the pair (data unit)
  double totalTime = 0;           // totalCost x measurementValue (data unit)
  bool upperBound = false;        // the T^2 <= 0 fallback was used
  std::vector<std::string> notes; // one sentence per fallback, with the number
};

// Diagnostics of one system (diagnostics.hpp): reported, nothing is dropped.
struct DiagnosticsReport {
  bool ok = false;
  std::string error;
  std::size_t measurementOutliers = 0;   // vs their execution's median (Tukey/MAD)
  std::size_t measurementFarOut = 0;     // beyond the outer Tukey fences
  std::vector<std::string> outlierUnits; // top-level units whose mean is an outlier
  bool modesTested = false;              // needs >= 4 top-level units
  bool multimodal = false;               // top-level means form two clusters
  double modeGap = 0;                    // (high - low) / low cluster mean
  double modePValue = 1;
  std::size_t lowUnits = 0, highUnits = 0;
  bool trendsTested = false; // needs >= 2 levels and >= 3 iterations
  std::size_t trendExecutions = 0, trendFlagged = 0, trendDecreasing = 0;
};

// The layout effect of one system (issue 10, "honest layout sensitivity"):
// from the variance components, not from the max/min of build means, which
// carry execution and iteration noise too. sigma^2 of the layout level is
// T^2 = S_top^2 - S_below^2 / n_below (TR 2012 §6.1); its interval is the
// modified large-sample (MLS) interval of a difference of expected mean
// squares (Graybill & Wang 1980; Burdick & Graybill 1992 §3), clipped at 0,
// relative to the grand mean (the mean's own uncertainty is ignored). The
// spread expected between the best and worst of n layouts is d2(n) x sigma,
// d2(n) the expected range of n standard normals (layout means assumed
// normal). docs/report.md.
struct LayoutEffect {
  bool ok = false;
  std::string error;     // why not (a single level, fewer than 2 units)
  std::string level;     // the level whose units are layouts ("build")
  std::size_t units = 0; // layouts (top-level units) in the data
  double share = 0;      // of the variance, 0..1 (LevelReport::share)
  double sd = 0;         // sigma, in the data's unit (0 when T^2 <= 0)
  double relativeSd = 0; // sigma / grand mean
  Interval relativeSdCi; // MLS interval of sigma / grand mean, at the report's confidence
  double d2 = 0;         // expected range of `units` standard normals
  // d2(units) x relativeSd (and its interval): the best-to-worst spread of
  // `units` layouts expected from the layout effect alone.
  double expectedSpread = 0;
  Interval expectedSpreadCi;
  // The observed max/min - 1 of the top-level unit means: includes execution
  // and iteration noise; always labelled so.
  double observedSpread = 0;
};

struct SystemReport {
  std::string name;
  std::vector<std::size_t> shape; // counts per level, highest first
  std::size_t measurements = 0;
  double mean = 0;
  MeanInterval ci;           // t (or normal) CI of the mean
  BootstrapResult bootstrap; // bootstrap CI of the mean
  std::vector<LevelReport> levels;
  bool topLevelWithoutVariation = false;
  // The top-level unit means (e.g. of the builds), in the units' order: the
  // observations of the t interval, and of the steps over revisions
  // (revision_steps.hpp).
  std::vector<double> topMeans;
  // Layout sensitivity: the extreme top-level unit means (e.g. builds).
  double bestUnitMean = 0, worstUnitMean = 0;
  std::string bestUnit, worstUnit;
  LayoutEffect layout;
  PlanAdvice plan;
  DiagnosticsReport diagnostics;
};

struct SpeedupTestReport {
  bool ok = false;
  std::string error;
  double meanSpeedup = 0, medianSpeedup = 0; // baseline / candidate
  std::string meanVerdict, medianVerdict;
  double probabilityBaselineSlower = 0; // P(X_baseline > X_candidate)
  bool probabilityAboveHalf = false;
  std::vector<std::string> notes;
};

// How a comparison was paired (ReportOptions::pairing). When `paired`, the
// estimate, Fieller's and the bootstrap interval come from the paired methods
// on the `pairs` top-level units both systems have; pairCorrelation is the
// correlation of the paired top-level means (0 when unpaired). pairingNote is
// one sentence saying which method was used and why, e.g. "paired by build (8
// pairs; correlation of the build means 0.62)" or "unpaired: only 1 build pair
// has data in both systems".
struct PairingOutcome {
  bool paired = false;
  std::string pairingNote;
  std::size_t pairs = 0;
  double pairCorrelation = 0;
};

struct RatioReport : PairingOutcome {
  std::string candidate, baseline;
  double estimate = 0; // mean(candidate) / mean(baseline)
  double confidence = 0.95;
  FiellerStatus fiellerStatus = FiellerStatus::Unbounded;
  std::optional<Interval> fieller; // only when bounded
  double fiellerDf = 0;
  Interval bootstrap;
  double threshold = 0.01;
  Decision decision = Decision::Inconclusive;
  std::string decisionBasis; // "fieller", or "bootstrap" when Fieller is unbounded
  bool disagreement = false; // see ReportOptions::disagreementFraction
  std::optional<SpeedupTestReport> speedupTest;
  // Top-level units of each system. When they differ (a lost build), Fieller
  // takes nu = min(n) - 1 (fieller.hpp) and the report warns.
  std::size_t candidateTopUnits = 0, baselineTopUnits = 0;
  bool unequalTopUnits() const { return candidateTopUnits != baselineTopUnits; }
  // Its pairing: PairingOutcome.
  // Paired, with the measurements' start times (Table rows' order): the
  // factor Fieller's variances were multiplied by for the noise neighbouring
  // blocks share (neighbourVarianceFactor, issue 19; >= 1). Empty when the
  // times are unknown (a CSV) or the comparison is unpaired.
  std::optional<double> neighbourFactor;
  // What reaches ReportOptions::targetHalfWidth on this ratio.
  RatioPlanAdvice ratioPlan;
  // Three or more systems (issue 10): the comparisons of one benchmark form a
  // family; Holm's step-down procedure (Holm 1979) controls the family-wise
  // error of the decisions. pValue: the smallest alpha at which this ratio's
  // Fieller interval (bootstrap when Fieller is unbounded) at 1 - alpha lies
  // wholly beyond the threshold band on one side (1 when the estimate is
  // inside the band); adjustedP: Holm's adjusted p-value; the interval is
  // recomputed at the level Holm's step tests this comparison at,
  // 1 - alpha / (m - rank), and familyDecision is the decision at that step
  // (faster/slower only when Holm rejects; no change when the adjusted
  // interval lies within the band). docs/report.md.
  struct Family {
    std::size_t size = 0; // comparisons in the family (m)
    std::size_t rank = 0; // 0 = smallest p-value
    double pValue = 1, adjustedP = 1;
    double level = 0.95; // confidence of the adjusted interval
    std::optional<Interval> interval;
    Decision decision = Decision::Inconclusive;
  };
  std::optional<Family> family;
};

struct BenchmarkReport {
  std::string name; // "" for a single unnamed benchmark
  // Why this benchmark has no statistics (empty when it has them): its values
  // are refused (scale.hpp) or its analysis failed (e.g. a system left with
  // one top-level unit). Then systems, ratios and pairs are empty, and the
  // suite leaves the benchmark out. The other benchmarks are analysed as if
  // it were not there.
  std::string error;
  std::vector<SystemReport> systems; // baseline first, then table order
  std::vector<RatioReport> ratios;   // one per candidate, vs the baseline
  // ReportOptions::allPairs: every other pair of candidates (the later one in
  // table order over the earlier), in the same Holm family as `ratios`.
  std::vector<RatioReport> pairs;
  std::vector<std::string> warnings;
};

// Several benchmarks: the geometric mean over benchmarks of each candidate's
// ratio of means, with a percentile bootstrap CI resampling each system within
// each benchmark (Li, Chen & Peng, §IV) from the same hierarchical resamples.
struct SuiteRatioReport {
  std::string candidate, baseline;
  std::size_t benchmarks = 0; // benchmarks with this candidate's ratio
  // The report's benchmarks without one (no statistics, or no data of the
  // baseline or the candidate), in report order: left out of every figure here.
  std::vector<std::string> leftOut;
  double geometricMean = 0;
  Interval bootstrap;
  double confidence = 0.95;
  Decision decision = Decision::Inconclusive;
  std::size_t faster = 0, slower = 0; // benchmarks decided each way
  // Li, Chen & Peng §IV exactly: the percentile bootstrap of the GM ratio
  // resampling each system's top-level means within each benchmark.
  bool topLevelBootstrapOk = false;
  Interval topLevelBootstrap;
  // Li, Chen & Peng §III randomization test on the top-level means, stratified
  // by benchmark (resampling.hpp): two-sided Monte Carlo p-value.
  bool randomizationOk = false;
  std::string randomizationError;
  double randomizationP = 1;
  bool randomizationExhaustive = false;
  std::size_t randomizationReplicates = 0;
  // Touati's suite level (seed 002 §1.5; speedup_test.hpp): the proportion of
  // the benchmarks decided `faster` above, with R prop.test's interval
  // (Wilson, continuity-corrected) and the paper's Wald formula.
  std::optional<SuiteProportion> proportion;
  std::string proportionError;
  // Benchmarks needed for that CI to be +-proportionHalfWidth (absolute,
  // s189-s192), at the observed proportion and at 1/2 (the worst case, which
  // is the only useful one when the observed proportion is 0 or 1: there the
  // observed one is nullopt, as C(1 - C) = 0 would ask for 1 benchmark).
  double proportionHalfWidth = 0;
  std::optional<std::size_t> benchmarksNeeded, benchmarksNeededWorstCase;
  // Seed 002 §1.4's gain factor G = 1 - sum W med(T') / sum W med(T) on the
  // medians of each benchmark's top-level means, over all benchmarks and over
  // those decided faster (the paper's recommended set; none: nullopt), with
  // the paper's baseline-median weights and with unit weights. A point value.
  std::optional<double> gainAll, gainAllUnitWeights, gainFaster, gainFasterUnitWeights;
};

// Li, Chen & Peng §V for one system of a suite (resampling.hpp): the
// empirical distribution of its geometric mean over benchmarks when each
// benchmark contributes one top-level mean drawn at random, summarised by its
// five numbers.
struct SuiteSystemReport {
  std::string name;
  std::size_t benchmarks = 0;       // analysed benchmarks with data of this system
  std::vector<std::string> leftOut; // the report's other benchmarks, in order
  double observed = 0;              // geometric mean of the benchmark means
  std::size_t replicates = 0;
  FiveNumberSummary summary;
};

struct Report {
  std::vector<std::string> levels; // highest first
  std::string baseline;
  ReportOptions options; // as used (baseline filled in)
  std::vector<BenchmarkReport> benchmarks;
  std::vector<SuiteRatioReport> suite; // empty for one benchmark
  // Unbalanced data: what was found and what trimming dropped.
  std::vector<BalanceIssue> unbalanced;
  std::vector<DroppedUnits> dropped;
  // General warnings; the runner appends its own (failed runs, machine state).
  std::vector<std::string> warnings;
  // Per unbalanced system: the policy applied and what each would remove.
  std::vector<SystemBalance> balancing;
  // Per system, for suites (empty for one benchmark), in table order.
  std::vector<SuiteSystemReport> suiteSystems;
};

// The whole analysis. Fails (one sentence) on: an unknown baseline, bad
// options, unbalanced data under UnbalancedPolicy::Error, a duplicate
// measurement, or when no benchmark can be analysed (one benchmark: its
// error; several: each benchmark's). A benchmark that cannot be analysed (its
// values refused by chooseValueScale(), a system with fewer than 2 top-level
// units after balancing, an interval beyond the double range) gets
// BenchmarkReport::error and the others their statistics.
Expected<Report> buildReport(const Table &table, const ReportOptions &options = {});

// The per-level component table and plan for `alea plan`: one system's pilot
// data, its overheads and a target (relative half-width or budget).
struct PlanRequest {
  std::vector<double> costs;             // as ReportOptions::costs (empty = all 1)
  std::optional<double> targetHalfWidth; // relative, e.g. 0.01
  std::optional<double> budget;          // in the same unit as the values (seconds)
  double confidence = 0.95;
};

struct PlanReport {
  std::string system, benchmark;
  std::vector<LevelReport> levels; // the pilot's components
  double mean = 0;
  PlanAdvice plan;
  std::vector<double> overheads;           // highest first, in measurements
  std::optional<double> budget;            // seconds
  double budgetMeasurements = 0;           // budget / mean
  double relativeSd = 0;                   // of the top-level means, for the KJ13 rule
  std::optional<std::size_t> kj13TopCount; // KJ13 Tables 6/7 rule
};

struct PlanSet {
  std::vector<std::string> levels;
  std::vector<PlanReport> plans; // per benchmark and system
  std::vector<BalanceIssue> unbalanced;
  std::vector<DroppedUnits> dropped;
  std::vector<SystemBalance> balancing; // as Report::balancing
};

Expected<PlanSet> buildPlans(const Table &table, const PlanRequest &request,
                             UnbalancedPolicy unbalanced = UnbalancedPolicy::Auto);

// "3.8% faster" / "2.1% slower" / "no change" for a ratio of times.
std::string describeRatio(double ratio);

// Command-line helpers shared by `alea analyze`, `alea plan` and `alea report`.
// A fraction written as "0.01" or "1%" (-> 0.01); fails on anything else.
Expected<double> parseFraction(std::string_view text);
// Planner costs, one per level except the lowest: "c1,c2,..." highest level
// first (e.g. "5343,19" for build,execution) or by name in any order
// ("execution=19,build=5343"); each a finite number >= 0.
Expected<std::vector<double>> parseCosts(std::string_view text,
                                         const std::vector<std::string> &levels);

} // namespace alea::analysis
