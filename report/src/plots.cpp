// The six report figures (plots.hpp) over the SVG writer (svg.hpp). Each
// function filters what cannot be drawn, lays out its frame (title, legend,
// axes with room for their labels), draws, and writes a description of the
// data for its <desc>. Layout is in user units of a 640-wide viewBox; the
// page scales it.
#include "alea/report/plots.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace alea::report {

using svg::cat;
using svg::coord;
using svg::linearTicks;
using svg::number;
using svg::Scale;
using svg::Ticks;
using svg::Writer;

namespace {

constexpr double kWidth = 640;
constexpr double kPad = 12; // outer margin
constexpr double kTitleBaseline = 22;
constexpr double kLegendTop = 32;
constexpr double kLegendRow = 18;
constexpr double kTickLength = 4;
constexpr double kXAxisMargin = 46; // below the plot area: tick labels, axis label
constexpr std::string_view kInk = "#222222";
constexpr std::string_view kGridColour = "#e2e2e2";
constexpr std::string_view kMuted = "#555555";

bool finite(double v) { return std::isfinite(v); }
bool positive(std::optional<double> v) { return v && std::isfinite(*v) && *v > 0; }

std::string withUnit(const std::string &label, const std::string &unit) {
  if (unit.empty())
    return label;
  if (label.empty())
    return unit;
  return label + " (" + unit + ")";
}

// " s" after a value, or nothing.
std::string unitSuffix(const std::string &unit) { return unit.empty() ? "" : " " + unit; }

// A system index outside the names given is drawn as one more series,
// "other": a bad index neither allocates per index nor goes unseen.
std::size_t seriesOfSystem(std::size_t system, const std::vector<std::string> &systems) {
  return std::min(system, systems.size());
}

std::string systemName(const std::vector<std::string> &systems, std::size_t i) {
  return i < systems.size() ? systems[i] : "other";
}

// The opening words of a <desc>: the caller's description, then ours.
std::string descStart(const PlotText &text) {
  std::string d = text.description;
  if (!d.empty() && d.back() != ' ')
    d += ' ';
  return d;
}

std::string leftOut(std::size_t n) {
  if (n == 0)
    return "";
  return cat(" ", std::to_string(n), n == 1 ? " value that is" : " values that are", " not finite ",
             n == 1 ? "is" : "are", " left out.");
}

// The lowest and highest of some values (NaN, NaN while empty).
struct Extent {
  double lo = NAN, hi = NAN;
  void add(double v) {
    if (!finite(v))
      return;
    lo = std::isnan(lo) ? v : std::min(lo, v);
    hi = std::isnan(hi) ? v : std::max(hi, v);
  }
  bool empty() const { return std::isnan(lo); }
};

// The plot area: where data is drawn, in user units.
struct Area {
  double left, top, right, bottom;
  double width() const { return right - left; }
  double height() const { return bottom - top; }
};

void drawTitle(Writer &w, const PlotText &text) {
  if (text.title.empty())
    return;
  w.text("text",
         {{"class", "title"},
          {"x", kPad},
          {"y", kTitleBaseline},
          {"font-size", svg::kTitleFontSize},
          {"font-weight", "600"},
          {"fill", kInk}},
         svg::fit(text.title, (kWidth - 2 * kPad) / 1.08, svg::kTitleFontSize)); // bold
}

// ------------------------------------------------------------------ legend

enum class Symbol { Marker, LineMarker, Swatch, ThickLine, ThinLine, Band };
struct LegendEntry {
  std::string name;
  std::size_t series;
  Symbol symbol;
};

constexpr double kSymbolWidth = 18;

std::string entryName(const LegendEntry &e) { return svg::fit(e.name, 200, svg::kFontSize); }

double entryWidth(const LegendEntry &e) {
  return kSymbolWidth + 5 + svg::textWidth(entryName(e), svg::kFontSize) + 16;
}

// Entries flow left to right from x0 and wrap before x1: their positions
// (x, row) and the number of rows.
std::pair<std::vector<std::pair<double, int>>, int>
layoutLegend(const std::vector<LegendEntry> &entries, double x0, double x1) {
  std::vector<std::pair<double, int>> at;
  double x = x0;
  int row = 0;
  for (const LegendEntry &e : entries) {
    double width = entryWidth(e);
    if (x > x0 && x + width > x1) {
      x = x0;
      ++row;
    }
    at.push_back({x, row});
    x += width;
  }
  return {at, entries.empty() ? 0 : row + 1};
}

double legendHeight(const std::vector<LegendEntry> &entries) {
  return layoutLegend(entries, kPad, kWidth - kPad).second * kLegendRow;
}

void drawSymbol(Writer &w, const LegendEntry &e, double x, double cy) {
  std::string colour(svg::seriesColour(e.series));
  double mid = x + kSymbolWidth / 2;
  switch (e.symbol) {
  case Symbol::Marker:
    svg::markerSeries(w, e.series, {{mid, cy}}, 4);
    break;
  case Symbol::LineMarker:
    w.empty("line", {{"x1", x},
                     {"y1", cy},
                     {"x2", x + kSymbolWidth},
                     {"y2", cy},
                     {"stroke", colour},
                     {"stroke-width", 1.5},
                     {"stroke-dasharray", svg::seriesDash(e.series)}});
    svg::markerSeries(w, e.series, {{mid, cy}}, 3);
    break;
  case Symbol::Swatch:
    w.empty("rect", {{"class", svg::seriesClass(e.series)},
                     {"x", mid - 6},
                     {"y", cy - 6},
                     {"width", 12},
                     {"height", 12},
                     {"fill", colour}});
    break;
  case Symbol::ThickLine:
    w.empty("line", {{"x1", x},
                     {"y1", cy},
                     {"x2", x + kSymbolWidth},
                     {"y2", cy},
                     {"stroke", colour},
                     {"stroke-width", 2.5}});
    w.empty("path", {{"d", svg::markerPath(svg::Marker::Square, mid, cy, 4)}, {"fill", colour}});
    break;
  case Symbol::ThinLine:
    w.empty("line", {{"x1", x},
                     {"y1", cy},
                     {"x2", x + kSymbolWidth},
                     {"y2", cy},
                     {"stroke", colour},
                     {"stroke-width", 1.2}});
    break;
  case Symbol::Band:
    w.empty("rect", {{"class", "band"},
                     {"x", x},
                     {"y", cy - 6},
                     {"width", kSymbolWidth},
                     {"height", 12},
                     {"fill", "#000000"},
                     {"fill-opacity", 0.1}});
    break;
  }
}

void drawLegend(Writer &w, const std::vector<LegendEntry> &entries, double top) {
  if (entries.empty())
    return;
  auto [at, rows] = layoutLegend(entries, kPad, kWidth - kPad);
  w.open("g", {{"class", "legend"}});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    double cy = top + at[i].second * kLegendRow + kLegendRow / 2;
    drawSymbol(w, entries[i], at[i].first, cy);
    w.text("text", {{"x", at[i].first + kSymbolWidth + 5}, {"y", cy + 4}, {"fill", kInk}},
           entryName(entries[i]));
  }
  w.close();
}

