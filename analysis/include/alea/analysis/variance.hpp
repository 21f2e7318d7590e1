// Variance components of the Kalibera & Jones random-effects model, any depth:
// the naive per-level estimators S_i^2 (TR 2012 §6.1 / KJ13 eq. 1), the
// unbiased estimators T_i^2 = S_i^2 - S_{i-1}^2 / n_{i-1} (TR 2012 §7.6 /
// KJ13 eq. 2, the S-version; spec_001 W2), the iterative removal of levels with
// T_i^2 <= 0 by POOLING them into the level below (TR 2012 Table III -> IV;
// spec_000 §2.4 and §9.5), and each level's share of the variance.
//
// All vectors here are indexed HIGHEST LEVEL FIRST, like Hierarchy::shape.
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace alea::analysis {

// S_i^2 for every level, highest first (element 0 = S_{n+1}^2, the sample
// variance of the top-level means; last = S_1^2, the mean within-lowest-unit
// variance). A level with count 1 has no variance estimate: its S^2 is 0 and it
// is reported as such (its T^2 is then -S_{i-1}^2/n_{i-1} <= 0 and the level is
// removed by the policy below). Precondition: validateHierarchy(h) is empty.
std::vector<double> sSquared(const Hierarchy &h);

// T_i^2 from S_i^2 and the shape, highest first: T^2 of the lowest level equals
// its S^2; every other T_i^2 = S_i^2 - S_{i-1}^2 / n_{i-1} (may be negative).
std::vector<double> tSquared(std::span<const double> sSquaredHighestFirst,
                             std::span<const std::size_t> shape);

struct VarianceOptions {
  // A non-lowest level is removed when T_i^2 <= removalFraction * (sum of the
  // positive T^2 of the current design). 0 = the paper's rule "T_i^2 <= 0".
  double removalFraction = 0.0;
  // The paper does not discuss removing the top level (spec_000 §9.5, spec_001
  // D-B3). By default the top level is never removed: a top-level T^2 <= 0 is
  // flagged (VarianceComponents::topLevelWithoutVariation) and counts as 0 in
  // the shares. Set to true to pool it into the level below like any other.
  bool allowTopRemoval = false;
};

struct LevelComponent {
  std::string name;
  std::size_t n = 0;          // repetition count of this level in the data
  std::size_t effectiveN = 0; // count in the reduced design (1 if removed)
  double s2 = 0;              // S_i^2 (in the reduced design, or when removed)
  double t2 = 0;              // T_i^2 (same design as s2); may be negative
  double share = 0;           // max(T_i^2, 0) / sum over kept levels; 0 if removed
  bool removed = false;       // pooled into the level below
};

struct VarianceComponents {
  // One entry per level of the data, highest first.
  std::vector<LevelComponent> levels;
  // The design after removal (what the planner uses): shape and names, highest
  // first; a removed level's count is multiplied into the level below.
  std::vector<std::size_t> reducedShape;
  std::vector<std::string> reducedNames;
  // S^2 and T^2 of the reduced design, highest first (size reducedShape.size()).
  std::vector<double> reducedS2;
  std::vector<double> reducedT2;
  double grandMean = 0;
  // The top level kept a T^2 <= 0 (only when allowTopRemoval is false).
  bool topLevelWithoutVariation = false;
};

// S^2, T^2, iterative removal and shares (see docs/statistics.md for the
// policy: the LOWEST removable level with T^2 at or under the threshold is
// pooled first, then everything is recomputed, until no level qualifies).
// Fails when the top level has fewer than 2 units.
Expected<VarianceComponents> varianceComponents(const Hierarchy &h,
                                                const VarianceOptions &options = {});

// var(Ybar) = sum_i sigma_i^2 / prod_{k >= i} n_k (TR 2012 eq. 10) for given
// per-level components and counts, both highest first. Negative components
// count as 0.
double varianceOfMean(std::span<const double> componentsHighestFirst,
                      std::span<const std::size_t> countsHighestFirst);

} // namespace alea::analysis
