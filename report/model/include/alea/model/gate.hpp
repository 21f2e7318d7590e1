// The CI gate of `alea run`, `alea report` and `alea analyze` (`--fail-on`,
// docs/campaign.md "Exit status"): which of the report's decisions make the
// command fail. It reads the decisions the report shows (the threshold
// decision of each candidate against the baseline; Holm's family decision
// when there are three or more systems) and decides nothing of its own.
#pragma once

#include "alea/enum_names.hpp"
#include "alea/model/campaign_report.hpp"

#include <string>
#include <vector>

namespace alea::model {

// What fails the gate: a comparison decided slower, decided faster, or
// either (a change).
#define ALEA_FAIL_ON(X)                                                                            \
  X(Slower, "slower")                                                                              \
  X(Faster, "faster")                                                                              \
  X(Change, "change")
enum class FailOn { ALEA_FAIL_ON(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(FailOn, ALEA_FAIL_ON);

// The comparisons whose decision fails the gate, in report order, one phrase
// each: "<benchmark>: <candidate> vs <baseline> slower (ratio 1.123)". Empty:
// the gate passes (no comparison was decided that way, or there is none).
std::vector<std::string> gateFailures(const CampaignReport &report, FailOn failOn);

} // namespace alea::model
