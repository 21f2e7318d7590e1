// The CI gate (gate.hpp): the report's decisions against --fail-on.
#include "alea/model/gate.hpp"

#include <cstdio>

namespace alea::model {

namespace {

bool fails(analysis::Decision decision, FailOn failOn) {
  using analysis::Decision;
  switch (failOn) {
  case FailOn::Slower:
    return decision == Decision::Slower;
  case FailOn::Faster:
    return decision == Decision::Faster;
  case FailOn::Change:
    return decision == Decision::Slower || decision == Decision::Faster;
  }
  return false;
}

} // namespace

std::vector<std::string> gateFailures(const CampaignReport &report, FailOn failOn) {
  std::vector<std::string> out;
  if (!report.analysis)
    return out;
  for (const analysis::BenchmarkReport &b : report.analysis->benchmarks)
    for (const analysis::RatioReport &r : b.ratios) {
      // The decision the report gives this comparison: Holm's when it is one
      // of a family (three or more systems), else the threshold decision.
      const analysis::Decision decision = r.family ? r.family->decision : r.decision;
      if (!fails(decision, failOn))
        continue;
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.3f", r.estimate);
      out.push_back((b.name.empty() ? "" : b.name + ": ") + r.candidate + " vs " + r.baseline +
                    " " + std::string(analysis::decisionName(decision)) + " (ratio " + ratio + ")");
    }
  return out;
}

} // namespace alea::model
