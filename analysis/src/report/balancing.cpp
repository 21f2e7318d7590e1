// What balancing the data did, in words (table.hpp balance()): the hint of
// the error, the report's warning and the reason a system has too few
// top-level units left.
#include "steps.hpp"

namespace alea::analysis::detail {

// Whether the applied balancing policy removed whole top-level units (drop,
// or mixed when all the children of a unit were incomplete).
bool lostTopUnits(const SystemBalance &b) {
  return (b.applied == UnbalancedPolicy::Drop || b.applied == UnbalancedPolicy::Mixed) &&
         b.topUnitsBy(b.applied) < b.topUnits;
}

// " after dropping incomplete units (--unbalanced=trim keeps 3 builds)" when
// the drop or mixed policy is why a system is left with too few top-level
// units.
std::string afterBalancing(const std::vector<SystemBalance> &systems, const std::string &benchmark,
                           const std::string &system, const std::string &top) {
  for (const auto &b : systems)
    if (b.benchmark == benchmark && b.system == system && lostTopUnits(b))
      return std::string(" after dropping incomplete units (") +
             (b.applied == UnbalancedPolicy::Mixed ? "mixed; " : "") + "--unbalanced=trim keeps " +
             std::to_string(b.topUnitsByTrim) + " " + top + (b.topUnitsByTrim == 1 ? "" : "s") +
             ")";
  return {};
}

// The one-line summary of what balancing removed (the list is in the output).
std::string balanceWarning(const std::vector<DroppedUnits> &dropped) {
  std::size_t trimmed = 0, places = 0, incomplete = 0, units = 0;
  for (const auto &d : dropped) {
    if (d.reason == DropReason::Incomplete) {
      incomplete += d.measurements;
      units += d.labels.size();
    } else {
      trimmed += d.measurements;
      ++places;
    }
  }
  auto measurements = [](std::size_t n) {
    return std::to_string(n) + (n == 1 ? " measurement" : " measurements");
  };
  std::string w = "unbalanced data: ";
  if (units > 0)
    w += "dropped " + std::to_string(units) + " incomplete " + (units == 1 ? "unit" : "units") +
         " (" + measurements(incomplete) + ")" + (places > 0 ? " and " : "");
  if (places > 0)
    w += "trimmed " + measurements(trimmed) + " in " + std::to_string(places) +
         (places == 1 ? " place" : " places");
  return w + " to balance the design (see the list)";
}

} // namespace alea::analysis::detail
