// The numbers behind the report's figures (figures.hpp, issue 10), in one
// pass over the measured table: every row is added to its top-level unit
// (build), its second-level unit (execution) and the warm-up curve of the
// unit that holds the lowest level (the execution; the build with two
// levels). Units are found by their parent's slot and their interned label id
// (Table::labelId), never by label strings, and consecutive rows of one unit
// (the usual order) skip the lookup. The t intervals of the build means are
// interval.hpp's meanInterval() over each build's execution means (TR 2012
// §6.2 applied to one build).
#include "alea/analysis/figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace alea::analysis {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// One unit of one level of one (benchmark, system).
struct Unit {
  std::uint32_t id = 0;     // its label id at its level
  std::size_t firstRow = 0; // for its label
  double sum = 0;           // of its measured values
  std::size_t count = 0;
  std::size_t measuredSeen = 0, warmupSeen = 0; // lowest-level rows so far (curve units)
  std::vector<std::uint32_t> children;          // level-1 slots in run order (level 0 only)
  std::uint32_t group = 0;                      // its (benchmark, system)
  double mean() const { return count ? sum / static_cast<double>(count) : 0; }
};

// All units of one (benchmark, system).
struct Group {
  std::uint32_t benchmark = 0, system = 0;
  std::vector<std::uint32_t> builds;      // level-0 slots, first appearance
  std::vector<std::vector<double>> curve; // values per lowest-level index
};

std::uint64_t unitKey(std::uint32_t parent, std::uint32_t id) {
  return (static_cast<std::uint64_t>(parent) << 32) | id;
}

// R's median (the mean of the two middle values for an even count).
double median(std::vector<double> &v) {
  const std::size_t n = v.size();
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(v.begin(), mid, v.end());
  const double upper = *mid;
  if (n % 2 == 1)
    return upper;
  return (*std::max_element(v.begin(), mid) + upper) / 2;
}

// The positions (in mean order) of the builds whose execution means are
// shown, `limit` of n: the lowest, the highest and the middle one (position
// (n - 1) / 2) with evenly spaced ones between; for limit 1 the lowest, for
// limit 2 the lowest and the highest.
std::vector<bool> stripSelection(std::size_t n, std::size_t limit) {
  std::vector<bool> shown(n, n <= limit);
  if (n <= limit || limit == 0)
    return shown;
  if (limit == 1) {
    shown[0] = true;
    return shown;
  }
  // limit points from 0 to n - 1, spacing (n - 1) / (limit - 1) > 1, so
  // distinct after rounding; the one nearest the middle moves onto it (it
  // stays closer to the middle than its neighbours: still distinct).
  const double spacing = static_cast<double>(n - 1) / static_cast<double>(limit - 1);
  std::vector<std::size_t> points(limit);
  for (std::size_t j = 0; j < limit; ++j)
    points[j] = static_cast<std::size_t>(std::llround(static_cast<double>(j) * spacing));
  if (limit >= 3) {
    const std::size_t middle = (n - 1) / 2;
    const auto distance = [&](std::size_t p) { return p > middle ? p - middle : middle - p; };
    *std::min_element(points.begin(), points.end(), [&](std::size_t a, std::size_t b) {
      return distance(a) < distance(b);
    }) = middle;
  }
  for (std::size_t p : points)
    shown[p] = true;
  return shown;
}

class FigureBuilder {
public:
  FigureBuilder(const Table &measured, const FigureOptions &options, bool warmupGiven)
      : t_(measured), o_(options), warmupGiven_(warmupGiven), depth_(measured.levels().size()),
        keyed_(depth_ == 1 ? 1 : std::max<std::size_t>(2, depth_ - 1)),
        curveLevel_(depth_ >= 3 ? depth_ - 2 : 0), units_(keyed_), index_(keyed_),
        groupSlot_(measured.benchmarks().size() * measured.systems().size(), kNone),
        benchmarkUnits_(measured.benchmarks().size()), labels_(depth_) {}

