// alea's reports: one report value (model::CampaignReport: the engine's
// statistics, the figures' numbers and, for a campaign store, the campaign's
// facts) rendered by one renderer per format. Renderers compute nothing: every
// number comes from analysis/ (statistics, figures) or the runner (campaign
// facts); they only choose words, layout and rounding. `alea report`, `alea
// run` and `alea analyze` all end here. docs/report.md.
#pragma once

#include "alea/analysis/report.hpp"
#include "alea/enum_names.hpp"
#include "alea/model/campaign_report.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::report {

#define ALEA_REPORT_FORMATS(X)                                                                     \
  X(Text, "text")                                                                                  \
  X(Markdown, "md") /* also "markdown" */                                                          \
  X(Json, "json")                                                                                  \
  X(Csv, "csv")                                                                                    \
  X(Html, "html")                                                                                  \
  X(Latex, "latex") /* also "tex" */
enum class Format { ALEA_REPORT_FORMATS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Format, ALEA_REPORT_FORMATS);

// "text", "md"/"markdown", "json", "csv", "html", "latex"/"tex"; nullopt otherwise.
std::optional<Format> parseFormat(std::string_view name);
// The names parseFormat accepts, for messages: "text, md, json, csv, html or latex".
std::string formatNames();

// The JSON schema version written as "alea_report" / "alea_plan".
inline constexpr int kReportSchemaVersion = 1;

std::string render(const model::CampaignReport &report, Format format);

// `alea plan`: text, Markdown, JSON or CSV (HTML and LaTeX fall back to text).
std::string renderPlans(const analysis::PlanSet &plans, Format format);

// One figure of the report as a standalone SVG (`--plots DIR`; the HTML
// report inlines the same figures).
struct Figure {
  std::string id;        // file stem and HTML id: "forest", "builds-<benchmark>", ...
  std::string title;     // caption
  std::string svg;       // the <svg> element
  std::string altText;   // the text alternative (what the figure shows, in words)
  bool overview = false; // about every benchmark (the forest plot)
  std::string benchmark; // otherwise: the benchmark it shows
};
std::vector<Figure> figures(const model::CampaignReport &report);

// Renders `report` to `output` (a file; "" or "-": standard output) and, when
// `plotsDir` is not empty, writes every figure there as <id>.svg.
alea::Status writeReport(const model::CampaignReport &report, Format format,
                         const std::string &output, const std::string &plotsDir = "");

// "faster", "slower", "no_change", "inconclusive" (JSON and CSV spelling).
std::string decisionKey(analysis::Decision d);

} // namespace alea::report
