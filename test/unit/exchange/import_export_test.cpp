// Export to the long CSV and import into a store: of CSV / hyperfine JSON
// (ImportExport), and of several files of other tools (ImportTools,
// importFiles): hyperfine exports as builds, Google Benchmark files as
// executions with repetitions as iterations, SPEC CPU runcpu CSVs; format
// detection; the located errors of each reader.
#include "alea/exchange/import_export.hpp"

#include "alea/analysis/csv.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

using namespace alea::runner;

namespace {

Store fresh(const test::TempDir &dir, const char *name = "s.db") {
  auto s = Store::open(dir.file(name));
  EXPECT_TRUE(s.ok()) << s.error();
  return std::move(*s);
}

// The export's header and rows; its settings line (ExportSettings) apart.
std::string exported(Store &s) {
  std::ostringstream out;
  auto n = exportLongCsv(s, out);
  EXPECT_TRUE(n.ok());
  std::string text = out.str();
  if (text.starts_with("# alea:"))
    text.erase(0, text.find('\n') + 1);
  return text;
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

TEST(ImportExport, StartTimesTravelWithTheCsv) {
  // A CSV with its executions' start times (a campaign's export) imports
  // them, and the store exports them again, as the last column; an
  // execution's rows share the earliest, an empty one is unknown.
  test::TempDir dir;
  const std::string csv = "system,benchmark,build,execution,iteration,value,started_at\n"
                          "a,h,0,0,0,1.5,1764430000.5\n"
                          "a,h,0,0,1,1.25,1764430000.5\n"
                          "a,h,1,0,0,2,\n"
                          "b,h,0,0,0,3,1764430002.75\n"
                          "b,h,1,0,0,4,1764430003\n";
  Store s = fresh(dir);
  auto sum = importLongCsv(csv, "in.csv", s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_TRUE(s.hasStartTimes());
  EXPECT_EQ(exported(s), csv);
  // Two start times for one execution: the earliest is its.
  Store t = fresh(dir, "t.db");
  ASSERT_TRUE(importLongCsv("system,build,iteration,value,started_at\n"
                            "a,0,0,1,20\na,0,1,1,10\na,1,0,1,30\n",
                            "in.csv", t)
                  .ok());
  EXPECT_EQ(exported(t), "system,benchmark,build,execution,iteration,value,started_at\n"
                         "a,default,0,0,0,1,10\na,default,0,0,1,1,10\na,default,1,0,0,1,30\n");
  // Without start times the export has no such column (as before them).
  Store u = fresh(dir, "u.db");
  ASSERT_TRUE(importLongCsv("system,build,value\na,0,1\na,1,1\n", "in.csv", u).ok());
  EXPECT_FALSE(u.hasStartTimes());
  EXPECT_EQ(exported(u), "system,benchmark,build,execution,iteration,value\n"
                         "a,default,0,0,0,1\na,default,1,0,0,1\n");
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

namespace {

ImportInput input(std::string path, std::string system = "", std::optional<int> build = {}) {
  ImportInput in;
  in.path = std::move(path);
  in.system = std::move(system);
  in.build = build;
  return in;
}

const std::string kHeader = "system,benchmark,build,execution,iteration,value\n";

// A Google Benchmark document as its JSON reporter writes it: repetitions
// (run_type "iteration"), then the aggregates of each benchmark.
std::string gbench(const char *exe, double a0, double a1, double b0) {
  char text[2048];
  std::snprintf(text, sizeof text, R"({
  "context": {"executable": "%s", "library_build_type": "release"},
  "benchmarks": [
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 2,
     "repetition_index": 0, "iterations": 10, "real_time": %g, "cpu_time": 1, "time_unit": "us"},
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 2,
     "repetition_index": 1, "iterations": 10, "real_time": %g, "cpu_time": 2, "time_unit": "us"},
    {"name": "BM_A_mean", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "mean",
     "real_time": 7, "cpu_time": 7, "time_unit": "us"},
    {"name": "BM_A_cv", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "cv",
     "aggregate_unit": "percentage", "real_time": 0.1, "cpu_time": NaN},
    {"name": "BM_B/8", "run_name": "BM_B/8", "run_type": "iteration", "real_time": %g,
     "cpu_time": 3, "time_unit": "ms"}
  ]})",
                exe, a0, a1, b0);
  return text;
}

// The error of importing `text` as the file `name` in `format` (system "sys").
std::string importError(const test::TempDir &dir, Store &s, const char *name,
                        const std::string &text, ImportFormat format) {
  ImportInput in = input(dir.write(name, text), "sys");
  in.format = format;
  auto sum = importFiles(std::span(&in, 1), s);
  EXPECT_FALSE(sum.ok()) << name;
  return sum.error();
}

} // namespace

