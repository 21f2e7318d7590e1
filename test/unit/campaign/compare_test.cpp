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
