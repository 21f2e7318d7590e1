// Hostile names in every report format (issue 18, item 2): the escaping
// function of each output context (escape.hpp) on its own, then a campaign
// whose name, systems, benchmarks, store path, warnings and failures are
// hostile, rendered in every format and read back as that format's reader
// would: LaTeX commands only alea's own, Markdown with no raw HTML and whole
// table rows, HTML and SVG without a script element, CSV cells a spreadsheet
// does not evaluate (numbers still numbers), JSON holding the names exactly,
// text whose lines no name can start. The e2e test report_escape_test.py
// compiles the LaTeX with pdflatex and renders Markdown and HTML in Chromium.
#include "alea/analysis/csv.hpp"
#include "alea/model/campaign_report.hpp"
#include "alea/report/escape.hpp"
#include "alea/report/render.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace alea::report;
using alea::model::CampaignData;
using alea::model::CampaignReport;

namespace {

const std::string kName = "x\n\\input{/etc/passwd}\n\\immediate\\write18{touch PWNED}\n";
const std::string kScript = "<script>alert(1)</script>";
const std::string kSpecials = "a&b|c$d\\e{f}_%#~^";
const std::string kFormula = "=HYPERLINK(\"http://evil/\",\"x\")";
const std::string kMarkup = "-2+3 `x` [l](http://e) *b* |c| \x1b[31mred";
const std::string kStore = "/tmp/`q` dir & co/campaign.db";

std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

// A campaign of the hostile names: two systems, two benchmarks, 3 builds
// each (the kMarkup benchmark's baseline only 2, widely spread, so that its
// t interval reaches below zero: a negative number in the CSV), a failure
// with a hostile stderr tail.
CampaignData hostileData() {
  CampaignData d;
  d.name = kName;
  d.storePath = kStore;
  d.systems = {kScript, kSpecials};
  d.baseline = kScript;
  d.benchmarks = {kFormula, kMarkup};
  d.seed = "0x2a";
  for (int b = 0; b < 3; ++b)
    for (int e = 0; e < 2; ++e)
      for (int i = 0; i < 3; ++i) {
        const double noise = 0.001 * (b * 7 % 5) + 0.0003 * e + 0.0001 * i;
        d.measurements.push_back({kScript, kFormula, b, e, i, 1.0 + noise});
        d.measurements.push_back({kSpecials, kFormula, b, e, i, 0.9 + noise});
        if (b < 2)
          d.measurements.push_back({kScript, kMarkup, b, e, i, b == 0 ? 0.1 : 5.0});
        d.measurements.push_back({kSpecials, kMarkup, b, e, i, 0.5 + noise});
      }
  d.planned = 24;
  d.executed = 23;
  alea::FailedExecution f;
  f.system = kSpecials;
  f.benchmark = kMarkup;
  f.buildIndex = 2;
  f.status = alea::ExecutionStatus::Exit;
  f.exitCode = 3;
  f.error = "no input </td><script>x</script>";
  f.stderrTail = "\x1b[2Jcleared\n</pre><script>alert(2)</script>\n\\input{/etc/passwd}\n";
  d.failures.push_back(f);
  for (const auto &s : d.systems)
    for (int b = 0; b < 3; ++b)
      d.builds.push_back(
          {s, b, 0x1, alea::BuildStatus::Ok, 1.0, s + std::to_string(b), "", "", {}, ""});
  return d;
}

const CampaignReport &hostile() {
  static const CampaignReport r = [] {
    alea::model::CampaignReportOptions o;
    o.bootstrapReplicates = 1000;
    return alea::model::buildCampaignReport(hostileData(), o);
  }();
  return r;
}

// The '|' that separate cells: those not escaped by an odd run of backslashes.
std::size_t cellSeparators(const std::string &row) {
  std::size_t n = 0, backslashes = 0;
  for (char c : row) {
    if (c == '|' && backslashes % 2 == 0)
      ++n;
    backslashes = c == '\\' ? backslashes + 1 : 0;
  }
  return n;
}

} // namespace

// ------------------------------------------------------ each context alone

