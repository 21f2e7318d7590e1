// The LaTeX renderer (render.hpp): a booktabs table of the ratios with their
// confidence intervals and decisions, ready for \input in a paper (needs
// \usepackage{booktabs}). One row per comparison, the suite's geometric mean
// under a rule; a Holm column when the comparisons form a family. Layout
// studies (one system) get the layout effect per benchmark instead.
#include "phrases.hpp"

namespace alea::report {

namespace {

using namespace alea::analysis;

std::string texInterval(const std::optional<Interval> &i) {
  return i ? "[" + r3(i->lower) + ", " + r3(i->upper) + "]" : std::string("unbounded");
}

// One row per benchmark without statistics, its reason across the other
// `columns` - 1 columns (wrapped).
std::string noStatisticsRows(const Report &a, int columns) {
  std::string o;
  for (const auto &b : a.benchmarks)
    if (!b.error.empty())
      o += latexText(b.name) + " & \\multicolumn{" + std::to_string(columns - 1) +
           "}{p{0.75\\linewidth}}{" + latexText(noStatisticsText(b)) + "} \\\\\n";
  return o;
}

std::string layoutTable(const Report &a) {
  const std::string conf = latexText(confidenceLabel(a.options.confidence));
  std::string o = "\\begin{table}\n\\centering\n\\caption{Layout sensitivity: standard deviation "
                  "of the " +
                  latexText(a.levels[0]) + " means relative to the mean, with " + conf +
                  " confidence intervals (MLS), and the spread expected between the best and "
                  "worst layout.}\n\\begin{tabular}{llrlrl}\n\\toprule\nBenchmark & System & "
                  "SD & " +
                  conf +
                  " CI & Expected spread & Observed spread\\textsuperscript{a} \\\\\n"
                  "\\midrule\n";
  for (const auto &b : a.benchmarks)
    for (const auto &s : b.systems) {
      const LayoutEffect &l = s.layout;
      o += latexText(b.name) + " & " + latexText(s.name) + " & " +
           (l.ok ? (l.sd > 0 ? latexText(pct(l.relativeSd, "%.2f%%"))
                             : std::string("none detected")) +
                       " & [" + latexText(pct(l.relativeSdCi.lower, "%.2f%%")) + ", " +
                       latexText(pct(l.relativeSdCi.upper, "%.2f%%")) + "] & " +
                       latexText(pct(l.expectedSpread)) + " (" + std::to_string(l.units) + ")"
                 : std::string("-- & -- & --")) +
           " & " + latexText(pct(l.observedSpread)) + " \\\\\n";
    }
  o += noStatisticsRows(a, 6);
  return o +
         "\\bottomrule\n\\multicolumn{6}{l}{\\footnotesize \\textsuperscript{a} Best to "
         "worst " +
         latexText(a.levels[0]) +
         " mean as observed; includes execution noise.}\n\\end{tabular}\n\\end{table}\n";
}

} // namespace

std::string renderLatex(const model::CampaignReport &r) {
  if (!r.analysis)
    return "% alea: no statistics: " + latexComment(r.analysisError) + "\n";
  const Report &a = *r.analysis;
  bool anyRatio = !a.suite.empty(), family = false;
  for (const auto &b : a.benchmarks) {
    anyRatio = anyRatio || !b.ratios.empty();
    for (const auto &x : b.ratios)
      family = family || x.family.has_value();
  }
  std::string o = "% alea report" + (r.name.empty() ? std::string() : ": " + latexComment(r.name)) +
                  ". Requires \\usepackage{booktabs}.\n";
  if (!anyRatio)
    return o + layoutTable(a);
  const std::string conf = latexText(confidenceLabel(a.options.confidence));
  o += "\\begin{table}\n\\centering\n\\caption{Execution time of each system relative to " +
       latexText(a.baseline) + ", with " + conf +
       " confidence intervals across randomized code layouts (Fieller; suite: bootstrap of the "
       "geometric mean). Decisions use a threshold of " +
       latexText(pct(a.options.threshold)) +
       (family ? "; Holm-adjusted across the comparisons" : "") + ".}\n\\begin{tabular}{ll" +
       std::string(family ? "rllrl" : "rll") + "}\n\\toprule\nBenchmark & System & Ratio & " +
       conf + " CI & Decision" + (family ? " & Adj.\\ $p$ & Holm" : "") + " \\\\\n\\midrule\n";
  for (const auto &b : a.benchmarks)
    for (const auto *list : {&b.ratios, &b.pairs})
      for (const auto &x : *list) {
        o += latexText(b.name) + " & " + latexText(x.candidate) +
             (list == &b.pairs ? " / " + latexText(x.baseline) : std::string()) + " & " +
             r3(x.estimate) + " & " + texInterval(x.fieller) + " & " +
             latexText(std::string(decisionName(x.decision)));
        if (family)
          o += x.family ? " & " + fmt("%.3g", x.family->adjustedP) + " & " +
                              latexText(std::string(decisionName(x.family->decision)))
                        : std::string(" & & ");
        o += " \\\\\n";
      }
  o += noStatisticsRows(a, family ? 7 : 5);
  if (!a.suite.empty()) {
    o += "\\midrule\n";
    for (const auto &s : a.suite)
      o += "Geometric mean & " + latexText(s.candidate) + " & " + r3(s.geometricMean) + " & " +
           texInterval(s.bootstrap) + " & " + latexText(std::string(decisionName(s.decision))) +
           (family ? " & & " : "") + " \\\\\n";
  }
  // Several metrics per execution: the other metrics' ratios, the
  // benchmark's name followed by the metric's.
  for (const auto &m : r.otherMetrics) {
    if (!m.analysis)
      continue;
    o += "\\midrule\n";
    for (const auto &b : m.analysis->benchmarks)
      for (const auto &x : b.ratios)
        o += latexText((b.name.empty() ? "" : b.name + " ") + "(" + m.name + ")") + " & " +
             latexText(x.candidate) + " & " + r3(x.estimate) + " & " + texInterval(x.fieller) +
             " & " + latexText(std::string(decisionName(x.decision))) + (family ? " & & " : "") +
             " \\\\\n";
  }
  return o + "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
}

} // namespace alea::report
