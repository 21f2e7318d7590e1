// The heap start offset factor on the runner's side: its seed stream and
// distribution, its switch in the campaign file's factor lists, the embedded
// runtime written out, the static-executable check on real files, and the
// status of several reports. The executor preloading it is tested in
// executor_test.cpp, the campaign recording it in campaign_test.cpp, what the
// runtime moves on real programs by test/e2e/heap_offset_test.py.
#include "alea/campaign/seeds.hpp"
#include "alea/config/config.hpp"
#include "alea/exec/heap_runtime.hpp"
#include "alea/heap_offset.h"
#include "alea/random.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <elf.h>
#include <iterator>
#include <set>

using namespace alea::runner;

namespace {

std::string campaignWith(const std::string &campaign, const std::string &system = "") {
  return "[campaign]\n" + campaign + "\n[[system]]\nname = \"a\"\nbuild = [\"true\"]\n" + system +
         "\n[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n";
}

CampaignConfig parse(const std::string &text) {
  auto r = parseCampaignText(text, "c.toml");
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? *r : CampaignConfig{};
}

} // namespace

TEST(HeapOffsetSeeds, SeedIsTheContractFormula) {
  EXPECT_EQ(heapOffsetSeed(99, 3), alea::mixSeed(99, "heap-offset/3"));
  EXPECT_NE(heapOffsetSeed(99, 3), envPaddingSeed(99, 3)); // a stream of its own
}

TEST(HeapOffsetSeeds, OffsetsAreMultiplesOf16Below64KiBDeterministicAndSpread) {
  std::set<std::int64_t> offsets;
  for (int e = 0; e < 1000; ++e) {
    const std::int64_t o = heapOffsetBytes(0x1234, e);
    EXPECT_GE(o, 0);
    EXPECT_LT(o, ALEA_HEAP_OFFSET_LIMIT);
    EXPECT_EQ(o % ALEA_HEAP_OFFSET_STEP, 0);
    EXPECT_EQ(o, heapOffsetBytes(0x1234, e));
    offsets.insert(o);
  }
  // 1000 draws from 4096 values: about 890 distinct ones.
  EXPECT_GT(offsets.size(), 800u);
  EXPECT_LT(*offsets.begin(), 4096);
  EXPECT_GT(*offsets.rbegin(), ALEA_HEAP_OFFSET_LIMIT - 4096);
}

TEST(HeapOffsetSeeds, PinnedValues) {
  // The stream is the contract: a recorded campaign seed must reproduce its
  // offsets in every later version of alea.
  EXPECT_EQ(heapOffsetSeed(7, 0), 0xafd24b6223f0923cull);
  EXPECT_EQ(heapOffsetBytes(7, 0), 32176);
  EXPECT_EQ(heapOffsetBytes(7, 1), 62080);
  EXPECT_EQ(heapOffsetBytes(7, 2), 54528);
  EXPECT_EQ(heapOffsetBytes(7, 3), 28576);
  alea::Rng rng(heapOffsetSeed(7, 0)); // uniform over the 4096 multiples of 16
  EXPECT_EQ(heapOffsetBytes(7, 0), static_cast<std::int64_t>(rng.below(4096) * 16));
  EXPECT_EQ(heapOffsetText(0), "0000000");
  EXPECT_EQ(heapOffsetText(65520), "0065520");
}

TEST(HeapOffsetConfig, OnByDefaultAndWithAll) {
  EXPECT_TRUE(heapOffsetOn(parse(campaignWith("")).factors));
  CampaignConfig all = parse(campaignWith("factors = \"all\""));
  EXPECT_TRUE(heapOffsetOn(all.factors));
  EXPECT_EQ(all.factors.back(), "heap-offset"); // after the build factors
  // ALEA_FACTORS (the wrappers') never carries it; the store's meta does.
  EXPECT_EQ(joinFactors(all.factors), "function-order,global-order,symbol-names,code-padding,"
                                      "stack-offset,link-order,section-order");
  EXPECT_EQ(describeFactors(all.factors), joinFactors(all.factors) + ",heap-offset");
}

