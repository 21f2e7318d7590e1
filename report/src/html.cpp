// The HTML renderer (render.hpp): one self-contained page, inline CSS and
// SVG, no script, no external resource (no network, CDN or font), readable
// on a laptop, a phone and in print. It says what the text report says, in
// the same phrases (phrases.hpp), with the figures (figures.cpp) inline, each
// with its caption and text alternative. docs/report.md.
#include "phrases.hpp"
#include "placement.hpp"

#include "alea/report/svg.hpp"

#include <map>

namespace alea::report {

namespace {

using namespace alea::analysis;

// Every string that can come from a user goes through esc (htmlText,
// escape.hpp); the page's own markup never does.
std::string esc(const std::string &s) { return htmlText(s); }

constexpr const char *kStyle = R"(
:root{--fg:#1b1b1b;--muted:#5a5a5a;--line:#d0d0d0;--bg:#fff;--faster:#0a6b2b;--slower:#a3200f;--warn:#8a5a00}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:64rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line)}h3{font-size:1.05rem;margin:1.25rem 0 .25rem}
p,li{max-width:48rem}.muted{color:var(--muted)}
.headline{font-size:1.1rem;margin:.25rem 0}.decision-faster{color:var(--faster);font-weight:600}.decision-slower{color:var(--slower);font-weight:600}
.table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}
th,td{padding:.25rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
td.num,th.num{text-align:right}td.num{white-space:nowrap}.nowrap{white-space:nowrap}
figure{margin:1rem 0;break-inside:avoid;page-break-inside:avoid}
figure svg{width:100%;height:auto;max-width:100%}
figcaption{font-size:.9rem;color:var(--muted)}
details summary{cursor:pointer}
.warning{color:var(--warn)}
ul.warnings{padding-left:1.2rem}
pre{white-space:pre-wrap;font-size:.85rem;background:#f6f6f6;padding:.5rem;overflow-x:auto}
@media (max-width:40rem){body{font-size:14px}main{padding:.5rem}th,td{padding:.2rem .35rem}
figure{overflow-x:auto}figure svg{min-width:36rem}}
@media print{body{font-size:10pt}main{max-width:none;padding:0}h2{break-after:avoid}
.table-wrap{overflow:visible}details{display:block}details>summary{display:none}pre{background:none}
a{color:inherit;text-decoration:none}}
)";

std::string decisionSpan(Decision d) {
  const std::string key(decisionKey(d));
  return "<span class=\"decision decision-" + key + "\">" + std::string(decisionName(d)) +
         "</span>";
}

std::string figureHtml(const Figure &f) {
  return "<figure id=\"fig-" + esc(f.id) + "\" class=\"figure\" data-figure=\"" + esc(f.id) +
         "\">\n" + f.svg + "\n<figcaption><strong>" + esc(f.title) + ".</strong> " +
         esc(f.altText) + "</figcaption>\n</figure>\n";
}

std::string list(const std::vector<std::string> &items, const char *cls = nullptr) {
  if (items.empty())
    return "";
  std::string o = cls ? "<ul class=\"" + std::string(cls) + "\">\n" : std::string("<ul>\n");
  for (const auto &i : items)
    o += std::string(cls && std::string(cls) == "warnings" ? "<li class=\"warning\">" : "<li>") +
         esc(i) + "</li>\n";
  return o + "</ul>\n";
}

std::string headlines(const model::CampaignReport &r) {
  const Report &a = *r.analysis;
  std::string o = "<section id=\"headline\">\n<h2>In a sentence</h2>\n";
  bool any = false;
  for (const auto &b : a.benchmarks)
    for (const auto &x : b.ratios) {
      o += "<p class=\"headline\">" +
           (b.name.empty() ? std::string() : "<strong>" + esc(b.name) + "</strong>: ") +
           esc(ratioInWords(x, a.levels[0])) + " &mdash; " +
           decisionSpan(x.family ? x.family->decision : x.decision) + "</p>\n";
      any = true;
    }
  for (const auto &s : a.suite) {
    o += "<p class=\"headline suite\"><strong>Suite</strong>: geometric mean of " +
         esc(s.candidate) + " vs " + esc(s.baseline) + " " + r3(s.geometricMean) + " (" +
         esc(describeRatio(s.geometricMean)) + "), " + confidenceLabel(s.confidence) + " CI " +
         interval(s.bootstrap, r3) + " over " + counted(s.benchmarks, "benchmark") + " &mdash; " +
         decisionSpan(s.decision) + "</p>\n";
    any = true;
  }
  if (!any)
    for (const auto &b : a.benchmarks)
      for (const auto &s : b.systems)
        o += "<p class=\"headline\">" +
             (b.name.empty() ? std::string() : "<strong>" + esc(b.name) + "</strong>, ") +
             esc(s.name) + ": " + esc(layoutText(s.layout, a.options.confidence)) + "</p>\n";
  return o + "</section>\n";
}

std::string systemsTable(const Report &a, const BenchmarkReport &b, const std::string &unit) {
  const std::string conf = confidenceLabel(a.options.confidence);
  std::string o = "<div class=\"table-wrap\"><table class=\"systems\">\n<thead><tr><th>system</th>"
                  "<th class=\"num\">mean" +
                  (unit.empty() ? std::string() : " (" + esc(unit) + ")") +
                  "</th><th class=\"num\">" + conf + " CI (" +
                  (b.systems.empty() ? std::string("t") : methodName(b.systems[0].ci.method)) +
                  ")</th><th class=\"num\">" + conf + " CI (bootstrap)</th><th>design</th>";
  for (const auto &l : a.levels)
    o += "<th class=\"num\">" + esc(l) + " share</th>";
  o += "</tr></thead>\n<tbody>\n";
  for (const auto &s : b.systems) {
    // The design may wrap, between its levels only ("10 builds x / 4
    // executions"): the table fits a laptop's width without scrolling.
    std::string design;
    for (std::size_t i = 0; i < s.shape.size() && i < a.levels.size(); ++i)
      design += (i ? " x " : "") + std::to_string(s.shape[i]) + "&nbsp;" +
                esc(nounFor(s.shape[i], a.levels[i]));
    o += "<tr><td>" + esc(s.name) + "</td><td class=\"num\">" + g4(s.mean) +
         "</td><td class=\"num\">" + interval(s.ci.interval, g4) + "</td><td class=\"num\">" +
         interval(s.bootstrap.interval, g4) + "</td><td>" + design + "</td>";
    for (const auto &l : s.levels)
      o += "<td class=\"num\">" + pct(l.share) + "</td>";
    o += "</tr>\n";
  }
  return o + "</tbody></table></div>\n";
}

std::string ratiosTable(const Report &a, const BenchmarkReport &b) {
  if (b.ratios.empty() && b.pairs.empty())
    return "";
  const std::string conf = confidenceLabel(a.options.confidence);
  bool family = false;
  for (const auto &x : b.ratios)
    family = family || x.family.has_value();
  std::string o = "<div class=\"table-wrap\"><table class=\"ratios\">\n<thead><tr><th>comparison"
                  "</th><th class=\"num\">ratio</th><th>change</th><th class=\"num\">" +
                  conf + " CI (Fieller)</th><th class=\"num\">" + conf +
                  " CI (bootstrap)</th><th>decision</th>" +
                  (family ? "<th class=\"num\">Holm: adjusted p</th><th class=\"num\">adjusted "
                            "CI</th><th>Holm decision</th>"
                          : "") +
                  "</tr></thead>\n<tbody>\n";
  auto row = [&](const RatioReport &x) {
    o += "<tr><td>" + esc(x.candidate) + " vs " + esc(x.baseline) + "</td><td class=\"num\">" +
         r3(x.estimate) + "</td><td>" + esc(describeRatio(x.estimate)) + "</td><td class=\"num\">" +
         (x.fieller ? interval(*x.fieller, r3) : std::string("unbounded")) +
         "</td><td class=\"num\">" + interval(x.bootstrap, r3) + "</td><td>" +
         decisionSpan(x.decision) + "</td>";
    if (family)
      o += x.family ? "<td class=\"num\">" + fmt("%.3g", x.family->adjustedP) +
                          "</td><td class=\"num\">" + confidenceLabel(x.family->level) + " " +
                          (x.family->interval ? interval(*x.family->interval, r3)
                                              : std::string("unbounded")) +
                          "</td><td>" + decisionSpan(x.family->decision) + "</td>"
                    : "<td></td><td></td><td></td>";
    o += "</tr>\n";
  };
  for (const auto &x : b.ratios)
    row(x);
  for (const auto &x : b.pairs)
    row(x);
  return o + "</tbody></table></div>\n";
}

std::string benchmarkSection(const model::CampaignReport &r, const BenchmarkReport &b,
                             const std::vector<Figure> &figs) {
  const Report &a = *r.analysis;
  const auto u = r.units.find(b.name);
  const std::string unit = u != r.units.end() ? u->second : r.campaign ? "s" : "";
  std::string o = "<section class=\"benchmark\" data-benchmark=\"" + esc(b.name) + "\">\n<h2>" +
                  esc(b.name.empty() ? std::string("Results") : "Benchmark " + b.name) + "</h2>\n";
  if (!b.error.empty()) {
    o += "<p class=\"warning\">" + esc(noStatisticsText(b)) + "</p>\n";
    if (!b.warnings.empty())
      o += "<h3>Warnings</h3>\n" + list(b.warnings, "warnings");
    return o + "</section>\n";
  }
  for (const auto &x : b.ratios)
    o += "<p class=\"headline\">" + esc(ratioInWords(x, a.levels[0])) + "</p>\n";
  o += systemsTable(a, b, unit);
  std::vector<std::string> layout;
  for (const auto &s : b.systems)
    layout.push_back(s.name + ": " + layoutText(s.layout, a.options.confidence));
  o += "<h3>Layout</h3>\n" + list(layout);
  o += ratiosTable(a, b);
  std::vector<std::string> details;
  for (const auto &x : b.ratios) {
    details.push_back(ratioSentence(x) + "; decision (threshold " + pct(x.threshold) + ", " +
                      x.decisionBasis + "): " + std::string(decisionName(x.decision)));
    if (a.options.pairing == Pairing::Paired)
      details.push_back("pairing: " + x.pairingNote);
    if (x.family)
      details.push_back(x.candidate + " vs " + x.baseline + ": " + familyText(x));
    if (x.speedupTest && x.speedupTest->ok)
      details.push_back(x.candidate + " vs " + x.baseline + ": " + speedupTestText(x, a.levels[0]));
  }
  o += list(details);
  for (const auto &f : figs)
    if (!f.overview && f.benchmark == b.name)
      o += figureHtml(f);
  if (!b.warnings.empty())
    o += "<h3>Warnings</h3>\n" + list(b.warnings, "warnings");
  return o + "</section>\n";
}

std::string suiteSection(const Report &a) {
  if (a.suite.empty())
    return "";
  std::string o = "<section id=\"suite\">\n<h2>Suite</h2>\n";
  for (const auto &s : a.suite) {
    o += "<p>" + esc(s.candidate) + " vs " + esc(s.baseline) + ": " + r3(s.geometricMean) + ", " +
         confidenceLabel(s.confidence) + " CI " + interval(s.bootstrap, r3) + " (bootstrap; " +
         std::to_string(s.faster) + " faster, " + std::to_string(s.slower) + " slower" +
         (s.randomizationOk ? "; randomization test p = " + fmt("%.4g", s.randomizationP)
                            : std::string()) +
         ")</p>\n" + list(touatiLines(s, a.levels[0])) +
         (s.leftOut.empty() ? std::string() : "<p>" + esc(suiteLeftOutText(s)) + "</p>\n");
  }
  return o + "</section>\n";
}

std::string planSection(const Report &a) {
  std::vector<std::string> items;
  for (const auto &b : a.benchmarks) {
    const std::string where = b.name.empty() ? "" : b.name + ": ";
    for (const auto &x : b.ratios)
      items.push_back(where + x.candidate + " vs " + x.baseline + ": " +
                      ratioPlanText(x.ratioPlan));
    for (const auto &s : b.systems)
      items.push_back(where + planText(s.plan, s.name));
  }
  return "<section id=\"plan\">\n<h2>Plan for the next campaign</h2>\n" + list(items) +
         "</section>\n";
}

// Several metrics per execution: the decision's and the others' ratios.
std::string metricsSection(const model::CampaignReport &r) {
  const std::string lead = metricsLead(r);
  if (lead.empty())
    return {};
  std::vector<std::string> lines;
  for (const auto &m : r.otherMetrics)
    for (auto &l : otherMetricLines(m))
      lines.push_back(std::move(l));
  std::string capital = lead;
  capital[0] = 'T';
  return "<section id=\"metrics\">\n<h2>Metrics</h2>\n<p>" + esc(capital) + "</p>\n" +
         (lines.empty() ? std::string() : list(lines, "metrics")) + "</section>\n";
}

std::string warningsSection(const model::CampaignReport &r) {
  std::vector<std::string> all;
  if (r.analysis) {
    for (const auto &b : r.analysis->benchmarks)
      for (const auto &w : b.warnings)
        all.push_back((b.name.empty() ? "" : b.name + ": ") + w);
    for (const auto &b : r.analysis->balancing)
      all.push_back("unbalanced: " + balancingText(b, r.analysis->levels, r.analysis->dropped));
    for (const auto &w : r.analysis->warnings)
      all.push_back(w);
  } else {
    all = r.warnings;
  }
  return "<section id=\"warnings\">\n<h2>Warnings</h2>\n" +
         (all.empty() ? std::string("<p>None.</p>\n") : list(all, "warnings")) + "</section>\n";
}

std::string failuresSection(const model::CampaignReport &r) {
  if (r.failures.empty())
    return "";
  std::string o = "<section id=\"failures\">\n<h2>Failures (recorded, not used as data)</h2>\n"
                  "<div class=\"table-wrap\"><table><thead><tr><th>benchmark</th><th>system</th>"
                  "<th class=\"num\">executions</th><th>status</th><th>cause</th></tr></thead>"
                  "<tbody>\n";
  for (const auto &f : r.failures)
    o += "<tr><td>" + esc(f.benchmark) + "</td><td>" + esc(f.system) + "</td><td class=\"num\">" +
         std::to_string(f.count) + "</td><td>" + esc(f.status) + "</td><td>" + esc(f.cause) +
         (f.stderrTail.empty() ? std::string() : "<pre>" + esc(f.stderrTail) + "</pre>") +
         "</td></tr>\n";
  return o + "</tbody></table></div>\n</section>\n";
}

std::string factsSection(const model::CampaignReport &r) {
  std::string o = "<section id=\"facts\">\n<h2>The campaign</h2>\n<div class=\"table-wrap\"><table"
                  " class=\"facts\"><tbody>\n";
  auto row = [&](const std::string &k, const std::string &v) {
    if (!v.empty())
      o += "<tr><th>" + esc(k) + "</th><td>" + esc(v) + "</td></tr>\n";
  };
  if (r.campaign) {
    row("campaign", r.name);
    row("store", r.storePath);
    row("what ran", summaryLine(r));
    row("imported from", r.importedFrom);
    row("design", r.layoutStudy ? "one system: a layout-sensitivity study" : r.designNote);
    for (const auto &t : r.targets)
      row("target (" + r.machines + ")", targetText(t));
    row("warm-up", warmupText(r.warmup));
  }
  for (const auto &[k, v] : r.facts)
    row(k, v);
  if (r.analysis) {
    std::string levels;
    for (const auto &l : r.analysis->levels)
      levels += (levels.empty() ? "" : " > ") + l;
    row("levels", levels);
    row("baseline", r.analysis->baseline);
    row("confidence", confidenceLabel(r.analysis->options.confidence));
    row("threshold", pct(r.analysis->options.threshold));
    row("bootstrap", std::to_string(r.analysis->options.bootstrapReplicates) + " replicates");
  }
  o += "</tbody></table></div>\n";
  if (!r.adaptiveLog.empty())
    o += "<h3>Adaptive decisions</h3>\n" + list(r.adaptiveLog);
  return o + "</section>\n";
}

} // namespace

std::string htmlGroups(const char *id, const char *title, const std::vector<LineGroup> &groups) {
  if (groups.empty())
    return "";
  std::string o = std::string("<section id=\"") + id + "\">\n<h2>" + title + "</h2>\n";
  for (const LineGroup &g : groups)
    o += "<h3>" + esc(g.heading) + "</h3>\n" +
         (!g.unavailable ? list(g.lines) : "<p>Not available: " + esc(*g.unavailable) + ".</p>\n");
  return o + "</section>\n";
}

const char *htmlStyle() { return kStyle; }

std::string renderHtml(const model::CampaignReport &r) {
  const std::string title =
      r.campaign ? "alea report: " + (r.name.empty() ? std::string("(unnamed)") : r.name)
                 : std::string("alea analysis");
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>" +
                  esc(title) + "</title>\n<style>" + kStyle +
                  "</style>\n</head>\n<body>\n<main>\n<header>\n<h1>" + esc(title) + "</h1>\n";
  if (r.campaign)
    o += "<p class=\"muted\">" + esc(summaryLine(r)) + "</p>\n";
  o += "</header>\n";
  if (!r.analysis) {
    o += "<section id=\"headline\"><h2>No statistics</h2><p>" + esc(r.analysisError) +
         "</p></section>\n" + warningsSection(r) +
         htmlGroups("noise", "Noise diagnosis", noiseGroups(r)) + failuresSection(r) +
         factsSection(r);
    return o + "</main>\n</body>\n</html>\n";
  }
  const std::vector<Figure> figs = figures(r);
  o += headlines(r);
  for (const auto &f : figs)
    if (f.overview)
      o += "<section id=\"overview\">\n" + figureHtml(f) + "</section>\n";
  for (const auto &b : r.analysis->benchmarks)
    o += benchmarkSection(r, b, figs);
  o += suiteSection(*r.analysis) + metricsSection(r) +
       htmlGroups("placement", "Which functions' placement matters", placementGroups(r)) +
       planSection(*r.analysis) + warningsSection(r) +
       htmlGroups("noise", "Noise diagnosis", noiseGroups(r)) + failuresSection(r) +
       factsSection(r);
  return o + "</main>\n</body>\n</html>\n";
}

} // namespace alea::report
