// Experiment planning after Kalibera & Jones TR 2012 §6.1 and §7.4-7.5: the
// cost model (eq. 13), the optimal repetition counts (eq. 14, practitioner form
// with the unbiased T_i^2 and the ceiling, after level removal), the top-level
// count from a budget (n_{n+1} = c / (c_n + k_n), §7.5) or from a target
// half-width, and the KJ13 Tables 6/7 rule (spec_001 TV6).
//
// Eq. 14 in our highest-first indexing: with o[j] the overhead of a new unit
// at level j and o[lowest] := 1 (one measurement), the count of level j >= 1 is
// sqrt((o[j-1] / o[j]) * T_j^2 / T_{j-1}^2). For the lowest level this is
// TR 2012's n_1 = sqrt(c_1 T_1^2 / T_2^2); above it, n_i = sqrt((c_i /
// c_{i-1}) T_i^2 / T_{i+1}^2) with TR's c_i = our o of the level above.
#include "alea/analysis/planner.hpp"

#include "alea/analysis/interval.hpp"
#include "alea/analysis/math_policy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace alea::analysis {

namespace {
// The fallback's floor, as a fraction of the total variance of one measurement.
constexpr double kTopFloorFraction = 1e-6;
} // namespace

TopComponent topComponentForPlanning(double s2Top, std::size_t nTop, double lower,
                                     double totalVariance, double confidence) {
  TopComponent c;
  c.s2Top = s2Top;
  c.lower = lower;
  c.pilotT2 = s2Top - lower;
  c.confidence = confidence;
  c.floor = kTopFloorFraction * std::max(totalVariance, 0.0);
  if (c.pilotT2 > 0) {
    c.t2 = c.pilotT2;
    return c;
  }
  // E[S_top^2] = sigma_top^2 + lower (TR 2012 §7.6); (n-1) S_top^2 /
  // E[S_top^2] ~ chi2_{n-1} for normal top-level means, so with the LOWER
  // alpha quantile, P(E[S_top^2] <= S_top^2 (n-1) / chi2_{alpha,n-1}) = 1 - alpha.
  const double df = static_cast<double>(nTop > 1 ? nTop - 1 : 1);
  const double chi2 = boost::math::quantile(ChiSquared(df), 1 - confidence);
  c.upperExpected = s2Top * df / chi2;
  c.upperBound = true;
  // sigma_top^2 = E[S_top^2] - lower: U - lower bounds it (the lower-level
  // estimate has many more degrees of freedom than the top level's). When a
  // small pilot leaves U - lower <= 0, U itself, which bounds sigma_top^2 as
  // it is (planner.hpp), keeps the plan finite.
  const double net = c.upperExpected - lower;
  c.t2 = std::max(net > c.floor ? net : c.upperExpected, c.floor);
  return c;
}

Expected<std::vector<double>> optimalCounts(const std::vector<double> &t2,
                                            const std::vector<double> &overheads) {
  const std::size_t m = t2.size();
  if (m == 0 || overheads.size() + 1 != m)
    return fail("the planner needs one overhead per level except the lowest");
  std::vector<double> out(m - 1);
  for (std::size_t j = 1; j < m; ++j) {
    const double above = overheads[j - 1];
    const double own = j + 1 == m ? 1.0 : overheads[j];
    if (!(t2[j - 1] > 0))
      return fail(j == 1 ? std::string("no evidence of variation at the top level (T^2 <= 0): "
                                       "the optimal counts below it are unbounded")
                         : "T^2 <= 0 at a level the planner needs");
    if (t2[j] < 0)
      return fail("negative T^2 at a level the planner needs (remove the level first)");
    if (!(own > 0))
      return fail("a level below the top has zero overhead: eq. 14 divides by it");
    out[j - 1] = std::sqrt(above / own * t2[j] / t2[j - 1]);
  }
  return out;
}

std::string overheadsProblem(const std::vector<double> &overheads, std::size_t depth,
                             const std::string &planner) {
  if (overheads.size() + 1 != depth)
    return planner + " needs " + std::to_string(depth - 1) +
           " overheads (one per level except the lowest), got " + std::to_string(overheads.size());
  for (double o : overheads)
    if (!(o >= 0) || !std::isfinite(o))
      return "overheads must be finite and >= 0";
  return "";
}

