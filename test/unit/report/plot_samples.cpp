// Sample data for the report figures (plot_samples.hpp): fixed seeds, so
// every run draws the same figures.
#include "plot_samples.hpp"

#include "alea/random.hpp"
#include "alea/report/plots.hpp"

#include <cmath>
#include <limits>

namespace alea::report::samples {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Roughly normal noise (sum of uniforms): enough for a picture.
double noise(Rng &rng) {
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += rng.uniform();
  return (s - 2) * std::sqrt(3.0);
}

PlotText words(std::string title, std::string x, std::string y, std::string unit) {
  return PlotText{std::move(title), std::move(x), std::move(y), std::move(unit), ""};
}

std::vector<ForestRow> forestRows() {
  return {
      {"bzip2", 0.962, 0.948, 0.975, 0.947, 0.976, "3.8% faster", false},
      {"gcc", 1.004, 0.991, 1.018, 0.992, 1.017, "no change", false},
      {"mcf", 1.083, 1.041, 1.131, 1.043, 1.128, "8.3% slower", false},
      // Fieller's interval unbounded below: the baseline's mean is not clearly above 0.
      {"omnetpp", 0.91, std::nullopt, 1.2, 0.85, 1.15, "inconclusive", false},
      {"xalancbmk <&> \"quoted\"", 0.995, 0.97, 1.02, 0.971, 1.019, "inconclusive", false},
      {"geometric mean", 0.99, 0.975, 1.006, 0.976, 1.005, "no change", true},
  };
}

std::vector<BuildMeansSeries> buildMeans() {
  std::vector<BuildMeansSeries> series = {{"baseline", {}}, {"candidate", {}}};
  Rng rng(7);
  for (std::size_t s = 0; s < series.size(); ++s)
    for (int i = 0; i < 10; ++i) {
      // Sorted by the caller: a rising sequence.
      double mean = (s == 0 ? 1.20 : 1.16) + 0.004 * i + 0.001 * noise(rng);
      series[s].builds.push_back(
          {"build " + std::to_string(i + 1), mean, mean - 0.006, mean + 0.006});
    }
  return series;
}

std::vector<StripBuild> stripBuilds() {
  std::vector<StripBuild> builds;
  Rng rng(8);
  for (std::size_t s = 0; s < 2; ++s)
    for (int b = 0; b < 6; ++b) {
      StripBuild build{(s == 0 ? "base-" : "cand-") + std::to_string(b + 1), s, {}};
      double centre = (s == 0 ? 1.2 : 1.16) + 0.01 * noise(rng);
      for (int e = 0; e < 5; ++e)
        build.values.push_back(centre + 0.003 * noise(rng));
      builds.push_back(build);
    }
  return builds;
}

std::vector<VarianceShares> varianceRows() {
  return {{"baseline", {{"build", 0.61}, {"execution", 0.30}, {"iteration", 0.09}}},
          {"candidate", {{"build", 0.45}, {"execution", 0.40}, {"iteration", 0.15}}}};
}

std::vector<DriftPoint> driftPoints() {
  std::vector<DriftPoint> points;
  Rng rng(9);
  for (int i = 0; i < 5000; ++i) {
    std::size_t s = i % 2;
    double value = (s == 0 ? 1.2 : 1.16) * (1 + 0.00001 * i) + 0.01 * noise(rng);
    points.push_back({static_cast<double>(i + 1), value, s});
  }
  return points;
}

std::vector<WarmupSeries> warmupSeries() {
  std::vector<WarmupSeries> series = {{"baseline", {}}, {"candidate", {}}};
  Rng rng(10);
  for (std::size_t s = 0; s < series.size(); ++s)
    for (int i = 0; i < 40; ++i)
      series[s].values.push_back((s == 0 ? 1.2 : 1.16) * (1 + 0.5 * std::exp(-i / 1.5)) +
                                 0.004 * noise(rng));
  return series;
}

} // namespace

std::vector<NamedPlot> samplePlots() {
  std::vector<std::string> systems = {"baseline", "candidate"};
  return {
      {"forest", forestPlot(forestRows(), 0.01,
                            words("Candidate vs baseline", "candidate / baseline", "", ""))},
      {"build-means",
       buildMeansPlot(buildMeans(), words("Build means (bzip2)", "build rank", "mean time", "s"))},
      {"strip",
       stripPlot(stripBuilds(), systems, words("Execution means per build", "build", "time", "s"))},
      {"variance-shares",
       varianceSharesPlot(varianceRows(), words("Where the variance comes from", "", "", ""))},
      {"drift", driftPlot(driftPoints(), systems,
                          words("Measurements in campaign order", "order", "time", "s"))},
      {"warmup", warmupPlot(warmupSeries(), 5, words("Warm-up", "iteration", "time", "s"))},
  };
}

