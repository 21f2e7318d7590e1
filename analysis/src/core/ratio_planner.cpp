// The ratio planner, the T^2 <= 0 fallback and the adaptive stopping rule
// (ratio_planner.hpp; docs/statistics.md §6 "Planning the ratio" and
// "Adaptive stopping"). Eq. 14 is TR 2012's, applied to the sum of the two
// systems' relative components; the prediction is Fieller's interval in the
// general form of spec_000 §4.2.
#include "alea/analysis/ratio_planner.hpp"

#include "alea/analysis/fieller.hpp"
#include "alea/analysis/math_policy.hpp"
#include "alea/analysis/variance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>
#include <utility>

namespace alea::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string g3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string checkPilot(const RatioPilot &p, const char *which) {
  const std::string w = which;
  if (p.shape.empty())
    return "the " + w + " pilot has no levels";
  if (p.s2.size() != p.shape.size())
    return "the " + w + " pilot needs one S^2 per level";
  if (p.shape[0] < 2)
    return "the " + w + " pilot needs at least 2 top-level units";
  for (std::size_t n : p.shape)
    if (n == 0)
      return "the " + w + " pilot has a level with count 0";
  for (double v : p.s2)
    if (!(v >= 0) || !std::isfinite(v))
      return "the " + w + " pilot has an S^2 that is negative or not finite";
  if (!(p.mean > 0) || !std::isfinite(p.mean))
    return "the " + w + " pilot's mean must be > 0 (a ratio of times)";
  return {};
}

} // namespace

RatioPilot ratioPilotOf(const Hierarchy &h) {
  RatioPilot p;
  p.levelNames = h.levelNames;
  p.shape = h.shape;
  if (validateHierarchy(h).empty()) {
    p.s2 = sSquared(h);
    p.mean = h.grandMean();
  }
  return p;
}

Expected<RatioPlan> planRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                              const RatioPlanOptions &options) {
  if (std::string problem = validateHierarchy(candidate); !problem.empty())
    return fail("candidate: " + problem);
  if (std::string problem = validateHierarchy(baseline); !problem.empty())
    return fail("baseline: " + problem);
  return planRatio(ratioPilotOf(candidate), ratioPilotOf(baseline), options);
}

namespace {

// The two pilots and the options as planRatio needs them, or why not.
Status checkInputs(const RatioPilot &cand, const RatioPilot &base,
                   const RatioPlanOptions &options) {
  for (const auto &[p, which] : {std::pair{&cand, "candidate"}, std::pair{&base, "baseline"}})
    if (std::string problem = checkPilot(*p, which); !problem.empty())
      return fail(std::move(problem));
  const std::size_t d = cand.shape.size();
  if (base.shape.size() != d)
    return fail("the two pilots have different numbers of levels");
  if (!cand.levelNames.empty() && !base.levelNames.empty() && cand.levelNames != base.levelNames)
    return fail("the two pilots have different levels");
  if (std::string problem = overheadsProblem(options.overheads, d, "the ratio planner");
      !problem.empty())
    return fail(std::move(problem));
  if (!(options.targetHalfWidth > 0) || !std::isfinite(options.targetHalfWidth))
    return fail("the target half-width must be > 0");
  if (!(options.confidence > 0 && options.confidence < 1))
    return fail("confidence must lie strictly between 0 and 1");
  if (!(options.rho >= -1 && options.rho <= 1))
    return fail("the correlation rho must lie in [-1, 1]");
  if (!(options.varianceFactor >= 1) || !std::isfinite(options.varianceFactor))
    return fail("the variance factor must be finite and >= 1");
  if (options.maxTopCount < 2)
    return fail("the top-level cap must be at least 2");
  if (options.lowerCounts) {
    if (options.lowerCounts->size() + 1 != d)
      return fail("the fixed lower counts need one count per level below the top");
    for (std::size_t n : *options.lowerCounts)
      if (n == 0)
        return fail("the fixed lower counts must be >= 1");
  }
  return Status::success();
}

} // namespace

