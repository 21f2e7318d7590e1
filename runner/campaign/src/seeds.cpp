// Campaign seed derivations (see seeds.hpp and the common brief's contract).
#include "alea/campaign/seeds.hpp"

#include "alea/heap_offset.h"
#include "alea/random.hpp"

#include <string>

namespace alea::runner {

std::uint64_t buildSeed(std::uint64_t campaignSeed, std::string_view system, int buildIndex) {
  return mixSeed(campaignSeed, mixSeed(hashName(system), static_cast<std::uint64_t>(buildIndex)));
}

std::uint64_t pairSeed(std::uint64_t campaignSeed, int buildIndex) {
  return buildSeed(campaignSeed, "pair", buildIndex);
}

std::uint64_t campaignBuildSeed(std::uint64_t campaignSeed, bool pairedDesign,
                                std::string_view system, int buildIndex) {
  return pairedDesign ? pairSeed(campaignSeed, buildIndex)
                      : buildSeed(campaignSeed, system, buildIndex);
}

std::uint64_t envPaddingSeed(std::uint64_t buildSeedValue, int executionIndex) {
  return mixSeed(buildSeedValue, "env-padding/" + std::to_string(executionIndex));
}

std::int64_t envPaddingSize(std::uint64_t buildSeedValue, int executionIndex, std::int64_t lo,
                            std::int64_t hi) {
  if (hi <= lo)
    return lo;
  Rng rng(envPaddingSeed(buildSeedValue, executionIndex));
  return static_cast<std::int64_t>(
      rng.between(static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi)));
}

std::uint64_t heapOffsetSeed(std::uint64_t buildSeedValue, int executionIndex) {
  return mixSeed(buildSeedValue,
                 std::string(ALEA_HEAP_OFFSET_FACTOR) + "/" + std::to_string(executionIndex));
}

std::int64_t heapOffsetBytes(std::uint64_t buildSeedValue, int executionIndex) {
  Rng rng(heapOffsetSeed(buildSeedValue, executionIndex));
  return static_cast<std::int64_t>(rng.below(ALEA_HEAP_OFFSET_LIMIT / ALEA_HEAP_OFFSET_STEP) *
                                   ALEA_HEAP_OFFSET_STEP);
}

std::uint64_t scheduleSeed(std::uint64_t campaignSeed) { return mixSeed(campaignSeed, "schedule"); }

} // namespace alea::runner
