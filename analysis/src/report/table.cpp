// The long-form measurement table, its nesting into per-system unit trees and
// the unbalanced-data policy (see table.hpp and docs/analyze.md).
#include "alea/analysis/table.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <map>
#include <unordered_map>

namespace alea::analysis {

namespace {

std::uint32_t intern(std::vector<std::string> &names, std::string_view name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return static_cast<std::uint32_t>(i);
  names.emplace_back(name);
  return static_cast<std::uint32_t>(names.size() - 1);
}

} // namespace

Table::Table(std::vector<std::string> levels)
    : levels_(std::move(levels)), labels_(levels_.size()), labelIndex_(levels_.size()) {
  assert(!levels_.empty());
}

void Table::add(std::string_view system, std::string_view benchmark,
                std::span<const std::string_view> units, double value, std::size_t line,
                double order) {
  assert(units.size() == levels_.size());
  Row r;
  r.system = intern(systems_, system);
  r.benchmark = intern(benchmarks_, benchmark);
  r.value = value;
  r.line = line;
  r.order = order;
  rows_.push_back(r);
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    auto it = labelIndex_[l].find(units[l]);
    if (it == labelIndex_[l].end()) {
      it = labelIndex_[l]
               .emplace(std::string(units[l]), static_cast<std::uint32_t>(labels_[l].size()))
               .first;
      labels_[l].emplace_back(units[l]);
    }
    unitIds_.push_back(it->second);
  }
}

const std::string &Table::label(std::size_t i, std::size_t level) const {
  return labels_[level][labelId(i, level)];
}

std::optional<std::uint32_t> Table::findSystem(std::string_view name) const {
  for (std::size_t i = 0; i < systems_.size(); ++i)
    if (systems_[i] == name)
      return static_cast<std::uint32_t>(i);
  return std::nullopt;
}

namespace {
// Whether rows i and j have the same benchmark, system and labels.
bool samePath(const Table &table, std::size_t i, std::size_t j) {
  if (table.row(i).benchmark != table.row(j).benchmark ||
      table.row(i).system != table.row(j).system)
    return false;
  for (std::size_t l = 0; l < table.levels().size(); ++l)
    if (table.labelId(i, l) != table.labelId(j, l))
      return false;
  return true;
}
} // namespace

