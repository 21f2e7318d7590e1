// `alea history`'s renderers (history.hpp): per benchmark a table of the
// revisions (mean, ratio to the reference with its interval, decision) and
// the steps, each named by the commit where the new level starts.
#include "alea/report/history.hpp"

#include "phrases.hpp"

#include "alea/report/plots.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace alea::report {

namespace {

using model::BenchmarkHistory;
using model::HistoryPoint;
using model::HistoryReport;
using model::HistoryStep;

const model::HistoryRevision &revisionOf(const HistoryReport &h, std::size_t i) {
  return h.revisions.at(i);
}

// "9ab12cd (k1 does 20% more work)".
std::string revisionWords(const HistoryReport &h, std::size_t i) {
  const auto &r = revisionOf(h, i);
  return r.name + (r.subject.empty() ? "" : " (" + r.subject + ")");
}

std::string ratioCell(const HistoryReport &h, const HistoryPoint &p) {
  if (p.revision == h.reference)
    return "reference";
  if (!p.measured)
    return "no data";
  return r3(p.ratio) + " " + (p.interval ? interval(*p.interval, r3) : std::string("unbounded"));
}

std::string decisionCell(const HistoryPoint &p) {
  return p.decision ? std::string(analysis::decisionName(*p.decision)) : "";
}

// "step at 9ab12cd (subject): 1.200 (20.0% slower than 1a2b3c4), 95% CI [1.19, 1.21], slower".
std::string stepSentence(const HistoryReport &h, const HistoryStep &s) {
  return "step at " + revisionWords(h, s.at) + ": " + r3(s.ratio) + " (" +
         analysis::describeRatio(s.ratio) + " than " + revisionOf(h, s.from).name + "), " +
         confidenceLabel(h.confidence) + " CI " + interval(s.interval, r3) + ", " +
         std::string(analysis::decisionName(s.decision));
}

// " (shifts within the ±1.0% threshold: at 9ab12cd x1.001)", or "".
std::string shiftsClause(const HistoryReport &h, const BenchmarkHistory &b) {
  if (b.shifts.empty())
    return "";
  std::string s = " (" + std::string(b.shifts.size() == 1 ? "a shift" : "shifts") +
                  " within the no-change threshold of " + pct(h.threshold) + ":";
  for (const HistoryStep &x : b.shifts)
    s += " at " + revisionOf(h, x.at).name + " " + r3(x.ratio) + ",";
  s.back() = ')';
  return s;
}

std::string noStepSentence(const HistoryReport &h, const BenchmarkHistory &b) {
  if (!b.stepsError.empty())
    return "steps not looked for: " + b.stepsError;
  std::size_t measured = 0;
  for (const auto &p : b.points)
    measured += p.measured;
  std::string s = "no step over the " + std::to_string(measured) + " measured revisions";
  return s + shiftsClause(h, b);
}

std::string headLine(const HistoryReport &h) {
  std::string s = "history of " + std::to_string(h.revisions.size()) + " revisions, reference " +
                  (h.revisions.empty() ? std::string("none") : revisionWords(h, h.reference)) +
                  "; " + confidenceLabel(h.confidence) + " confidence, threshold " +
                  pct(h.threshold);
  if (!h.campaign.storePath.empty())
    s += "; store " + h.campaign.storePath;
  return s;
}

std::vector<std::string> allWarnings(const HistoryReport &h) {
  std::vector<std::string> w = h.campaign.warnings;
  if (!h.campaign.analysis && !h.campaign.analysisError.empty())
    w.insert(w.begin(), "no statistics: " + h.campaign.analysisError);
  return w;
}

std::string text(const HistoryReport &h) {
  std::string o = plainText(headLine(h)) + "\n";
  if (!h.campaign.designNote.empty())
    o += plainText(h.campaign.designNote) + "\n";
  for (const BenchmarkHistory &b : h.benchmarks) {
    o += "\nbenchmark " + plainText(b.name) + " (" + plainText(b.unit) + ")\n";
    if (!b.error.empty()) {
      o += "  not analysed: " + plainText(b.error) + "\n";
      continue;
    }
    char line[512];
    std::snprintf(line, sizeof line, "  %-12s %12s  %-28s %-12s %s\n", "revision", "mean",
                  ("ratio, " + confidenceLabel(h.confidence) + " CI").c_str(), "decision",
                  "subject");
    o += line;
    for (const HistoryPoint &p : b.points) {
      const auto &r = revisionOf(h, p.revision);
      std::snprintf(line, sizeof line, "  %-12s %12s  %-28s %-12s %s\n", plainText(r.name).c_str(),
                    p.measured ? g4(p.mean).c_str() : "-", ratioCell(h, p).c_str(),
                    decisionCell(p).c_str(), plainText(r.subject).c_str());
      o += line;
    }
    if (b.steps.empty())
      o += "  " + plainText(noStepSentence(h, b)) + "\n";
    for (const HistoryStep &s : b.steps)
      o += "  " + plainText(stepSentence(h, s)) + "\n";
    if (!b.steps.empty() && !b.shifts.empty())
      o += "  also" + plainText(shiftsClause(h, b)) + "\n";
  }
  for (const std::string &w : allWarnings(h))
    o += "warning: " + plainText(w) + "\n";
  return o;
}

std::string markdown(const HistoryReport &h) {
  std::string o = "## " + markdownText(headLine(h)) + "\n\n";
  if (!h.campaign.designNote.empty())
    o += markdownText(h.campaign.designNote) + "\n\n";
  for (const BenchmarkHistory &b : h.benchmarks) {
    o += "### " + markdownText(b.name) + "\n\n";
    if (!b.error.empty()) {
      o += "Not analysed: " + markdownText(b.error) + "\n\n";
      continue;
    }
    for (const HistoryStep &s : b.steps)
      o += "- **" + markdownText(stepSentence(h, s)) + "**\n";
    if (b.steps.empty())
      o += "- " + markdownText(noStepSentence(h, b)) + "\n";
    else if (!b.shifts.empty())
      o += "- also" + markdownText(shiftsClause(h, b)) + "\n";
    o += "\n| revision | subject | mean (" + markdownText(b.unit) + ") | ratio | " +
         confidenceLabel(h.confidence) + " CI | decision |\n|---|---|---:|---:|---|---|\n";
    for (const HistoryPoint &p : b.points) {
      const auto &r = revisionOf(h, p.revision);
      o += "| " + markdownCode(r.name) + " | " + markdownText(r.subject) + " | " +
           (p.measured ? g4(p.mean) : "-") + " | " +
           (p.revision == h.reference ? "reference"
            : p.measured              ? r3(p.ratio)
                                      : "no data") +
           " | " + (p.interval ? interval(*p.interval, r3) : "") + " | " + decisionCell(p) + " |\n";
    }
    o += "\n";
  }
  for (const std::string &w : allWarnings(h))
    o += "> warning: " + markdownText(w) + "\n";
  return o;
}

using Json = nlohmann::ordered_json;

Json num(double d) { return std::isfinite(d) ? Json(d == 0 ? 0.0 : d) : Json(nullptr); }

Json intervalJson(const std::optional<analysis::Interval> &i) {
  return i ? Json::array({num(i->lower), num(i->upper)}) : Json(nullptr);
}

std::string json(const HistoryReport &h) {
  Json doc = Json::object();
  doc["alea_history"] = kReportSchemaVersion;
  doc["store"] = h.campaign.storePath;
  doc["confidence"] = h.confidence;
  doc["threshold"] = h.threshold;
  Json revisions = Json::array();
  for (const auto &r : h.revisions)
    revisions.push_back({{"name", r.name}, {"commit", r.commit}, {"subject", r.subject}});
  doc["revisions"] = revisions;
  doc["reference"] = h.revisions.empty() ? Json(nullptr) : Json(h.revisions[h.reference].name);
  doc["design_note"] = h.campaign.designNote;
  Json benchmarks = Json::array();
  for (const BenchmarkHistory &b : h.benchmarks) {
    Json points = Json::array();
    for (const HistoryPoint &p : b.points)
      points.push_back({{"revision", revisionOf(h, p.revision).name},
                        {"measured", p.measured},
                        {"mean", p.measured ? num(p.mean) : Json(nullptr)},
                        {"builds", p.builds},
                        {"ratio", p.measured ? num(p.ratio) : Json(nullptr)},
                        {"interval", intervalJson(p.interval)},
                        {"decision", p.decision ? Json(decisionKey(*p.decision)) : Json(nullptr)}});
    auto stepsJson = [&](const std::vector<HistoryStep> &list) {
      Json steps = Json::array();
      for (const HistoryStep &s : list)
        steps.push_back({{"at", revisionOf(h, s.at).name},
                         {"commit", revisionOf(h, s.at).commit},
                         {"subject", revisionOf(h, s.at).subject},
                         {"from", revisionOf(h, s.from).name},
                         {"ratio", num(s.ratio)},
                         {"interval", intervalJson(s.interval)},
                         {"decision", decisionKey(s.decision)}});
      return steps;
    };
    benchmarks.push_back(
        {{"name", b.name},
         {"unit", b.unit},
         {"error", b.error.empty() ? Json(nullptr) : Json(b.error)},
         {"points", points},
         {"steps", stepsJson(b.steps)},
         {"shifts_within_threshold", stepsJson(b.shifts)},
         {"steps_error", b.stepsError.empty() ? Json(nullptr) : Json(b.stepsError)}});
  }
  doc["benchmarks"] = benchmarks;
  doc["warnings"] = allWarnings(h);
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

// One row per benchmark and revision; the step columns are filled on the
// revision where a step starts.
std::string csv(const HistoryReport &h) {
  std::string o = "benchmark,revision,commit,subject,mean,unit,builds,ratio,lower,upper,decision,"
                  "step_ratio,step_lower,step_upper,step_decision\n";
  auto n = [](double v) { return std::isfinite(v) ? fmt("%.17g", v) : std::string(); };
  for (const BenchmarkHistory &b : h.benchmarks)
    for (const HistoryPoint &p : b.points) {
      const auto &r = revisionOf(h, p.revision);
      o += csvText(b.name) + "," + csvText(r.name) + "," + csvText(r.commit) + "," +
           csvText(r.subject) + "," + (p.measured ? n(p.mean) : "") + "," + csvText(b.unit) + "," +
           std::to_string(p.builds) + "," + (p.measured ? n(p.ratio) : "") + "," +
           (p.interval ? n(p.interval->lower) : "") + "," +
           (p.interval ? n(p.interval->upper) : "") + "," +
           (p.decision ? decisionKey(*p.decision) : "");
      std::string step = ",,,,";
      for (const HistoryStep &s : b.steps)
        if (s.at == p.revision)
          step = "," + n(s.ratio) + "," + n(s.interval.lower) + "," + n(s.interval.upper) + "," +
                 decisionKey(s.decision);
      o += step + "\n";
    }
  return o;
}

std::string html(const HistoryReport &h) {
  auto esc = [](const std::string &s) { return htmlText(s); };
  const std::string title = "alea history";
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>" +
                  title + "</title>\n<style>" + htmlStyle() +
                  "</style>\n</head>\n<body>\n<main>\n<header>\n<h1>" + title +
                  "</h1>\n<p class=\"muted\">" + esc(headLine(h)) + "</p>\n";
  if (!h.campaign.designNote.empty())
    o += "<p class=\"muted\">" + esc(h.campaign.designNote) + "</p>\n";
  o += "</header>\n";
  for (const BenchmarkHistory &b : h.benchmarks) {
    o += "<section class=\"benchmark\" data-benchmark=\"" + esc(b.name) + "\">\n<h2>" +
         esc(b.name) + "</h2>\n";
    if (!b.error.empty()) {
      o += "<p>Not analysed: " + esc(b.error) + "</p>\n</section>\n";
      continue;
    }
    o += "<ul class=\"steps\">\n";
    for (const HistoryStep &s : b.steps)
      o += "<li class=\"step decision-" + decisionKey(s.decision) + "\">" +
           esc(stepSentence(h, s)) + "</li>\n";
    if (b.steps.empty())
      o += "<li>" + esc(noStepSentence(h, b)) + "</li>\n";
    else if (!b.shifts.empty())
      o += "<li>also" + esc(shiftsClause(h, b)) + "</li>\n";
    o += "</ul>\n";
    std::vector<TrendPoint> points;
    for (const HistoryPoint &p : b.points) {
      TrendPoint t;
      t.label = revisionOf(h, p.revision).name;
      t.tooltip = revisionWords(h, p.revision) + ": " + ratioCell(h, p) +
                  (p.decision ? ", " + decisionCell(p) : std::string());
      if (p.measured) {
        t.ratio = p.ratio;
        if (p.interval) {
          t.lower = p.interval->lower;
          t.upper = p.interval->upper;
        }
      }
      points.push_back(std::move(t));
    }
    std::vector<TrendStep> steps;
    for (const HistoryStep &s : b.steps)
      steps.push_back(
          {s.at, "\u00d7" + r3(s.ratio) + " " + std::string(analysis::decisionName(s.decision))});
    PlotText pt;
    pt.title = b.name + ": ratio to " + revisionOf(h, h.reference).name + " by revision";
    pt.yLabel = "ratio to " + revisionOf(h, h.reference).name;
    pt.xLabel = "revision, oldest first";
    const std::string svg = trendPlot(points, steps, h.threshold, pt);
    o += "<figure class=\"figure\" data-figure=\"trend\">\n" + svg + "\n<figcaption><strong>" +
         esc(pt.title) +
         ".</strong> The ratio of each revision to the "
         "reference with its " +
         confidenceLabel(h.confidence) +
         " interval; the shaded band is no change; a dashed line marks a step.</figcaption>\n"
         "</figure>\n";
    o += "<div class=\"table-wrap\"><table>\n<thead><tr><th>revision</th><th>subject</th>"
         "<th class=\"num\">mean (" +
         esc(b.unit) + ")</th><th class=\"num\">ratio, " + confidenceLabel(h.confidence) +
         " CI</th><th>decision</th></tr></thead>\n<tbody>\n";
    for (const HistoryPoint &p : b.points) {
      const auto &r = revisionOf(h, p.revision);
      o += "<tr><td><code>" + esc(r.name) + "</code></td><td>" + esc(r.subject) +
           "</td><td class=\"num\">" + (p.measured ? g4(p.mean) : "-") + "</td><td class=\"num\">" +
           esc(ratioCell(h, p)) + "</td><td>" + esc(decisionCell(p)) + "</td></tr>\n";
    }
    o += "</tbody></table></div>\n</section>\n";
  }
  const std::vector<std::string> warnings = allWarnings(h);
  if (!warnings.empty()) {
    o += "<section id=\"warnings\"><h2>Warnings</h2>\n<ul class=\"warnings\">\n";
    for (const std::string &w : warnings)
      o += "<li class=\"warning\">" + esc(w) + "</li>\n";
    o += "</ul></section>\n";
  }
  return o + "</main>\n</body>\n</html>\n";
}

} // namespace

Expected<std::string> renderHistory(const HistoryReport &history, Format format) {
  static constexpr FormatRenderers<HistoryReport> kRenderers{
      .text = text, .markdown = markdown, .json = json, .csv = csv, .html = html};
  if (const auto renderer = kRenderers.of(format))
    return renderer(history);
  return Error{"a history is written as text, md, json, csv or html, not " +
                   std::string(enumName(format)),
               ErrorKind::Usage};
}

Status writeHistory(const HistoryReport &history, Format format, const std::string &output) {
  auto text = renderHistory(history, format);
  if (!text)
    return Error{text.error(), text.errorKind()};
  if (output.empty() || output == "-") {
    std::fputs(text->c_str(), stdout);
    std::fflush(stdout);
    return {};
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out << *text;
  out.close();
  if (!out)
    return Error{"cannot write " + output};
  return {};
}

} // namespace alea::report
