// Tests of measurement extraction (runner/exec/include/alea/exec/measure.hpp):
// the [measure] table with its error positions, the None/Regex sources, the
// failure classification, the <alea/iter.h> record format (encoded here, and
// written by a real C program through a real pipe), and Google Benchmark JSON
// produced at test time by a real google/benchmark program.
#include "alea/config/measure_spec_toml.hpp"
#include "alea/exec/measure.hpp"

#include <alea/iter.h>

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <regex>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace alea::runner {
namespace {

// --- helpers -------------------------------------------------------------

MeasureSpecResult parseSpec(std::string_view text) {
  toml::table doc = toml::parse(text, std::string_view("campaign.toml"));
  const toml::table *t = doc["measure"].as_table();
  EXPECT_NE(t, nullptr);
  if (!t) // (a copied table would lose its source positions)
    return parseMeasureSpec(toml::table{});
  return parseMeasureSpec(*t);
}

struct Captured {
  std::string out;
  std::string pipeBytes;
  int status = 0;
};

// Runs argv with stdout captured and, when withPipe, ALEA_ITER_FD naming the
// write end of a pipe whose bytes are collected (what the executor does).
Captured runChild(std::vector<std::string> argv, bool withPipe) {
  Captured c;
  int outPipe[2], iterPipe[2];
  EXPECT_EQ(pipe(outPipe), 0);
  EXPECT_EQ(pipe(iterPipe), 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, outPipe[1], 1);
  posix_spawn_file_actions_addclose(&fa, outPipe[0]);
  posix_spawn_file_actions_addclose(&fa, iterPipe[0]);
  if (!withPipe)
    posix_spawn_file_actions_addclose(&fa, iterPipe[1]);
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    if (std::string_view(*e).substr(0, 13) != "ALEA_ITER_FD=")
      env.emplace_back(*e);
  if (withPipe)
    env.push_back("ALEA_ITER_FD=" + std::to_string(iterPipe[1]));
  std::vector<char *> argvp, envp;
  for (auto &a : argv)
    argvp.push_back(a.data());
  argvp.push_back(nullptr);
  for (auto &e : env)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid;
  EXPECT_EQ(posix_spawn(&pid, argvp[0], &fa, nullptr, argvp.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&fa);
  close(outPipe[1]);
  close(iterPipe[1]);
  // Small outputs: drain the record pipe after stdout; both fit in pipe buffers
  // for the fixtures used here (< 64 KiB each).
  char buf[4096];
  ssize_t n;
  while ((n = read(outPipe[0], buf, sizeof buf)) > 0)
    c.out.append(buf, n);
  while ((n = read(iterPipe[0], buf, sizeof buf)) > 0)
    c.pipeBytes.append(buf, n);
  close(outPipe[0]);
  close(iterPipe[0]);
  waitpid(pid, &c.status, 0);
  return c;
}

// --- [measure] table -----------------------------------------------------

TEST(MeasureSpec, EmptyTableMeansWallTimePerExecution) {
  auto r = parseSpec("[measure]\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.spec.source, IterationSource::None);
  EXPECT_EQ(r.spec.metric, Metric::Wall);
  EXPECT_EQ(r.spec.valueUnit(), "s");
}

TEST(MeasureSpec, RegexWithUnit) {
  auto r = parseSpec("[measure]\nsource = \"regex\"\nregex = 'took ([0-9.]+) ms'\n"
                     "unit = \"ms\"\nstream = \"stderr\"\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.spec.source, IterationSource::Regex);
  EXPECT_EQ(r.spec.stream, OutputStream::Stderr);
  EXPECT_DOUBLE_EQ(r.spec.unitScale, 1e-3);
}

TEST(MeasureSpec, GbenchAndRecordsAndRss) {
  auto g = parseSpec("[measure]\nsource = \"gbench\"\nfield = \"cpu_time\"\n"
                     "filter = \"BM_.*\"\n");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g.spec.source, IterationSource::GoogleBenchmarkJson);
  EXPECT_EQ(g.spec.gbenchField, GbenchField::CpuTime);
  EXPECT_EQ(g.spec.gbenchFilter, "BM_.*");
  auto rec = parseSpec("[measure]\nsource = \"records\"\n");
  ASSERT_TRUE(rec.ok());
  EXPECT_EQ(rec.spec.source, IterationSource::Records);
  auto rss = parseSpec("[measure]\nmetric = \"rss\"\n");
  ASSERT_TRUE(rss.ok());
  EXPECT_EQ(rss.spec.valueUnit(), "KiB");
}

TEST(MeasureSpec, UnknownSourceGivesLineColumnAndChoices) {
  auto r = parseSpec("# campaign\n[measure]\nsource = \"perf\"\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line, 3);
  EXPECT_EQ(r.error->column, 10); // the value starts after `source = `
  EXPECT_NE(r.error->message.find("none, regex, gbench, records"), std::string::npos);
  EXPECT_NE(r.error->message.find("\"perf\""), std::string::npos);
}

TEST(MeasureSpec, WrongTypeIsAnError) {
  auto r = parseSpec("[measure]\nsource = 3\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line, 2);
  EXPECT_NE(r.error->message.find("expected a string"), std::string::npos);
}

TEST(MeasureSpec, UnknownKeyIsAnError) {
  auto r = parseSpec("[measure]\nsource = \"none\"\n  metrik = \"wall\"\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line, 3);
  EXPECT_EQ(r.error->column, 12);
  EXPECT_NE(r.error->message.find("metrik"), std::string::npos);
}

TEST(MeasureSpec, KeyOfAnotherSourceIsAnError) {
  auto r = parseSpec("[measure]\nsource = \"records\"\nregex = '(x)'\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line, 3);
  EXPECT_NE(r.error->message.find("only applies to source = \"regex\""), std::string::npos);
}

TEST(MeasureSpec, RegexSourceNeedsARegexWithAGroup) {
  auto missing = parseSpec("[measure]\nsource = \"regex\"\n");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error->line, 1); // the table itself
  EXPECT_NE(missing.error->message.find("needs a regex"), std::string::npos);
  auto noGroup = parseSpec("[measure]\nsource = \"regex\"\nregex = '[0-9]+'\n");
  ASSERT_FALSE(noGroup.ok());
  EXPECT_EQ(noGroup.error->line, 3);
  EXPECT_NE(noGroup.error->message.find("capture group"), std::string::npos);
  auto bad = parseSpec("[measure]\nsource = \"regex\"\nregex = '(['\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error->message.find("invalid regular expression"), std::string::npos);
}

TEST(MeasureSpec, UnknownUnitIsAnError) {
  auto r = parseSpec("[measure]\nsource = \"regex\"\nregex = '(x)'\nunit = \"m\"\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line, 4);
  EXPECT_NE(r.error->message.find("ns, us, ms, s, min"), std::string::npos);
}

TEST(MeasureSpec, InlineTableForABenchmark) {
  toml::table doc = toml::parse("[[benchmark]]\nname = \"a\"\nmeasure = { source = \"gbench\" }\n");
  const toml::table *t = doc["benchmark"][0]["measure"].as_table();
  ASSERT_NE(t, nullptr);
  auto r = parseMeasureSpec(*t);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.spec.source, IterationSource::GoogleBenchmarkJson);
}

TEST(Units, SecondsPerUnit) {
  EXPECT_DOUBLE_EQ(*unitToSeconds("ns"), 1e-9);
  EXPECT_DOUBLE_EQ(*unitToSeconds("us"), 1e-6);
  EXPECT_DOUBLE_EQ(*unitToSeconds("ms"), 1e-3);
  EXPECT_DOUBLE_EQ(*unitToSeconds("s"), 1.0);
  EXPECT_DOUBLE_EQ(*unitToSeconds("min"), 60.0);
  EXPECT_FALSE(unitToSeconds("m"));
  EXPECT_FALSE(unitToSeconds(""));
}

// --- None source and failures
// -------------------------------------------------

TEST(ExtractNone, EachMetric) {
  ExecutionOutput out;
  out.wallSeconds = 0.5;
  out.userSeconds = 0.25;
  out.sysSeconds = 0.125;
  out.maxRssKib = 2048;
  MeasureSpec spec;
  for (auto [metric, expected] :
       {std::pair{Metric::Wall, 0.5}, std::pair{Metric::User, 0.25}, std::pair{Metric::Sys, 0.125},
        std::pair{Metric::Cpu, 0.375}, std::pair{Metric::Rss, 2048.0}}) {
    spec.metric = metric;
    auto ex = extractIterations(spec, out);
    ASSERT_TRUE(ex.ok()) << ex.error;
    ASSERT_EQ(ex.values.size(), 1u);
    EXPECT_DOUBLE_EQ(ex.values[0], expected);
  }
}

TEST(ExtractNone, ZeroCpuTimeIsNotAMeasurement) {
  ExecutionOutput out;
  out.wallSeconds = 0.001;
  MeasureSpec spec;
  spec.metric = Metric::Sys;
  auto ex = extractIterations(spec, out);
  EXPECT_FALSE(ex.ok());
  EXPECT_TRUE(ex.values.empty());
}

TEST(DescribeFailure, SignalTimeoutAndExitStatus) {
  ExecutionOutput ok;
  EXPECT_EQ(describeFailure(ok), "");
  ExecutionOutput segv;
  segv.signal = SIGSEGV;
  EXPECT_EQ(describeFailure(segv), "killed by signal " + std::to_string(SIGSEGV) + " (SIGSEGV)");
  ExecutionOutput hung;
  hung.timedOut = true;
  hung.signal = SIGKILL;
  hung.wallSeconds = 2;
  EXPECT_EQ(describeFailure(hung), "timed out after 2.00 s");
  ExecutionOutput three;
  three.exitCode = 3;
  EXPECT_EQ(describeFailure(three), "exit status 3, expected 0");
  EXPECT_EQ(describeFailure(three, 3), "");
}

TEST(MeasureExecution, FailureWinsOverOutput) {
  MeasureSpec spec;
  spec.source = IterationSource::Regex;
  spec.regex = "t=([0-9.]+)";
  ExecutionOutput out;
  out.stdoutText = "t=1.5\n";
  out.signal = SIGSEGV;
  auto ex = measureExecution(spec, out);
  EXPECT_FALSE(ex.ok());
  EXPECT_TRUE(ex.values.empty());
  out.signal = 0;
  ex = measureExecution(spec, out);
  ASSERT_TRUE(ex.ok());
  EXPECT_EQ(ex.values, std::vector<double>{1.5});
}

// --- Regex source ------------------------------------------------------------

TEST(ExtractRegex, EveryMatchInOrderScaledToSeconds) {
  MeasureSpec spec;
  spec.source = IterationSource::Regex;
  spec.regex = R"(iteration \d+: ([0-9.eE+-]+) ms)";
  spec.unitScale = 1e-3;
  ExecutionOutput out;
  out.stdoutText = "warming up\niteration 0: 12.5 ms\niteration 1: 10 ms\n"
                   "noise iteration x: 3 ms\niteration 2: 1.1e1 ms\ndone\n";
  auto ex = extractIterations(spec, out);
  ASSERT_TRUE(ex.ok()) << ex.error;
  ASSERT_EQ(ex.values.size(), 3u);
  EXPECT_DOUBLE_EQ(ex.values[0], 0.0125);
  EXPECT_DOUBLE_EQ(ex.values[1], 0.010);
  EXPECT_DOUBLE_EQ(ex.values[2], 0.011);
}

TEST(ExtractRegex, ReadsStderrWhenAsked) {
  MeasureSpec spec;
  spec.source = IterationSource::Regex;
  spec.regex = "time ([0-9.]+)";
  spec.stream = OutputStream::Stderr;
  ExecutionOutput out;
  out.stdoutText = "time 9\n";
  out.stderrTail = "time 2\ntime 3\n";
  auto ex = extractIterations(spec, out);
  ASSERT_TRUE(ex.ok());
  EXPECT_EQ(ex.values, (std::vector<double>{2, 3}));
}

TEST(ExtractRegex, GarbageOutputIsAFailure) {
  MeasureSpec spec;
  spec.source = IterationSource::Regex;
  spec.regex = "time ([0-9.]+)";
  ExecutionOutput out;
  out.stdoutText = "\x01\x02 lorem ipsum\nsegfault? no\n";
  auto ex = extractIterations(spec, out);
  EXPECT_FALSE(ex.ok());
  EXPECT_EQ(ex.error, "no iteration matched /time ([0-9.]+)/ in stdout");
}

TEST(ExtractRegex, NonNumberOrNonPositiveCaptureIsAFailure) {
  MeasureSpec spec;
  spec.source = IterationSource::Regex;
  spec.regex = "time (\\S+)";
  ExecutionOutput out;
  out.stdoutText = "time 1\ntime abc\n";
  auto ex = extractIterations(spec, out);
  EXPECT_FALSE(ex.ok());
  EXPECT_NE(ex.error.find("\"abc\""), std::string::npos);
  EXPECT_NE(ex.error.find("not a number"), std::string::npos);
  out.stdoutText = "time 1\ntime 0\n";
  ex = extractIterations(spec, out);
  EXPECT_FALSE(ex.ok());
  EXPECT_NE(ex.error.find("iteration 1"), std::string::npos);
  out.stdoutText = "time -2\n";
  EXPECT_FALSE(extractIterations(spec, out).ok());
}

// --- records
// -------------------------------------------------------------------

std::string rec(iter::Kind kind, std::uint64_t index, std::uint64_t ns) {
  return iter::encode({kind, index, ns});
}

TEST(Records, EncodingIsTheDocumentedLittleEndianLayout) {
  std::string r = rec(iter::Kind::End, 0x0102, 0x1122334455667788ULL);
  ASSERT_EQ(r.size(), 24u);
  EXPECT_EQ(r.substr(0, 4), "ALIT");
  const unsigned char expect[24] = {'A',  'L',  'I',  'T',  1,    0,    2,    0,
                                    0x02, 0x01, 0,    0,    0,    0,    0,    0,
                                    0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
  EXPECT_EQ(r, std::string(reinterpret_cast<const char *>(expect), 24));
}

TEST(Records, BeginEndPairsAndDurations) {
  std::string bytes = rec(iter::Kind::Begin, 0, 1000) + rec(iter::Kind::End, 0, 3500) +
                      rec(iter::Kind::Duration, 1, 7000) + rec(iter::Kind::Begin, 2, 10000) +
                      rec(iter::Kind::End, 2, 10001);
  auto ex = parseRecords(bytes);
  ASSERT_TRUE(ex.ok()) << ex.error;
  ASSERT_EQ(ex.values.size(), 3u);
  EXPECT_DOUBLE_EQ(ex.values[0], 2500e-9);
  EXPECT_DOUBLE_EQ(ex.values[1], 7000e-9);
  EXPECT_DOUBLE_EQ(ex.values[2], 1e-9);
}

TEST(Records, TruncatedTail) {
  std::string bytes = rec(iter::Kind::Begin, 0, 1) + rec(iter::Kind::End, 0, 2);
  bytes += rec(iter::Kind::Begin, 1, 3).substr(0, 10);
  auto ex = parseRecords(bytes);
  EXPECT_FALSE(ex.ok());
  EXPECT_EQ(ex.error, "truncated record (10 of 24 bytes) at byte 48");
  EXPECT_TRUE(ex.values.empty());
}

TEST(Records, GarbageIsRejectedWithItsOffset) {
  std::string bytes = rec(iter::Kind::Duration, 0, 5);
  bytes += std::string(24, 'x');
  auto ex = parseRecords(bytes);
  EXPECT_FALSE(ex.ok());
  EXPECT_EQ(ex.error, "bad record magic (not an <alea/iter.h> record) at byte 24");
}

TEST(Records, StructuralErrors) {
  EXPECT_NE(parseRecords(rec(iter::Kind::End, 4, 5)).error.find("ended without beginning"),
            std::string::npos);
  EXPECT_NE(parseRecords(rec(iter::Kind::Begin, 4, 5)).error.find("began but never ended"),
            std::string::npos);
  EXPECT_NE(parseRecords(rec(iter::Kind::Begin, 4, 5) + rec(iter::Kind::Begin, 4, 6))
                .error.find("began twice"),
            std::string::npos);
  EXPECT_NE(parseRecords(rec(iter::Kind::Begin, 0, 5) + rec(iter::Kind::End, 0, 5))
                .error.find("non-positive duration"),
            std::string::npos);
  EXPECT_NE(parseRecords(rec(static_cast<iter::Kind>(9), 0, 5)).error.find("unknown record kind 9"),
            std::string::npos);
  std::string v2 = rec(iter::Kind::Duration, 0, 5);
  v2[4] = 2;
  EXPECT_NE(parseRecords(v2).error.find("unsupported record version 2"), std::string::npos);
  EXPECT_NE(parseRecords("").error.find("no iteration matched"), std::string::npos);
}

// The header compiled as C++ in this file: with ALEA_ITER_FD set to a pipe the
// calls write records; the runner's parser reads them back.
TEST(IterHeader, CxxInProcessThroughAPipe) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  setenv("ALEA_ITER_FD", std::to_string(fds[1]).c_str(), 1);
  for (int i = 0; i < 4; ++i) {
    alea_iter_begin();
    volatile double x = 0;
    for (int k = 0; k < 1000; ++k)
      x = x + std::sqrt(static_cast<double>(k));
    alea_iter_end();
  }
  alea_iter_report(42);
  unsetenv("ALEA_ITER_FD");
  close(fds[1]);
  std::string bytes;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    bytes.append(buf, n);
  close(fds[0]);
  EXPECT_EQ(bytes.size(), 9 * iter::kRecordSize);
  auto ex = parseRecords(bytes);
  ASSERT_TRUE(ex.ok()) << ex.error;
  ASSERT_EQ(ex.values.size(), 5u);
  for (int i = 0; i < 4; ++i)
    EXPECT_GT(ex.values[i], 0);
  EXPECT_DOUBLE_EQ(ex.values[4], 42e-9);
}

// The header compiled as C (-std=c99 -pedantic) in a separate program, run as
// the executor runs benchmarks.
TEST(IterHeader, CProgramThroughAPipe) {
  auto c = runChild({ALEA_MEASURE_ITER_FIXTURE, "5", "2"}, true);
  ASSERT_TRUE(WIFEXITED(c.status));
  EXPECT_EQ(WEXITSTATUS(c.status), 0);
  EXPECT_EQ(c.pipeBytes.size(), 12 * iter::kRecordSize);
  ExecutionOutput out;
  out.records = c.pipeBytes;
  MeasureSpec spec;
  spec.source = IterationSource::Records;
  auto ex = extractIterations(spec, out);
  ASSERT_TRUE(ex.ok()) << ex.error;
  ASSERT_EQ(ex.values.size(), 7u);
  EXPECT_DOUBLE_EQ(ex.values[5], 1000e-9);
  EXPECT_DOUBLE_EQ(ex.values[6], 2000e-9);
}

TEST(IterHeader, StandaloneWithoutTheVariableWritesNothing) {
  auto c = runChild({ALEA_MEASURE_ITER_FIXTURE, "3", "1"}, false);
  ASSERT_TRUE(WIFEXITED(c.status));
  EXPECT_EQ(WEXITSTATUS(c.status), 0);
  EXPECT_TRUE(c.pipeBytes.empty());
  EXPECT_FALSE(c.out.empty()); // it still did its work
}

// --- Google Benchmark JSON ---------------------------------------------------

#ifdef ALEA_MEASURE_GBENCH_FIXTURE // libbenchmark-dev (scripts/setup.sh)
// Real output of a google/benchmark program, produced once per test process.
const std::string &gbenchJson() {
  static const std::string json = [] {
    auto c = runChild(
        {ALEA_MEASURE_GBENCH_FIXTURE, "--benchmark_format=json", "--benchmark_repetitions=3"},
        false);
    EXPECT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
    return c.out;
  }();
  return json;
}

// Independent reading of the same text: the numbers that follow `"<field>":`
// inside the first `count` objects whose "name" is `name`.
std::vector<double> scrape(const std::string &json, const std::string &name,
                           const std::string &field, std::size_t count) {
  std::vector<double> v;
  std::size_t pos = 0;
  const std::string key = "\"name\": \"" + name + "\"";
  while (v.size() < count && (pos = json.find(key, pos)) != std::string::npos) {
    std::size_t end = json.find('}', pos);
    std::string obj = json.substr(pos, end - pos);
    std::smatch m;
    EXPECT_TRUE(std::regex_search(obj, m, std::regex("\"" + field + "\": ([-0-9.e+]+)")));
    v.push_back(std::stod(m[1]));
    pos = end;
  }
  return v;
}

TEST(Gbench, RepetitionsOfTheChosenBenchmarkInSeconds) {
  const std::string &json = gbenchJson();
  ASSERT_FALSE(json.empty());
  auto ex = parseGoogleBenchmarkJson(json, GbenchField::RealTime, "BM_Sum");
  ASSERT_TRUE(ex.ok()) << ex.error;
  auto expected = scrape(json, "BM_Sum/iterations:200", "real_time", 3);
  ASSERT_EQ(expected.size(), 3u);
  ASSERT_EQ(ex.values.size(),
            3u); // aggregates (mean, median, stddev, cv) skipped
  for (int i = 0; i < 3; ++i)
    EXPECT_DOUBLE_EQ(ex.values[i], expected[i] * 1e-6); // BM_Sum is in us
}

TEST(Gbench, CpuTimeAndNanosecondUnit) {
  const std::string &json = gbenchJson();
  auto ex = parseGoogleBenchmarkJson(json, GbenchField::CpuTime, "BM_Hash.*");
  ASSERT_TRUE(ex.ok()) << ex.error;
  auto expected = scrape(json, "BM_Hash/iterations:500", "cpu_time", 3);
  ASSERT_EQ(ex.values.size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_DOUBLE_EQ(ex.values[i], expected[i] * 1e-9);
}

TEST(Gbench, SeveralBenchmarksNeedAFilter) {
  auto ex = parseGoogleBenchmarkJson(gbenchJson(), GbenchField::RealTime, "");
  EXPECT_FALSE(ex.ok());
  EXPECT_NE(ex.error.find("set measure.filter"), std::string::npos);
  ex = parseGoogleBenchmarkJson(gbenchJson(), GbenchField::RealTime, "BM_None");
  EXPECT_FALSE(ex.ok());
  EXPECT_NE(ex.error.find("no iteration matched"), std::string::npos);
}

// The environment the runner gives a gbench execution makes the real library
// write JSON with the campaign's repetitions of the filtered benchmark only,
// with no flag on the command line; a console flag there wins, and the error
// says so.
TEST(Gbench, RealProgramFollowsTheSourceEnvironment) {
  MeasureSpec spec;
  spec.source = IterationSource::GoogleBenchmarkJson;
  spec.gbenchFilter = "BM_Hash";
  for (const auto &[k, v] : sourceEnvironment(spec, 4))
    setenv(k.c_str(), v.c_str(), 1);
  auto c = runChild({ALEA_MEASURE_GBENCH_FIXTURE}, false);
  auto console = runChild({ALEA_MEASURE_GBENCH_FIXTURE, "--benchmark_format=console"}, false);
  for (const char *k : {"BENCHMARK_FORMAT", "BENCHMARK_REPETITIONS", "BENCHMARK_FILTER"})
    unsetenv(k);
  EXPECT_EQ(c.out.find("BM_Sum"), std::string::npos); // the program ran BM_Hash alone
  auto ex = parseGoogleBenchmarkJson(c.out, GbenchField::CpuTime, spec.gbenchFilter);
  ASSERT_TRUE(ex.ok()) << ex.error;
  auto expected = scrape(c.out, "BM_Hash/iterations:500", "cpu_time", 10);
  ASSERT_EQ(expected.size(), 4u); // 4 repetitions, then the aggregates
  ASSERT_EQ(ex.values.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(ex.values[i], expected[i] * 1e-9);
    EXPECT_GT(ex.values[i], 0);
  }
  ex = parseGoogleBenchmarkJson(console.out, GbenchField::CpuTime, spec.gbenchFilter);
  EXPECT_EQ(ex.error.rfind("stdout is not Google Benchmark JSON: it begins with \"", 0), 0u)
      << ex.error;
}

TEST(Gbench, TruncatedOutputIsMalformedAtItsEnd) {
  const std::string &json = gbenchJson();
  std::string cut = json.substr(0, json.size() / 2);
  // Cut just after a structural character so the error is end-of-input.
  while (!cut.empty() && cut.back() != ',')
    cut.pop_back();
  auto ex = parseGoogleBenchmarkJson(cut, GbenchField::RealTime, "BM_Sum");
  EXPECT_FALSE(ex.ok());
  EXPECT_EQ(ex.error.rfind("malformed JSON at byte " + std::to_string(cut.size()), 0), 0u)
      << ex.error;
}

#endif

TEST(Gbench, OutputThatIsNotJsonSaysWhatItWasAndHowToGetJson) {
  // The console reporter's first line, as a --benchmark_format=console on the
  // command line (which wins over BENCHMARK_FORMAT=json) makes the program write.
  auto ex = parseGoogleBenchmarkJson("\n2026-11-24T09:35:53+00:00\r\nRunning ./gb\n",
                                     GbenchField::RealTime, "");
  EXPECT_EQ(ex.error, "stdout is not Google Benchmark JSON: it begins with "
                      "\"2026-11-24T09:35:53+00:00\" (alea runs the program with "
                      "BENCHMARK_FORMAT=json in its environment; a --benchmark_format=console (or "
                      "csv) on its command line overrides that: remove it)");
  ex = parseGoogleBenchmarkJson(" \n", GbenchField::RealTime, "");
  EXPECT_EQ(ex.error.rfind("the program wrote nothing on stdout, expected Google Benchmark JSON "
                           "(alea runs the program with BENCHMARK_FORMAT=json",
                           0),
            0u)
      << ex.error;
  // A long first line is cut.
  ex = parseGoogleBenchmarkJson(std::string(300, 'x'), GbenchField::RealTime, "");
  EXPECT_NE(ex.error.find("\"" + std::string(120, 'x') + "...\""), std::string::npos);
}

TEST(Gbench, OnlyAggregatesSaysWhichFlagDropsTheRepetitions) {
  auto ex = parseGoogleBenchmarkJson(
      R"({"benchmarks": [{"name": "BM_A_mean", "run_name": "BM_A", "run_type": "aggregate",
          "real_time": 1}]})",
      GbenchField::RealTime, "BM_A");
  EXPECT_NE(ex.error.find("only aggregates"), std::string::npos) << ex.error;
  EXPECT_NE(ex.error.find("--benchmark_report_aggregates_only"), std::string::npos);
}

TEST(Gbench, SourceEnvironmentAsksForJsonAndRepetitions) {
  MeasureSpec spec;
  EXPECT_TRUE(sourceEnvironment(spec, 5).empty()); // source none: nothing
  spec.source = IterationSource::GoogleBenchmarkJson;
  using Env = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(sourceEnvironment(spec, 6),
            (Env{{"BENCHMARK_FORMAT", "json"}, {"BENCHMARK_REPETITIONS", "6"}}));
  spec.gbenchFilter = "BM_Work";
  EXPECT_EQ(sourceEnvironment(spec, 3), (Env{{"BENCHMARK_FORMAT", "json"},
                                             {"BENCHMARK_REPETITIONS", "3"},
                                             {"BENCHMARK_FILTER", "BM_Work"}}));
  // google/benchmark reads a leading '-' as a negative filter: alea keeps it.
  spec.gbenchFilter = "-BM_Slow";
  EXPECT_EQ(sourceEnvironment(spec, 3).size(), 2u);
}

TEST(Gbench, MalformedJsonIsLocated) {
  auto ex = parseGoogleBenchmarkJson("{\"benchmarks\": [1,]}", GbenchField::RealTime, "");
  EXPECT_EQ(ex.error.rfind("malformed JSON at byte 18", 0), 0u) << ex.error;
  ex = parseGoogleBenchmarkJson("{} {}", GbenchField::RealTime, "");
  EXPECT_EQ(ex.error.rfind("malformed JSON at byte 3", 0), 0u) << ex.error;
  ex = parseGoogleBenchmarkJson("[]", GbenchField::RealTime, "");
  EXPECT_EQ(ex.error.rfind("stdout is not Google Benchmark JSON: it begins with \"[]\"", 0), 0u)
      << ex.error;
  ex = parseGoogleBenchmarkJson("{\"x\": 1}", GbenchField::RealTime, "");
  EXPECT_NE(ex.error.find("\"benchmarks\" array"), std::string::npos);
}

TEST(Gbench, HandWrittenEdgeCases) {
  // Escapes, NaN counters, default unit ns, aggregates skipped.
  const char *json = R"({"context": {"note": "a\"b\u00e9\n", "x": NaN},
    "benchmarks": [
      {"name": "BM_A", "run_type": "iteration", "real_time": 2.5e3, "cpu_time": 1,
       "counter": -Infinity},
      {"name": "BM_A_mean", "run_name": "BM_A", "run_type": "aggregate", "real_time": 0},
      {"name": "BM_A", "real_time": 1000, "time_unit": "ms"}]})";
  auto ex = parseGoogleBenchmarkJson(json, GbenchField::RealTime, "");
  ASSERT_TRUE(ex.ok()) << ex.error;
  ASSERT_EQ(ex.values.size(), 2u);
  EXPECT_DOUBLE_EQ(ex.values[0], 2.5e-6);
  EXPECT_DOUBLE_EQ(ex.values[1], 1.0);
}

TEST(Gbench, NonFiniteBarewordsAreNumbersOnlyOutsideStrings) {
  // A benchmark named after them keeps its name; a non-finite time is a bad
  // time, not malformed JSON; offsets after one count the text as it was.
  auto ex = parseGoogleBenchmarkJson(
      R"({"benchmarks": [{"name": "BM_NaN/Infinity\"-NaN", "real_time": 2, "rate": NaN}]})",
      GbenchField::RealTime, "^BM_NaN/Infinity\"-NaN$");
  ASSERT_TRUE(ex.ok()) << ex.error;
  EXPECT_EQ(ex.values, std::vector<double>{2e-9});
  ex = parseGoogleBenchmarkJson(R"({"benchmarks": [{"name": "BM_A", "real_time": Infinity}]})",
                                GbenchField::RealTime, "");
  EXPECT_NE(ex.error.find("real_time is not a positive finite time"), std::string::npos)
      << ex.error;
  ex = parseGoogleBenchmarkJson(R"({"x": -Infinity, "y": ?})", GbenchField::RealTime, "");
  EXPECT_EQ(ex.error.rfind("malformed JSON at byte 22:", 0), 0u) << ex.error;
}

