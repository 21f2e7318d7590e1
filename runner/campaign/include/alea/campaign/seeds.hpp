// Seeds of a campaign (common brief, "Build seed in a campaign"): every random
// draw of the runner derives from the campaign seed through alea::mixSeed, so a
// recorded campaign seed reproduces every build layout, every environment
// padding, every heap start offset and the execution order. Seeds are spelled
// as alea/contract.hpp says (parseSeed, formatSeed).
#pragma once

#include <cstdint>
#include <string_view>

namespace alea::runner {

// build_seed = mixSeed(campaign_seed, mixSeed(hashName(system), build_index))
std::uint64_t buildSeed(std::uint64_t campaignSeed, std::string_view system, int buildIndex);

// A paired design's build pair i shares one seed:
// pair_seed = mixSeed(campaign_seed, mixSeed(hashName("pair"), build_index)).
// Build i of every system gets it, so the pair's layouts (and its executions'
// paddings and heap offsets) are the same draw wherever the systems' code
// allows: the layout's effect cancels in the pair's difference, as far as the
// systems share it, and the pairs stay independent draws (the paired analysis's
// unit). Unpaired campaigns keep one seed per system and build (buildSeed).
std::uint64_t pairSeed(std::uint64_t campaignSeed, int buildIndex);

// The seed of a campaign's build: pairSeed in a paired design, else buildSeed.
std::uint64_t campaignBuildSeed(std::uint64_t campaignSeed, bool pairedDesign,
                                std::string_view system, int buildIndex);

// env padding seed = mixSeed(build_seed, "env-padding/" + execution_index)
std::uint64_t envPaddingSeed(std::uint64_t buildSeed, int executionIndex);

// The environment padding size in [lo, hi] bytes for one execution.
std::int64_t envPaddingSize(std::uint64_t buildSeed, int executionIndex, std::int64_t lo,
                            std::int64_t hi);

// heap offset seed = mixSeed(build_seed, "heap-offset/" + execution_index):
// its own stream, so switching the factor changes nothing else that is drawn.
std::uint64_t heapOffsetSeed(std::uint64_t buildSeed, int executionIndex);

// The heap start offset of one execution: uniform over the multiples of 16
// in [0, 65536) (ALEA_HEAP_OFFSET_STEP, ALEA_HEAP_OFFSET_LIMIT).
std::int64_t heapOffsetBytes(std::uint64_t buildSeed, int executionIndex);

// Seed of the execution order: mixSeed(campaign_seed, "schedule").
std::uint64_t scheduleSeed(std::uint64_t campaignSeed);

} // namespace alea::runner