  void addMeasured(std::size_t offset) {
    std::vector<std::uint32_t> slots(keyed_, kNone), lastIds(keyed_, kNone);
    std::uint32_t lastGroup = kNone;
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const Row &row = t_.row(i);
      const std::uint32_t g = group(row.benchmark, row.system);
      bool same = g == lastGroup;
      for (std::size_t l = 0; l < keyed_ && same; ++l)
        same = t_.labelId(i, l) == lastIds[l];
      if (!same) {
        std::uint32_t parent = g;
        for (std::size_t l = 0; l < keyed_; ++l) {
          lastIds[l] = t_.labelId(i, l);
          slots[l] = unit(l, parent, lastIds[l], i, g);
          parent = slots[l];
        }
        lastGroup = g;
      }
      for (std::size_t l = 0; l < std::min<std::size_t>(keyed_, 2); ++l) {
        Unit &u = units_[l][slots[l]];
        u.sum += row.value;
        ++u.count;
      }
      if (depth_ >= 2)
        addToCurve(groups_[g], offset + units_[curveLevel_][slots[curveLevel_]].measuredSeen++,
                   row.value);
    }
  }

  // Warm-up rows: matched to the measured units by their labels (the two
  // tables intern labels separately); rows of units the measured table does
  // not have, and rows beyond `warmupIterations` per unit, are left out.
  void addWarmup(const Table &warmup) {
    if (depth_ < 2 || warmup.levels().size() != depth_)
      return;
    const auto translate = [](const std::vector<std::string> &from,
                              const std::vector<std::string> &to) {
      std::vector<std::uint32_t> out(from.size(), kNone);
      for (std::size_t i = 0; i < from.size(); ++i)
        for (std::size_t j = 0; j < to.size(); ++j)
          if (from[i] == to[j])
            out[i] = static_cast<std::uint32_t>(j);
      return out;
    };
    const auto bench = translate(warmup.benchmarks(), t_.benchmarks());
    const auto system = translate(warmup.systems(), t_.systems());
    std::vector<std::vector<std::uint32_t>> ids(keyed_); // warm-up label id -> measured id
    for (std::size_t i = 0; i < warmup.size(); ++i) {
      const Row &row = warmup.row(i);
      if (bench[row.benchmark] == kNone || system[row.system] == kNone)
        continue;
      std::uint32_t parent =
          groupSlot_[bench[row.benchmark] * t_.systems().size() + system[row.system]];
      for (std::size_t l = 0; l <= curveLevel_ && parent != kNone; ++l) {
        const std::uint32_t wid = warmup.labelId(i, l);
        if (ids[l].size() <= wid)
          ids[l].resize(wid + 1, kNone - 1); // kNone - 1: not looked up yet
        if (ids[l][wid] == kNone - 1) {
          const auto it = labels_[l].find(warmup.label(i, l));
          ids[l][wid] = it == labels_[l].end() ? kNone : it->second;
        }
        const auto found =
            ids[l][wid] == kNone ? index_[l].end() : index_[l].find(unitKey(parent, ids[l][wid]));
        parent = found == index_[l].end() ? kNone : found->second;
      }
      if (parent == kNone)
        continue;
      Unit &u = units_[curveLevel_][parent];
      if (u.warmupSeen < o_.warmupIterations)
        addToCurve(groups_[u.group], u.warmupSeen++, row.value);
    }
  }

  std::vector<BenchmarkFigures> finish(const std::vector<std::string> &systemOrder,
                                       bool warmupGiven) {
    std::vector<BenchmarkFigures> out;
    const auto &levels = t_.levels();
    // Systems in the report's order, then any others in table order.
    std::vector<std::uint32_t> systems;
    for (const auto &name : systemOrder)
      if (auto s = t_.findSystem(name);
          s && std::find(systems.begin(), systems.end(), *s) == systems.end())
        systems.push_back(*s);
    for (std::uint32_t s = 0; s < t_.systems().size(); ++s)
      if (std::find(systems.begin(), systems.end(), s) == systems.end())
        systems.push_back(s);
    for (std::uint32_t b = 0; b < t_.benchmarks().size(); ++b) {
      BenchmarkFigures bf;
      bf.benchmark = t_.benchmarks()[b];
      bf.topLevel = levels[0];
      if (depth_ >= 2) {
        bf.secondLevel = levels[1];
        bf.lowestLevel = levels.back();
      }
      bf.warmupIterations = warmupGiven && depth_ >= 2 ? o_.warmupIterations : 0;
      std::vector<std::size_t> figureOf(t_.systems().size(), 0);
      for (std::uint32_t s : systems) {
        const std::uint32_t g = groupSlot_[b * t_.systems().size() + s];
        if (g == kNone)
          continue;
        figureOf[s] = bf.systems.size();
        bf.systems.push_back(systemFigure(groups_[g], bf.secondLevel));
      }
      if (bf.systems.empty())
        continue;
      drift(bf, benchmarkUnits_[b], figureOf);
      out.push_back(std::move(bf));
    }
    return out;
  }

