// The JSON renderer (render.hpp): the report value as nlohmann-json documents,
// `alea analyze`'s ("alea_report"), `alea report`'s ("alea_campaign_report",
// the campaign's facts around the same engine document) and `alea plan`'s
// ("alea_plan"). The keys are a stable interface documented in
// docs/analyze.md and docs/measure.md: add keys freely, never rename or remove
// one without bumping the schema version. ordered_json keeps the keys in the
// order written here, so that the documents read like the documentation.
#include "phrases.hpp"
#include "placement.hpp"

#include "alea/analysis/planner.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace alea::report {

using namespace alea::analysis;

namespace {

using Json = nlohmann::ordered_json;

// JSON has no NaN or infinity: a non-finite number is null (docs/analyze.md;
// e.g. S2 of values near the double range). -0 is written as 0: the sign of a
// zero statistic means nothing to a reader.
Json num(double d) {
  if (!std::isfinite(d))
    return nullptr;
  return d == 0 ? 0.0 : d;
}

Json optionalNum(const std::optional<double> &v) { return v ? num(*v) : Json(nullptr); }

Json optionalCount(const std::optional<std::size_t> &v) { return v ? Json(*v) : Json(nullptr); }

// Every interval is a [lower, upper] array.
Json jsonInterval(const Interval &i) { return Json::array({num(i.lower), num(i.upper)}); }

Json optionalInterval(const std::optional<Interval> &i) {
  return i ? jsonInterval(*i) : Json(nullptr);
}

// The array of fn(item) for every item, in order.
template <typename Range, typename Fn> Json jsonArray(const Range &items, Fn fn) {
  Json a = Json::array();
  for (const auto &item : items)
    a.push_back(fn(item));
  return a;
}

// The array of the values themselves (strings, counts).
template <typename T> Json values(const std::vector<T> &v) {
  return jsonArray(v, [](const T &x) { return Json(x); });
}

Json strings(const std::vector<std::string> &v) { return values(v); }

Json sizes(const std::vector<std::size_t> &v) { return values(v); }

Json nameOrNull(const std::string &s) { return s.empty() ? Json(nullptr) : Json(s); }

Json jsonLevel(const LevelReport &l) {
  Json o = Json::object();
  o["name"] = l.name;
  o["n"] = l.n;
  o["S2"] = num(l.s2);
  o["T2"] = num(l.t2);
  o["share"] = num(l.share);
  o["removed"] = l.removed;
  return o;
}

Json jsonLevels(const std::vector<LevelReport> &levels) { return jsonArray(levels, jsonLevel); }

// How a part of the report that can fail opens its object: "ok", and
// "error" when not ok (the part's own keys follow only when ok).
Json okOrError(bool ok, const std::string &error) {
  Json o = Json::object();
  o["ok"] = ok;
  if (!ok)
    o["error"] = error;
  return o;
}

// "counts": one {name, n, removed} per level, highest first.
Json planCounts(const std::vector<std::string> &names, const std::vector<std::size_t> &counts,
                const std::vector<bool> &removed) {
  Json a = Json::array();
  for (std::size_t i = 0; i < names.size(); ++i) {
    Json o = Json::object();
    o["name"] = names[i];
    o["n"] = counts[i];
    o["removed"] = static_cast<bool>(removed[i]);
    a.push_back(std::move(o));
  }
  return a;
}

// The opening both plans' objects share: "ok", then "error" alone (when no
// plan) or the "counts"; the caller adds its own keys after the counts.
Json jsonPlanCounts(const PlanCounts &p) {
  Json o = okOrError(p.ok, p.error);
  if (!p.ok)
    return o;
  o["counts"] = planCounts(p.levelNames, p.counts, p.removed);
  return o;
}

Json jsonPlan(const PlanAdvice &p) {
  Json o = jsonPlanCounts(p);
  if (!p.ok)
    return o;
  o["target_half_width"] = p.targetHalfWidth > 0 ? num(p.targetHalfWidth) : Json(nullptr);
  o["top_units_needed"] = optionalCount(p.topUnitsNeeded);
  // What to run: at least kMinimumTopCount (KJ13 §11).
  o["top_units_to_run"] =
      p.topUnitsNeeded ? Json(std::max(*p.topUnitsNeeded, kMinimumTopCount)) : Json(nullptr);
  o["predicted_half_width"] = num(p.predictedHalfWidth);
  o["cost_per_top_unit"] = num(p.costPerTopUnit);
  o["default_costs"] = p.defaultCosts;
  o["top_upper_bound"] = p.topUpperBound;
  o["top_note"] = p.topUpperBound ? Json(p.topNote) : Json(nullptr);
  return o;
}

Json jsonDiagnostics(const DiagnosticsReport &d) {
  Json o = okOrError(d.ok, d.error);
  if (!d.ok)
    return o;
  o["measurement_outliers"] = d.measurementOutliers;
  o["measurement_far_out"] = d.measurementFarOut;
  o["outlier_units"] = strings(d.outlierUnits);
  if (d.modesTested) {
    Json m = Json::object();
    m["multimodal"] = d.multimodal;
    m["p_value"] = num(d.modePValue);
    m["gap"] = num(d.modeGap);
    m["low_units"] = d.lowUnits;
    m["high_units"] = d.highUnits;
    o["modes"] = std::move(m);
  } else {
    o["modes"] = nullptr;
  }
  if (d.trendsTested) {
    Json t = Json::object();
    t["tested"] = d.trendExecutions;
    t["flagged"] = d.trendFlagged;
    t["decreasing"] = d.trendDecreasing;
    o["trends"] = std::move(t);
  } else {
    o["trends"] = nullptr;
  }
  return o;
}

// The layout effect of one system (analysis::LayoutEffect), after the extreme
// top-level unit means the object always had. Every key is always there; when
// the effect could not be estimated, `error` says why and the estimates are
// null (the observed spread, which needs no model, stays).
Json jsonLayout(const SystemReport &s) {
  const LayoutEffect &l = s.layout;
  Json o = Json::object();
  o["best_unit"] = s.bestUnit;
  o["best_mean"] = num(s.bestUnitMean);
  o["worst_unit"] = s.worstUnit;
  o["worst_mean"] = num(s.worstUnitMean);
  o["spread"] = num(s.bestUnitMean > 0 ? s.worstUnitMean / s.bestUnitMean - 1 : 0.0);
  o["ok"] = l.ok;
  o["error"] = l.ok ? Json(nullptr) : Json(l.error);
  o["level"] = l.level;
  o["units"] = l.units;
  o["share"] = num(l.share);
  auto estimate = [&](double v) { return l.ok ? num(v) : Json(nullptr); };
  auto estimateInterval = [&](const Interval &i) { return l.ok ? jsonInterval(i) : Json(nullptr); };
  o["sd"] = estimate(l.sd);
  o["relative_sd"] = estimate(l.relativeSd);
  o["relative_sd_ci"] = estimateInterval(l.relativeSdCi);
  o["d2"] = estimate(l.d2);
  o["expected_spread"] = estimate(l.expectedSpread);
  o["expected_spread_ci"] = estimateInterval(l.expectedSpreadCi);
  o["observed_spread"] = num(l.observedSpread);
  return o;
}

Json jsonRatioPlan(const RatioPlanAdvice &p) {
  Json o = jsonPlanCounts(p);
  if (!p.ok)
    return o;
  o["target_half_width"] = num(p.targetHalfWidth);
  o["reachable"] = p.reachable;
  o["predicted_half_width"] = num(p.predictedHalfWidth); // null: unbounded
  o["rho"] = num(p.rho);
  o["neighbour_factor"] = num(p.varianceFactor);
  o["cost_per_pair"] = num(p.costPerPair);
  o["total_cost"] = num(p.totalCost);
  // In the data's unit; null with the default costs.
  o["total_time"] = p.defaultCosts ? Json(nullptr) : num(p.totalTime);
  o["default_costs"] = p.defaultCosts;
  o["upper_bound_used"] = p.upperBound;
  o["notes"] = strings(p.notes);
  return o;
}

Json jsonSpeedupTest(const std::optional<SpeedupTestReport> &test) {
  if (!test)
    return nullptr;
  const SpeedupTestReport &t = *test;
  Json o = okOrError(t.ok, t.error);
  if (!t.ok)
    return o;
  o["mean_speedup"] = num(t.meanSpeedup);
  o["median_speedup"] = num(t.medianSpeedup);
  o["mean_verdict"] = t.meanVerdict;
  o["median_verdict"] = t.medianVerdict;
  o["p_baseline_slower"] = num(t.probabilityBaselineSlower);
  o["p_above_half"] = t.probabilityAboveHalf;
  o["notes"] = strings(t.notes);
  return o;
}

// Holm's family of the benchmark's comparisons (RatioReport::Family).
Json jsonFamily(const std::optional<RatioReport::Family> &family) {
  if (!family)
    return nullptr;
  const RatioReport::Family &f = *family;
  Json o = Json::object();
  o["size"] = f.size;
  o["rank"] = f.rank;
  o["p_value"] = num(f.pValue);
  o["adjusted_p"] = num(f.adjustedP);
  o["level"] = num(f.level);
  o["interval"] = optionalInterval(f.interval);
  o["decision"] = std::string(decisionKey(f.decision));
  return o;
}

// One comparison: a candidate vs the baseline ("ratios") or a pair of
// candidates ("pairs"). `topLevel` names the units the sentence in words is
// "across".
Json jsonRatio(const RatioReport &x, const std::string &topLevel) {
  Json o = Json::object();
  o["candidate"] = x.candidate;
  o["baseline"] = x.baseline;
  o["estimate"] = num(x.estimate);
  o["change"] = num(x.estimate - 1);
  Json fieller = Json::object();
  fieller["status"] = x.fiellerStatus == FiellerStatus::Bounded ? "bounded" : "unbounded";
  fieller["interval"] = optionalInterval(x.fieller);
  fieller["df"] = num(x.fiellerDf);
  o["fieller"] = std::move(fieller);
  o["bootstrap"] = jsonInterval(x.bootstrap);
  o["confidence"] = num(x.confidence);
  o["threshold"] = num(x.threshold);
  o["decision"] = std::string(decisionKey(x.decision));
  o["decision_basis"] = x.decisionBasis;
  o["disagreement"] = x.disagreement;
  // The sentence the text report prints, so that JSON says it too.
  o["in_words"] = ratioInWords(x, topLevel);
  Json top = Json::object();
  top["candidate"] = x.candidateTopUnits;
  top["baseline"] = x.baselineTopUnits;
  o["top_units"] = std::move(top);
  o["unequal_top_units"] = x.unequalTopUnits();
  Json pairing = Json::object();
  pairing["paired"] = x.paired;
  pairing["pairs"] = x.pairs;
  pairing["correlation"] = x.paired ? num(x.pairCorrelation) : Json(nullptr);
  pairing["note"] = x.pairingNote;
  if (x.neighbourFactor) // only when the measurements' start times were known
    pairing["neighbour_factor"] = num(*x.neighbourFactor);
  o["pairing"] = std::move(pairing);
  o["plan"] = jsonRatioPlan(x.ratioPlan);
  o["speedup_test"] = jsonSpeedupTest(x.speedupTest);
  o["family"] = jsonFamily(x.family);
  return o;
}

Json jsonRatios(const std::vector<RatioReport> &ratios, const std::string &topLevel) {
  return jsonArray(ratios, [&](const RatioReport &x) { return jsonRatio(x, topLevel); });
}

Json jsonIssue(const BalanceIssue &i) {
  Json o = Json::object();
  o["benchmark"] = i.benchmark;
  o["system"] = i.system;
  o["path"] = strings(i.path);
  o["level"] = i.level;
  o["found"] = i.found;
  o["expected"] = i.expected;
  return o;
}

Json jsonDropped(const DroppedUnits &x) {
  Json o = Json::object();
  o["benchmark"] = x.benchmark;
  o["system"] = x.system;
  o["path"] = strings(x.path);
  o["level"] = x.level;
  o["units"] = strings(x.labels);
  o["measurements"] = x.measurements;
  o["reason"] = x.reason == DropReason::Incomplete ? "incomplete" : "trimmed";
  if (x.reason == DropReason::Incomplete) {
    o["child_level"] = x.childLevel;
    o["found"] = x.found;
    o["expected"] = x.expected;
  }
  return o;
}

// "unbalanced" and "dropped" (engine and plan documents).
void addUnbalanced(Json &doc, const std::vector<BalanceIssue> &issues,
                   const std::vector<DroppedUnits> &dropped) {
  doc["unbalanced"] = jsonArray(issues, jsonIssue);
  doc["dropped"] = jsonArray(dropped, jsonDropped);
}

Json jsonSystemBalance(const SystemBalance &b) {
  Json o = Json::object();
  o["benchmark"] = b.benchmark;
  o["system"] = b.system;
  o["applied"] = unbalancedName(b.applied);
  o["measurements"] = b.measurements;
  o["top_units"] = b.topUnits;
  o["removed"] = b.lost();
  for (UnbalancedPolicy p :
       {UnbalancedPolicy::Trim, UnbalancedPolicy::Drop, UnbalancedPolicy::Mixed}) {
    Json c = Json::object();
    c["removed"] = b.lostBy(p);
    c["top_units_kept"] = b.topUnitsBy(p);
    c["shape"] = sizes(b.shapeBy(p));
    c["variance_factor"] = num(b.varianceBy(p));
    o[unbalancedName(p)] = std::move(c);
  }
  o["shape"] = sizes(b.shapeBy(b.applied));
  o["variance_factor"] = num(b.varianceBy(b.applied));
  return o;
}

Json jsonBalancing(const std::vector<SystemBalance> &systems) {
  return jsonArray(systems, jsonSystemBalance);
}

// Touati's suite level of one candidate (docs/analyze.md).
void addTouati(Json &o, const SuiteRatioReport &s) {
  if (s.proportion) {
    const SuiteProportion &p = *s.proportion;
    Json q = Json::object();
    q["faster"] = p.accelerated;
    q["benchmarks"] = p.benchmarks;
    q["estimate"] = num(p.proportion);
    q["interval"] = jsonInterval(Interval{p.lower, p.upper});
    q["method"] = "prop.test";
    q["wald"] = jsonInterval(Interval{p.waldLower, p.waldUpper});
    q["normal_approximation_valid"] = p.normalApproximationValid;
    o["proportion_faster"] = std::move(q);
  } else {
    o["proportion_faster"] = nullptr;
  }
  Json needed = Json::object();
  needed["half_width"] = num(s.proportionHalfWidth);
  needed["observed"] = optionalCount(s.benchmarksNeeded);
  needed["worst_case"] = optionalCount(s.benchmarksNeededWorstCase);
  o["benchmarks_needed"] = std::move(needed);
  Json gain = Json::object();
  for (const bool fasterOnly : {false, true}) {
    const auto &paper = fasterOnly ? s.gainFaster : s.gainAll;
    const auto &unit = fasterOnly ? s.gainFasterUnitWeights : s.gainAllUnitWeights;
    Json g = nullptr;
    if (paper) {
      g = Json::object();
      g["baseline_median"] = num(*paper);
      g["unit"] = optionalNum(unit);
    }
    gain[fasterOnly ? "faster" : "all"] = std::move(g);
  }
  o["gain_factor"] = std::move(gain);
}

Json jsonSystem(const SystemReport &s) {
  Json o = Json::object();
  o["name"] = s.name;
  o["shape"] = sizes(s.shape);
  o["measurements"] = s.measurements;
  o["mean"] = num(s.mean);
  o["ci_t"] = jsonInterval(s.ci.interval);
  o["ci_method"] = methodName(s.ci.method);
  o["ci_df"] = s.ci.df;
  o["ci_bootstrap"] = jsonInterval(s.bootstrap.interval);
  o["levels"] = jsonLevels(s.levels);
  o["top_level_without_variation"] = s.topLevelWithoutVariation;
  o["layout"] = jsonLayout(s);
  o["plan"] = jsonPlan(s.plan);
  o["diagnostics"] = jsonDiagnostics(s.diagnostics);
  return o;
}

Json jsonSuite(const SuiteRatioReport &s) {
  Json o = Json::object();
  o["candidate"] = s.candidate;
  o["baseline"] = s.baseline;
  o["benchmarks"] = s.benchmarks;
  o["left_out"] = strings(s.leftOut);
  o["geometric_mean"] = num(s.geometricMean);
  o["bootstrap"] = jsonInterval(s.bootstrap);
  o["bootstrap_top_level"] =
      s.topLevelBootstrapOk ? jsonInterval(s.topLevelBootstrap) : Json(nullptr);
  o["confidence"] = num(s.confidence);
  o["decision"] = std::string(decisionKey(s.decision));
  o["faster"] = s.faster;
  o["slower"] = s.slower;
  if (s.randomizationOk) {
    Json t = Json::object();
    t["p_value"] = num(s.randomizationP);
    t["exhaustive"] = s.randomizationExhaustive;
    t["replicates"] = s.randomizationReplicates;
    o["randomization_test"] = std::move(t);
  } else {
    o["randomization_test"] = nullptr;
  }
  addTouati(o, s);
  return o;
}

Json jsonSuiteSystem(const SuiteSystemReport &e) {
  Json o = Json::object();
  o["name"] = e.name;
  o["benchmarks"] = e.benchmarks;
  o["left_out"] = strings(e.leftOut);
  o["observed"] = num(e.observed);
  o["replicates"] = e.replicates;
  Json five = Json::object();
  five["min"] = num(e.summary.minimum);
  five["q1"] = num(e.summary.q1);
  five["median"] = num(e.summary.median);
  five["q3"] = num(e.summary.q3);
  five["max"] = num(e.summary.maximum);
  o["five_number"] = std::move(five);
  return o;
}

// `alea analyze`'s document (docs/analyze.md), also the "report" of a campaign.
Json engineDoc(const Report &r) {
  Json doc = Json::object();
  doc["alea_report"] = static_cast<std::size_t>(kReportSchemaVersion);
  doc["levels"] = strings(r.levels);
  doc["baseline"] = r.baseline;
  const ReportOptions &o = r.options;
  Json options = Json::object();
  options["confidence"] = num(o.confidence);
  options["threshold"] = num(o.threshold);
  options["ci_variant"] = methodName(o.ciMethod);
  options["bootstrap_replicates"] = o.bootstrapReplicates;
  options["seed"] = o.seed;
  options["resampling"] = o.scheme.name();
  options["disagreement_fraction"] = num(o.disagreementFraction);
  options["unbalanced"] = unbalancedName(o.unbalanced);
  // The costs used: the default is 1 per level but the lowest.
  Json costs = Json::array();
  if (o.costs.empty())
    for (std::size_t i = 1; i < r.levels.size(); ++i)
      costs.push_back(1.0);
  for (double c : o.costs)
    costs.push_back(num(c));
  options["costs"] = std::move(costs);
  options["default_costs"] = o.costs.empty();
  options["target_half_width"] = num(o.targetHalfWidth);
  options["proportion_half_width"] = num(o.proportionHalfWidth);
  options["pairing"] = o.pairing == Pairing::Paired ? "paired" : "unpaired";
  doc["options"] = std::move(options);
  const std::string top = r.levels.empty() ? std::string() : r.levels.front();
  doc["benchmarks"] = jsonArray(r.benchmarks, [&](const BenchmarkReport &b) {
    Json jb = Json::object();
    jb["name"] = nameOrNull(b.name);                               // null: no benchmark column
    jb["error"] = b.error.empty() ? Json(nullptr) : Json(b.error); // null: it has statistics
    jb["systems"] = jsonArray(b.systems, jsonSystem);
    jb["ratio"] = b.ratios.empty() ? Json(nullptr) : jsonRatio(b.ratios.front(), top);
    jb["ratios"] = jsonRatios(b.ratios, top);
    jb["pairs"] = jsonRatios(b.pairs, top);
    jb["warnings"] = strings(b.warnings);
    return jb;
  });
  doc["suite"] = jsonArray(r.suite, jsonSuite);
  doc["suite_systems"] = jsonArray(r.suiteSystems, jsonSuiteSystem);
  addUnbalanced(doc, r.unbalanced, r.dropped);
  doc["balancing"] = jsonBalancing(r.balancing);
  doc["warnings"] = strings(r.warnings);
  return doc;
}

Json jsonNoise(const model::CampaignReport::Noise &n) {
  Json o = Json::object();
  o["benchmark"] = n.benchmark;
  o["error"] = n.diagnosis ? Json(nullptr) : Json(n.error);
  if (!n.diagnosis)
    return o;
  o["executions"] = n.diagnosis->executions;
  o["builds"] = n.diagnosis->builds;
  o["findings"] = jsonArray(n.diagnosis->findings, [](const auto &f) {
    Json jf = Json::object();
    jf["kind"] = f.kind;
    jf["value"] = num(f.value);
    jf["p_value"] = optionalNum(f.pValue);
    jf["adjusted_p_value"] = optionalNum(f.adjustedPValue);
    jf["significant"] = f.significant;
    jf["artifact"] = f.artifact;
    jf["text"] = f.text;
    jf["advice"] = f.advice;
    return jf;
  });
  return o;
}

// `alea report`'s document (docs/measure.md): the campaign's facts and the
// engine's document, or null when nothing could be analysed.
Json campaignDoc(const model::CampaignReport &r) {
  Json c = Json::object();
  c["name"] = r.name;
  c["store"] = r.storePath;
  c["layout_study"] = r.layoutStudy;
  c["systems"] = strings(r.systems);
  c["benchmarks"] = strings(r.benchmarks);
  c["planned_executions"] = static_cast<std::size_t>(r.planned);
  c["executions"] = static_cast<std::size_t>(r.executed);
  c["failed_executions"] = static_cast<std::size_t>(r.failed);
  c["builds"] = r.builds;
  c["failed_builds"] = r.failedBuilds;
  c["measurements"] = r.measurements;
  c["design"] = r.design;
  c["design_note"] = r.designNote;
  c["warmup_iterations"] = r.warmup;
  c["imported_from"] = nameOrNull(r.importedFrom);
  c["machines"] = nameOrNull(r.machines);
  c["targets"] = jsonArray(r.targets, [](const auto &t) {
    Json o = Json::object();
    o["name"] = t.name;
    if (t.machine) {
      const alea::MachineState &m = *t.machine;
      o["hostname"] = m.hostname;
      o["cpu_model"] = m.cpuModel;
      o["cpus"] = m.cpuCount;
      o["governor"] = nameOrNull(m.governor);
      o["kernel"] = m.kernel;
      o["aslr"] = m.aslr < 0 ? Json(nullptr) : Json(m.aslr > 0);
    } else {
      o["hostname"] = nullptr; // never answered: no machine state recorded
    }
    return o;
  });
  c["adaptive_log"] = strings(r.adaptiveLog);
  c["ran_busy"] = r.ranBusy;
  Json units = Json::object();
  for (const auto &[benchmark, unit] : r.units)
    units[benchmark] = unit;
  c["units"] = std::move(units);
  c["noise"] = jsonArray(r.noise, jsonNoise);
  c["failures"] = jsonArray(r.failures, [](const auto &f) {
    Json o = Json::object();
    o["benchmark"] = f.benchmark;
    o["system"] = f.system;
    o["status"] = f.status;
    o["cause"] = f.cause;
    o["count"] = f.count;
    o["stderr_tail"] = f.stderrTail;
    return o;
  });
  if (!r.placement.empty()) // campaigns with per-function profiles only
    c["placement"] = placementJson(r.placement);
  c["warnings"] = strings(r.warnings);
  c["analysis_error"] = r.analysis ? Json(nullptr) : Json(r.analysisError);

  Json doc = Json::object();
  doc["alea_campaign_report"] =
      std::size_t{2}; // 2: layout_sensitivity replaced by report...systems[].layout
  doc["campaign"] = std::move(c);
  doc["report"] = r.analysis ? engineDoc(*r.analysis) : Json(nullptr);
  // Several metrics per execution: the decision's, and each other metric's
  // report (the engine's, as "report" is the decision metric's).
  if (!r.decidedOn.empty() || !r.otherMetrics.empty()) {
    Json metrics = Json::object();
    metrics["decided_on"] = r.decidedOn;
    metrics["others"] = jsonArray(r.otherMetrics, [](const auto &m) {
      Json o = Json::object();
      o["metric"] = m.name;
      o["unit"] = m.unit;
      o["error"] = m.analysis ? Json(nullptr) : Json(m.error);
      o["report"] = m.analysis ? engineDoc(*m.analysis) : Json(nullptr);
      return o;
    });
    doc["metrics"] = std::move(metrics);
  }
  return doc;
}

// Two-space indentation, one line per value, and a final newline. Strings
// from programs (a stderr tail, a benchmark's name) need not be UTF-8:
// invalid bytes become U+FFFD rather than failing the whole report.
std::string dump(const Json &doc) {
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace

std::string renderJson(const model::CampaignReport &r) {
  if (!r.campaign)
    return dump(r.analysis ? engineDoc(*r.analysis) : Json(nullptr));
  return dump(campaignDoc(r));
}

std::string jsonPlans(const PlanSet &p) {
  Json doc = Json::object();
  doc["alea_plan"] = static_cast<std::size_t>(kReportSchemaVersion);
  doc["levels"] = strings(p.levels);
  doc["plans"] = jsonArray(p.plans, [](const auto &pr) {
    Json o = Json::object();
    o["system"] = pr.system;
    o["benchmark"] = nameOrNull(pr.benchmark);
    o["mean"] = num(pr.mean);
    o["levels"] = jsonLevels(pr.levels);
    o["overheads"] = jsonArray(pr.overheads, num);
    o["budget"] = optionalNum(pr.budget);
    o["plan"] = jsonPlan(pr.plan);
    o["relative_sd"] = num(pr.relativeSd);
    o["kj13_top_count"] = optionalCount(pr.kj13TopCount);
    // What to run: at least kMinimumTopCount (KJ13 §11).
    o["kj13_run_count"] =
        pr.kj13TopCount ? Json(std::max(*pr.kj13TopCount, kMinimumTopCount)) : Json(nullptr);
    return o;
  });
  addUnbalanced(doc, p.unbalanced, p.dropped);
  doc["balancing"] = jsonBalancing(p.balancing);
  return dump(doc);
}

} // namespace alea::report