TEST(Gbench, ReportedErrorOrBadTimeIsAFailure) {
  auto ex = parseGoogleBenchmarkJson(
      R"({"benchmarks": [{"name": "BM_A", "error_occurred": true,
          "error_message": "file missing", "real_time": 0}]})",
      GbenchField::RealTime, "");
  EXPECT_EQ(ex.error, "benchmark BM_A reported an error: file missing");
  ex = parseGoogleBenchmarkJson(R"({"benchmarks": [{"name": "BM_A", "real_time": 0}]})",
                                GbenchField::RealTime, "");
  EXPECT_NE(ex.error.find("not a positive finite time"), std::string::npos);
  ex = parseGoogleBenchmarkJson(
      R"({"benchmarks": [{"name": "BM_A", "real_time": 1, "time_unit": "fortnight"}]})",
      GbenchField::RealTime, "");
  EXPECT_NE(ex.error.find("unknown time_unit"), std::string::npos);
}

// --- streaming (IterationStream) -------------------------------------------

// Feeds `text` in pieces of `piece` bytes, as a pipe may deliver it.
Extraction streamed(const MeasureSpec &spec, OutputChannel channel, std::string_view text,
                    std::size_t piece) {
  IterationStream stream(spec);
  for (std::size_t at = 0; at < text.size(); at += piece)
    stream.write(channel, text.substr(at, piece));
  return stream.finish(ExecutionOutput{});
}

