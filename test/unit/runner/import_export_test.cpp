// Export to the long CSV and import of CSV / hyperfine JSON into a store.
#include "alea/runner/import_export.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <sstream>

using namespace alea::runner;

namespace {

Store fresh(const test::TempDir &dir, const char *name = "s.db") {
  auto s = Store::open(dir.file(name));
  EXPECT_TRUE(s.ok()) << s.error();
  return std::move(*s);
}

std::string exported(Store &s) {
  std::ostringstream out;
  auto n = exportLongCsv(s, out);
  EXPECT_TRUE(n.ok());
  return out.str();
}

} // namespace

TEST(ImportExport, CsvRoundTripKeepsEveryValueAndIndex) {
  test::TempDir dir;
  std::string csv = "system,benchmark,build,execution,iteration,value\n"
                    "base,b1,0,0,1,0.5\n"
                    "base,b1,0,2,1,0.25\n" // execution 1 missing (failed): index kept
                    "base,b1,1,0,1,0.125\n"
                    "\"new, improved\",b1,0,0,1,0.1\n"
                    "\"new, improved\",b1,1,0,1,0.2\n";
  Store s = fresh(dir);
  auto sum = importLongCsv(csv, "in.csv", s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(sum->systems, 2u);
  EXPECT_EQ(sum->benchmarks, 1u);
  EXPECT_EQ(sum->executions, 5u);
  EXPECT_EQ(sum->measurements, 5u);
  EXPECT_EQ(exported(s), csv);
  EXPECT_EQ(s.meta("baseline"), "base");
  EXPECT_EQ(s.integrityCheck(), "ok");
}

TEST(ImportExport, MissingLevelsAndBenchmarkGetDefaults) {
  test::TempDir dir;
  Store s = fresh(dir);
  auto sum = importLongCsv("system,build,value\na,3,1.5\na,4,2.5\nb,3,1.0\nb,4,2.0\n", "x.csv", s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(exported(s), "system,benchmark,build,execution,iteration,value\n"
                         "a,default,3,0,0,1.5\na,default,4,0,0,2.5\n"
                         "b,default,3,0,0,1\nb,default,4,0,0,2\n");
}

TEST(ImportExport, TextLabelsAreNumberedByFirstAppearanceWithinTheirParent) {
  test::TempDir dir;
  Store s = fresh(dir);
  auto sum = importLongCsv("system,build,iteration,value\n"
                           "a,x,p,1\na,x,q,2\na,y,q,3\na,y,p,4\n",
                           "x.csv", s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(exported(s), "system,benchmark,build,execution,iteration,value\n"
                         "a,default,0,0,0,1\na,default,0,0,1,2\n"
                         "a,default,1,0,0,3\na,default,1,0,1,4\n");
}

TEST(ImportExport, CsvErrorsAreLocated) {
  test::TempDir dir;
  Store s = fresh(dir);
  auto bad = importLongCsv("system,build,value\na,0,1\na,1,-2\n", "bad.csv", s);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("bad.csv:3:", 0), 0u) << bad.error();
  auto level = importLongCsv("system,machine,value\na,0,1\na,1,1\n", "lvl.csv", s);
  ASSERT_FALSE(level.ok());
  EXPECT_NE(level.error().find("level column 'machine' has no place"), std::string::npos);
  auto order = importLongCsv("system,iteration,build,value\na,0,0,1\na,1,1,1\n", "ord.csv", s);
  ASSERT_FALSE(order.ok());
  EXPECT_NE(order.error().find("order build, execution, iteration"), std::string::npos);
  auto dup = importLongCsv("system,build,value\na,0,1\na,0,2\n", "dup.csv", s);
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().rfind("dup.csv:3:", 0), 0u) << dup.error(); // the reader's check
  EXPECT_EQ(s.summary().measurements, 0);                           // nothing half-imported
}

TEST(ImportExport, RefusesAStoreWithData) {
  test::TempDir dir;
  Store s = fresh(dir);
  const char *csv = "system,build,value\na,0,1\na,1,2\n";
  ASSERT_TRUE(importLongCsv(csv, "a.csv", s).ok());
  auto again = importLongCsv(csv, "a.csv", s);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().find("already holds data"), std::string::npos);
}

