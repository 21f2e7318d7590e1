// `--fail-on slower|faster|change`, the CI gate of `alea run`, `alea report`
// and `alea analyze` (alea/model/gate.hpp; docs/campaign.md "Exit status"):
// the option, and the exit status it gives a command's report.
#pragma once

#include "command.hpp"

#include "alea/model/gate.hpp"

#include <string>

namespace alea::cli {

inline constexpr int kExitGate = 5; // --fail-on: a comparison was decided that way

// Adds --fail-on to `sub`, into `failOn` ("" when not given).
void addFailOnOption(CLI::App &sub, std::string &failOn);

// The status of a command that made `report`: kExitGate when `failOn` (not
// "") fails on one of its decisions, each such comparison then named on
// stderr; else `status`. With --fail-on and $GITHUB_STEP_SUMMARY set (a
// GitHub Actions step), the Markdown report is appended to that file too,
// gate passed or not.
Outcome gateStatus(const model::CampaignReport &report, const std::string &failOn, int status);

} // namespace alea::cli
