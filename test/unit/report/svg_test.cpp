// The SVG writer (svg.hpp): escaping of markup and broken UTF-8, numbers for
// coordinates and for people, 1-2-5 ticks on linear and log axes, nice axis
// ends, scales (and what they do with a degenerate domain), the element
// writer, the series styles and the standalone-file form.
#include "alea/report/svg.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

using namespace alea::report::svg;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const std::string kReplacement = "\xEF\xBF\xBD"; // U+FFFD

std::vector<std::string> labels(std::initializer_list<const char *> l) {
  return {l.begin(), l.end()};
}

} // namespace

TEST(SvgEscape, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(escape("<a & 'b'>\"c\""), "&lt;a &amp; &#39;b&#39;&gt;&quot;c&quot;");
  EXPECT_EQ(escape("&amp;"), "&amp;amp;"); // text, not markup: escaped again
  EXPECT_EQ(escape(""), "");
}

TEST(SvgEscape, ControlCharactersXmlForbidsAreDropped) {
  EXPECT_EQ(escape(std::string("a\x01"
                               "b\x1f"
                               "c",
                               5)),
            "abc");
  EXPECT_EQ(escape(std::string("a\0b", 3)), "ab");
  EXPECT_EQ(escape("tab\tnew\nline\r"), "tab\tnew\nline\r"); // allowed in XML
  EXPECT_EQ(escape("\xEF\xBF\xBE"), "");                     // U+FFFE is not a character
}

TEST(SvgEscape, ValidUtf8IsKept) { EXPECT_EQ(escape("é € 😀 日本"), "é € 😀 日本"); }

