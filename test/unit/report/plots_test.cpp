// The report figures (plots.hpp): every sample and degenerate figure is one
// complete <svg> root with its text alternative and no NaN or infinity in
// any attribute; nothing-to-draw says "no data"; each figure's own promises
// (forest rows and band, deterministic jitter, compact drift, shares in
// percent, the warm-up marker). Well-formedness itself is checked by a real
// XML parser in test/e2e/svg_xml_test.py.
#include "alea/report/plots.hpp"
#include "plot_samples.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <regex>
#include <set>

using namespace alea::report;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::size_t count(const std::string &s, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
    ++n;
  return n;
}

bool has(const std::string &s, const std::string &what) {
  return s.find(what) != std::string::npos;
}

// The text of the first <tag>...</tag>.
std::string element(const std::string &svg, const std::string &tag) {
  std::size_t start = svg.find("<" + tag + ">");
  if (start == std::string::npos)
    return "";
  start += tag.size() + 2;
  return svg.substr(start, svg.find("</" + tag + ">", start) - start);
}

std::vector<samples::NamedPlot> allPlots() {
  auto plots = samples::samplePlots();
  for (auto &p : samples::degeneratePlots())
    plots.push_back(std::move(p));
  return plots;
}

PlotText text(std::string title) { return PlotText{std::move(title), "x", "y", "s", ""}; }

} // namespace

