// Build directories and content-addressed artifact snapshots.
#include "alea/contract.hpp"
#include "alea/runner/builder.hpp"
#include "alea/runner/hash.hpp"
#include "alea/runner/seeds.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace alea::runner;
namespace fs = std::filesystem;

TEST(Builder, SnapshotsAreContentAddressedAndKeepPermissions) {
  test::TempDir dir;
  fs::create_directories(dir.file("b0/bin"));
  fs::create_directories(dir.file("b1/bin"));
  dir.write("b0/bin/prog", "same bytes");
  dir.write("b1/bin/prog", "same bytes");
  fs::permissions(dir.file("b0/bin/prog"), fs::perms::owner_all);
  auto a = snapshotArtifact(dir.path(), dir.file("b0"), "bin/prog");
  auto b = snapshotArtifact(dir.path(), dir.file("b1"), "bin/prog");
  ASSERT_TRUE(a.ok()) << a.error();
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_EQ(a->objectHash, sha256Hex("same bytes"));
  EXPECT_EQ(a->objectHash, b->objectHash);
  EXPECT_EQ(a->size, 10);
  std::string obj = objectPath(dir.path(), a->objectHash);
  EXPECT_TRUE(fs::exists(obj));
  EXPECT_NE(fs::status(obj).permissions() & fs::perms::owner_exec, fs::perms::none);
  int objects = 0;
  for (const auto &e : fs::directory_iterator(dir.file("objects")))
    objects += e.is_regular_file();
  EXPECT_EQ(objects, 1); // stored once, no temporary left
  auto missing = snapshotArtifact(dir.path(), dir.file("b0"), "bin/nothing");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "artifact 'bin/nothing' was not produced");
}

TEST(Builder, EnvironmentPointsAtTheWrappersAndCarriesTheSeed) {
  SystemConfig sys;
  sys.name = "O3";
  sys.env = {{"CFLAGS", "-O3"}, {"CC", "cc"}}; // the system may override CC
  BuildRequest req;
  req.system = &sys;
  req.buildIndex = 2;
  req.seed = buildSeed(9, "O3", 2);
  req.factors = {"function-order", "link-order"};
  req.campaignDir = "/c";
  req.sourceDir = "/src";
  req.toolDir = "/alea/bin";
  req.baseEnv = {"PATH=/bin", "ALEA_FACTORS=none", "LD=ld.bfd"};
  auto env = buildEnvironment(req);
  EXPECT_EQ(envValue(env, "CC"), "cc");
  EXPECT_EQ(envValue(env, "CXX"), "/alea/bin/alea-c++");
  EXPECT_EQ(envValue(env, "LD"), "/alea/bin/alea-ld");
  EXPECT_EQ(envValue(env, "ALEA_SEED"), alea::formatSeed(req.seed));
  EXPECT_EQ(envValue(env, "ALEA_FACTORS"), "function-order,link-order");
  EXPECT_EQ(envValue(env, "ALEA_BUILD_DIR"), "/c/builds/O3/2");
  EXPECT_EQ(envValue(env, "ALEA_SOURCE_DIR"), "/src");
  EXPECT_EQ(envValue(env, "CFLAGS"), "-O3");
  EXPECT_EQ(envValue(env, "PATH"), "/bin");
  int factorsEntries = 0;
  for (const auto &e : env)
    factorsEntries += e.rfind("ALEA_FACTORS=", 0) == 0;
  EXPECT_EQ(factorsEntries, 1);
}

TEST(Builder, ARealBuildThroughTheLocalExecutor) {
  test::TempDir dir;
  SystemConfig sys;
  sys.name = "sh";
  sys.build.shell = "printf '%s' \"$ALEA_SEED\" > out.txt; echo built {build_index}";
  sys.artifacts = {"out.txt"};
  BuildRequest req;
  req.system = &sys;
  req.buildIndex = 1;
  req.seed = 0xabc;
  req.campaignDir = dir.path();
  req.toolDir = "/none";
  req.baseEnv = {"PATH=/usr/bin:/bin"};
  LocalExecutor ex;
  BuildRecord rec = runBuild(ex, req);
  EXPECT_EQ(rec.status, "ok") << rec.logTail;
  EXPECT_EQ(rec.dir, buildDirectory(dir.path(), "sh", 1));
  ASSERT_EQ(rec.artifacts.size(), 1u);
  EXPECT_EQ(rec.artifacts[0].objectHash, sha256Hex("0x0000000000000abc"));
  EXPECT_EQ(rec.binaryHash, rec.artifacts[0].objectHash);
  EXPECT_NE(rec.logTail.find("built 1"), std::string::npos);
  sys.build.shell = "echo broken >&2; exit 4";
  req.buildIndex = 2;
  BuildRecord bad = runBuild(ex, req);
  EXPECT_EQ(bad.status, "failed");
  EXPECT_NE(bad.logTail.find("broken"), std::string::npos);
  EXPECT_NE(bad.logTail.find("build exited with status 4"), std::string::npos);
}