Expected<RatioPlan> planRatio(const RatioPilot &cand, const RatioPilot &base,
                              const RatioPlanOptions &options) {
  if (Status inputs = checkInputs(cand, base, options); !inputs)
    return fail(inputs.error());
  const std::size_t d = cand.shape.size();

  RatioPlan plan;
  plan.targetHalfWidth = options.targetHalfWidth;
  plan.confidence = options.confidence;
  plan.rho = options.rho;
  plan.varianceFactor = options.varianceFactor;
  plan.ratio = cand.mean / base.mean;

  // Relative components per system; the top level through the fallback.
  const auto relative = [&](const RatioPilot &p, TopComponent &top) {
    const std::vector<double> t2 = tSquared(p.s2, p.shape);
    double total = 0;
    for (double v : t2)
      total += std::max(v, 0.0);
    const double lower = d > 1 ? p.s2[1] / static_cast<double>(p.shape[1]) : 0.0;
    top = topComponentForPlanning(p.s2[0], p.shape[0], lower, total, options.confidence);
    std::vector<double> r(d);
    const double m2 = p.mean * p.mean;
    r[0] = top.t2 / m2;
    for (std::size_t k = 1; k < d; ++k)
      r[k] = t2[k] / m2; // may be negative (unbiased)
    return r;
  };
  const std::vector<double> rc = relative(cand, plan.candidateTop);
  const std::vector<double> rb = relative(base, plan.baselineTop);
  std::vector<double> combined(d);
  for (std::size_t k = 0; k < d; ++k)
    combined[k] = rc[k] + rb[k];

  plan.levels.resize(d);
  for (std::size_t k = 0; k < d; ++k) {
    RatioPlannedLevel &l = plan.levels[k];
    l.name = k < cand.levelNames.size() ? cand.levelNames[k] : "level " + std::to_string(k);
    l.candidate = rc[k];
    l.baseline = rb[k];
    l.combined = combined[k];
  }

  // Overheads after removal (the CostMerge::Additive rule of planner.cpp): a
  // level between the top and the lowest whose summed relative T^2 is <= 0
  // gets count 1 and its overhead is added to the nearest kept level above.
  std::vector<double> own(d, 1.0); // own[d-1] = one measurement
  for (std::size_t k = 0; k + 1 < d; ++k)
    own[k] = options.overheads[k];
  std::vector<double> merged = own;
  std::vector<std::size_t> kept{0};
  for (std::size_t k = 1; k < d; ++k) {
    const bool remove = !options.lowerCounts && k + 1 < d && !(combined[k] > 0);
    plan.levels[k].removed = remove;
    if (remove)
      merged[kept.back()] += own[k];
    else
      kept.push_back(k);
  }
  for (std::size_t k = 0; k + 1 < d; ++k)
    plan.levels[k].overhead = merged[k];

  std::vector<std::size_t> counts(d, 1);
  if (options.lowerCounts) {
    for (std::size_t k = 1; k < d; ++k) {
      counts[k] = (*options.lowerCounts)[k - 1];
      plan.levels[k].exact = static_cast<double>(counts[k]);
    }
  } else if (combined[0] > 0) {
    // TR 2012 eq. 14 between adjacent kept levels (planner.cpp optimalCounts):
    // n_j = sqrt((o_above / o_j) * r_j / r_above), o of the lowest = 1.
    for (std::size_t j = 1; j < kept.size(); ++j) {
      const std::size_t above = kept[j - 1], k = kept[j];
      const double o = merged[k];
      if (!(o > 0))
        return fail("the " + plan.levels[k].name +
                    " level has zero overhead: eq. 14 divides by it");
      const double exact =
          std::sqrt(merged[above] / o * std::max(combined[k], 0.0) / combined[above]);
      plan.levels[k].exact = exact;
      const double c = std::ceil(exact);
      counts[k] = c < 1 ? 1 : static_cast<std::size_t>(c);
    }
  } // else: no variance anywhere (constant data): every count 1.
  for (std::size_t k = 1; k < d; ++k)
    plan.levels[k].count = counts[k];

  // Relative variance of one top-level unit's mean with the planned counts
  // (TR 2012 eq. 10 times n_top), negative components as 0.
  const auto unitVariance = [&](const std::vector<double> &r) {
    double v = std::max(r[0], 0.0), prod = 1;
    for (std::size_t k = 1; k < d; ++k) {
      prod *= static_cast<double>(counts[k]);
      v += std::max(r[k], 0.0) / prod;
    }
    return v;
  };
  plan.candidateUnitVariance = unitVariance(rc);
  plan.baselineUnitVariance = unitVariance(rb);
  // Cost of one top-level unit (TR 2012 eq. 13 for one unit, = c_n + k_n of
  // §7.5): every unit of level k started costs its own overhead, the
  // measurements cost 1 each; a removed level (count 1) adds its overhead once
  // per parent, which is the Additive merge.
  double cost = 0, units = 1; // units of level k started per top-level unit
  for (std::size_t k = 0; k < d; ++k) {
    if (k > 0)
      units *= static_cast<double>(counts[k]);
    cost += units * own[k]; // own[d-1] = 1: the measurements themselves
  }
  plan.costPerTopUnit = cost;
  plan.costPerPair = 2 * cost;

  // The top-level count: predictedRatioHalfWidth is non-increasing in n
  // (Fieller's confidence set grows with t^2/n), so bisect.
  const std::size_t cap = options.maxTopCount;
  if (predictedRatioHalfWidth(plan, cap) <= options.targetHalfWidth) {
    std::size_t lo = 2, hi = cap; // answer in [lo, hi]
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (predictedRatioHalfWidth(plan, mid) <= options.targetHalfWidth)
        hi = mid;
      else
        lo = mid + 1;
    }
    plan.topCount = lo;
    plan.reachable = true;
  } else {
    plan.topCount = cap;
  }
  plan.levels[0].count = plan.topCount;
  plan.levels[0].exact = static_cast<double>(plan.topCount);
  plan.predictedHalfWidth = predictedRatioHalfWidth(plan, plan.topCount);
  plan.totalCost = static_cast<double>(plan.topCount) * plan.costPerPair;

  for (const auto &[p, top, which] : {std::tuple{&cand, &plan.candidateTop, "candidate"},
                                      std::tuple{&base, &plan.baselineTop, "baseline"}}) {
    if (!top->upperBound)
      continue;
    const std::string level = plan.levels[0].name;
    plan.notes.push_back(
        std::string(which) + ": the " + level +
        " level shows no variance (T^2 = " + g3(top->pilotT2) + " <= 0 from " +
        std::to_string(p->shape[0]) + " " + level + "s); planned with the " +
        g3(top->confidence * 100) + "% upper confidence bound of its variance instead, a " + level +
        "-to-" + level + " SD of " + g3(std::sqrt(top->t2) / p->mean * 100) + "% of the mean");
  }
  return plan;
}