TEST(ImportExport, HyperfineJsonOneExecutionPerTime) {
  test::TempDir dir;
  Store s = fresh(dir);
  const char *json = R"({"results": [
    {"command": "./old", "mean": 1.5, "times": [1.0, 2.0], "exit_codes": [0, 0],
     "parameters": {}},
    {"command": "./new \"fast\"", "mean": 0.75, "times": [0.5, 1e0]}]})";
  auto sum = importHyperfineJson(json, "hf.json", s, "bench");
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(sum->systems, 2u);
  EXPECT_EQ(sum->executions, 4u);
  EXPECT_EQ(exported(s),
            "system,benchmark,build,execution,iteration,value\n"
            "./old,bench,0,0,0,1\n./old,bench,0,1,0,2\n"
            "\"./new \"\"fast\"\"\",bench,0,0,0,0.5\n\"./new \"\"fast\"\"\",bench,0,1,0,1\n");
}

TEST(ImportExport, HyperfineJsonErrors) {
  test::TempDir dir;
  Store s = fresh(dir);
  auto malformed = importHyperfineJson("{\"results\": [", "m.json", s, "b");
  ASSERT_FALSE(malformed.ok());
  EXPECT_NE(malformed.error().find("m.json: malformed JSON at byte"), std::string::npos);
  auto notHf = importHyperfineJson("{\"benchmarks\": []}", "g.json", s, "b");
  ASSERT_FALSE(notHf.ok());
  EXPECT_NE(notHf.error().find("\"results\" array"), std::string::npos);
  auto noTimes =
      importHyperfineJson("{\"results\": [{\"command\": \"x\", \"mean\": 1}]}", "t.json", s, "b");
  ASSERT_FALSE(noTimes.ok());
  EXPECT_NE(noTimes.error().find("results[0]: expected a non-empty \"times\""), std::string::npos);
  auto negative = importHyperfineJson("{\"results\": [{\"command\": \"x\", \"times\": [1, -1]}]}",
                                      "n.json", s, "b");
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.error().find("results[0].times[1]: expected a positive number"),
            std::string::npos);
}

TEST(ImportExport, ByteOrderMarkBeforeJsonOrCsvIsSkipped) {
  test::TempDir dir;
  const std::string bom = "\xEF\xBB\xBF";
  const std::string hf = "{\"results\": [{\"command\": \"c\", \"times\": [0.1, 0.2]}]}";
  const std::string rows = "system,benchmark,build,execution,iteration,value\n";
  {
    Store s = fresh(dir, "json.db");
    auto sum = importFile(dir.write("h.json", bom + " \n" + hf), s);
    ASSERT_TRUE(sum.ok()) << sum.error();
    EXPECT_EQ(exported(s), rows + "c,h,0,0,0,0.1\nc,h,0,1,0,0.2\n");
  }
  {
    Store s = fresh(dir, "direct.db");
    auto sum = importHyperfineJson(bom + hf, "d.json", s, "b");
    ASSERT_TRUE(sum.ok()) << sum.error();
    EXPECT_EQ(sum->measurements, 2u);
  }
  {
    Store s = fresh(dir, "csv.db");
    auto sum = importFile(dir.write("d.csv", bom + "system,build,value\na,0,1\na,1,2\n"), s);
    ASSERT_TRUE(sum.ok()) << sum.error();
    EXPECT_EQ(exported(s), rows + "a,default,0,0,0,1\na,default,1,0,0,2\n");
  }
  // Error offsets count the file's bytes, the mark included.
  Store s = fresh(dir, "bad.db");
  auto bad = importHyperfineJson(bom + "{\"results\": [", "m.json", s, "b");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("m.json: malformed JSON at byte 16:"), std::string::npos)
      << bad.error();
}

TEST(ImportExport, FileDispatchAndStorePath) {
  test::TempDir dir;
  auto json = dir.write("h.json", "  {\"results\": [{\"command\": \"c\", \"times\": [0.1]}]}");
  Store s = fresh(dir);
  auto sum = importFile(json, s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(exported(s), "system,benchmark,build,execution,iteration,value\nc,h,0,0,0,0.1\n");
  EXPECT_EQ(resolveStorePath(dir.path()), dir.path() + "/campaign.db");
  EXPECT_EQ(resolveStorePath(dir.file("x.db")), dir.file("x.db"));
}
