// The text renderer (render.hpp): the campaign header, the engine's report
// per benchmark, the suite, the noise diagnosis and the failures.
#include "phrases.hpp"

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

std::string engineText(const Report &r, const std::map<std::string, std::string> &units = {}) {
  std::string o;
  std::size_t nSystems = 0;
  for (const auto &b : r.benchmarks)
    nSystems = std::max(nSystems, b.systems.size());
  o += "levels: ";
  for (std::size_t i = 0; i < r.levels.size(); ++i)
    o += (i ? " > " : "") + r.levels[i];
  o += "; baseline: " + r.baseline + "; " + confidenceLabel(r.options.confidence) +
       " confidence; threshold " + pct(r.options.threshold) + "\n";
  if (nSystems == 1)
    o += "one system: a layout-sensitivity study (no comparison)\n";
  for (const auto &b : r.benchmarks) {
    o += "\n";
    if (!b.name.empty()) {
      const auto unit = units.find(b.name);
      o += "benchmark " + b.name + (unit == units.end() ? "" : " (" + unit->second + ")") + "\n";
    }
    if (!b.error.empty())
      o += "  " + noStatisticsText(b) + "\n";
    for (const auto &s : b.systems) {
      o += "  " + s.name + ": mean " + g4(s.mean) + ", " + confidenceLabel(s.ci.confidence) +
           " CI " + interval(s.ci.interval, g4) + " (" + methodName(s.ci.method) + "; bootstrap " +
           interval(s.bootstrap.interval, g4) + "), " + shapeText(r.levels, s.shape) + "\n";
      o += "    " + sharesText(s) + "\n";
      o += "    " + layoutText(s.layout, r.options.confidence) + "\n";
    }
    for (const auto &x : b.ratios) {
      o += "  " + ratioSentence(x) + "\n";
      if (r.options.pairing == Pairing::Paired)
        o += "    pairing: " + x.pairingNote + "\n";
      o += "    decision (threshold " + pct(x.threshold) + ", " + x.decisionBasis +
           "): " + std::string(decisionName(x.decision)) + "\n";
      o += "    in words: " + ratioInWords(x, r.levels[0]) + "\n";
      if (x.family)
        o += "    " + familyText(x) + "\n";
      o += "    " + ratioPlanText(x.ratioPlan) + "\n";
      if (x.speedupTest && x.speedupTest->ok) {
        o += "    " + speedupTestText(x, r.levels[0]) + "\n";
      }
    }
    for (const auto &x : b.pairs)
      o += "  " + ratioSentence(x) + "; " + std::string(decisionName(x.decision)) +
           (x.family ? "; " + familyText(x) : std::string()) + "\n";
    for (const auto &s : b.systems)
      o += "  " + planText(s.plan, s.name) + "\n";
    for (const auto &w : b.warnings)
      o += "  warning: " + w + "\n";
  }
  if (!r.suite.empty()) {
    o += "\nsuite (geometric mean over benchmarks)\n";
    for (const auto &s : r.suite)
      o += "  " + s.candidate + " vs " + s.baseline + ": " + r3(s.geometricMean) + " (" +
           describeRatio(s.geometricMean) + "), " + confidenceLabel(s.confidence) + " CI " +
           interval(s.bootstrap, r3) + " (bootstrap, " + std::to_string(s.benchmarks) +
           " benchmarks" +
           (s.topLevelBootstrapOk
                ? "; Li-Chen-Peng on " + r.levels[0] + " means " + interval(s.topLevelBootstrap, r3)
                : std::string()) +
           "); " + std::string(decisionName(s.decision)) + "; " + std::to_string(s.faster) +
           " faster, " + std::to_string(s.slower) + " slower" +
           (s.randomizationOk ? "; randomization test p = " + fmt("%.4g", s.randomizationP)
                              : std::string()) +
           "\n" + touatiText(s, r.levels[0]) +
           (s.leftOut.empty() ? std::string() : "    " + suiteLeftOutText(s) + "\n");
    if (!r.suiteSystems.empty()) {
      o += "  empirical distribution of the geometric mean over benchmarks, one " + r.levels[0] +
           " mean drawn per benchmark (Li-Chen-Peng; " +
           std::to_string(r.suiteSystems.front().replicates) + " draws):\n";
      for (const auto &e : r.suiteSystems)
        o += "    " + e.name + ": observed " + g4(e.observed) + "; min " + g4(e.summary.minimum) +
             ", Q1 " + g4(e.summary.q1) + ", median " + g4(e.summary.median) + ", Q3 " +
             g4(e.summary.q3) + ", max " + g4(e.summary.maximum) + " (" +
             std::to_string(e.benchmarks) + " benchmarks" +
             (e.leftOut.empty() ? std::string() : "; left out: " + joined(e.leftOut)) + ")\n";
    }
  }
  if (!r.dropped.empty()) {
    o += "\nunbalanced data (--unbalanced=" + unbalancedName(r.options.unbalanced) +
         "), balanced per system; " + kVarianceNote + ":\n";
    for (const auto &b : r.balancing) {
      o += "  " + balancingText(b, r.levels, r.dropped) + "\n";
      for (const auto &d : r.dropped)
        if (sameSystem(d, b))
          o += "    " + droppedText(d, r.levels) + "\n";
    }
  }
  for (const auto &w : r.warnings)
    o += "warning: " + w + "\n";
  return o;
}

