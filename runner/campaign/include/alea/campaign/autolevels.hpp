// "auto" levels and warm-up (issue 4): a pilot campaign with small counts is
// run first (in `<campaign dir>/pilot/`, a campaign store of its own), then
// the counts of the main campaign are derived from its data:
//  - lower levels (executions, iterations): the statistics engine's planner
//    (Kalibera & Jones TR 2012 eq. 14) from the measured costs: build time and
//    per-execution overhead in units of one measurement; with two or more
//    systems for the RATIO of each candidate to the baseline
//    (analysis::planRatio), with one system for its mean
//    (analysis::planExperiment); a build level without variance in the pilot
//    (T^2 <= 0) is planned with the upper confidence bound of its variance;
//  - the top level (builds): the smallest count whose predicted relative
//    half-width is at most the target: the ratio's Fieller interval with two
//    or more systems, t_{1-a/2,n-1} * sqrt(var(Ybar)) / mean (TR 2012 eq. 10)
//    with one; or what the time budget affords;
//  - warm-up: each pilot execution's series is segmented by PELT and
//    classified as warmup_stats does (analysis/changepoint.hpp: flat, warm-up,
//    slowdown, no steady state); per (system, benchmark) the latest
//    iteration where the steady state starts, over the flat and warm-up
//    executions (every one of them is steady after it); executions that
//    never reach a steady state and those that slow down are named in the
//    plan.
// The largest count over all (candidate, benchmark) pairs is taken.
#pragma once

#include "alea/campaign/campaign.hpp"
#include "alea/config/config.hpp"
#include "alea/store/store.hpp"

#include <string>
#include <vector>

namespace alea::runner {

// Pilot counts: a fixed level keeps its count; auto builds -> 3, auto
// executions -> 3, auto iterations -> 10; auto warm-up -> 0 with 10 extra
// iterations to observe it.
LevelCounts pilotCounts(const CampaignConfig &config);

// The pilot's campaign config: the same file with the pilot counts.
CampaignConfig pilotConfig(const CampaignConfig &config);

struct AutoPlan {
  LevelCounts counts;
  std::vector<std::string> explanation; // shown before the main run, stored in meta
};

// Derives the main campaign's counts from the pilot store.
Expected<AutoPlan> planFromPilot(const CampaignConfig &config, Store &pilot,
                                 const LevelCounts &pilotLevels);

// One pilot execution's iterations in program order, no warm-up removed.
struct WarmupSeries {
  std::string system, benchmark;
  std::vector<double> values;
};

struct WarmupDetection {
  int warmup = 0;                       // iterations to drop (the largest over the benchmarks)
  int noSteadyState = 0;                // executions that never reach a steady state
  std::vector<std::string> explanation; // the plan's warm-up lines
};

// The warm-up from the pilot's executions: see the header comment.
WarmupDetection detectWarmup(const std::vector<WarmupSeries> &series);

} // namespace alea::runner
