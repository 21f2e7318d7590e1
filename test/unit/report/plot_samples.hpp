// The report figures drawn on fixed sample data, shared by the unit tests and
// by report_plot_samples (which writes them to files for the XML and browser
// checks of test/e2e): the six figures on realistic data, and each figure on
// degenerate input (nothing, NaN and infinity, one point, equal values,
// hostile labels).
#pragma once

#include <string>
#include <vector>

namespace alea::report::samples {

struct NamedPlot {
  std::string name; // a file name without extension: "forest", "drift-inf"
  std::string svg;
};

// forest, build-means, strip, variance-shares, drift, warmup.
std::vector<NamedPlot> samplePlots();
// Names end in -empty (these must say "no data"), -nan, -one, -constant, ...
std::vector<NamedPlot> degeneratePlots();

} // namespace alea::report::samples