TEST(Plots, EveryFigureIsOneScalableSvgRootWithTitleAndDesc) {
  for (const auto &p : allPlots()) {
    SCOPED_TRACE(p.name);
    EXPECT_EQ(p.svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 640 ", 0), 0u);
    EXPECT_TRUE(has(p.svg, "width=\"100%\" role=\"img\" class=\"alea-plot "));
    EXPECT_EQ(count(p.svg, "<svg"), 1u);
    EXPECT_EQ(p.svg.substr(p.svg.size() - 7), "</svg>\n");
    EXPECT_FALSE(element(p.svg, "title").empty());
    EXPECT_FALSE(element(p.svg, "desc").empty());
    EXPECT_FALSE(has(p.svg, "<?xml"));
  }
}

TEST(Plots, NoAttributeHoldsNaNOrInfinity) {
  // A scan, not std::regex: libstdc++'s recursion overflows the stack on
  // the drift figure's 100 KB path.
  for (const auto &p : allPlots()) {
    SCOPED_TRACE(p.name);
    for (std::size_t at = p.svg.find("=\""); at != std::string::npos;
         at = p.svg.find("=\"", at + 1)) {
      std::string value = p.svg.substr(at + 2, p.svg.find('"', at + 2) - at - 2);
      for (char &c : value)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      EXPECT_FALSE(has(value, "nan") || has(value, "inf")) << value;
    }
  }
}

TEST(Plots, NothingToDrawSaysNoData) {
  for (const auto &p : samples::degeneratePlots()) {
    SCOPED_TRACE(p.name);
    bool empty = p.name.ends_with("-empty") || p.name.ends_with("-nan") ||
                 p.name == "variance-shares-zero" || p.name == "drift-inf";
    EXPECT_EQ(has(p.svg, "class=\"no-data\""), empty);
    if (empty) {
      EXPECT_TRUE(has(element(p.svg, "desc"), "No data to show."));
    }
  }
  for (const auto &p : samples::samplePlots())
    EXPECT_FALSE(has(p.svg, "class=\"no-data\"")) << p.name;
}

TEST(Plots, HostileLabelsAreEscaped) {
  for (const auto &p : samples::degeneratePlots()) {
    SCOPED_TRACE(p.name);
    EXPECT_FALSE(has(p.svg, "<b>"));
    EXPECT_FALSE(has(p.svg, "\x01"));
    EXPECT_FALSE(has(p.svg, "\xff"));
  }
  for (const auto &p : samples::degeneratePlots()) {
    if (p.name.ends_with("-hostile")) {
      EXPECT_TRUE(has(p.svg, "&lt;b&gt;&amp;amp; &quot;x&quot; &#39;y&#39;")) << p.name;
    }
  }
}

TEST(Plots, TheCallersDescriptionOpensTheDesc) {
  PlotText t = text("T");
  t.description = "Figure 2 of the report.";
  std::string svg = driftPlot({{1, 2, 0}, {2, 3, 1}}, {"base", "cand"}, t);
  EXPECT_EQ(element(svg, "desc").rfind("Figure 2 of the report. Every measurement", 0), 0u);
  EXPECT_TRUE(has(element(svg, "desc"), "base: 1 values, 2 s."));
}

TEST(ForestPlot, SuiteRowsComeLastBelowARuleAsDiamonds) {
  std::vector<ForestRow> rows = {
      {"suite", 0.99, 0.98, 1.0, 0.98, 1.0, "no change", true},
      {"a", 0.96, 0.95, 0.97, 0.95, 0.97, "4% faster", false},
      {"b", 1.02, 1.01, 1.03, 1.01, 1.03, "2% slower", false},
  };
  std::string svg = forestPlot(rows, 0.01, text("F"));
  std::size_t a = svg.find(">a</text>"), b = svg.find(">b</text>"),
              suite = svg.find(">suite</text>");
  ASSERT_NE(suite, std::string::npos);
  EXPECT_LT(a, b);
  EXPECT_LT(b, suite);
  EXPECT_EQ(count(svg, "class=\"row suite\""), 1u);
  EXPECT_EQ(count(svg, "class=\"row\""), 2u);
  EXPECT_EQ(count(svg, "class=\"separator\""), 1u);
  EXPECT_EQ(count(svg, "class=\"estimate ci fieller\""), 1u); // the diamond
  EXPECT_EQ(count(svg, "class=\"ci bootstrap\""), 3u);
  EXPECT_TRUE(has(svg, ">4% faster</text>"));
}

TEST(ForestPlot, BandLineAtOneAndLogAxis) {
  std::string svg = forestPlot({{"a", 0.96, 0.95, 0.97, {}, {}, "", false}}, 0.01, text("F"));
  EXPECT_EQ(count(svg, "class=\"band\""), 2u); // the band and its legend swatch
  EXPECT_EQ(count(svg, "class=\"ref-line\""), 1u);
  EXPECT_TRUE(has(svg, ", log scale</text>"));
  EXPECT_TRUE(has(svg, ">1.00</text>"));
  EXPECT_TRUE(has(svg, "no change (±1%)"));
  EXPECT_TRUE(has(element(svg, "desc"), "no-change range [0.99, 1.01]"));
  EXPECT_FALSE(has(svg, "bootstrap")); // none given: no line, no legend entry

  std::string noBand = forestPlot({{"a", 0.96, 0.95, 0.97, {}, {}, "", false}}, 0, text("F"));
  EXPECT_EQ(count(noBand, "class=\"band\""), 0u);
}

TEST(ForestPlot, UnboundedFiellerIntervalsRunToTheEdgeWithArrows) {
  std::vector<ForestRow> rows = {
      {"lower open", 1.1, std::nullopt, 1.3, 1.0, 1.2, "", false},
      {"both open", 0.9, std::nullopt, std::nullopt, 0.8, 1.0, "", false},
      {"upper infinite", 1.0, 0.9, std::numeric_limits<double>::infinity(), {}, {}, "", false},
  };
  std::string svg = forestPlot(rows, 0.01, text("F"));
  EXPECT_EQ(count(svg, "class=\"unbounded\""), 4u);
  EXPECT_TRUE(has(element(svg, "desc"), "lower open: 1.1, Fieller CI [unbounded, 1.3], "
                                        "bootstrap CI [1, 1.2]."));
}

TEST(ForestPlot, RowsWithoutAnEstimateAreListedNotDrawn) {
  std::string svg = forestPlot(
      {{"ok", 1.0, 0.9, 1.1, {}, {}, "", false}, {"broken", kNaN, {}, {}, {}, {}, "", false}}, 0.01,
      text("F"));
  EXPECT_TRUE(has(svg, ">broken</text>"));
  EXPECT_TRUE(has(svg, ">no estimate</text>"));
  EXPECT_TRUE(has(element(svg, "desc"), "broken: no estimate."));
}

TEST(BuildMeansPlot, OneMarkerAndWhiskerPerBuildColouredBySystem) {
  std::vector<BuildMeansSeries> series = {
      {"base", {{"b1", 1.0, 0.9, 1.1}, {"b2", 1.2, 1.1, 1.3}, {"b3", 1.4, kNaN, kNaN}}},
      {"cand", {{"c1", 0.8, 0.7, 0.9}}},
  };
  std::string svg = buildMeansPlot(series, text("B"));
  EXPECT_EQ(count(svg, "class=\"whisker\""), 3u);             // b3 has no interval
  EXPECT_EQ(count(svg, "class=\"marker series-0\""), 3u + 1); // + legend
  EXPECT_EQ(count(svg, "class=\"marker series-1\""), 1u + 1);
  EXPECT_TRUE(has(svg, "<title>base, b2: 1.2 s [1.1, 1.3]</title>"));
  EXPECT_TRUE(has(svg, ">y (s)</text>"));
  EXPECT_TRUE(has(element(svg, "desc"), "base: 3 builds from 1 to 1.4 s."));
}

TEST(StripPlot, JitterIsDeterministicAndSpreadsEqualValues) {
  std::vector<StripBuild> builds = {{"b1", 0, {1, 1, 1, 1}}, {"b2", 1, {2, 2}}};
  std::string first = stripPlot(builds, {"base", "cand"}, text("S"));
  EXPECT_EQ(first, stripPlot(builds, {"base", "cand"}, text("S")));
  // Series 0 draws dots "Mx yh0" (after its legend entry): four equal
  // values, four different x.
  std::regex dot("M([0-9.]+) ([0-9.]+)h0");
  std::string d = first.substr(first.rfind("class=\"marker series-0\" d=\""));
  d = d.substr(0, d.find("\" fill"));
  std::set<std::string> xs, ys;
  for (std::sregex_iterator it(d.begin(), d.end(), dot), end; it != end; ++it) {
    xs.insert((*it)[1]);
    ys.insert((*it)[2]);
  }
  EXPECT_EQ(xs.size(), 4u);
  EXPECT_EQ(ys.size(), 1u);
}

TEST(StripPlot, ManyBuildsTurnAndThinTheirLabels) {
  std::vector<StripBuild> builds;
  for (int i = 0; i < 80; ++i)
    builds.push_back({"build-" + std::to_string(i), static_cast<std::size_t>(i % 2), {1.0 + i}});
  std::string svg = stripPlot(builds, {"base", "cand"}, text("S"));
  EXPECT_TRUE(has(svg, "rotate(-40 "));
  EXPECT_TRUE(has(svg, ">build-0</text>"));
  EXPECT_LT(count(svg, ">build-"), 80u);
}

TEST(VarianceSharesPlot, SegmentsAreLabelledWithPercentages) {
  std::string svg =
      varianceSharesPlot({{"base", {{"build", 0.61}, {"execution", 0.30}, {"iteration", 0.09}}},
                          {"cand", {{"iteration", 0.2}, {"build", 0.2}}}},
                         text("V"));
  EXPECT_TRUE(has(svg, ">61%</text>"));
  EXPECT_TRUE(has(svg, ">9%</text>"));
  EXPECT_EQ(count(svg, ">50%</text>"), 2u); // drawn as parts of their sum
  // A level keeps its colour across bars: "build" is series-0 in both.
  EXPECT_EQ(count(svg, "class=\"segment series-0\""), 2u);
  EXPECT_TRUE(has(element(svg, "desc"), "base: build 61%, execution 30%, iteration 9%."));
  EXPECT_TRUE(has(svg, ">100%</text>"));
}

TEST(DriftPlot, UnknownSystemIndicesAreOneSeriesOther) {
  std::string svg =
      driftPlot({{1, 1, 0}, {2, 2, 7}, {3, 3, static_cast<std::size_t>(-1)}}, {"base"}, text("D"));
  EXPECT_EQ(count(svg, "class=\"marker series-1\""), 2u); // data + legend
  EXPECT_EQ(count(svg, "series-2"), 0u);
  EXPECT_TRUE(has(svg, ">other</text>"));
  EXPECT_TRUE(has(element(svg, "desc"), "other: 2 values from 2 to 3 s."));
}

TEST(DriftPlot, FiveThousandPointsAreOnePathPerSystem) {
  std::vector<DriftPoint> points;
  for (int i = 0; i < 5000; ++i)
    points.push_back(
        {static_cast<double>(i), 1.0 + (i % 7) * 0.01, static_cast<std::size_t>(i % 2)});
  std::string svg = driftPlot(points, {"base", "cand"}, text("D"));
  EXPECT_EQ(count(svg, "class=\"marker series-0\""), 2u); // data + legend
  EXPECT_EQ(count(svg, "class=\"marker series-1\""), 2u);
  EXPECT_LT(svg.size(), 200'000u); // a figure a self-contained page can afford
  EXPECT_TRUE(has(element(svg, "desc"), "base: 2500 values from 1 to 1.06 s."));
}

TEST(WarmupPlot, CutoffMarkerAfterTheDroppedIterations) {
  std::string svg = warmupPlot({{"base", {3, 2, 1, 1, 1}}}, 2, text("W"));
  EXPECT_TRUE(has(svg, ">warm-up: 2 dropped</text>"));
  EXPECT_TRUE(has(element(svg, "desc"), "The first 2 iterations are dropped as warm-up."));
  EXPECT_FALSE(has(warmupPlot({{"base", {3, 2}}}, 0, text("W")), "warm-up:"));
  EXPECT_FALSE(has(warmupPlot({{"base", {3, 2}}}, std::nullopt, text("W")), "warm-up:"));
}

TEST(WarmupPlot, NonFiniteValuesBreakTheLine) {
  std::string svg = warmupPlot({{"base", {1, 2, kNaN, 4, 5}}}, std::nullopt, text("W"));
  std::string line = svg.substr(svg.find("class=\"line\" d=\"") + 16);
  line = line.substr(0, line.find('"'));
  EXPECT_EQ(count(line, "M"), 2u);
  EXPECT_EQ(count(line, "L"), 2u);
  EXPECT_TRUE(has(element(svg, "desc"), "1 value that is not finite is left out."));
}

TEST(WarmupPlot, LongSeriesHaveLinesWithoutMarkers) {
  std::vector<double> values(200, 1.0);
  std::string svg = warmupPlot({{"base", values}, {"cand", values}}, std::nullopt, text("W"));
  EXPECT_EQ(count(svg, "class=\"line\""), 2u);
  EXPECT_EQ(count(svg, "class=\"marker "), 2u);      // only the legend's
  EXPECT_TRUE(has(svg, "stroke-dasharray=\"6 3\"")); // the second series is dashed
}
