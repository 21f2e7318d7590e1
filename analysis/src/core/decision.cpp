// Threshold decision on a ratio CI (Kalibera & Jones TR 2012 §4.2 and §8.3;
// spec_000 §5): a change is reported iff U < 1 - thr or L > 1 + thr, with the
// paper's strict inequalities. The NoChange/Inconclusive split of the paper's
// "may have the same performance" is ours (see decision.hpp).
#include "alea/analysis/decision.hpp"

#include <cmath>

namespace alea::analysis {

Decision decide(const Interval &interval, double threshold) {
  if (interval.upper < 1.0 - threshold)
    return Decision::Faster;
  if (interval.lower > 1.0 + threshold)
    return Decision::Slower;
  if (1.0 - threshold <= interval.lower && interval.upper <= 1.0 + threshold)
    return Decision::NoChange;
  return Decision::Inconclusive;
}

Decision decide(const FiellerResult &fieller, double threshold) {
  if (fieller.status != FiellerStatus::Bounded || !fieller.interval)
    return Decision::Inconclusive;
  return decide(*fieller.interval, threshold);
}

BisectSide bisectSide(Decision decision, const std::optional<Interval> &interval,
                      Decision badDecision, double badRatio) {
  if (decision == badDecision)
    return BisectSide::Bad;
  if (decision == Decision::NoChange)
    return BisectSide::Good;
  if (decision != Decision::Inconclusive || !interval || !(badRatio > 0))
    return BisectSide::Neither;
  const double halfway = std::sqrt(badRatio);
  const bool slower = badRatio > 1;
  if (slower ? interval->upper < halfway : interval->lower > halfway)
    return BisectSide::Good;
  if (slower ? interval->lower > halfway : interval->upper < halfway)
    return BisectSide::Bad;
  return BisectSide::Neither;
}

std::string_view decisionName(Decision d) { return enumName(d); }

} // namespace alea::analysis