// ------------------------------------------------------------------- axes

double maxLabelWidth(const Ticks &ticks) {
  double width = 0;
  for (const std::string &l : ticks.labels)
    width = std::max(width, svg::textWidth(l, svg::kFontSize));
  return width;
}

// The left margin that fits the y tick labels and the rotated axis label.
double leftMargin(const Ticks &yTicks, const std::string &yLabel) {
  return kPad + (yLabel.empty() ? 0 : 20) + maxLabelWidth(yTicks) + kTickLength + 6;
}

void drawXAxis(Writer &w, const Scale &sx, const Ticks &ticks, const Area &a,
               const std::string &label, bool grid) {
  if (grid) {
    w.open("g", {{"class", "grid"}, {"stroke", kGridColour}, {"stroke-width", 1}});
    for (double v : ticks.values)
      w.empty("line", {{"x1", sx(v)}, {"y1", a.top}, {"x2", sx(v)}, {"y2", a.bottom}});
    w.close();
  }
  w.open("g", {{"class", "axis x-axis"}, {"fill", kInk}});
  w.empty("line",
          {{"x1", a.left}, {"y1", a.bottom}, {"x2", a.right}, {"y2", a.bottom}, {"stroke", kInk}});
  for (std::size_t i = 0; i < ticks.values.size(); ++i) {
    double x = sx(ticks.values[i]);
    w.empty(
        "line",
        {{"x1", x}, {"y1", a.bottom}, {"x2", x}, {"y2", a.bottom + kTickLength}, {"stroke", kInk}});
    w.text("text", {{"x", x}, {"y", a.bottom + 17}, {"text-anchor", "middle"}}, ticks.labels[i]);
  }
  if (!label.empty())
    w.text("text",
           {{"class", "axis-label"},
            {"x", (a.left + a.right) / 2},
            {"y", a.bottom + 36},
            {"text-anchor", "middle"}},
           svg::fit(label, a.width(), svg::kFontSize));
  w.close();
}

void drawYAxis(Writer &w, const Scale &sy, const Ticks &ticks, const Area &a,
               const std::string &label) {
  w.open("g", {{"class", "grid"}, {"stroke", kGridColour}, {"stroke-width", 1}});
  for (double v : ticks.values)
    w.empty("line", {{"x1", a.left}, {"y1", sy(v)}, {"x2", a.right}, {"y2", sy(v)}});
  w.close();
  w.open("g", {{"class", "axis y-axis"}, {"fill", kInk}});
  w.empty("line",
          {{"x1", a.left}, {"y1", a.top}, {"x2", a.left}, {"y2", a.bottom}, {"stroke", kInk}});
  for (std::size_t i = 0; i < ticks.values.size(); ++i) {
    double y = sy(ticks.values[i]);
    w.empty("line",
            {{"x1", a.left - kTickLength}, {"y1", y}, {"x2", a.left}, {"y2", y}, {"stroke", kInk}});
    w.text("text", {{"x", a.left - kTickLength - 3}, {"y", y + 4}, {"text-anchor", "end"}},
           ticks.labels[i]);
  }
  if (!label.empty()) {
    double x = kPad + 10, y = (a.top + a.bottom) / 2;
    w.text("text",
           {{"class", "axis-label"},
            {"x", x},
            {"y", y},
            {"text-anchor", "middle"},
            {"transform", "rotate(-90 " + coord(x) + " " + coord(y) + ")"}},
           svg::fit(label, a.height(), svg::kFontSize));
  }
  w.close();
}

// A summary of values for a description: "12 values from 1.2 to 1.5 s".
std::string rangeWords(std::size_t n, double lo, double hi, const std::string &unit,
                       std::string_view noun = "values") {
  std::string s = std::to_string(n) + " " + std::string(noun);
  if (n == 1)
    return s + ", " + number(lo) + unitSuffix(unit);
  return s + " from " + number(lo) + " to " + number(hi) + unitSuffix(unit);
}

// -------------------------------------------------------------- forest plot

std::string boundWords(std::optional<double> lower, std::optional<double> upper) {
  auto one = [](std::optional<double> v) {
    return v && std::isfinite(*v) ? number(*v) : std::string("unbounded");
  };
  std::string words = "[";
  words += one(lower) + ", " + one(upper) + "]";
  return words;
}

// A small arrowhead at (x, y) pointing left (dir -1) or right (+1).
std::string arrowPath(double x, double y, int dir) {
  std::string d = "M";
  d += coord(x) + "," + coord(y) + "l" + coord(-dir * 6) + ",-4v8z";
  return d;
}

