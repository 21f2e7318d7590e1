// `alea history`'s renderers (docs/history.md): the history value
// (model/history.hpp) as text, Markdown, JSON, CSV or one self-contained
// HTML page with a trend plot per benchmark (plots.hpp trendPlot), under the
// report's rules: they compute nothing, every number comes from the model.
#pragma once

#include "alea/expected.hpp"
#include "alea/model/history.hpp"
#include "alea/report/render.hpp"

#include <string>

namespace alea::report {

// Text, Markdown, JSON, CSV or HTML; LaTeX is refused (an error naming the
// formats there are).
Expected<std::string> renderHistory(const model::HistoryReport &history, Format format);

// Renders to `output` (a file; "" or "-": standard output).
Status writeHistory(const model::HistoryReport &history, Format format, const std::string &output);

} // namespace alea::report
