// The named steps of the report model (report.hpp), private to
// analysis/src/report: report.cpp runs them in order (buildReport,
// buildPlans); each step lives in the file named beside it. Not installed:
// nothing outside this folder includes it.
#pragma once

#include "alea/analysis/bootstrap.hpp"
#include "alea/analysis/hierarchy.hpp"
#include "alea/analysis/message.hpp"
#include "alea/analysis/report.hpp"
#include "alea/analysis/scale.hpp"
#include "alea/analysis/table.hpp"
#include "alea/analysis/variance.hpp"
#include "alea/expected.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace alea::analysis::detail {

// --- words every step uses ----------------------------------------------------

inline std::string quotedName(const std::string &s) { return quoteForMessage(s); }

// " on benchmark "x"", or "" for the single unnamed benchmark.
inline std::string where(const std::string &benchmark) {
  return benchmark.empty() ? std::string() : " on benchmark " + quotedName(benchmark);
}

inline Expected<Hierarchy> hierarchyOf(const SystemData &sys,
                                       const std::vector<std::string> &levels) {
  return makeHierarchy(levels, sys.shape, flatten(sys));
}

// 0.038 -> "3.8%".
inline std::string percent(double fraction, int digits = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f%%", digits, fraction * 100.0);
  return buf;
}

// --- advice.cpp: the planners ---------------------------------------------------

// ReportOptions::costs checked against the data's levels (empty: 1 each).
Expected<std::vector<double>> overheadsFor(const std::vector<double> &costs, std::size_t depth);
PlanAdvice advise(const Hierarchy &h, const std::vector<double> &costs,
                  std::optional<double> targetHalfWidth, std::optional<double> budgetSeconds,
                  double confidence);
RatioPlanAdvice adviseRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                            const std::vector<double> &costs, double targetHalfWidth,
                            double confidence, double rho, bool keepLowerCounts,
                            double varianceFactor);

// --- system.cpp: one system -----------------------------------------------------

std::vector<LevelReport> levelReports(const Hierarchy &h, const VarianceComponents &vc);
Expected<SystemReport> systemReport(const SystemData &sys, const Hierarchy &h,
                                    const std::string &benchmark, const ReportOptions &o);

// --- balancing.cpp: what balancing did, in words ----------------------------------

constexpr const char *kBalanceHint = "use --unbalanced=auto, trim, mixed or drop to balance it";
bool lostTopUnits(const SystemBalance &b);
std::string afterBalancing(const std::vector<SystemBalance> &systems, const std::string &benchmark,
                           const std::string &system, const std::string &top);
std::string balanceWarning(const std::vector<DroppedUnits> &dropped);

// --- rescale.cpp: each benchmark's scale --------------------------------------------

std::vector<Expected<ValueScale>> scaleBenchmarks(std::vector<BenchmarkData> &benchmarks);
double timesPowerOfTwo(double v, long sum, long count);
std::string unscaleLevels(std::vector<LevelReport> &levels, int exponent);
Status unscaleBenchmark(BenchmarkReport &b, const ValueScale &scale);

// --- pairing.cpp: paired designs (issue 8) --------------------------------------------

// Top-level unit "3" of the candidate ran together with unit "3" of the
// baseline (interleaved pairs or duet): the pairs are the labels both systems
// still have after balancing, in the baseline's order. Each system is
// balanced on its own, so a subset of its top-level units is balanced too.
// The outcome (paired or not, how many pairs, their correlation and the
// note) is the report's PairingOutcome.
struct PairedData : PairingOutcome {
  Hierarchy candidate, baseline; // the paired units, pair i = unit i of each
  std::size_t unmatched = 0;     // top-level units of either system without a partner
};

Expected<PairedData> pairByLabel(const SystemData &cand, const SystemData &base,
                                 const std::vector<std::string> &levels, const ReportOptions &o);

// --- comparison.cpp and holm.cpp: one comparison, one family -------------------------

// One comparison, `candidate` over `baseline` on one benchmark: pairing,
// Fieller's interval, the ratio planner, the bootstrap, the decision with its
// warnings and the Speedup-Test, plus what Holm's family needs later. The
// same for the candidates vs the baseline and, with allPairs, for every pair
// of candidates (issue 10).
struct Comparison {
  RatioReport report;
  std::vector<double> replicates; // the bootstrap's, in replicate order
  // Fieller again at other levels (the p-value, Holm's step): the top-level
  // means it used (the pairs when paired), as one-level hierarchies.
  Hierarchy fiellerCandidate, fiellerBaseline;
  double varianceFactor = 1; // RatioReport::neighbourFactor, 1 when none
};

// Fieller's interval of a comparison at another confidence level, when bounded.
std::optional<Interval> fiellerAt(const Comparison &c, double confidence, IntervalMethod method);
Expected<Comparison> compare(const SystemData &candidateData, const Hierarchy &cand,
                             const SystemData &baselineData, const Hierarchy &base,
                             const std::string &benchmark, const std::string &seedKey,
                             const Table &table, const BalanceResult &balanced,
                             const ReportOptions &options, std::vector<std::string> &warnings);
void holmFamily(std::vector<Comparison> &family, const ReportOptions &options);

// --- suite.cpp: the suite level -----------------------------------------------------

// What one benchmark gives the suite for one candidate vs the baseline.
struct SuiteEntry {
  std::string benchmark;
  std::vector<double> replicates; // the bootstrap's ratio replicates, in order
  double estimate = 0;
  Decision decision = Decision::Inconclusive;
  BenchmarkRuns runs; // top-level means, in the benchmark's scale
  int exponent = 0;   // the benchmark's ValueScale::exponent
};

SuiteRatioReport suiteRatio(const std::string &candidate, const std::vector<SuiteEntry> &entries,
                            const Report &report, const ReportOptions &options);
std::vector<SuiteSystemReport> empiricalSuite(const std::vector<BenchmarkData> &benchmarks,
                                              const std::vector<std::optional<int>> &exponents,
                                              const Report &report, const Table &table,
                                              const ReportOptions &o);

// --- benchmark.cpp: one benchmark -----------------------------------------------------

// One benchmark's analysis: its report (systems, ratios, pairs, warnings,
// location results back in the data's unit) and what it gives the suite.
struct BenchmarkAnalysis {
  BenchmarkReport report;
  std::vector<std::pair<std::string, SuiteEntry>> suite; // per candidate vs the baseline
};

Expected<BenchmarkAnalysis> analyseBenchmark(const BenchmarkData &bench, const ValueScale &scale,
                                             const std::string &baseline, const Table &table,
                                             const BalanceResult &balanced,
                                             const ReportOptions &options);

} // namespace alea::analysis::detail
