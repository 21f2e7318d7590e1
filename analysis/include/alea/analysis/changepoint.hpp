// Warm-up detection by changepoints (issue 11, item 10). Each execution's
// iteration series is segmented by PELT (Killick, Fearnhead & Eckley 2012,
// "Optimal detection of changepoints with a linear computational cost", JASA
// 107:1590) under the normal mean-and-variance change cost (-2 log-likelihood
// with each segment's own mean and variance, R's changepoint::cpt.meanvar) and
// the penalty 15 log n, then classified as warmup_stats does (Barrett, Bolz-
// Tereick, Killick, Mount & Tratt, "Virtual Machine Warmup Blows Hot and
// Cold", OOPSLA 2017, §4; softdevteam/warmup_stats, bin/mark_changepoints_in_json):
//  - segments "equivalent" to the final one (their mean +- SD overlaps the
//    final mean +- max(SD, delta), delta a fraction of the fastest segment's
//    mean) belong to the steady state;
//  - flat: no segment differs from the final one;
//  - warm-up: every differing segment is slower than the final one; the
//    steady state starts after the last of them (k = its end);
//  - slowdown: some differing segment is faster than the final one;
//  - no steady state: the last differing segment ends within the final
//    window (warmup_stats: the last 500 of 2000 in-process iterations; here
//    the last quarter of the series, at least 2 iterations).
// What alea adapts for its short series (a pilot has 20 iterations, not 2000),
// each a documented deviation from warmup_stats:
//  - the first segment may be 1 iteration long (a single slow first iteration
//    is the commonest warm-up); every other segment has cpt.meanvar's minimum
//    of 2;
//  - intervals are widened by each segment's standard deviation, in the
//    values' unit (warmup_stats widens them by the variance, which for times
//    in seconds is negligible beside its delta);
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
  double steadyFraction = 0.25;  // the final window: the last quarter of the series
  // Longer series are segmented as the means of consecutive blocks (at most
  // this many), so that a report of long executions stays fast: PELT is
  // quadratic when a series has few changes.
  std::size_t maxPoints = 500;
};

struct Segment {
  std::size_t start = 0, end = 0; // iterations [start, end)
  double mean = 0, sd = 0;        // of the segment's values (sd: divisor n, as the MLE)
};

// PELT segmentation of `series` (program order); at least one segment, in
// order, covering the series. Empty input: no segments.
std::vector<Segment> segmentSeries(std::span<const double> series,
                                   const ChangepointOptions &options = {});

enum class SteadyKind { Flat, Warmup, Slowdown, NoSteadyState };

// "flat", "warm-up", "slowdown", "no steady state".
const char *steadyKindName(SteadyKind kind);

struct SteadyState {
  std::vector<Segment> segments;
  SteadyKind kind = SteadyKind::Flat;
  // The first iteration of the steady state (0 when flat); none without one.
  std::optional<std::size_t> steadyStart;
  std::size_t window = 0; // the final window's length (no steady state if a change ends in it)
};

// Segments and classifies one execution's series. Needs no minimum length:
// a series of fewer than 3 values is flat.
SteadyState classifySteadyState(std::span<const double> series,
                                const ChangepointOptions &options = {});

// The classification of many executions of one benchmark, summarized.
struct WarmupSummary {
  std::size_t executions = 0;
  std::size_t flat = 0, warmup = 0, slowdown = 0, noSteadyState = 0;
  // The warm-up to drop: the upper quartile (type 7, rounded up) of the
  // steady-state start over the flat and warm-up executions, so that three
  // executions in four are steady after it; 0 when there are none.
  std::size_t warmupIterations = 0;
  std::size_t longestWarmup = 0;    // the largest steady-state start seen (flat, warm-up)
  std::size_t slowdownMedianAt = 0; // median steady-state start of the slowdowns
};

WarmupSummary summarizeWarmup(std::span<const SteadyState> executions);

// One line: "3 flat, 16 warm-up, 0 slowdown, 2 no steady state".
std::string describeCounts(const WarmupSummary &summary);

} // namespace alea::analysis