// One drawable row's intervals at height cy: Fieller's (a diamond for a
// suite row, a line with a square estimate otherwise; an arrow where a bound
// is open) and the bootstrap's thin bracket under it.
void drawForestIntervals(Writer &w, const ForestRow &r, const Scale &sx, const Area &a, double cy,
                         const std::string &colour0, const std::string &colour1) {
  // A bound that is missing, infinite or not positive runs to the edge.
  bool openLeft = !positive(r.lower), openRight = !(r.upper && std::isfinite(*r.upper));
  double lx = openLeft ? a.left : std::max(a.left, sx(*r.lower));
  double rx = openRight ? a.right : std::min(a.right, sx(*r.upper));
  double ex = sx(r.estimate);
  if (r.suiteRow) {
    w.empty("path",
            {{"class", "estimate ci fieller"},
             {"d", cat("M", coord(lx), ",", coord(cy), "L", coord(ex), ",", coord(cy - 7), "L",
                       coord(rx), ",", coord(cy), "L", coord(ex), ",", coord(cy + 7), "z")},
             {"fill", colour0}});
  } else {
    w.empty("line", {{"class", "ci fieller"},
                     {"x1", lx},
                     {"y1", cy},
                     {"x2", rx},
                     {"y2", cy},
                     {"stroke", colour0},
                     {"stroke-width", 2.5}});
    w.empty("path", {{"class", "estimate"},
                     {"d", svg::markerPath(svg::Marker::Square, ex, cy, 4.5)},
                     {"fill", colour0}});
  }
  if (openLeft)
    w.empty("path", {{"class", "unbounded"}, {"d", arrowPath(a.left, cy, -1)}, {"fill", colour0}});
  if (openRight)
    w.empty("path", {{"class", "unbounded"}, {"d", arrowPath(a.right, cy, 1)}, {"fill", colour0}});
  if (positive(r.bootLower) && positive(r.bootUpper)) {
    double by = cy + (r.suiteRow ? 10 : 7);
    double bl = sx(*r.bootLower), bu = sx(*r.bootUpper);
    w.empty("path", {{"class", "ci bootstrap"},
                     {"d", cat("M", coord(bl), ",", coord(by - 2), "v4M", coord(bl), ",", coord(by),
                               "H", coord(bu), "M", coord(bu), ",", coord(by - 2), "v4")},
                     {"fill", "none"},
                     {"stroke", colour1},
                     {"stroke-width", 1.2}});
  }
}

} // namespace

std::string noDataPlot(const PlotText &text, std::string_view cls) {
  Writer w;
  double height = 120;
  svg::openFigure(w, kWidth, height, std::string(cls) + " no-data",
                  text.title.empty() ? std::string("no data") : text.title,
                  descStart(text) + "No data to show.");
  drawTitle(w, text);
  w.text("text",
         {{"class", "no-data"},
          {"x", kWidth / 2},
          {"y", height / 2 + 14},
          {"text-anchor", "middle"},
          {"fill", kMuted},
          {"font-size", svg::kTitleFontSize}},
         "no data");
  return w.finish();
}

