// Planning for the RATIO candidate/baseline (issue 8, items 4-5): the
// repetition counts below the top level and the number of top-level units
// (builds per system) for a target RELATIVE half-width of Fieller's interval
// of the ratio of means; the upper-confidence-bound fallback for a top level
// without variance (T^2 <= 0); and the adaptive stopping rule that adds builds
// in batches until the ratio's interval is narrow enough.
//
// Method (docs/statistics.md §6, "Planning the ratio"):
//  - Relative components: each system's T_i^2 (TR 2012 §7.6, S-version)
//    divided by its mean squared; their SUM per level is the variance that the
//    delta method gives for log(ratio) (var log R ~ var(Yc)/mc^2 +
//    var(Yb)/mb^2, independent systems), so TR 2012 eq. 14 on the summed
//    relative components chooses the lower counts shared by both systems.
//  - Top-level count: the smallest n with the predicted Fieller interval
//    (spec_000 §4.2 general form, with the covariance rho sqrt(Vc Vb)/n for
//    paired top-level units) at most the target, relative to the ratio.
//  - Fallback: a system whose top level shows T^2 <= 0 gets, for planning, the
//    one-sided (1 - alpha) chi-square upper bound of E[S_top^2] minus the
//    lower-level contribution, floored at 1e-6 of its total variance
//    (planner.hpp topComponentForPlanning).
//
// Costs are as in planner.hpp (overheads highest first, in units of one
// measurement), for the PAIR: each overhead is the mean of the two systems'
// overheads, in units of the mean of their two measurement times. One build
// pair then costs exactly 2 x (the cost of one top-level unit under these
// averaged costs), and eq. 14 minimises the combined variance for that cost.
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/analysis/interval.hpp"
#include "alea/analysis/planner.hpp"
#include "alea/enum_names.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace alea::analysis {

// ---------------------------------------------------------------- ratio plan

// A system's pilot as the ratio planner needs it: its shape (highest first),
// S_i^2 per level (variance.hpp sSquared) and grand mean (> 0).
struct RatioPilot {
  std::vector<std::string> levelNames; // highest first
  std::vector<std::size_t> shape;      // pilot counts, highest first
  std::vector<double> s2;              // S_i^2, highest first
  double mean = 0;
};

// From data: names, shape, sSquared(h) and grandMean().
RatioPilot ratioPilotOf(const Hierarchy &h);

struct RatioPlanOptions {
  // Pair-averaged overheads (see the header comment), highest first, size
  // depth - 1, each finite and >= 0.
  std::vector<double> overheads;
  double targetHalfWidth = 0.01; // relative to the ratio (0.01 = +-1%)
  double confidence = 0.95;
  // Correlation of the two systems' paired top-level means (0 = independent
  // systems, the unpaired design of TR 2012). In [-1, 1]; it enters only the
  // top-level count (the lower counts ignore it).
  double rho = 0;
  // A paired campaign's factor for the noise neighbouring blocks share
  // (fieller.hpp, neighbourVarianceFactor; >= 1, 1 = none): it multiplies the
  // variances and the covariance of the top-level means, as in the paired
  // Fieller interval the plan predicts.
  double varianceFactor = 1;
  std::size_t maxTopCount = 1000; // the top-level count searched up to
  // When set, the counts below the top (size depth - 1, highest first, each
  // >= 1) are taken as given instead of eq. 14: for a campaign whose lower
  // levels are fixed (the adaptive rule re-plans only the builds).
  std::optional<std::vector<std::size_t>> lowerCounts;
};

struct RatioPlannedLevel {
  std::string name;
  std::size_t count = 1; // planned count (top: the n found; see RatioPlan)
  double exact = 1;      // unrounded eq. 14 value (top and fixed: = count)
  double overhead = 0;   // the overhead used for this level (after merging)
  bool removed = false;  // summed relative T^2 <= 0: count 1, overhead merged up
  // The components used, relative (T^2 / mean^2); for the top level the
  // fallback's value where it was used. combined = candidate + baseline
  // (negative values as 0).
  double candidate = 0, baseline = 0, combined = 0;
};