NestResult nest(const Table &table) {
  NestResult out;
  const std::size_t nLevels = table.levels().size();
  // Finding the child of a unit with a given label, for a million rows: every
  // unit above the lowest level (the (benchmark, system) cells too) keeps the
  // label ids of its children in order. Rows mostly arrive in order (the
  // store's, an export's), so a label is usually the last child's (the unit
  // continues) or above every label seen so far (a new unit): neither needs a
  // search. A unit whose labels stop increasing moves its children into one
  // hash map shared by all units, keyed by (unit, label), and is looked up
  // there from then on. Nothing is kept per measurement but its node and its
  // label id (the lookup tables are dropped at the end).
  struct Unit {
    std::vector<std::uint32_t> labels; // of the children, in order
    std::vector<std::uint32_t> units;  // their Unit ids (above the lowest level)
    bool hashed = false;               // children also in `hashedChildren`
  };
  std::vector<Unit> units;
  std::unordered_map<std::uint64_t, std::uint32_t> hashedChildren; // -> child position
  const auto key = [](std::size_t unit, std::uint32_t label) {
    return static_cast<std::uint64_t>(unit) << 32 | label;
  };
  // The position of the child of `unit` labelled `label`, if it has one.
  const auto findChild = [&](std::size_t unit, std::uint32_t label) -> std::optional<std::size_t> {
    Unit &u = units[unit];
    if (u.labels.empty())
      return std::nullopt;
    if (u.labels.back() == label)
      return u.labels.size() - 1;
    if (!u.hashed) {
      if (label > u.labels.back()) // increasing so far: a label not seen yet
        return std::nullopt;
      for (std::size_t k = 0; k < u.labels.size(); ++k)
        hashedChildren.emplace(key(unit, u.labels[k]), static_cast<std::uint32_t>(k));
      u.hashed = true;
    }
    const auto it = hashedChildren.find(key(unit, label));
    return it == hashedChildren.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  };

  // One root unit per (benchmark, system) cell; systems in table order
  // inside each benchmark.
  std::vector<std::vector<std::optional<std::size_t>>> cell(
      table.benchmarks().size(), std::vector<std::optional<std::size_t>>(table.systems().size()));
  for (std::size_t b = 0; b < table.benchmarks().size(); ++b)
    out.benchmarks.push_back({table.benchmarks()[b], {}});
  for (std::size_t i = 0; i < table.size(); ++i)
    cell[table.row(i).benchmark][table.row(i).system] = 0; // present; numbered below
  std::vector<std::vector<std::size_t>> root(table.benchmarks().size());
  for (std::size_t b = 0; b < table.benchmarks().size(); ++b)
    for (std::size_t s = 0; s < table.systems().size(); ++s)
      if (cell[b][s]) {
        cell[b][s] = out.benchmarks[b].systems.size();
        out.benchmarks[b].systems.push_back({table.systems()[s], {}, 0, {}});
        root[b].push_back(units.size());
        units.emplace_back();
      }

  for (std::size_t i = 0; i < table.size(); ++i) {
    const Row &r = table.row(i);
    const std::size_t s = *cell[r.benchmark][r.system];
    SystemData &sys = out.benchmarks[r.benchmark].systems[s];
    if (sys.firstLine == 0)
      sys.firstLine = r.line;
    std::vector<UnitNode> *nodes = &sys.units;
    std::size_t unit = root[r.benchmark][s];
    UnitNode *node = nullptr;
    for (std::size_t l = 0; l < nLevels; ++l) {
      const std::uint32_t label = table.labelId(i, l);
      const bool lowest = l + 1 == nLevels;
      std::optional<std::size_t> at = findChild(unit, label);
      if (at && lowest) {
        // The lowest-level unit already holds a value: the same measurement
        // path appears twice. The first time is the first earlier row with
        // the same cell and labels.
        std::size_t first = 0;
        while (first < i && !samePath(table, first, i))
          ++first;
        out.error = "duplicate measurement: system \"" + table.systems()[r.system] + "\"" +
                    (table.benchmarks()[r.benchmark].empty()
                         ? std::string()
                         : ", benchmark \"" + table.benchmarks()[r.benchmark] + "\"") +
                    " already has a value for this " + table.levels().back() + " (first on line " +
                    std::to_string(table.row(first).line) + ")";
        out.errorLine = r.line;
        return out;
      }
      if (!at) {
        at = nodes->size();
        nodes->push_back({table.label(i, l), {}, {}});
        units[unit].labels.push_back(label);
        if (units[unit].hashed)
          hashedChildren.emplace(key(unit, label), static_cast<std::uint32_t>(*at));
        if (!lowest) {
          units[unit].units.push_back(static_cast<std::uint32_t>(units.size()));
          units.emplace_back();
        }
      }
      node = &(*nodes)[*at];
      if (!lowest) {
        unit = units[unit].units[*at];
        nodes = &node->children;
      }
    }
    node->values.push_back(r.value);
  }
  return out;
}

