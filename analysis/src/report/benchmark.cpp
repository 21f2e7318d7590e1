// One benchmark's analysis: its systems (baseline first), the comparisons
// and their Holm family, the warnings the diagnostics give, and the location
// results back in the data's unit.
#include "steps.hpp"

namespace alea::analysis::detail {

namespace {

// What the diagnostics and the intervals of each system say about its data:
// layout modes, outlying top-level means, trends, far-out measurements, a top
// level without variation, a mean's interval reaching below zero.
void addSystemWarnings(BenchmarkReport &br, const std::vector<std::string> &levels) {
  const std::string &top = levels[0];
  for (const auto &s : br.systems) {
    const DiagnosticsReport &d = s.diagnostics;
    if (!d.ok)
      continue;
    if (d.multimodal)
      br.warnings.push_back(s.name + ": " + top + " means form two clusters (" +
                            std::to_string(d.lowUnits) + " low, " + std::to_string(d.highUnits) +
                            " high, " + percent(d.modeGap) + " apart)" +
                            // Builds are layouts; other units (executions of a
                            // one-build campaign) are not.
                            (top == "build" ? ": layout modes" : ""));
    if (!d.outlierUnits.empty()) {
      std::string units;
      for (const auto &u : d.outlierUnits)
        units += (units.empty() ? "" : ", ") + u;
      br.warnings.push_back(s.name + ": outlying " + top + " " +
                            (d.outlierUnits.size() == 1 ? "mean" : "means") + " (" + units +
                            "), kept");
    }
    if (d.trendFlagged > 0) {
      // Times that fall are a warm-up still going on; times that rise are
      // something else (a slowdown as the process runs): say which.
      const std::size_t down = d.trendDecreasing, up = d.trendFlagged - d.trendDecreasing;
      std::string which;
      if (down > 0)
        which = std::to_string(down) + " decreasing: warm-up not over?";
      if (up > 0)
        which += (which.empty() ? "" : "; ") + std::to_string(up) +
                 " increasing: slowing down as they run?";
      br.warnings.push_back(s.name + ": " + std::to_string(d.trendFlagged) + " of " +
                            std::to_string(d.trendExecutions) + " " + levels[levels.size() - 2] +
                            "s still trend over their " + levels.back() + "s (" + which + ")");
    }
    if (d.measurementFarOut > 0)
      br.warnings.push_back(s.name + ": " + std::to_string(d.measurementFarOut) +
                            " far-out measurements (beyond 3 IQR), kept");
  }
  for (const auto &s : br.systems)
    if (s.topLevelWithoutVariation)
      br.warnings.push_back(s.name + ": the " + levels[0] +
                            " level shows no variation beyond the levels below "
                            "(T^2 <= 0)");
  // Values are positive (times, sizes), a mean's interval is not: with few
  // top-level units the t quantile is large (12.7 with 2) and the interval
  // can reach below zero (the scale is a positive factor: the sign is the
  // same before unscaling). Said, not cut: the interval is the method's.
  for (const auto &s : br.systems)
    if (s.ci.interval.lower < 0)
      br.warnings.push_back(s.name + ": the " +
                            (s.ci.method == IntervalMethod::T ? "t" : "normal") +
                            " interval of the mean reaches below zero, which no measured "
                            "value can (" +
                            std::to_string(s.shape.empty() ? 0 : s.shape[0]) + " " + top +
                            "s: few degrees of freedom): read its lower bound as 0, or use the "
                            "bootstrap interval, and run more " +
                            top + "s");
}

} // namespace

Expected<BenchmarkAnalysis> analyseBenchmark(const BenchmarkData &bench, const ValueScale &scale,
                                             const std::string &baseline, const Table &table,
                                             const BalanceResult &balanced,
                                             const ReportOptions &options) {
  BenchmarkAnalysis out;
  BenchmarkReport &br = out.report;
  br.name = bench.benchmark;
  std::vector<const SystemData *> order;
  for (const auto &s : bench.systems)
    if (s.system == baseline)
      order.push_back(&s);
  for (const auto &s : bench.systems)
    if (s.system != baseline)
      order.push_back(&s);
  std::vector<Hierarchy> hs;
  for (const SystemData *s : order) {
    if (s->shape.empty() || s->shape[0] < 2)
      return fail("system " + quotedName(s->system) + where(bench.benchmark) + " has only " +
                  std::to_string(s->shape.empty() ? 0 : s->shape[0]) + " " + table.levels()[0] +
                  afterBalancing(balanced.systems, bench.benchmark, s->system, table.levels()[0]) +
                  "; a confidence interval needs at least 2");
    auto h = hierarchyOf(*s, table.levels());
    if (!h)
      return fail("system " + quotedName(s->system) + where(bench.benchmark) + ": " + h.error());
    hs.push_back(std::move(*h));
    auto sr = systemReport(*s, hs.back(), bench.benchmark, options);
    if (!sr)
      return fail(sr.error());
    br.systems.push_back(std::move(*sr));
  }
  const bool hasBaseline = !order.empty() && order[0]->system == baseline;
  if (!hasBaseline && !order.empty())
    br.warnings.push_back("the baseline " + quotedName(baseline) +
                          " has no measurements here: no ratios");
  // The candidates vs the baseline, then (allPairs) every pair of
  // candidates, the later in table order over the earlier: one family.
  std::vector<Comparison> comparisons;
  for (std::size_t k = hasBaseline ? 1 : order.size(); k < order.size(); ++k) {
    auto c = compare(*order[k], hs[k], *order[0], hs[0], bench.benchmark,
                     "ratio/" + bench.benchmark + "/" + order[k]->system, table, balanced, options,
                     br.warnings);
    if (!c)
      return fail(c.error());
    comparisons.push_back(std::move(*c));
  }
  const std::size_t baselineRatios = comparisons.size();
  if (options.allPairs)
    for (std::size_t k = hasBaseline ? 1 : 0; k < order.size(); ++k)
      for (std::size_t l = k + 1; l < order.size(); ++l) {
        auto c =
            compare(*order[l], hs[l], *order[k], hs[k], bench.benchmark,
                    "pair/" + bench.benchmark + "/" + order[l]->system + "/" + order[k]->system,
                    table, balanced, options, br.warnings);
        if (!c)
          return fail(c.error());
        comparisons.push_back(std::move(*c));
      }
  if (comparisons.size() >= 2)
    holmFamily(comparisons, options);
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    Comparison &c = comparisons[i];
    if (i >= baselineRatios) {
      br.pairs.push_back(std::move(c.report));
      continue;
    }
    SuiteEntry e;
    e.benchmark = bench.benchmark;
    e.replicates = std::move(c.replicates);
    e.estimate = c.report.estimate;
    e.decision = c.report.decision;
    e.runs = topLevelRuns(hs[0], hs[i + 1]);
    e.exponent = scale.exponent;
    out.suite.emplace_back(c.report.candidate, std::move(e));
    br.ratios.push_back(std::move(c.report));
  }
  addSystemWarnings(br, table.levels());
  if (auto unscaled = unscaleBenchmark(br, scale); !unscaled)
    return fail(unscaled.error());
  return out;
}

} // namespace alea::analysis::detail
