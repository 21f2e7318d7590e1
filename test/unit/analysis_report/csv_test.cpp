// The CSV reader: RFC 4180 fields, header/level detection, and one located
// error (line:column of the offending field) for every kind of bad input.
#include "alea/analysis/csv.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace alea::analysis;

namespace {

Table parseOk(std::string_view text, const CsvOptions &options = {}) {
  auto r = parseCsv(text, options);
  EXPECT_FALSE(r.error) << (r.error ? r.error->format("t.csv") : "");
  EXPECT_TRUE(r.table);
  return r.table ? *r.table : Table({"x"});
}

// The error as "line:col: message".
std::string errorOf(std::string_view text, const CsvOptions &options = {}) {
  auto r = parseCsv(text, options);
  EXPECT_FALSE(r.table);
  return r.error ? r.error->format("f") : "<no error>";
}

} // namespace

TEST(Csv, DefaultLevelsFromHeader) {
  Table t = parseOk("system,build,execution,iteration,value\n"
                    "a,0,0,0,1.5\n"
                    "a,1,0,0,2\n"
                    "b,0,0,0,3e-3\n"
                    "b,1,0,0,+4\n");
  EXPECT_EQ(t.levels(), (std::vector<std::string>{"build", "execution", "iteration"}));
  EXPECT_EQ(t.systems(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.benchmarks(), (std::vector<std::string>{""}));
  ASSERT_EQ(t.size(), 4u);
  EXPECT_DOUBLE_EQ(t.row(2).value, 3e-3);
  EXPECT_DOUBLE_EQ(t.row(3).value, 4.0);
  EXPECT_EQ(t.row(3).line, 5u);
  EXPECT_EQ(t.label(1, 0), "1");
}

TEST(Csv, ColumnsInAnyOrderAndBenchmark) {
  Table t = parseOk("value,benchmark,machine,build,system\n"
                    "1,fft,m1,0,a\n1,fft,m2,0,a\n1,lu,m1,0,a\n1,lu,m2,1,a\n");
  EXPECT_EQ(t.levels(), (std::vector<std::string>{"machine", "build"}));
  EXPECT_EQ(t.benchmarks(), (std::vector<std::string>{"fft", "lu"}));
}

TEST(Csv, LevelsOptionSelectsAndOrdersColumns) {
  CsvOptions o;
  o.levels = {"build", "iteration"};
  Table t = parseOk("system,iteration,note,build,value\n"
                    "a,0,x,0,1\na,0,y,1,1\n",
                    o);
  EXPECT_EQ(t.levels(), (std::vector<std::string>{"build", "iteration"}));
  EXPECT_EQ(t.label(1, 0), "1");
}

TEST(Csv, StartedAtIsEachRowsOrderNotALevel) {
  // `alea export` writes a campaign's start times (epoch seconds); empty is
  // unknown. The paired analysis reads neighbouring blocks by them.
  Table t = parseOk("system,build,execution,value,started_at\n"
                    "a,0,0,1.5,1764430000.25\n"
                    "a,1,0,2,\n"
                    "b,0,0,3,1764430001\n"
                    "b,1,0,4,1764430002\n");
  EXPECT_EQ(t.levels(), (std::vector<std::string>{"build", "execution"}));
  ASSERT_EQ(t.size(), 4u);
  EXPECT_DOUBLE_EQ(t.row(0).order, 1764430000.25);
  EXPECT_TRUE(std::isnan(t.row(1).order));
  EXPECT_DOUBLE_EQ(t.row(2).order, 1764430001);
  // Without the column every row's order is unknown, as before.
  EXPECT_TRUE(std::isnan(parseOk("system,build,value\na,0,1\na,1,1\n").row(0).order));
  EXPECT_EQ(errorOf("system,build,value,started_at\na,0,1,soon\n"),
            "f:2:7: started_at \"soon\" is not a start time (seconds > 0, e.g. since the epoch; "
            "empty when unknown)");
  EXPECT_EQ(errorOf("system,build,value,started_at\na,0,1,0\n").substr(0, 21),
            "f:2:7: started_at \"0\"");
  CsvOptions o;
  o.levels = {"started_at"};
  EXPECT_EQ(errorOf("system,started_at,value\na,1,1\n", o),
            "f:1:1: column \"started_at\" cannot be a level");
}

TEST(Csv, Rfc4180QuotingCrlfBomAndBlankLines) {
  Table t = parseOk("\xEF\xBB\xBFsystem,build,value\r\n"
                    "\"gcc, -O2\",0,1\r\n"
                    "\r\n"
                    "\"gcc, -O2\",\"1\",\"2.5\"\r\n"
                    "\"say \"\"hi\"\"\",0,1\n"
                    "\"multi\nline\",0,1\n"
                    "\"say \"\"hi\"\"\",1,1\n"
                    "\"multi\nline\",1,1\n");
  EXPECT_EQ(t.systems(), (std::vector<std::string>{"gcc, -O2", "say \"hi\"", "multi\nline"}));
  EXPECT_DOUBLE_EQ(t.row(1).value, 2.5);
  EXPECT_EQ(t.row(1).line, 4u); // the blank line counts
  EXPECT_EQ(t.row(3).line, 6u); // a record starts where its first field does
  EXPECT_EQ(t.row(4).line, 8u); // after the quoted newline on line 6
}

TEST(Csv, ByteOrderMarkTakesNoColumn) {
  EXPECT_EQ(errorOf("\xEF\xBB\xBFsystem,build,build,value\n"),
            "f:1:14: duplicate column \"build\"");
  EXPECT_EQ(errorOf("\xEF\xBB\xBFsystem,build,value\na,0,x\n"),
            "f:2:5: value \"x\" is not a number");
}

TEST(Csv, CsvFieldQuotesOnlyWhenNeeded) {
  EXPECT_EQ(csvField("plain"), "plain");
  EXPECT_EQ(csvField("a,b"), "\"a,b\"");
  EXPECT_EQ(csvField("say \"x\""), "\"say \"\"x\"\"\"");
  EXPECT_EQ(csvField(" pad"), "\" pad\"");
  EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
}

TEST(CsvErrors, EmptyInput) {
  EXPECT_EQ(errorOf(""), "f:1:1: empty input: expected a header line "
                         "(system,[benchmark,]<levels>,value)");
  EXPECT_EQ(errorOf("\n \n"), errorOf(""));
}

TEST(CsvErrors, MissingColumns) {
  EXPECT_EQ(errorOf("system,build\na,0\n"), "f:1:1: missing column \"value\" in header (expected "
                                            "system,[benchmark,]<levels>,value)");
  EXPECT_EQ(errorOf("sys,build,value\na,0,1\n"),
            "f:1:1: missing column \"system\" in header (expected "
            "system,[benchmark,]<levels>,value)");
  EXPECT_EQ(errorOf("system,value\na,1\n"), "f:1:1: no level columns in header (expected e.g. "
                                            "system,build,execution,iteration,value)");
  CsvOptions o;
  o.levels = {"build", "run"};
  EXPECT_EQ(errorOf("system,build,value\na,0,1\n", o),
            "f:1:1: missing level column \"run\" in header (levels: build,run)");
}

TEST(CsvErrors, BadHeader) {
  EXPECT_EQ(errorOf("system,build,build,value\n"), "f:1:14: duplicate column \"build\"");
  EXPECT_EQ(errorOf("system,,build,value\n"), "f:1:8: empty column name in header");
}

TEST(CsvErrors, FieldCount) {
  EXPECT_EQ(errorOf("system,build,value\na,0\n"),
            "f:2:4: expected 3 fields as in the header, found 2");
  EXPECT_EQ(errorOf("system,build,value\na,0,1,9\n"),
            "f:2:7: expected 3 fields as in the header, found 4");
}

TEST(CsvErrors, Quotes) {
  EXPECT_EQ(errorOf("system,build,value\n\"a,0,1\n"), "f:2:1: unterminated quoted field");
  EXPECT_EQ(errorOf("system,build,value\n\"a\"x,0,1\n"),
            "f:2:4: unexpected character after a closing quote (quotes inside "
            "a field must be doubled)");
  EXPECT_EQ(errorOf("system,build,value\na\"b,0,1\n"),
            "f:2:2: quote inside an unquoted field (quote the whole field and "
            "double the quote)");
}

TEST(CsvErrors, EmptySystemAndLabels) {
  EXPECT_EQ(errorOf("system,build,value\na,0,1\n,1,1\n"), "f:3:1: empty system name");
  EXPECT_EQ(errorOf("system,build,value\n\"\",1,1\n"), "f:2:1: empty system name");
  EXPECT_EQ(errorOf("system,build,execution,value\na,0, ,1\n"), "f:2:6: empty execution label");
}

TEST(CsvErrors, Values) {
  const std::string h = "system,build,execution,value\n";
  EXPECT_EQ(errorOf(h + "a,0,0,1\na,1,0,abc\n"), "f:3:7: value \"abc\" is not a number");
  EXPECT_EQ(errorOf(h + "a,0,0,1.5s\n"), "f:2:7: value \"1.5s\" is not a number");
  EXPECT_EQ(errorOf(h + "a,0,0,\n"), "f:2:7: empty value");
  EXPECT_EQ(errorOf(h + "a,0,0,inf\n"), "f:2:7: value \"inf\" is not finite");
  EXPECT_EQ(errorOf(h + "a,0,0,nan\n"), "f:2:7: value \"nan\" is not finite");
  EXPECT_EQ(errorOf(h + "a,0,0,1e999\n"), "f:2:7: value \"1e999\" is not finite");
  EXPECT_EQ(errorOf(h + "a,0,0,0\n"), "f:2:7: value \"0\" is not positive (times must be > 0)");
  EXPECT_EQ(errorOf(h + "a,0,0,-2\n"), "f:2:7: value \"-2\" is not positive (times must be > 0)");
  EXPECT_EQ(errorOf(h + "a,0,0,1e-999\n"),
            "f:2:7: value \"1e-999\" is not positive (times must be > 0)");
  EXPECT_EQ(errorOf(h + "a,0,0,  12x \n"), "f:2:9: value \"12x\" is not a number");
}

TEST(CsvErrors, NoDataAndSingleTopLevelUnit) {
  EXPECT_EQ(errorOf("system,build,value\n"), "f:2:1: no measurements after the header line");
  EXPECT_EQ(errorOf("system,build,execution,value\n"
                    "a,0,0,1\na,1,0,1\nb,7,0,1\nb,7,1,1\n"),
            "f:4:3: system \"b\" has only one build (build is the top level; a "
            "confidence interval needs at least 2)");
  EXPECT_EQ(errorOf("system,benchmark,build,value\n"
                    "a,x,0,1\na,x,1,1\na,y,0,1\n"),
            "f:4:5: system \"a\" on benchmark \"y\" has only one build (build "
            "is the top level; a confidence interval needs at least 2)");
}

TEST(CsvErrors, DuplicateMeasurement) {
  EXPECT_EQ(errorOf("system,build,iteration,value\n"
                    "a,0,0,1\na,1,0,2\na,0,0,3\n"),
            "f:4:5: duplicate measurement: system \"a\" already has a value for "
            "build 0, iteration 0 (line 2)");
}

// Issue 18 item 12: a NUL in a value cell cut the message short (printed as
// a C string), and a newline inside a quoted cell broke the one-line
// message. Cells and names quoted in messages show control characters
// escaped, C style, with the line where the cell starts.
TEST(CsvErrors, ControlCharactersInMessagesAreEscaped) {
  using namespace std::string_literals;
  const std::string nul = "system,build,value\na,1,1.0\na,2,\"1\0002\"\n"s;
  ASSERT_EQ(nul.find('\0'), 33u); // the NUL is in the text
  EXPECT_EQ(errorOf(nul), "f:3:5: value \"1\\02\" is not a number");
  EXPECT_EQ(errorOf("system,build,value\na,1,\"1\n2\"\na,2,1\n"),
            "f:2:5: value \"1\\n2\" is not a number");
  EXPECT_EQ(errorOf("system,build,value\na,1,\"1\r\t\x01\x7f\"\n"),
            "f:2:5: value \"1\\r\\t\\x01\\x7F\" is not a number");
  // Unquoted, a NUL is part of the cell too.
  EXPECT_EQ(errorOf("system,build,value\na,1,7\0\n"s), "f:2:5: value \"7\\0\" is not a number");
  // Names and labels: a system name with a newline, a duplicate path, a level
  // name. The place is the build field's, on the cell's second line.
  EXPECT_EQ(errorOf("system,build,value\n\"a\nb\",1,1\n\"a\nb\",1,2\n"),
            "f:5:4: duplicate measurement: system \"a\\nb\" already has a value for build 1 "
            "(line 2)");
  EXPECT_EQ(errorOf("system,\"bu\tild\",value\na,1,1\n"),
            "f:2:3: system \"a\" has only one bu\\tild (bu\\tild is the top level; a confidence "
            "interval needs at least 2)");
  EXPECT_EQ(errorOf("system,build,value\na,\"\0\",1\na,\"\0\",2\n"s),
            "f:3:3: duplicate measurement: system \"a\" already has a value for build \\0 "
            "(line 2)");
  // Every message is one line without NUL, whatever the cell held.
  for (const std::string &text : {nul, "system,\"x\ny\",value\n\"\0\",1,\"\r\"\n"s}) {
    const std::string m = errorOf(text);
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(m.find('\0'), std::string::npos) << m;
  }
}