std::string forestPlot(const std::vector<ForestRow> &rows, double threshold, const PlotText &text) {
  const char *cls = "forest-plot";
  // Benchmarks first, then the suite rows below a rule, each in given order.
  std::vector<const ForestRow *> order;
  for (const ForestRow &r : rows)
    if (!r.suiteRow)
      order.push_back(&r);
  std::size_t benchmarks = order.size();
  for (const ForestRow &r : rows)
    if (r.suiteRow)
      order.push_back(&r);
  auto drawable = [](const ForestRow &r) { return std::isfinite(r.estimate) && r.estimate > 0; };
  if (std::none_of(rows.begin(), rows.end(), drawable))
    return noDataPlot(text, cls);
  bool band = threshold > 0 && threshold < 1;
  bool anyBoot = std::any_of(rows.begin(), rows.end(), [](const ForestRow &r) {
    return positive(r.bootLower) && positive(r.bootUpper);
  });

  // The ratio axis covers every finite bound, 1 and the band, padded a little.
  Extent e;
  e.add(1);
  if (band) {
    e.add(1 - threshold);
    e.add(1 + threshold);
  }
  for (const ForestRow &r : rows) {
    if (!drawable(r))
      continue;
    e.add(r.estimate);
    for (auto v : {r.lower, r.upper, r.bootLower, r.bootUpper})
      if (positive(v))
        e.add(*v);
  }
  double pad = std::max(std::log10(e.hi / e.lo) * 0.06, std::log10(1.002));
  double lo = e.lo / std::pow(10.0, pad), hi = e.hi * std::pow(10.0, pad);

  // Columns: labels, the plot, decisions.
  double labelWidth = 40, decisionWidth = 0;
  for (const ForestRow *r : order) {
    labelWidth = std::max(labelWidth, svg::textWidth(r->label, svg::kFontSize));
    decisionWidth = std::max(decisionWidth, svg::textWidth(r->decision, svg::kFontSize));
  }
  labelWidth = std::min(labelWidth, 200.0);
  decisionWidth = std::min(decisionWidth, 160.0);

  std::vector<LegendEntry> legend = {{"Fieller CI", 0, Symbol::ThickLine}};
  if (anyBoot)
    legend.push_back({"bootstrap CI", 1, Symbol::ThinLine});
  if (band)
    legend.push_back({"no change (±" + number(threshold * 100, 3) + "%)", 0, Symbol::Band});

  constexpr double kRow = 26, kSuiteGap = 14;
  double rowsTop = kLegendTop + legendHeight(legend) + 8;
  bool anySuite = order.size() > benchmarks;
  double rowsBottom = rowsTop + kRow * order.size() + (anySuite && benchmarks > 0 ? kSuiteGap : 0);
  Area a{kPad + labelWidth + 10, rowsTop,
         kWidth - kPad - 14 - (decisionWidth > 0 ? decisionWidth + 12 : 0), rowsBottom};
  double height = a.bottom + kXAxisMargin;
  Scale sx = Scale::log(lo, hi, a.left, a.right);
  Ticks ticks = sx.ticks(6);

  std::string desc = descStart(text) + "Ratios on a log scale, 1 meaning no difference";
  if (band)
    desc += "; the shaded band is the no-change range [" + number(1 - threshold) + ", " +
            number(1 + threshold) + "]";
  desc += ".";

  std::vector<std::string> words(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const ForestRow &r = *order[i];
    words[i] = r.label + ": ";
    if (drawable(r)) {
      words[i] += number(r.estimate) + ", Fieller CI " + boundWords(r.lower, r.upper);
      if (positive(r.bootLower) && positive(r.bootUpper))
        words[i] += ", bootstrap CI " + boundWords(r.bootLower, r.bootUpper);
    } else {
      words[i] += "no estimate";
    }
    if (!r.decision.empty())
      words[i] += ", " + r.decision;
    desc += " " + words[i] + ".";
  }

  Writer w;
  svg::openFigure(w, kWidth, height, cls, text.title, desc);
  drawTitle(w, text);
  drawLegend(w, legend, kLegendTop);
  // Grid, band and the line at 1 span the rows, under them.
  drawXAxis(w, sx, ticks, Area{a.left, a.top - 4, a.right, a.bottom},
            (text.xLabel.empty() ? std::string("ratio") : text.xLabel) + ", log scale", true);
  if (band)
    w.empty("rect", {{"class", "band"},
                     {"x", sx(1 - threshold)},
                     {"y", a.top - 4},
                     {"width", sx(1 + threshold) - sx(1 - threshold)},
                     {"height", a.bottom - a.top + 4},
                     {"fill", "#000000"},
                     {"fill-opacity", 0.1}});
  w.empty("line", {{"class", "ref-line"},
                   {"x1", sx(1)},
                   {"y1", a.top - 4},
                   {"x2", sx(1)},
                   {"y2", a.bottom},
                   {"stroke", kMuted},
                   {"stroke-width", 1}});
  if (anySuite && benchmarks > 0) {
    double y = rowsTop + kRow * benchmarks + kSuiteGap / 2;
    w.empty("line", {{"class", "separator"},
                     {"x1", kPad},
                     {"y1", y},
                     {"x2", kWidth - kPad},
                     {"y2", y},
                     {"stroke", kMuted},
                     {"stroke-width", 0.8}});
  }

  std::string colour0(svg::seriesColour(0)), colour1(svg::seriesColour(1));
  for (std::size_t i = 0; i < order.size(); ++i) {
    const ForestRow &r = *order[i];
    double cy = rowsTop + kRow * (i + 0.5) + (r.suiteRow && benchmarks > 0 ? kSuiteGap : 0);
    w.open("g", {{"class", r.suiteRow ? "row suite" : "row"}});
    w.text("title", {}, words[i]); // the row's tooltip
    w.text("text",
           {{"class", "row-label"},
            {"x", a.left - 10},
            {"y", cy + 4},
            {"text-anchor", "end"},
            {"fill", kInk},
            {"font-weight", r.suiteRow ? "600" : "400"}},
           svg::fit(r.label, labelWidth, svg::kFontSize));
    if (drawable(r)) {
      drawForestIntervals(w, r, sx, a, cy, colour0, colour1);
    } else {
      w.text("text",
             {{"class", "note"},
              {"x", (a.left + a.right) / 2},
              {"y", cy + 4},
              {"text-anchor", "middle"},
              {"fill", kMuted}},
             "no estimate");
    }
    if (!r.decision.empty())
      w.text("text", {{"class", "decision"}, {"x", a.right + 14}, {"y", cy + 4}, {"fill", kInk}},
             svg::fit(r.decision, decisionWidth, svg::kFontSize));
    w.close();
  }
  return w.finish();
}

