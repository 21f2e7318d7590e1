// The per-function simulated counts a store keeps (issue 20, "which
// functions' placement matters"): one profile per build and benchmark, from
// the first successful execution of that build under cachegrind (the
// function_profile and function_cost tables, docs/store.md), and the report's
// read of them into the statistics engine's attribution inputs, with each
// function's placement read from the build's binary.
#pragma once

#include "alea/analysis/attribution.hpp"
#include "alea/exec/cachegrind_functions.hpp"

#include <string>
#include <vector>

namespace alea::runner {

class Store;

// What an execution hands the store with its record (RecordedExecution): the
// metric measured, the simulated I1 geometry ("size,assoc,line"), and the
// counts per function (the rest as ""). Only the first profile of a build
// and benchmark is kept.
struct FunctionProfile {
  std::string metric;
  std::string i1;
  std::vector<FunctionCounts> functions;
};

// A stored profile, with the names of its build and benchmark.
struct StoredFunctionProfile {
  std::string system, benchmark;
  int build = 0;
  FunctionProfile profile;
};

// The attribution inputs of a store (analysis/attribution.hpp), one per
// system and benchmark with profiles, in the store's order: each function's
// cost split into costTerms of the metric, and its placement read from the
// snapshot of its build's binary in `campaignDir` (objects/), matched by
// (demangled) symbol name. Empty for a store without profiles.
std::vector<analysis::AttributionInput> loadAttributionInputs(Store &store,
                                                              const std::string &campaignDir);

} // namespace alea::runner