TEST(ImportTools, FormatDetectedFromContent) {
  EXPECT_EQ(*importFormatOf("\xEF\xBB\xBF {\"results\": []}", "h"), ImportFormat::Hyperfine);
  EXPECT_EQ(*importFormatOf(gbench("./x", 1, 2, 3), "g"), ImportFormat::Gbench);
  EXPECT_EQ(*importFormatOf("valid,1\r\n\"Full Results Table\"\r\n", "s"), ImportFormat::Spec);
  EXPECT_EQ(*importFormatOf("Full Results Table\n", "s"), ImportFormat::Spec);
  EXPECT_EQ(*importFormatOf("system,value\na,1\n", "c"), ImportFormat::Csv);
  // A CSV that merely mentions the title in a field is not a SPEC result.
  EXPECT_EQ(*importFormatOf("system,value\n\"see Full Results Table\",1\n", "c"),
            ImportFormat::Csv);
  auto neither = importFormatOf("{\"x\": 1}", "n.json");
  ASSERT_FALSE(neither.ok());
  EXPECT_NE(neither.error().find("n.json: a JSON object that is neither"), std::string::npos);
  EXPECT_EQ(importFormatFromName("gbench"), ImportFormat::Gbench);
  EXPECT_FALSE(importFormatFromName("xml"));
}

TEST(ImportTools, HyperfineExportsAreBuildsOfOneSystem) {
  test::TempDir dir;
  // hyperfine -n work: the same command name in every build's export.
  auto b0 = dir.write("b0.json", R"({"results": [{"command": "work", "times": [1.0, 1.5]}]})");
  auto b1 = dir.write("b1.json", R"({"results": [{"command": "work", "times": [2.0]}]})");
  auto c0 = dir.write("c0.json", R"({"results": [{"command": "work", "times": [0.5]}]})");
  Store s = fresh(dir);
  std::vector<ImportInput> in = {input(b0, "gcc"), input(b1, "gcc"), input(c0, "clang")};
  auto sum = importFiles(in, s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(sum->systems, 2u);
  EXPECT_EQ(sum->builds, 3u);
  EXPECT_EQ(sum->executions, 4u);
  EXPECT_EQ(exported(s), kHeader + "gcc,work,0,0,0,1\ngcc,work,0,1,0,1.5\ngcc,work,1,0,0,2\n"
                                   "clang,work,0,0,0,0.5\n");
}

TEST(ImportTools, HyperfineWithoutSystemKeepsCommandsAsSystems) {
  test::TempDir dir;
  auto f = dir.write("run.json", R"({"results": [
    {"command": "old", "times": [1.0, 9.0, 3.0], "exit_codes": [0, 2, 0]},
    {"command": "new", "times": [0.5]}]})");
  auto g = dir.write("run2.json", R"({"results": [{"command": "old", "times": [4.0]}]})");
  Store s = fresh(dir);
  std::vector<ImportInput> in = {input(f), input(g)};
  auto sum = importFiles(in, s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  // The failed run (exit code 2, kept by hyperfine -i) is left out, and said.
  ASSERT_EQ(sum->notes.size(), 1u);
  EXPECT_EQ(sum->notes[0], f + ": left out 1 run that failed (a non-zero exit code, or ended by a "
                               "signal)");
  // The benchmark is named after the first file; each file is a build.
  EXPECT_EQ(exported(s), kHeader + "old,run,0,0,0,1\nold,run,0,1,0,3\nold,run,1,0,0,4\n"
                                   "new,run,0,0,0,0.5\n");
}

