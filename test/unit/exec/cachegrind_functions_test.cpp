// Per-function simulated counts (cachegrind_functions.hpp): a hand-made
// cachegrind.out file parsed per function (blocks summed over files, "."
// and missing counts 0, an unknown event ignored), the functions that carry
// a share kept with the rest as "", and the terms of each metric adding up
// to its value.
#include "alea/exec/cachegrind_functions.hpp"

#include <gtest/gtest.h>

using namespace alea::runner;

namespace {

// Two functions, one of them in two files (an inlined header's lines), an
// event alea does not keep (Xy) in the middle, a "." and a short line.
constexpr const char *kOutput = R"(desc: I1 cache:         256 B, 64 B, direct-mapped
desc: D1 cache:         32768 B, 64 B, 8-way associative
desc: LL cache:         8388608 B, 64 B, 16-way associative
cmd: ./pingpong
events: Ir I1mr ILmr Dr D1mr DLmr Xy Dw D1mw DLmw Bc Bcm Bi Bim
fl=pingpong.c
fn=ping
3 10 2 1 4 1 0 99 2 0 0 1 1 0 0
4 5 . 0 1
fn=pong
7 20 3 0 5 0 0 0 1 0 0 2 0 0 0
fl=inline.h
fn=ping
1 1 1 0 0 0 0 0 0 0 0 0 0 0 0
summary: 36 6 1 10 1 0 99 3 0 0 3 1 0 0
)";

} // namespace

TEST(CachegrindFunctions, CountsPerFunctionSummedOverItsFiles) {
  auto functions = parseCachegrindFunctions(kOutput);
  ASSERT_TRUE(functions) << functions.error();
  ASSERT_EQ(functions->size(), 2u);
  const FunctionCounts &ping = (*functions)[0];
  EXPECT_EQ(ping.name, "ping");
  EXPECT_EQ(ping.counts.ir, 16u); // 10 + 5 + 1
  EXPECT_EQ(ping.counts.i1mr, 3u);
  EXPECT_EQ(ping.counts.dr, 5u);
  EXPECT_EQ(ping.counts.d1mr, 1u);
  EXPECT_EQ(ping.counts.dw, 2u); // Xy's 99 is not Dw
  EXPECT_EQ(ping.counts.bcm, 1u);
  EXPECT_EQ((*functions)[1].name, "pong");
  EXPECT_EQ((*functions)[1].counts.ir, 20u);
  EXPECT_EQ((*functions)[1].counts.bc, 2u);
}

TEST(CachegrindFunctions, MistakesAreErrors) {
  EXPECT_FALSE(parseCachegrindFunctions("fn=f\n1 2 3\n"));
  EXPECT_FALSE(parseCachegrindFunctions("events: Ir I1mr\nfn=f\n1 2\n")); // no --cache-sim
  std::string text = kOutput;
  text.replace(text.find("4 5 . 0 1"), 9, "4 5 x 0 1");
  auto bad = parseCachegrindFunctions(text);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("\"x\" of function ping is not a number"), std::string::npos);
}

// The kept functions and the rest sum to the totals; a function below every
// share threshold goes to the rest; the cap keeps the costliest.
TEST(CachegrindFunctions, KeepsTheMeaningfulOnesAndTheRest) {
  CachegrindCounts big, small, misses;
  big.ir = 100000;
  small.ir = 50; // 0.05% of Ir, no misses
  misses.ir = 50;
  misses.i1mr = 5;
  std::vector<FunctionCounts> all = {{"small", small}, {"big", big}, {"cold", misses}};
  auto kept = keepMeaningfulFunctions(all);
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[0].name, "big");
  EXPECT_EQ(kept[1].name, "cold");
  EXPECT_EQ(kept[2].name, "");
  EXPECT_EQ(kept[2].counts.ir, 50u);
  auto capped = keepMeaningfulFunctions(all, 0.001, 1);
  ASSERT_EQ(capped.size(), 2u);
  EXPECT_EQ(capped[0].name, "big");
  EXPECT_EQ(capped[1].counts.ir, 100u);
  EXPECT_EQ(capped[1].counts.i1mr, 5u);
}

TEST(CachegrindFunctions, TermsAddUpToTheMetric) {
  auto functions = parseCachegrindFunctions(kOutput);
  ASSERT_TRUE(functions);
  for (const auto &f : *functions) {
    double sum = 0;
    auto terms = costTerms(Metric::SimCycles, f.counts);
    ASSERT_EQ(terms.size(), 4u);
    EXPECT_EQ(terms[1].first, "I1 misses");
    for (const auto &[name, v] : terms)
      sum += v;
    EXPECT_DOUBLE_EQ(sum, simulatedValue(Metric::SimCycles, f.counts)) << f.name;
    for (Metric m : {Metric::SimInstructions, Metric::SimI1Misses, Metric::SimD1Misses,
                     Metric::SimLlMisses, Metric::SimBranchMisses}) {
      auto one = costTerms(m, f.counts);
      ASSERT_EQ(one.size(), 1u);
      EXPECT_DOUBLE_EQ(one[0].second, simulatedValue(m, f.counts));
    }
  }
  EXPECT_TRUE(costTerms(Metric::Wall, {}).empty());
}

// Valgrind writes an associativity of 1 as "direct-mapped" (a tiny I1 for
// conflict studies): the geometry read back is "size,1,line".
TEST(CachegrindFunctions, DirectMappedGeometryIsReadBack) {
  auto out = parseCachegrindOutput(kOutput);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->cache.i1, "256,1,64");
  EXPECT_EQ(out->cache.d1, "32768,8,64");
}
