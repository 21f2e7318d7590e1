// Format names and the dispatch to one renderer per format (render.hpp).
#include "phrases.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace alea::report {

using namespace alea::analysis;

std::optional<Format> parseFormat(std::string_view name) {
  if (name == "markdown")
    return Format::Markdown;
  if (name == "tex")
    return Format::Latex;
  return parseEnum<Format>(name);
}

std::string formatNames() {
  const auto &names = kEnumNames<Format>;
  std::string out = names[0];
  for (std::size_t i = 1; i < names.size(); ++i)
    out += (i + 1 < names.size() ? ", " : " or ") + std::string(names[i]);
  return out;
}

std::string render(const model::CampaignReport &report, Format format) {
  static constexpr FormatRenderers<model::CampaignReport> kRenderers{.text = renderText,
                                                                     .markdown = renderMarkdown,
                                                                     .json = renderJson,
                                                                     .csv = renderCsv,
                                                                     .html = renderHtml,
                                                                     .latex = renderLatex};
  const auto renderer = kRenderers.of(format);
  return (renderer ? renderer : renderText)(report);
}

std::string renderPlans(const analysis::PlanSet &plans, Format format) {
  // Plans have no HTML or LaTeX form: those formats get the text.
  static constexpr FormatRenderers<analysis::PlanSet> kRenderers{
      .text = textPlans, .markdown = mdPlans, .json = jsonPlans, .csv = csvPlans};
  const auto renderer = kRenderers.of(format);
  return (renderer ? renderer : textPlans)(plans);
}

std::string decisionKey(Decision d) {
  std::string key(decisionName(d)); // "no change" -> "no_change"
  std::replace(key.begin(), key.end(), ' ', '_');
  return key;
}

} // namespace alea::report
