// The numbers behind the report's figures (issue 10): per benchmark and
// system, the top-level unit (build) means with their confidence intervals,
// sorted (the layout spread); the second-level unit (execution) means of each
// build (a strip plot); each execution's mean in the order the executions ran
// (drift); and the warm-up curve, the median over executions of the value at
// each lowest-level (iteration) index, warm-up iterations included when the
// caller has them. Renderers draw these and compute nothing (report/).
//
// Sizes stay bounded for large campaigns: at most `maxDriftPoints` executions
// per benchmark in the drift series (every k-th in run order, k the smallest
// that fits; `driftSampledEvery` says k), at most `maxWarmupIndices` iteration
// indices per curve, and the execution means of at most `maxStripBuilds`
// builds per system (the lowest, middle and highest build means first, then
// evenly spaced ones). docs/report.md.
//
// Levels: the second level's units are the "executions" (with two levels,
// e.g. build, iteration, each lowest-level unit is one); the warm-up curve
// runs over the units that hold the lowest level (executions; builds when
// there are two levels). All in one pass over the rows, by label id.
#pragma once

#include "alea/analysis/interval.hpp"
#include "alea/analysis/table.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace alea::analysis {

struct FigureOptions {
  double confidence = 0.95;
  std::size_t maxDriftPoints = 4000;
  std::size_t maxWarmupIndices = 1000;
  std::size_t maxStripBuilds = 40;
  // Lowest-level units dropped as warm-up before `measured` (campaigns):
  // marks the curve; `warmup` rows (may be null) hold their values. With
  // `warmup`, a unit's measured iteration k sits at curve index
  // warmupIterations + k and its j-th warm-up row (matched by labels; j <
  // warmupIterations) at j; without it, measured iteration k sits at k.
  std::size_t warmupIterations = 0;
};

struct BuildFigure {
  std::string label;    // the top-level unit's label ("3")
  double mean = 0;      // of its values
  bool hasCi = false;   // >= 2 second-level units
  Interval ci;          // t interval over its second-level unit means
  std::vector<double> executionMeans; // second-level unit means, run order (when stripShown)
  bool stripShown = false;            // within maxStripBuilds
};

struct SystemFigure {
  std::string system;
  std::vector<BuildFigure> builds; // sorted by mean, lowest first
  // Warm-up curve: median over the executions of the value at iteration
  // index i (0-based; warm-up iterations first when known), and how many
  // executions had an iteration i (NaN median where none had: warm-up rows
  // missing for this system).
  std::vector<double> iterationMedians;
  std::vector<std::size_t> iterationCounts;
};

struct DriftPoint {
  std::size_t order = 0;  // the execution's position in run order (0-based)
  std::size_t system = 0; // index into BenchmarkFigures::systems
  double value = 0;       // the execution's mean
};

struct BenchmarkFigures {
  std::string benchmark;
  std::string topLevel, secondLevel, lowestLevel; // "build", "execution", "iteration"
  std::vector<SystemFigure> systems;              // the report's order: baseline first
  std::vector<DriftPoint> drift;                  // run order
  std::size_t executions = 0;                     // all executions (before sampling)
  std::size_t driftSampledEvery = 1;
  std::size_t warmupIterations = 0; // marked on the warm-up curve (0 without warm-up rows)
};

// `measured`: the table the report analysed (insertion order = run order);
// `warmup`: the lowest-level values dropped as warm-up, same levels (or
// nullptr); `systemOrder`: systems in the report's order. Tables with a
// single level give build means only (no executions, no curve).
std::vector<BenchmarkFigures> buildFigures(const Table &measured, const Table *warmup,
                                           const std::vector<std::string> &systemOrder,
                                           const FigureOptions &options = {});

} // namespace alea::analysis