double predictedRatioHalfWidth(const RatioPlan &plan, std::size_t n) {
  if (n < 2)
    return kInf;
  const double nn = static_cast<double>(n);
  const double q = tQuantileTwoSided(plan.confidence, nn - 1);
  // Relative units: both means 1, variances relative to the means squared
  // (Fieller's interval is equivariant under scaling either mean).
  // (k x ... / n: exactly the unscaled values when the factor k is 1)
  const double k = plan.varianceFactor;
  const double vc = k * plan.candidateUnitVariance / nn, vb = k * plan.baselineUnitVariance / nn;
  const double vcb =
      k * plan.rho * std::sqrt(plan.candidateUnitVariance * plan.baselineUnitVariance) / nn;
  const FiellerResult f = fiellerFromMoments(1.0, vc, 1.0, vb, vcb, q, plan.confidence);
  if (!f.interval)
    return kInf;
  return relativeHalfWidth(*f.interval, 1.0);
}

double relativeHalfWidth(const Interval &interval, double estimate) {
  if (!(estimate != 0))
    return kInf;
  return (interval.upper - interval.lower) / 2 / std::fabs(estimate);
}

// ---------------------------------------------------------------- stopping

const char *stopReasonName(StopReason reason) { return enumName(reason); }

StoppingDecision stoppingRule(const StoppingInput &in) {
  StoppingDecision out;
  std::string now =
      std::to_string(in.builds) + " " + in.units + ": +-" +
      (std::isfinite(in.halfWidth) ? g3(in.halfWidth * 100) + "%" : std::string("unbounded")) +
      " against the target +-" + g3(in.targetHalfWidth * 100) + "%";
  if (in.halfWidth <= in.targetHalfWidth && in.builds < in.minBuilds)
    now += " (within it, but below the minimum of " + std::to_string(in.minBuilds) + " " +
           in.units + ")";
  const auto stop = [&](StopReason r, const std::string &why) {
    out.stop = true;
    out.reason = r;
    out.explanation = now + ": stop, " + why;
    return out;
  };
  if (in.halfWidth <= in.targetHalfWidth && in.builds >= in.minBuilds)
    return stop(StopReason::TargetReached, "the target is reached");
  if (in.builds >= in.maxBuilds)
    return stop(StopReason::CapReached,
                "the cap of " + std::to_string(in.maxBuilds) + " " + in.units + " is reached");
  if (in.remainingBudgetBuilds && *in.remainingBudgetBuilds == 0)
    return stop(StopReason::BudgetExhausted, "the budget affords no more " + in.units);

  // The number still needed: the planner's, else double; at least 1 and
  // enough for minBuilds; at most the current count (a batch at most
  // doubles), within the cap and the budget.
  std::size_t k = in.builds;
  std::string why = "the planner gives no count within its cap";
  if (in.plannedBuilds && *in.plannedBuilds > in.builds) {
    k = *in.plannedBuilds - in.builds;
    why = "the planner asks for " + std::to_string(*in.plannedBuilds);
  } else if (in.plannedBuilds) {
    k = 1;
    why = "the planner's " + std::to_string(*in.plannedBuilds) + " are already run";
  }
  if (in.builds < in.minBuilds && in.minBuilds - in.builds > k) {
    k = in.minBuilds - in.builds;
    why = "to reach the minimum of " + std::to_string(in.minBuilds) + " " + in.units;
  }
  k = std::max<std::size_t>(k, 1);
  k = std::min(k, std::max<std::size_t>(in.builds, 1));
  k = std::min(k, in.maxBuilds - in.builds);
  if (in.remainingBudgetBuilds && *in.remainingBudgetBuilds < k) {
    k = *in.remainingBudgetBuilds;
    why += "; the budget affords " + std::to_string(k);
  }
  out.addBuilds = k;
  out.explanation = now + ": add " + std::to_string(k) + " (" + why + ")";
  return out;
}

StoppingDecision combineStopping(const std::vector<StoppingDecision> &pairs) {
  StoppingDecision out;
  out.stop = true;
  out.reason = StopReason::TargetReached;
  if (!pairs.empty()) {
    out.reason = pairs.front().reason;
    out.explanation = pairs.front().explanation;
  }
  for (const auto &p : pairs)
    if (!p.stop && (out.stop || p.addBuilds > out.addBuilds)) {
      out = p;
    }
  return out;
}

} // namespace alea::analysis
