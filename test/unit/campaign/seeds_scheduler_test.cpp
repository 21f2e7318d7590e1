// Seeds follow the contract of the common brief; the schedule is a seeded,
// deterministic, complete interleaving; resume skips exactly the done entries.
#include "alea/campaign/scheduler.hpp"
#include "alea/campaign/seeds.hpp"
#include "alea/random.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

using namespace alea::runner;

TEST(Seeds, BuildSeedIsTheContractFormula) {
  // build_seed = mixSeed(campaign, mixSeed(hashName(system), build_index))
  for (int b = 0; b < 4; ++b)
    EXPECT_EQ(buildSeed(7, "O2", b),
              alea::mixSeed(7, alea::mixSeed(alea::hashName("O2"), static_cast<std::uint64_t>(b))));
}

TEST(Seeds, BuildSeedsDifferAcrossSystemsBuildsAndCampaigns) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t c : {1u, 2u})
    for (const char *s : {"O2", "O3"})
      for (int b = 0; b < 10; ++b)
        seen.insert(buildSeed(c, s, b));
  EXPECT_EQ(seen.size(), 40u);
}

TEST(Seeds, PairSeedIsTheContractFormulaAndPairedCampaignsUseIt) {
  // pair_seed = mixSeed(campaign, mixSeed(hashName("pair"), build_index))
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(pairSeed(7, b), alea::mixSeed(7, alea::mixSeed(alea::hashName("pair"),
                                                             static_cast<std::uint64_t>(b))));
    EXPECT_EQ(campaignBuildSeed(7, true, "O2", b), pairSeed(7, b));
    EXPECT_EQ(campaignBuildSeed(7, true, "O3", b), pairSeed(7, b));
    EXPECT_EQ(campaignBuildSeed(7, false, "O2", b), buildSeed(7, "O2", b));
  }
}

TEST(Seeds, EnvPaddingSeedIsTheContractFormula) {
  EXPECT_EQ(envPaddingSeed(99, 3), alea::mixSeed(99, "env-padding/3"));
}

TEST(Seeds, EnvPaddingSizeIsDeterministicAndInRange) {
  std::set<std::int64_t> sizes;
  for (int e = 0; e < 200; ++e) {
    std::int64_t s = envPaddingSize(12345, e, 100, 200);
    EXPECT_GE(s, 100);
    EXPECT_LE(s, 200);
    EXPECT_EQ(s, envPaddingSize(12345, e, 100, 200));
    sizes.insert(s);
  }
  EXPECT_GT(sizes.size(), 50u); // it actually varies
  EXPECT_EQ(envPaddingSize(1, 0, 64, 64), 64);
}

namespace {
ScheduleShape shape() { return {{1, 2}, {10, 20, 30}, 4, 5}; }
} // namespace

TEST(Scheduler, EveryCombinationExactlyOnceWithDensePositions) {
  auto plan = makeSchedule(shape(), 42);
  ASSERT_EQ(plan.size(), 2u * 3 * 4 * 5);
  std::set<std::tuple<std::int64_t, std::int64_t, int, int>> combos;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].position, static_cast<std::int64_t>(i));
    combos.insert(
        {plan[i].systemId, plan[i].benchmarkId, plan[i].buildIndex, plan[i].executionIndex});
  }
  EXPECT_EQ(combos.size(), plan.size());
}

TEST(Scheduler, SameSeedSamePlanOtherSeedOtherPlan) {
  EXPECT_EQ(makeSchedule(shape(), 42), makeSchedule(shape(), 42));
  EXPECT_NE(makeSchedule(shape(), 42), makeSchedule(shape(), 43));
}

TEST(Scheduler, IsTheSeededFisherYatesOfTheNestedOrder) {
  // Independent reconstruction: nested order shuffled by alea::shuffle with
  // the "schedule" stream of the campaign seed.
  ScheduleShape s = shape();
  std::vector<std::tuple<std::int64_t, std::int64_t, int, int>> expected;
  for (auto sys : s.systemIds)
    for (auto b : s.benchmarkIds)
      for (int bu = 0; bu < s.builds; ++bu)
        for (int e = 0; e < s.executions; ++e)
          expected.push_back({sys, b, bu, e});
  alea::Rng rng(alea::mixSeed(42, "schedule"));
  alea::shuffle(expected.begin(), expected.end(), rng);
  auto plan = makeSchedule(s, 42);
  for (std::size_t i = 0; i < plan.size(); ++i)
    EXPECT_EQ(std::make_tuple(plan[i].systemId, plan[i].benchmarkId, plan[i].buildIndex,
                              plan[i].executionIndex),
              expected[i]);
}

TEST(Scheduler, InterleavesSystemsOverTime) {
  // In every quarter of the plan both systems appear: drift cannot fall on one.
  auto plan = makeSchedule(shape(), 7);
  std::size_t quarter = plan.size() / 4;
  for (int q = 0; q < 4; ++q) {
    std::map<std::int64_t, int> count;
    for (std::size_t i = q * quarter; i < (q + 1) * quarter; ++i)
      ++count[plan[i].systemId];
    EXPECT_EQ(count.size(), 2u) << "quarter " << q;
  }
}

TEST(Scheduler, PendingSkipsDoneEntriesAndKeepsOrder) {
  auto plan = makeSchedule(shape(), 42);
  std::set<std::int64_t> done{0, 1, 5, 119};
  auto pending = pendingEntries(plan, done);
  ASSERT_EQ(pending.size(), plan.size() - done.size());
  std::int64_t last = -1;
  for (const auto &p : pending) {
    EXPECT_FALSE(done.count(p.position));
    EXPECT_GT(p.position, last);
    last = p.position;
  }
  EXPECT_TRUE(pendingEntries(plan,
                             [&] {
                               std::set<std::int64_t> all;
                               for (auto &p : plan)
                                 all.insert(p.position);
                               return all;
                             }())
                  .empty());
}
