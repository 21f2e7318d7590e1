// Variance components of the Kalibera & Jones random-effects model for any
// number of levels: S_i^2 (TR 2012 §6.1 "M/V recipe", Table II; KJ13 eq. 1),
// T_i^2 (TR 2012 §7.6; KJ13 eq. 2, S-version per spec_001 W2), the iterative
// removal of levels with T_i^2 <= 0 by pooling (TR 2012 §6.1 and the Table III
// -> Table IV worked example; spec_000 §2.4, §9.5) and variance shares.
//
// Levels are indexed highest first here; the paper's bottom-up level i of an
// (n+1)-level design is our index n+1-i.
#include "alea/analysis/variance.hpp"

#include <algorithm>
#include <numeric>

namespace alea::analysis {

namespace {

// V(x) of spec_000 §0: the sample variance with the k-1 denominator.
double sampleVariance(const double *x, std::size_t k) {
  if (k < 2)
    return 0;
  double mean = 0;
  for (std::size_t i = 0; i < k; ++i)
    mean += x[i];
  mean /= static_cast<double>(k);
  double ss = 0;
  for (std::size_t i = 0; i < k; ++i)
    ss += (x[i] - mean) * (x[i] - mean);
  return ss / static_cast<double>(k - 1);
}

} // namespace

std::vector<double> sSquared(const Hierarchy &h) {
  // S^2 of level k (highest first): M over the levels below k (unit means),
  // V over the shape[k] children of each level-(k-1) unit, M over those units
  // (TR 2012 Table II; spec_000 §2.1 "generic algorithm").
  std::vector<double> s2(h.depth(), 0.0);
  for (std::size_t k = 0; k < h.depth(); ++k) {
    const std::vector<double> means = h.unitMeans(k);
    const std::size_t n = h.shape[k];
    const std::size_t parents = means.size() / n;
    double sum = 0;
    for (std::size_t p = 0; p < parents; ++p)
      sum += sampleVariance(means.data() + p * n, n);
    s2[k] = sum / static_cast<double>(parents);
  }
  return s2;
}

std::vector<double> tSquared(std::span<const double> s2, std::span<const std::size_t> shape) {
  // T_1^2 = S_1^2; T_i^2 = S_i^2 - S_{i-1}^2 / n_{i-1} (KJ13 eq. 2): the level
  // below k (highest first) is k+1.
  const std::size_t d = s2.size();
  std::vector<double> t2(d, 0.0);
  for (std::size_t k = 0; k < d; ++k)
    t2[k] = k + 1 == d ? s2[k] : s2[k] - s2[k + 1] / static_cast<double>(shape[k + 1]);
  return t2;
}

double varianceOfMean(std::span<const double> components, std::span<const std::size_t> counts) {
  // TR 2012 eq. 10: sum_i sigma_i^2 / prod_{k=i}^{n+1} n_k; highest first the
  // product runs over the level itself and every level above it.
  double var = 0;
  double prod = 1;
  for (std::size_t k = 0; k < components.size(); ++k) {
    prod *= static_cast<double>(counts[k]);
    var += std::max(components[k], 0.0) / prod;
  }
  return var;
}

Expected<VarianceComponents> varianceComponents(const Hierarchy &h,
                                                const VarianceOptions &options) {
  if (std::string problem = validateHierarchy(h); !problem.empty())
    return fail(std::move(problem));
  if (h.topCount() < 2)
    return fail("variance components need at least 2 units at the top level '" + h.levelNames[0] +
                "'");

  VarianceComponents out;
  out.grandMean = h.grandMean();
  out.levels.resize(h.depth());
  for (std::size_t k = 0; k < h.depth(); ++k) {
    out.levels[k].name = h.levelNames[k];
    out.levels[k].n = h.shape[k];
  }

  // origin[j] = the original level index of current level j.
  std::vector<std::size_t> origin(h.depth());
  std::iota(origin.begin(), origin.end(), 0);
  Hierarchy current = h;
  std::vector<double> s2, t2;
  double threshold = 0;
  for (;;) {
    s2 = sSquared(current);
    t2 = tSquared(s2, current.shape);
    double positive = 0;
    for (double t : t2)
      positive += std::max(t, 0.0);
    threshold = options.removalFraction * positive;
    // Candidates: every level except the lowest (T_1^2 = S_1^2 >= 0 and there
    // is nothing below to pool into) and, unless allowed, the top. Pool the
    // lowest qualifying level first, one per round: pooling level j changes
    // only the T^2 of the level right above it, which the next round then
    // re-examines on the reduced design.
    const std::size_t first = options.allowTopRemoval ? 0 : 1;
    std::size_t victim = current.depth();
    for (std::size_t j = current.depth() - 1; j-- > first;) {
      if (t2[j] <= threshold) {
        victim = j;
        break;
      }
    }
    if (victim == current.depth())
      break;
    LevelComponent &removed = out.levels[origin[victim]];
    removed.s2 = s2[victim];
    removed.t2 = t2[victim];
    removed.removed = true;
    removed.effectiveN = 1;
    removed.share = 0;
    current = current.pooled(victim);
    origin.erase(origin.begin() + static_cast<std::ptrdiff_t>(victim));
    if (current.topCount() < 2)
      return fail("after pooling level '" + removed.name +
                  "' the top level has fewer than 2 units");
  }

  // Shares: T_i^2 of the reduced design, negatives as 0, over their sum.
  double positive = 0;
  for (double t : t2)
    positive += std::max(t, 0.0);
  for (std::size_t j = 0; j < current.depth(); ++j) {
    LevelComponent &level = out.levels[origin[j]];
    level.s2 = s2[j];
    level.t2 = t2[j];
    level.effectiveN = current.shape[j];
    level.share = positive > 0 ? std::max(t2[j], 0.0) / positive : 0.0;
  }
  out.topLevelWithoutVariation = !options.allowTopRemoval && t2[0] <= threshold;
  out.reducedShape = current.shape;
  out.reducedNames = current.levelNames;
  out.reducedS2 = s2;
  out.reducedT2 = t2;
  return out;
}

} // namespace alea::analysis
