// Seeded random interleaving of a campaign's executions (see scheduler.hpp).
#include "alea/runner/scheduler.hpp"

#include "alea/random.hpp"
#include "alea/runner/seeds.hpp"

#include <algorithm>

namespace alea::runner {

std::vector<PlanEntry> makeSchedule(const ScheduleShape &shape, std::uint64_t campaignSeed,
                                    std::int64_t firstPosition, std::int64_t firstBlock) {
  std::uint64_t seed = scheduleSeed(campaignSeed);
  if (shape.firstBuild > 0)
    seed = mixSeed(seed, static_cast<std::uint64_t>(shape.firstBuild));
  Rng rng(seed);
  std::vector<PlanEntry> plan;
  if (shape.design == Design::Unpaired) {
    for (std::int64_t system : shape.systemIds)
      for (std::int64_t bench : shape.benchmarkIds)
        for (int b = shape.firstBuild; b < shape.builds; ++b)
          for (int e = 0; e < shape.executions; ++e)
            plan.push_back({0, system, bench, b, e, -1});
    alea::shuffle(plan.begin(), plan.end(), rng);
  } else {
    std::vector<std::vector<PlanEntry>> blocks;
    for (std::int64_t bench : shape.benchmarkIds)
      for (int b = shape.firstBuild; b < shape.builds; ++b)
        for (int e = 0; e < shape.executions; ++e) {
          std::vector<PlanEntry> &block = blocks.emplace_back();
          for (std::int64_t system : shape.systemIds)
            block.push_back({0, system, bench, b, e, 0});
        }
    alea::shuffle(blocks.begin(), blocks.end(), rng);
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      alea::shuffle(blocks[k].begin(), blocks[k].end(), rng);
      for (PlanEntry &entry : blocks[k]) {
        entry.block = firstBlock + static_cast<std::int64_t>(k);
        plan.push_back(entry);
      }
    }
  }
  for (std::size_t i = 0; i < plan.size(); ++i)
    plan[i].position = firstPosition + static_cast<std::int64_t>(i);
  return plan;
}

std::vector<std::vector<int>> duetCpuSets(const CampaignConfig &cfg,
                                          const std::vector<int> &available) {
  if (!cfg.duetCpus.empty())
    return cfg.duetCpus;
  const std::vector<int> &cpus = cfg.cpus.empty() ? available : cfg.cpus;
  std::size_t k = std::max<std::size_t>(cfg.systems.size(), 1);
  std::size_t per = cpus.size() / k;
  if (per == 0)
    return {};
  std::vector<std::vector<int>> sets(k);
  for (std::size_t i = 0; i < k; ++i)
    sets[i].assign(cpus.begin() + static_cast<std::ptrdiff_t>(i * per),
                   cpus.begin() + static_cast<std::ptrdiff_t>((i + 1) * per));
  return sets;
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
