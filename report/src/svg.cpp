// The SVG writer (svg.hpp): escaping, number formatting, ticks, scales, the
// series style table and the figure's root element. Numbers are written with
// std::to_chars, which ignores the C locale (a "," decimal separator would
// break every coordinate).
#include "alea/report/svg.hpp"

#include "alea/report/escape.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace alea::report::svg {

namespace {

// v in fixed notation with `decimals` decimals, "-0" written as "0", and
// with `trim` the trailing zeros (and a bare point) removed.
std::string fixed(double v, int decimals, bool trim = true) {
  char buf[400];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed,
                                 std::clamp(decimals, 0, 17));
  if (ec != std::errc())
    return "0";
  std::string s(buf, end);
  if (trim && s.find('.') != std::string::npos) {
    while (s.back() == '0')
      s.pop_back();
    if (s.back() == '.')
      s.pop_back();
  }
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-')
    s.erase(0, 1); // "-0", "-0.00"
  return s;
}

// The number of decimals that shows every multiple of `step` exactly
// (0 for steps of 1 and more; 2 for 0.05).
int decimalsFor(double step) {
  if (!(step > 0) || step >= 1)
    return 0;
  return static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
}

// Labels of ticks `step` apart: fixed decimals for everyday magnitudes, else
// the significant digits that tell neighbouring ticks apart.
std::vector<std::string> tickLabels(const std::vector<double> &values, double step) {
  double top = 0;
  for (double v : values)
    top = std::max(top, std::fabs(v));
  bool everyday = step >= 1e-5 && top < 1e15;
  int digits = 1;
  if (!everyday && top > 0)
    digits = std::clamp(
        static_cast<int>(std::floor(std::log10(top)) - std::floor(std::log10(step))) + 1, 1, 15);
  std::vector<std::string> labels;
  for (double v : values)
    labels.push_back(everyday ? fixed(v, decimalsFor(step), false) : number(v, digits));
  return labels;
}

} // namespace

// ------------------------------------------------------------------ text

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    auto [cp, len] = decodeUtf8(text, i);
    std::string_view bytes = text.substr(i, len);
    i += len;
    switch (cp) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF)
        break; // not allowed anywhere in an XML 1.0 document
      // A valid sequence as it is; a bad byte (decoded as U+FFFD) replaced.
      out += cp == 0xFFFD && len == 1 ? std::string_view("\xEF\xBF\xBD") : bytes;
    }
  }
  return out;
}

double textWidth(std::string_view text, double fontSize) {
  // Advance widths in em, rounded up from DejaVu Sans (what system-ui falls
  // back to on Debian, and wider than the macOS and Windows system fonts):
  // an estimate that errs towards room to spare.
  double em = 0;
  for (std::size_t i = 0; i < text.size();) {
    auto [cp, len] = decodeUtf8(text, i);
    i += len;
    auto in = [cp](std::string_view set) {
      return cp < 0x80 && set.find(static_cast<char>(cp)) != std::string_view::npos;
    };
    if (in("iljtfr.,:;'|!()[] "))
      em += 0.36;
    else if (in("mwMW%@"))
      em += 0.96;
    else if (in("<>=+~&#"))
      em += 0.84;
    else if (in("\""))
      em += 0.46;
    else if (cp >= 'A' && cp <= 'Z')
      em += 0.74;
    else if (cp >= 0x2E80) // CJK and other wide scripts
      em += 1.0;
    else
      em += 0.64;
  }
  return em * fontSize;
}

std::string shorten(std::string_view text, std::size_t maxChars) {
  std::size_t count = 0, i = 0;
  while (i < text.size() && count < maxChars) {
    i += decodeUtf8(text, i).second;
    ++count;
  }
  if (i >= text.size())
    return std::string(text);
  // Cut one code point earlier to make room for the ellipsis.
  std::size_t cut = 0, kept = 0;
  while (kept + 1 < maxChars) {
    cut += decodeUtf8(text, cut).second;
    ++kept;
  }
  return std::string(text.substr(0, cut)) + "…";
}