TEST(Escape, PlainTextShowsControlCharactersAsEscapes) {
  EXPECT_EQ(plainText("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(plainText("\x1b[31mred\x7f"), "\\x1b[31mred\\x7f");
  EXPECT_EQ(plainText("caf\xC3\xA9 \\ <x>"), "caf\xC3\xA9 \\ <x>"); // UTF-8 and ASCII kept
  EXPECT_EQ(plainText("\xC2\x9B"
                      "31m"),
            "\\u009b31m"); // C1 CSI
  EXPECT_EQ(plainText("ab\xE2\x80\xAE"
                      "cd"),
            "ab\\u202ecd"); // right-to-left override
  EXPECT_EQ(plainText("bad\xFF"), "bad\\xff");
}

TEST(Escape, LatexTextLeavesNoCommandOrGroupOpen) {
  EXPECT_EQ(latexText(kName),
            "x \\textbackslash{}input\\{/etc/passwd\\} "
            "\\textbackslash{}immediate\\textbackslash{}write18\\{touch PWNED\\} ");
  EXPECT_EQ(latexText("&%$#_{}~^"), "\\&\\%\\$\\#\\_\\{\\}\\textasciitilde{}\\textasciicircum{}");
  EXPECT_EQ(latexText("<a|b>"), "\\textless{}a\\textbar{}b\\textgreater{}");
  EXPECT_EQ(latexText("--O2 ``q'' !`"), "-{}-O2 `{}`q'{}' !{}`"); // no ligature
  EXPECT_EQ(latexText("a\n\nb"), "a  b");                         // no paragraph break
  EXPECT_EQ(latexText("\xC3\xA9t\xC3\xA9\xFF"), "\xC3\xA9t\xC3\xA9?");
}

TEST(Escape, LatexCommentCannotBeEnded) {
  EXPECT_EQ(latexComment(kName), "x \\input{/etc/passwd} \\immediate\\write18{touch PWNED} ");
  EXPECT_EQ(latexComment("a\rb\x0c"
                         "c"),
            "a b c");
}

TEST(Escape, MarkdownTextIsTextInEveryRenderer) {
  EXPECT_EQ(markdownText(kScript), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(markdownText("a&b|c$d\\e"), "a&amp;b\\|c&#36;d\\\\e");
  EXPECT_EQ(markdownText("*b* _i_ `c` [l](u) # ~~s~~"),
            "\\*b\\* \\_i\\_ \\`c\\` \\[l\\](u) \\# &#126;&#126;s&#126;&#126;");
  EXPECT_EQ(markdownText("- item"), "\\- item");
  EXPECT_EQ(markdownText("+x"), "\\+x");
  EXPECT_EQ(markdownText("12. x"), "12\\. x");
  EXPECT_EQ(markdownText("3)"), "3\\)");
  EXPECT_EQ(markdownText("O-2 1.5"), "O-2 1.5"); // only at the start
  EXPECT_EQ(markdownText("a\nb"), "a b");
}

TEST(Escape, MarkdownCodeSpanHoldsAnyText) {
  EXPECT_EQ(markdownCode("/tmp/x"), "`/tmp/x`");
  EXPECT_EQ(markdownCode(kStore), "``/tmp/`q` dir & co/campaign.db``");
  EXPECT_EQ(markdownCode("`a``"), "``` `a`` ```");
  EXPECT_EQ(markdownCode("a\nb"), "`a b`");
}

TEST(Escape, HtmlTextIsTheSvgWritersEscape) {
  EXPECT_EQ(htmlText(kScript), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(htmlText("a\"b'&"), "a&quot;b&#39;&amp;");
}

TEST(Escape, CsvTextCellsAreNeverFormulas) {
  EXPECT_EQ(csvText("=1+2"), "'=1+2");
  EXPECT_EQ(csvText("+1"), "'+1");
  EXPECT_EQ(csvText("-O2"), "'-O2");
  EXPECT_EQ(csvText("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csvText("\tx"), "'\tx");
  EXPECT_EQ(csvText("'quoted"), "''quoted"); // so that one leading ' is always alea's
  EXPECT_EQ(csvText(kFormula), "\"'=HYPERLINK(\"\"http://evil/\"\",\"\"x\"\")\"");
  EXPECT_EQ(csvText("O2, -1"), "\"O2, -1\"");
  EXPECT_EQ(csvText("plain"), "plain");
}

// -------------------------------------------- a hostile campaign, rendered

TEST(HostileNames, LatexHasOnlyAleasCommandsAndOneCommentLine) {
  const std::string tex = render(hostile(), Format::Latex);
  const auto ls = lines(tex);
  ASSERT_GE(ls.size(), 3u) << tex;
  EXPECT_EQ(ls[0], "% alea report: x \\input{/etc/passwd} \\immediate\\write18{touch PWNED} . "
                   "Requires \\usepackage{booktabs}.");
  EXPECT_EQ(ls[1], "\\begin{table}");
  const std::set<std::string> ours = {
      "begin",           "end",         "centering",    "caption",
      "toprule",         "midrule",     "bottomrule",   "textbackslash",
      "textless",        "textgreater", "textbar",      "textasciitilde",
      "textasciicircum", "multicolumn", "footnotesize", "textsuperscript"};
  const std::regex command(R"(\\([A-Za-z]+))");
  std::size_t depth = 0;
  for (std::size_t i = 1; i < ls.size(); ++i) {
    for (std::sregex_iterator m(ls[i].begin(), ls[i].end(), command), end; m != end; ++m) {
      // A command after an escaped backslash (\\) is text: "\\input" cannot
      // occur, as a backslash is written \textbackslash{}.
      EXPECT_TRUE(ours.count((*m)[1].str())) << (*m)[1].str() << " in line " << ls[i];
    }
    for (std::size_t k = 0; k < ls[i].size(); ++k) {
      if (ls[i][k] == '\\') { // an escaped character or a command: skip one
        ++k;
        continue;
      }
      if (ls[i][k] == '{')
        ++depth;
      if (ls[i][k] == '}') {
        ASSERT_GT(depth, 0u) << ls[i];
        --depth;
      }
    }
    EXPECT_EQ(depth, 0u) << "a group left open at line " << ls[i];
  }
  EXPECT_NE(tex.find("\\textless{}script\\textgreater{}alert(1)"), std::string::npos);
  EXPECT_NE(tex.find("a\\&b\\textbar{}c\\$d\\textbackslash{}e\\{f\\}\\_\\%\\#"), std::string::npos);
}

TEST(HostileNames, LatexOfNoStatisticsIsOneCommentLine) {
  CampaignReport r;
  r.analysisError = "not analysed: " + kName;
  const std::string tex = render(r, Format::Latex);
  EXPECT_EQ(lines(tex).size(), 1u) << tex;
  EXPECT_EQ(tex.rfind("% alea: no statistics: ", 0), 0u);
}

TEST(HostileNames, MarkdownHasNoRawHtmlAndWholeTableRows) {
  const std::string md = render(hostile(), Format::Markdown);
  EXPECT_EQ(md.find('<'), std::string::npos) << md;
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  EXPECT_EQ(
      md.rfind("# alea campaign report: x \\\\input{/etc/passwd} \\\\immediate\\\\write18{touch "
               "PWNED} \n",
               0),
      0u)
      << md.substr(0, 200);
  EXPECT_NE(md.find("Store: ``/tmp/`q` dir & co/campaign.db``"), std::string::npos);
  // Every row of a table has as many cell separators as its header.
  const auto ls = lines(md);
  std::size_t header = 0;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    if (ls[i].empty() || ls[i][0] != '|') {
      header = 0;
      continue;
    }
    if (header == 0)
      header = cellSeparators(ls[i]);
    EXPECT_EQ(cellSeparators(ls[i]), header) << ls[i];
  }
  EXPECT_NE(md.find("| &lt;script&gt;alert(1)&lt;/script&gt; |"), std::string::npos);
  EXPECT_NE(md.find("\\-2+3 \\`x\\` \\[l\\](http://e) \\*b\\* \\|c\\|  \\[31mred"),
            std::string::npos)
      << md;
}

TEST(HostileNames, HtmlAndSvgHaveNoScriptElement) {
  const std::string html = render(hostile(), Format::Html);
  std::string lower = html;
  for (char &c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(lower.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  const auto figs = figures(hostile());
  ASSERT_FALSE(figs.empty());
  for (const Figure &f : figs) {
    EXPECT_EQ(f.svg.find("<script"), std::string::npos) << f.id;
    EXPECT_EQ(f.svg.find('\x1b'), std::string::npos) << f.id;
  }
}

TEST(HostileNames, CsvTextCellsAreNotFormulasAndNumbersStayNumbers) {
  const std::string csv = render(hostile(), Format::Csv);
  const auto parsed = alea::analysis::readCsvRecords(csv);
  ASSERT_FALSE(parsed.error) << parsed.error->message;
  ASSERT_GT(parsed.records.size(), 10u);
  bool negative = false, formulaSeen = false;
  for (std::size_t i = 1; i < parsed.records.size(); ++i) {
    const auto &f = parsed.records[i].fields;
    ASSERT_EQ(f.size(), 9u) << parsed.records[i].line;
    for (std::size_t c : {0u, 1u, 2u, 3u, 4u, 8u}) // the text columns
      if (!f[c].empty()) {
        EXPECT_EQ(std::string("=+-@\t\r").find(f[c][0]), std::string::npos)
            << "line " << parsed.records[i].line << ": " << f[c];
      }
    formulaSeen = formulaSeen || f[0] == "'" + kFormula;
    for (std::size_t c : {5u, 6u, 7u}) // the number columns: numbers as they are
      if (!f[c].empty()) {
        EXPECT_NO_THROW((void)std::stod(f[c])) << f[c];
        negative = negative || f[c][0] == '-';
      }
  }
  EXPECT_TRUE(formulaSeen);
  EXPECT_TRUE(negative) << "the 2-build t interval's negative bound is written as a number";
}

TEST(HostileNames, JsonHoldsTheNamesExactly) {
  const auto j = nlohmann::json::parse(render(hostile(), Format::Json));
  EXPECT_EQ(j.at("campaign").at("name"), kName);
  EXPECT_EQ(j.at("campaign").at("store"), kStore);
  EXPECT_EQ(j.at("campaign").at("systems"), (std::vector<std::string>{kScript, kSpecials}));
  EXPECT_EQ(j.at("campaign").at("benchmarks"), (std::vector<std::string>{kFormula, kMarkup}));
}

TEST(HostileNames, TextLinesCannotBeStartedOrRewrittenByAName) {
  const std::string text = render(hostile(), Format::Text);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(
      text.rfind("campaign x\\n\\input{/etc/passwd}\\n\\immediate\\write18{touch PWNED}\\n  [", 0),
      0u)
      << text.substr(0, 200);
  for (const auto &l : lines(text)) {
    EXPECT_NE(l.rfind("\\input", 0), 0u) << l;
    EXPECT_NE(l.rfind("\\immediate", 0), 0u) << l;
  }
  EXPECT_NE(text.find("    stderr| \\x1b[2Jcleared\n"), std::string::npos) << text;
}
