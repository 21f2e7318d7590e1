// The JSON renderer (render.hpp). The keys are a stable interface documented
// in docs/analyze.md and docs/measure.md: add keys freely, never rename or
// remove one without bumping the schema version.
#include "phrases.hpp"
#include "json_writer.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/planner.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace alea::report {

using namespace alea::analysis;

// ---------------------------------------------------------------- JsonWriter

std::string JsonWriter::escape(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
  return out;
}

std::string JsonWriter::number(double d) {
  if (!std::isfinite(d))
    return "null";
  if (d == 0)
    return "0";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  (void)ec;
  return std::string(buf, end);
}

void JsonWriter::newline() {
  if (indent_ <= 0)
    return;
  out_ += '\n';
  out_.append(stack_.size() * static_cast<std::size_t>(indent_), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!stack_.empty()) {
    if (stack_.back() == 'i') { // an inline array: "[1, 2]"
      if (hasElement_.back())
        out_ += indent_ > 0 ? ", " : ",";
      hasElement_.back() = 1;
      return;
    }
    if (hasElement_.back())
      out_ += ',';
    hasElement_.back() = 1;
    newline();
  }
}

JsonWriter &JsonWriter::beginObject() {
  beforeValue();
  out_ += '{';
  stack_ += 'o';
  hasElement_ += '\0';
  return *this;
}

JsonWriter &JsonWriter::endObject() {
  const bool had = hasElement_.back();
  stack_.pop_back();
  hasElement_.pop_back();
  if (had)
    newline();
  out_ += '}';
  return *this;
}

JsonWriter &JsonWriter::beginArray(bool inlined) {
  beforeValue();
  out_ += '[';
  stack_ += inlined ? 'i' : 'a';
  hasElement_ += '\0';
  return *this;
}

JsonWriter &JsonWriter::endArray() {
  const bool had = hasElement_.back();
  const bool inlined = stack_.back() == 'i';
  stack_.pop_back();
  hasElement_.pop_back();
  if (had && !inlined)
    newline();
  out_ += ']';
  return *this;
}

JsonWriter &JsonWriter::key(std::string_view k) {
  beforeValue();
  out_ += escape(k);
  out_ += indent_ > 0 ? ": " : ":";
  afterKey_ = true;
  return *this;
}

JsonWriter &JsonWriter::value(std::string_view s) {
  beforeValue();
  out_ += escape(s);
  return *this;
}

JsonWriter &JsonWriter::value(double d) {
  beforeValue();
  out_ += number(d);
  return *this;
}

