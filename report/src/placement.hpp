// Which functions' placement matters (issue 20; analysis/attribution.hpp) in
// every format: the phrases once, and each format's section, written only
// for a campaign with per-function profiles (CampaignReport::placement), so
// that every other report stays as it was.
#pragma once

#include "phrases.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace alea::report {

// "pingpong on base: sim-cycles over 6 builds, mean 1.234e+06, sd 4.5e+04 (3.6%)",
// or with the note of an attribution that names no function.
std::string placementHeading(const analysis::Attribution &a);
// One sentence per function ("51.2% of the layout variance of sim-cycles
// comes from I1 misses in hot_a ...; a line of it and one of hot_b map to
// the same I1 set in 3 of 3 slow builds (0 of 3 fast)"), then the rest's share.
std::vector<std::string> placementLines(const analysis::Attribution &a);

// The section's groups, for the text, Markdown and HTML (markdownGroups, htmlGroups).
std::vector<LineGroup> placementGroups(const model::CampaignReport &r);
std::string placementText(const model::CampaignReport &r);
nlohmann::ordered_json placementJson(const std::vector<analysis::Attribution> &placement);
// The figure of `benchmark` (one bar of shares per system), id
// "placement-<slug>", appended to `out`; none without an attribution there.
void placementFigure(const model::CampaignReport &r, const std::string &benchmark,
                     const std::string &slug, std::vector<Figure> &out);

} // namespace alea::report