MeasureSpec regexSpec(std::string regex) {
  MeasureSpec spec;
  spec.source = IterationSource::Regex;
  spec.regex = std::move(regex);
  return spec;
}

TEST(IterationStream, AnyChunkingGivesTheSameIterations) {
  MeasureSpec spec = regexSpec("t=([0-9.]+)");
  std::string text = "warm t=0.5\nnoise\nt=1.25 t=1.5\r\n\nend t=2";
  for (std::size_t piece : {1, 2, 3, 7, 4096}) {
    auto ex = streamed(spec, OutputChannel::Stdout, text, piece);
    ASSERT_TRUE(ex.ok()) << ex.error;
    EXPECT_EQ(ex.values, (std::vector<double>{0.5, 1.25, 1.5, 2})) << "pieces of " << piece;
  }
}

TEST(IterationStream, MatchesWithinEachLineSoAnchorsWorkPerLine) {
  auto ex =
      streamed(regexSpec("^([0-9]+) ms$"), OutputChannel::Stdout, "3 ms\nnot 4 ms\n5 ms\r\n", 2);
  ASSERT_TRUE(ex.ok()) << ex.error;
  EXPECT_EQ(ex.values, (std::vector<double>{3, 5}));
}

TEST(IterationStream, ValuesAtTheStartOfAHugeOutputAreKept) {
  MeasureSpec spec = regexSpec("took ([0-9.]+)");
  IterationStream stream(spec);
  for (int i = 0; i < 5; ++i)
    stream.write(OutputChannel::Stdout, "took 1." + std::to_string(i) + "\n");
  const std::string filler(1 << 20, 'x');
  for (int mib = 0; mib < 40; ++mib) // 40 MiB of 64 KiB lines, one per chunk
    for (std::size_t at = 0; at < filler.size(); at += 65536)
      stream.write(OutputChannel::Stdout, std::string(filler.data() + at, 65535) + "\n");
  auto ex = stream.finish(ExecutionOutput{});
  ASSERT_TRUE(ex.ok()) << ex.error;
  EXPECT_EQ(ex.values, (std::vector<double>{1.0, 1.1, 1.2, 1.3, 1.4}));
}

