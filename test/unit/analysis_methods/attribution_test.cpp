// The layout variance attributed to functions (analysis/attribution.hpp):
// shares by hand, their sum with the rest, the dominant term, the placement
// fact that separates slow builds, and the cases with nothing to attribute.
#include "alea/analysis/attribution.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace alea::analysis;

namespace {

FunctionCost cost(std::string name, std::vector<double> terms,
                  std::optional<FunctionPlacement> placement = std::nullopt) {
  return {std::move(name), std::move(terms), placement};
}

// Six builds of a program whose two hot functions, a and b, evict each other
// from a 4-set direct-mapped I1 (64-byte lines) in builds 0, 2, 4, where b
// starts in a's set, and not in 1, 3, 5; c costs the same everywhere and the
// rest moves a little. a stays at the same address: only b moves.
AttributionInput conflictingPair() {
  AttributionInput in;
  in.system = "base";
  in.benchmark = "pingpong";
  in.metric = "sim-cycles";
  in.terms = {"instructions", "I1 misses"};
  in.lineBytes = 64;
  in.i1Sets = 4;
  const double restNoise[] = {10, -20, 5, 15, -5, 0};
  for (int b = 0; b < 6; ++b) {
    const bool conflict = b % 2 == 0;
    const double misses = conflict ? 4000 + 100 * b : 40;
    BuildProfile p;
    p.build = b;
    p.functions.push_back(cost("a", {100000, misses}, FunctionPlacement{0x1000, 48}));
    p.functions.push_back(
        cost("b", {80000, misses * 0.9},
             FunctionPlacement{conflict ? 0x1100u + 8 * b : 0x1080u + 8 * b, 40}));
    p.functions.push_back(cost("c", {50000, 10}, FunctionPlacement{0x2000, 200}));
    p.functions.push_back(cost("", {300000 + restNoise[b], 0}));
    in.builds.push_back(p);
  }
  return in;
}

} // namespace

