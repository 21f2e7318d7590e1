// The SQLite store: schema version and meta, migrations, refusal of newer
// stores, atomic execution records (no duplicates, no partial data), RAII
// transactions, integrity.
#include "alea/runner/store.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace alea::runner;

namespace {

struct Fixture {
  test::TempDir dir;
  Store store;
  std::int64_t sys = 0, bench = 0, build = 0;
  Fixture() : store(open(dir.file("c.db"))) {
    sys = *store.ensureSystem("base", true, 0);
    bench = *store.ensureBenchmark("b", 0, "s");
    BuildRecord b;
    b.systemId = sys;
    b.buildIndex = 0;
    b.seed = 0x1234;
    b.factors = "all";
    b.status = "ok";
    b.artifacts = {{"bin/k", "abcd", 10}};
    build = *store.recordBuild(b);
    std::vector<PlanEntry> plan;
    for (int e = 0; e < 4; ++e)
      plan.push_back({e, sys, bench, 0, e});
    EXPECT_TRUE(store.savePlan(plan).ok());
  }
  static Store open(const std::string &path, StoreOpenOptions o = {}) {
    auto s = Store::open(path, o);
    EXPECT_TRUE(s.ok()) << s.error();
    return std::move(*s);
  }
  ExecutionRecord exec(int pos, const char *status = "ok") {
    ExecutionRecord e;
    e.planPosition = pos;
    e.buildId = build;
    e.benchmarkId = bench;
    e.executionIndex = pos;
    e.status = status;
    return e;
  }
  std::int64_t count(const char *sql) {
    Statement st(store.handle(), sql);
    return st.step() ? st.columnInt(0) : -1;
  }
};

} // namespace

TEST(Store, NewStoreHasCurrentSchemaAndWal) {
  Fixture f;
  EXPECT_EQ(f.store.version(), kStoreVersion);
  EXPECT_EQ(f.store.meta("compatible_version"), std::to_string(kStoreCompatibleVersion));
  Statement st(f.store.handle(), "PRAGMA journal_mode");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.columnText(0), "wal");
  for (const char *t : {"machine", "system", "benchmark", "build", "artifact", "plan", "execution",
                        "measurement"}) {
    Statement q(f.store.handle(),
                "SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?");
    q.bind(1, std::string_view(t));
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.columnInt(0), 1) << t;
  }
  EXPECT_EQ(f.store.integrityCheck(), "ok");
}

TEST(Store, MigratesAnOlderSchemaKeepingData) {
  test::TempDir dir;
  std::string path = dir.file("old.db");
  {
    Store v1 = Fixture::open(path, {true, 1});
    EXPECT_EQ(v1.version(), 1);
    ASSERT_TRUE(v1.ensureSystem("kept", true, 0).ok());
    Statement idx(v1.handle(),
                  "SELECT count(*) FROM sqlite_master WHERE name='execution_by_build'");
    ASSERT_TRUE(idx.step());
    EXPECT_EQ(idx.columnInt(0), 0);
  }
  Store now = Fixture::open(path);
  EXPECT_EQ(now.version(), kStoreVersion);
  Statement idx(now.handle(), "SELECT count(*) FROM sqlite_master WHERE name='execution_by_build'");
  ASSERT_TRUE(idx.step());
  EXPECT_EQ(idx.columnInt(0), 1);
  Statement sys(now.handle(), "SELECT name FROM system");
  ASSERT_TRUE(sys.step());
  EXPECT_EQ(sys.columnText(0), "kept");
}

TEST(Store, RefusesAStoreFromANewerIncompatibleAlea) {
  test::TempDir dir;
  std::string path = dir.file("new.db");
  {
    Store s = Fixture::open(path);
    ASSERT_TRUE(s.setMeta("version", "99").ok());
    ASSERT_TRUE(s.setMeta("compatible_version", "50").ok());
  }
  auto again = Store::open(path);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().find("written by a newer alea"), std::string::npos) << again.error();
}

TEST(Store, OpensANewerButCompatibleStore) {
  test::TempDir dir;
  std::string path = dir.file("newer.db");
  {
    Store s = Fixture::open(path);
    ASSERT_TRUE(s.setMeta("version", std::to_string(kStoreVersion + 1)).ok());
  }
  auto again = Store::open(path);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->version(), kStoreVersion + 1); // not downgraded
}

TEST(Store, ExecutionAndMeasurementsCommitTogether) {
  Fixture f;
  std::vector<MeasurementRecord> m{{0, 1.5, true}, {1, 1.0, false}, {2, 1.1, false}};
  ASSERT_TRUE(f.store.recordExecution(f.exec(0), m, "s").ok());
  EXPECT_EQ(f.count("SELECT count(*) FROM measurement"), 3);
  auto rows = f.store.measurements();
  ASSERT_EQ(rows.size(), 2u); // warm-up excluded
  EXPECT_EQ(rows[0].system, "base");
  EXPECT_EQ(rows[0].benchmark, "b");
  EXPECT_EQ(rows[0].iteration, 1);
  EXPECT_DOUBLE_EQ(rows[1].value, 1.1);
  EXPECT_EQ(f.store.measurements(true).size(), 3u);
  EXPECT_EQ(f.store.completedPositions(), (std::set<std::int64_t>{0}));
}

