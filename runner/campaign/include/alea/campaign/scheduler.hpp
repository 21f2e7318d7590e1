// The scheduler: the list of planned executions (system x benchmark x build x
// execution index) in a seeded random interleaving, so that drift over time
// (heat, background load) spreads over every system instead of biasing one
// (google/benchmark's random interleaving; Mytkowicz et al. 2009 on
// measurement bias). Paired designs order the plan in BLOCKS: one execution
// of every system's build i (same benchmark, same execution index), in random
// order within the block, blocks in random order (Randomized Multiple
// Interleaved Trials, Abedi & Brecht, ICPE 2017); a duet runs a block's
// executions at the same time (Bulej et al., ICPE 2020). Pure functions: the
// plan is recorded in the store and a resumed campaign runs exactly the
// entries that have no execution yet.
#pragma once

#include "alea/config/config.hpp"
#include "alea/store/store.hpp"

#include <cstdint>
#include <set>
#include <vector>

namespace alea::runner {

struct ScheduleShape {
  std::vector<std::int64_t> systemIds;    // store ids, in campaign order
  std::vector<std::int64_t> benchmarkIds; // store ids, in campaign order
  int builds = 1;                         // builds firstBuild .. builds-1 are planned
  int executions = 1;
  Design design = Design::Unpaired;
  int firstBuild = 0; // > 0: an adaptive campaign's next batch of builds
  // > 0: the next batch of executions of the builds (an adaptive campaign of
  // one build per system, whose executions are its top level).
  int firstExecution = 0;
};

// Every (system, benchmark, build, execution) of builds firstBuild..builds-1
// and executions firstExecution..executions-1 once, shuffled with
// alea::shuffle seeded by scheduleSeed(campaignSeed) (and the batch's first
// build, or first execution, when > 0): unpaired, one shuffle of all entries;
// paired, the blocks are shuffled, and the systems within them take a random
// order in every even block and its mirror image in the next (carry-over
// balance: every system follows every other equally often); each build's
// blocks lie half on even places and half on odd ones (one more on either
// when its count is odd), so that with two systems each runs first in half of
// a build pair's blocks.
// Positions start at firstPosition, block numbers at firstBlock (-1 when
// unpaired).
std::vector<PlanEntry> makeSchedule(const ScheduleShape &shape, std::uint64_t campaignSeed,
                                    std::int64_t firstPosition = 0, std::int64_t firstBlock = 0);

// The entries whose position is not in `done`, in plan order.
std::vector<PlanEntry> pendingEntries(const std::vector<PlanEntry> &plan,
                                      const std::set<std::int64_t> &done);

} // namespace alea::runner
