// The long-form measurement table and its balanced, nested view. A Table holds
// one row per measurement (system, benchmark, one unit label per level, value),
// whatever produced it: the CSV reader (csv.hpp) or the runner's SQLite store.
// nest() turns it into one tree per (benchmark, system) and checks the design
// is balanced (Kalibera & Jones TR 2012, Section 7: every estimator and Fieller's
// interval (12) assume equal repetition counts n_i at every level and for both
// systems); balance() applies the documented unbalanced-data policy
// (docs/analyze.md): report every deviation, then either fail, trim every unit
// to the common (minimum) count, drop the incomplete units (fewer children
// than the modal count), drop them at the lowest level only and trim above
// (mixed), or pick per system the candidate whose balanced shape gives the
// grand mean the smallest variance under equal variance components (auto, the
// default; it depends on the shapes only, never on the values); everything
// removed is listed.
#pragma once

#include "alea/enum_names.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace alea::analysis {

// One measurement. Unit labels are interned per level (Table::label()).
struct Row {
  std::uint32_t system = 0;    // index into Table::systems()
  std::uint32_t benchmark = 0; // index into Table::benchmarks()
  double value = 0;            // seconds, or any positive unit
  std::size_t line = 0;        // source line for messages (0: unknown)
  // When the measurement's execution started (any clock; NaN: unknown). A
  // paired comparison uses it to find neighbouring blocks (issue 19).
  double order = std::numeric_limits<double>::quiet_NaN();
};

// Measurements in long form. Systems, benchmarks and unit labels keep their
// order of first appearance: that order is the order of units in every later
// step (trimming keeps the first units, the bootstrap indexes them).
class Table {
public:
  // `levels`: level names from the highest (e.g. build) to the lowest (e.g.
  // iteration); at least one.
  explicit Table(std::vector<std::string> levels);

  // Adds one measurement; `units` holds one label per level, highest first.
  // `benchmark` may be empty (a single-benchmark table). `line` is only used
  // in messages. Precondition: units.size() == levels().size().
  void add(std::string_view system, std::string_view benchmark,
           std::span<const std::string_view> units, double value, std::size_t line = 0,
           double order = std::numeric_limits<double>::quiet_NaN());

  const std::vector<std::string> &levels() const { return levels_; }
  const std::vector<std::string> &systems() const { return systems_; }
  const std::vector<std::string> &benchmarks() const { return benchmarks_; }
  std::size_t size() const { return rows_.size(); }
  const Row &row(std::size_t i) const { return rows_[i]; }
  // The label of row i at level l (0 = highest level).
  const std::string &label(std::size_t i, std::size_t level) const;
  std::uint32_t labelId(std::size_t i, std::size_t level) const {
    return unitIds_[i * levels_.size() + level];
  }
  std::optional<std::uint32_t> findSystem(std::string_view name) const;

private:
  std::vector<std::string> levels_;
  std::vector<std::string> systems_, benchmarks_;
  // Looks labels up by string_view: adding a row builds no string for a
  // label already known.
  struct LabelHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::vector<std::string>> labels_; // per level
  std::vector<std::unordered_map<std::string, std::uint32_t, LabelHash, std::equal_to<>>>
      labelIndex_;
  std::vector<Row> rows_;
  std::vector<std::uint32_t> unitIds_; // size() * levels().size()
};

// One unit of the experiment (a build, an execution...) and what it contains:
// child units, or, at the lowest level, the measurements in source order.
struct UnitNode {
  std::string label;
  std::vector<UnitNode> children; // empty at the lowest level
  std::vector<double> values;     // only at the lowest level
  std::size_t count() const {     // children or values
    return children.empty() ? values.size() : children.size();
  }
};

// All measurements of one system on one benchmark, nested by level.
struct SystemData {
  std::string system;
  std::vector<UnitNode> units; // top-level units
  std::size_t firstLine = 0;   // first source line of this system's rows
  // Repetition count per level, highest first; set by balance().
  std::vector<std::size_t> shape;
};

struct BenchmarkData {
  std::string benchmark;           // "" for a single unnamed benchmark
  std::vector<SystemData> systems; // in Table::systems() order, present ones
};