// Two functions carry the variance; their shares and the rest's add up to 1,
// the dominant term is the I1 misses and the separating fact is the shared
// I1 set, in every slow build and no fast one.
TEST(Attribution, NamesTheConflictingPairAndTheirSharedSets) {
  const Attribution a = attributeLayoutVariance(conflictingPair());
  EXPECT_EQ(a.note, "");
  EXPECT_EQ(a.builds, 6u);
  ASSERT_EQ(a.functions.size(), 2u);
  EXPECT_EQ(a.functions[0].function, "a");
  EXPECT_EQ(a.functions[1].function, "b");
  EXPECT_GT(a.functions[0].share, 0.5);
  EXPECT_GT(a.functions[1].share, 0.4);
  EXPECT_NEAR(a.functions[0].share + a.functions[1].share + a.otherShare, 1.0, 1e-12);
  for (const auto &f : a.functions) {
    EXPECT_EQ(f.term, "I1 misses");
    EXPECT_NEAR(f.termShare, f.share, 1e-12); // its instructions do not vary
    ASSERT_TRUE(f.fact);
    EXPECT_EQ(f.fact->kind, PlacementFact::Kind::SharedSets);
    EXPECT_EQ(f.fact->other, f.function == "a" ? "b" : "a");
    EXPECT_EQ(f.fact->slowWith, 3u);
    EXPECT_EQ(f.fact->slowBuilds, 3u);
    EXPECT_EQ(f.fact->fastWith, 0u);
    EXPECT_EQ(f.fact->fastBuilds, 3u);
    EXPECT_EQ(f.cost.size(), 6u);
    EXPECT_EQ(f.builds, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  }
}

// share_f = cov(c_f, T) / var(T), by hand: T = x + y + rest with
// x = (1, 2, 3, 6), y = (2, 0, 1, 1) and a constant rest.
TEST(Attribution, SharesAreCovarianceOverVariance) {
  AttributionInput in;
  in.metric = "sim-instructions";
  in.terms = {"instructions"};
  const double x[] = {1, 2, 3, 6}, y[] = {2, 0, 1, 1};
  for (int b = 0; b < 4; ++b)
    in.builds.push_back({b, {cost("x", {x[b]}), cost("y", {y[b]}), cost("", {100})}});
  AttributionOptions o;
  o.minShare = -1; // list y too
  const Attribution a = attributeLayoutVariance(in, o);
  // T = (103, 102, 104, 107): mean 104, deviations (-1, -2, 0, 3), var 14/3.
  // x deviations (-2, -1, 0, 3): cov = (2 + 2 + 0 + 9) / 3 = 13/3.
  // y deviations (1, -1, 0, 0): cov = (-1 + 2) / 3 = 1/3.
  ASSERT_EQ(a.functions.size(), 2u);
  EXPECT_EQ(a.functions[0].function, "x");
  EXPECT_NEAR(a.functions[0].share, 13.0 / 14, 1e-12);
  EXPECT_NEAR(a.functions[1].share, 1.0 / 14, 1e-12);
  EXPECT_NEAR(a.otherShare, 0, 1e-12);
  EXPECT_NEAR(a.mean, 104, 1e-12);
  EXPECT_NEAR(a.sd, std::sqrt(14.0 / 3), 1e-12);
  EXPECT_NEAR(a.functions[0].relativeSpread, 5.0 / 3, 1e-12);
  EXPECT_FALSE(a.functions[0].fact); // no placements
}

// A function missing from a build's profile costs 0 there; the identity
// still holds since that build's rest holds it.
TEST(Attribution, AFunctionMissingFromABuildCostsZeroThere) {
  AttributionInput in;
  in.terms = {"instructions"};
  in.builds.push_back({0, {cost("f", {10}), cost("", {90})}});
  in.builds.push_back({1, {cost("", {120})}});
  in.builds.push_back({2, {cost("f", {30}), cost("", {90})}});
  const Attribution a = attributeLayoutVariance(in);
  ASSERT_EQ(a.functions.size(), 1u);
  EXPECT_EQ(a.functions[0].cost, (std::vector<double>{10, 0, 30}));
  EXPECT_NEAR(a.functions[0].share + a.otherShare, 1.0, 1e-12);
}

// The slow builds' start offset: 4 bytes before a 64-byte boundary in the
// two slow builds, elsewhere in the fast ones.
TEST(Attribution, StartOffsetSeparatesTheSlowBuilds) {
  AttributionInput in;
  in.terms = {"instructions", "I1 misses"};
  const std::uint64_t start[] = {0x103c, 0x1010, 0x207c, 0x1020};
  const double misses[] = {900, 100, 950, 120};
  for (int b = 0; b < 4; ++b)
    in.builds.push_back(
        {b, {cost("luaV_execute", {1000, misses[b]}, FunctionPlacement{start[b], 8})}});
  const Attribution a = attributeLayoutVariance(in);
  ASSERT_EQ(a.functions.size(), 1u);
  const auto &fact = a.functions[0].fact;
  ASSERT_TRUE(fact);
  // Spanning two lines comes first among equals: a start 4 bytes before a
  // boundary with 8 bytes of code is what makes it span two.
  EXPECT_EQ(fact->kind, PlacementFact::Kind::LinesSpanned);
  EXPECT_EQ(fact->lines, 2u);
  in.builds[0].functions[0].placement->size = 2;
  in.builds[2].functions[0].placement->size = 2;
  const auto offset = attributeLayoutVariance(in).functions[0].fact;
  ASSERT_TRUE(offset);
  EXPECT_EQ(offset->kind, PlacementFact::Kind::LineOffset);
  EXPECT_EQ(offset->bytes, 4u);
  EXPECT_EQ(offset->lineBytes, 64u);
  EXPECT_EQ(offset->slowWith, 2u);
  EXPECT_EQ(offset->fastWith, 0u);
}

TEST(Attribution, NothingToAttributeSaysWhy) {
  AttributionInput in;
  in.terms = {"instructions"};
  in.builds.push_back({0, {cost("f", {10})}});
  in.builds.push_back({1, {cost("f", {20})}});
  EXPECT_EQ(attributeLayoutVariance(in).note, "fewer than 3 builds with a profile (2)");
  in.builds.push_back({2, {cost("f", {10}), cost("", {10})}});
  in.builds[1].functions[0].terms = {10};
  in.builds[1].functions.push_back(cost("", {10}));
  in.builds[0].functions.push_back(cost("", {10}));
  const Attribution flat = attributeLayoutVariance(in);
  EXPECT_EQ(flat.note, "the total does not vary across the builds");
  EXPECT_TRUE(flat.functions.empty());
}
