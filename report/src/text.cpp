// The text renderer (render.hpp): the campaign header, the engine's report
// per benchmark, the suite, the noise diagnosis and the failures. Every line
// is written by line(), which shows a name's control characters as escapes.
#include "phrases.hpp"
#include "placement.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace alea::report {

using namespace alea::analysis;

namespace {

// ---------------------------------------------------------------- text

// One line of the report: `text` (names and phrases; it never holds a line
// break of its own) with any control character a name brought shown as an
// escape (plainText), so that no name can start a line or move the cursor.
void line(std::string &o, const char *indent, const std::string &text) {
  o += indent;
  o += plainText(text);
  o += '\n';
}

std::string engineText(const Report &r, const std::map<std::string, std::string> &units = {}) {
  std::string o;
  std::size_t nSystems = 0;
  for (const auto &b : r.benchmarks)
    nSystems = std::max(nSystems, b.systems.size());
  std::string levels;
  for (std::size_t i = 0; i < r.levels.size(); ++i)
    levels += (i ? " > " : "") + r.levels[i];
  line(o, "",
       "levels: " + levels + "; baseline: " + r.baseline + "; " +
           confidenceLabel(r.options.confidence) + " confidence; threshold " +
           pct(r.options.threshold));
  if (nSystems == 1)
    line(o, "", "one system: a layout-sensitivity study (no comparison)");
  for (const auto &b : r.benchmarks) {
    o += "\n";
    if (!b.name.empty()) {
      const auto unit = units.find(b.name);
      line(o, "", "benchmark " + b.name + (unit == units.end() ? "" : " (" + unit->second + ")"));
    }
    if (!b.error.empty())
      o += "  " + noStatisticsText(b) + "\n";
    for (const auto &s : b.systems) {
      line(o, "  ",
           s.name + ": mean " + g4(s.mean) + ", " + confidenceLabel(s.ci.confidence) + " CI " +
               interval(s.ci.interval, g4) + " (" + methodName(s.ci.method) + "; bootstrap " +
               interval(s.bootstrap.interval, g4) + "), " + shapeText(r.levels, s.shape));
      line(o, "    ", sharesText(s));
      line(o, "    ", layoutText(s.layout, r.options.confidence));
    }
    for (const auto &x : b.ratios) {
      line(o, "  ", ratioSentence(x));
      if (r.options.pairing == Pairing::Paired)
        line(o, "    ", "pairing: " + x.pairingNote);
      line(o, "    ",
           "decision (threshold " + pct(x.threshold) + ", " + x.decisionBasis +
               "): " + std::string(decisionName(x.decision)));
      line(o, "    ", "in words: " + ratioInWords(x, r.levels[0]));
      if (x.family)
        line(o, "    ", familyText(x));
      line(o, "    ", ratioPlanText(x.ratioPlan));
      if (x.speedupTest && x.speedupTest->ok)
        line(o, "    ", speedupTestText(x, r.levels[0]));
    }
    for (const auto &x : b.pairs)
      line(o, "  ",
           ratioSentence(x) + "; " + std::string(decisionName(x.decision)) +
               (x.family ? "; " + familyText(x) : std::string()));
    for (const auto &s : b.systems)
      line(o, "  ", planText(s.plan, s.name));
    for (const auto &w : b.warnings)
      line(o, "  ", "warning: " + w);
  }
  if (!r.suite.empty()) {
    o += "\nsuite (geometric mean over benchmarks)\n";
    for (const auto &s : r.suite) {
      line(o, "  ",
           s.candidate + " vs " + s.baseline + ": " + r3(s.geometricMean) + " (" +
               describeRatio(s.geometricMean) + "), " + confidenceLabel(s.confidence) + " CI " +
               interval(s.bootstrap, r3) + " (bootstrap, " + counted(s.benchmarks, "benchmark") +
               (s.topLevelBootstrapOk ? "; Li-Chen-Peng on " + r.levels[0] + " means " +
                                            interval(s.topLevelBootstrap, r3)
                                      : std::string()) +
               "); " + std::string(decisionName(s.decision)) + "; " + std::to_string(s.faster) +
               " faster, " + std::to_string(s.slower) + " slower" +
               (s.randomizationOk ? "; randomization test p = " + fmt("%.4g", s.randomizationP)
                                  : std::string()));
      for (const auto &l : touatiLines(s, r.levels[0]))
        line(o, "    ", l);
      if (!s.leftOut.empty())
        line(o, "    ", suiteLeftOutText(s));
    }
    if (!r.suiteSystems.empty()) {
      line(o, "  ",
           "empirical distribution of the geometric mean over benchmarks, one " + r.levels[0] +
               " mean drawn per benchmark (Li-Chen-Peng; " +
               std::to_string(r.suiteSystems.front().replicates) + " draws):");
      for (const auto &e : r.suiteSystems)
        line(o, "    ",
             e.name + ": observed " + g4(e.observed) + "; min " + g4(e.summary.minimum) + ", Q1 " +
                 g4(e.summary.q1) + ", median " + g4(e.summary.median) + ", Q3 " +
                 g4(e.summary.q3) + ", max " + g4(e.summary.maximum) + " (" +
                 counted(e.benchmarks, "benchmark") +
                 (e.leftOut.empty() ? std::string() : "; left out: " + joined(e.leftOut)) + ")");
    }
  }
  if (!r.dropped.empty()) {
    o += "\n";
    line(o, "",
         "unbalanced data (--unbalanced=" + unbalancedName(r.options.unbalanced) +
             "), balanced per system; " + kVarianceNote + ":");
    for (const auto &b : r.balancing) {
      line(o, "  ", balancingText(b, r.levels, r.dropped));
      for (const auto &d : r.dropped)
        if (sameSystem(d, b))
          line(o, "    ", droppedText(d, r.levels));
    }
  }
  for (const auto &w : r.warnings)
    line(o, "", "warning: " + w);
  return o;
}

// A layout-sensitivity study (one system) leads with the layout effect.
std::string layoutLead(const Report &r) {
  std::string o = "layout sensitivity (one system):\n";
  for (const auto &b : r.benchmarks)
    for (const auto &s : b.systems)
      line(o, "  ",
           (b.name.empty() ? s.name : b.name + " on " + s.name) + ": " +
               layoutText(s.layout, r.options.confidence));
  return o + "\n";
}

std::string campaignText(const model::CampaignReport &r) {
  std::string o;
  line(o, "",
       "campaign " + (r.name.empty() ? std::string("(unnamed)") : r.name) + "  [" + r.storePath +
           "]");
  line(o, "  ", summaryLine(r));
  if (!r.importedFrom.empty())
    line(o, "  ", "imported from " + r.importedFrom);
  line(o, "  ",
       r.layoutStudy ? std::string("one system: a layout-sensitivity study") : r.designNote);
  for (const auto &t : r.targets)
    line(o, "  ", "target (" + r.machines + ") " + targetText(t));
  line(o, "  ", "warm-up: " + warmupText(r.warmup));
  for (const auto &l : r.adaptiveLog)
    line(o, "  ", l);
  return o + "\n";
}

// Several metrics per execution: the decision's and the others'.
std::string metricsText(const model::CampaignReport &r) {
  const std::string lead = metricsLead(r);
  if (lead.empty())
    return {};
  std::string o = "\n";
  line(o, "", "metrics: " + lead);
  for (const auto &m : r.otherMetrics)
    for (const auto &l : otherMetricLines(m))
      line(o, "  ", l);
  return o;
}

std::string noiseText(const model::CampaignReport &r) {
  std::string o;
  for (const auto &n : r.noise) {
    o += "\n";
    const std::string where = n.benchmark.empty() ? std::string() : n.benchmark + ": ";
    if (!n.diagnosis) {
      line(o, "", where + "noise diagnosis: not available (" + n.error + ")");
      continue;
    }
    const std::vector<std::string> lines = noiseLines(*n.diagnosis);
    for (std::size_t i = 0; i < lines.size(); ++i)
      line(o, i ? "  " : "", (i ? "" : where) + lines[i]);
  }
  return o;
}

std::string failuresText(const model::CampaignReport &r) {
  if (r.failures.empty())
    return "";
  std::string o = "\nfailures (recorded, not used as data):\n";
  for (const auto &f : r.failures) {
    line(o, "  ",
         f.benchmark + " on " + f.system + ": " + counted(f.count, "execution") + " failed (" +
             f.status + "): " + f.cause + " (" + joined(f.where) +
             (f.count > f.where.size() ? ", ..." : "") + ")");
    // The program's own lines, each shown as a line (its control
    // characters, terminal escapes included, as escapes).
    for (std::size_t a = 0, b; a < f.stderrTail.size(); a = b + 1) {
      b = std::min(f.stderrTail.find('\n', a), f.stderrTail.size());
      line(o, "    stderr| ", f.stderrTail.substr(a, b - a));
    }
  }
  return o;
}

} // namespace

