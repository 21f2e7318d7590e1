// Seeded random interleaving of a campaign's executions (see scheduler.hpp).
#include "alea/campaign/scheduler.hpp"

#include "alea/campaign/seeds.hpp"
#include "alea/random.hpp"

#include <algorithm>

namespace alea::runner {

std::vector<PlanEntry> makeSchedule(const ScheduleShape &shape, std::uint64_t campaignSeed,
                                    std::int64_t firstPosition, std::int64_t firstBlock) {
  std::uint64_t seed = scheduleSeed(campaignSeed);
  if (shape.firstBuild > 0)
    seed = mixSeed(seed, static_cast<std::uint64_t>(shape.firstBuild));
  if (shape.firstExecution > 0)
    seed = mixSeed(mixSeed(seed, "executions"), static_cast<std::uint64_t>(shape.firstExecution));
  Rng rng(seed);
  std::vector<PlanEntry> plan;
  if (shape.design == Design::Unpaired) {
    for (std::int64_t system : shape.systemIds)
      for (std::int64_t bench : shape.benchmarkIds)
        for (int b = shape.firstBuild; b < shape.builds; ++b)
          for (int e = shape.firstExecution; e < shape.executions; ++e)
            plan.push_back({0, system, bench, b, e, -1});
    alea::shuffle(plan.begin(), plan.end(), rng);
  } else {
    // Block k runs its systems in one order when k is even and in the mirror
    // image when k is odd (below). A build whose blocks fell mostly on one
    // parity would have one system first in most of its pairs, and an effect
    // of the place in the block (the first execution after the other build's
    // pair, a carry-over from the neighbour) would enter that build pair's
    // difference: up to 3 times the effect with 3 executions, adding to the
    // variance of the paired differences (simulated, issue 19: paired
    // intervals 25% wider than without the effect, wider than unpaired). So
    // each (benchmark, build) puts half its blocks on even places and half on
    // odd ones, the odd one out of an odd count on either so that the parities
    // fill up; which execution goes where and the order of each parity's
    // blocks are random.
    std::vector<std::vector<PlanEntry>> even, odd, leftOver;
    for (std::int64_t bench : shape.benchmarkIds)
      for (int b = shape.firstBuild; b < shape.builds; ++b) {
        std::vector<std::vector<PlanEntry>> group;
        for (int e = shape.firstExecution; e < shape.executions; ++e) {
          std::vector<PlanEntry> &block = group.emplace_back();
          for (std::int64_t system : shape.systemIds)
            block.push_back({0, system, bench, b, e, 0});
        }
        alea::shuffle(group.begin(), group.end(), rng);
        const std::size_t half = group.size() / 2;
        for (std::size_t i = 0; i < group.size(); ++i)
          (i < half ? even : i < 2 * half ? odd : leftOver).push_back(std::move(group[i]));
      }
    const std::size_t total = even.size() + odd.size() + leftOver.size();
    alea::shuffle(leftOver.begin(), leftOver.end(), rng);
    for (auto &block : leftOver)
      (even.size() < (total + 1) / 2 ? even : odd).push_back(std::move(block));
    alea::shuffle(even.begin(), even.end(), rng);
    alea::shuffle(odd.begin(), odd.end(), rng);
    std::vector<std::vector<PlanEntry>> blocks;
    for (std::size_t k = 0; k < total; ++k)
      blocks.push_back(std::move(k % 2 == 0 ? even[k / 2] : odd[k / 2]));
    // Within blocks: an order of the systems, then its mirror image in the
    // next block, the next pair starting with the system the last one ended
    // with (A B | B A | A B | B A, or A C B | B C A | A B C | C B A ...), the
    // rest of each order random. A random order per block would make the
    // second execution of a block always follow another system, so that a
    // carry-over from one execution to the next (the background load's
    // scheduling state after a longer run, caches) falls unevenly on the
    // systems and biases the ratio (seen: 2% towards 1 under a parallel
    // build). Here every system follows every system equally often (for two
    // systems exactly; in expectation over the random orders otherwise).
    std::vector<std::size_t> order(shape.systemIds.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    alea::shuffle(order.begin(), order.end(), rng);
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      if (k > 0)
        std::reverse(order.begin(), order.end()); // starts with the last one's end
      if (k > 0 && k % 2 == 0)
        alea::shuffle(order.begin() + 1, order.end(), rng);
      std::vector<PlanEntry> ordered;
      for (std::size_t i : order)
        ordered.push_back(blocks[k][i]);
      blocks[k] = std::move(ordered);
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

std::vector<PlanEntry> pendingEntries(const std::vector<PlanEntry> &plan,
                                      const std::set<std::int64_t> &done) {
  std::vector<PlanEntry> out;
  for (const auto &p : plan)
    if (!done.count(p.position))
      out.push_back(p);
  return out;
}

} // namespace alea::runner
