// Experiment planning (TR 2012 §6.1, §7.4-7.5, eqs. 13-14; KJ13 §9-§11;
// spec_000 §6, spec_001 B.9.1 and TV6): optimal repetition counts per level
// from per-level costs and pilot data, the number of top-level units for a
// target half-width or a time budget, the predicted half-width, and the KJ13
// Tables 6/7 rule.
//
// Costs are in units of ONE lowest-level measurement. overheads[k] (highest
// first, one per level except the lowest) is the fixed cost of starting one new
// unit at level k, excluding the measurements below it: for build > execution
// > iteration, {build time, warm-up + process start}. (TR 2012's c_i is the
// overhead of a new unit at level i+1, counted bottom-up: our overheads[0] is
// its c_n, the last entry its c_1.)
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/analysis/variance.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace alea::analysis {

// When a level is removed (pooled into the level below), what overhead the
// merged unit carries (spec_000 §9.6, the cost-indexing choice).
enum class CostMerge {
  // The merged level costs the parent's overhead PLUS the removed level's
  // (cost model eq. 13 with n = 1 at the removed level). The default.
  Additive,
  // The merged level costs only the removed level's overhead (warm-up only),
  // as the paper's own examples do (Table IV example: c_1 = 10).
  PaperWarmupOnly,
};

// The T^2 <= 0 fallback (issue 8; docs/statistics.md §6). The variance
// component of a top level for planning: when the pilot's T_top^2 = S_top^2 -
// lower is > 0 it is used as is; otherwise (no evidence of variation at the
// top level) the one-sided (1 - alpha) upper confidence bound of E[S_top^2] =
// sigma_top^2 + lower, U = S_top^2 (n - 1) / chi2_{alpha, n-1} (lower alpha
// quantile; exact for normal top-level means). Since lower >= 0,
// sigma_top^2 <= E[S_top^2] <= U with confidence >= 1 - alpha: U bounds the
// component itself, too high by at most `lower`. The planner uses U - lower
// when it is positive (a bound of sigma_top^2 itself, approximate since
// `lower` is estimated), else U: when S_top^2 lies far under `lower` (likely
// with 2 or 3 builds) U - lower is <= 0 and a floor would make eq. 14 ask for
// unboundedly many lower-level units. Floor (S_top^2 = 0, e.g. identical
// builds): 1e-6 x totalVariance.
struct TopComponent {
  double t2 = 0;            // the value to plan with (> 0 unless everything is 0)
  bool upperBound = false;  // the fallback was used
  double pilotT2 = 0;       // S_top^2 - lower as measured
  double s2Top = 0;         // S_top^2 of the pilot
  double lower = 0;         // the lower levels' contribution to E[S_top^2]
  double upperExpected = 0; // S_top^2 (n-1) / chi2_{alpha,n-1} (fallback only)
  double floor = 0;         // 1e-6 x totalVariance
  double confidence = 0.95; // one-sided level of the bound
};

// s2Top: sample variance of the nTop top-level means; lower: the lower-level
// contribution to it (S^2 of the level below / its count, so that
// T_top^2 = s2Top - lower); totalVariance: the sum of the positive components
// of one measurement (for the floor). Needs nTop >= 2 and confidence in (0,1).
TopComponent topComponentForPlanning(double s2Top, std::size_t nTop, double lower,
                                     double totalVariance, double confidence);

struct PlanOptions {
  std::vector<double> overheads; // size depth - 1, highest first, each >= 0
  VarianceOptions variance{};    // level-removal policy
  CostMerge costMerge = CostMerge::Additive;
  double confidence = 0.95;
  // When the top level keeps T^2 <= 0, plan with topComponentForPlanning's
  // upper bound (at `confidence`) instead of failing (Plan::top says so).
  bool topUpperBound = false;
};

struct PlannedLevel {
  std::string name;
  std::size_t count = 1; // ceil of eq. 14 (>= 1); 1 for a removed level;
                         // for the top level: the pilot's count (see below)
  double exact = 1;      // the unrounded eq. 14 value (1 when removed/top)
  double overhead = 0;   // overhead used for this level after merging
  bool removed = false;
};

struct Plan {
  // One entry per level of the pilot data, highest first. The top level's
  // count is NOT given by eq. 14; it is set by topCountFor* below (the entry
  // holds the pilot's top count).
  std::vector<PlannedLevel> levels;
  VarianceComponents components; // the pilot's components (after removal)
  // Cost of one top-level unit with the planned lower counts (c_n + k_n in
  // TR 2012 §7.5), in measurement units.
  double costPerTopUnit = 0;
  // var of ONE top-level unit's mean with the planned lower counts:
  // T_top^2 + sum over lower levels of T_i^2 / prod of planned counts below the
  // top (negative T^2 as 0). var(Ybar) = unitVariance / n_top.
  double unitVariance = 0;
  double grandMean = 0;
  double confidence = 0.95; // for predictedHalfWidth and topCountForHalfWidth
  // The top level's component as planned with (reduced design): the pilot's
  // T^2, or with PlanOptions::topUpperBound the fallback's bound.
  TopComponent top;
};

// Optimal lower-level counts from pilot data (ceil of eq. 14 on the unrounded
// T^2 after level removal; clamp >= 1). Fails when the overheads are the wrong
// size or negative, when a needed T^2 or overhead makes eq. 14 undefined (e.g.
// the top level keeps T^2 <= 0 without PlanOptions::topUpperBound: "no
// evidence of variation at the top level"), or when the pilot has fewer than 2
// top-level units.
Expected<Plan> planExperiment(const Hierarchy &pilot, const PlanOptions &options);

// Why `overheads` do not fit a design of `depth` levels (one finite overhead
// >= 0 per level except the lowest), the message naming `planner` ("the
// planner"); empty when they fit. Both planners check their options with it.
std::string overheadsProblem(const std::vector<double> &overheads, std::size_t depth,
                             const std::string &planner);

// Eq. 14 on given components (highest first, already reduced: all T^2 > 0 for
// the levels involved) and overheads of the same design (size depth - 1):
// returns the unrounded optimum for every level except the top (highest
// first, size depth - 1). Exposed for the paper's rounded-input check.
Expected<std::vector<double>> optimalCounts(const std::vector<double> &t2HighestFirst,
                                            const std::vector<double> &overheadsHighestFirst);

// Predicted half-width (absolute) of the t-CI of the mean with nTop top-level
// units: t_{1-alpha/2, nTop-1} * sqrt(unitVariance / nTop).
double predictedHalfWidth(const Plan &plan, std::size_t nTop);

// Smallest nTop >= 2 whose predicted half-width is <= targetHalfWidth
// (absolute, same unit as the data), or nullopt if more than maxCount.
std::optional<std::size_t> topCountForHalfWidth(const Plan &plan, double targetHalfWidth,
                                                std::size_t maxCount = 1000);

// floor(budget / costPerTopUnit) (TR 2012 §6.2: n_{n+1} = c / (c_n + k_n)),
// budget in measurement units.
std::size_t topCountForBudget(const Plan &plan, double budget);

// KJ13 Tables 6/7 rule (spec_001 TV6): the smallest r >= 2 with
// t_{1-alpha/2, r-1} * s / sqrt(r) <= p, where s is the relative standard
// deviation of the top-level means and p the target relative half-width (same
// unit, e.g. both in %). nullopt when r would exceed maxCount (the tables' "∞").
// The tables print counts below 5 as blank / "4 (5)": run at least 5 anyway.
std::optional<std::size_t> requiredTopCount(double s, double p, double confidence = 0.95,
                                            std::size_t maxCount = 1000);

// KJ13 §11: counts below 5 "could hardly be used to get the variance estimate
// right", so Tables 6/7 leave them blank: always run at least 5 top-level
// units. Reports show a smaller count as "4 (run at least 5)".
inline constexpr std::size_t kMinimumTopCount = 5;

} // namespace alea::analysis
