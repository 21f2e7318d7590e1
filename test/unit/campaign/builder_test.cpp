// Build directories and content-addressed artifact snapshots.
#include "alea/campaign/builder.hpp"
#include "alea/campaign/seeds.hpp"
#include "alea/contract.hpp"
#include "alea/exec/hash.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace alea;
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

// The limit the campaign file puts on system names (config.hpp) is the real
// one: a name of kMaxSystemNameBytes builds (an interrupted build's
// directory is renamed beside it, under the same name), one byte more cannot.
TEST(Builder, TheLongestSystemNameTheCampaignAllowsBuilds) {
  test::TempDir dir;
  SystemConfig sys;
  sys.name = std::string(kMaxSystemNameBytes, 's');
  sys.build.shell = "echo x > out.txt";
  sys.artifacts = {"out.txt"};
  BuildRequest req;
  req.system = &sys;
  req.campaignDir = dir.path();
  req.toolDir = "/none";
  req.baseEnv = {"PATH=/usr/bin:/bin"};
  LocalExecutor ex;
  fs::create_directories(buildDirectory(dir.path(), sys.name, 0)); // as a killed run left it
  BuildRecord rec = runBuild(ex, req);
  EXPECT_EQ(rec.status, BuildStatus::Ok) << rec.logTail;
  EXPECT_TRUE(fs::exists(buildDirectory(dir.path(), sys.name, 0) + ".interrupted-1"));
  sys.name += "s";
  EXPECT_EQ(runBuild(ex, req).status, BuildStatus::Fault);
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
  EXPECT_EQ(envValue(env, "FC"), "/alea/bin/alea-fc");
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
  EXPECT_EQ(rec.status, BuildStatus::Ok) << rec.logTail;
  EXPECT_EQ(rec.dir, buildDirectory(dir.path(), "sh", 1));
  ASSERT_EQ(rec.artifacts.size(), 1u);
  EXPECT_EQ(rec.artifacts[0].objectHash, sha256Hex("0x0000000000000abc"));
  EXPECT_EQ(rec.binaryHash, rec.artifacts[0].objectHash);
  EXPECT_NE(rec.logTail.find("built 1"), std::string::npos);
  sys.build.shell = "echo broken >&2; exit 4";
  req.buildIndex = 2;
  BuildRecord bad = runBuild(ex, req);
  EXPECT_EQ(bad.status, BuildStatus::Failed);
  EXPECT_NE(bad.logTail.find("broken"), std::string::npos);
  EXPECT_NE(bad.logTail.find("build exited with status 4"), std::string::npos);
}

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A pilot build of `sys` #0 in `<dir>/pilot`, as the pilot campaign records it.
BuildRecord pilotBuild(test::TempDir &dir, const SystemConfig &sys, std::uint64_t seed) {
  const std::string pilot = dir.file("pilot");
  const std::string bdir = buildDirectory(pilot, sys.name, 0);
  fs::create_directories(bdir + "/sub");
  std::ofstream(bdir + "/prog") << "binary of " << seed;
  std::ofstream(bdir + "/sub/data") << "input";
  BuildRecord rec;
  rec.seed = seed;
  rec.factors = "function-order,link-order";
  rec.status = BuildStatus::Ok;
  rec.seconds = 12.5;
  rec.dir = bdir;
  rec.fingerprint = "00112233aabbccdd";
  rec.logTail = "compiled";
  auto snap = snapshotArtifact(pilot, bdir, "prog");
  EXPECT_TRUE(snap.ok());
  rec.artifacts.push_back(*snap);
  rec.binaryHash = snap->objectHash;
  return rec;
}

SystemConfig baseSystem() {
  SystemConfig sys;
  sys.name = "base";
  sys.artifacts = {"prog"};
  return sys;
}

// Build 0 of `sys` in the campaign `dir`.
BuildRequest reuseRequest(const test::TempDir &dir, const SystemConfig &sys) {
  BuildRequest req;
  req.system = &sys;
  req.seed = buildSeed(5, "base", 0);
  req.factors = {"function-order", "link-order"};
  req.campaignDir = dir.path();
  return req;
}

} // namespace

// The pilot's build made with the same seed, factors and artifacts becomes
// the campaign's build: its directory linked over, its artifact snapshotted
// into the campaign's objects with the same bytes, its cost and fingerprint
// kept, the reuse written in its log.
TEST(Builder, ReusesThePilotsBuild) {
  test::TempDir dir;
  const SystemConfig sys = baseSystem();
  const BuildRequest req = reuseRequest(dir, sys);
  const BuildRecord pilot = pilotBuild(dir, sys, req.seed);
  auto r = reuseBuild(pilot, req);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->status, BuildStatus::Ok);
  EXPECT_EQ(r->dir, buildDirectory(dir.path(), "base", 0));
  EXPECT_EQ(r->seconds, 12.5);
  EXPECT_EQ(r->fingerprint, pilot.fingerprint);
  EXPECT_EQ(r->binaryHash, pilot.binaryHash);
  EXPECT_EQ(r->logTail, std::string(kReusedBuildMarker) + pilot.dir + "\ncompiled");
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_EQ(readFile(objectPath(dir.path(), r->artifacts[0].objectHash)),
            readFile(pilot.dir + "/prog"));
  EXPECT_EQ(readFile(r->dir + "/sub/data"), "input"); // the whole directory
  // Hard links: the same file, not a second copy.
  EXPECT_TRUE(fs::equivalent(r->dir + "/prog", pilot.dir + "/prog"));
}