namespace {

constexpr double kPlotHeight = 300; // of the plot area of x-y figures

// The frame of an x-y figure: the legend's rows under the title, a value
// axis over `y` widened to nice ticks, the plot area right of its labels and
// above the x axis.
struct XYFrame {
  std::vector<LegendEntry> legend;
  Ticks yTicks;
  std::string yLabel;
  Area area;
  Scale sy;
  double height; // of the figure; more for turned category labels
};

XYFrame xyFrame(std::vector<LegendEntry> legend, const Extent &y, const PlotText &text) {
  auto [lo, hi] = svg::niceDomain(y.lo, y.hi, 5);
  Ticks yTicks = Scale::linear(lo, hi, 0, 1).ticks(5);
  std::string yLabel = withUnit(text.yLabel, text.unit);
  double top = kLegendTop + legendHeight(legend) + 10;
  Area a{leftMargin(yTicks, yLabel), top, kWidth - kPad - 8, top + kPlotHeight};
  return {std::move(legend),
          std::move(yTicks),
          std::move(yLabel),
          a,
          Scale::linear(lo, hi, a.bottom, a.top),
          a.bottom + kXAxisMargin};
}

// The figure opened: title, legend, the value axis and its grid.
Writer openXY(const XYFrame &f, const char *cls, const PlotText &text, const std::string &desc) {
  Writer w;
  svg::openFigure(w, kWidth, f.height, cls, text.title, desc);
  drawTitle(w, text);
  drawLegend(w, f.legend, kLegendTop);
  drawYAxis(w, f.sy, f.yTicks, f.area, f.yLabel);
  return w;
}

std::vector<LegendEntry> systemLegend(std::size_t count, const std::vector<std::string> &names,
                                      Symbol symbol) {
  std::vector<LegendEntry> legend;
  for (std::size_t i = 0; i < count; ++i)
    legend.push_back({systemName(names, i), i, symbol});
  return legend;
}

constexpr double kTurn = 40 * std::numbers::pi / 180; // category labels that do not fit level
constexpr double kMaxTurnedLabel = 160;

// An interval drawn at x from y0 to y1, with caps.
void drawWhisker(Writer &w, double x, double y0, double y1, const std::string &colour) {
  w.empty("path", {{"class", "whisker"},
                   {"d", cat("M", coord(x), ",", coord(y0), "V", coord(y1), "M", coord(x - 3), ",",
                             coord(y0), "h6M", coord(x - 3), ",", coord(y1), "h6")},
                   {"stroke", colour},
                   {"stroke-width", 1.2},
                   {"fill", "none"}});
}

// An x axis of categories (builds, revisions), one band each: labels level
// if they fit their band, else turned 40 degrees, and only every k-th one
// when the bands are narrower than a line of text.
struct CategoryAxis {
  double bandWidth = 0, labelWidth = 0, extra = 0; // extra: height the turned labels take
  bool turned = false;
  std::size_t every = 1;
};

// The axis for `labels` in area `a`; grows the figure's `height` by the
// turned labels' height.
CategoryAxis categoryAxis(const std::vector<std::string> &labels, const Area &a, double &height) {
  CategoryAxis c;
  c.bandWidth = a.width() / std::max<std::size_t>(labels.size(), 1);
  for (const std::string &label : labels)
    c.labelWidth = std::max(c.labelWidth, svg::textWidth(label, svg::kFontSize));
  c.labelWidth = std::min(c.labelWidth, kMaxTurnedLabel);
  c.turned = c.labelWidth + 6 > c.bandWidth;
  c.every = c.turned ? static_cast<std::size_t>(std::ceil(14 / c.bandWidth)) : 1;
  c.extra = c.turned ? c.labelWidth * std::sin(kTurn) + 4 : 0;
  height += c.extra;
  return c;
}

void drawCategoryAxis(Writer &w, const CategoryAxis &c, const std::vector<std::string> &labels,
                      const Area &a, const std::string &xLabel) {
  w.open("g", {{"class", "axis x-axis"}, {"fill", kInk}});
  w.empty("line",
          {{"x1", a.left}, {"y1", a.bottom}, {"x2", a.right}, {"y2", a.bottom}, {"stroke", kInk}});
  for (std::size_t i = 0; i < labels.size(); i += c.every) {
    double x = a.left + c.bandWidth * (i + 0.5), ty = a.bottom + 16;
    std::string label = svg::fit(labels[i], c.labelWidth, svg::kFontSize);
    if (c.turned)
      w.text("text",
             {{"x", x},
              {"y", ty},
              {"text-anchor", "end"},
              {"transform", "rotate(-" + coord(kTurn * 180 / std::numbers::pi) + " " + coord(x) +
                                " " + coord(ty) + ")"}},
             label);
    else
      w.text("text", {{"x", x}, {"y", ty}, {"text-anchor", "middle"}}, label);
  }
  if (!xLabel.empty())
    w.text("text",
           {{"class", "axis-label"},
            {"x", (a.left + a.right) / 2},
            {"y", a.bottom + 36 + c.extra},
            {"text-anchor", "middle"}},
           svg::fit(xLabel, a.width(), svg::kFontSize));
  w.close();
}

} // namespace

std::string buildMeansPlot(const std::vector<BuildMeansSeries> &series, const PlotText &text) {
  const char *cls = "build-means-plot";
  Extent y;
  std::size_t maxBuilds = 0, skipped = 0;
  for (const BuildMeansSeries &s : series) {
    maxBuilds = std::max(maxBuilds, s.builds.size());
    for (const BuildMean &b : s.builds) {
      if (!finite(b.mean)) {
        ++skipped;
        continue;
      }
      y.add(b.mean);
      y.add(b.lower);
      y.add(b.upper);
    }
  }
  if (y.empty())
    return noDataPlot(text, cls);

  std::vector<std::string> names;
  for (const BuildMeansSeries &s : series)
    names.push_back(s.system);
  XYFrame f = xyFrame(systemLegend(series.size(), names, Symbol::Marker), y, text);
  const Area &a = f.area;
  const Scale &sy = f.sy;
  Scale sx = Scale::linear(0.5, maxBuilds + 0.5, a.left, a.right);
  Ticks xTicks = linearTicks(1, maxBuilds, 8, 1);

  std::string desc = descStart(text) + "Mean of each build with its interval, per system, " +
                     "by rank within the system.";
  for (const BuildMeansSeries &s : series) {
    Extent m;
    std::size_t n = 0;
    for (const BuildMean &b : s.builds)
      if (finite(b.mean)) {
        m.add(b.mean);
        ++n;
      }
    desc += " " + s.system + ": " +
            (n ? rangeWords(n, m.lo, m.hi, text.unit, n == 1 ? "build" : "builds")
               : std::string("no builds")) +
            ".";
  }
  desc += leftOut(skipped);

  Writer w = openXY(f, cls, text, desc);
  drawXAxis(w, sx, xTicks, a, text.xLabel.empty() ? std::string("rank") : text.xLabel, false);
  // Systems side by side at each rank, so that their whiskers do not overlap.
  double dodge = std::min(0.6 / std::max<std::size_t>(series.size(), 1), 0.2);
  for (std::size_t si = 0; si < series.size(); ++si) {
    const BuildMeansSeries &s = series[si];
    std::string colour(svg::seriesColour(si));
    w.open("g", {{"class", "series " + svg::seriesClass(si)}});
    for (std::size_t i = 0; i < s.builds.size(); ++i) {
      const BuildMean &b = s.builds[i];
      if (!finite(b.mean))
        continue;
      double x = sx(i + 1 + (si - (series.size() - 1) / 2.0) * dodge);
      w.open("g", {});
      w.text("title", {},
             s.system + ", " + b.label + ": " + number(b.mean) + unitSuffix(text.unit) +
                 (finite(b.lower) && finite(b.upper)
                      ? " [" + number(b.lower) + ", " + number(b.upper) + "]"
                      : std::string()));
      if (finite(b.lower) && finite(b.upper))
        drawWhisker(w, x, sy(b.lower), sy(b.upper), colour);
      svg::markerSeries(w, si, {{x, sy(b.mean)}}, 3.5);
      w.close();
    }
    w.close();
  }
  return w.finish();
}