TEST(HeapOffsetConfig, SwitchedByTheFactorLists) {
  CampaignConfig only = parse(campaignWith("factors = [\"heap-offset\"]"));
  EXPECT_EQ(only.factors, std::vector<std::string>{"heap-offset"});
  EXPECT_EQ(joinFactors(only.factors), "none");
  EXPECT_EQ(describeFactors(only.factors), "heap-offset");

  CampaignConfig off = parse(campaignWith("factors = [\"link-order\", \"function-order\"]"));
  EXPECT_FALSE(heapOffsetOn(off.factors));
  EXPECT_EQ(describeFactors(off.factors), "function-order,link-order");
  EXPECT_FALSE(heapOffsetOn(parse(campaignWith("factors = \"none\"")).factors));
  EXPECT_EQ(describeFactors(parse(campaignWith("factors = \"none\"")).factors), "none");

  // A system's own list switches it for that system's executions.
  CampaignConfig sys = parse(campaignWith("", "factors = [\"function-order\"]"));
  ASSERT_TRUE(sys.systems[0].factors);
  EXPECT_TRUE(heapOffsetOn(sys.factors));
  EXPECT_FALSE(heapOffsetOn(*sys.systems[0].factors));
}

TEST(HeapOffsetConfig, UnknownFactorMessageNamesIt) {
  auto r = parseCampaignText(campaignWith("factors = [\"heap\"]"), "c.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("unknown factor 'heap'; expected all, none, function-order"),
            std::string::npos)
      << r.error();
  EXPECT_NE(r.error().find("section-order, heap-offset"), std::string::npos) << r.error();
}

TEST(HeapRuntime, StatusOfReports) {
  EXPECT_EQ(heapStatusFromReport(""), ALEA_HEAP_NOT_LOADED);
  EXPECT_EQ(heapStatusFromReport("applied\n"), "applied");
  EXPECT_EQ(heapStatusFromReport("applied\napplied\n"), "applied");
  EXPECT_EQ(heapStatusFromReport("applied\nown-allocator /x/libjemalloc.so.2\napplied\n"),
            "applied; own-allocator /x/libjemalloc.so.2");
}

TEST(HeapRuntime, PreloadKeepsTheUsersLibrariesFirst) {
  EXPECT_EQ(preloadWith("", "/c/rt.so"), "/c/rt.so");
  EXPECT_EQ(preloadWith("/u/libjemalloc.so.2", "/c/rt.so"), "/u/libjemalloc.so.2:/c/rt.so");
}

TEST(HeapRuntime, ImageIsASharedObjectWrittenOnceWithThatContent) {
  std::string_view image = heapRuntimeImage();
  ASSERT_GT(image.size(), sizeof(Elf64_Ehdr));
  EXPECT_EQ(image.substr(0, SELFMAG), std::string_view(ELFMAG, SELFMAG));
  EXPECT_EQ(reinterpret_cast<const Elf64_Ehdr *>(image.data())->e_type, ET_DYN);
  auto path = heapRuntimePath();
  ASSERT_TRUE(path.ok()) << path.error();
  std::ifstream in(*path, std::ios::binary);
  std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(written, image);
  auto again = heapRuntimePath();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *path);
}

TEST(HeapRuntime, StaticCheckOnRealFiles) {
  EXPECT_EQ(isStaticExecutable("/bin/sh"), false); // dynamic: has PT_INTERP
  // Debian's ldconfig is static-pie: ET_DYN without PT_INTERP.
  EXPECT_EQ(isStaticExecutable("/sbin/ldconfig"), true);
  test::TempDir dir;
  EXPECT_EQ(isStaticExecutable(dir.write("script", "#!/bin/sh\ntrue\n")), std::nullopt);
  EXPECT_EQ(isStaticExecutable(dir.file("missing")), std::nullopt);
}