// hyperfine writes one exit code per time; an export where they differ in
// number cannot say which runs failed: an error naming the file, the command
// and both counts, and no store is written.
TEST(ImportTools, HyperfineExitCodesNotOnePerTimeIsAnError) {
  test::TempDir dir;
  auto f = dir.write("short.json", R"({"results": [
    {"command": "ok", "times": [1.0, 2.0], "exit_codes": [0, 0]},
    {"command": "cut", "times": [1.0, 9.0, 3.0], "exit_codes": [0, 2]}]})");
  Store s = fresh(dir);
  std::vector<ImportInput> in = {input(f)};
  auto sum = importFiles(in, s);
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.error(), f + ": results[1]: \"exit_codes\" has 2 entries but \"times\" has 3 "
                             "(hyperfine writes one exit code per time): a damaged export");
  EXPECT_EQ(s.summary().builds, 0);
  auto g = dir.write("notarray.json",
                     R"({"results": [{"command": "x", "times": [1.0], "exit_codes": 0}]})");
  Store t = fresh(dir, "t.db");
  std::vector<ImportInput> in2 = {input(g)};
  auto bad = importFiles(in2, t);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), g + ": results[0]: \"exit_codes\" is not an array");
}

// A null exit code is hyperfine's for a run ended by a signal: left out too.
TEST(ImportTools, HyperfineRunEndedBySignalIsLeftOut) {
  test::TempDir dir;
  auto f = dir.write("sig.json", R"({"results": [
    {"command": "a", "times": [1.0, 2.0, 3.0], "exit_codes": [0, null, 0]},
    {"command": "b", "times": [1.0, 2.0], "exit_codes": [0, 0]}]})");
  Store s = fresh(dir);
  std::vector<ImportInput> in = {input(f)};
  auto sum = importFiles(in, s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(sum->measurements, 4u);
  ASSERT_EQ(sum->notes.size(), 1u);
  EXPECT_NE(sum->notes[0].find("left out 1 run that failed"), std::string::npos);
}

TEST(ImportTools, HyperfineBenchmarkOptionNeedsOneCommand) {
  test::TempDir dir;
  auto f = dir.write("two.json", R"({"results": [{"command": "a", "times": [1]},
                                                 {"command": "b", "times": [1]}]})");
  Store s = fresh(dir);
  ImportInput in = input(f, "sys");
  in.benchmark = "bench";
  auto sum = importFiles(std::span(&in, 1), s);
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.error(), f + ": 2 commands in the export, but --benchmark names one benchmark "
                             "for all of them");
}