JsonWriter &JsonWriter::value(std::size_t n) {
  beforeValue();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter &JsonWriter::value(bool b) {
  beforeValue();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::null() {
  beforeValue();
  out_ += "null";
  return *this;
}

namespace {

// ---------------------------------------------------------------- JSON

void jsonInterval(JsonWriter &w, const Interval &i) {
  w.beginArray(true).value(i.lower).value(i.upper).endArray();
}

void jsonLevels(JsonWriter &w, const std::vector<LevelReport> &levels) {
  w.beginArray();
  for (const auto &l : levels) {
    w.beginObject();
    w.key("name").value(l.name);
    w.key("n").value(l.n);
    w.key("S2").value(l.s2);
    w.key("T2").value(l.t2);
    w.key("share").value(l.share);
    w.key("removed").value(l.removed);
    w.endObject();
  }
  w.endArray();
}

// "counts": one {name, n, removed} per level, highest first.
void jsonPlanCounts(JsonWriter &w, const std::vector<std::string> &names,
                    const std::vector<std::size_t> &counts, const std::vector<bool> &removed) {
  w.key("counts").beginArray();
  for (std::size_t i = 0; i < names.size(); ++i) {
    w.beginObject();
    w.key("name").value(names[i]);
    w.key("n").value(counts[i]);
    w.key("removed").value(static_cast<bool>(removed[i]));
    w.endObject();
  }
  w.endArray();
}

void jsonPlan(JsonWriter &w, const PlanAdvice &p) {
  w.beginObject();
  w.key("ok").value(p.ok);
  if (!p.ok) {
    w.key("error").value(p.error);
    w.endObject();
    return;
  }
  jsonPlanCounts(w, p.levelNames, p.counts, p.removed);
  w.key("target_half_width");
  if (p.targetHalfWidth > 0)
    w.value(p.targetHalfWidth);
  else
    w.null();
  w.key("top_units_needed");
  if (p.topUnitsNeeded)
    w.value(*p.topUnitsNeeded);
  else
    w.null();
  w.key("top_units_to_run"); // at least kMinimumTopCount (KJ13 §11)
  if (p.topUnitsNeeded)
    w.value(std::max(*p.topUnitsNeeded, kMinimumTopCount));
  else
    w.null();
  w.key("predicted_half_width").value(p.predictedHalfWidth);
  w.key("cost_per_top_unit").value(p.costPerTopUnit);
  w.key("default_costs").value(p.defaultCosts);
  w.key("top_upper_bound").value(p.topUpperBound);
  w.key("top_note");
  if (p.topUpperBound)
    w.value(p.topNote);
  else
    w.null();
  w.endObject();
}

void jsonStrings(JsonWriter &w, const std::vector<std::string> &v, bool inlined = true) {
  w.beginArray(inlined && !v.empty());
  for (const auto &s : v)
    w.value(s);
  w.endArray();
}

void jsonSizes(JsonWriter &w, const std::vector<std::size_t> &v) {
  w.beginArray(true);
  for (auto n : v)
    w.value(n);
  w.endArray();
}

void jsonDiagnostics(JsonWriter &w, const DiagnosticsReport &d) {
  w.beginObject();
  w.key("ok").value(d.ok);
  if (!d.ok) {
    w.key("error").value(d.error);
    w.endObject();
    return;
  }
  w.key("measurement_outliers").value(d.measurementOutliers);
  w.key("measurement_far_out").value(d.measurementFarOut);
  w.key("outlier_units");
  jsonStrings(w, d.outlierUnits);
  w.key("modes");
  if (d.modesTested) {
    w.beginObject();
    w.key("multimodal").value(d.multimodal);
    w.key("p_value").value(d.modePValue);
    w.key("gap").value(d.modeGap);
    w.key("low_units").value(d.lowUnits);
    w.key("high_units").value(d.highUnits);
    w.endObject();
  } else {
    w.null();
  }
  w.key("trends");
  if (d.trendsTested) {
    w.beginObject();
    w.key("tested").value(d.trendExecutions);
    w.key("flagged").value(d.trendFlagged);
    w.key("decreasing").value(d.trendDecreasing);
    w.endObject();
  } else {
    w.null();
  }
  w.endObject();
}

void jsonRatioPlan(JsonWriter &w, const RatioPlanAdvice &p) {
  w.beginObject();
  w.key("ok").value(p.ok);
  if (!p.ok) {
    w.key("error").value(p.error);
    w.endObject();
    return;
  }
  jsonPlanCounts(w, p.levelNames, p.counts, p.removed);
  w.key("target_half_width").value(p.targetHalfWidth);
  w.key("reachable").value(p.reachable);
  w.key("predicted_half_width");
  if (std::isfinite(p.predictedHalfWidth))
    w.value(p.predictedHalfWidth);
  else
    w.null();
  w.key("rho").value(p.rho);
  w.key("cost_per_pair").value(p.costPerPair);
  w.key("total_cost").value(p.totalCost);
  w.key("total_time"); // in the data's unit; null with the default costs
  if (p.defaultCosts)
    w.null();
  else
    w.value(p.totalTime);
  w.key("default_costs").value(p.defaultCosts);
  w.key("upper_bound_used").value(p.upperBound);
  w.key("notes");
  jsonStrings(w, p.notes, false);
  w.endObject();
}

void jsonRatio(JsonWriter &w, const RatioReport &x) {
  w.beginObject();
  w.key("candidate").value(x.candidate);
  w.key("baseline").value(x.baseline);
  w.key("estimate").value(x.estimate);
  w.key("change").value(x.estimate - 1);
  w.key("fieller").beginObject();
  w.key("status").value(x.fiellerStatus == FiellerStatus::Bounded ? "bounded" : "unbounded");
  w.key("interval");
  if (x.fieller)
    jsonInterval(w, *x.fieller);
  else
    w.null();
  w.key("df").value(x.fiellerDf);
  w.endObject();
  w.key("bootstrap");
  jsonInterval(w, x.bootstrap);
  w.key("confidence").value(x.confidence);
  w.key("threshold").value(x.threshold);
  w.key("decision").value(decisionKey(x.decision));
  w.key("decision_basis").value(x.decisionBasis);
  w.key("disagreement").value(x.disagreement);
  w.key("top_units").beginObject();
  w.key("candidate").value(x.candidateTopUnits);
  w.key("baseline").value(x.baselineTopUnits);
  w.endObject();
  w.key("unequal_top_units").value(x.unequalTopUnits());
  w.key("pairing").beginObject();
  w.key("paired").value(x.paired);
  w.key("pairs").value(x.pairs);
  w.key("correlation");
  if (x.paired)
    w.value(x.pairCorrelation);
  else
    w.null();
  w.key("note").value(x.pairingNote);
  w.endObject();
  w.key("plan");
  jsonRatioPlan(w, x.ratioPlan);
  w.key("speedup_test");
  if (x.speedupTest) {
    const auto &t = *x.speedupTest;
    w.beginObject();
    w.key("ok").value(t.ok);
    if (t.ok) {
      w.key("mean_speedup").value(t.meanSpeedup);
      w.key("median_speedup").value(t.medianSpeedup);
      w.key("mean_verdict").value(t.meanVerdict);
      w.key("median_verdict").value(t.medianVerdict);
      w.key("p_baseline_slower").value(t.probabilityBaselineSlower);
      w.key("p_above_half").value(t.probabilityAboveHalf);
      w.key("notes");
      jsonStrings(w, t.notes, false);
    } else {
      w.key("error").value(t.error);
    }
    w.endObject();
  } else {
    w.null();
  }
  w.endObject();
}

void jsonUnbalanced(JsonWriter &w, const std::vector<BalanceIssue> &issues,
                    const std::vector<DroppedUnits> &dropped) {
  w.key("unbalanced").beginArray();
  for (const auto &i : issues) {
    w.beginObject();
    w.key("benchmark").value(i.benchmark);
    w.key("system").value(i.system);
    w.key("path");
    jsonStrings(w, i.path);
    w.key("level").value(i.level);
    w.key("found").value(i.found);
    w.key("expected").value(i.expected);
    w.endObject();
  }
  w.endArray();
  w.key("dropped").beginArray();
  for (const auto &d : dropped) {
    w.beginObject();
    w.key("benchmark").value(d.benchmark);
    w.key("system").value(d.system);
    w.key("path");
    jsonStrings(w, d.path);
    w.key("level").value(d.level);
    w.key("units");
    jsonStrings(w, d.labels);
    w.key("measurements").value(d.measurements);
    w.key("reason").value(d.reason == DropReason::Incomplete ? "incomplete" : "trimmed");
    if (d.reason == DropReason::Incomplete) {
      w.key("child_level").value(d.childLevel);
      w.key("found").value(d.found);
      w.key("expected").value(d.expected);
    }
    w.endObject();
  }
  w.endArray();
}

void jsonBalancing(JsonWriter &w, const std::vector<SystemBalance> &systems) {
  w.key("balancing").beginArray();
  for (const auto &b : systems) {
    w.beginObject();
    w.key("benchmark").value(b.benchmark);
    w.key("system").value(b.system);
    w.key("applied").value(unbalancedName(b.applied));
    w.key("measurements").value(b.measurements);
    w.key("top_units").value(b.topUnits);
    w.key("removed").value(b.lost());
    for (UnbalancedPolicy p :
         {UnbalancedPolicy::Trim, UnbalancedPolicy::Drop, UnbalancedPolicy::Mixed}) {
      w.key(unbalancedName(p)).beginObject();
      w.key("removed").value(b.lostBy(p));
      w.key("top_units_kept").value(b.topUnitsBy(p));
      w.key("shape");
      jsonSizes(w, b.shapeBy(p));
      w.key("variance_factor").value(b.varianceBy(p));
      w.endObject();
    }
    w.key("shape");
    jsonSizes(w, b.shapeBy(b.applied));
    w.key("variance_factor").value(b.varianceBy(b.applied));
    w.endObject();
  }
  w.endArray();
}

void jsonOptional(JsonWriter &w, const std::optional<double> &v) {
  if (v)
    w.value(*v);
  else
    w.null();
}

void jsonOptional(JsonWriter &w, const std::optional<std::size_t> &v) {
  if (v)
    w.value(*v);
  else
    w.null();
}

// Touati's suite level of one candidate (docs/analyze.md).
void jsonTouati(JsonWriter &w, const SuiteRatioReport &s) {
  w.key("proportion_faster");
  if (s.proportion) {
    const SuiteProportion &p = *s.proportion;
    w.beginObject();
    w.key("faster").value(p.accelerated);
    w.key("benchmarks").value(p.benchmarks);
    w.key("estimate").value(p.proportion);
    w.key("interval");
    jsonInterval(w, Interval{p.lower, p.upper});
    w.key("method").value("prop.test");
    w.key("wald");
    jsonInterval(w, Interval{p.waldLower, p.waldUpper});
    w.key("normal_approximation_valid").value(p.normalApproximationValid);
    w.endObject();
  } else {
    w.null();
  }
  w.key("benchmarks_needed").beginObject();
  w.key("half_width").value(s.proportionHalfWidth);
  w.key("observed");
  jsonOptional(w, s.benchmarksNeeded);
  w.key("worst_case");
  jsonOptional(w, s.benchmarksNeededWorstCase);
  w.endObject();
  w.key("gain_factor").beginObject();
  for (const bool fasterOnly : {false, true}) {
    const auto &paper = fasterOnly ? s.gainFaster : s.gainAll;
    const auto &unit = fasterOnly ? s.gainFasterUnitWeights : s.gainAllUnitWeights;
    w.key(fasterOnly ? "faster" : "all");
    if (paper) {
      w.beginObject();
      w.key("baseline_median").value(*paper);
      w.key("unit");
      jsonOptional(w, unit);
      w.endObject();
    } else {
      w.null();
    }
  }
  w.endObject();
}

std::string engineJson(const Report &r) {
  JsonWriter w;
  w.beginObject();
  w.key("alea_report").value(static_cast<std::size_t>(kReportSchemaVersion));
  w.key("levels");
  jsonStrings(w, r.levels);
  w.key("baseline").value(r.baseline);
  const ReportOptions &o = r.options;
  w.key("options").beginObject();
  w.key("confidence").value(o.confidence);
  w.key("threshold").value(o.threshold);
  w.key("ci_variant").value(methodName(o.ciMethod));
  w.key("bootstrap_replicates").value(o.bootstrapReplicates);
  w.key("seed").value(static_cast<std::size_t>(o.seed));
  w.key("resampling").value(o.scheme.name());
  w.key("disagreement_fraction").value(o.disagreementFraction);
  w.key("unbalanced").value(unbalancedName(o.unbalanced));
  w.key("costs").beginArray(true);
  if (o.costs.empty())
    for (std::size_t i = 1; i < r.levels.size(); ++i)
      w.value(1.0);
  for (double c : o.costs)
    w.value(c);
  w.endArray();
  w.key("default_costs").value(o.costs.empty());
  w.key("target_half_width").value(o.targetHalfWidth);
  w.key("proportion_half_width").value(o.proportionHalfWidth);
  w.key("pairing").value(o.pairing == Pairing::Paired ? "paired" : "unpaired");
  w.endObject();
  w.key("benchmarks").beginArray();
  for (const auto &b : r.benchmarks) {
    w.beginObject();
    w.key("name");
    if (b.name.empty())
      w.null();
    else
      w.value(b.name);
    w.key("systems").beginArray();
    for (const auto &s : b.systems) {
      w.beginObject();
      w.key("name").value(s.name);
      w.key("shape").beginArray(true);
      for (auto n : s.shape)
        w.value(n);
      w.endArray();
      w.key("measurements").value(s.measurements);
      w.key("mean").value(s.mean);
      w.key("ci_t");
      jsonInterval(w, s.ci.interval);
      w.key("ci_method").value(methodName(s.ci.method));
      w.key("ci_df").value(s.ci.df);
      w.key("ci_bootstrap");
      jsonInterval(w, s.bootstrap.interval);
      w.key("levels");
      jsonLevels(w, s.levels);
      w.key("top_level_without_variation").value(s.topLevelWithoutVariation);
      w.key("layout").beginObject();
      w.key("best_unit").value(s.bestUnit);
      w.key("best_mean").value(s.bestUnitMean);
      w.key("worst_unit").value(s.worstUnit);
      w.key("worst_mean").value(s.worstUnitMean);
      w.key("spread").value(s.bestUnitMean > 0 ? s.worstUnitMean / s.bestUnitMean - 1 : 0.0);
      w.endObject();
      w.key("plan");
      jsonPlan(w, s.plan);
      w.key("diagnostics");
      jsonDiagnostics(w, s.diagnostics);
      w.endObject();
    }
    w.endArray();
    w.key("ratio");
    if (b.ratios.empty())
      w.null();
    else
      jsonRatio(w, b.ratios.front());
    w.key("ratios").beginArray();
    for (const auto &x : b.ratios)
      jsonRatio(w, x);
    w.endArray();
    w.key("warnings");
    jsonStrings(w, b.warnings, false);
    w.endObject();
  }
  w.endArray();
  w.key("suite").beginArray();
  for (const auto &s : r.suite) {
    w.beginObject();
    w.key("candidate").value(s.candidate);
    w.key("baseline").value(s.baseline);
    w.key("benchmarks").value(s.benchmarks);
    w.key("geometric_mean").value(s.geometricMean);
    w.key("bootstrap");
    jsonInterval(w, s.bootstrap);
    w.key("bootstrap_top_level");
    if (s.topLevelBootstrapOk)
      jsonInterval(w, s.topLevelBootstrap);
    else
      w.null();
    w.key("confidence").value(s.confidence);
    w.key("decision").value(decisionKey(s.decision));
    w.key("faster").value(s.faster);
    w.key("slower").value(s.slower);
    w.key("randomization_test");
    if (s.randomizationOk) {
      w.beginObject();
      w.key("p_value").value(s.randomizationP);
      w.key("exhaustive").value(s.randomizationExhaustive);
      w.key("replicates").value(s.randomizationReplicates);
      w.endObject();
    } else {
      w.null();
    }
    jsonTouati(w, s);
    w.endObject();
  }
  w.endArray();
  w.key("suite_systems").beginArray();
  for (const auto &e : r.suiteSystems) {
    w.beginObject();
    w.key("name").value(e.name);
    w.key("benchmarks").value(e.benchmarks);
    w.key("observed").value(e.observed);
    w.key("replicates").value(e.replicates);
    w.key("five_number").beginObject();
    w.key("min").value(e.summary.minimum);
    w.key("q1").value(e.summary.q1);
    w.key("median").value(e.summary.median);
    w.key("q3").value(e.summary.q3);
    w.key("max").value(e.summary.maximum);
    w.endObject();
    w.endObject();
  }
  w.endArray();
  jsonUnbalanced(w, r.unbalanced, r.dropped);
  jsonBalancing(w, r.balancing);
  w.key("warnings");
  jsonStrings(w, r.warnings, false);
  w.endObject();
  return w.str() + "\n";
}

std::string campaignJson(const runner::CampaignReport &r) {
  JsonWriter w(2);
  w.beginObject();
  w.key("name").value(r.name);
  w.key("store").value(r.storePath);
  w.key("layout_study").value(r.layoutStudy);
  w.key("systems").beginArray();
  for (const auto &s : r.systems)
    w.value(s);
  w.endArray();
  w.key("benchmarks").beginArray();
  for (const auto &b : r.benchmarks)
    w.value(b);
  w.endArray();
  w.key("planned_executions").value(static_cast<std::size_t>(r.planned));
  w.key("executions").value(static_cast<std::size_t>(r.executed));
  w.key("failed_executions").value(static_cast<std::size_t>(r.failed));
  w.key("builds").value(r.builds);
  w.key("failed_builds").value(r.failedBuilds);
  w.key("measurements").value(r.measurements);
  w.key("design").value(r.design);
  w.key("design_note").value(r.designNote);
  w.key("adaptive_log").beginArray();
  for (const auto &line : r.adaptiveLog)
    w.value(line);
  w.endArray();
  w.key("ran_busy").value(r.ranBusy);
  w.key("units").beginObject();
  for (const auto &[benchmark, unit] : r.units)
    w.key(benchmark).value(unit);
  w.endObject();
  w.key("noise").beginArray();
  for (const auto &n : r.noise) {
    w.beginObject();
    w.key("benchmark").value(n.benchmark);
    w.key("error");
    if (n.diagnosis)
      w.null();
    else
      w.value(n.error);
    if (n.diagnosis) {
      w.key("executions").value(n.diagnosis->executions);
      w.key("builds").value(n.diagnosis->builds);
      w.key("findings").beginArray();
      for (const auto &f : n.diagnosis->findings) {
        w.beginObject();
        w.key("kind").value(f.kind);
        w.key("value").value(f.value);
        w.key("p_value");
        if (f.pValue)
          w.value(*f.pValue);
        else
          w.null();
        w.key("adjusted_p_value");
        if (f.adjustedPValue)
          w.value(*f.adjustedPValue);
        else
          w.null();
        w.key("significant").value(f.significant);
        w.key("text").value(f.text);
        w.key("advice").value(f.advice);
        w.endObject();
      }
      w.endArray();
    }
    w.endObject();
  }
  w.endArray();
  w.key("failures").beginArray();
  for (const auto &f : r.failures) {
    w.beginObject();
    w.key("benchmark").value(f.benchmark);
    w.key("system").value(f.system);
    w.key("status").value(f.status);
    w.key("cause").value(f.cause);
    w.key("count").value(f.count);
    w.key("stderr_tail").value(f.stderrTail);
    w.endObject();
  }
  w.endArray();
  w.key("warnings").beginArray();
  for (const auto &s : r.warnings)
    w.value(s);
  w.endArray();
  w.key("analysis_error");
  if (r.analysis)
    w.null();
  else
    w.value(r.analysisError);
  w.endObject();

  std::string engine = r.analysis ? engineJson(*r.analysis) : std::string("null");
  auto nested = [](const std::string &json) { // indented one level, no final newline
    std::string t = indentLines(json, "  ").substr(2);
    while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
      t.pop_back();
    return t;
  };
  return "{\n  \"alea_campaign_report\": 1,\n  \"campaign\": " + nested(w.str()) +
         ",\n  \"report\": " + nested(engine) + "\n}\n";
}

} // namespace

std::string renderJson(const runner::CampaignReport &r) {
  if (!r.campaign)
    return r.analysis ? engineJson(*r.analysis) : std::string("null\n");
  return campaignJson(r);
}

std::string jsonPlans(const PlanSet &p) {
  JsonWriter w;
  w.beginObject();
  w.key("alea_plan").value(static_cast<std::size_t>(kReportSchemaVersion));
  w.key("levels");
  jsonStrings(w, p.levels);
  w.key("plans").beginArray();
  for (const auto &pr : p.plans) {
    w.beginObject();
    w.key("system").value(pr.system);
    w.key("benchmark");
    if (pr.benchmark.empty())
      w.null();
    else
      w.value(pr.benchmark);
    w.key("mean").value(pr.mean);
    w.key("levels");
    jsonLevels(w, pr.levels);
    w.key("overheads").beginArray(true);
    for (double c : pr.overheads)
      w.value(c);
    w.endArray();
    w.key("budget");
    if (pr.budget)
      w.value(*pr.budget);
    else
      w.null();
    w.key("plan");
    jsonPlan(w, pr.plan);
    w.key("relative_sd").value(pr.relativeSd);
    w.key("kj13_top_count");
    if (pr.kj13TopCount)
      w.value(*pr.kj13TopCount);
    else
      w.null();
    // What to run: at least kMinimumTopCount (KJ13 §11).
    w.key("kj13_run_count");
    if (pr.kj13TopCount)
      w.value(std::max(*pr.kj13TopCount, kMinimumTopCount));
    else
      w.null();
    w.endObject();
  }
  w.endArray();
  jsonUnbalanced(w, p.unbalanced, p.dropped);
  jsonBalancing(w, p.balancing);
  w.endObject();
  return w.str() + "\n";
}

} // namespace alea::report