TEST(IterationStream, ALineOverTheLimitIsAFailureNotASilentSkip) {
  IterationStream stream(regexSpec("t=([0-9]+)"));
  stream.write(OutputChannel::Stdout, "t=1\n");
  const std::string chunk(1 << 20, 'y');
  for (std::size_t n = 0; n <= IterationStream::kMaxLineBytes >> 20; ++n)
    stream.write(OutputChannel::Stdout, chunk);
  stream.write(OutputChannel::Stdout, "\nt=2\n");
  auto ex = stream.finish(ExecutionOutput{});
  EXPECT_FALSE(ex.ok());
  EXPECT_EQ(ex.error, "a line of stdout at byte 4 is longer than 16 MiB: its iterations cannot "
                      "be read");
  EXPECT_TRUE(ex.values.empty());
}

TEST(IterationStream, ErrorOffsetsCountBytesAcrossChunks) {
  auto ex = streamed(regexSpec("t=([0-9a-z.]+)"), OutputChannel::Stdout, "t=1\nxx t=oops\n", 3);
  EXPECT_EQ(ex.error, "iteration 1: \"oops\" at byte 9 of stdout is not a number");
}

TEST(IterationStream, OnlyTheChosenStreamIsRead) {
  MeasureSpec spec = regexSpec("t=([0-9]+)");
  spec.stream = OutputStream::Stderr;
  IterationStream stream(spec);
  stream.write(OutputChannel::Stdout, "t=1\n");
  stream.write(OutputChannel::Stderr, "t=2\n");
  auto ex = stream.finish(ExecutionOutput{});
  ASSERT_TRUE(ex.ok()) << ex.error;
  EXPECT_EQ(ex.values, (std::vector<double>{2}));
}

