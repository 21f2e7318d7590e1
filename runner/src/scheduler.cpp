// Seeded random interleaving of a campaign's executions (see scheduler.hpp).
#include "alea/runner/scheduler.hpp"

#include "alea/random.hpp"
#include "alea/runner/seeds.hpp"

namespace alea::runner {

std::vector<PlanEntry> makeSchedule(const ScheduleShape &shape, std::uint64_t campaignSeed) {
  std::vector<PlanEntry> plan;
  plan.reserve(shape.systemIds.size() * shape.benchmarkIds.size() *
               static_cast<std::size_t>(shape.builds * shape.executions));
  for (std::int64_t system : shape.systemIds)
    for (std::int64_t bench : shape.benchmarkIds)
      for (int b = 0; b < shape.builds; ++b)
        for (int e = 0; e < shape.executions; ++e)
          plan.push_back({0, system, bench, b, e});
  Rng rng(scheduleSeed(campaignSeed));
  alea::shuffle(plan.begin(), plan.end(), rng);
  for (std::size_t i = 0; i < plan.size(); ++i)
    plan[i].position = static_cast<std::int64_t>(i);
  return plan;
}

std::vector<PlanEntry> pendingEntries(const std::vector<PlanEntry> &plan,
                                      const std::set<std::int64_t> &done) {
  std::vector<PlanEntry> out;
  for (const auto &p : plan)
    if (!done.count(p.position))
      out.push_back(p);
  return out;
}

} // namespace alea::runner