namespace {

std::size_t measurementsIn(const UnitNode &n) {
  if (n.children.empty())
    return n.values.size();
  std::size_t total = 0;
  for (const auto &c : n.children)
    total += measurementsIn(c);
  return total;
}

std::size_t measurementsIn(const SystemData &sys) {
  std::size_t total = 0;
  for (const auto &u : sys.units)
    total += measurementsIn(u);
  return total;
}

DroppedUnits removal(const std::string &benchmark, const std::string &system,
                     std::vector<std::string> path, const std::string &level) {
  DroppedUnits d;
  d.benchmark = benchmark;
  d.system = system;
  d.path = std::move(path);
  d.level = level;
  return d;
}

// Calls f(group, parentPath) for every group of sibling units at `depth`
// (0 = the top-level units, whose parent path is empty).
template <class F>
void forEachGroup(std::vector<UnitNode> &nodes, std::size_t depth, std::vector<std::string> &path,
                  F &&f) {
  if (depth == 0) {
    f(nodes, path);
    return;
  }
  for (auto &n : nodes) {
    path.push_back(n.label);
    forEachGroup(n.children, depth - 1, path, f);
    path.pop_back();
  }
}

// Child counts of every unit at `depth`, each count with how many units have it.
std::map<std::size_t, std::size_t> childCounts(SystemData &sys, std::size_t depth) {
  std::map<std::size_t, std::size_t> histogram;
  std::vector<std::string> path;
  forEachGroup(sys.units, depth, path, [&](std::vector<UnitNode> &group, auto &) {
    for (const auto &u : group)
      ++histogram[u.children.size()];
  });
  return histogram;
}

bool isBalanced(SystemData &sys, std::size_t nLevels) {
  for (std::size_t l = 1; l < nLevels; ++l)
    if (childCounts(sys, l - 1).size() > 1)
      return false;
  return true;
}

std::vector<std::size_t> shapeOf(const SystemData &sys, std::size_t nLevels) {
  std::vector<std::size_t> shape(nLevels, 0);
  const std::vector<UnitNode> *nodes = &sys.units;
  for (std::size_t l = 0; l < nLevels && !nodes->empty(); ++l) {
    shape[l] = nodes->size();
    nodes = &nodes->front().children;
  }
  return shape;
}

// The trim policy, top down (see balance() in table.hpp): level by level, each
// kept unit's children are cut to the minimum count over the kept units of
// that level, keeping the first in source order.
void trimSystem(SystemData &sys, const std::string &benchmark,
                const std::vector<std::string> &levels, std::vector<BalanceIssue> &issues,
                std::vector<DroppedUnits> &dropped) {
  const std::size_t nLevels = levels.size();
  sys.shape.assign(nLevels, 0);
  sys.shape[0] = sys.units.size();
  // The kept units of level l-1, in order, with their label paths.
  std::vector<std::pair<std::vector<std::string>, UnitNode *>> frontier;
  for (auto &u : sys.units)
    frontier.push_back({{u.label}, &u});
  for (std::size_t l = 1; l < nLevels; ++l) {
    std::size_t common = SIZE_MAX;
    for (const auto &[path, node] : frontier)
      common = std::min(common, node->children.size());
    for (auto &[path, node] : frontier) {
      if (node->children.size() == common)
        continue;
      issues.push_back({benchmark, sys.system, path, levels[l], node->children.size(), common});
      DroppedUnits d = removal(benchmark, sys.system, path, levels[l]);
      for (std::size_t k = common; k < node->children.size(); ++k) {
        d.labels.push_back(node->children[k].label);
        d.measurements += measurementsIn(node->children[k]);
      }
      node->children.resize(common);
      dropped.push_back(std::move(d));
    }
    sys.shape[l] = common;
    std::vector<std::pair<std::vector<std::string>, UnitNode *>> next;
    for (auto &[path, node] : frontier)
      for (auto &c : node->children) {
        auto childPath = path;
        childPath.push_back(c.label);
        next.push_back({std::move(childPath), &c});
      }
    frontier = std::move(next);
  }
}

// One step of the drop policy at level l (1 <= l < levels): the modal child
// count of the units at level l-1 is the expected count (ties: the larger
// count; units left with no children by drops one level down take no part and
// are dropped, found 0); units with fewer children are dropped whole, units
// with more are trimmed to the modal count (keeping the first).
void dropIncompleteAt(SystemData &sys, std::size_t l, const std::string &benchmark,
                      const std::vector<std::string> &levels, std::vector<DroppedUnits> &dropped) {
  // The map is ordered, so the last maximum wins a tie.
  std::size_t mode = 0, modeUnits = 0;
  for (const auto &[count, units] : childCounts(sys, l - 1))
    if (count > 0 && units >= modeUnits) {
      mode = count;
      modeUnits = units;
    }
  std::vector<std::string> path;
  forEachGroup(sys.units, l - 1, path,
               [&](std::vector<UnitNode> &group, const std::vector<std::string> &parent) {
                 std::vector<UnitNode> kept;
                 for (auto &u : group) {
                   const std::size_t found = u.children.size();
                   if (found < mode) {
                     DroppedUnits d = removal(benchmark, sys.system, parent, levels[l - 1]);
                     d.labels = {u.label};
                     d.measurements = measurementsIn(u);
                     d.reason = DropReason::Incomplete;
                     d.childLevel = levels[l];
                     d.found = found;
                     d.expected = mode;
                     dropped.push_back(std::move(d));
                     continue;
                   }
                   if (found > mode) {
                     auto unitPath = parent;
                     unitPath.push_back(u.label);
                     DroppedUnits d =
                         removal(benchmark, sys.system, std::move(unitPath), levels[l]);
                     for (std::size_t k = mode; k < found; ++k) {
                       d.labels.push_back(u.children[k].label);
                       d.measurements += measurementsIn(u.children[k]);
                     }
                     u.children.resize(mode);
                     dropped.push_back(std::move(d));
                   }
                   kept.push_back(std::move(u));
                 }
                 group = std::move(kept);
               });
}

// The drop policy, bottom up (see balance() in table.hpp). After level l is
// done every remaining unit of level l-1 has the modal count of children, and
// each child the same shape below, so dropping a whole unit one level up
// never unbalances what is already balanced.
void dropSystem(SystemData &sys, const std::string &benchmark,
                const std::vector<std::string> &levels, std::vector<DroppedUnits> &dropped) {
  const std::size_t nLevels = levels.size();
  for (std::size_t l = nLevels; l-- > 1;)
    dropIncompleteAt(sys, l, benchmark, levels, dropped);
  sys.shape = shapeOf(sys, nLevels);
}

// The mixed policy (see balance() in table.hpp): the drop step at the lowest
// level only, then the units left without data are removed bottom up (a build
// whose executions were all incomplete), then the trim policy top down.
void mixedSystem(SystemData &sys, const std::string &benchmark,
                 const std::vector<std::string> &levels, std::vector<DroppedUnits> &dropped) {
  const std::size_t nLevels = levels.size();
  if (nLevels >= 2)
    dropIncompleteAt(sys, nLevels - 1, benchmark, levels, dropped);
  // Units of level d with no children left: dropped whole. The expected count
  // is the smallest child count among the units of level d that kept data
  // (for the top level, what trimming cuts them to).
  for (std::size_t d = nLevels >= 3 ? nLevels - 2 : 0; d-- > 0;) {
    std::size_t common = 0;
    for (const auto &[count, units] : childCounts(sys, d))
      if (count > 0) {
        common = count;
        break;
      }
    std::vector<std::string> path;
    forEachGroup(sys.units, d, path,
                 [&](std::vector<UnitNode> &group, const std::vector<std::string> &parent) {
                   std::vector<UnitNode> kept;
                   for (auto &u : group) {
                     if (!u.children.empty()) {
                       kept.push_back(std::move(u));
                       continue;
                     }
                     DroppedUnits r = removal(benchmark, sys.system, parent, levels[d]);
                     r.labels = {u.label};
                     r.measurements = 0; // counted with its incomplete children
                     r.reason = DropReason::Incomplete;
                     r.childLevel = levels[d + 1];
                     r.found = 0;
                     r.expected = common;
                     dropped.push_back(std::move(r));
                   }
                   group = std::move(kept);
                 });
  }
  std::vector<BalanceIssue> ignored; // the issues are the trim pass's
  trimSystem(sys, benchmark, levels, ignored, dropped);
}

std::size_t lostIn(const std::vector<DroppedUnits> &dropped) {
  std::size_t total = 0;
  for (const auto &d : dropped)
    total += d.measurements;
  return total;
}

} // namespace

