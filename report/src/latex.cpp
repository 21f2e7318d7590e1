// The LaTeX renderer (render.hpp): a booktabs table of the ratios with their
// confidence intervals and decisions, ready for \input in a paper (needs
// \usepackage{booktabs}). One row per comparison, the suite's geometric mean
// under a rule; a Holm column when the comparisons form a family. Layout
// studies (one system) get the layout effect per benchmark instead.
#include "phrases.hpp"

namespace alea::report {

namespace {

using namespace alea::analysis;

// LaTeX's special characters in text.
std::string tex(const std::string &s) {
  std::string o;
  for (char c : s) {
    switch (c) {
    case '\\':
      o += "\\textbackslash{}";
      break;
    case '&':
    case '%':
    case '$':
    case '#':
    case '_':
    case '{':
    case '}':
      o += '\\';
      o += c;
      break;
    case '~':
      o += "\\textasciitilde{}";
      break;
    case '^':
      o += "\\textasciicircum{}";
      break;
    default:
      o += c;
    }
  }
  return o;
}

std::string texInterval(const std::optional<Interval> &i) {
  return i ? "[" + r3(i->lower) + ", " + r3(i->upper) + "]" : std::string("unbounded");
}

// One row per benchmark without statistics, its reason across the other
// `columns` - 1 columns (wrapped).
std::string noStatisticsRows(const Report &a, int columns) {
  std::string o;
  for (const auto &b : a.benchmarks)
    if (!b.error.empty())
      o += tex(b.name) + " & \\multicolumn{" + std::to_string(columns - 1) +
           "}{p{0.75\\linewidth}}{" + tex(noStatisticsText(b)) + "} \\\\\n";
  return o;
}

std::string layoutTable(const Report &a) {
  const std::string conf = tex(confidenceLabel(a.options.confidence));
  std::string o = "\\begin{table}\n\\centering\n\\caption{Layout sensitivity: standard deviation "
                  "of the " +
                  tex(a.levels[0]) + " means relative to the mean, with " + conf +
                  " confidence intervals (MLS), and the spread expected between the best and "
                  "worst layout.}\n\\begin{tabular}{llrlrl}\n\\toprule\nBenchmark & System & "
                  "SD & " +
                  conf +
                  " CI & Expected spread & Observed spread\\textsuperscript{a} \\\\\n"
                  "\\midrule\n";
  for (const auto &b : a.benchmarks)
    for (const auto &s : b.systems) {
      const LayoutEffect &l = s.layout;
      o += tex(b.name) + " & " + tex(s.name) + " & " +
           (l.ok ? (l.sd > 0 ? tex(pct(l.relativeSd, "%.2f%%")) : std::string("none detected")) +
                       " & [" + tex(pct(l.relativeSdCi.lower, "%.2f%%")) + ", " +
                       tex(pct(l.relativeSdCi.upper, "%.2f%%")) + "] & " +
                       tex(pct(l.expectedSpread)) + " (" + std::to_string(l.units) + ")"
                 : std::string("-- & -- & --")) +
           " & " + tex(pct(l.observedSpread)) + " \\\\\n";
    }
  o += noStatisticsRows(a, 6);
  return o +
         "\\bottomrule\n\\multicolumn{6}{l}{\\footnotesize \\textsuperscript{a} Best to "
         "worst " +
         tex(a.levels[0]) +
         " mean as observed; includes execution noise.}\n\\end{tabular}\n\\end{table}\n";
}

} // namespace

std::string renderLatex(const runner::CampaignReport &r) {
  if (!r.analysis)
    return "% alea: no statistics: " + r.analysisError + "\n";
  const Report &a = *r.analysis;
  bool anyRatio = !a.suite.empty(), family = false;
  for (const auto &b : a.benchmarks) {
    anyRatio = anyRatio || !b.ratios.empty();
    for (const auto &x : b.ratios)
      family = family || x.family.has_value();
  }
  std::string o = "% alea report" + (r.name.empty() ? std::string() : ": " + r.name) +
                  ". Requires \\usepackage{booktabs}.\n";
  if (!anyRatio)
    return o + layoutTable(a);
  const std::string conf = tex(confidenceLabel(a.options.confidence));
  o += "\\begin{table}\n\\centering\n\\caption{Execution time of each system relative to " +
       tex(a.baseline) + ", with " + conf +
       " confidence intervals across randomized code layouts (Fieller; suite: bootstrap of the "
       "geometric mean). Decisions use a threshold of " +
       tex(pct(a.options.threshold)) + (family ? "; Holm-adjusted across the comparisons" : "") +
       ".}\n\\begin{tabular}{ll" + std::string(family ? "rllrl" : "rll") +
       "}\n\\toprule\nBenchmark & System & Ratio & " + conf + " CI & Decision" +
       (family ? " & Adj.\\ $p$ & Holm" : "") + " \\\\\n\\midrule\n";
  for (const auto &b : a.benchmarks)
    for (const auto *list : {&b.ratios, &b.pairs})
      for (const auto &x : *list) {
        o += tex(b.name) + " & " + tex(x.candidate) +
             (list == &b.pairs ? " / " + tex(x.baseline) : std::string()) + " & " + r3(x.estimate) +
             " & " + texInterval(x.fieller) + " & " + tex(std::string(decisionName(x.decision)));
        if (family)
          o += x.family ? " & " + fmt("%.3g", x.family->adjustedP) + " & " +
                              tex(std::string(decisionName(x.family->decision)))
                        : std::string(" & & ");
        o += " \\\\\n";
      }
  o += noStatisticsRows(a, family ? 7 : 5);
  if (!a.suite.empty()) {
    o += "\\midrule\n";
    for (const auto &s : a.suite)
      o += "Geometric mean & " + tex(s.candidate) + " & " + r3(s.geometricMean) + " & " +
           texInterval(s.bootstrap) + " & " + tex(std::string(decisionName(s.decision))) +
           (family ? " & & " : "") + " \\\\\n";
  }
  return o + "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
}

} // namespace alea::report
