// This machine's facts for a campaign's checks (machine_facts.hpp).
#include "alea/exec/machine_facts.hpp"

#include "alea/exec/cachegrind.hpp"
#include "alea/exec/counters.hpp"

#include <algorithm>

namespace alea::runner {

MachineFacts readMachineFacts(const CampaignConfig &cfg) {
  MachineFacts facts = readMachineFacts();
  if (!cfg.targets.empty())
    return facts;
  for (const auto &b : cfg.benchmarks) {
    const MeasureSpec &m = b.measure;
    for (Metric metric : m.counters())
      if (!facts.counters.count(metric))
        facts.counters[metric] = probeCounter(metric);
    if (m.simulates() &&
        std::none_of(facts.simulators.begin(), facts.simulators.end(),
                     [&](const SimulatorFacts &s) { return s.cache == m.simCache; }))
      facts.simulators.push_back(probeSimulator(m.simCache));
  }
  return facts;
}

} // namespace alea::runner