TEST(IterationStream, RecordsSplitAcrossChunksDecodeAsWhole) {
  MeasureSpec spec;
  spec.source = IterationSource::Records;
  std::string bytes = rec(iter::Kind::Begin, 0, 1000) + rec(iter::Kind::End, 0, 3500) +
                      rec(iter::Kind::Duration, 1, 7000);
  const auto whole = parseRecords(bytes);
  ASSERT_EQ(whole.values.size(), 2u);
  for (std::size_t piece : {1, 5, 23, 25, 72}) {
    auto ex = streamed(spec, OutputChannel::Records, bytes, piece);
    ASSERT_TRUE(ex.ok()) << ex.error;
    EXPECT_EQ(ex.values, whole.values) << "pieces of " << piece;
  }
  auto cut = streamed(spec, OutputChannel::Records, bytes.substr(0, 58), 7);
  EXPECT_EQ(cut.error, "truncated record (10 of 24 bytes) at byte 48");
}

TEST(IterationStream, GoogleBenchmarkJsonOverTheLimitIsAFailure) {
  MeasureSpec spec;
  spec.source = IterationSource::GoogleBenchmarkJson;
  IterationStream stream(spec);
  const std::string chunk(1 << 20, ' ');
  for (std::size_t n = 0; n <= IterationStream::kMaxJsonBytes >> 20; ++n)
    stream.write(OutputChannel::Stdout, chunk);
  auto ex = stream.finish(ExecutionOutput{});
  EXPECT_EQ(ex.error, "stdout is longer than 256 MiB: Google Benchmark's JSON is not read "
                      "beyond that");
}

} // namespace
} // namespace alea::runner