const char *unbalancedPolicyName(UnbalancedPolicy p) { return enumName(p); }

std::optional<UnbalancedPolicy> parseUnbalancedPolicy(std::string_view name) {
  return parseEnum<UnbalancedPolicy>(name);
}

double meanVarianceFactor(std::span<const std::size_t> shape) {
  if (shape.empty())
    return std::numeric_limits<double>::infinity();
  double v = 0, product = 1;
  for (std::size_t n : shape) {
    if (n == 0)
      return std::numeric_limits<double>::infinity();
    product *= static_cast<double>(n);
    v += 1 / product;
  }
  return v;
}

BalanceResult balance(std::vector<BenchmarkData> benchmarks,
                      const std::vector<std::string> &levels) {
  return balance(std::move(benchmarks), levels, UnbalancedPolicy::Trim);
}

BalanceResult balance(std::vector<BenchmarkData> benchmarks, const std::vector<std::string> &levels,
                      UnbalancedPolicy policy) {
  BalanceResult out;
  const std::size_t nLevels = levels.size();
  for (auto &bench : benchmarks) {
    for (auto &sys : bench.systems) {
      if (isBalanced(sys, nLevels)) {
        sys.shape = shapeOf(sys, nLevels);
        continue;
      }
      // Every candidate on a copy, so the report can say what the others
      // would have cost; issues always come from the trim pass.
      constexpr UnbalancedPolicy kCandidates[] = {UnbalancedPolicy::Trim, UnbalancedPolicy::Mixed,
                                                  UnbalancedPolicy::Drop}; // tie order
      SystemData result[3] = {sys, sys, sys};
      std::vector<DroppedUnits> lists[3];
      trimSystem(result[0], bench.benchmark, levels, out.issues, lists[0]);
      mixedSystem(result[1], bench.benchmark, levels, lists[1]);
      dropSystem(result[2], bench.benchmark, levels, lists[2]);
      SystemBalance sb;
      sb.benchmark = bench.benchmark;
      sb.system = sys.system;
      sb.measurements = measurementsIn(sys);
      sb.topUnits = sys.units.size();
      sb.lostByTrim = lostIn(lists[0]);
      sb.lostByMixed = lostIn(lists[1]);
      sb.lostByDrop = lostIn(lists[2]);
      sb.topUnitsByTrim = result[0].units.size();
      sb.topUnitsByMixed = result[1].units.size();
      sb.topUnitsByDrop = result[2].units.size();
      sb.shapeByTrim = result[0].shape;
      sb.shapeByMixed = result[1].shape;
      sb.shapeByDrop = result[2].shape;
      sb.varianceByTrim = meanVarianceFactor(sb.shapeByTrim);
      sb.varianceByMixed = meanVarianceFactor(sb.shapeByMixed);
      sb.varianceByDrop = meanVarianceFactor(sb.shapeByDrop);
      std::size_t chosen = 0; // Error balances like Trim
      if (policy == UnbalancedPolicy::Mixed) {
        chosen = 1;
      } else if (policy == UnbalancedPolicy::Drop) {
        chosen = 2;
      } else if (policy == UnbalancedPolicy::Auto) {
        // The smallest variance of the grand mean with equal variance
        // components: a function of the shapes only, so the choice cannot
        // favour narrow intervals. A confidence interval needs 2 top-level
        // units: a candidate keeping fewer is only taken when all do.
        bool anyOk = false;
        for (const auto &r : result)
          anyOk |= r.units.size() >= 2;
        std::optional<std::size_t> best;
        for (std::size_t k = 0; k < 3; ++k) {
          if (anyOk && result[k].units.size() < 2)
            continue;
          const double v = sb.varianceBy(kCandidates[k]);
          const double bestV = best ? sb.varianceBy(kCandidates[*best]) : 0;
          // Strictly smaller beyond rounding: earlier candidates win ties.
          if (!best || v < bestV * (1 - 1e-12))
            best = k;
        }
        chosen = best.value_or(0);
      }
      sb.applied = kCandidates[chosen];
      out.dropped.insert(out.dropped.end(), std::make_move_iterator(lists[chosen].begin()),
                         std::make_move_iterator(lists[chosen].end()));
      sys = std::move(result[chosen]);
      out.systems.push_back(std::move(sb));
    }
  }
  out.benchmarks = std::move(benchmarks);
  return out;
}

namespace {
void flattenInto(const UnitNode &n, std::vector<double> &out) {
  if (n.children.empty()) {
    out.insert(out.end(), n.values.begin(), n.values.end());
    return;
  }
  for (const auto &c : n.children)
    flattenInto(c, out);
}
} // namespace

std::vector<double> flatten(const SystemData &system) {
  std::vector<double> out;
  for (const auto &u : system.units)
    flattenInto(u, out);
  return out;
}

} // namespace alea::analysis
