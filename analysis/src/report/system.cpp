// One system of one benchmark (report.hpp SystemReport): its mean with the t
// and bootstrap intervals, the variance components per level, the layout
// effect, the planner's advice and the diagnostics.
#include "steps.hpp"

#include "alea/analysis/diagnostics.hpp"
#include "alea/analysis/layout_effect.hpp"
#include "alea/analysis/variance.hpp"
#include "alea/random.hpp"

#include <algorithm>

namespace alea::analysis::detail {

std::vector<LevelReport> levelReports(const Hierarchy &h, const VarianceComponents &vc) {
  // S^2 and T^2 on the data as measured (TR 2012 §6.1); the shares come from
  // the design after removing levels with T^2 <= 0 (variance.hpp).
  const std::vector<double> s2 = sSquared(h);
  const std::vector<double> t2 = tSquared(s2, h.shape);
  std::vector<LevelReport> out;
  for (std::size_t i = 0; i < h.depth(); ++i) {
    LevelReport l;
    l.name = h.levelNames[i];
    l.n = h.shape[i];
    l.s2 = s2[i];
    l.t2 = t2[i];
    l.share = vc.levels[i].share;
    l.removed = vc.levels[i].removed;
    out.push_back(l);
  }
  return out;
}

namespace {

DiagnosticsReport diagnosticsOf(const SystemData &sys, const Hierarchy &h) {
  DiagnosticsReport d;
  auto dg = diagnose(h);
  if (!dg) {
    d.error = dg.error();
    return d;
  }
  d.ok = true;
  for (const auto &o : dg->measurementOutliers.outliers) {
    d.measurementOutliers += 1;
    d.measurementFarOut += o.farOut;
  }
  for (const auto &o : dg->unitOutliers.outliers)
    if (o.index < sys.units.size())
      d.outlierUnits.push_back(sys.units[o.index].label);
  if (dg->modes) {
    d.modesTested = true;
    d.multimodal = dg->modes->multimodal;
    d.modeGap = dg->modes->relativeGap;
    d.modePValue = dg->modes->pValue;
    d.lowUnits = dg->modes->lowUnits.size();
    d.highUnits = dg->modes->highUnits.size();
  }
  if (dg->trends) {
    d.trendsTested = true;
    d.trendExecutions = dg->trends->executions;
    d.trendFlagged = dg->trends->flagged;
    d.trendDecreasing = dg->trends->flaggedDecreasing;
  }
  return d;
}

} // namespace

Expected<SystemReport> systemReport(const SystemData &sys, const Hierarchy &h,
                                    const std::string &benchmark, const ReportOptions &o) {
  SystemReport r;
  r.name = sys.system;
  r.shape = sys.shape;
  r.measurements = h.values.size();
  r.mean = h.grandMean();
  auto ci = meanInterval(h, o.confidence, o.ciMethod);
  if (!ci)
    return fail("system " + quotedName(sys.system) + where(benchmark) + ": " + ci.error());
  r.ci = *ci;
  BootstrapOptions bo;
  bo.replicates = o.bootstrapReplicates;
  bo.seed = alea::mixSeed(o.seed, "mean/" + benchmark + "/" + sys.system);
  bo.threads = o.threads;
  bo.scheme = o.scheme;
  bo.confidence = o.confidence;
  auto boot = bootstrapMean(h, bo);
  if (!boot)
    return fail("system " + quotedName(sys.system) + where(benchmark) + ": " + boot.error());
  r.bootstrap = *boot;
  auto vc = varianceComponents(h);
  if (!vc)
    return fail("system " + quotedName(sys.system) + where(benchmark) + ": " + vc.error());
  r.levels = levelReports(h, *vc);
  r.topLevelWithoutVariation = vc->topLevelWithoutVariation;
  const auto top = h.topMeans();
  const auto [lo, hi] = std::minmax_element(top.begin(), top.end());
  r.bestUnitMean = *lo;
  r.worstUnitMean = *hi;
  r.bestUnit = sys.units[static_cast<std::size_t>(lo - top.begin())].label;
  r.worstUnit = sys.units[static_cast<std::size_t>(hi - top.begin())].label;
  r.topMeans = top;
  r.layout = layoutEffect(h, r.levels.empty() ? 0.0 : r.levels[0].share, o.confidence);
  r.plan = advise(h, o.costs, o.targetHalfWidth, std::nullopt, o.confidence);
  if (o.diagnostics)
    r.diagnostics = diagnosticsOf(sys, h);
  return r;
}

} // namespace alea::analysis::detail
