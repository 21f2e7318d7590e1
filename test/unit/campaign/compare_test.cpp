// Tests of `alea compare`'s campaign (runner/campaign/include/alea/campaign/compare.hpp):
// system names, the campaign file it writes (parsed back by the campaign
// parser), and what reaches the shell from a hostile directory name.
#include "alea/campaign/compare.hpp"
#include "alea/config/config.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace alea::runner;
namespace fs = std::filesystem;

TEST(Compare, SystemNamesFromRevisions) {
  EXPECT_EQ(compareSystemName("HEAD~1"), "HEAD-1");
  EXPECT_EQ(compareSystemName("v1.0^"), "v1.0_");
  EXPECT_EQ(compareSystemName("origin/main"), "origin_main");
  EXPECT_EQ(compareSystemName("-x"), "r-x");
  EXPECT_EQ(compareSystemName(""), "r");
  EXPECT_EQ(compareSystemName(std::string(100, 'a')).size(), 64u);
}

TEST(Compare, TwoDirectoriesMakeACampaignTheParserTakes) {
  test::TempDir tmp;
  for (const char *d : {"old", "new"})
    fs::create_directories(tmp.file(d));
  CompareRequest r;
  r.a = tmp.file("old");
  r.b = tmp.file("new/"); // a trailing slash names the directory too
  r.build = "make CFLAGS='-O2 -DX={1}'";
  r.runs = {"k1=./bench k1", "./bench --n=3", "fast=X=1 ./bench", "./other"};
  r.measure = "regex:t=([0-9.]+) s";
  r.dir = tmp.file("cmp");
  auto plan = prepareCompare(r);
  ASSERT_TRUE(plan) << plan.error();
  EXPECT_EQ(plan->baseline, "old");
  EXPECT_EQ(plan->candidate, "new");
  EXPECT_EQ(plan->campaignFile, tmp.file("cmp/compare.toml"));
  auto cfg = parseCampaign(plan->campaignFile);
  ASSERT_TRUE(cfg) << cfg.error();
  ASSERT_EQ(cfg->systems.size(), 2u);
  EXPECT_TRUE(cfg->systems[0].baseline);
  EXPECT_EQ(cfg->systems[0].build.shell,
            "cp -R " + tmp.file("old") + "/. . && make CFLAGS='-O2 -DX={{1}'");
  ASSERT_EQ(cfg->benchmarks.size(), 4u);
  EXPECT_EQ(cfg->benchmarks[0].name, "k1");
  EXPECT_EQ(cfg->benchmarks[0].command.shell, "./bench k1");
  EXPECT_EQ(cfg->benchmarks[1].name, "run"); // no NAME=
  EXPECT_EQ(cfg->benchmarks[1].command.shell, "./bench --n=3");
  EXPECT_EQ(cfg->benchmarks[2].name, "fast");
  EXPECT_EQ(cfg->benchmarks[2].command.shell, "X=1 ./bench"); // named: the first '=' names it
  EXPECT_EQ(cfg->benchmarks[3].name, "run-2");                // the second unnamed one
  EXPECT_EQ(cfg->benchmarks[0].measure.regex, "t=([0-9.]+) s");

  // The same request again leaves the file as it was (its digest names the
  // campaign: a rerun resumes it); another build command is another campaign.
  const auto written = fs::last_write_time(plan->campaignFile);
  ASSERT_TRUE(prepareCompare(r));
  EXPECT_EQ(fs::last_write_time(plan->campaignFile), written);
}

// The programs the runs start by a relative path that the build makes are
// the builds' artifacts (their layouts fingerprinted and checked); files of
// the revision, programs on PATH, absolute paths, paths out of the build and
// words a shell would expand are not.
TEST(Compare, TheProgramsTheBuildMakesAreItsArtifacts) {
  test::TempDir tmp;
  for (const char *d : {"old", "new"})
    fs::create_directories(tmp.file(d));
  std::ofstream(tmp.file("new/run.sh")) << "#!/bin/sh\n"; // in one side's files
  CompareRequest r;
  r.a = tmp.file("old");
  r.b = tmp.file("new");
  r.build = "make";
  r.runs = {"k1=./bench k1",  "./build/../build/prog --x",
            "./run.sh",       "python3 x.py",
            "/usr/bin/true",  "$(evil)/x",
            "../out/prog",    "k2=./bench k2",
            "  sub/tool\targ"};
  r.dir = tmp.file("cmp");
  auto plan = prepareCompare(r);
  ASSERT_TRUE(plan) << plan.error();
  auto cfg = parseCampaign(plan->campaignFile);
  ASSERT_TRUE(cfg) << cfg.error();
  for (const auto &system : cfg->systems)
    EXPECT_EQ(system.artifacts, (std::vector<std::string>{"bench", "build/prog", "sub/tool"}));
}

