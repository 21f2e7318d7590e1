// The scheduler: the list of planned executions (system x benchmark x build x
// execution index) in a seeded random interleaving, so that drift over time
// (heat, background load) spreads over every system instead of biasing one
// (google/benchmark's random interleaving; Mytkowicz et al. 2009 on
// measurement bias). Pure functions: the plan is recorded in the store and a
// resumed campaign runs exactly the entries that have no execution yet.
#pragma once

#include "alea/runner/store.hpp"

#include <cstdint>
#include <set>
#include <vector>

namespace alea::runner {

struct ScheduleShape {
  std::vector<std::int64_t> systemIds;    // store ids, in campaign order
  std::vector<std::int64_t> benchmarkIds; // store ids, in campaign order
  int builds = 1;
  int executions = 1;
};

// Every (system, benchmark, build, execution) once, shuffled with
// alea::shuffle seeded by scheduleSeed(campaignSeed); positions 0..n-1.
std::vector<PlanEntry> makeSchedule(const ScheduleShape &shape, std::uint64_t campaignSeed);

// The entries whose position is not in `done`, in plan order.
std::vector<PlanEntry> pendingEntries(const std::vector<PlanEntry> &plan,
                                      const std::set<std::int64_t> &done);

} // namespace alea::runner
