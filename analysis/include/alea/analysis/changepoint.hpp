// Warm-up detection by changepoints (issue 11, item 10). Each execution's
// iteration series is segmented by PELT (Killick, Fearnhead & Eckley 2012,
// "Optimal detection of changepoints with a linear computational cost", JASA
// 107:1590) under the normal mean-and-variance change cost (-2 log-likelihood
// with each segment's own mean and variance, R's changepoint::cpt.meanvar) and
// the penalty 15 log n, then classified as warmup_stats does (Barrett, Bolz-
// Tereick, Killick, Mount & Tratt, "Virtual Machine Warmup Blows Hot and
// Cold", OOPSLA 2017, §4; softdevteam/warmup_stats, bin/mark_changepoints_in_json):
//  - segments "equivalent" to the final one (their mean +- standard error
//    overlaps the final mean +- max(SD, delta), delta a fraction of the
//    fastest segment's mean) belong to the steady state;
//  - flat: no segment differs from the final one;
//  - warm-up: every differing segment is slower than the final one; the
//    steady state starts after the last of them (k = its end);
//  - slowdown: some differing segment is faster than the final one;
//  - no steady state: the last differing segment ends within the final
//    window (warmup_stats: the last 500 of 2000 in-process iterations; here
//    the last quarter of the series, at least 2 iterations).
// What alea adapts for its short series (a pilot has 20 iterations, not 2000),
// each a documented deviation from warmup_stats:
//  - interference is left out before segmenting, as warmup_stats removes
//    outliers first (its fences, median +- 3 (P90 - P10) over a rolling
//    200-iteration window that skips the first window, need long series):
//    here, runs of at most 2 iterations above the steady level + 2.5 SDs that
//    do not start at iteration 0 (interference only slows an iteration down;
//    a slow start is the warm-up's), level and SD from the shortest half of
//    the values (the shorth), which the warm-up and the interrupts together
//    cannot move while they are fewer than half; 2.5 SDs is Leys et al.'s
//    (JESP 2013) default cutoff for robust outlier rules. Left in,
//    interrupts after a slow start drew the normal likelihood to a first
//    segment that held the warm-up and the interrupts together (issue 18: a
//    first 4 iterations 6-20x slower on a loaded machine, "4 flat, 5
//    warm-up" of 9). The removed iterations stay in the segments (each in
//    the one before it), not in their means and SDs;
//  - the first segment may be 1 iteration long (a single slow first iteration
//    is the commonest warm-up); every other segment has cpt.meanvar's minimum
//    of 2;
//  - the final segment's interval is widened by its standard deviation, the
//    steady state's noise, in the values' unit; every other segment's by its
//    standard error, SD / sqrt(n), how well its level is known
//    (warmup_stats widens both by the variance, which for times in seconds
//    is negligible beside its delta). A segment's SD says how much its
//    iterations differ, and a warm-up's differ by nature: with its SD, a
//    warm-up of 5x, 99x, 11x, 13x the steady time had mean - SD below the
//    steady state and was "flat" (issue 18);
//  - the steady state starts after the last differing segment less its last
//    iterations that lie within the final segment's mean + 2.5 SDs: the
//    mean-and-variance likelihood leaves a borderline steady iteration in a
//    wide warm-up segment rather than in the narrow steady one;
//  - a segment's variance is floored at (1e-3 x the series' median)^2 instead
//    of R's absolute 1e-11 (seconds or nanoseconds alike; values closer than
//    0.1% count as equal, so ties from a coarse clock make no changepoints);
//  - an excursion of at most 2 iterations between two steady segments (an
//    interrupt, a page-cache miss), or a slower one at the very end after a
//    segment as long as the final window, is an outlier, not a phase:
//    warmup_stats removes outliers beforehand with Tukey fences over a
//    200-iteration window, which a 20-iteration series cannot fill.
// Pure functions: series in, segments and classification out.
#pragma once

#include "alea/enum_names.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace alea::analysis {

