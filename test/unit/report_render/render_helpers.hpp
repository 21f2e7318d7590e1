// Shared by the renderer tests: an engine report (analysis::Report) rendered
// as `alea analyze` renders it, and numbers spelled as JSON and CSV spell them.
#pragma once

#include "alea/model/campaign_report.hpp"
#include "alea/report/render.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace alea::analysis {

using report::decisionKey;
using report::Format;
using report::parseFormat;

inline std::string formatReport(const Report &r, Format f) {
  model::CampaignReport c;
  c.campaign = false;
  c.analysis = r;
  return report::render(c, f);
}

inline std::string formatPlans(const PlanSet &p, Format f) { return report::renderPlans(p, f); }

// Shortest round trip, as the JSON and CSV renderers write numbers.
inline std::string jsonNumber(double d) {
  if (!std::isfinite(d))
    return "null";
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, end);
}

} // namespace alea::analysis