std::string fit(std::string_view text, double maxWidth, double fontSize) {
  if (textWidth(text, fontSize) <= maxWidth)
    return std::string(text);
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); i += decodeUtf8(text, i).second)
    ++chars;
  for (std::size_t keep = chars - 1; keep > 1; --keep) {
    std::string s = shorten(text, keep);
    if (textWidth(s, fontSize) <= maxWidth)
      return s;
  }
  return shorten(text, 2); // one character and the ellipsis
}

// ---------------------------------------------------------------- numbers

std::string coord(double v) {
  if (!std::isfinite(v))
    v = 0;
  // Far outside any figure; keeps a runaway value from writing 300 digits.
  v = std::clamp(v, -1e7, 1e7);
  return fixed(v, 2);
}

std::string number(double v, int digits) {
  if (!std::isfinite(v))
    return "n/a";
  if (v == 0)
    return "0";
  digits = std::clamp(digits, 1, 17);
  int exponent = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  if (exponent >= -5 && exponent < 15) {
    // Round to the significant digits first: 9.99996 with 4 digits is "10".
    return fixed(v, std::max(0, digits - 1 - exponent));
  }
  char buf[64];
  auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, digits - 1);
  return ec == std::errc() ? std::string(buf, end) : "n/a";
}

// ------------------------------------------------------------------ ticks

double niceStep(double span, int target) {
  if (!(span > 0) || !std::isfinite(span))
    return 1;
  double raw = span / std::max(target, 1);
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double f = raw / magnitude;
  // Closest in ratio: the boundaries are the geometric means of 1-2-5-10.
  double nice = f < std::sqrt(2.0) ? 1 : f < std::sqrt(10.0) ? 2 : f < std::sqrt(50.0) ? 5 : 10;
  return nice * magnitude;
}

Ticks linearTicks(double lo, double hi, int target, double minStep) {
  Ticks t;
  if (!std::isfinite(lo) || !std::isfinite(hi))
    return t;
  if (lo > hi)
    std::swap(lo, hi);
  double step = std::max(niceStep(hi - lo, target), minStep);
  // Multiples of the step as k * step (no accumulated error), with a little
  // slack so that a bound equal to a tick up to rounding keeps it.
  double k0 = std::ceil(lo / step - 1e-9), k1 = std::floor(hi / step + 1e-9);
  if (!(k1 - k0 < 1000))
    return t;
  for (double k = k0; k <= k1; ++k)
    t.values.push_back(k == 0 ? 0.0 : k * step);
  t.labels = tickLabels(t.values, step);
  return t;
}