TEST(ImportTools, GbenchFilesAreExecutionsAndRepetitionsIterations) {
  test::TempDir dir;
  auto e0 = dir.write("e0.json", gbench("./build0/bench", 3, 6, 2));
  auto e1 = dir.write("e1.json", gbench("./build0/bench", 7, 8, 3));
  auto f0 = dir.write("f0.json", gbench("./build1/bench", 9, 4.5, 4));
  Store s = fresh(dir);
  // Two executions of build 0, one of build 1; the system is named after the
  // executable when no --system is given.
  std::vector<ImportInput> in = {input(e0, "", 0), input(e1, "", 0), input(f0, "", 1)};
  auto sum = importFiles(in, s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(sum->benchmarks, 2u);
  EXPECT_EQ(sum->executions, 6u);
  EXPECT_EQ(exported(s),
            kHeader +
                // aggregates (mean, cv) skipped; us and ms converted to seconds
                "bench,BM_A,0,0,0,3e-06\nbench,BM_A,0,0,1,6e-06\n"
                "bench,BM_A,0,1,0,7e-06\nbench,BM_A,0,1,1,8e-06\n"
                "bench,BM_A,1,0,0,9e-06\nbench,BM_A,1,0,1,4.5e-06\n"
                "bench,BM_B/8,0,0,0,0.002\nbench,BM_B/8,0,1,0,0.003\nbench,BM_B/8,1,0,0,0.004\n");
}

TEST(ImportTools, GbenchCpuTimeField) {
  test::TempDir dir;
  auto e0 = dir.write("e0.json", gbench("./b", 5, 6, 2));
  Store s = fresh(dir);
  ImportInput in = input(e0, "sys");
  in.field = GbenchField::CpuTime;
  auto sum = importFiles(std::span(&in, 1), s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  EXPECT_EQ(exported(s), kHeader + "sys,BM_A,0,0,0,1e-06\nsys,BM_A,0,0,1,2e-06\n"
                                   "sys,BM_B/8,0,0,0,0.003\n");
}

TEST(ImportTools, GbenchErrorsNameTheFile) {
  test::TempDir dir;
  Store s = fresh(dir);
  auto check = [&](const char *name, const std::string &text, const std::string &expected) {
    EXPECT_EQ(importError(dir, s, name, text, ImportFormat::Gbench),
              dir.file(name) + ": " + expected);
  };
  // Truncated: the offset is the end of the text.
  std::string whole = gbench("./b", 1, 2, 3);
  std::string cut = whole.substr(0, whole.find("{\"name\": \"BM_B/8\""));
  check("cut.json", cut,
        "malformed JSON at byte " + std::to_string(cut.size()) +
            ": syntax error while parsing value - unexpected end of input; expected '[', '{', or "
            "a literal");
  check("aggr.json",
        R"({"benchmarks": [{"name": "BM_A_mean", "run_type": "aggregate", "real_time": 1}]})",
        "only aggregates (mean, median, ...) in the file: run the program without "
        "--benchmark_report_aggregates_only to keep the repetitions");
  check(
      "err.json",
      R"({"benchmarks": [{"name": "BM_A", "error_occurred": true, "error_message": "no input"}]})",
      "benchmark BM_A reported an error: no input");
  check("zero.json", R"({"benchmarks": [{"name": "BM_A", "real_time": 0}]})",
        "benchmarks[0]: real_time is not a positive finite time");
  check("hf.json", R"({"results": []})", "Google Benchmark JSON without a \"benchmarks\" array");
  ImportInput two = input(dir.write("two.json", gbench("./b", 1, 2, 3)), "sys");
  two.benchmark = "one";
  auto sum = importFiles(std::span(&two, 1), s);
  ASSERT_FALSE(sum.ok());
  EXPECT_NE(sum.error().find("2 benchmarks in the file (BM_A, BM_B/8), but --benchmark names one"),
            std::string::npos)
      << sum.error();
}

TEST(ImportTools, SpecFullResultsTableBaseAndPeak) {
  test::TempDir dir;
  // Columns found by name, "Est." prefix ignored; base and peak on their own
  // lines or on one; NR not run; VE left out and said; the Selected Results
  // Table and the metric lines are not read.
  auto f = dir.write("CPU2017.001.intrate.csv",
                     "valid,0\r\n\"SPEC CPU(R)2017 Integer Rate Result\"\r\n"
                     "\"Full Results Table\"\r\n\r\n"
                     "Benchmark,\"Base # Copies\",\"Est. Base Run Time\",\"Est. Base Rate\","
                     "\"Base Selected\",\"Base Status\",\"Peak # Copies\",\"Est. Peak Run Time\","
                     "\"Est. Peak Rate\",\"Peak Selected\",\"Peak Status\",Description\r\n"
                     "505.mcf_r,1,100.5,16,1,S,,,,,NR,\"refrate(ref) iteration #1\"\r\n"
                     "505.mcf_r,1,101.5,16,0,S,,,,,NR,\"refrate(ref) iteration #2\"\r\n"
                     "505.mcf_r,1,99,16,0,VE,,,,,NR,\"refrate(ref) iteration #3\"\r\n"
                     "557.xz_r,1,50,21,1,S,1,40,26,1,S,\"refrate(ref) iteration #1\"\r\n"
                     "557.xz_r,,,,,,1,41,25,0,S,\"refrate(ref) iteration #2\"\r\n"
                     "\r\n\"Selected Results Table\"\r\n\r\n"
                     "Benchmark,\"Base # Copies\",\"Est. Base Run Time\"\r\n"
                     "505.mcf_r,1,100.5\r\nSPECrate(R)2017_int_base,15.3\r\n");
  Store s = fresh(dir);
  std::vector<ImportInput> in = {input(f, "gcc", 3)};
  auto sum = importFiles(in, s);
  ASSERT_TRUE(sum.ok()) << sum.error();
  ASSERT_EQ(sum->notes.size(), 1u);
  EXPECT_EQ(sum->notes[0], f + ": left out 1 iteration with status VE (not a successful run)");
  EXPECT_EQ(exported(s), kHeader + "gcc,505.mcf_r,3,0,0,100.5\ngcc,505.mcf_r,3,1,0,101.5\n"
                                   "gcc,557.xz_r,3,0,0,50\n"
                                   "gcc:peak,557.xz_r,3,0,0,40\ngcc:peak,557.xz_r,3,1,0,41\n");
}

TEST(ImportTools, SpecErrorsAreLocated) {
  test::TempDir dir;
  Store s = fresh(dir);
  auto check = [&](const char *name, const std::string &text, const std::string &expected) {
    EXPECT_EQ(importError(dir, s, name, text, ImportFormat::Spec), dir.file(name) + expected);
  };
  const std::string head = "\"Full Results Table\"\nBenchmark,\"Base Run Time\",\"Base Status\"\n";
  check("none.csv", "system,value\na,1\n",
        ": no \"Full Results Table\" line: not a runcpu result CSV");
  check("time.csv", head + "505.mcf_r,fast,S\n",
        ":3: 505.mcf_r: base run time \"fast\" is not a positive number of seconds");
  check("quote.csv", head + "505.mcf_r,\"1\"x,S\n",
        ":3:14: unexpected character after a closing quote (quotes inside a field must be "
        "doubled)");
  check("cols.csv", "\"Full Results Table\"\nBenchmark,\"Run Time\"\n505.mcf_r,1\n",
        ":2: the Full Results Table's header has neither \"Base Run Time\" and \"Base Status\" nor "
        "\"Peak Run Time\" and \"Peak Status\"");
  check("empty.csv", head + "505.mcf_r,,NR\n",
        ": no iteration with status S in the Full Results Table");
}

TEST(ImportTools, LongCsvMustBeAlone) {
  test::TempDir dir;
  Store s = fresh(dir);
  auto csv = dir.write("d.csv", "system,build,value\na,0,1\n");
  std::vector<ImportInput> in = {input(csv, "x")};
  auto sum = importFiles(in, s);
  ASSERT_FALSE(sum.ok());
  EXPECT_NE(sum.error().find("a long CSV names its systems"), std::string::npos);
}

// The settings `alea report` analyses a store with travel with its export,
// in one comment line before the header that no name can break.
TEST(ExportSettings, CommentLineRoundTripsEveryName) {
  for (const std::string &baseline :
       {std::string("O1"), std::string("a b%c#d"), std::string("x\n# alea: design=duet"),
        std::string("\xC3\xA9t\xC3\xA9")}) {
    ExportSettings s;
    s.design = "interleaved";
    s.threshold = 0.02;
    s.confidence = 0.99;
    s.baseline = baseline;
    const std::string line = exportComment(s);
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    EXPECT_EQ(line.rfind(" alea: design=interleaved threshold=0.02 confidence=0.99 baseline=", 0),
              0u)
        << line;
    auto back = readExportComment({"some other comment", line});
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_TRUE(back->has_value());
    EXPECT_EQ((*back)->design, "interleaved");
    EXPECT_EQ((*back)->threshold, 0.02);
    EXPECT_EQ((*back)->confidence, 0.99);
    EXPECT_EQ((*back)->baseline, baseline);
  }
  auto none = readExportComment({"written by hand"});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto bad = readExportComment({" alea: threshold=2"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "'# alea: threshold=2': threshold '2' is not a fraction in [0, 1)");
  EXPECT_FALSE(readExportComment({" alea: design=sideways"}).ok());
  EXPECT_FALSE(readExportComment({" alea: baseline=%4"}).ok());
  // A later alea's keys are skipped.
  auto later = readExportComment({" alea: colour=blue threshold=0.05"});
  ASSERT_TRUE(later.ok());
  EXPECT_EQ((*later)->threshold, 0.05);
}

// A campaign's design, threshold, confidence and baseline (store meta) are in
// its export; importing that export gives a store with the same settings, so
// that its report analyses it as the campaign's did.
TEST(ExportSettings, ExportCarriesTheCampaignsSettingsAndImportKeepsThem) {
  test::TempDir dir;
  Store s = fresh(dir);
  ASSERT_TRUE(
      importLongCsv("system,build,value\nbase,0,1\nbase,1,2\ncand,0,1\ncand,1,2\n", "in.csv", s)
          .ok());
  for (auto [k, v] : {std::pair{"design", "interleaved"}, std::pair{"threshold", "0.020000"},
                      std::pair{"confidence", "0.990000"}})
    ASSERT_TRUE(s.setMeta(k, v).ok());
  std::ostringstream out;
  ASSERT_TRUE(exportLongCsv(s, out).ok());
  const std::string csv = out.str();
  EXPECT_EQ(csv.substr(0, csv.find('\n') + 1),
            "# alea: design=interleaved threshold=0.02 confidence=0.99 baseline=base\n");
  // alea analyze reads the same line from the parsed file.
  auto parsed = alea::analysis::parseCsv(csv);
  ASSERT_FALSE(parsed.error);
  ASSERT_EQ(parsed.comments.size(), 1u);
  auto settings = readExportComment(parsed.comments);
  ASSERT_TRUE(settings.ok() && settings->has_value());
  EXPECT_EQ((*settings)->design, "interleaved");

  Store t = fresh(dir, "t.db");
  ASSERT_TRUE(importLongCsv(csv, "exported.csv", t, "my study").ok());
  EXPECT_EQ(t.meta("design").value_or(""), "interleaved");
  EXPECT_EQ(t.meta("threshold").value_or(""), "0.02");
  EXPECT_EQ(t.meta("confidence").value_or(""), "0.99");
  EXPECT_EQ(t.meta("baseline").value_or(""), "base");
  EXPECT_EQ(t.meta("campaign_name").value_or(""), "my study");
}

// `alea import --name`: the campaign's name in the store; by default the
// first file's name without its extension.
TEST(ImportTools, NameOptionNamesTheCampaign) {
  test::TempDir dir;
  auto f = dir.write("run.json", R"({"results": [{"command": "a", "times": [1.0, 2.0]}]})");
  Store s = fresh(dir);
  std::vector<ImportInput> in = {input(f)};
  ASSERT_TRUE(importFiles(in, s, "gcc vs clang, March").ok());
  EXPECT_EQ(s.meta("campaign_name").value_or(""), "gcc vs clang, March");
  Store t = fresh(dir, "t.db");
  ASSERT_TRUE(importFiles(in, t).ok());
  EXPECT_EQ(t.meta("campaign_name").value_or(""), "run");
}