// Files named with --artifact (a run that starts with `cd`, a library) come
// first, once each, then the programs the runs start with; they are part of
// what defines the comparison (its directory); one that leaves the build's
// directory is refused before anything is made.
TEST(Compare, NamedArtifactsAreKeptBesideTheRunsPrograms) {
  test::TempDir tmp;
  for (const char *d : {"old", "new", "cache"})
    fs::create_directories(tmp.file(d));
  const char *cache = std::getenv("XDG_CACHE_HOME");
  const std::string saved = cache ? cache : "";
  ::setenv("XDG_CACHE_HOME", tmp.file("cache").c_str(), 1);
  CompareRequest r;
  r.a = tmp.file("old");
  r.b = tmp.file("new");
  r.build = "make";
  r.runs = {"k=./bench k", "cd out && ./brotli -q 5 in"};
  auto unnamed = prepareCompare(r);
  r.artifacts = {"out/./brotli", "bench", "lib/libz.so"};
  auto named = prepareCompare(r);
  ASSERT_TRUE(unnamed && named) << (unnamed ? named.error() : unnamed.error());
  EXPECT_NE(named->campaignDir, unnamed->campaignDir);
  auto cfg = parseCampaign(named->campaignFile);
  ASSERT_TRUE(cfg) << cfg.error();
  for (const auto &system : cfg->systems)
    EXPECT_EQ(system.artifacts, (std::vector<std::string>{"out/brotli", "bench", "lib/libz.so"}));
  for (const char *bad : {"../x", "/usr/bin/x", "", "out/.."}) {
    r.artifacts = {bad};
    r.dir = tmp.file("refused");
    auto refused = prepareCompare(r);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.errorKind(), alea::ErrorKind::Usage) << bad;
    EXPECT_NE(refused.error().find("--artifact '" + std::string(bad) + "'"), std::string::npos)
        << refused.error();
    EXPECT_FALSE(fs::exists(tmp.file("refused")));
  }
  if (cache)
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    ::unsetenv("XDG_CACHE_HOME");
}

TEST(Compare, AHostileDirectoryNameReachesTheShellQuoted) {
  // A quote, a newline and $(...) in the directory's name: the build command
  // copies from exactly that directory and runs nothing else.
  test::TempDir tmp;
  const std::string hostile = tmp.file("it's\n$(touch pwned)");
  fs::create_directories(hostile);
  std::ofstream(hostile + "/src.c") << "int main(){}\n";
  fs::create_directories(tmp.file("other"));
  CompareRequest r;
  r.a = hostile;
  r.b = tmp.file("other");
  r.build = "true";
  r.runs = {"./a"};
  r.dir = tmp.file("cmp");
  auto plan = prepareCompare(r);
  ASSERT_TRUE(plan) << plan.error();
  auto cfg = parseCampaign(plan->campaignFile);
  ASSERT_TRUE(cfg) << cfg.error();
  const std::string build = tmp.file("build");
  fs::create_directories(build);
  // As the builder runs it: /bin/sh -c TEXT in the build directory (the text
  // has no placeholder: the shell sees it as written).
  const std::string command = "cd '" + build + "' && /bin/sh -c \"$ALEA_TEST_COMMAND\"";
  ::setenv("ALEA_TEST_COMMAND", cfg->systems[0].build.shell.c_str(), 1);
  EXPECT_EQ(std::system(command.c_str()), 0) << cfg->systems[0].build.shell;
  ::unsetenv("ALEA_TEST_COMMAND");
  EXPECT_TRUE(fs::exists(build + "/src.c"));
  EXPECT_FALSE(fs::exists(build + "/pwned"));
  EXPECT_FALSE(fs::exists(tmp.file("pwned")));
}

TEST(Compare, MistakesAreNamed) {
  test::TempDir tmp;
  fs::create_directories(tmp.file("a"));
  CompareRequest r;
  r.a = tmp.file("a");
  r.b = tmp.file("no-such-thing");
  r.repo = tmp.path(); // not a repository either
  r.build = "make";
  r.runs = {"./a"};
  r.dir = tmp.file("cmp");
  auto plan = prepareCompare(r);
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.error().find("is neither a directory nor a revision"), std::string::npos)
      << plan.error();
  r.b = tmp.file("a");
  r.measure = "median";
  plan = prepareCompare(r);
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.errorKind(), alea::ErrorKind::Usage);
  r.measure = "none";
  r.runs.clear();
  EXPECT_FALSE(prepareCompare(r));
}

