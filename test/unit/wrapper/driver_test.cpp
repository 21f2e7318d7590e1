// decide(): the driver's decision without side effects. An internal failure (here:
// a file-system query that throws, or runs out of memory) must give the untouched
// original command and a log line saying so; a missing plugin is a configuration
// error; under another wrapper (recursion guard) nothing is added.
#include "alea/wrapper/driver.hpp"

#include <gtest/gtest.h>

#include <new>
#include <set>
#include <stdexcept>

using namespace alea::wrapper;

namespace {

Facts facts() {
  Facts f;
  f.tool = Tool::Cc;
  f.realTool = "/usr/bin/clang-19";
  f.defaultPlugin = "/alea/lib/AleaPlugin.so";
  f.pid = 1234;
  return f;
}

Settings seeded() {
  Settings s;
  s.seed = 42;
  return s;
}

ClassifyEnv files(std::set<std::string> names) {
  return {[names](const std::string &p) { return names.count(p) > 0; },
          [](const std::string &) -> std::optional<std::string> { return std::nullopt; }};
}

} // namespace

TEST(Decide, CompileUsesTheDefaultPlugin) {
  auto d = decide(facts(), {"-c", "a.c"}, seeded(), files({"a.c", "/alea/lib/AleaPlugin.so"}));
  ASSERT_FALSE(d.error);
  EXPECT_EQ(d.argv[1], "-fpass-plugin=/alea/lib/AleaPlugin.so");
  EXPECT_NE(d.logLine.find("alea-cc pid=1234 mode=compile reason=\"compiling sources\""),
            std::string::npos);
}

TEST(Decide, MissingPluginIsAConfigurationError) {
  auto d = decide(facts(), {"-c", "a.c"}, seeded(), files({"a.c"}));
  ASSERT_TRUE(d.error);
  EXPECT_NE(d.error->find("/alea/lib/AleaPlugin.so"), std::string::npos);
}

TEST(Decide, MissingPluginDoesNotMatterWhenNothingIsCompiled) {
  auto d = decide(facts(), {"-E", "a.c"}, seeded(), files({"a.c"}));
  EXPECT_FALSE(d.error);
  EXPECT_EQ(d.argv, (std::vector<std::string>{"/usr/bin/clang-19", "-E", "a.c"}));
}

TEST(Decide, InternalErrorRunsTheOriginalCommand) {
  ClassifyEnv throwing{
      [](const std::string &) -> bool { throw std::runtime_error("disk on fire"); },
      [](const std::string &) -> std::optional<std::string> { return std::nullopt; }};
  auto d = decide(facts(), {"-c", "a.c"}, seeded(), throwing);
  EXPECT_FALSE(d.error);
  EXPECT_EQ(d.argv, (std::vector<std::string>{"/usr/bin/clang-19", "-c", "a.c"}));
  EXPECT_NE(d.logLine.find("internal error: disk on fire"), std::string::npos);
}

TEST(Decide, OutOfMemoryRunsTheOriginalCommand) {
  ClassifyEnv failing{
      [](const std::string &) -> bool { throw std::bad_alloc(); },
      [](const std::string &) -> std::optional<std::string> { return std::nullopt; }};
  auto d = decide(facts(), {"a.o", "b.o"}, seeded(), failing);
  EXPECT_EQ(d.argv, (std::vector<std::string>{"/usr/bin/clang-19", "a.o", "b.o"}));
  EXPECT_NE(d.logLine.find("internal error"), std::string::npos);
}

TEST(Decide, RecursionGuardAddsNothing) {
  Facts f = facts();
  f.recursed = true;
  auto d = decide(f, {"-c", "a.c"}, seeded(), files({"a.c"}));
  EXPECT_FALSE(d.error);
  EXPECT_EQ(d.argv, (std::vector<std::string>{"/usr/bin/clang-19", "-c", "a.c"}));
  EXPECT_NE(d.logLine.find("recursion guard"), std::string::npos);
}

TEST(Decide, LinkerThatIsNotLldGetsNoShuffleSections) {
  Facts f = facts();
  f.tool = Tool::Ld;
  f.realTool = "/usr/bin/ld.bfd";
  f.realToolIsLld = false;
  auto d = decide(f, {"a.o", "-o", "x"}, seeded(), files({"a.o"}));
  for (const auto &a : d.argv)
    EXPECT_EQ(a.find("shuffle-sections"), std::string::npos);
  EXPECT_NE(d.logLine.find("section-order skipped"), std::string::npos);
}