std::string stripPlot(const std::vector<StripBuild> &builds,
                      const std::vector<std::string> &systems, const PlotText &text) {
  const char *cls = "strip-plot";
  Extent y;
  std::size_t skipped = 0, systemCount = systems.size(), total = 0;
  for (const StripBuild &b : builds) {
    systemCount = std::max(systemCount, seriesOfSystem(b.system, systems) + 1);
    for (double v : b.values) {
      if (finite(v))
        ++total;
      else
        ++skipped;
      y.add(v);
    }
  }
  if (y.empty())
    return noDataPlot(text, cls);

  XYFrame f = xyFrame(systemLegend(systemCount, systems, Symbol::Marker), y, text);
  const Area &a = f.area;

  std::vector<std::string> labels;
  for (const StripBuild &b : builds)
    labels.push_back(b.label);
  const CategoryAxis axis = categoryAxis(labels, a, f.height);
  const double bandWidth = axis.bandWidth;

  std::string desc =
      descStart(text) + std::to_string(builds.size()) + " builds, each with its values as dots.";
  for (std::size_t s = 0; s < systemCount; ++s) {
    Extent m;
    std::size_t n = 0, nb = 0;
    for (const StripBuild &b : builds)
      if (seriesOfSystem(b.system, systems) == s) {
        ++nb;
        for (double v : b.values)
          if (finite(v)) {
            m.add(v);
            ++n;
          }
      }
    if (nb)
      desc += cat(" ", systemName(systems, s), ": ", std::to_string(nb),
                  nb == 1 ? " build, " : " builds, ",
                  n ? rangeWords(n, m.lo, m.hi, text.unit) : std::string("no values"), ".");
  }
  desc += leftOut(skipped);

  Writer w = openXY(f, cls, text, desc);
  drawCategoryAxis(w, axis, labels, a, text.xLabel);

  // Jitter from the golden-ratio sequence of the value's index: spread
  // evenly, the same on every run, and no random generator to seed.
  double spread = std::min(bandWidth * 0.5, 28.0);
  double r = total > 600 ? 2 : 2.8;
  std::vector<std::vector<std::pair<double, double>>> xy(systemCount);
  for (std::size_t i = 0; i < builds.size(); ++i) {
    double centre = a.left + bandWidth * (i + 0.5);
    for (std::size_t j = 0; j < builds[i].values.size(); ++j) {
      double v = builds[i].values[j];
      if (!finite(v))
        continue;
      double u = std::fmod((j + 1) * 0.6180339887498949, 1.0) - 0.5;
      xy[seriesOfSystem(builds[i].system, systems)].push_back({centre + u * spread, f.sy(v)});
    }
  }
  for (std::size_t s = 0; s < systemCount; ++s)
    svg::markerSeries(w, s, xy[s], r);
  return w.finish();
}

std::string varianceSharesPlot(const std::vector<VarianceShares> &rows, const PlotText &text) {
  const char *cls = "variance-shares-plot";
  // One colour per level name, in order of first appearance.
  std::vector<std::string> levels;
  auto levelIndex = [&](const std::string &name) {
    auto it = std::find(levels.begin(), levels.end(), name);
    if (it == levels.end()) {
      levels.push_back(name);
      return levels.size() - 1;
    }
    return static_cast<std::size_t>(it - levels.begin());
  };
  auto usable = [](double share) { return std::isfinite(share) && share > 0; };
  std::vector<double> sums;
  bool any = false;
  for (const VarianceShares &r : rows) {
    double sum = 0;
    for (const VarianceShare &s : r.shares) {
      levelIndex(s.level);
      if (usable(s.share))
        sum += s.share;
    }
    sums.push_back(sum);
    any = any || sum > 0;
  }
  if (!any)
    return noDataPlot(text, cls);

  std::vector<LegendEntry> legend;
  for (std::size_t i = 0; i < levels.size(); ++i)
    legend.push_back({levels[i], i, Symbol::Swatch});
  double labelWidth = 30;
  for (const VarianceShares &r : rows)
    labelWidth = std::max(labelWidth, svg::textWidth(r.system, svg::kFontSize));
  labelWidth = std::min(labelWidth, 180.0);
  constexpr double kBar = 24, kGap = 12;
  double top = kLegendTop + legendHeight(legend) + 10;
  Area a{kPad + labelWidth + 10, top, kWidth - kPad - 12, top + rows.size() * (kBar + kGap)};
  Scale sx = Scale::linear(0, 1, a.left, a.right);
  Ticks ticks = linearTicks(0, 1, 5);
  for (std::size_t i = 0; i < ticks.values.size(); ++i)
    ticks.labels[i] = number(ticks.values[i] * 100, 3) + "%";

  auto percent = [](double part) { return number(part * 100, 2) + "%"; };
  std::string desc = descStart(text) + "Share of the variance at each level, per system.";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    desc += " " + rows[i].system + ":";
    if (sums[i] <= 0) {
      desc += " no data.";
      continue;
    }
    bool first = true;
    for (const VarianceShare &s : rows[i].shares) {
      desc += (first ? " " : ", ") + s.level + " " +
              (usable(s.share) ? percent(s.share / sums[i]) : std::string("0%"));
      first = false;
    }
    desc += ".";
  }

  Writer w;
  svg::openFigure(w, kWidth, a.bottom + kXAxisMargin, cls, text.title, desc);
  drawTitle(w, text);
  drawLegend(w, legend, kLegendTop);
  drawXAxis(w, sx, ticks, a, text.xLabel.empty() ? std::string("share of variance") : text.xLabel,
            true);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    double y = a.top + kGap / 2 + i * (kBar + kGap);
    w.open("g", {{"class", "bar"}});
    w.text("text",
           {{"class", "row-label"},
            {"x", a.left - 10},
            {"y", y + kBar / 2 + 4},
            {"text-anchor", "end"},
            {"fill", kInk}},
           svg::fit(rows[i].system, labelWidth, svg::kFontSize));
    if (sums[i] <= 0) {
      w.text("text",
             {{"class", "note"}, {"x", a.left + 6}, {"y", y + kBar / 2 + 4}, {"fill", kMuted}},
             "no data");
      w.close();
      continue;
    }
    double at = 0;
    for (const VarianceShare &s : rows[i].shares) {
      if (!usable(s.share))
        continue;
      double part = s.share / sums[i];
      std::size_t level = levelIndex(s.level);
      double x0 = sx(at), x1 = sx(at + part);
      at += part;
      w.open("g", {{"class", "segment " + svg::seriesClass(level)}});
      w.text("title", {}, rows[i].system + ", " + s.level + ": " + percent(part));
      w.empty("rect", {{"x", x0},
                       {"y", y},
                       {"width", x1 - x0},
                       {"height", kBar},
                       {"fill", svg::seriesColour(level)},
                       {"stroke", "#ffffff"},
                       {"stroke-width", 1}});
      std::string label = percent(part);
      if (svg::textWidth(label, svg::kFontSize) + 8 < x1 - x0)
        w.text("text",
               {{"x", (x0 + x1) / 2},
                {"y", y + kBar / 2 + 4},
                {"text-anchor", "middle"},
                {"fill", svg::textColourOn(level)}},
               label);
      w.close();
    }
    w.close();
  }
  return w.finish();
}

