// Pins the contract of alea/contract.hpp that the wrappers, the plugin, the
// runner and `alea layout` share: a change here changes what old binaries,
// stores and campaign files mean (the factor names also salt the factors'
// seed streams), so each spelling is written out literally below.
#include <alea/contract.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace {

using alea::Factor;
using alea::FactorSet;

TEST(Contract, ParseSeedAcceptsDecimalAndHexOnly) {
  std::uint64_t v = 0;
  EXPECT_TRUE(alea::parseSeed("12345", v));
  EXPECT_EQ(v, 12345u);
  EXPECT_TRUE(alea::parseSeed("0xFF", v));
  EXPECT_EQ(v, 255u);
  EXPECT_TRUE(alea::parseSeed("18446744073709551615", v));
  EXPECT_EQ(v, ~0ULL);
  EXPECT_FALSE(alea::parseSeed("18446744073709551616", v));
  EXPECT_FALSE(alea::parseSeed("", v));
  EXPECT_FALSE(alea::parseSeed("0x", v));
  EXPECT_FALSE(alea::parseSeed("-1", v));
  EXPECT_FALSE(alea::parseSeed("12abc", v));
  EXPECT_FALSE(alea::parseSeed("abc", v));
}

TEST(Contract, SeedSpellingIsZeroPaddedLowercaseHex) {
  EXPECT_EQ(alea::formatSeed(0), "0x0000000000000000");
  EXPECT_EQ(alea::formatSeed(0x2a), "0x000000000000002a");
  EXPECT_EQ(alea::formatSeed(0xDEADBEEFCAFEF00DULL), "0xdeadbeefcafef00d");
  EXPECT_EQ(alea::formatSeed(~0ULL), "0xffffffffffffffff");
  EXPECT_EQ(alea::formatSeed(42).size(), alea::kSeedTextSize);
}

TEST(Contract, SeedSpellingRoundTrips) {
  for (std::uint64_t seed :
       {0ULL, 1ULL, 42ULL, 0x8000000000000000ULL, 0x0123456789abcdefULL, ~0ULL}) {
    const std::string text = alea::formatSeed(seed);
    std::uint64_t back = seed + 1, canonical = seed + 1;
    EXPECT_TRUE(alea::parseSeed(text, back)) << text;
    EXPECT_EQ(back, seed);
    EXPECT_TRUE(alea::parseCanonicalSeed(text, canonical)) << text;
    EXPECT_EQ(canonical, seed);
  }
}

// A note holds exactly the canonical form; what users may write is not enough.
TEST(Contract, CanonicalSeedIsExactlyTheWrittenForm) {
  std::uint64_t v = 0;
  EXPECT_TRUE(alea::parseCanonicalSeed("0x00000000000000FF", v));
  EXPECT_EQ(v, 255u);
  EXPECT_FALSE(alea::parseCanonicalSeed("42", v));
  EXPECT_FALSE(alea::parseCanonicalSeed("0x2a", v));
  EXPECT_FALSE(alea::parseCanonicalSeed("0X000000000000002a", v));
  EXPECT_FALSE(alea::parseCanonicalSeed("0x000000000000002a0", v));
  EXPECT_FALSE(alea::parseCanonicalSeed("000000000000000042", v));
  EXPECT_FALSE(alea::parseCanonicalSeed("0x00000000000000g0", v));
}

TEST(Contract, OneUniqueNamePerFactorInCanonicalOrder) {
  const std::string_view expected[] = {"function-order", "global-order", "symbol-names",
                                       "code-padding",   "stack-offset", "link-order",
                                       "section-order"};
  ASSERT_EQ(alea::kFactorNames.size(), alea::kFactorCount);
  ASSERT_EQ(std::size(expected), alea::kFactorCount);
  std::set<std::string_view> seen;
  for (unsigned f = 0; f < alea::kFactorCount; ++f) {
    const auto factor = static_cast<Factor>(f);
    EXPECT_EQ(alea::factorName(factor), expected[f]);
    EXPECT_TRUE(seen.insert(alea::factorName(factor)).second) << alea::factorName(factor);
    EXPECT_EQ(alea::factorFromName(alea::factorName(factor)), factor);
  }
  EXPECT_EQ(static_cast<unsigned>(Factor::SectionOrder) + 1, alea::kFactorCount);
  EXPECT_FALSE(alea::factorFromName("all"));
  EXPECT_FALSE(alea::factorFromName("none"));
  EXPECT_FALSE(alea::factorFromName(alea::kLtoLinkName));
  EXPECT_FALSE(alea::factorFromName("Function-Order"));
}

TEST(Contract, CompileTimeFactorsAreTheFirstFive) {
  FactorSet set;
  for (Factor f : {Factor::LinkOrder, Factor::SectionOrder})
    set.add(f);
  EXPECT_FALSE(set.anyCompileTime());
  for (Factor f : {Factor::FunctionOrder, Factor::GlobalOrder, Factor::SymbolNames,
                   Factor::CodePadding, Factor::StackOffset}) {
    FactorSet one;
    one.add(f);
    EXPECT_TRUE(one.anyCompileTime()) << alea::factorName(f);
  }
}