// The table nested as benchmark -> system -> units, in first-seen order.
// Fails (returns the message) on a duplicate measurement path.
struct NestResult {
  std::vector<BenchmarkData> benchmarks;
  std::optional<std::string> error;
  std::size_t errorLine = 0;
};
NestResult nest(const Table &table);

// A deviation from the balanced design, found by checkBalance().
struct BalanceIssue {
  std::string benchmark, system;
  std::vector<std::string> path; // labels from the top down to the parent
  std::string level;             // the level whose count differs
  std::size_t found = 0;         // children found under `path`
  std::size_t expected = 0;      // the common count (the minimum found)
};

// Why balance() removed units.
enum class DropReason {
  Trimmed,    // children beyond the common count of their level (the last ones)
  Incomplete, // a whole unit with fewer children than the modal count
};

// Something balance() removed to make the design balanced.
struct DroppedUnits {
  std::string benchmark, system;
  std::vector<std::string> path;   // the parent's labels, top down
  std::string level;               // level of the dropped units
  std::vector<std::string> labels; // dropped unit labels (values: indices)
  std::size_t measurements = 0;    // measurements they contained
  // Added with the drop policy. For Incomplete (one record per dropped unit):
  // the unit had `found` units of `childLevel` where its level has `expected`.
  DropReason reason = DropReason::Trimmed;
  std::string childLevel;
  std::size_t found = 0, expected = 0;
};

// How balance() makes an unbalanced system balanced (docs/analyze.md).
#define ALEA_UNBALANCED_POLICIES(X)                                                                \
  X(Error, "error") /* report and stop (the caller stops when !balanced()) */                      \
  X(Trim, "trim")   /* top down: cut every unit's children to the minimum count of its level */    \
  X(Drop, "drop")   /* bottom up: drop units with fewer children than the modal count */           \
  X(Auto, "auto")   /* per system, Trim, Mixed or Drop, whichever has the smallest                 \
                       meanVarianceFactor() of its balanced shape */                               \
  X(Mixed, "mixed") /* Drop at the lowest level only (e.g. the short executions), then Trim        \
                       the levels above (e.g. every build to its fewest executions) */