private:
  std::uint32_t group(std::uint32_t benchmark, std::uint32_t system) {
    std::uint32_t &slot = groupSlot_[benchmark * t_.systems().size() + system];
    if (slot == kNone) {
      slot = static_cast<std::uint32_t>(groups_.size());
      groups_.push_back(Group{benchmark, system, {}, {}});
    }
    return slot;
  }

  // The slot of the unit with label `id` under `parent` at `level`, created
  // at its first row.
  std::uint32_t unit(std::size_t level, std::uint32_t parent, std::uint32_t id, std::size_t row,
                     std::uint32_t g) {
    auto [it, inserted] = index_[level].try_emplace(unitKey(parent, id), 0);
    if (!inserted)
      return it->second;
    const auto slot = static_cast<std::uint32_t>(units_[level].size());
    it->second = slot;
    Unit u;
    u.id = id;
    u.firstRow = row;
    u.group = g;
    units_[level].push_back(std::move(u));
    if (warmupGiven_)
      labels_[level].try_emplace(t_.label(row, level), id);
    if (level == 0)
      groups_[g].builds.push_back(slot);
    if (level == 1) {
      units_[0][parent].children.push_back(slot);
      benchmarkUnits_[groups_[g].benchmark].push_back(slot);
    }
    return slot;
  }

  void addToCurve(Group &g, std::size_t index, double value) {
    if (index >= o_.maxWarmupIndices)
      return;
    if (g.curve.size() <= index)
      g.curve.resize(index + 1);
    g.curve[index].push_back(value);
  }

  SystemFigure systemFigure(Group &g, const std::string &secondLevel) const {
    SystemFigure sf;
    sf.system = t_.systems()[g.system];
    for (std::uint32_t slot : g.builds) {
      const Unit &u = units_[0][slot];
      BuildFigure bf;
      bf.label = t_.label(u.firstRow, 0);
      bf.mean = u.mean();
      if (depth_ >= 2) {
        for (std::uint32_t c : u.children)
          bf.executionMeans.push_back(units_[1][c].mean());
        if (bf.executionMeans.size() >= 2)
          if (auto ci =
                  meanInterval(flatHierarchy(bf.executionMeans, secondLevel), o_.confidence)) {
            bf.hasCi = true;
            bf.ci = ci->interval;
          }
      }
      sf.builds.push_back(std::move(bf));
    }
    std::stable_sort(sf.builds.begin(), sf.builds.end(),
                     [](const BuildFigure &a, const BuildFigure &b) { return a.mean < b.mean; });
    const std::vector<bool> shown = stripSelection(sf.builds.size(), o_.maxStripBuilds);
    for (std::size_t i = 0; i < sf.builds.size(); ++i) {
      sf.builds[i].stripShown = depth_ >= 2 && shown[i];
      if (!sf.builds[i].stripShown)
        sf.builds[i].executionMeans.clear();
    }
    for (auto &values : g.curve) {
      sf.iterationCounts.push_back(values.size());
      sf.iterationMedians.push_back(values.empty() ? std::numeric_limits<double>::quiet_NaN()
                                                   : median(values));
    }
    return sf;
  }

  // Every k-th execution of the benchmark in run order, k the smallest that
  // keeps the series within maxDriftPoints.
  void drift(BenchmarkFigures &bf, const std::vector<std::uint32_t> &runOrder,
             const std::vector<std::size_t> &figureOf) const {
    bf.executions = runOrder.size();
    if (runOrder.empty() || o_.maxDriftPoints == 0) {
      bf.driftSampledEvery = std::max<std::size_t>(runOrder.size(), 1);
      return;
    }
    const std::size_t k = (runOrder.size() + o_.maxDriftPoints - 1) / o_.maxDriftPoints;
    bf.driftSampledEvery = k;
    for (std::size_t i = 0; i < runOrder.size(); i += k) {
      const Unit &u = units_[1][runOrder[i]];
      bf.drift.push_back(DriftPoint{i, figureOf[groups_[u.group].system], u.mean()});
    }
  }

  const Table &t_;
  const FigureOptions &o_;
  const bool warmupGiven_;
  const std::size_t depth_;
  const std::size_t keyed_;      // levels whose units are tracked: 0 .. keyed_ - 1
  const std::size_t curveLevel_; // the level whose units the warm-up curve runs over
  std::vector<std::vector<Unit>> units_;
  std::vector<std::unordered_map<std::uint64_t, std::uint32_t>> index_;
  std::vector<std::uint32_t> groupSlot_; // benchmark x system -> group
  std::vector<Group> groups_;
  std::vector<std::vector<std::uint32_t>> benchmarkUnits_; // level-1 slots in run order
  // Per level, label -> id of the measured table (for matching warm-up rows).
  std::vector<std::unordered_map<std::string_view, std::uint32_t>> labels_;
};

} // namespace

std::vector<BenchmarkFigures> buildFigures(const Table &measured, const Table *warmup,
                                           const std::vector<std::string> &systemOrder,
                                           const FigureOptions &options) {
  const bool warmupGiven = warmup != nullptr;
  FigureBuilder builder(measured, options, warmupGiven);
  builder.addMeasured(warmupGiven ? options.warmupIterations : 0);
  if (warmupGiven)
    builder.addWarmup(*warmup);
  return builder.finish(systemOrder, warmupGiven);
}

} // namespace alea::analysis