TEST(Store, ASecondRecordOfTheSamePlanPositionIsRejectedWholly) {
  Fixture f;
  std::vector<MeasurementRecord> m{{0, 1.0, false}};
  ASSERT_TRUE(f.store.recordExecution(f.exec(1), m, "s").ok());
  std::vector<MeasurementRecord> more{{0, 2.0, false}, {1, 3.0, false}};
  EXPECT_FALSE(f.store.recordExecution(f.exec(1), more, "s").ok());
  EXPECT_EQ(f.count("SELECT count(*) FROM execution"), 1);
  EXPECT_EQ(f.count("SELECT count(*) FROM measurement"), 1);
}

TEST(Store, AFailingMeasurementRollsBackItsExecution) {
  Fixture f;
  // Two measurements with the same iteration index violate the primary key:
  // the execution row inserted before must not survive.
  std::vector<MeasurementRecord> bad{{0, 1.0, false}, {0, 2.0, false}};
  EXPECT_FALSE(f.store.recordExecution(f.exec(2), bad, "s").ok());
  EXPECT_EQ(f.count("SELECT count(*) FROM execution"), 0);
  EXPECT_EQ(f.count("SELECT count(*) FROM measurement"), 0);
  EXPECT_TRUE(f.store.completedPositions().empty());
}

TEST(Store, FailedExecutionsAreNotData) {
  Fixture f;
  ExecutionRecord e = f.exec(3, "signal");
  e.signal = 11;
  e.error = "killed by signal 11 (SIGSEGV)";
  ASSERT_TRUE(f.store.recordExecution(e, {}, "s").ok());
  std::vector<MeasurementRecord> m{{0, 1.0, false}};
  ASSERT_TRUE(f.store.recordExecution(f.exec(0), m, "s").ok());
  EXPECT_EQ(f.store.measurements().size(), 1u);
  StoreSummary s = f.store.summary();
  EXPECT_EQ(s.planned, 4);
  EXPECT_EQ(s.executed, 2);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.measurements, 1);
}

TEST(Store, TransactionRollsBackInItsDestructor) {
  Fixture f;
  {
    Transaction t(f.store);
    ASSERT_TRUE(t.active());
    ASSERT_TRUE(f.store.setMeta("scratch", "1").ok());
  } // no commit
  EXPECT_FALSE(f.store.meta("scratch").has_value());
  {
    Transaction t(f.store);
    ASSERT_TRUE(f.store.setMeta("scratch", "2").ok());
    ASSERT_TRUE(t.commit().ok());
  }
  EXPECT_EQ(f.store.meta("scratch"), "2");
}

TEST(Store, BuildsAreFoundWithTheirArtifacts) {
  Fixture f;
  auto b = f.store.findBuild(f.sys, 0);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->seed, 0x1234u);
  ASSERT_EQ(b->artifacts.size(), 1u);
  EXPECT_EQ(b->artifacts[0].objectHash, "abcd");
  EXPECT_FALSE(f.store.findBuild(f.sys, 1).has_value());
  BuildRecord dup;
  dup.systemId = f.sys;
  dup.buildIndex = 0;
  dup.status = "ok";
  EXPECT_FALSE(f.store.recordBuild(dup).ok()); // (system, index) is unique
}

TEST(Store, PlanRoundTrips) {
  Fixture f;
  auto plan = f.store.loadPlan();
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[2].executionIndex, 2);
  EXPECT_TRUE(f.store.hasPlan());
}

TEST(Store, MachineRowsCountChanges) {
  Fixture f;
  MachineState m;
  m.cpuModel = "cpu";
  ASSERT_TRUE(f.store.addMachine(m, "start").ok());
  ASSERT_TRUE(f.store.addMachine(m, "change: governor").ok());
  ASSERT_TRUE(f.store.addMachine(m, "resume").ok());
  EXPECT_EQ(f.store.summary().machineChanges, 1);
}

TEST(Store, LastMachineIsTheNewestRow) {
  Fixture f;
  EXPECT_FALSE(f.store.lastMachine().has_value());
  MachineState m;
  m.hostname = "h1";
  m.cpuModel = "cpu";
  m.cpuCount = 2;
  m.governor = "performance";
  m.kernel = "Linux 6";
  m.aslr = 2;
  m.load1 = 0.5;
  m.compilers = "clang-19: 19.1";
  ASSERT_TRUE(f.store.addMachine(m, "start").ok());
  m.governor = "powersave";
  ASSERT_TRUE(f.store.addMachine(m, "change: governor").ok());
  auto last = f.store.lastMachine();
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->hostname, "h1");
  EXPECT_EQ(last->governor, "powersave");
  EXPECT_EQ(last->cpuCount, 2);
  EXPECT_EQ(last->aslr, 2);
  EXPECT_DOUBLE_EQ(last->load1, 0.5);
  EXPECT_EQ(last->compilers, "clang-19: 19.1");
  EXPECT_TRUE(machineChanges(m, *last).empty());
}

TEST(Store, OpenFailsOnAMissingDirectory) {
  auto s = Store::open("/nonexistent-dir/x.db");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("cannot open store"), std::string::npos);
}
