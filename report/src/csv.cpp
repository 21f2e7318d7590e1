// The CSV renderer (render.hpp): one row per statistic, in the columns
// benchmark,system,baseline,statistic,method,estimate,lower,upper,decision.
#include "phrases.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace alea::report {

using namespace alea::analysis;

namespace {

// ---------------------------------------------------------------- CSV

// One cell: text (names, words, warnings), written by csvText so that a
// spreadsheet never evaluates it, or a number, written as it is (-0.5 is
// data: it stays a number). docs/report.md, "Names in the reports".
struct Cell {
  Cell(const std::string &text) : value(csvText(text)) {}
  Cell(const char *text) : value(csvText(text)) {}
  static Cell numeric(std::string digits) {
    Cell c("");
    c.value = std::move(digits);
    return c;
  }
  std::string value;
};

Cell csvNum(double d) { return Cell::numeric(number(d)); }
Cell csvCount(std::size_t n) { return Cell::numeric(std::to_string(n)); }

std::string csvRow(std::initializer_list<Cell> cells) {
  std::string out;
  bool first = true;
  for (const auto &c : cells) {
    if (!first)
      out += ',';
    first = false;
    out += c.value;
  }
  return out + "\n";
}

std::vector<const RatioReport *> ratiosAndPairs(const BenchmarkReport &b) {
  std::vector<const RatioReport *> v;
  for (const auto &x : b.ratios)
    v.push_back(&x);
  for (const auto &x : b.pairs)
    v.push_back(&x);
  return v;
}

// One system's rows: its mean with both intervals, the variance shares, the
// layout effect.
void systemRows(std::string &o, const std::string &bench, const SystemReport &s) {
  o += csvRow({bench, s.name, "", "mean", methodName(s.ci.method), csvNum(s.mean),
               csvNum(s.ci.interval.lower), csvNum(s.ci.interval.upper), ""});
  o += csvRow({bench, s.name, "", "mean", "bootstrap", csvNum(s.mean),
               csvNum(s.bootstrap.interval.lower), csvNum(s.bootstrap.interval.upper), ""});
  for (const auto &l : s.levels)
    o += csvRow({bench, s.name, "", "share", l.name, csvNum(l.share), "", "", ""});
  // The layout effect (LayoutEffect): sd relative to the mean with its MLS
  // interval, the spread expected of the data's layouts, the observed one.
  const LayoutEffect &le = s.layout;
  if (le.ok) {
    o += csvRow({bench, s.name, "", "layout_sd", "mls", csvNum(le.relativeSd),
                 csvNum(le.relativeSdCi.lower), csvNum(le.relativeSdCi.upper), ""});
    o += csvRow({bench, s.name, "", "layout_spread", "expected_" + std::to_string(le.units),
                 csvNum(le.expectedSpread), csvNum(le.expectedSpreadCi.lower),
                 csvNum(le.expectedSpreadCi.upper), ""});
  }
  o += csvRow({bench, s.name, "", "layout_spread", "observed_includes_execution_noise",
               csvNum(le.observedSpread), "", "", ""});
}

// One comparison's rows: both intervals, the sentence, the Speedup-Test,
// Holm's family, the pairing and the ratio plan.
void ratioRows(std::string &o, const std::string &bench, const RatioReport &x, const Report &r) {
  // Each row's decision is the decision on that row's interval (TR 2012
  // §4.2, strict inequalities); the report's decision is the Fieller row's
  // when it is bounded (decision_basis). An unbounded Fieller interval has
  // no decision of its own: inconclusive.
  const Decision fieller = x.fieller ? decide(*x.fieller, x.threshold) : Decision::Inconclusive;
  o += csvRow({bench, x.candidate, x.baseline, "ratio", "fieller", csvNum(x.estimate),
               x.fieller ? csvNum(x.fieller->lower) : "", x.fieller ? csvNum(x.fieller->upper) : "",
               std::string(decisionKey(fieller))});
  o += csvRow({bench, x.candidate, x.baseline, "ratio", "bootstrap", csvNum(x.estimate),
               csvNum(x.bootstrap.lower), csvNum(x.bootstrap.upper),
               std::string(decisionKey(decide(x.bootstrap, x.threshold)))});
  // The sentence in words (in `method`, as warnings are), the
  // Speedup-Test's verdicts, and Holm's family-wise decision.
  o += csvRow({bench, x.candidate, x.baseline, "in_words", ratioInWords(x, r.levels[0]),
               csvNum(x.estimate), "", "", std::string(decisionKey(x.decision))});
  if (x.speedupTest && x.speedupTest->ok) {
    const SpeedupTestReport &t = *x.speedupTest;
    o += csvRow({bench, x.candidate, x.baseline, "speedup_test", "mean", csvNum(t.meanSpeedup), "",
                 "", t.meanVerdict});
    o += csvRow({bench, x.candidate, x.baseline, "speedup_test", "median", csvNum(t.medianSpeedup),
                 "", "", t.medianVerdict});
    o += csvRow({bench, x.candidate, x.baseline, "speedup_test", "p_baseline_slower",
                 csvNum(t.probabilityBaselineSlower), "", "", ""});
  }
  if (x.family) {
    const RatioReport::Family &f = *x.family;
    o +=
        csvRow({bench, x.candidate, x.baseline, "ratio", "holm", csvNum(x.estimate),
                f.interval ? csvNum(f.interval->lower) : "",
                f.interval ? csvNum(f.interval->upper) : "", std::string(decisionKey(f.decision))});
    o += csvRow({bench, x.candidate, x.baseline, "p_value", "holm_adjusted", csvNum(f.adjustedP),
                 "", "", ""});
  }
  // With pairing requested: the note in `method` (as a warning's
  // message), the pair correlation as the estimate, paired/unpaired as
  // the decision.
  if (r.options.pairing == Pairing::Paired)
    o += csvRow({bench, x.candidate, x.baseline, "pairing", x.pairingNote,
                 x.paired ? csvNum(x.pairCorrelation) : "", "", "",
                 x.paired ? "paired" : "unpaired"});
  // The ratio plan (RatioReport::ratioPlan): the count per level (the
  // top level's = units per system), then its figures; a fallback note
  // goes with the warnings.
  const RatioPlanAdvice &p = x.ratioPlan;
  const auto planRow = [&](const std::string &method, const Cell &estimate) {
    o += csvRow({bench, x.candidate, x.baseline, "ratio_plan", method, estimate, "", "", ""});
  };
  if (p.ok) {
    for (std::size_t i = 0; i < p.levelNames.size(); ++i)
      planRow(p.levelNames[i], csvCount(p.counts[i]));
    planRow("target_half_width", csvNum(p.targetHalfWidth));
    planRow("predicted_half_width", csvNum(p.predictedHalfWidth));
    planRow("reachable", csvCount(p.reachable ? 1 : 0));
    planRow("total_cost", csvNum(p.totalCost));
    planRow("total_time", p.defaultCosts ? Cell("") : csvNum(p.totalTime));
    planRow("upper_bound_used", csvCount(p.upperBound ? 1 : 0));
  }
}

// One candidate's suite rows: the geometric-mean ratio, the benchmarks left
// out, Touati's proportion, benchmarks needed and gain factors.
void suiteRows(std::string &o, const SuiteRatioReport &s) {
  o += csvRow({"", s.candidate, s.baseline, "geomean_ratio", "bootstrap", csvNum(s.geometricMean),
               csvNum(s.bootstrap.lower), csvNum(s.bootstrap.upper),
               std::string(decisionKey(s.decision))});
  for (const auto &left : s.leftOut)
    o += csvRow({left, s.candidate, s.baseline, "geomean_ratio", "left_out", "", "", "", ""});
  auto row = [&](const char *statistic, const char *method, const Cell &estimate,
                 const Cell &lower = Cell(""), const Cell &upper = Cell("")) {
    o += csvRow({"", s.candidate, s.baseline, statistic, method, estimate, lower, upper, ""});
  };
  if (s.proportion) {
    const SuiteProportion &p = *s.proportion;
    row("proportion_faster", "prop.test", csvNum(p.proportion), csvNum(p.lower), csvNum(p.upper));
    row("proportion_faster", "wald", csvNum(p.proportion), csvNum(p.waldLower),
        csvNum(p.waldUpper));
  }
  if (s.benchmarksNeeded)
    row("benchmarks_needed", "observed", csvCount(*s.benchmarksNeeded));
  if (s.benchmarksNeededWorstCase)
    row("benchmarks_needed", "worst_case", csvCount(*s.benchmarksNeededWorstCase));
  const std::pair<const char *, const std::optional<double> *> gains[] = {
      {"all", &s.gainAll},
      {"all_unit_weights", &s.gainAllUnitWeights},
      {"faster", &s.gainFaster},
      {"faster_unit_weights", &s.gainFasterUnitWeights}};
  for (const auto &[method, g] : gains)
    if (*g)
      row("gain_factor", method, csvNum(**g));
}

std::string engineCsv(const Report &r) {
  std::string o = csvRow({"benchmark", "system", "baseline", "statistic", "method", "estimate",
                          "lower", "upper", "decision"});
  for (const auto &b : r.benchmarks) {
    // A benchmark without statistics: its reason in `method`, as a warning's.
    if (!b.error.empty())
      o += csvRow({b.name, "", "", "error", b.error, "", "", "", ""});
    for (const auto &s : b.systems)
      systemRows(o, b.name, s);
    for (const auto *x : ratiosAndPairs(b))
      ratioRows(o, b.name, *x, r);
  }
  for (const auto &s : r.suite)
    suiteRows(o, s);
  for (const auto &e : r.suiteSystems) {
    const std::pair<const char *, double> values[] = {
        {"observed", e.observed},     {"min", e.summary.minimum}, {"q1", e.summary.q1},
        {"median", e.summary.median}, {"q3", e.summary.q3},       {"max", e.summary.maximum}};
    for (const auto &[method, v] : values)
      o += csvRow({"", e.name, "", "empirical_geomean", method, csvNum(v), "", "", ""});
    for (const auto &left : e.leftOut)
      o += csvRow({left, e.name, "", "empirical_geomean", "left_out", "", "", "", ""});
  }
  // Per unbalanced system, each balancing candidate's V (meanVarianceFactor),
  // the applied one marked in the decision column.
  for (const auto &b : r.balancing)
    for (UnbalancedPolicy p :
         {UnbalancedPolicy::Trim, UnbalancedPolicy::Mixed, UnbalancedPolicy::Drop})
      o += csvRow({b.benchmark, b.system, "", "balancing", unbalancedName(p),
                   csvNum(b.varianceBy(p)), "", "", p == b.applied ? "applied" : ""});
  // Warnings too, so that no format is silent about them: the message is in
  // the `method` column (docs/analyze.md). The balancing lines are warnings
  // in the text and Markdown reports.
  for (const auto &b : r.benchmarks)
    for (const auto &w : b.warnings)
      o += csvRow({b.name, "", "", "warning", w, "", "", "", ""});
  for (const auto &b : r.benchmarks)
    for (const auto &x : b.ratios)
      for (const auto &n :
           x.ratioPlan.ok ? x.ratioPlan.notes : std::vector<std::string>{x.ratioPlan.error})
        o += csvRow(
            {b.name, x.candidate, x.baseline, "warning", "ratio plan: " + n, "", "", "", ""});
  for (const auto &b : r.balancing)
    o += csvRow({b.benchmark, "", "", "warning",
                 "unbalanced (--unbalanced=" + unbalancedName(r.options.unbalanced) +
                     "): " + balancingText(b, r.levels, r.dropped),
                 "", "", "", ""});
  for (const auto &w : r.warnings)
    o += csvRow({"", "", "", "warning", w, "", "", "", ""});
  return o;
}

// The campaign's rows, in the same columns: failures and the noise findings.
std::string campaignCsv(const model::CampaignReport &r) {
  std::string o;
  for (const auto &n : r.noise)
    if (n.diagnosis)
      for (const auto &f : n.diagnosis->findings)
        o += csvRow({n.benchmark, "", "", "noise", f.kind, csvNum(f.value),
                     f.pValue ? csvNum(*f.pValue) : "",
                     f.adjustedPValue ? csvNum(*f.adjustedPValue) : "",
                     f.artifact      ? "artifact"
                     : f.significant ? "found"
                                     : "not found"});
  for (const auto &f : r.failures)
    o += csvRow({f.benchmark, f.system, "", "failures", f.status, csvCount(f.count), "", "", ""});
  return o;
}

} // namespace

