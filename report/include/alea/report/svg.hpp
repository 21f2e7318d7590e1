// The small SVG writer under alea's report plots (plots.hpp): elements and
// attributes with XML escaping that keeps any label well-formed, numbers for
// coordinates and for people, "nice" 1-2-5 axis ticks, linear and log scales,
// the Okabe-Ito colour-blind-safe palette with a marker shape and a dash
// pattern per series (so a figure still reads when printed in grey), and the
// root element every figure shares. Our own because a self-contained report
// cannot embed a plotting library's JavaScript, and Debian packages no C++ SVG
// plotting library worth the dependency. Pure: strings in, strings out.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace alea::report::svg {

// ------------------------------------------------------------------ text

// Escapes text for XML character data and attribute values (& < > " '),
// replaces invalid UTF-8 with U+FFFD and drops the control characters XML 1.0
// forbids, so that no benchmark or system name can break the document.
std::string escape(std::string_view text);

// The approximate width in px of `text` at `fontSize` in a system-ui font:
// layout only (margins, whether a label fits), never exact.
double textWidth(std::string_view text, double fontSize);

// `text` cut to at most `maxChars` code points, with "…" when cut.
std::string shorten(std::string_view text, std::size_t maxChars);

// `text` shortened (ending in "…") until its estimated width is at most
// `maxWidth`; at least its first character and the ellipsis.
std::string fit(std::string_view text, double maxWidth, double fontSize);

// The parts appended into one string. (Also because GCC 12 warns, wrongly,
// about "literal" + std::string&&: -Wrestrict, GCC bug 105651.)
template <class... Parts> std::string cat(const Parts &...parts) {
  std::string s;
  (s.append(std::string_view(parts)), ...);
  return s;
}

// ---------------------------------------------------------------- numbers

// A coordinate: fixed with at most two decimals, trailing zeros trimmed
// ("12.5", "3", "-0.25"), never "-0"; a non-finite value (a bug upstream) is
// written as 0 so the document stays valid.
std::string coord(double v);

// A value for people (descriptions, tooltips): rounded to `digits`
// significant digits (an integer part is never rounded: 123456 stays), no
// exponent between 1e-5 and 1e15, trailing zeros trimmed; "n/a" if not finite.
std::string number(double v, int digits = 4);

// ------------------------------------------------------------------ ticks

// Axis ticks: ascending values inside the range and their labels, written
// with one number of decimals for the whole axis (0.90, 0.95, 1.00).
struct Ticks {
  std::vector<double> values;
  std::vector<std::string> labels;
};

// The 1, 2 or 5 × 10^k step closest to span / target (target = about how many
// intervals the axis should have); 1 for a span that is zero or not finite.
double niceStep(double span, int target);

// Every multiple of niceStep(hi - lo, target) in [lo, hi]; with `minStep`,
// never a finer step (1 keeps an axis of ranks or iteration indices integral).
Ticks linearTicks(double lo, double hi, int target = 5, double minStep = 0);

// Ticks for a positive range shown on a log scale. Within less than about a
// decade (ratios: 0.9 to 1.1) these are linear nice ticks, which a reader
// reads as ratios; over wider ranges the 1-2-5 values of each decade, thinned
// to one per decade if there are too many. Empty for a range that is not positive.
Ticks logTicks(double lo, double hi, int target = 5);

// [lo, hi] widened outward to multiples of niceStep (an axis that starts and
// ends on a tick); a zero-width range is first widened around its value.
std::pair<double, double> niceDomain(double lo, double hi, int target = 5, double minStep = 0);

// ----------------------------------------------------------------- scales

// A map from a data domain to a pixel range (the range may be reversed, as a
// y axis is). A domain that is empty, not finite, or not positive on a log
// scale maps every value to the middle of the range: nothing divides by zero.
class Scale {
public:
  static Scale linear(double d0, double d1, double r0, double r1);
  static Scale log(double d0, double d1, double r0, double r1);