// A layout-sensitivity study (one system) leads with the layout effect.
std::string layoutLead(const Report &r) {
  std::string o = "layout sensitivity (one system):\n";
  for (const auto &b : r.benchmarks)
    for (const auto &s : b.systems)
      o += "  " + (b.name.empty() ? s.name : b.name + " on " + s.name) + ": " +
           layoutText(s.layout, r.options.confidence) + "\n";
  return o + "\n";
}

std::string campaignText(const runner::CampaignReport &r) {
  std::string o = "campaign " + (r.name.empty() ? std::string("(unnamed)") : r.name) + "  [" +
                  r.storePath + "]\n  " + summaryLine(r) + "\n";
  if (r.layoutStudy)
    o += "  one system: a layout-sensitivity study\n";
  else
    o += "  " + r.designNote + "\n";
  for (const auto &line : r.adaptiveLog)
    o += "  " + line + "\n";
  return o + "\n";
}

std::string noiseText(const runner::CampaignReport &r) {
  std::string o;
  for (const auto &n : r.noise) {
    o += "\n" + (n.benchmark.empty() ? std::string() : n.benchmark + ": ");
    if (!n.diagnosis) {
      o += "noise diagnosis: not available (" + n.error + ")\n";
      continue;
    }
    const std::vector<std::string> lines = noiseLines(*n.diagnosis);
    for (std::size_t i = 0; i < lines.size(); ++i)
      o += (i ? "  " : "") + lines[i] + "\n";
  }
  return o;
}

std::string failuresText(const runner::CampaignReport &r) {
  if (r.failures.empty())
    return "";
  std::string o = "\nfailures (recorded, not used as data):\n";
  for (const auto &f : r.failures) {
    o += "  " + f.benchmark + " on " + f.system + ": " + count(f.count, "execution") + " failed (" +
         f.status + "): " + f.cause + " (" + joined(f.where) +
         (f.count > f.where.size() ? ", ..." : "") + ")\n";
    if (!f.stderrTail.empty())
      o += indentLines(f.stderrTail, "    stderr| ");
  }
  return o;
}

} // namespace

std::string renderText(const runner::CampaignReport &r) {
  std::string o = r.campaign ? campaignText(r) : std::string();
  if (r.analysis) {
    if (r.layoutStudy)
      o += layoutLead(*r.analysis);
    o += engineText(*r.analysis, r.units);
  } else {
    o += "no statistics: " + r.analysisError + "\n";
    for (const auto &w : r.warnings)
      o += "warning: " + w + "\n";
  }
  return o + noiseText(r) + failuresText(r);
}

std::string textPlans(const PlanSet &p) {
  std::string o;
  for (const auto &pr : p.plans) {
    o += pr.system + (pr.benchmark.empty() ? "" : " on " + pr.benchmark) + ": mean " + g4(pr.mean) +
         "\n";
    o += "  level        n          S2          T2   share\n";
    for (const auto &l : pr.levels) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "  %-10s %4zu %11.4g %11.4g  %5.1f%%%s\n", l.name.c_str(), l.n,
                    l.s2, l.t2, l.share * 100.0, l.removed ? "  (removed: T2 <= 0)" : "");
      o += buf;
    }
    o += "  overheads (measurements per new unit):";
    for (std::size_t i = 0; i < pr.overheads.size(); ++i)
      o += " " + p.levels[i] + " " + g4(pr.overheads[i]);
    if (pr.overheads.empty())
      o += " none";
    o += "\n";
    if (pr.budget)
      o += "  budget: " + g4(*pr.budget) + " (" + g4(pr.budgetMeasurements) + " measurements)\n";
    o += "  " + planText(pr.plan, pr.system) + "\n";
    if (pr.plan.ok && pr.plan.counts.size() > 1) {
      o += "  optimal counts: ";
      for (std::size_t i = 0; i < pr.plan.counts.size(); ++i)
        o += (i ? ", " : "") + p.levels[i] + " " + std::to_string(pr.plan.counts[i]);
      o += "\n";
    }
    if (pr.plan.targetHalfWidth > 0) {
      o += "  KJ13 Tables 6/7 rule (relative sd of " + p.levels[0] + " means " +
           pct(pr.relativeSd, "%.2f%%") + "): ";
      o += pr.kj13TopCount
               ? std::to_string(*pr.kj13TopCount) + " " + plural(p.levels[0], *pr.kj13TopCount) +
                     runAtLeast(*pr.kj13TopCount)
               : std::string("more than 1000 ") + p.levels[0] + "s";
      o += "\n";
    }
  }
  for (const auto &b : p.balancing) {
    o += "warning: unbalanced: " + balancingText(b, p.levels, p.dropped) + "\n";
    for (const auto &d : p.dropped)
      if (sameSystem(d, b))
        o += "  " + droppedText(d, p.levels) + "\n";
  }
  return o;
}

} // namespace alea::report
