// Step 3 of `alea report` (report.hpp): rendering. The engine's formatters
// (analysis/format.hpp) render the statistics, with the campaign warnings
// already appended to its warnings; this file adds the campaign section
// around them: a header (what was run and what failed), the layout
// sensitivity of every system and the failures with their stderr tails.
// JSON: {"alea_campaign_report": 1, "campaign": {...}, "report": <the
// engine's JSON, unchanged, or null>} so the engine's keys stay stable.
// CSV: the engine's rows, then rows in the same columns with statistic
// "layout_spread" and "failures".
#include "alea/runner/report.hpp"

#include <cmath>
#include <cstdio>

namespace alea::runner {

namespace {

using analysis::JsonWriter;

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100);
  return buf;
}

std::string seconds(double s) {
  char buf[32];
  if (s >= 1)
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  return buf;
}

// A build mean in its benchmark's unit: times scaled to s/ms/us, anything
// else (KiB of peak RSS, a program's own unit) as a number with its unit.
std::string quantity(double v, const std::string &unit) {
  if (unit == "s")
    return seconds(v);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g%s%s", v, unit.empty() ? "" : " ", unit.c_str());
  return buf;
}

std::string plural(std::size_t n, const std::string &word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string joined(const std::vector<std::string> &v, const char *sep = ", ") {
  std::string out;
  for (const auto &s : v)
    out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string indentLines(const std::string &text, const std::string &prefix) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    out += prefix + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

std::string summaryLine(const CampaignReport &r) {
  std::string systems;
  for (std::size_t i = 0; i < r.systems.size(); ++i) {
    systems += (i ? ", " : "") + r.systems[i];
    if (r.analysis && r.systems[i] == r.analysis->baseline &&
        r.systems.size() > 1)
      systems += " (baseline)";
  }
  return plural(r.systems.size(), "system") + " [" + systems + "], " +
         plural(r.benchmarks.size(), "benchmark") + "; " +
         plural(r.builds, "build") +
         (r.failedBuilds ? " (+" + std::to_string(r.failedBuilds) + " failed)"
                         : "") +
         ", " + std::to_string(r.executed) + " of " +
         plural(r.planned, "planned execution") + " (" +
         std::to_string(r.failed) + " failed), " +
         plural(r.measurements, "measurement") + " after warm-up";
}

// The build level's share of the variance (the engine's KJ estimate), which
// says how much of the spread above is layout rather than execution noise.
std::string layoutShare(const CampaignReport &r,
                        const CampaignReport::Sensitivity &s) {
  if (!r.analysis)
    return "";
  for (const auto &b : r.analysis->benchmarks) {
    if (b.name != s.benchmark)
      continue;
    for (const auto &sys : b.systems)
      if (sys.name == s.system && !sys.levels.empty())
        return "; layout explains " + percent(sys.levels.front().share) +
               " of the variance";
  }
  return "";
}

std::string textReport(const CampaignReport &r) {
  std::string o = "campaign " +
                  (r.name.empty() ? std::string("(unnamed)") : r.name) + "  [" +
                  r.storePath + "]\n  " + summaryLine(r) + "\n";
  if (r.layoutStudy)
    o += "  one system: a layout-sensitivity study\n";
  else
    o += "  " + r.designNote + "\n";
  for (const auto &line : r.adaptiveLog)
    o += "  " + line + "\n";
  o += "\n";
  if (r.analysis) {
    o += analysis::formatReport(*r.analysis, analysis::Format::Text);
  } else {
    o += "no statistics: " + r.analysisError + "\n";
    for (const auto &w : r.warnings)
      o += "warning: " + w + "\n";
  }
  if (!r.sensitivity.empty()) {
    o += "\nlayout sensitivity (best and worst build mean of each system):\n";
    for (const auto &s : r.sensitivity)
      o += "  " + s.benchmark + " on " + s.system +
           ": best and worst layout differ by " + percent(s.spread()) + " (" +
           quantity(s.best, s.unit) + " build " + std::to_string(s.bestBuild) + ", " +
           quantity(s.worst, s.unit) + " build " + std::to_string(s.worstBuild) + "; " +
           plural(s.builds, "build") + layoutShare(r, s) + ")\n";
  }
  for (const auto &n : r.noise) {
    o += "\n" + (n.benchmark.empty() ? std::string() : n.benchmark + ": ");
    if (!n.diagnosis) {
      o += "noise diagnosis: not available (" + n.error + ")\n";
      continue;
    }
    std::vector<std::string> lines = analysis::noiseSummaryLines(*n.diagnosis);
    for (std::size_t i = 0; i < lines.size(); ++i)
      o += (i ? "  " : "") + lines[i] + "\n";
  }
  if (!r.failures.empty()) {
    o += "\nfailures (recorded, not used as data):\n";
    for (const auto &f : r.failures) {
      o += "  " + f.benchmark + " on " + f.system + ": " +
           plural(f.count, "execution") + " failed (" + f.status +
           "): " + f.cause + " (" + joined(f.where) +
           (f.count > f.where.size() ? ", ..." : "") + ")\n";
      if (!f.stderrTail.empty())
        o += indentLines(f.stderrTail, "    stderr| ");
    }
  }
  return o;
}

std::string mdEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '*' || c == '_' || c == '`')
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string mdReport(const CampaignReport &r) {
  std::string o = "# alea campaign report: " + mdEscape(r.name) + "\n\n" +
                  mdEscape(summaryLine(r)) + "\n\nStore: `" + r.storePath +
                  "`\n\n";
  if (r.layoutStudy)
    o += "One system: a layout-sensitivity study.\n\n";
  else
    o += mdEscape(r.designNote) + ".\n\n";
  for (const auto &line : r.adaptiveLog)
    o += "- " + mdEscape(line) + "\n";
  if (!r.adaptiveLog.empty())
    o += "\n";
  if (r.analysis) {
    // The engine's headings one level down, under this report's title.
    const std::string md =
        analysis::formatReport(*r.analysis, analysis::Format::Markdown);
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
    o += "\n";
  } else {
    o += "No statistics: " + mdEscape(r.analysisError) + "\n\n";
    for (const auto &w : r.warnings)
      o += "- warning: " + mdEscape(w) + "\n";
    o += "\n";
  }
  if (!r.sensitivity.empty()) {
    o += "## Layout sensitivity\n\n| benchmark | system | builds | best | "
         "worst | "
         "spread |\n|---|---|---:|---:|---:|---:|\n";
    for (const auto &s : r.sensitivity)
      o += "| " + mdEscape(s.benchmark) + " | " + mdEscape(s.system) + " | " +
           std::to_string(s.builds) + " | " + quantity(s.best, s.unit) + " | " +
           quantity(s.worst, s.unit) + " | " + percent(s.spread()) + " |\n";
    o += "\n";
  }
  if (!r.noise.empty()) {
    o += "## Noise diagnosis\n\n";
    for (const auto &n : r.noise) {
      o += "**" + mdEscape(n.benchmark.empty() ? std::string("(benchmark)") : n.benchmark) +
           "**\n\n";
      if (!n.diagnosis) {
        o += "Not available: " + mdEscape(n.error) + ".\n\n";
        continue;
      }
      for (const auto &line : analysis::noiseSummaryLines(*n.diagnosis))
        o += "- " + mdEscape(line) + "\n";
      o += "\n";
    }
  }
  if (!r.failures.empty()) {
    o += "## Failures\n\n| benchmark | system | executions | status | cause |\n"
         "|---|---|---:|---|---|\n";
    for (const auto &f : r.failures)
      o += "| " + mdEscape(f.benchmark) + " | " + mdEscape(f.system) + " | " +
           std::to_string(f.count) + " | " + f.status + " | " +
           mdEscape(f.cause) + " |\n";
  }
  return o;
}

std::string jsonReport(const CampaignReport &r) {
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
  w.key("layout_sensitivity").beginArray();
  for (const auto &s : r.sensitivity) {
    w.beginObject();
    w.key("benchmark").value(s.benchmark);
    w.key("system").value(s.system);
    w.key("builds").value(s.builds);
    w.key("unit").value(s.unit);
    w.key("best_build").value(static_cast<std::size_t>(s.bestBuild));
    w.key("best_mean").value(s.best);
    w.key("worst_build").value(static_cast<std::size_t>(s.worstBuild));
    w.key("worst_mean").value(s.worst);
    w.key("spread").value(s.spread());
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

  std::string engine =
      r.analysis ? analysis::formatReport(*r.analysis, analysis::Format::Json)
                 : std::string("null");
  auto nested =
      [](const std::string &json) { // indented one level, no final newline
        std::string t = indentLines(json, "  ").substr(2);
        while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
          t.pop_back();
        return t;
      };
  return "{\n  \"alea_campaign_report\": 1,\n  \"campaign\": " +
         nested(w.str()) + ",\n  \"report\": " + nested(engine) + "\n}\n";
}

std::string csvField(const std::string &s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csvReport(const CampaignReport &r) {
  std::string o =
      r.analysis ? analysis::formatReport(*r.analysis, analysis::Format::Csv)
                 : "benchmark,system,baseline,statistic,method,estimate,lower,"
                   "upper,decision\n";
  for (const auto &s : r.sensitivity)
    o += csvField(s.benchmark) + "," + csvField(s.system) +
         ",,layout_spread,build_means," + JsonWriter::number(s.spread()) + "," +
         JsonWriter::number(s.best) + "," + JsonWriter::number(s.worst) + ",\n";
  for (const auto &n : r.noise)
    if (n.diagnosis)
      for (const auto &f : n.diagnosis->findings)
        o += csvField(n.benchmark) + ",,,noise," + csvField(f.kind) + "," +
             JsonWriter::number(f.value) + "," +
             (f.pValue ? JsonWriter::number(*f.pValue) : std::string()) + "," +
             (f.adjustedPValue ? JsonWriter::number(*f.adjustedPValue) : std::string()) + "," +
             (f.significant ? "found" : "not found") + "\n";
  for (const auto &f : r.failures)
    o += csvField(f.benchmark) + "," + csvField(f.system) + ",,failures," +
         csvField(f.status) + "," + std::to_string(f.count) + ",,,\n";
  return o;
}

} // namespace

std::string formatCampaignReport(const CampaignReport &report,
                                 analysis::Format format) {
  switch (format) {
  case analysis::Format::Text:
    return textReport(report);
  case analysis::Format::Markdown:
    return mdReport(report);
  case analysis::Format::Json:
    return jsonReport(report);
  case analysis::Format::Csv:
    return csvReport(report);
  }
  return textReport(report);
}

} // namespace alea::runner