  double operator()(double v) const;
  bool isLog() const { return log_; }
  double domainLo() const { return d0_; }
  double domainHi() const { return d1_; }
  double rangeLo() const { return r0_; }
  double rangeHi() const { return r1_; }
  // linearTicks or logTicks over the domain.
  Ticks ticks(int target = 5, double minStep = 0) const;

private:
  Scale(bool log, double d0, double d1, double r0, double r1);
  bool log_;
  double d0_, d1_, r0_, r1_;
  bool valid_;
  double t0_, span_; // the domain in transformed (log10 or identity) space
};

// ---------------------------------------------------------------- writer

// One attribute; its value is escaped when written. Numbers are coordinates.
struct Attr {
  Attr(std::string_view n, std::string_view v) : name(n), value(v) {}
  Attr(std::string_view n, const char *v) : name(n), value(v) {}
  Attr(std::string_view n, const std::string &v) : name(n), value(v) {}
  Attr(std::string_view n, double v) : name(n), value(coord(v)) {}
  Attr(std::string_view n, int v) : name(n), value(std::to_string(v)) {}
  std::string_view name;
  std::string value;
};
using Attrs = std::initializer_list<Attr>;

// Writes elements one per line, escaping attribute values and text.
class Writer {
public:
  Writer &open(std::string_view tag, Attrs attrs = {});
  Writer &close();
  Writer &empty(std::string_view tag, Attrs attrs);
  Writer &text(std::string_view tag, Attrs attrs, std::string_view content);
  // The document, with any element still open closed.
  std::string finish();

private:
  void startTag(std::string_view tag, Attrs attrs);
  std::string out_;
  std::vector<std::string> open_;
};

// ----------------------------------------------------------------- style

// Okabe & Ito (2008), "Color Universal Design": eight colours told apart with
// every common colour-vision deficiency, ordered so the first ones differ most
// in lightness too. Series i uses colour i % 8 and CSS class "series-<i % 8>".
inline constexpr std::array<std::string_view, 8> kPalette = {
    "#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"};
inline constexpr std::size_t kSeriesCount = kPalette.size();

// The stack of fonts every browser and system has: no font is downloaded.
inline constexpr std::string_view kFontFamily =
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
inline constexpr double kFontSize = 12;
inline constexpr double kTitleFontSize = 14;

std::string_view seriesColour(std::size_t series);
std::string seriesClass(std::size_t series); // "series-3"
// A text colour readable on the series colour (white on the dark ones).
std::string_view textColourOn(std::size_t series);
// The dash pattern of series i's lines ("" for solid), for grey print.
std::string_view seriesDash(std::size_t series);

// Marker shapes, one per series (series i: shape i % 8): four filled shapes,
// then the same four hollow, so that two series differ without colour.
enum class Marker { Circle, Square, Triangle, Diamond };
Marker seriesMarker(std::size_t series);
bool seriesMarkerHollow(std::size_t series);
// Path data (one closed subpath) of `shape` centred on (x, y), radius ≈ r.
std::string markerPath(Marker shape, double x, double y, double r);

// Writes all the markers of one series as one <path> (a figure of 5000
// points stays small): filled or hollow per the series, with `cls` added.
void markerSeries(Writer &w, std::size_t series, const std::vector<std::pair<double, double>> &xy,
                  double r, std::string_view cls = "marker");

// --------------------------------------------------------------- document

// Opens the root element of a figure of width × height user units:
// xmlns, viewBox, width="100%" (it scales with its container, a phone's
// too), role="img", class="alea-plot <cls>", the font, then <title> and
// <desc> (the figure's text alternative). Close it with w.finish().
void openFigure(Writer &w, double width, double height, std::string_view cls,
                std::string_view title, std::string_view desc);

// A figure as a standalone .svg file: the XML declaration, and the width and
// height of its viewBox instead of width="100%" (a paper needs a size).
std::string standalone(std::string_view svg);

} // namespace alea::report::svg