// `alea compare --cmd A --cmd B`: one system per command, one build that
// builds nothing, one benchmark whose shell runs the system's command.
TEST(Compare, CommandsMakeACampaignOfOneBuildPerSystem) {
  test::TempDir tmp;
  CompareRequest r;
  r.commands = {"gzip -1 <f >/dev/null", "gzip -9 <f >/dev/null", "fast=X=1 ./bench {n}",
                "./bench --n=3"};
  r.executions = 12;
  r.workdir = tmp.path();
  r.dir = tmp.file("cmp");
  auto plan = prepareCommandCompare(r);
  ASSERT_TRUE(plan) << plan.error();
  // Two commands of one program are named by their words; a given name is kept.
  EXPECT_EQ(plan->baseline, "gzip_-1_f_dev_null");
  EXPECT_EQ(plan->candidate, "gzip_-9_f_dev_null");
  auto cfg = parseCampaign(plan->campaignFile);
  ASSERT_TRUE(cfg) << cfg.error();
  ASSERT_EQ(cfg->systems.size(), 4u);
  EXPECT_EQ(cfg->systems[2].name, "fast");
  EXPECT_EQ(cfg->systems[3].name, "bench"); // its program, unique among them
  EXPECT_TRUE(cfg->systems[0].baseline);
  EXPECT_FALSE(cfg->systems[1].baseline);
  EXPECT_EQ(cfg->builds.count, 1);
  EXPECT_EQ(cfg->executions.count, 12);
  EXPECT_EQ(cfg->design, alea::Design::Unpaired);
  ASSERT_EQ(cfg->benchmarks.size(), 1u);
  EXPECT_EQ(cfg->benchmarks[0].workdir, tmp.path());

  // The benchmark's shell, with {system} as the executor substitutes it, runs
  // that system's command and no other.
  for (const auto &[system, expected] : std::vector<std::pair<std::string, std::string>>{
           {"gzip_-9_f_dev_null", "gzip -9"},
           {"fast", "X=1 ./bench {{n}"}, // '{{': a literal '{'
           {"bench", "./bench --n=3"}}) {
    std::string shell = cfg->benchmarks[0].command.shell;
    shell.replace(shell.find("{system}"), 8, system);
    // Every command becomes an echo of itself: what would have run.
    std::string text;
    for (std::size_t at = 0; at < shell.size();) {
      std::size_t end = shell.find('\n', at);
      std::string line = shell.substr(at, end - at);
      const bool command = !line.empty() && line != ";;" && line != "esac" &&
                           line.rfind("case ", 0) != 0 && line.back() != ')';
      text += (command ? "echo '" + line + "'" : line) + "\n";
      at = end == std::string::npos ? shell.size() : end + 1;
    }
    const std::string out = tmp.file("out");
    ::setenv("ALEA_TEST_COMMAND", text.c_str(), 1);
    ASSERT_EQ(std::system(("/bin/sh -c \"$ALEA_TEST_COMMAND\" > '" + out + "'").c_str()), 0);
    ::unsetenv("ALEA_TEST_COMMAND");
    std::ifstream in(out);
    std::string ran((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(ran.rfind(expected, 0), 0u) << system << ": " << ran;
    EXPECT_EQ(std::count(ran.begin(), ran.end(), '\n'), 1) << ran; // one command ran
  }

  // Identical commands get numbered names; a rerun leaves the file alone.
  CompareRequest same = r;
  same.commands = {"sleep 0", "sleep 0"};
  same.dir = tmp.file("same");
  auto twin = prepareCommandCompare(same);
  ASSERT_TRUE(twin) << twin.error();
  EXPECT_EQ(twin->baseline, "sleep_0");
  EXPECT_EQ(twin->candidate, "sleep_0-2");
  const auto written = fs::last_write_time(plan->campaignFile);
  ASSERT_TRUE(prepareCommandCompare(r));
  EXPECT_EQ(fs::last_write_time(plan->campaignFile), written);
}

TEST(Compare, CommandMistakesAreNamed) {
  test::TempDir tmp;
  CompareRequest r;
  r.commands = {"true"};
  r.dir = tmp.file("cmp");
  auto plan = prepareCommandCompare(r);
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.errorKind(), alea::ErrorKind::Usage);
  EXPECT_NE(plan.error().find("two or more"), std::string::npos) << plan.error();
  r.commands = {"true", "false"};
  r.runs = {"./a"};
  plan = prepareCommandCompare(r);
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.errorKind(), alea::ErrorKind::Usage);
  EXPECT_FALSE(fs::exists(tmp.file("cmp"))); // nothing created
}