enum class UnbalancedPolicy { ALEA_UNBALANCED_POLICIES(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(UnbalancedPolicy, ALEA_UNBALANCED_POLICIES);

// "error", "trim", "drop", "auto", "mixed" (option and JSON spelling).
const char *unbalancedPolicyName(UnbalancedPolicy p);
std::optional<UnbalancedPolicy> parseUnbalancedPolicy(std::string_view name);

// The variance of the grand mean of a balanced design of shape (n1, ..., nk),
// highest level first, under the random-effects model with the same variance
// component at every level, in units of that component:
//   V = sum_{i=1..k} 1 / (n1 * ... * ni)
// (Kalibera & Jones TR 2012 eq. 10, var(Ybar) = sum_i sigma_i^2 / prod_{j>=i} n_j
// with levels numbered bottom up, all sigma_i^2 = 1). The auto policy compares
// candidate shapes by it: it depends on the pattern of missing data only, not
// on the values. Infinity for an empty shape or a zero count.
double meanVarianceFactor(std::span<const std::size_t> shape);

// What balance() did to one unbalanced system, with every alternative costed
// so that the report can say why (e.g. "mixed removes 453 measurements and
// keeps 10 builds, V = 0.1255; trim: 953 removed, V = 0.1267; drop: 203
// removed, 9 builds, V = 0.1338").
struct SystemBalance {
  std::string benchmark, system;
  UnbalancedPolicy applied = UnbalancedPolicy::Trim;  // Trim, Drop or Mixed
  std::size_t measurements = 0;                       // before balancing
  std::size_t topUnits = 0;                           // before balancing
  std::size_t lostByTrim = 0, lostByDrop = 0;         // measurements removed
  std::size_t topUnitsByTrim = 0, topUnitsByDrop = 0; // top-level units kept
  std::size_t lostByMixed = 0, topUnitsByMixed = 0;   // the same for Mixed
  // Each candidate's balanced shape (highest level first) and its
  // meanVarianceFactor() (the auto criterion).
  std::vector<std::size_t> shapeByTrim, shapeByDrop, shapeByMixed;
  double varianceByTrim = 0, varianceByDrop = 0, varianceByMixed = 0;
  // The figures of candidate p (Trim, Drop or Mixed; anything else: Trim).
  std::size_t lostBy(UnbalancedPolicy p) const {
    return p == UnbalancedPolicy::Drop    ? lostByDrop
           : p == UnbalancedPolicy::Mixed ? lostByMixed
                                          : lostByTrim;
  }
  std::size_t topUnitsBy(UnbalancedPolicy p) const {
    return p == UnbalancedPolicy::Drop    ? topUnitsByDrop
           : p == UnbalancedPolicy::Mixed ? topUnitsByMixed
                                          : topUnitsByTrim;
  }
  const std::vector<std::size_t> &shapeBy(UnbalancedPolicy p) const {
    return p == UnbalancedPolicy::Drop    ? shapeByDrop
           : p == UnbalancedPolicy::Mixed ? shapeByMixed
                                          : shapeByTrim;
  }
  double varianceBy(UnbalancedPolicy p) const {
    return p == UnbalancedPolicy::Drop    ? varianceByDrop
           : p == UnbalancedPolicy::Mixed ? varianceByMixed
                                          : varianceByTrim;
  }
  std::size_t lost() const { return lostBy(applied); }
};

// Every system of every benchmark balanced on its own: each SystemData's
// `shape` holds its counts per level, highest first. Two systems may differ in
// shape (a failed build of the candidate does not cost the baseline a build):
// the estimators need balance within one system only, Fieller takes each
// system's own S^2/n (with nu = min(n) - 1) and the bootstrap resamples each
// system within its own shape.
struct BalanceResult {
  std::vector<BenchmarkData> benchmarks; // balanced (after trimming/dropping)
  std::vector<BalanceIssue> issues;      // everything unbalanced
  std::vector<DroppedUnits> dropped;     // what balancing removed
  std::vector<SystemBalance> systems;    // one per unbalanced system
  bool balanced() const { return issues.empty(); }
};

// Checks every system of every benchmark for a balanced shape and, when
// unbalanced, trims it top down: level by level, each kept unit's children are
// cut to the minimum child count over all kept units of that level of the
// system (keeping the first units in source order). Units without data do not
// exist in a table, so a failed run simply lowers the minimum. Issues are
// always listed; with UnbalancedPolicy::Error the caller should stop when
// !balanced(). Never drops anything silently. Same as the overload below with
// UnbalancedPolicy::Trim.
BalanceResult balance(std::vector<BenchmarkData> benchmarks,
                      const std::vector<std::string> &levels);

// The same with a policy. `issues` is always the trim pass's list (deviations
// from the minimum count, top down), whatever the policy. Drop works bottom
// up: at each level from the lowest, the modal child count over all units of
// the parent level is the expected count (ties: the larger count); a unit with
// fewer children is dropped whole (with everything below it, which can make
// its own parent incomplete one level up), a unit with more is trimmed to the
// modal count (keeping the first). Mixed does Drop's step at the lowest level
// only (the units holding the measurements, e.g. executions), then drops the
// units left without any data (e.g. a build all of whose executions were
// incomplete; recorded as Incomplete with found = 0, measurements = 0 (they
// are counted with its children) and expected = the smallest child count among
// the units of its level that kept data), then trims top down like Trim. Auto applies, per
// system, the candidate among Trim, Mixed and Drop with the smallest
// meanVarianceFactor() of its balanced shape; a candidate keeping fewer than 2
// top-level units only when every candidate does; ties (relative 1e-12): Trim,
// then Mixed, then Drop. Error balances like Trim; the caller stops. Every
// removal is listed in `dropped`.
BalanceResult balance(std::vector<BenchmarkData> benchmarks, const std::vector<std::string> &levels,
                      UnbalancedPolicy policy);

// The balanced data of one system as a flat array in row-major order over the
// shape (highest level first): what the statistics engine takes.
std::vector<double> flatten(const SystemData &system);

} // namespace alea::analysis
