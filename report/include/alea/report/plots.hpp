// The report's figures as SVG: pure functions from plain data (std types
// only; the report value fills them) to one complete <svg> element, usable
// inline in the HTML report and, through svg::standalone(), as a .svg file for
// a paper. Every figure has a <title> and a <desc> that says in words what it
// shows (its text alternative), scales to its container (viewBox, width
// 100%), uses the Okabe-Ito palette with a marker shape or dash pattern per
// series so it reads in grey, and carries CSS classes (alea-plot, axis, grid,
// band, series-N, ...) for the page's screen and print styles.
//
// The figures draw what they are given and compute no statistic. Values that
// are NaN or infinite are left out (and counted in the description); a
// figure with nothing left to draw says "no data"; one point or equal values
// get an axis padded around them.
#pragma once

#include "alea/report/svg.hpp"

#include <cmath> // NAN: a bound that is not there
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace alea::report {

// The words of a figure. `unit` is the unit of the measured values (written
// after the value axis' label: "mean time (s)"); `description`, if any,
// opens the figure's <desc>, before the summary of its data.
struct PlotText {
  std::string title;
  std::string xLabel;
  std::string yLabel;
  std::string unit;
  std::string description;
};

// 1. Forest plot of ratios (candidate / baseline), one row per benchmark,
// on a log axis, with a shaded no-change band [1 - threshold, 1 + threshold]
// and a line at 1. The Fieller interval is the thick line; a missing or
// non-finite bound (Fieller's interval is unbounded when the baseline's mean
// is not clearly away from 0) runs to the axis' end with an arrow. The
// bootstrap interval is the thin line below. Suite rows (the geometric mean)
// come last, below a rule, as diamonds. The axis reads "<xLabel>, log scale".
struct ForestRow {
  std::string label;
  double estimate = 0;
  std::optional<double> lower, upper; // Fieller; nullopt: unbounded
  std::optional<double> bootLower, bootUpper;
  std::string decision; // shown at the right ("3.8% faster")
  bool suiteRow = false;
};
// threshold: e.g. 0.01 for ±1%; 0, negative or NaN draws no band.
std::string forestPlot(const std::vector<ForestRow> &rows, double threshold, const PlotText &text);

// 2. Mean of each build with its interval, per system, in the order given
// (the caller sorts): x is the rank within the system, one colour and marker
// per system, y in the benchmark's unit. NaN bounds: no whisker.
struct BuildMean {
  std::string label; // "build 3 (seed 0x...)": the point's tooltip
  double mean = 0;
  double lower = NAN, upper = NAN; // no interval unless given
};
struct BuildMeansSeries {
  std::string system;
  std::vector<BuildMean> builds;
};
std::string buildMeansPlot(const std::vector<BuildMeansSeries> &series, const PlotText &text);

// 3. Strip plot: one category per build on x (labelled as given), its
// execution means as dots jittered sideways (by index, deterministically),
// coloured by system (an index into `systems`; any other index is drawn as
// one more system, "other").
struct StripBuild {
  std::string label;
  std::size_t system = 0;
  std::vector<double> values;
};
std::string stripPlot(const std::vector<StripBuild> &builds,
                      const std::vector<std::string> &systems, const PlotText &text);

// 4. Where the variance comes from: per system a horizontal bar split into
// the levels' shares (0..1; drawn as parts of their sum), each labelled with
// its percentage where it fits. A level has one colour in every bar.
struct VarianceShare {
  std::string level;
  double share = 0;
};
struct VarianceShares {
  std::string system;
  std::vector<VarianceShare> shares;
};
std::string varianceSharesPlot(const std::vector<VarianceShares> &rows, const PlotText &text);

// 5. Drift: every measurement by its order in the campaign (x) and value (y),
// coloured by system (as in stripPlot); thousands of points stay a small file.
struct DriftPoint {
  double order = 0;
  double value = 0;
  std::size_t system = 0;
};
std::string driftPlot(const std::vector<DriftPoint> &points,
                      const std::vector<std::string> &systems, const PlotText &text);

// 6. Warm-up: per system a line of value by iteration index (from 1), with,
// if `dropped` is given and positive, a vertical marker after the last
// iteration dropped as warm-up.
struct WarmupSeries {
  std::string system;
  std::vector<double> values; // values[i] is iteration i + 1
};
std::string warmupPlot(const std::vector<WarmupSeries> &series, std::optional<std::size_t> dropped,
                       const PlotText &text);

// 7. Trend over revisions: one band per revision on x (labelled as given,
// oldest first), the ratio to the reference revision on y with its interval
// as a whisker (NaN bounds: none; a NaN ratio: no point), the points joined
// in order, the no-change band [1 - threshold, 1 + threshold] shaded, a line
// at 1, and a dashed line at each step (between revision at - 1 and at)
// labelled with the step's words ("x1.20").
struct TrendPoint {
  std::string label;   // the category label: "abc1234"
  std::string tooltip; // "abc1234 k1 does more work: 1.20 [1.19, 1.21], slower"
  double ratio = NAN, lower = NAN, upper = NAN;
};
struct TrendStep {
  std::size_t at = 0; // index of the first revision of the new level
  std::string label;
};
std::string trendPlot(const std::vector<TrendPoint> &points, const std::vector<TrendStep> &steps,
                      double threshold, const PlotText &text);

// A figure that only says "no data" (with title and description): what every
// plot above returns when it has nothing to draw.
std::string noDataPlot(const PlotText &text, std::string_view cls);

} // namespace alea::report