std::string renderText(const model::CampaignReport &r) {
  std::string o = r.campaign ? campaignText(r) : std::string();
  if (r.analysis) {
    if (r.layoutStudy)
      o += layoutLead(*r.analysis);
    o += engineText(*r.analysis, r.units);
  } else {
    line(o, "", "no statistics: " + r.analysisError);
    for (const auto &w : r.warnings)
      line(o, "", "warning: " + w);
  }
  return o + metricsText(r) + placementText(r) + noiseText(r) + failuresText(r);
}

std::string textPlans(const PlanSet &p) {
  std::string o;
  for (const auto &pr : p.plans) {
    line(o, "",
         pr.system + (pr.benchmark.empty() ? "" : " on " + pr.benchmark) + ": mean " + g4(pr.mean));
    o += "  level        n          S2          T2   share\n";
    for (const auto &l : pr.levels) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "%4zu %11.4g %11.4g  %5.1f%%%s", l.n, l.s2, l.t2,
                    l.share * 100.0, l.removed ? "  (removed: T2 <= 0)" : "");
      std::string name = plainText(l.name);
      name.resize(std::max<std::size_t>(name.size(), 10), ' ');
      o += "  " + name + " " + buf + "\n";
    }
    std::string overheads = "overheads (measurements per new unit):";
    for (std::size_t i = 0; i < pr.overheads.size(); ++i)
      overheads += " " + p.levels[i] + " " + g4(pr.overheads[i]);
    if (pr.overheads.empty())
      overheads += " none";
    line(o, "  ", overheads);
    if (pr.budget)
      o += "  budget: " + g4(*pr.budget) + " (" + g4(pr.budgetMeasurements) + " measurements)\n";
    line(o, "  ", planText(pr.plan, pr.system));
    if (pr.plan.ok && pr.plan.counts.size() > 1) {
      std::string counts = "optimal counts: ";
      for (std::size_t i = 0; i < pr.plan.counts.size(); ++i)
        counts += (i ? ", " : "") + p.levels[i] + " " + std::to_string(pr.plan.counts[i]);
      line(o, "  ", counts);
    }
    if (pr.plan.targetHalfWidth > 0)
      line(o, "  ",
           "KJ13 Tables 6/7 rule (relative sd of " + p.levels[0] + " means " +
               pct(pr.relativeSd, "%.2f%%") + "): " +
               (pr.kj13TopCount
                    ? std::to_string(*pr.kj13TopCount) + " " +
                          nounFor(*pr.kj13TopCount, p.levels[0]) + runAtLeast(*pr.kj13TopCount)
                    : "more than 1000 " + p.levels[0] + "s"));
  }
  for (const auto &b : p.balancing) {
    line(o, "", "warning: unbalanced: " + balancingText(b, p.levels, p.dropped));
    for (const auto &d : p.dropped)
      if (sameSystem(d, b))
        line(o, "  ", droppedText(d, p.levels));
  }
  return o;
}

} // namespace alea::report
