// The layout variance of a simulated metric attributed to functions
// (attribution.hpp): covariance shares of the build totals, the dominant
// term of each, and the placement fact that separates its slow builds.
#include "alea/analysis/attribution.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace alea::analysis {

namespace {

constexpr std::uint64_t kPageBytes = 4096;

double mean(const std::vector<double> &x) {
  return x.empty() ? 0 : std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

// The sample covariance (n - 1) of x and y.
double covariance(const std::vector<double> &x, const std::vector<double> &y) {
  const double mx = mean(x), my = mean(y);
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    s += (x[i] - mx) * (y[i] - my);
  return s / static_cast<double>(x.size() - 1);
}

// The cache lines [first, last] a placement covers.
std::pair<std::uint64_t, std::uint64_t> linesOf(const FunctionPlacement &p, std::uint64_t line) {
  const std::uint64_t end = p.address + std::max<std::uint64_t>(p.size, 1) - 1;
  return {p.address / line, end / line};
}

// Whether a line of `a` and another line of `b` map to the same I1 set
// (they can evict each other; one line holding code of both cannot).
bool competeForASet(const FunctionPlacement &a, const FunctionPlacement &b, std::uint64_t line,
                    std::uint64_t sets) {
  auto [a0, a1] = linesOf(a, line);
  auto [b0, b1] = linesOf(b, line);
  for (std::uint64_t x = a0; x <= a1; ++x)
    for (std::uint64_t y = b0; y <= b1; ++y)
      if (x != y && x % sets == y % sets)
        return true;
  return false;
}

// One function's data: cost and terms per build, placements where known.
struct Series {
  std::vector<double> cost;
  std::vector<std::vector<double>> terms; // [term][build]
  std::vector<std::optional<FunctionPlacement>> placement;
};

// The fact that holds in the most slow builds and the fewest fast ones
// (slow: cost above its mean, which splits two clusters of any sizes), among
// the candidates; nullopt when none holds in at least half the slow builds
// more than in the fast ones.
std::optional<PlacementFact> separatingFact(const std::string &name, const Series &s,
                                            const std::map<std::string, Series> &all,
                                            const std::vector<std::string> &others,
                                            const AttributionInput &in) {
  const std::size_t n = s.cost.size();
  const double mid = mean(s.cost);
  const std::uint64_t line = in.lineBytes ? in.lineBytes : 64;
  std::vector<bool> slow(n);
  std::vector<std::size_t> slowKnown;
  for (std::size_t b = 0; b < n; ++b) {
    slow[b] = s.cost[b] > mid;
    if (slow[b] && s.placement[b])
      slowKnown.push_back(b);
  }
  if (slowKnown.empty())
    return std::nullopt;
  // Counts a fact over the builds where it can be judged.
  auto count = [&](PlacementFact fact, auto holds) -> PlacementFact {
    for (std::size_t b = 0; b < n; ++b) {
      std::optional<bool> h = s.placement[b] ? holds(b) : std::nullopt;
      if (!h)
        continue;
      (slow[b] ? fact.slowBuilds : fact.fastBuilds) += 1;
      (slow[b] ? fact.slowWith : fact.fastWith) += *h ? 1 : 0;
    }
    return fact;
  };
  std::vector<PlacementFact> candidates;
  // A line of it and one of another top function map to the same I1 set (a
  // conflict in a small or direct-mapped cache).
  if (in.i1Sets > 0)
    for (const std::string &other : others) {
      if (other == name)
        continue;
      const Series &o = all.at(other);
      PlacementFact f;
      f.kind = PlacementFact::Kind::SharedSets;
      f.other = other;
      candidates.push_back(count(f, [&](std::size_t b) -> std::optional<bool> {
        if (!o.placement[b])
          return std::nullopt;
        return competeForASet(*s.placement[b], *o.placement[b], line, in.i1Sets);
      }));
    }
  // It spans more lines than in its best builds.
  {
    std::uint64_t fewest = UINT64_MAX, slowFewest = UINT64_MAX;
    for (std::size_t b = 0; b < n; ++b)
      if (s.placement[b]) {
        auto [first, last] = linesOf(*s.placement[b], line);
        fewest = std::min(fewest, last - first + 1);
        if (slow[b])
          slowFewest = std::min(slowFewest, last - first + 1);
      }
    if (slowFewest > fewest) {
      PlacementFact f;
      f.kind = PlacementFact::Kind::LinesSpanned;
      f.lines = slowFewest;
      f.lineBytes = line;
      candidates.push_back(count(f, [&](std::size_t b) -> std::optional<bool> {
        auto [first, last] = linesOf(*s.placement[b], line);
        return last - first + 1 >= slowFewest;
      }));
    }
  }
  {
    PlacementFact f;
    f.kind = PlacementFact::Kind::PageCrossing;
    candidates.push_back(count(f, [&](std::size_t b) -> std::optional<bool> {
      auto [first, last] = linesOf(*s.placement[b], kPageBytes);
      return first != last;
    }));
  }
  // The start offset most slow builds share.
  {
    std::map<std::uint64_t, std::size_t> offsets;
    for (std::size_t b : slowKnown)
      ++offsets[s.placement[b]->address % line];
    auto mode = std::max_element(offsets.begin(), offsets.end(),
                                 [](auto &a, auto &b) { return a.second < b.second; });
    PlacementFact f;
    f.kind = PlacementFact::Kind::LineOffset;
    f.lineBytes = line;
    f.bytes = (line - mode->first) % line;
    candidates.push_back(count(f, [&](std::size_t b) -> std::optional<bool> {
      return s.placement[b]->address % line == mode->first;
    }));
  }
  auto score = [](const PlacementFact &f) {
    auto rate = [](std::size_t with, std::size_t of) {
      return of ? static_cast<double>(with) / static_cast<double>(of) : 0.0;
    };
    return rate(f.slowWith, f.slowBuilds) - rate(f.fastWith, f.fastBuilds);
  };
  const PlacementFact *best = nullptr;
  for (const PlacementFact &f : candidates) // the first of equals: the order above
    if (f.slowBuilds > 0 && f.fastBuilds > 0 && (!best || score(f) > score(*best)))
      best = &f;
  if (!best || score(*best) < 0.5)
    return std::nullopt;
  return *best;
}

} // namespace

Attribution attributeLayoutVariance(const AttributionInput &in, const AttributionOptions &options) {
  Attribution out;
  out.system = in.system;
  out.benchmark = in.benchmark;
  out.metric = in.metric;
  const std::size_t n = in.builds.size(), k = in.terms.size();
  out.builds = n;
  // Every function's series, absent ones 0 (their cost is in the rest).
  std::map<std::string, Series> series;
  std::vector<std::string> names; // first appearance
  std::vector<double> total(n, 0.0);
  for (std::size_t b = 0; b < n; ++b)
    for (const FunctionCost &f : in.builds[b].functions) {
      double cost = std::accumulate(f.terms.begin(), f.terms.end(), 0.0);
      total[b] += cost;
      if (f.function.empty())
        continue;
      auto [it, added] = series.try_emplace(f.function);
      Series &s = it->second;
      if (added) {
        names.push_back(f.function);
        s.cost.assign(n, 0.0);
        s.terms.assign(k, std::vector<double>(n, 0.0));
        s.placement.assign(n, std::nullopt);
      }
      s.cost[b] += cost;
      for (std::size_t t = 0; t < k && t < f.terms.size(); ++t)
        s.terms[t][b] += f.terms[t];
      if (f.placement)
        s.placement[b] = f.placement;
    }
  out.mean = mean(total);
  if (n < 3) {
    out.note = "fewer than 3 builds with a profile (" + std::to_string(n) + ")";
    return out;
  }
  const double var = covariance(total, total);
  out.sd = std::sqrt(std::max(var, 0.0));
  // Totals that differ by less than 0.01% of their mean (the environment
  // padding's few instructions, rounding): no layout variance to attribute,
  // only noise whose shares would mean nothing.
  if (!(out.sd > 1e-4 * std::max(1.0, std::fabs(out.mean)))) {
    out.note = "the total does not vary across the builds";
    return out;
  }
  std::vector<FunctionAttribution> all;
  for (const std::string &name : names) {
    const Series &s = series.at(name);
    FunctionAttribution f;
    f.function = name;
    f.share = covariance(s.cost, total) / var;
    for (std::size_t t = 0; t < k; ++t) {
      double share = covariance(s.terms[t], total) / var;
      if (f.term.empty() || share > f.termShare) {
        f.term = in.terms[t];
        f.termShare = share;
      }
    }
    f.meanCost = mean(s.cost);
    auto [lo, hi] = std::minmax_element(s.cost.begin(), s.cost.end());
    f.relativeSpread = f.meanCost > 0 ? (*hi - *lo) / f.meanCost : 0;
    for (const BuildProfile &b : in.builds)
      f.builds.push_back(b.build);
    f.cost = s.cost;
    all.push_back(std::move(f));
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const auto &a, const auto &b) { return a.share > b.share; });
  std::vector<std::string> top;
  for (auto &f : all)
    if (f.share >= options.minShare && top.size() < options.maxFunctions) {
      top.push_back(f.function);
      out.functions.push_back(std::move(f));
    }
  out.otherShare = 1;
  for (FunctionAttribution &f : out.functions) {
    f.fact = separatingFact(f.function, series.at(f.function), series, top, in);
    out.otherShare -= f.share;
  }
  if (std::fabs(out.otherShare) < 1e-9) // rounding, not a share ("-0.0%")
    out.otherShare = 0;
  if (out.functions.empty())
    out.note = "no function carries " + std::to_string(static_cast<int>(options.minShare * 100)) +
               "% of the layout variance";
  return out;
}

} // namespace alea::analysis