std::string driftPlot(const std::vector<DriftPoint> &points,
                      const std::vector<std::string> &systems, const PlotText &text) {
  const char *cls = "drift-plot";
  Extent x, y;
  std::size_t skipped = 0, systemCount = systems.size();
  for (const DriftPoint &p : points) {
    if (!finite(p.order) || !finite(p.value)) {
      ++skipped;
      continue;
    }
    x.add(p.order);
    y.add(p.value);
    systemCount = std::max(systemCount, seriesOfSystem(p.system, systems) + 1);
  }
  if (y.empty())
    return noDataPlot(text, cls);

  XYFrame f = xyFrame(systemLegend(systemCount, systems, Symbol::Marker), y, text);
  const Area &a = f.area;
  auto [xlo, xhi] = svg::niceDomain(x.lo, x.hi, 6);
  Scale sx = Scale::linear(xlo, xhi, a.left, a.right);

  std::vector<std::vector<std::pair<double, double>>> xy(systemCount);
  std::vector<Extent> perSystem(systemCount);
  for (const DriftPoint &p : points) {
    if (!finite(p.order) || !finite(p.value))
      continue;
    std::size_t series = seriesOfSystem(p.system, systems);
    xy[series].push_back({sx(p.order), f.sy(p.value)});
    perSystem[series].add(p.value);
  }
  std::string desc = descStart(text) + "Every measurement by its order in the campaign.";
  for (std::size_t s = 0; s < systemCount; ++s)
    if (!xy[s].empty())
      desc += cat(" ", systemName(systems, s), ": ",
                  rangeWords(xy[s].size(), perSystem[s].lo, perSystem[s].hi, text.unit), ".");
  desc += leftOut(skipped);

  Writer w = openXY(f, cls, text, desc);
  drawXAxis(w, sx, sx.ticks(6), a, text.xLabel.empty() ? std::string("order") : text.xLabel, false);
  double r = points.size() > 1000 ? 1.6 : 2.4;
  for (std::size_t s = 0; s < systemCount; ++s)
    svg::markerSeries(w, s, xy[s], r);
  return w.finish();
}

std::string warmupPlot(const std::vector<WarmupSeries> &series, std::optional<std::size_t> dropped,
                       const PlotText &text) {
  const char *cls = "warmup-plot";
  Extent y;
  std::size_t maxIterations = 0, skipped = 0;
  for (const WarmupSeries &s : series) {
    maxIterations = std::max(maxIterations, s.values.size());
    for (double v : s.values) {
      if (!finite(v))
        ++skipped;
      y.add(v);
    }
  }
  if (y.empty())
    return noDataPlot(text, cls);
  std::size_t cut = dropped.value_or(0);

  std::vector<std::string> names;
  for (const WarmupSeries &s : series)
    names.push_back(s.system);
  XYFrame f = xyFrame(systemLegend(series.size(), names, Symbol::LineMarker), y, text);
  const Area &a = f.area;
  const Scale &sy = f.sy;
  double xhi = std::max(maxIterations, cut) + 0.5;
  Scale sx = Scale::linear(0.5, xhi, a.left, a.right);

  std::string desc = descStart(text) + "Value of each iteration by its index, per system.";
  for (const WarmupSeries &s : series) {
    Extent m;
    std::size_t n = 0;
    double first = NAN, last = NAN;
    for (double v : s.values)
      if (finite(v)) {
        m.add(v);
        ++n;
        if (std::isnan(first))
          first = v;
        last = v;
      }
    desc += " " + s.system + ": ";
    if (n == 0)
      desc += "no values.";
    else
      desc += std::to_string(n) + (n == 1 ? " iteration" : " iterations") + ", first " +
              number(first) + ", last " + number(last) + ", lowest " + number(m.lo) + ", highest " +
              number(m.hi) + unitSuffix(text.unit) + ".";
  }
  if (cut > 0)
    desc += " The first " + std::to_string(cut) + (cut == 1 ? " iteration is" : " iterations are") +
            " dropped as warm-up.";
  desc += leftOut(skipped);

  Writer w = openXY(f, cls, text, desc);
  drawXAxis(w, sx, linearTicks(1, xhi - 0.5, 8, 1), a,
            text.xLabel.empty() ? std::string("iteration") : text.xLabel, false);
  if (cut > 0) {
    double x = sx(cut + 0.5);
    w.open("g", {{"class", "cutoff"}});
    w.empty("line", {{"x1", x},
                     {"y1", a.top},
                     {"x2", x},
                     {"y2", a.bottom},
                     {"stroke", kMuted},
                     {"stroke-width", 1.2},
                     {"stroke-dasharray", "4 3"}});
    w.text("text", {{"x", x + 4}, {"y", a.top + 12}, {"fill", kMuted}},
           "warm-up: " + std::to_string(cut) + " dropped");
    w.close();
  }
  for (std::size_t si = 0; si < series.size(); ++si) {
    const WarmupSeries &s = series[si];
    // A value that is not finite breaks the line: the next one moves to.
    std::string d;
    std::vector<std::pair<double, double>> xy;
    bool pen = false;
    for (std::size_t i = 0; i < s.values.size(); ++i) {
      if (!finite(s.values[i])) {
        pen = false;
        continue;
      }
      double px = sx(i + 1.0), py = sy(s.values[i]);
      d += pen ? "L" : "M";
      d += coord(px) + "," + coord(py);
      pen = true;
      xy.push_back({px, py});
    }
    w.open("g", {{"class", "series " + svg::seriesClass(si)}});
    w.empty("path", {{"class", "line"},
                     {"d", d},
                     {"fill", "none"},
                     {"stroke", svg::seriesColour(si)},
                     {"stroke-width", 1.5},
                     {"stroke-dasharray", svg::seriesDash(si)},
                     {"stroke-linejoin", "round"}});
    if (xy.size() <= 60) // markers help to tell lines apart, until they crowd
      svg::markerSeries(w, si, xy, 2.5);
    w.close();
  }
  return w.finish();
}

