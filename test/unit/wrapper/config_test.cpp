// The ALEA_* settings: seeds (decimal, hex, bad), factor sets (all, none, lists,
// unknown names) and the other variables, read through a fake environment.
#include "alea/wrapper/config.hpp"

#include <gtest/gtest.h>

#include <map>

using namespace alea::wrapper;

namespace {

std::optional<std::string> read(std::map<std::string, std::string> vars, Settings &out,
                                Tool tool = Tool::Cc) {
  auto settings = readSettings(tool, [&vars](const char *name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end())
      return std::nullopt;
    return it->second;
  });
  if (!settings)
    return settings.error();
  out = std::move(*settings);
  return std::nullopt;
}

} // namespace

TEST(Config, NoSeedMeansPlainTool) {
  Settings s;
  EXPECT_FALSE(read({}, s));
  EXPECT_FALSE(s.seed);
  EXPECT_EQ(s.factors, FactorSet::all());
  EXPECT_FALSE(s.dryRun);
}

TEST(Config, EmptySeedMeansUnset) {
  Settings s;
  EXPECT_FALSE(read({{"ALEA_SEED", ""}}, s));
  EXPECT_FALSE(s.seed);
}

TEST(Config, DecimalSeed) {
  Settings s;
  EXPECT_FALSE(read({{"ALEA_SEED", "18446744073709551615"}}, s));
  EXPECT_EQ(*s.seed, 18446744073709551615ULL);
}

TEST(Config, HexSeed) {
  Settings s;
  EXPECT_FALSE(read({{"ALEA_SEED", "0xDeadBeef"}}, s));
  EXPECT_EQ(*s.seed, 0xdeadbeefULL);
}

TEST(Config, BadSeedIsAnError) {
  Settings s;
  for (const char *bad : {"abc", "-1", "12x", "0x", "18446744073709551616", "1.5"}) {
    auto error = read({{"ALEA_SEED", bad}}, s);
    ASSERT_TRUE(error) << bad;
    EXPECT_NE(error->find("ALEA_SEED"), std::string::npos);
  }
}

TEST(Config, FactorsAll) {
  FactorSet f = FactorSet::none();
  EXPECT_FALSE(parseFactors("all", f));
  EXPECT_EQ(f, FactorSet::all());
  EXPECT_EQ(formatFactors(f), "function-order,global-order,symbol-names,code-padding,"
                              "stack-offset,link-order,section-order");
}

TEST(Config, FactorsNone) {
  FactorSet f = FactorSet::all();
  EXPECT_FALSE(parseFactors("none", f));
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(formatFactors(f), "none");
}

TEST(Config, FactorsListIsCanonicallyOrdered) {
  FactorSet f;
  EXPECT_FALSE(parseFactors(" section-order , function-order", f));
  EXPECT_TRUE(f.has(Factor::SectionOrder));
  EXPECT_TRUE(f.has(Factor::FunctionOrder));
  EXPECT_FALSE(f.has(Factor::LinkOrder));
  EXPECT_EQ(formatFactors(f), "function-order,section-order");
  EXPECT_TRUE(f.anyCompileTime());
  EXPECT_FALSE(parseFactors("link-order", f));
  EXPECT_FALSE(f.anyCompileTime());
}

TEST(Config, UnknownFactorIsAnError) {
  Settings s;
  auto error = read({{"ALEA_SEED", "1"}, {"ALEA_FACTORS", "function-order,heap"}}, s);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("'heap'"), std::string::npos);
  FactorSet f;
  EXPECT_TRUE(parseFactors("function-order,", f)); // empty name
  EXPECT_TRUE(parseFactors("all,link-order", f));  // "all" is not a list member
}

// Without a seed the wrappers are exactly the real tool: the other ALEA_*
// settings are not validated (a bad ALEA_FACTORS must not fail a plain build).
TEST(Config, NoSeedIgnoresABadFactorList) {
  Settings s;
  EXPECT_FALSE(read({{"ALEA_FACTORS", "bogus"}}, s));
  EXPECT_FALSE(s.seed);
  EXPECT_FALSE(read({{"ALEA_SEED", " "}, {"ALEA_FACTORS", "function-order,heap"}}, s));
  EXPECT_FALSE(s.seed);
  // With a seed it stays an error.
  EXPECT_TRUE(read({{"ALEA_SEED", "7"}, {"ALEA_FACTORS", "bogus"}}, s));
}

TEST(Config, OtherVariables) {
  Settings s;
  EXPECT_FALSE(read({{"ALEA_CXX", "/opt/clang++"},
                     {"ALEA_CC", "ignored-for-c++"},
                     {"ALEA_PLUGIN", "/p.so"},
                     {"ALEA_LOG", "/tmp/log"},
                     {"ALEA_DRY_RUN", "1"}},
                    s, Tool::Cxx));
  EXPECT_EQ(s.realTool, "/opt/clang++");
  EXPECT_EQ(s.plugin, "/p.so");
  EXPECT_EQ(s.logFile, "/tmp/log");
  EXPECT_TRUE(s.dryRun);
  EXPECT_FALSE(read({{"ALEA_DRY_RUN", "0"}}, s));
  EXPECT_FALSE(s.dryRun);
}

TEST(Config, AleaFcReadsAleaFc) {
  Settings s;
  EXPECT_FALSE(read({{"ALEA_FC", " /opt/flang-new "}, {"ALEA_CC", "/opt/clang"}}, s, Tool::Fc));
  EXPECT_EQ(s.realTool, "/opt/flang-new");
  EXPECT_EQ(toolName(Tool::Fc), "alea-fc");
  EXPECT_STREQ(realToolVariable(Tool::Fc), "ALEA_FC");
}