Expected<Plan> planExperiment(const Hierarchy &pilot, const PlanOptions &options) {
  if (std::string problem = validateHierarchy(pilot); !problem.empty())
    return fail(std::move(problem));
  const std::size_t d = pilot.depth();
  if (std::string problem = overheadsProblem(options.overheads, d, "the planner"); !problem.empty())
    return fail(std::move(problem));
  if (!(options.confidence > 0 && options.confidence < 1))
    return fail("confidence must lie strictly between 0 and 1");

  Expected<VarianceComponents> comps = varianceComponents(pilot, options.variance);
  if (!comps)
    return fail(comps.error());

  Plan plan;
  plan.components = std::move(*comps);
  plan.grandMean = plan.components.grandMean;
  plan.confidence = options.confidence;
  const std::vector<LevelComponent> &levels = plan.components.levels;

  // Overheads of the reduced design (spec_000 §9.6): each removed level's
  // overhead goes to the nearest kept level above it (its parent after
  // pooling), or to the new top when the top itself was removed.
  std::vector<double> own(d);
  for (std::size_t k = 0; k + 1 < d; ++k)
    own[k] = options.overheads[k];
  own[d - 1] = 1.0; // one measurement
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < d; ++k)
    if (!levels[k].removed)
      kept.push_back(k);
  std::vector<double> merged(kept.size());
  for (std::size_t j = 0; j < kept.size(); ++j)
    merged[j] = own[kept[j]];
  for (std::size_t k = 0; k < d; ++k) {
    if (!levels[k].removed)
      continue;
    // Parent = nearest kept level above; none means the top was pooled into
    // the first kept level below.
    std::size_t j = kept.size();
    for (std::size_t i = 0; i < kept.size() && kept[i] < k; ++i)
      j = i;
    const bool topRemoved = j == kept.size();
    if (topRemoved)
      j = 0;
    if (options.costMerge == CostMerge::Additive) {
      merged[j] += own[k];
    } else if (!topRemoved) {
      // Paper (Table IV example): the merged unit costs the removed level's
      // overhead only; with several removed levels, the lowest one's (the
      // unit right above the measurements, e.g. warm-up).
      bool lowerRemovedUnderSameParent = false;
      for (std::size_t i = k + 1; i < d && levels[i].removed; ++i)
        lowerRemovedUnderSameParent = true;
      if (!lowerRemovedUnderSameParent)
        merged[j] = own[k];
    }
  }

  std::vector<double> t2 = plan.components.reducedT2;
  const std::vector<std::size_t> &shape = plan.components.reducedShape;
  {
    // The top level's component, or its upper bound (topComponentForPlanning)
    // when it keeps T^2 <= 0 and the caller asked for the fallback.
    const std::vector<double> &s2 = plan.components.reducedS2;
    double total = 0;
    for (double v : t2)
      total += std::max(v, 0.0);
    const double lower = s2.size() > 1 ? s2[1] / static_cast<double>(shape[1]) : 0.0;
    plan.top = topComponentForPlanning(s2[0], shape[0], lower, total, options.confidence);
    if (plan.top.upperBound && options.topUpperBound)
      t2[0] = plan.top.t2;
    else
      plan.top = TopComponent{t2[0], false, t2[0], s2[0], lower, 0, 0, options.confidence};
  }
  std::vector<double> overheads(merged.begin(), merged.end() - 1);
  Expected<std::vector<double>> exact = optimalCounts(t2, overheads);
  if (!exact)
    return fail(exact.error());

  std::vector<std::size_t> counts(kept.size());
  counts[0] = shape[0];
  for (std::size_t j = 1; j < kept.size(); ++j) {
    const double c = std::ceil((*exact)[j - 1]);
    counts[j] = c < 1 ? 1 : static_cast<std::size_t>(c);
  }

  plan.levels.resize(d);
  for (std::size_t k = 0; k < d; ++k) {
    plan.levels[k].name = levels[k].name;
    plan.levels[k].removed = levels[k].removed;
  }
  for (std::size_t j = 0; j < kept.size(); ++j) {
    PlannedLevel &level = plan.levels[kept[j]];
    level.count = counts[j];
    level.exact = j == 0 ? static_cast<double>(counts[0]) : (*exact)[j - 1];
    level.overhead = j + 1 < kept.size() ? merged[j] : 0.0;
  }

  // var of one top-level unit's mean with the planned counts (TR 2012 eq. 10
  // times n_top), and its cost c_n + k_n (§7.5: k_1 = n_1, k_i = (c_{i-1} +
  // k_{i-1}) n_i).
  double prod = 1;
  plan.unitVariance = std::max(t2[0], 0.0);
  for (std::size_t j = 1; j < kept.size(); ++j) {
    prod *= static_cast<double>(counts[j]);
    plan.unitVariance += std::max(t2[j], 0.0) / prod;
  }
  double cost = 1.0;
  for (std::size_t j = kept.size(); j-- > 1;)
    cost = static_cast<double>(counts[j]) * cost + merged[j - 1];
  plan.costPerTopUnit = cost;
  return plan;
}

double predictedHalfWidth(const Plan &plan, std::size_t nTop) {
  if (nTop < 2)
    return std::numeric_limits<double>::infinity();
  const double n = static_cast<double>(nTop);
  return tQuantileTwoSided(plan.confidence, n - 1) * std::sqrt(plan.unitVariance / n);
}

std::optional<std::size_t> topCountForHalfWidth(const Plan &plan, double target,
                                                std::size_t maxCount) {
  for (std::size_t r = 2; r <= maxCount; ++r)
    if (predictedHalfWidth(plan, r) <= target)
      return r;
  return std::nullopt;
}

std::size_t topCountForBudget(const Plan &plan, double budget) {
  if (!(plan.costPerTopUnit > 0) || !(budget > 0))
    return 0;
  return static_cast<std::size_t>(std::floor(budget / plan.costPerTopUnit));
}

std::optional<std::size_t> requiredTopCount(double s, double p, double confidence,
                                            std::size_t maxCount) {
  // KJ13 §11 Tables 6/7 as reconstructed in spec_001 TV6: smallest r >= 2
  // with t_{1-alpha/2, r-1} s / sqrt(r) <= p.
  for (std::size_t r = 2; r <= maxCount; ++r) {
    const double rr = static_cast<double>(r);
    if (tQuantileTwoSided(confidence, rr - 1) * s / std::sqrt(rr) <= p)
      return r;
  }
  return std::nullopt;
}

} // namespace alea::analysis