struct RatioPlan {
  std::vector<RatioPlannedLevel> levels; // highest first; levels[0].count = topCount
  std::size_t topCount = 0;              // builds per system: the smallest n reaching the
                                         // target, or maxTopCount when !reachable
  bool reachable = false;                // target reached with topCount <= maxTopCount
  double predictedHalfWidth = 0;         // relative, Fieller, at topCount (inf if unbounded)
  double targetHalfWidth = 0;
  double ratio = 0; // candidate mean / baseline mean of the pilot
  double confidence = 0.95;
  double rho = 0;
  double varianceFactor = 1; // RatioPlanOptions::varianceFactor
  // Relative variance of one top-level unit's mean with the planned lower
  // counts, per system (V / m^2).
  double candidateUnitVariance = 0, baselineUnitVariance = 0;
  double costPerTopUnit = 0; // one build of one system, in measurements
  double costPerPair = 0;    // one build of each system = 2 x costPerTopUnit
  double totalCost = 0;      // topCount x costPerPair
  // The fallback (topComponentForPlanning) per system.
  TopComponent candidateTop, baselineTop;
  bool fallbackUsed() const { return candidateTop.upperBound || baselineTop.upperBound; }
  // One sentence per system that used the fallback, with the number.
  std::vector<std::string> notes;
};

// The ratio plan from the two pilots (same depth and level names; shapes may
// differ). Fails (one sentence) on mismatched pilots, fewer than 2 top-level
// units, a mean <= 0, bad options, or a zero overhead below the top where
// eq. 14 would divide by it.
Expected<RatioPlan> planRatio(const RatioPilot &candidate, const RatioPilot &baseline,
                              const RatioPlanOptions &options);
Expected<RatioPlan> planRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                              const RatioPlanOptions &options);

// The predicted relative half-width of Fieller's interval with n top-level
// units per system (t_{1-alpha/2, n-1}; general form with v_mm = f Vc/n, v_dd =
// f Vb/n, v_md = f rho sqrt(Vc Vb)/n on relative variances, f the plan's
// varianceFactor): half the interval's
// width divided by the ratio. Infinity when n < 2 or the interval is
// unbounded. Non-increasing in n.
double predictedRatioHalfWidth(const RatioPlan &plan, std::size_t n);

// Half an interval's width relative to an estimate: (upper - lower) / 2 / |estimate|.
double relativeHalfWidth(const Interval &interval, double estimate);

// ---------------------------------------------------------------- stopping rule

// The adaptive stopping rule for one (benchmark, candidate) pair. It looks at
// the PRECISION only (the relative half-width of the ratio's interval), never
// at the estimate or the decision, so that stopping does not select
// favourable estimates (docs/statistics.md, "Adaptive stopping").
struct StoppingInput {
  // Relative half-width of the current ratio interval (relativeHalfWidth());
  // infinity when Fieller is unbounded.
  double halfWidth = 0;
  double targetHalfWidth = 0.01;
  std::size_t builds = 0; // current builds per system
  // The ratio planner's topCount for the target, from the current data
  // (planRatio with lowerCounts = the campaign's); nullopt when the planner
  // could not plan or the target is out of reach within its cap.
  std::optional<std::size_t> plannedBuilds;
  std::size_t maxBuilds = 100;
  // Builds per system the budget still affords; nullopt = no budget.
  std::optional<std::size_t> remainingBudgetBuilds;
  // The target counts as reached only from this many builds on (KJ13 §11:
  // fewer "could hardly be used to get the variance estimate right").
  std::size_t minBuilds = kMinimumTopCount;
  // The top-level units' plural in the explanation: "builds", or
  // "executions" for a campaign of one build per system (the counts above
  // are then executions).
  std::string units = "builds";
};

#define ALEA_STOP_REASONS(X)                                                                       \
  X(Continue, "continue")                /* add `addBuilds` builds per system */                   \
  X(TargetReached, "target reached")     /* halfWidth <= target (with builds >= minBuilds) */      \
  X(CapReached, "cap reached")           /* builds >= maxBuilds */                                 \
  X(BudgetExhausted, "budget exhausted") /* remainingBudgetBuilds == 0 */
enum class StopReason { ALEA_STOP_REASONS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(StopReason, ALEA_STOP_REASONS);

struct StoppingDecision {
  bool stop = false;
  StopReason reason = StopReason::Continue;
  std::size_t addBuilds = 0; // > 0 iff !stop
  std::string explanation;   // one sentence, for the campaign log
};

// Stop when the target is reached (and builds >= minBuilds), else when the
// cap or the budget is exhausted; otherwise add k builds per system:
// k = plannedBuilds - builds (the number still needed; the current count when
// the planner gives none), at least 1 (at least enough to reach minBuilds),
// at most max(builds, 1) so that a batch at most doubles the campaign, and
// within maxBuilds and the budget.
StoppingDecision stoppingRule(const StoppingInput &input);

// The campaign-wide step over the pairs: builds are shared by all benchmarks,
// so the batch is the largest addBuilds of the pairs that continue; stop when
// every pair stops (the reason of the first pair, for the log).
StoppingDecision combineStopping(const std::vector<StoppingDecision> &pairs);

const char *stopReasonName(StopReason reason);

} // namespace alea::analysis