// The [compare] table of a checked-in alea.toml: found from a subdirectory
// up to the repository's top, read with every key, its mistakes named.
TEST(Compare, TheCompareTableOfACheckedInFile) {
  test::TempDir tmp;
  fs::create_directories(tmp.file("repo/.git"));
  fs::create_directories(tmp.file("repo/src/deep"));
  EXPECT_EQ(findCompareFile(tmp.file("repo/src/deep")), "");
  std::ofstream(tmp.file("alea.toml")) << "[compare]\nbuild = 'outside'\n"; // above the top
  EXPECT_EQ(findCompareFile(tmp.file("repo/src/deep")), "");
  std::ofstream(tmp.file("repo/alea.toml"))
      << "[compare]\nbuild = 'make -j2'\nmeasure = 'regex:t=([0-9.]+)'\nbuilds = 5\n"
         "executions = 2\nuntil_half_width = '1%'\ntime_budget = 60\nmax_builds = 12\n"
         "[compare.run]\nk2 = './bench k2'\nk1 = './bench k1'\n";
  const std::string file = findCompareFile(tmp.file("repo/src/deep"));
  EXPECT_EQ(file, tmp.file("repo/alea.toml"));
  auto t = readCompareTable(file);
  ASSERT_TRUE(t) << t.error();
  EXPECT_TRUE(t->present);
  EXPECT_EQ(t->build, "make -j2");
  EXPECT_EQ(t->measure, "regex:t=([0-9.]+)");
  EXPECT_EQ(t->builds, 5);
  EXPECT_EQ(t->executions, 2);
  EXPECT_EQ(t->untilHalfWidth, "1%");
  EXPECT_EQ(t->timeBudget, 60.0);
  EXPECT_EQ(t->maxBuilds, 12);
  // A table of runs is in name order; a list keeps its order.
  EXPECT_EQ(t->runs, (std::vector<std::string>{"k1=./bench k1", "k2=./bench k2"}));
  std::ofstream(tmp.file("list.toml")) << "[compare]\nrun = ['./b z', 'a=./b a']\n";
  auto list = readCompareTable(tmp.file("list.toml"));
  ASSERT_TRUE(list) << list.error();
  EXPECT_EQ(list->runs, (std::vector<std::string>{"./b z", "a=./b a"}));
  std::ofstream(tmp.file("artifacts.toml")) << "[compare]\nartifacts = ['out/prog', 'lib/x.so']\n";
  auto artifacts = readCompareTable(tmp.file("artifacts.toml"));
  ASSERT_TRUE(artifacts) << artifacts.error();
  EXPECT_EQ(artifacts->artifacts, (std::vector<std::string>{"out/prog", "lib/x.so"}));

  // A campaign file named alea.toml has no [compare] table: not present.
  std::ofstream(tmp.file("campaign.toml")) << "[campaign]\nname = 'x'\n";
  auto none = readCompareTable(tmp.file("campaign.toml"));
  ASSERT_TRUE(none) << none.error();
  EXPECT_FALSE(none->present);

  for (const auto &[text, message] : std::vector<std::pair<std::string, std::string>>{
           {"[compare]\nbuild = 3\n", "bad.toml:2:9: compare.build: expected a non-empty string"},
           {"[compare]\nbuilds = 1\n", "compare.builds: expected an integer from 2"},
           {"[compare]\nrun = []\n", "compare.run: no command"},
           {"[compare]\nrun = 'x'\n", "compare.run: expected a list of commands or a table"},
           {"[compare]\nbuidl = 'make'\n", "unknown key compare.buidl"},
           {"[compare]\nartifacts = 'x'\n", "compare.artifacts: expected a list of paths"},
           {"[compare]\nartifacts = [1]\n", "compare.artifacts: expected paths (strings)"},
           {"[compare\n", "bad.toml:1:"}}) {
    std::ofstream(tmp.file("bad.toml"), std::ios::trunc) << text;
    auto bad = readCompareTable(tmp.file("bad.toml"));
    ASSERT_FALSE(bad) << text;
    EXPECT_NE(bad.error().find(message), std::string::npos) << bad.error();
  }
}