TEST(Contract, FactorListSpelling) {
  FactorSet set = FactorSet::none();
  EXPECT_FALSE(alea::parseFactors("", set));
  EXPECT_EQ(set, FactorSet::all()); // unset or empty ALEA_FACTORS: all
  EXPECT_FALSE(alea::parseFactors("none", set));
  EXPECT_EQ(set, FactorSet::none());
  EXPECT_FALSE(alea::parseFactors(" all ", set));
  EXPECT_EQ(set, FactorSet::all());
  EXPECT_EQ(alea::formatFactors(FactorSet::all()),
            "function-order,global-order,symbol-names,code-padding,stack-offset,link-order,"
            "section-order");
  EXPECT_EQ(alea::formatFactors(FactorSet::none()), "none");
  EXPECT_EQ(alea::joinFactorNames(FactorSet::none()), "");

  EXPECT_FALSE(alea::parseFactors(" section-order ,\tfunction-order", set));
  EXPECT_EQ(alea::formatFactors(set), "function-order,section-order");
  EXPECT_EQ(alea::joinFactorNames(set, ", "), "function-order, section-order");
}

TEST(Contract, FactorListErrorsNameTheWord) {
  FactorSet set = FactorSet::all();
  EXPECT_EQ(alea::parseFactors("function-order,heap", set), "heap");
  EXPECT_EQ(alea::parseFactors("function-order,,link-order", set), "");
  EXPECT_EQ(alea::parseFactors("function-order,", set), "");
  EXPECT_EQ(alea::parseFactors("all,link-order", set), "all"); // not a list member
  EXPECT_EQ(alea::parseFactors("link-order+section-order", set), "link-order+section-order");
  EXPECT_EQ(set, FactorSet::all()); // left alone on error
  // The plugin's pass parameters separate with '+' or ':'.
  EXPECT_FALSE(alea::parseFactors("section-order:link-order+symbol-names", set, "+:"));
  EXPECT_EQ(alea::formatFactors(set), "symbol-names,link-order,section-order");
}

TEST(Contract, EveryFactorSetRoundTrips) {
  for (unsigned bits = 0; bits < (1u << alea::kFactorCount); ++bits) {
    FactorSet set;
    for (unsigned f = 0; f < alea::kFactorCount; ++f)
      if (bits >> f & 1u)
        set.add(static_cast<Factor>(f));
    ASSERT_EQ(set.bits(), bits);
    FactorSet back = bits ? FactorSet::none() : FactorSet::all();
    EXPECT_FALSE(alea::parseFactors(alea::formatFactors(set), back)) << alea::formatFactors(set);
    EXPECT_EQ(back, set) << alea::formatFactors(set);
  }
}

TEST(Contract, NoteNamesTypesAndDescriptors) {
  EXPECT_EQ(alea::kNoteSection, ".note.alea");
  EXPECT_EQ(alea::kNoteOwner, "alea");
  EXPECT_EQ(alea::kLayoutNoteType, 1u);
  EXPECT_EQ(alea::kLinkNoteType, 2u);
  FactorSet two;
  two.add(Factor::SymbolNames);
  two.add(Factor::FunctionOrder);
  EXPECT_EQ(alea::layoutNoteText(42, two),
            "alea-layout-v1 seed=0x000000000000002a factors=function-order,symbol-names");
  EXPECT_EQ(alea::layoutNoteText(~0ULL, FactorSet::none()),
            "alea-layout-v1 seed=0xffffffffffffffff factors=");
  EXPECT_EQ(alea::noteDescriptor(alea::kLinkNoteTag, 3, "link-order,lto-link"),
            "alea-link-v1 seed=0x0000000000000003 factors=link-order,lto-link");
}

TEST(Contract, SharedVariablesAndExecutables) {
  EXPECT_STREQ(alea::kSeedVariable, "ALEA_SEED");
  EXPECT_STREQ(alea::kFactorsVariable, "ALEA_FACTORS");
  EXPECT_STREQ(alea::kRealCcVariable, "ALEA_CC");
  EXPECT_STREQ(alea::kRealCxxVariable, "ALEA_CXX");
  EXPECT_STREQ(alea::kRealFcVariable, "ALEA_FC");
  EXPECT_STREQ(alea::kRealLdVariable, "ALEA_LD");
  EXPECT_STREQ(alea::kCcWrapperName, "alea-cc");
  EXPECT_STREQ(alea::kCxxWrapperName, "alea-c++");
  EXPECT_STREQ(alea::kFcWrapperName, "alea-fc");
  // CMake's linker rule `([^/\\]+-)?ld` must match the linker wrapper's name.
  EXPECT_STREQ(alea::kLdWrapperName, "alea-ld");
}

} // namespace
