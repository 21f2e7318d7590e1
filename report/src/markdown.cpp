// The Markdown renderer (render.hpp). Every string that can come from a user
// (names, the store path, warnings, errors) is written with markdownText, or
// markdownCode for the store path (escape.hpp): it reads as text in any
// Markdown renderer, HTML-enabled ones included.
#include "phrases.hpp"
#include "placement.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace alea::report {

using namespace alea::analysis;

namespace {

// ---------------------------------------------------------------- Markdown

std::string engineMd(const Report &r) {
  std::string o = "# alea analysis\n\nBaseline: " + markdownText(r.baseline) + "; levels: ";
  for (std::size_t i = 0; i < r.levels.size(); ++i)
    o += (i ? " > " : "") + markdownText(r.levels[i]);
  o += "; " + confidenceLabel(r.options.confidence) + " confidence; threshold " +
       pct(r.options.threshold) + ".\n";
  const std::string conf = confidenceLabel(r.options.confidence);
  for (const auto &b : r.benchmarks) {
    o += "\n## " + (b.name.empty() ? std::string("Results") : markdownText(b.name)) + "\n\n";
    if (!b.error.empty()) {
      o += "- **" + markdownText(noStatisticsText(b)) + "**\n";
      for (const auto &w : b.warnings)
        o += "- **warning**: " + markdownText(w) + "\n";
      continue;
    }
    o += "| system | mean | " + conf + " CI (t) | " + conf + " CI (bootstrap) | design |";
    for (const auto &l : r.levels)
      o += " " + markdownText(l) + " share |";
    o += "\n|---|---:|---|---|---|";
    for (std::size_t i = 0; i < r.levels.size(); ++i)
      o += "---:|";
    o += "\n";
    for (const auto &s : b.systems) {
      o += "| " + markdownText(s.name) + " | " + g4(s.mean) + " | " + interval(s.ci.interval, g4) +
           " | " + interval(s.bootstrap.interval, g4) + " | " + shapeText(r.levels, s.shape) + " |";
      for (const auto &l : s.levels) {
        // Appended piece by piece: `" " + pct(...)` trips GCC 12's -Wrestrict
        // false positive (GCC bug 105329).
        o += ' ';
        o += pct(l.share);
        o += " |";
      }
      o += "\n";
    }
    if (!b.ratios.empty()) {
      o += "\n| comparison | ratio | change | " + conf + " CI (Fieller) | " + conf +
           " CI (bootstrap) | decision |\n|---|---:|---|---|---|---|\n";
      for (const auto &x : b.ratios)
        o += "| " + markdownText(x.candidate) + " vs " + markdownText(x.baseline) + " | " +
             r3(x.estimate) + " | " + describeRatio(x.estimate) + " | " +
             (x.fieller ? interval(*x.fieller, r3) : std::string("unbounded")) + " | " +
             interval(x.bootstrap, r3) + " | " + std::string(decisionName(x.decision)) + " |\n";
      if (r.options.pairing == Pairing::Paired) {
        o += "\n";
        for (const auto &x : b.ratios)
          o += "- pairing, " + markdownText(x.candidate) + " vs " + markdownText(x.baseline) +
               ": " + markdownText(x.pairingNote) + "\n";
      }
    }
    o += "\n";
    for (const auto &s : b.systems)
      o += "- " + markdownText(s.name) + ": " +
           markdownText(layoutText(s.layout, r.options.confidence)) + "\n";
    for (const auto &x : b.ratios) {
      o += "- " + markdownText(ratioInWords(x, r.levels[0])) + "\n";
      if (x.family)
        o += "  - " + markdownText(familyText(x)) + "\n";
      if (x.speedupTest && x.speedupTest->ok)
        o += "  - " + markdownText(speedupTestText(x, r.levels[0])) + "\n";
      o += "- " + markdownText(x.candidate) + " vs " + markdownText(x.baseline) + ": " +
           markdownText(ratioPlanText(x.ratioPlan)) + "\n";
    }
    for (const auto &x : b.pairs)
      o += "- " + markdownText(ratioSentence(x)) + "; " + std::string(decisionName(x.decision)) +
           (x.family ? "; " + markdownText(familyText(x)) : std::string()) + "\n";
    for (const auto &s : b.systems)
      o += "- " + markdownText(planText(s.plan, s.name)) + "\n";
    for (const auto &w : b.warnings)
      o += "- **warning**: " + markdownText(w) + "\n";
  }
  if (!r.suite.empty()) {
    o += "\n## Suite (geometric mean)\n\n| comparison | geometric mean | " + conf +
         " CI (bootstrap) | decision | faster | slower | randomization p |\n"
         "|---|---:|---|---|---:|---:|---:|\n";
    for (const auto &s : r.suite)
      o += "| " + markdownText(s.candidate) + " vs " + markdownText(s.baseline) + " | " +
           r3(s.geometricMean) + " | " + interval(s.bootstrap, r3) + " | " +
           std::string(decisionName(s.decision)) + " | " + std::to_string(s.faster) + " | " +
           std::to_string(s.slower) + " | " +
           (s.randomizationOk ? fmt("%.4g", s.randomizationP) : std::string("-")) + " |\n";
    for (const auto &s : r.suite) {
      o += "\n" + markdownText(s.candidate) + " vs " + markdownText(s.baseline) + ":\n\n";
      for (const auto &line : touatiLines(s, r.levels[0]))
        o += "- " + markdownText(line) + "\n";
      if (!s.leftOut.empty())
        o += "- " + markdownText(suiteLeftOutText(s)) + "\n";
    }
    o += "\n| comparison | faster | proportion | " + conf +
         " CI (prop.test) | benchmarks needed for +-" + pct(r.options.proportionHalfWidth) +
         " (worst case) | gain factor G, faster | gain factor G, all |\n"
         "|---|---:|---:|---|---:|---:|---:|\n";
    auto opt = [](const std::optional<double> &v) { return v ? pct(*v) : std::string("-"); };
    for (const auto &s : r.suite) {
      o += "| " + markdownText(s.candidate) + " vs " + markdownText(s.baseline) + " | " +
           std::to_string(s.faster) + " of " + std::to_string(s.benchmarks) + " | ";
      o += s.proportion ? r3(s.proportion->proportion) + " | [" + r3(s.proportion->lower) + ", " +
                              r3(s.proportion->upper) + "]"
                        : std::string("- | -");
      o += " | " + (s.benchmarksNeeded ? std::to_string(*s.benchmarksNeeded) : std::string("-")) +
           " (" +
           (s.benchmarksNeededWorstCase ? std::to_string(*s.benchmarksNeededWorstCase)
                                        : std::string("-")) +
           ") | " + opt(s.gainFaster) + " | " + opt(s.gainAll) + " |\n";
    }
    if (!r.suiteSystems.empty()) {
      o += "\nEmpirical distribution of the geometric mean over benchmarks, one " +
           markdownText(r.levels[0]) + " mean drawn per benchmark (Li-Chen-Peng, " +
           std::to_string(r.suiteSystems.front().replicates) +
           " draws):\n\n| system | observed | min | Q1 | median | Q3 | max |\n"
           "|---|---:|---:|---:|---:|---:|---:|\n";
      for (const auto &e : r.suiteSystems)
        o += "| " + markdownText(e.name) + " | " + g4(e.observed) + " | " + g4(e.summary.minimum) +
             " | " + g4(e.summary.q1) + " | " + g4(e.summary.median) + " | " + g4(e.summary.q3) +
             " | " + g4(e.summary.maximum) + " |\n";
      for (const auto &e : r.suiteSystems)
        if (!e.leftOut.empty())
          o +=
              "\n" + markdownText(e.name) + ": left out: " + markdownText(joined(e.leftOut)) + "\n";
    }
  }
  if (!r.dropped.empty() || !r.warnings.empty()) {
    o += "\n## Warnings\n\n";
    for (const auto &b : r.balancing) {
      o += "- unbalanced (--unbalanced=" + unbalancedName(r.options.unbalanced) +
           "): " + markdownText(balancingText(b, r.levels, r.dropped)) + "\n";
      for (const auto &d : r.dropped)
        if (sameSystem(d, b))
          o += "  - " + markdownText(droppedText(d, r.levels)) + "\n";
    }
    for (const auto &w : r.warnings)
      o += "- " + markdownText(w) + "\n";
  }
  return o;
}

std::string campaignMd(const model::CampaignReport &r) {
  std::string o = "# alea campaign report: " + markdownText(r.name) + "\n\n" +
                  markdownText(summaryLine(r)) + "\n\nStore: " + markdownCode(r.storePath) + "\n\n";
  if (!r.importedFrom.empty())
    o += "Imported from " + markdownText(r.importedFrom) + ".\n\n";
  if (r.layoutStudy)
    o += "One system: a layout-sensitivity study.\n\n";
  else
    o += markdownText(r.designNote) + ".\n\n";
  o += "Warm-up: " + markdownText(warmupText(r.warmup)) + ".\n\n";
  if (!r.targets.empty()) {
    o += "Targets (" + markdownText(r.machines) + "):\n\n";
    for (const auto &t : r.targets)
      o += "- " + markdownText(targetText(t)) + "\n";
    o += "\n";
  }
  for (const auto &line : r.adaptiveLog)
    o += "- " + markdownText(line) + "\n";
  if (!r.adaptiveLog.empty())
    o += "\n";
  return o;
}

// The engine's headings one level down, under the campaign report's title.
std::string demoted(const std::string &md) {
  std::string o;
  std::size_t start = 0;
  while (start < md.size()) {
    std::size_t end = md.find('\n', start);
    if (end == std::string::npos)
      end = md.size();
    if (md[start] == '#')
      o += '#';
    o += md.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return o;
}

std::string failuresMd(const model::CampaignReport &r) {
  if (r.failures.empty())
    return "";
  std::string o = "## Failures\n\n| benchmark | system | executions | status | cause |\n"
                  "|---|---|---:|---|---|\n";
  for (const auto &f : r.failures)
    o += "| " + markdownText(f.benchmark) + " | " + markdownText(f.system) + " | " +
         std::to_string(f.count) + " | " + markdownText(f.status) + " | " + markdownText(f.cause) +
         " |\n";
  return o;
}

} // namespace

std::string markdownGroups(const std::string &title, const std::vector<LineGroup> &groups) {
  if (groups.empty())
    return "";
  std::string o = "## " + title + "\n\n";
  for (const LineGroup &g : groups) {
    o += "**" + markdownText(g.heading) + "**\n\n";
    if (g.unavailable) {
      o += "Not available: " + markdownText(*g.unavailable) + ".\n\n";
      continue;
    }
    for (const auto &line : g.lines)
      o += "- " + markdownText(line) + "\n";
    o += "\n";
  }
  return o;
}

// Several metrics per execution: the decision's and the others'.
std::string metricsMd(const model::CampaignReport &r) {
  const std::string lead = metricsLead(r);
  if (lead.empty())
    return {};
  std::string o = "## Metrics\n\n" + markdownText("The " + lead) + "\n\n";
  for (const auto &m : r.otherMetrics)
    for (const auto &l : otherMetricLines(m))
      o += "- " + markdownText(l) + "\n";
  return o + (r.otherMetrics.empty() ? "" : "\n");
}

std::string renderMarkdown(const model::CampaignReport &r) {
  if (!r.campaign)
    return r.analysis ? engineMd(*r.analysis)
                      : "No statistics: " + markdownText(r.analysisError) + "\n";
  std::string o = campaignMd(r);
  if (r.analysis) {
    o += demoted(engineMd(*r.analysis)) + "\n";
  } else {
    o += "No statistics: " + markdownText(r.analysisError) + "\n\n";
    for (const auto &w : r.warnings)
      o += "- warning: " + markdownText(w) + "\n";
    o += "\n";
  }
  return o + metricsMd(r) +
         markdownGroups("Which functions' placement matters", placementGroups(r)) +
         markdownGroups("Noise diagnosis", noiseGroups(r)) + failuresMd(r);
}

std::string mdPlans(const PlanSet &p) {
  std::string o = "# alea plan\n";
  for (const auto &pr : p.plans) {
    o += "\n## " + markdownText(pr.system) +
         (pr.benchmark.empty() ? "" : " on " + markdownText(pr.benchmark)) +
         "\n\n| level | n | S2 | T2 | share | planned n |\n|---|---:|---:|---:|---:|---:|\n";
    for (std::size_t i = 0; i < pr.levels.size(); ++i) {
      const auto &l = pr.levels[i];
      o += "| " + markdownText(l.name) + " | " + std::to_string(l.n) + " | " + g4(l.s2) + " | " +
           g4(l.t2) + " | " + pct(l.share) + " | " +
           (pr.plan.ok ? std::to_string(pr.plan.counts[i]) : std::string("-")) + " |\n";
    }
    o += "\n- " + markdownText(planText(pr.plan, pr.system)) + "\n";
    if (pr.plan.targetHalfWidth > 0)
      o += "- KJ13 Tables 6/7 rule (relative sd of " + markdownText(p.levels[0]) + " means " +
           pct(pr.relativeSd, "%.2f%%") + "): " +
           (pr.kj13TopCount ? std::to_string(*pr.kj13TopCount) + " " +
                                  markdownText(nounFor(*pr.kj13TopCount, p.levels[0])) +
                                  runAtLeast(*pr.kj13TopCount)
                            : "more than 1000 " + markdownText(p.levels[0]) + "s") +
           "\n";
  }
  if (!p.balancing.empty()) {
    o += "\n## Warnings\n\n";
    for (const auto &b : p.balancing) {
      o += "- unbalanced: " + markdownText(balancingText(b, p.levels, p.dropped)) + "\n";
      for (const auto &d : p.dropped)
        if (sameSystem(d, b))
          o += "  - " + markdownText(droppedText(d, p.levels)) + "\n";
    }
  }
  return o;
}

} // namespace alea::report