TEST(SvgEscape, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(escape("a\xff"
                   "b"),
            "a" + kReplacement + "b");
  EXPECT_EQ(escape("\xC0\xAF"), kReplacement + kReplacement);                    // overlong '/'
  EXPECT_EQ(escape("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement); // surrogate
  EXPECT_EQ(escape("\xE2\x82"), kReplacement + kReplacement);                    // cut short
  EXPECT_EQ(escape("\xF4\x90\x80\x80").substr(0, 3), kReplacement);              // > U+10FFFF
}

TEST(SvgText, TruncateCountsCodePointsAndAddsAnEllipsis) {
  EXPECT_EQ(shorten("abcdef", 4), "abc…");
  EXPECT_EQ(shorten("abcd", 4), "abcd");
  EXPECT_EQ(shorten("ééééé", 3), "éé…");
  EXPECT_EQ(shorten("", 3), "");
}

TEST(SvgText, FitShortensUntilTheEstimateFits) {
  EXPECT_EQ(fit("short", 1000, 12), "short");
  std::string cut = fit("a rather long benchmark name", 80, 12);
  EXPECT_TRUE(cut.ends_with("…"));
  EXPECT_LE(textWidth(cut, 12), 80);
  EXPECT_GT(textWidth(fit("a rather long benchmark name", 120, 12), 12), textWidth(cut, 12));
  EXPECT_EQ(fit("abc", 1, 12), "a…"); // never less than one character
}

TEST(SvgText, WidthGrowsWithTheTextAndTheFont) {
  EXPECT_EQ(textWidth("", 12), 0);
  EXPECT_GT(textWidth("mmmm", 12), textWidth("iiii", 12));
  EXPECT_GT(textWidth("abcdef", 12), textWidth("abc", 12));
  EXPECT_DOUBLE_EQ(textWidth("abc", 24), 2 * textWidth("abc", 12));
}

TEST(SvgNumbers, CoordinatesHaveAtMostTwoDecimals) {
  EXPECT_EQ(coord(12.5), "12.5");
  EXPECT_EQ(coord(3.0), "3");
  EXPECT_EQ(coord(2.345678), "2.35");
  EXPECT_EQ(coord(-0.25), "-0.25");
  EXPECT_EQ(coord(-0.001), "0"); // never "-0"
  EXPECT_EQ(coord(0.0), "0");
}

TEST(SvgNumbers, NonFiniteOrRunawayCoordinatesStayValidNumbers) {
  EXPECT_EQ(coord(kNaN), "0");
  EXPECT_EQ(coord(kInf), "0");
  EXPECT_EQ(coord(1e300), "10000000");
  EXPECT_EQ(coord(-1e300), "-10000000");
}

TEST(SvgNumbers, ValuesForPeopleHaveSignificantDigits) {
  EXPECT_EQ(number(0.962), "0.962");
  EXPECT_EQ(number(0.96213), "0.9621");
  EXPECT_EQ(number(1234.5678), "1235");
  EXPECT_EQ(number(123456.7), "123457"); // the integer part is kept
  EXPECT_EQ(number(9.99996), "10");
  EXPECT_EQ(number(-0.5), "-0.5");
  EXPECT_EQ(number(0.00012346), "0.0001235");
  EXPECT_EQ(number(0), "0");
  EXPECT_EQ(number(2.5e-9, 2), "2.5e-09");
  EXPECT_EQ(number(3e20, 3), "3.00e+20");
  EXPECT_EQ(number(kNaN), "n/a");
  EXPECT_EQ(number(-kInf), "n/a");
}

TEST(SvgTicks, NiceStepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(niceStep(10, 5), 2);
  EXPECT_DOUBLE_EQ(niceStep(1, 5), 0.2);
  EXPECT_DOUBLE_EQ(niceStep(0.1, 4), 0.02);
  EXPECT_DOUBLE_EQ(niceStep(7, 1), 5);
  EXPECT_DOUBLE_EQ(niceStep(8, 1), 10);
  EXPECT_DOUBLE_EQ(niceStep(3000, 3), 1000);
  EXPECT_DOUBLE_EQ(niceStep(0.0035, 1), 0.005);
}

TEST(SvgTicks, NiceStepOfAnEmptyOrBrokenSpanIsOne) {
  EXPECT_EQ(niceStep(0, 5), 1);
  EXPECT_EQ(niceStep(-3, 5), 1);
  EXPECT_EQ(niceStep(kNaN, 5), 1);
  EXPECT_EQ(niceStep(kInf, 5), 1);
}

TEST(SvgTicks, LinearTicksAreMultiplesOfTheStepWithOneNumberOfDecimals) {
  Ticks t = linearTicks(0, 10, 5);
  EXPECT_EQ(t.values, (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(t.labels, labels({"0", "2", "4", "6", "8", "10"}));

  t = linearTicks(0.9, 1.1, 4);
  EXPECT_EQ(t.labels, labels({"0.90", "0.95", "1.00", "1.05", "1.10"}));

  t = linearTicks(-1, 1, 4);
  EXPECT_EQ(t.labels, labels({"-1.0", "-0.5", "0.0", "0.5", "1.0"}));

  t = linearTicks(0.13, 0.87, 5); // inside the range only
  EXPECT_EQ(t.labels, labels({"0.2", "0.4", "0.6", "0.8"}));

  EXPECT_EQ(linearTicks(10, 0, 5).values, linearTicks(0, 10, 5).values);
}

TEST(SvgTicks, MinimumStepKeepsIndicesIntegral) {
  EXPECT_EQ(linearTicks(1, 3, 8, 1).labels, labels({"1", "2", "3"}));
  EXPECT_EQ(linearTicks(1, 10, 8, 1).values.size(), 10u);
}

TEST(SvgTicks, HugeAndTinyValuesUseExponents) {
  EXPECT_EQ(linearTicks(0, 3e15, 3).labels, labels({"0", "1e+15", "2e+15", "3e+15"}));
  EXPECT_EQ(linearTicks(1e-6, 3e-6, 2).labels, labels({"1e-06", "2e-06", "3e-06"}));
}

TEST(SvgTicks, DegenerateLinearRanges) {
  EXPECT_EQ(linearTicks(3, 3, 5).values, (std::vector<double>{3}));
  EXPECT_TRUE(linearTicks(kNaN, 1, 5).values.empty());
  EXPECT_TRUE(linearTicks(0, kInf, 5).values.empty());
}

TEST(SvgTicks, LogTicksWithinADecadeAreLinearNiceRatios) {
  EXPECT_EQ(logTicks(0.9, 1.1, 5).labels, labels({"0.90", "0.95", "1.00", "1.05", "1.10"}));
}

TEST(SvgTicks, LogTicksOverDecadesAreOneTwoFive) {
  Ticks t = logTicks(1, 1000, 5);
  EXPECT_EQ(t.labels, labels({"1", "2", "5", "10", "20", "50", "100", "200", "500", "1000"}));
  t = logTicks(0.01, 100, 5); // too many 1-2-5: one per decade
  EXPECT_EQ(t.labels, labels({"0.01", "0.1", "1", "10", "100"}));
  t = logTicks(1e-10, 1e10, 3); // still too many: every fourth decade
  EXPECT_EQ(t.labels, labels({"1.00e-10", "1.00e-06", "0.01", "100", "1000000", "10000000000"}));
}

TEST(SvgTicks, LogTicksOfANonPositiveRangeAreEmpty) {
  EXPECT_TRUE(logTicks(0, 1, 5).values.empty());
  EXPECT_TRUE(logTicks(-1, 2, 5).values.empty());
  EXPECT_TRUE(logTicks(2, 1, 5).values.empty());
  EXPECT_TRUE(logTicks(1, kInf, 5).values.empty());
}

TEST(SvgTicks, NiceDomainEndsOnTicks) {
  auto [lo, hi] = niceDomain(0.93, 1.07, 5);
  EXPECT_DOUBLE_EQ(lo, 0.92);
  EXPECT_DOUBLE_EQ(hi, 1.08);
  std::tie(lo, hi) = niceDomain(1, 9, 5);
  EXPECT_DOUBLE_EQ(lo, 0);
  EXPECT_DOUBLE_EQ(hi, 10);
  std::tie(lo, hi) = niceDomain(10, 0, 5);
  EXPECT_DOUBLE_EQ(lo, 0);
  EXPECT_DOUBLE_EQ(hi, 10);
}

TEST(SvgTicks, NiceDomainWidensAPointAndRepairsNonFinite) {
  auto [lo, hi] = niceDomain(5, 5, 5);
  EXPECT_LT(lo, 5);
  EXPECT_GT(hi, 5);
  std::tie(lo, hi) = niceDomain(0, 0, 5);
  EXPECT_DOUBLE_EQ(lo, -1);
  EXPECT_DOUBLE_EQ(hi, 1);
  std::tie(lo, hi) = niceDomain(kNaN, 1, 5);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 1);
}

TEST(SvgScale, LinearMapsDomainOntoRange) {
  Scale s = Scale::linear(0, 10, 100, 200);
  EXPECT_DOUBLE_EQ(s(0), 100);
  EXPECT_DOUBLE_EQ(s(5), 150);
  EXPECT_DOUBLE_EQ(s(20), 300);             // outside: extrapolated, the caller clips
  Scale y = Scale::linear(0, 10, 300, 100); // a y axis grows upwards
  EXPECT_DOUBLE_EQ(y(10), 100);
  EXPECT_DOUBLE_EQ(y(2.5), 250);
  EXPECT_FALSE(s.isLog());
}

TEST(SvgScale, LogMapsRatiosSymmetrically) {
  Scale s = Scale::log(0.5, 2, 0, 100);
  EXPECT_DOUBLE_EQ(s(1), 50); // 2x slower and 2x faster are equally far from 1
  EXPECT_DOUBLE_EQ(s(0.5), 0);
  EXPECT_DOUBLE_EQ(s(2), 100);
  EXPECT_DOUBLE_EQ(Scale::log(1, 100, 0, 200)(10), 100);
  EXPECT_TRUE(s.isLog());
  EXPECT_EQ(s.ticks(5).labels, logTicks(0.5, 2, 5).labels);
}

TEST(SvgScale, DegenerateDomainsMapToTheMiddleWithoutDividingByZero) {
  EXPECT_DOUBLE_EQ(Scale::linear(1, 1, 0, 100)(1), 50);
  EXPECT_DOUBLE_EQ(Scale::linear(kNaN, 1, 0, 100)(0.5), 50);
  EXPECT_DOUBLE_EQ(Scale::linear(0, kInf, 0, 100)(0.5), 50);
  EXPECT_DOUBLE_EQ(Scale::log(0, 10, 0, 100)(5), 50);
  EXPECT_DOUBLE_EQ(Scale::log(-1, 10, 0, 100)(5), 50);
}

TEST(SvgScale, UnplaceableValuesStayFinite) {
  Scale s = Scale::log(0.5, 2, 0, 100);
  EXPECT_DOUBLE_EQ(s(0), 0); // no place on a log axis: its start
  EXPECT_DOUBLE_EQ(s(-3), 0);
  EXPECT_DOUBLE_EQ(s(kNaN), 50);
  EXPECT_DOUBLE_EQ(s(kInf), 100);
  EXPECT_DOUBLE_EQ(Scale::linear(0, 1, 0, 100)(-kInf), 0);
}

TEST(SvgWriter, WritesNestedElementsWithEscapedAttributesAndText) {
  Writer w;
  w.open("g", {{"class", "a\"b"}})
      .text("text", {{"x", 1.5}, {"y", 2}}, "<&>")
      .empty("line", {{"x1", 0}});
  EXPECT_EQ(w.finish(), "<g class=\"a&quot;b\">\n<text x=\"1.5\" y=\"2\">&lt;&amp;&gt;</text>\n"
                        "<line x1=\"0\"/>\n</g>\n");
}

TEST(SvgWriter, FinishClosesWhatIsStillOpen) {
  Writer w;
  w.open("svg").open("g");
  EXPECT_EQ(w.finish(), "<svg>\n<g>\n</g>\n</svg>\n");
  Writer extra;
  extra.close(); // nothing open: nothing written
  EXPECT_EQ(extra.finish(), "");
}

TEST(SvgStyle, EightDistinctColoursAndClassesCycle) {
  std::set<std::string_view> colours(kPalette.begin(), kPalette.end());
  EXPECT_EQ(colours.size(), 8u);
  EXPECT_EQ(seriesColour(0), "#0072B2");
  EXPECT_EQ(seriesColour(8), seriesColour(0));
  EXPECT_EQ(seriesClass(3), "series-3");
  EXPECT_EQ(seriesClass(9), "series-1");
}

TEST(SvgStyle, SeriesDifferInShapeFillOrDashWithoutColour) {
  std::set<std::pair<int, bool>> markers;
  std::set<std::string_view> dashes;
  for (std::size_t i = 0; i < kSeriesCount; ++i) {
    markers.insert({static_cast<int>(seriesMarker(i)), seriesMarkerHollow(i)});
    dashes.insert(seriesDash(i));
  }
  EXPECT_EQ(markers.size(), kSeriesCount);
  EXPECT_EQ(dashes.size(), kSeriesCount);
}

TEST(SvgStyle, MarkerPathsAreClosedShapesAroundTheirCentre) {
  for (Marker m : {Marker::Circle, Marker::Square, Marker::Triangle, Marker::Diamond}) {
    std::string d = markerPath(m, 10, 20, 3);
    EXPECT_EQ(d.front(), 'M');
    EXPECT_EQ(d.back(), 'z');
  }
  EXPECT_EQ(markerPath(Marker::Square, 10, 20, 10), "M1,11h18v18h-18z");
  EXPECT_EQ(markerPath(Marker::Diamond, 0, 0, 10), "M0,-13l13,13l-13,13l-13,-13z");
}

TEST(SvgStyle, MarkerSeriesIsOnePathPerSeries) {
  std::vector<std::pair<double, double>> xy = {{1, 2}, {3, 4}, {5, 6}};
  Writer dots;
  markerSeries(dots, 0, xy, 2); // filled circles: round-capped zero-length segments
  EXPECT_EQ(dots.finish(), "<path class=\"marker series-0\" d=\"M1 2h0M3 4h0M5 6h0\" fill=\"none\" "
                           "stroke=\"#0072B2\" stroke-width=\"4\" stroke-linecap=\"round\"/>\n");
  Writer hollow;
  markerSeries(hollow, 5, xy, 2);
  std::string h = hollow.finish();
  EXPECT_NE(h.find("fill=\"#ffffff\""), std::string::npos);
  EXPECT_NE(h.find("series-5"), std::string::npos);
  Writer none;
  markerSeries(none, 1, {}, 2);
  EXPECT_EQ(none.finish(), "");
}

TEST(SvgDocument, FigureRootScalesAndCarriesItsTextAlternative) {
  Writer w;
  openFigure(w, 640, 400, "x-plot", "A <title>", "What it shows & why");
  std::string s = w.finish();
  EXPECT_EQ(s.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 640 400\" "
                    "width=\"100%\" role=\"img\" class=\"alea-plot x-plot\"",
                    0),
            0u);
  EXPECT_NE(s.find("<title>A &lt;title&gt;</title>"), std::string::npos);
  EXPECT_NE(s.find("<desc>What it shows &amp; why</desc>"), std::string::npos);
  EXPECT_NE(s.find("font-family=\"system-ui"), std::string::npos);
  EXPECT_EQ(s.find("<?xml"), std::string::npos);
}

TEST(SvgDocument, StandaloneAddsTheDeclarationAndAFixedSize) {
  Writer w;
  openFigure(w, 640, 412.5, "x-plot", "t", "d");
  std::string inlined = w.finish();
  std::string file = standalone(inlined);
  EXPECT_EQ(file.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0), 0u);
  EXPECT_NE(file.find("width=\"640\" height=\"412.5\""), std::string::npos);
  EXPECT_EQ(file.find("100%"), std::string::npos);
  EXPECT_EQ(file.substr(file.find("role=")), inlined.substr(inlined.find("role=")));
}

TEST(SvgDocument, StandaloneKeepsAForeignSvgAsItIs) {
  EXPECT_EQ(standalone("<svg width=\"3\"/>"),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg width=\"3\"/>\n");
}
