// The per-function profiles a store keeps (function_profile.hpp): the first
// profile of a build and benchmark is kept, in the execution's transaction,
// and read back with its counts, by system, benchmark and build index.
#include "alea/store/store.hpp"

#include "store_test_access.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

using namespace alea;
using namespace alea::runner;

namespace {

FunctionProfile profile(std::uint64_t pingMisses) {
  FunctionProfile p;
  p.metric = "sim-cycles";
  p.i1 = "128,1,64";
  CachegrindCounts ping, rest;
  ping.ir = 1000;
  ping.i1mr = pingMisses;
  ping.bim = 7;
  rest.ir = 50;
  p.functions = {{"ping", ping}, {"", rest}};
  return p;
}

} // namespace

TEST(FunctionProfiles, TheFirstOfABuildAndBenchmarkIsKeptAndReadBack) {
  test::TempDir dir;
  auto opened = Store::open(dir.file("c.db"));
  ASSERT_TRUE(opened) << opened.error();
  Store &store = *opened;
  EXPECT_TRUE(store.functionProfiles().empty());
  const std::int64_t sys = *store.ensureSystem("base", true, 0);
  const std::int64_t bench = *store.ensureBenchmark("pingpong", 0, "count");
  BuildRecord b;
  b.systemId = sys;
  b.buildIndex = 3;
  b.seed = 1;
  b.factors = "all";
  b.status = BuildStatus::Ok;
  const std::int64_t build = *store.recordBuild(b);
  const std::vector<PlanEntry> plan = {{0, sys, bench, 3, 0}, {1, sys, bench, 3, 1}};
  ASSERT_TRUE(store.savePlan(plan).ok());
  const FunctionProfile first = profile(40), second = profile(4000);
  for (int pos = 0; pos < 2; ++pos) {
    ExecutionRecord e;
    e.planPosition = pos;
    e.buildId = build;
    e.benchmarkId = bench;
    e.executionIndex = pos;
    const std::vector<MeasurementRecord> m = {{0, 1.0, false}};
    const RecordedExecution r{e, m, "count", "sim-cycles", pos == 0 ? &first : &second};
    ASSERT_TRUE(store.recordExecutions({&r, 1}).ok());
  }
  EXPECT_EQ(StoreTestAccess::scalar(store, "SELECT count(*) FROM function_cost"), 2);
  EXPECT_EQ(StoreTestAccess::scalar(store, "SELECT execution_id FROM function_profile"),
            StoreTestAccess::scalar(store, "SELECT id FROM execution WHERE plan_position = 0"));
  const auto profiles = store.functionProfiles();
  ASSERT_EQ(profiles.size(), 1u);
  EXPECT_EQ(profiles[0].system, "base");
  EXPECT_EQ(profiles[0].benchmark, "pingpong");
  EXPECT_EQ(profiles[0].build, 3);
  EXPECT_EQ(profiles[0].profile.metric, "sim-cycles");
  EXPECT_EQ(profiles[0].profile.i1, "128,1,64");
  // By name: the rest ("") first.
  ASSERT_EQ(profiles[0].profile.functions.size(), 2u);
  EXPECT_EQ(profiles[0].profile.functions[0], first.functions[1]);
  EXPECT_EQ(profiles[0].profile.functions[1], first.functions[0]);
}