std::vector<NamedPlot> degeneratePlots() {
  std::vector<std::string> systems = {"baseline", "candidate"};
  PlotText t = words("Degenerate", "x", "y", "s");
  // Labels that must be escaped or repaired: markup, quotes, a control
  // character, invalid UTF-8 and a lone surrogate's encoding.
  std::string hostile = "<b>&amp; \"x\" 'y' \x01 \xff\xfe \xed\xa0\x80 é</b>";
  PlotText hostileText{hostile, hostile, hostile, hostile, hostile};
  return {
      {"forest-empty", forestPlot({}, 0.01, t)},
      {"forest-nan", forestPlot({{"a", kNaN, kNaN, kNaN, kNaN, kNaN, "n/a", false},
                                 {"b", kInf, 0.9, kInf, std::nullopt, 1.1, "", false},
                                 {"c", -1, -2, 0, 0, 0, "", true}},
                                kNaN, t)},
      {"forest-one", forestPlot({{"a", 1, 1, 1, 1, 1, "no change", false}}, 0, t)},
      {"forest-unbounded",
       forestPlot({{"a", 1.5, std::nullopt, std::nullopt, std::nullopt, std::nullopt, "", false},
                   {"b", 0.5, kInf, -kInf, kNaN, 2, "", true}},
                  0.5, t)},
      {"forest-hostile",
       forestPlot({{hostile, 1.01, 0.99, 1.03, 0.99, 1.03, hostile, false}}, 0.01, hostileText)},
      {"build-means-empty", buildMeansPlot({}, t)},
      {"build-means-nan", buildMeansPlot({{"a", {{"b1", kNaN, kNaN, kNaN}}}, {"b", {}}}, t)},
      {"build-means-one", buildMeansPlot({{"a", {{"b1", 2, kNaN, kInf}}}}, t)},
      {"build-means-constant",
       buildMeansPlot({{"a", {{"b1", 0, 0, 0}, {"b2", 0, 0, 0}}}, {hostile, {{hostile, 0, 0, 0}}}},
                      hostileText)},
      {"strip-empty", stripPlot({}, systems, t)},
      {"strip-nan", stripPlot({{"b1", 0, {kNaN, kInf, -kInf}}, {"b2", 1, {}}}, systems, t)},
      {"strip-one", stripPlot({{"b1", 5, {3.5}}}, {}, t)},
      {"strip-constant",
       stripPlot({{"b1", 0, {1e9, 1e9}}, {hostile, 1, {1e9}}}, {hostile, hostile}, hostileText)},
      {"variance-shares-empty", varianceSharesPlot({}, t)},
      {"variance-shares-zero",
       varianceSharesPlot({{"a", {{"build", 0}, {"execution", kNaN}}}, {"b", {}}}, t)},
      {"variance-shares-one", varianceSharesPlot({{"a", {{"build", 1}}}, {"b", {}}}, t)},
      {"variance-shares-hostile",
       varianceSharesPlot({{hostile, {{hostile, 0.5}, {"x", kInf}, {"y", -1}, {"z", 0.5}}}},
                          hostileText)},
      {"drift-empty", driftPlot({}, systems, t)},
      {"drift-inf", driftPlot({{kInf, 1, 0}, {1, kNaN, 1}, {2, -kInf, 0}}, systems, t)},
      {"drift-one", driftPlot({{7, 1e-9, 3}}, systems, t)},
      {"drift-constant", driftPlot({{1, -4, 0}, {1, -4, 1}, {1, -4, 0}}, {}, hostileText)},
      {"warmup-empty", warmupPlot({}, std::nullopt, t)},
      {"warmup-nan", warmupPlot({{"a", {kNaN, kNaN}}, {"b", {}}}, 3, t)},
      {"warmup-one", warmupPlot({{"a", {42}}}, 0, t)},
      {"warmup-gaps",
       warmupPlot({{"a", {1, kNaN, 3, kInf, 5}}, {hostile, {2, 2, 2}}}, 10, hostileText)},
  };
}

} // namespace alea::report::samples
