// The phrases the renderers share (phrases.cpp): one spelling of every number,
// interval and sentence, so that all formats say the same thing.
#pragma once

#include "alea/analysis/noise.hpp"
#include "alea/analysis/report.hpp"
#include "alea/report/escape.hpp"
#include "alea/report/render.hpp"
#include "alea/words.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace alea::report {

// Each format's renderer of one kind of value (a report, plans, a history),
// in one place: nullptr where that value is not written in that format.
template <class T> struct FormatRenderers {
  using Fn = std::string (*)(const T &);
  Fn text = nullptr, markdown = nullptr, json = nullptr, csv = nullptr, html = nullptr,
     latex = nullptr;
  Fn of(Format f) const {
    const std::array<Fn, kEnumNames<Format>.size()> byFormat{text, markdown, json,
                                                             csv,  html,     latex};
    return byFormat[static_cast<std::size_t>(f)]; // in Format's order (render.hpp)
  }
};

// One renderer per format (text.cpp, markdown.cpp, ...), dispatched by render().
std::string renderText(const model::CampaignReport &r);
std::string renderMarkdown(const model::CampaignReport &r);
std::string renderJson(const model::CampaignReport &r);
std::string renderCsv(const model::CampaignReport &r);
std::string renderHtml(const model::CampaignReport &r);
// The report page's style sheet (html.cpp), for the other pages (history).
const char *htmlStyle();
std::string renderLatex(const model::CampaignReport &r);
// `alea plan`'s renderers, in the same files.
std::string textPlans(const analysis::PlanSet &p);
std::string jsonPlans(const analysis::PlanSet &p);
std::string csvPlans(const analysis::PlanSet &p);
std::string mdPlans(const analysis::PlanSet &p);

std::string fmt(const char *format, double v);
std::string g4(double v);
std::string r3(double v);
std::string pct(double fraction, const char *format = "%.1f%%");
std::string confidenceLabel(double c); // 0.95 -> "95%"
std::string interval(const analysis::Interval &i, std::string (*f)(double));
std::string shapeText(const std::vector<std::string> &levels,
                      const std::vector<std::size_t> &shape);
std::string pathText(const std::vector<std::string> &path);
std::string methodName(analysis::IntervalMethod m);
std::string unbalancedName(analysis::UnbalancedPolicy p);
std::string measurementsText(std::size_t n);
std::string droppedText(const analysis::DroppedUnits &d, const std::vector<std::string> &levels);
bool sameSystem(const analysis::DroppedUnits &d, const analysis::SystemBalance &b);
std::string shapeShort(const std::vector<std::size_t> &shape);
std::string varianceText(double v);
std::string balancingText(const analysis::SystemBalance &b, const std::vector<std::string> &levels,
                          const std::vector<analysis::DroppedUnits> &dropped);
// What V in the balancing lines is (text and Markdown reports).
inline constexpr const char *kVarianceNote =
    "V = sum of 1/(n1*...*ni) over the levels, the variance of the grand mean with equal "
    "variance components (auto takes the smallest)";
std::string ratioSentence(const analysis::RatioReport &r);
std::string ratioInWords(const analysis::RatioReport &r, const std::string &topLevel);
std::string runAtLeast(std::size_t count);
std::string planText(const analysis::PlanAdvice &p, const std::string &system);
std::string durationText(double seconds);
std::string ratioPlanText(const analysis::RatioPlanAdvice &p);
std::string sharesText(const analysis::SystemReport &s);
std::vector<std::string> touatiLines(const analysis::SuiteRatioReport &s, const std::string &top);
// The benchmarks a suite figure leaves out (no statistics, or no ratio of this
// pair there): "left out: tiny, huge (no ratio there)"; "" when none.
std::string suiteLeftOutText(const analysis::SuiteRatioReport &s);
// A benchmark without statistics: "no statistics: <why>".
std::string noStatisticsText(const analysis::BenchmarkReport &b);
// Several metrics per execution (docs/measure.md): what the decision is on,
// "" for a campaign of one measure ("the decision is on sim-cycles; the
// other metrics of the same executions:"), and each other metric's ratios,
// one line per benchmark and comparison ("wall (s), lua: b vs a: 1.012 ...;
// slower"), or why it has none.
std::string metricsLead(const model::CampaignReport &r);
std::vector<std::string> otherMetricLines(const model::CampaignReport::Metric &m);

// A value in its benchmark's unit: times scaled to s/ms/us, anything else
// (KiB of peak RSS, a program's own unit) as a number with its unit.
std::string quantity(double v, const std::string &unit);
std::string joined(const std::vector<std::string> &v, const char *sep = ", ");
// "2 systems [a (baseline), b], 3 benchmarks; 20 builds, ..." (campaigns).
std::string summaryLine(const model::CampaignReport &r);
// The warm-up applied: "2 iterations dropped at the start of every execution".
std::string warmupText(int iterations);
// One [[target]]: "a: host: CPU, 4 CPUs, ASLR on; kernel 6.1.0 ...".
std::string targetText(const model::TargetReport &t);
// A number as JSON and CSV write it: shortest round trip; "" when not finite.
std::string number(double d);
// The layout effect of one system in words (analysis::LayoutEffect): the sd
// and its CI, the expected best-to-worst spread of the data's layouts and the
// observed one, always labelled "includes execution noise".
std::string layoutText(const analysis::LayoutEffect &l, double confidence);
// "Speedup-Test on build means: mean ..., median ..., P(base slower) = 0.97".
std::string speedupTestText(const analysis::RatioReport &x, const std::string &top);
// "Holm over 3 comparisons: p = 0.004, adjusted p = 0.012, 98.3% CI [...], decision faster".
std::string familyText(const analysis::RatioReport &x);
// The noise diagnosis in lines (the first is the headline).
std::vector<std::string> noiseLines(const analysis::NoiseDiagnosis &d);

// A section that is a list of headed groups of lines (the noise diagnosis per
// benchmark, the placement per benchmark), in words; markdownGroups and
// htmlGroups lay it out. A group whose lines are not available says why.
struct LineGroup {
  std::string heading;
  std::vector<std::string> lines;
  std::optional<std::string> unavailable; // set: no lines, "Not available: <this>."
};
std::vector<LineGroup> noiseGroups(const model::CampaignReport &r);
// "## TITLE", then per group "**heading**" and its lines as a list; "" without groups.
std::string markdownGroups(const std::string &title, const std::vector<LineGroup> &groups);
// <section id=ID><h2>TITLE</h2> (ID and TITLE are constants, as HTML), then per group
// <h3>heading</h3> and its lines as a list; "" without groups.
std::string htmlGroups(const char *id, const char *title, const std::vector<LineGroup> &groups);

} // namespace alea::report