struct ChangepointOptions {
  double penaltyPerLogN = 15;    // penalty = 15 log(n), warmup_stats' pen_value
  std::size_t minSegment = 2;    // cpt.meanvar's minseglen (the first segment: 1)
  double relativeSdFloor = 1e-3; // SD floor, relative to the series' median
  double delta = 0.01;           // equivalence tolerance, fraction of the fastest mean
  std::size_t maxTransient = 2;  // longest excursion between steady segments ignored
  // Interference: runs of at most maxTransient iterations above the steady
  // level plus this many SDs (both from the shorth; the SD floored as
  // relativeSdFloor), not at iteration 0, are left out of the segmentation;
  // 0: none.
  // The same many SDs of the final segment bound the iterations a warm-up's
  // end gives back to the steady state (classifySteadyState).
  double interferenceFence = 2.5;
  double steadyFraction = 0.25; // the final window: the last quarter of the series
  // Longer series are segmented as the means of consecutive blocks (at most
  // this many), so that a report of long executions stays fast: PELT is
  // quadratic when a series has few changes.
  std::size_t maxPoints = 500;
};

struct Segment {
  std::size_t start = 0, end = 0; // iterations [start, end)
  double mean = 0, sd = 0;        // of the segment's values (sd: divisor n, as the MLE)
  std::size_t values = 0;         // behind mean and sd: without interference; blocks of long series
};

// The iterations classifySteadyState() leaves out as interference (see
// ChangepointOptions::interferenceFence); all false for fewer than 3.
std::vector<bool> interference(std::span<const double> series,
                               const ChangepointOptions &options = {});

// PELT segmentation of `series` (program order); at least one segment, in
// order, covering the series. Empty input: no segments.
std::vector<Segment> segmentSeries(std::span<const double> series,
                                   const ChangepointOptions &options = {});

#define ALEA_STEADY_KINDS(X)                                                                       \
  X(Flat, "flat")                                                                                  \
  X(Warmup, "warm-up")                                                                             \
  X(Slowdown, "slowdown")                                                                          \
  X(NoSteadyState, "no steady state")
enum class SteadyKind { ALEA_STEADY_KINDS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(SteadyKind, ALEA_STEADY_KINDS);

// "flat", "warm-up", "slowdown", "no steady state".
const char *steadyKindName(SteadyKind kind);

struct SteadyState {
  std::vector<Segment> segments;
  SteadyKind kind = SteadyKind::Flat;
  // The first iteration of the steady state (0 when flat); none without one.
  std::optional<std::size_t> steadyStart;
  std::size_t window = 0; // the final window's length (no steady state if a change ends in it)
  std::size_t interference = 0; // iterations left out of the segmentation
};

// Segments and classifies one execution's series. Needs no minimum length:
// a series of fewer than 3 values is flat.
SteadyState classifySteadyState(std::span<const double> series,
                                const ChangepointOptions &options = {});

// The classification of many executions of one benchmark, summarized.
struct WarmupSummary {
  std::size_t executions = 0;
  std::size_t flat = 0, warmup = 0, slowdown = 0, noSteadyState = 0;
  // The warm-up to drop: the latest steady-state start over the flat and
  // warm-up executions, so that every execution that reaches a steady state
  // is in it once the warm-up is dropped; 0 when there are none. (It was the
  // upper quartile, which left the warm-up of one execution in four in the
  // data, and hid misclassified executions: 4 of 9 called "flat" still gave
  // the 4 of the other 5.) Dropping too much costs iterations; dropping too
  // little biases every mean with warm-up. The executions that slow down or
  // never settle are counted apart, not covered.
  std::size_t warmupIterations = 0;
  std::size_t slowdownMedianAt = 0; // median steady-state start of the slowdowns
};

WarmupSummary summarizeWarmup(std::span<const SteadyState> executions);

// One line: "3 flat, 16 warm-up, 0 slowdown, 2 no steady state".
std::string describeCounts(const WarmupSummary &summary);

} // namespace alea::analysis