std::string trendPlot(const std::vector<TrendPoint> &points, const std::vector<TrendStep> &steps,
                      double threshold, const PlotText &text) {
  const char *cls = "trend-plot";
  const bool band = threshold > 0 && threshold < 1;
  Extent y;
  std::size_t skipped = 0;
  for (const TrendPoint &p : points) {
    if (!finite(p.ratio)) {
      ++skipped;
      continue;
    }
    y.add(p.ratio);
    y.add(p.lower);
    y.add(p.upper);
  }
  if (y.empty())
    return noDataPlot(text, cls);
  y.add(1); // the reference's level is always on the axis
  if (band) {
    y.add(1 - threshold);
    y.add(1 + threshold);
  }

  std::vector<LegendEntry> legend{{"ratio, with its interval", 0, Symbol::Marker}};
  if (band)
    legend.push_back({"no change (threshold)", 0, Symbol::Band});
  XYFrame f = xyFrame(std::move(legend), y, text);
  const Area &a = f.area;
  std::vector<std::string> labels;
  for (const TrendPoint &p : points)
    labels.push_back(p.label);
  const CategoryAxis axis = categoryAxis(labels, a, f.height);
  auto xOf = [&](std::size_t i) { return a.left + axis.bandWidth * (i + 0.5); };

  std::string desc = descStart(text) + "Ratio to the reference revision of each of " +
                     std::to_string(points.size()) + " revisions, oldest first.";
  for (const TrendPoint &p : points)
    if (finite(p.ratio))
      desc += " " + p.tooltip + ".";
  for (const TrendStep &s : steps)
    if (s.at > 0 && s.at < points.size())
      desc += " Step between " + points[s.at - 1].label + " and " + points[s.at].label + ": " +
              s.label + ".";
  if (steps.empty())
    desc += " No step.";
  desc += leftOut(skipped);

  Writer w = openXY(f, cls, text, desc);
  drawCategoryAxis(w, axis, labels, a, text.xLabel.empty() ? "revision" : text.xLabel);
  if (band)
    w.empty("rect", {{"class", "band"},
                     {"x", a.left},
                     {"y", f.sy(1 + threshold)},
                     {"width", a.width()},
                     {"height", f.sy(1 - threshold) - f.sy(1 + threshold)},
                     {"fill", "#000000"},
                     {"fill-opacity", 0.1}});
  w.empty("line", {{"class", "ref-line"},
                   {"x1", a.left},
                   {"y1", f.sy(1)},
                   {"x2", a.right},
                   {"y2", f.sy(1)},
                   {"stroke", kMuted},
                   {"stroke-width", 1}});
  // The steps: a dashed line between the two revisions, labelled at the top.
  w.open("g", {{"class", "steps"}, {"fill", kInk}});
  for (const TrendStep &s : steps) {
    if (s.at == 0 || s.at >= points.size())
      continue;
    const double x = a.left + axis.bandWidth * s.at;
    w.empty("line", {{"class", "step"},
                     {"x1", x},
                     {"y1", a.top},
                     {"x2", x},
                     {"y2", a.bottom},
                     {"stroke", kInk},
                     {"stroke-width", 1.2},
                     {"stroke-dasharray", "5 3"}});
    w.text("text", {{"x", x + 4}, {"y", a.top + 12}, {"text-anchor", "start"}},
           svg::fit(s.label, std::max(a.right - x - 8, 40.0), svg::kFontSize));
  }
  w.close();
  // The trend: the points joined in order, then whiskers and markers.
  std::string colour(svg::seriesColour(0));
  std::string path;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (finite(points[i].ratio))
      path += cat(path.empty() ? "M" : "L", coord(xOf(i)), ",", coord(f.sy(points[i].ratio)));
  w.open("g", {{"class", "series " + svg::seriesClass(0)}});
  w.empty("path", {{"class", "trend"},
                   {"d", path},
                   {"stroke", colour},
                   {"stroke-width", 1.2},
                   {"fill", "none"}});
  for (std::size_t i = 0; i < points.size(); ++i) {
    const TrendPoint &p = points[i];
    if (!finite(p.ratio))
      continue;
    const double x = xOf(i);
    w.open("g", {});
    w.text("title", {}, p.tooltip);
    if (finite(p.lower) && finite(p.upper))
      drawWhisker(w, x, f.sy(p.lower), f.sy(p.upper), colour);
    svg::markerSeries(w, 0, {{x, f.sy(p.ratio)}}, 3.5);
    w.close();
  }
  w.close();
  return w.finish();
}

} // namespace alea::report