Ticks logTicks(double lo, double hi, int target) {
  Ticks t;
  if (!(lo > 0) || !(hi >= lo) || !std::isfinite(hi))
    return t;
  if (hi / lo < 10)
    return linearTicks(lo, hi, target);
  int e0 = static_cast<int>(std::floor(std::log10(lo)));
  int e1 = static_cast<int>(std::ceil(std::log10(hi)));
  auto collect = [&](std::initializer_list<double> mantissas, int everyDecade) {
    std::vector<double> values;
    for (int e = e0; e <= e1; ++e) {
      if ((e - e0) % everyDecade != 0)
        continue;
      for (double m : mantissas) {
        double v = m * std::pow(10.0, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
          values.push_back(v);
      }
    }
    return values;
  };
  t.values = collect({1, 2, 5}, 1);
  if (t.values.size() > static_cast<std::size_t>(2 * target))
    t.values = collect({1}, 1);
  for (int every = 2; t.values.size() > static_cast<std::size_t>(2 * target); ++every)
    t.values = collect({1}, every);
  for (double v : t.values)
    t.labels.push_back(number(v, 3));
  return t;
}

std::pair<double, double> niceDomain(double lo, double hi, int target, double minStep) {
  if (!std::isfinite(lo) || !std::isfinite(hi))
    return {0, 1};
  if (lo > hi)
    std::swap(lo, hi);
  if (hi - lo <= std::fabs(hi) * 1e-12) {
    double pad = lo == 0 ? 1 : std::fabs(lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  double step = std::max(niceStep(hi - lo, target), minStep);
  return {std::floor(lo / step + 1e-9) * step, std::ceil(hi / step - 1e-9) * step};
}

// ----------------------------------------------------------------- scales

Scale::Scale(bool log, double d0, double d1, double r0, double r1)
    : log_(log), d0_(d0), d1_(d1), r0_(r0), r1_(r1) {
  valid_ = std::isfinite(d0) && std::isfinite(d1) && std::isfinite(r0) && std::isfinite(r1) &&
           d0 != d1 && (!log || (d0 > 0 && d1 > 0));
  t0_ = valid_ ? (log ? std::log10(d0) : d0) : 0;
  span_ = valid_ ? (log ? std::log10(d1) : d1) - t0_ : 1;
  valid_ = valid_ && span_ != 0 && std::isfinite(span_);
}

Scale Scale::linear(double d0, double d1, double r0, double r1) {
  return Scale(false, d0, d1, r0, r1);
}

Scale Scale::log(double d0, double d1, double r0, double r1) { return Scale(true, d0, d1, r0, r1); }

double Scale::operator()(double v) const {
  if (!valid_ || std::isnan(v))
    return (r0_ + r1_) / 2;
  if (log_ && v <= 0)
    return r0_; // no place on a log axis: its start
  if (std::isinf(v))
    return v > 0 ? r1_ : r0_;
  double t = log_ ? std::log10(v) : v;
  return r0_ + (t - t0_) / span_ * (r1_ - r0_);
}

Ticks Scale::ticks(int target, double minStep) const {
  return log_ ? logTicks(std::min(d0_, d1_), std::max(d0_, d1_), target)
              : linearTicks(d0_, d1_, target, minStep);
}

// ---------------------------------------------------------------- writer

void Writer::startTag(std::string_view tag, Attrs attrs) {
  out_ += '<';
  out_ += tag;
  for (const Attr &a : attrs) {
    out_ += ' ';
    out_ += a.name;
    out_ += "=\"";
    out_ += escape(a.value);
    out_ += '"';
  }
}

Writer &Writer::open(std::string_view tag, Attrs attrs) {
  startTag(tag, attrs);
  out_ += ">\n";
  open_.emplace_back(tag);
  return *this;
}

Writer &Writer::close() {
  if (!open_.empty()) {
    out_ += "</" + open_.back() + ">\n";
    open_.pop_back();
  }
  return *this;
}

Writer &Writer::empty(std::string_view tag, Attrs attrs) {
  startTag(tag, attrs);
  out_ += "/>\n";
  return *this;
}

Writer &Writer::text(std::string_view tag, Attrs attrs, std::string_view content) {
  startTag(tag, attrs);
  out_ += '>';
  out_ += escape(content);
  out_ += "</";
  out_ += tag;
  out_ += ">\n";
  return *this;
}

std::string Writer::finish() {
  while (!open_.empty())
    close();
  return std::move(out_);
}

// ----------------------------------------------------------------- style

std::string_view seriesColour(std::size_t series) { return kPalette[series % kSeriesCount]; }

std::string seriesClass(std::size_t series) {
  return "series-" + std::to_string(series % kSeriesCount);
}

std::string_view textColourOn(std::size_t series) {
  // Okabe-Ito blue, vermillion, green and black are dark; the others light.
  switch (series % kSeriesCount) {
  case 0:
  case 1:
  case 2:
  case 7:
    return "#ffffff";
  default:
    return "#000000";
  }
}

std::string_view seriesDash(std::size_t series) {
  static constexpr std::array<std::string_view, kSeriesCount> dashes = {
      "", "6 3", "2 2", "8 3 2 3", "4 4", "1 3", "10 4", "6 2 2 2"};
  return dashes[series % kSeriesCount];
}

Marker seriesMarker(std::size_t series) { return static_cast<Marker>(series % 4); }

bool seriesMarkerHollow(std::size_t series) { return series % kSeriesCount >= 4; }

std::string markerPath(Marker shape, double x, double y, double r) {
  switch (shape) {
  case Marker::Circle:
    return cat("M", coord(x - r), ",", coord(y), "a", coord(r), ",", coord(r), " 0 1 0 ",
               coord(2 * r), ",0a", coord(r), ",", coord(r), " 0 1 0 ", coord(-2 * r), ",0z");
  case Marker::Square: {
    double s = 0.9 * r; // the same ink as the circle, roughly
    return cat("M", coord(x - s), ",", coord(y - s), "h", coord(2 * s), "v", coord(2 * s), "h",
               coord(-2 * s), "z");
  }
  case Marker::Triangle: {
    double R = 1.25 * r;
    return cat("M", coord(x), ",", coord(y - R), "l", coord(0.866 * R), ",", coord(1.5 * R), "h",
               coord(-1.732 * R), "z");
  }
  case Marker::Diamond: {
    double R = 1.3 * r;
    return cat("M", coord(x), ",", coord(y - R), "l", coord(R), ",", coord(R), "l", coord(-R), ",",
               coord(R), "l", coord(-R), ",", coord(-R), "z");
  }
  }
  return "";
}

void markerSeries(Writer &w, std::size_t series, const std::vector<std::pair<double, double>> &xy,
                  double r, std::string_view cls) {
  if (xy.empty())
    return;
  std::string d;
  std::string colour(seriesColour(series));
  std::string classes = std::string(cls) + " " + seriesClass(series);
  if (seriesMarker(series) == Marker::Circle && !seriesMarkerHollow(series)) {
    // A zero-length segment with a round cap is a dot: 12 bytes a point
    // instead of 50 for two arcs, which matters at 5000 points.
    d.reserve(xy.size() * 14);
    for (auto [x, y] : xy)
      d += cat("M", coord(x), " ", coord(y), "h0");
    w.empty("path", {{"class", classes},
                     {"d", d},
                     {"fill", "none"},
                     {"stroke", colour},
                     {"stroke-width", 2 * r},
                     {"stroke-linecap", "round"}});
    return;
  }
  d.reserve(xy.size() * 24);
  for (auto [x, y] : xy)
    d += markerPath(seriesMarker(series), x, y, r);
  bool hollow = seriesMarkerHollow(series);
  w.empty("path", {{"class", classes},
                   {"d", d},
                   {"fill", hollow ? std::string("#ffffff") : colour},
                   {"stroke", colour},
                   {"stroke-width", hollow ? 1.3 : 0.5}});
}

// --------------------------------------------------------------- document

void openFigure(Writer &w, double width, double height, std::string_view cls,
                std::string_view title, std::string_view desc) {
  w.open("svg", {{"xmlns", "http://www.w3.org/2000/svg"},
                 {"viewBox", "0 0 " + coord(width) + " " + coord(height)},
                 {"width", "100%"},
                 {"role", "img"},
                 {"class", "alea-plot " + std::string(cls)},
                 {"font-family", kFontFamily},
                 {"font-size", kFontSize}});
  w.text("title", {}, title);
  w.text("desc", {}, desc);
  // An opaque background: readable on a dark page and when saved as an image.
  w.empty("rect",
          {{"class", "background"}, {"width", width}, {"height", height}, {"fill", "#ffffff"}});
}

std::string standalone(std::string_view svg) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  std::size_t rootEnd = svg.find('>', svg.find("<svg"));
  std::string_view root = svg.substr(0, rootEnd);
  std::size_t width = root.find("width=\"100%\"");
  std::size_t box = root.find("viewBox=\"0 0 ");
  std::size_t start = box + std::string_view("viewBox=\"0 0 ").size();
  std::string_view size =
      box == std::string_view::npos ? "" : root.substr(start, root.find('"', start) - start);
  std::size_t space = size.find(' ');
  if (rootEnd == std::string_view::npos || width == std::string_view::npos ||
      space == std::string_view::npos) {
    out += svg; // not one of ours: keep it as it is
  } else {
    out += svg.substr(0, width);
    out += "width=\"" + std::string(size.substr(0, space)) + "\" height=\"" +
           std::string(size.substr(space + 1)) + "\"";
    out += svg.substr(width + std::string_view("width=\"100%\"").size());
  }
  if (out.back() != '\n')
    out += '\n';
  return out;
}

} // namespace alea::report::svg