// Not reused: another seed, a failed pilot build, other artifacts, a binary
// changed since the pilot snapshotted it. Each error says why.
TEST(Builder, DoesNotReuseAnotherBuild) {
  test::TempDir dir;
  const SystemConfig sys = baseSystem();
  const BuildRequest req = reuseRequest(dir, sys);
  BuildRecord pilot = pilotBuild(dir, sys, req.seed);
  BuildRecord other = pilot;
  other.seed += 1;
  EXPECT_EQ(reuseBuild(other, req).error(), "the pilot's build has another seed or other factors");
  other = pilot;
  other.status = BuildStatus::Failed;
  EXPECT_EQ(reuseBuild(other, req).error(), "the pilot's build failed");
  SystemConfig more = sys;
  more.artifacts.push_back("lib.so");
  BuildRequest moreReq = req;
  moreReq.system = &more;
  EXPECT_EQ(reuseBuild(pilot, moreReq).error(), "the pilot's build kept other artifacts");
  fs::remove(pilot.dir + "/prog");
  std::ofstream(pilot.dir + "/prog") << "rebuilt by hand";
  EXPECT_EQ(reuseBuild(pilot, req).error(), "artifact 'prog' changed since the pilot built it");
}

// The identical-layouts warning: expected for a tiny program, the
// randomization not taking for a large one, the plain sentence when the
// binary cannot be read.
TEST(Builder, IdenticalLayoutsWarningWeighsTheOdds) {
  LayoutFacts tiny;
  tiny.randomized = true;
  tiny.space.functions = 3;
  tiny.space.modules = 1;
  tiny.space.functionOrder = true;
  tiny.space.linkOrder = true;
  EXPECT_EQ(identicalLayoutsWarning("O1", {2, 5}, 10, tiny),
            "identical layouts: builds 2 and 5 of O1 have the same layout fingerprint; the "
            "program has 3 functions in 1 module alea compiled, so two builds coincide with "
            "probability about 1 in 6 (1.00 that some pair of 10 builds does): expected for a "
            "program this small");
  LayoutFacts large = tiny;
  large.space.functions = 1200;
  large.space.otherFunctions = 4;
  large.space.modules = 40;
  EXPECT_EQ(identicalLayoutsWarning("O2", {0, 1, 7}, 10, large),
            "identical layouts: builds 0, 1 and 7 of O2 have the same layout fingerprint; the "
            "program has 1204 functions (1200 in 40 modules alea compiled, 4 from the C "
            "runtime), so two builds coincide with probability below 1e-12: the randomization "
            "did not take (check ALEA_FACTORS and the log)");
  LayoutFacts mid = tiny;
  mid.space.functions = 12; // 12! = 4.8e8 orders
  EXPECT_NE(identicalLayoutsWarning("O3", {0, 1}, 3, mid)
                .find("probability about 1 in 4.8e+08 (6.3e-09 that some pair of 3 builds "
                      "does): unlikely, check ALEA_FACTORS and the log"),
            std::string::npos)
      << identicalLayoutsWarning("O3", {0, 1}, 3, mid);
  LayoutFacts plain;
  EXPECT_EQ(identicalLayoutsWarning("O1", {0, 1}, 2, plain),
            "identical layouts: builds 0 and 1 of O1 have the same layout fingerprint; the binary "
            "carries no alea note: the randomization did not take (check that the build uses "
            "$CC/$CXX)");
  EXPECT_EQ(identicalLayoutsWarning("O1", {0, 1}, 2, std::nullopt),
            "identical layouts: builds 0 and 1 of O1 have the same layout fingerprint (the "
            "randomization did not take: check that the build uses $CC/$CXX)");
}

// A stripped program's functions cannot be counted (its fingerprint is of the
// code bytes): the warning says so instead of "0 functions ... expected for a
// program this small".
TEST(Builder, IdenticalLayoutsWarningNamesAStrippedProgram) {
  LayoutFacts stripped;
  stripped.randomized = true;
  stripped.stripped = true;
  stripped.codeFingerprint = true;
  stripped.space.modules = 1;
  stripped.space.functionOrder = true;
  const std::string w = identicalLayoutsWarning("O1", {0, 1}, 4, stripped);
  EXPECT_EQ(w, "identical layouts: builds 0 and 1 of O1 have the same layout fingerprint; the "
               "program is stripped (no symbol table), so the fingerprint is of its code: these "
               "builds' executable sections are the same byte for byte, so the randomization did "
               "not take, or the program is too small to vary (check ALEA_FACTORS and the log)");
  EXPECT_EQ(w.find("0 functions"), std::string::npos);
  LayoutFacts noSymbols = stripped;
  noSymbols.stripped = false;
  EXPECT_NE(identicalLayoutsWarning("O1", {0, 1}, 4, noSymbols)
                .find("; the program has no function symbols, so the fingerprint is of its code"),
            std::string::npos);
}