std::string renderCsv(const model::CampaignReport &r) {
  std::string o = r.analysis ? engineCsv(*r.analysis)
                             : csvRow({"benchmark", "system", "baseline", "statistic", "method",
                                       "estimate", "lower", "upper", "decision"});
  if (!r.analysis)
    for (const auto &w : r.warnings)
      o += csvRow({"", "", "", "warning", w, "", "", "", ""});
  // Several metrics per execution: each other metric's ratios, the
  // statistic named after it ("ratio:wall").
  for (const auto &m : r.otherMetrics)
    if (m.analysis)
      for (const auto &b : m.analysis->benchmarks)
        for (const auto &x : b.ratios) {
          const std::string statistic = "ratio:" + m.name;
          const Interval fieller = x.fieller.value_or(Interval{});
          o += csvRow({b.name, x.candidate, x.baseline, statistic, "fieller", csvNum(x.estimate),
                       x.fieller ? csvNum(fieller.lower) : Cell(""),
                       x.fieller ? csvNum(fieller.upper) : Cell(""),
                       std::string(decisionKey(x.decision))});
          o += csvRow({b.name, x.candidate, x.baseline, statistic, "bootstrap", csvNum(x.estimate),
                       csvNum(x.bootstrap.lower), csvNum(x.bootstrap.upper), ""});
        }
  return o + campaignCsv(r);
}

std::string csvPlans(const PlanSet &p) {
  std::string o =
      csvRow({"benchmark", "system", "level", "n", "S2", "T2", "share", "removed", "planned_n"});
  for (const auto &pr : p.plans)
    for (std::size_t i = 0; i < pr.levels.size(); ++i) {
      const auto &l = pr.levels[i];
      o += csvRow({pr.benchmark, pr.system, l.name, csvCount(l.n), csvNum(l.s2), csvNum(l.t2),
                   csvNum(l.share), csvCount(l.removed ? 1 : 0),
                   pr.plan.ok ? csvCount(pr.plan.counts[i]) : Cell("")});
    }
  return o;
}

} // namespace alea::report
