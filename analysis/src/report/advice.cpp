// The planner's advice as the report shows it (report.hpp PlanAdvice,
// RatioPlanAdvice): the overheads from ReportOptions::costs, then the
// Kalibera-Jones planner (planner.hpp) for one system's mean and the ratio
// planner (ratio_planner.hpp) for one candidate vs the baseline.
#include "steps.hpp"

#include "alea/analysis/planner.hpp"
#include "alea/analysis/ratio_planner.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

namespace alea::analysis::detail {

namespace {

std::string g3Value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// The planner's count per level into the advice (both planners' levels
// have a name, a count and whether the plan removed the level).
template <typename Level> void takeLevels(PlanCounts &advice, const std::vector<Level> &levels) {
  for (const auto &l : levels) {
    advice.levelNames.push_back(l.name);
    advice.counts.push_back(l.count);
    advice.removed.push_back(l.removed);
  }
}

// A planner's options (PlanOptions, RatioPlanOptions) with the per-level
// overheads of `costs` and the confidence; nullopt, the reason in
// advice.error, when the costs are wrong.
template <class Options>
std::optional<Options> plannerOptions(PlanCounts &advice, const std::vector<double> &costs,
                                      std::size_t depth, double confidence) {
  advice.defaultCosts = costs.empty();
  auto overheads = overheadsFor(costs, depth);
  if (!overheads) {
    advice.error = overheads.error();
    return std::nullopt;
  }
  Options po;
  po.overheads = *overheads;
  po.confidence = confidence;
  return po;
}

} // namespace

Expected<std::vector<double>> overheadsFor(const std::vector<double> &costs, std::size_t depth) {
  if (costs.empty())
    return std::vector<double>(depth > 0 ? depth - 1 : 0, 1.0);
  if (costs.size() + 1 != depth)
    return fail("expected " + std::to_string(depth - 1) +
                " costs (one per level except the lowest, highest first), got " +
                std::to_string(costs.size()));
  for (double c : costs)
    if (!(c >= 0) || !std::isfinite(c))
      return fail("costs must be finite and >= 0");
  return costs;
}

// The planner's advice for one system's data, as report and plan share it.
PlanAdvice advise(const Hierarchy &h, const std::vector<double> &costs,
                  std::optional<double> targetHalfWidth, std::optional<double> budgetSeconds,
                  double confidence) {
  PlanAdvice advice;
  auto po = plannerOptions<PlanOptions>(advice, costs, h.depth(), confidence);
  if (!po)
    return advice;
  po->topUpperBound = true; // never "not available" for T^2 <= 0 at the top
  auto plan = planExperiment(h, *po);
  if (!plan) {
    advice.error = plan.error();
    return advice;
  }
  if (plan->top.upperBound) {
    const std::string top = h.levelNames[0];
    advice.topUpperBound = true;
    advice.topNote =
        "the " + top + " level shows no variance (T^2 = " + g3Value(plan->top.pilotT2) +
        " <= 0 from " + std::to_string(h.topCount()) + " " + top + "s): planned with the " +
        g3Value(confidence * 100) + "% upper confidence bound of its variance, a " + top + "-to-" +
        top + " SD of " + percent(std::sqrt(plan->top.t2) / plan->grandMean, 2) + " of the mean";
  }
  const double mean = plan->grandMean;
  takeLevels(advice, plan->levels);
  advice.costPerTopUnit = plan->costPerTopUnit;
  std::size_t top = h.topCount();
  if (targetHalfWidth) {
    advice.targetHalfWidth = *targetHalfWidth;
    advice.topUnitsNeeded = topCountForHalfWidth(*plan, *targetHalfWidth * mean);
    if (advice.topUnitsNeeded)
      top = *advice.topUnitsNeeded;
  }
  if (budgetSeconds) {
    top = topCountForBudget(*plan, *budgetSeconds / mean);
  }
  if (!advice.counts.empty())
    advice.counts[0] = top;
  advice.predictedHalfWidth = top >= 2 ? predictedHalfWidth(*plan, top) / mean : INFINITY;
  advice.ok = true;
  return advice;
}

// The ratio planner's advice for one candidate vs the baseline: costs as
// ReportOptions::costs (taken as the pair's), rho the correlation of paired
// top-level means (0: independent systems), varianceFactor the paired
// analysis' factor for the noise neighbouring blocks share (1: none).
RatioPlanAdvice adviseRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                            const std::vector<double> &costs, double targetHalfWidth,
                            double confidence, double rho, bool keepLowerCounts,
                            double varianceFactor) {
  RatioPlanAdvice advice;
  advice.targetHalfWidth = targetHalfWidth;
  advice.rho = rho;
  advice.varianceFactor = varianceFactor;
  auto po = plannerOptions<RatioPlanOptions>(advice, costs, candidate.depth(), confidence);
  if (!po)
    return advice;
  po->targetHalfWidth = targetHalfWidth;
  po->rho = rho;
  po->varianceFactor = varianceFactor;
  if (keepLowerCounts)
    po->lowerCounts = std::vector<std::size_t>(candidate.shape.begin() + 1, candidate.shape.end());
  auto plan = planRatio(candidate, baseline, *po);
  if (!plan) {
    advice.error = plan.error();
    return advice;
  }
  takeLevels(advice, plan->levels);
  advice.reachable = plan->reachable;
  advice.predictedHalfWidth = plan->predictedHalfWidth;
  advice.costPerPair = plan->costPerPair;
  advice.totalCost = plan->totalCost;
  advice.measurementValue = (candidate.grandMean() + baseline.grandMean()) / 2;
  advice.totalTime = advice.totalCost * advice.measurementValue;
  advice.upperBound = plan->fallbackUsed();
  advice.notes = plan->notes;
  advice.ok = true;
  return advice;
}

} // namespace alea::analysis::detail
