// The SQLite store: schema version and meta, migrations, refusal of newer
// stores, atomic execution records (no duplicates, no partial data), RAII
// transactions, integrity; the readers' read-only open (a store read is never
// changed; a missing, empty or foreign file is one error).
#include "alea/store/store.hpp"

#include "store_test_access.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

using namespace alea;
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
    b.status = BuildStatus::Ok;
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
  ExecutionRecord exec(int pos, ExecutionStatus status = ExecutionStatus::Ok) {
    ExecutionRecord e;
    e.planPosition = pos;
    e.buildId = build;
    e.benchmarkId = bench;
    e.executionIndex = pos;
    e.status = status;
    return e;
  }
  std::int64_t count(const char *sql) { return StoreTestAccess::scalar(store, sql); }
};

} // namespace

TEST(Store, NewStoreHasCurrentSchemaAndWal) {
  Fixture f;
  EXPECT_EQ(f.store.version(), kStoreVersion);
  EXPECT_EQ(f.store.meta("compatible_version"), std::to_string(kStoreCompatibleVersion));
  Statement st(StoreTestAccess::handle(f.store), "PRAGMA journal_mode");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.columnText(0), "wal");
  for (const char *t : {"machine", "system", "benchmark", "build", "artifact", "plan", "execution",
                        "measurement"}) {
    Statement q(StoreTestAccess::handle(f.store),
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
    Statement idx(StoreTestAccess::handle(v1),
                  "SELECT count(*) FROM sqlite_master WHERE name='execution_by_build'");
    ASSERT_TRUE(idx.step());
    EXPECT_EQ(idx.columnInt(0), 0);
  }
  Store now = Fixture::open(path);
  EXPECT_EQ(now.version(), kStoreVersion);
  Statement idx(StoreTestAccess::handle(now),
                "SELECT count(*) FROM sqlite_master WHERE name='execution_by_build'");
  ASSERT_TRUE(idx.step());
  EXPECT_EQ(idx.columnInt(0), 1);
  Statement sys(StoreTestAccess::handle(now), "SELECT name FROM system");
  ASSERT_TRUE(sys.step());
  EXPECT_EQ(sys.columnText(0), "kept");
}

// Schema 8 (several metrics per execution): a store of schema 7 keeps its
// measurements through the rebuilt table (metric ''), read as before by a
// reader of the old store and by the migrated one; a new metric's rows are
// read only when asked for.
TEST(Store, MeasurementsOfASchema7StoreSurviveTheMetricColumn) {
  test::TempDir dir;
  const std::string path = dir.file("v7.db");
  auto values = [](Store &s, std::string_view metric = {}) {
    std::vector<double> v;
    EXPECT_TRUE(s.visitMeasurements(
                     false, [&](const MeasurementView &m) { v.push_back(m.value); }, {}, metric)
                    .ok());
    return v;
  };
  {
    Store v7 = Fixture::open(path, {true, 7});
    ASSERT_EQ(v7.version(), 7);
    for (const char *sql :
         {"INSERT INTO system(id, name, baseline, position) VALUES(1, 'base', 1, 0)",
          "INSERT INTO benchmark(id, name, position, unit) VALUES(1, 'b', 0, 's')",
          "INSERT INTO build(id, system_id, build_index, seed, factors, status) "
          "VALUES(1, 1, 0, '0x1', 'all', 'ok')",
          "INSERT INTO plan(position, system_id, benchmark_id, build_index, execution_index) "
          "VALUES(0, 1, 1, 0, 0)",
          "INSERT INTO execution(id, plan_position, build_id, benchmark_id, execution_index, "
          "status) VALUES(1, 0, 1, 1, 0, 'ok')",
          "INSERT INTO measurement(execution_id, iteration, value, unit) VALUES(1, 0, 1.5, 's')",
          "INSERT INTO measurement(execution_id, iteration, value, unit) VALUES(1, 1, 2.5, 's')"})
      ASSERT_TRUE(StoreTestAccess::exec(v7, sql).ok()) << sql;
    EXPECT_EQ(values(v7), (std::vector<double>{1.5, 2.5}));
  }
  {
    auto reader = Store::openReadOnly(path);
    ASSERT_TRUE(reader.ok()) << reader.error();
    EXPECT_EQ(reader->version(), 7); // read as it is
    EXPECT_EQ(values(*reader), (std::vector<double>{1.5, 2.5}));
  }
  Store now = Fixture::open(path);
  EXPECT_EQ(now.version(), kStoreVersion);
  EXPECT_EQ(values(now), (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(StoreTestAccess::scalar(now, "SELECT count(*) FROM measurement WHERE metric = ''"), 2);
  ASSERT_TRUE(StoreTestAccess::exec(now, "INSERT INTO measurement(execution_id, metric, "
                                         "iteration, value, unit) VALUES(1, 'sim-cycles', 0, "
                                         "99, 'count')")
                  .ok());
  EXPECT_EQ(values(now), (std::vector<double>{1.5, 2.5})); // the decision's rows only
  EXPECT_EQ(values(now, "sim-cycles"), (std::vector<double>{99}));
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
  ExecutionRecord e = f.exec(3, ExecutionStatus::Signal);
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

TEST(Store, MeasurementsComeInPositionOrderWhateverOrderTheyRanIn) {
  Fixture f;
  // A second system placed before the first and a build 1: executions run
  // (and get their ids) in an order unrelated to the positions.
  std::int64_t first = *f.store.ensureSystem("first", false, -1);
  BuildRecord b;
  b.systemId = first;
  b.status = BuildStatus::Ok;
  std::int64_t firstBuild = *f.store.recordBuild(b);
  b.systemId = f.sys;
  b.buildIndex = 1;
  std::int64_t build1 = *f.store.recordBuild(b);
  ASSERT_TRUE(
      f.store.savePlan(std::vector<PlanEntry>{{4, first, f.bench, 0, 0}, {5, f.sys, f.bench, 1, 0}})
          .ok());
  auto record = [&](int position, std::int64_t build, int execution, double wall,
                    std::vector<MeasurementRecord> values,
                    ExecutionStatus status = ExecutionStatus::Ok) {
    ExecutionRecord e = f.exec(position, status);
    e.buildId = build;
    e.executionIndex = execution;
    e.wallSeconds = wall;
    ASSERT_TRUE(f.store.recordExecution(e, values, "KiB").ok());
  };
  record(5, build1, 0, 5, {{1, 51, false}, {0, 50, true}});
  record(1, f.build, 1, 1, {{0, 10, false}, {1, 11, false}});
  record(2, f.build, 2, 2, {{0, 20, false}}, ExecutionStatus::Exit); // failed: not data
  record(4, firstBuild, 0, 4, {{0, 40, true}, {1, 41, false}});
  record(0, f.build, 0, 3, {{0, 30, false}});

  std::vector<std::string> seen;
  std::size_t announced = 0;
  ASSERT_TRUE(f.store
                  .visitMeasurements(
                      true,
                      [&](const MeasurementView &m) {
                        seen.push_back(
                            std::string(m.system) + " " + std::to_string(m.build) + "/" +
                            std::to_string(m.execution) + "/" + std::to_string(m.iteration) + " " +
                            std::to_string(static_cast<int>(m.value)) +
                            (m.warmup ? " warm-up" : "") + " " + std::string(m.unit) + " wall " +
                            std::to_string(static_cast<int>(m.executionWallSeconds)));
                      },
                      [&](std::size_t n) { announced = n; })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"first 0/0/0 40 warm-up KiB wall 4",
                                            "first 0/0/1 41 KiB wall 4", "base 0/0/0 30 KiB wall 3",
                                            "base 0/1/0 10 KiB wall 1", "base 0/1/1 11 KiB wall 1",
                                            "base 1/0/0 50 warm-up KiB wall 5",
                                            "base 1/0/1 51 KiB wall 5"}));
  EXPECT_EQ(announced, seen.size());
  auto rows = f.store.measurements(); // warm-up excluded
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows.front().system, "first");
  EXPECT_DOUBLE_EQ(rows.front().value, 41);
  EXPECT_EQ(rows.back().unit, "KiB");
  EXPECT_DOUBLE_EQ(rows.back().value, 51);
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
  dup.status = BuildStatus::Ok;
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

// --- reading a store: read-only, never migrating, one clear error ----------

namespace {

namespace fs = std::filesystem;

// What a reader must leave as it found it: the file's bytes and its mtime.
struct FileState {
  std::string bytes;
  fs::file_time_type mtime;
  bool operator==(const FileState &) const = default;
};

FileState stateOf(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return {bytes.str(), fs::last_write_time(path)};
}

// A complete store at `path`: one system, benchmark and build, a plan of two
// executions, one recorded with two measurements. Closed on return, so its
// WAL is checkpointed and its -wal and -shm files are gone. Readable by
// everyone (0644), as a user makes a store they share: alea creates it 0600,
// and the readers of these tests are other users.
void writeCompleteStore(const std::string &path) {
  ASSERT_FALSE(fs::exists(path));
  {
    Store created = Fixture::open(path);
  }
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  Store s = Fixture::open(path);
  std::int64_t sys = *s.ensureSystem("base", true, 0);
  std::int64_t bench = *s.ensureBenchmark("b", 0, "s");
  BuildRecord b;
  b.systemId = sys;
  b.status = BuildStatus::Ok;
  std::int64_t build = *s.recordBuild(b);
  std::vector<PlanEntry> plan{{0, sys, bench, 0, 0}, {1, sys, bench, 0, 1}};
  ASSERT_TRUE(s.savePlan(plan).ok());
  ExecutionRecord e;
  e.buildId = build;
  e.benchmarkId = bench;
  e.status = ExecutionStatus::Ok;
  std::vector<MeasurementRecord> m{{0, 1.0, false}, {1, 1.5, false}};
  ASSERT_TRUE(s.recordExecution(e, m, "s").ok());
}

// The second execution of writeCompleteStore's plan, with one measurement.
Status recordSecondExecution(Store &writer) {
  ExecutionRecord e;
  e.planPosition = 1;
  e.buildId = writer.findBuild(1, 0)->id;
  e.benchmarkId = 1;
  e.executionIndex = 1;
  e.status = ExecutionStatus::Ok;
  std::vector<MeasurementRecord> m{{0, 2.0, false}};
  return writer.recordExecution(e, m, "s");
}

// What a reader saw, in one line: "version V, N measurements" or the error.
std::string readStore(const std::string &path) {
  auto s = Store::openReadOnly(path);
  if (!s)
    return "error: " + s.error();
  return "version " + std::to_string(s->version()) + ", " +
         std::to_string(s->measurements().size()) + " measurements";
}

// Runs `read` as a user for whom file modes are enforced. Unprivileged tests
// run it here; as root, where chmod stops no write, it runs in a child process
// that first becomes nobody (uid and gid 65534), and its line comes back
// through a pipe (gtest assertions would not). If root cannot drop its
// privileges, `read` runs as root: callers check what the OS enforces with
// readerCanWrite() rather than assume it.
std::string asUnprivileged(const std::function<std::string()> &read) {
  if (::geteuid() != 0)
    return read();
  int fds[2];
  if (::pipe(fds) != 0)
    return "pipe failed";
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0)
      (void)::setuid(65534);
    std::string line = read();
    (void)!::write(fds[1], line.data(), line.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string line;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
    line.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return line;
}

// Whether the reader of asUnprivileged may create files in `dir`.
bool readerCanWrite(const std::string &dir) {
  return asUnprivileged([&] { return ::access(dir.c_str(), W_OK) == 0 ? "yes" : "no"; }) == "yes";
}

// Gives a directory back its mode at the end of a test, so TempDir can remove it.
struct ModeGuard {
  std::string path;
  ~ModeGuard() { ::chmod(path.c_str(), 0755); }
};

} // namespace

TEST(StoreReadOnly, ReadsACompleteStoreWithoutChangingIt) {
  test::TempDir dir;
  std::string path = dir.file("run #1?a=b%20.db"); // characters a file: URI must escape
  writeCompleteStore(path);
  FileState before = stateOf(path);
  {
    auto s = Store::openReadOnly(path);
    ASSERT_TRUE(s.ok()) << s.error();
    EXPECT_EQ(s->version(), kStoreVersion);
    EXPECT_EQ(s->measurements().size(), 2u);
    EXPECT_EQ(s->summary().planned, 2);
    EXPECT_EQ(sqlite3_db_readonly(StoreTestAccess::handle(*s), "main"), 1);
    EXPECT_FALSE(s->setMeta("scratch", "1").ok()); // a write is refused
  }
  EXPECT_TRUE(stateOf(path) == before);
}

TEST(StoreReadOnly, NeverMigratesAnOlderStore) {
  test::TempDir dir;
  std::string path = dir.file("v1.db");
  {
    Store v1 = Fixture::open(path, {true, 1});
    ASSERT_TRUE(v1.ensureSystem("kept", true, 0).ok());
  }
  FileState before = stateOf(path);
  {
    auto s = Store::openReadOnly(path);
    ASSERT_TRUE(s.ok()) << s.error();
    EXPECT_EQ(s->version(), 1); // read as it is
    Statement idx(StoreTestAccess::handle(*s),
                  "SELECT count(*) FROM sqlite_master WHERE name='execution_by_build'");
    ASSERT_TRUE(idx.step());
    EXPECT_EQ(idx.columnInt(0), 0);
  }
  EXPECT_TRUE(stateOf(path) == before);
}

TEST(StoreReadOnly, ReadsReadOnlyFilesInAWritableDirectory) {
  test::TempDir dir;
  std::string path = dir.file("c.db"), old = dir.file("v1.db");
  writeCompleteStore(path);
  {
    Store v1 = Fixture::open(old, {true, 1}); // a store an older alea wrote
    ASSERT_TRUE(v1.ensureSystem("kept", true, 0).ok());
  }
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0); // writable for nobody too
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  ASSERT_EQ(::chmod(old.c_str(), 0444), 0);
  FileState before = stateOf(path), beforeOld = stateOf(old);
  EXPECT_EQ(asUnprivileged([&] { return readStore(path); }),
            "version " + std::to_string(kStoreVersion) + ", 2 measurements");
  // The older store is read as it is: migrating it would need a write.
  EXPECT_EQ(asUnprivileged([&] { return readStore(old); }), "version 1, 0 measurements");
  EXPECT_TRUE(stateOf(path) == before);
  EXPECT_TRUE(stateOf(old) == beforeOld);
}

TEST(StoreReadOnly, ReadsAStoreInAReadOnlyDirectoryWithoutWalFiles) {
  test::TempDir dir;
  std::string path = dir.file("c.db");
  writeCompleteStore(path);
  ASSERT_FALSE(fs::exists(path + "-wal"));
  ASSERT_FALSE(fs::exists(path + "-shm"));
  ModeGuard restore{dir.path()};
  ASSERT_EQ(::chmod(dir.path().c_str(), 0555), 0);
  FileState before = stateOf(path);
  EXPECT_EQ(asUnprivileged([&] { return readStore(path); }),
            "version " + std::to_string(kStoreVersion) + ", 2 measurements");
  EXPECT_TRUE(stateOf(path) == before);
  // Where the OS really keeps the reader out of the directory, SQLite could
  // not create the -wal and -shm files and the store was read as immutable.
  if (!readerCanWrite(dir.path())) {
    EXPECT_FALSE(fs::exists(path + "-wal"));
    EXPECT_FALSE(fs::exists(path + "-shm"));
  }
}

TEST(StoreReadOnly, DoesNotReadAroundAWalWithDataItCannotIndex) {
  test::TempDir dir, copy;
  std::string path = dir.file("c.db");
  writeCompleteStore(path);
  {
    // A copy taken while a writer had commits in its WAL, without the -shm
    // file: the last execution is only in the -wal file.
    Store writer = Fixture::open(path);
    ASSERT_TRUE(recordSecondExecution(writer).ok());
    fs::copy_file(path, copy.file("c.db"));
    fs::copy_file(path + "-wal", copy.file("c.db-wal"));
  }
  ModeGuard restore{copy.path()};
  ASSERT_EQ(::chmod(copy.path().c_str(), 0555), 0);
  std::string line = asUnprivileged([&] { return readStore(copy.file("c.db")); });
  if (readerCanWrite(copy.path())) {
    EXPECT_EQ(line, "version " + std::to_string(kStoreVersion) + ", 3 measurements");
  } else {
    // Read as immutable, the file alone would lack the last execution: an
    // error, not a silently older campaign.
    EXPECT_NE(line.find("-wal' holds data"), std::string::npos) << line;
  }
}

TEST(StoreReadOnly, SeesOneSnapshotWhileAWriterCommits) {
  test::TempDir dir;
  std::string path = dir.file("c.db");
  writeCompleteStore(path);
  Store writer = Fixture::open(path); // a live writer: -wal and -shm in use
  auto reader = Store::openReadOnly(path);
  ASSERT_TRUE(reader.ok()) << reader.error();
  EXPECT_EQ(sqlite3_db_readonly(StoreTestAccess::handle(*reader), "main"), 1);
  {
    Store::ReadSnapshot snapshot(*reader);
    ASSERT_TRUE(snapshot.active());
    EXPECT_EQ(reader->measurements().size(), 2u);
    ASSERT_TRUE(recordSecondExecution(writer).ok());
    EXPECT_EQ(reader->measurements().size(), 2u); // the snapshot holds
  }
  EXPECT_EQ(reader->measurements().size(), 3u); // the next one sees the commit
}

TEST(StoreReadOnly, RefusesAStoreFromANewerIncompatibleAleaEvenWhereItCannotWrite) {
  test::TempDir dir;
  std::string path = dir.file("new.db");
  writeCompleteStore(path);
  {
    Store s = Fixture::open(path);
    ASSERT_TRUE(s.setMeta("version", "99").ok());
    ASSERT_TRUE(s.setMeta("compatible_version", "50").ok());
  }
  ModeGuard restore{dir.path()};
  ASSERT_EQ(::chmod(dir.path().c_str(), 0555), 0);
  FileState before = stateOf(path);
  std::string line = asUnprivileged([&] { return readStore(path); });
  EXPECT_NE(line.find("written by a newer alea"), std::string::npos) << line;
  EXPECT_NE(line.find("version >= 50"), std::string::npos) << line;
  EXPECT_NE(line.find("reads up to " + std::to_string(kStoreVersion)), std::string::npos) << line;
  EXPECT_TRUE(stateOf(path) == before);
}

TEST(StoreReadOnly, RefusesAForeignSqliteFileWithoutChangingIt) {
  test::TempDir dir;
  std::string path = dir.file("foreign.db");
  {
    sqlite3 *db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE notes(text)", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  FileState before = stateOf(path);
  auto s = Store::openReadOnly(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "'" + path + "' is not an alea store (no such table: meta)");
  EXPECT_TRUE(stateOf(path) == before);
}

TEST(StoreReadOnly, RefusesAFileThatIsNotSqlite) {
  test::TempDir dir;
  std::string path = dir.write("notes.db", "system,benchmark,value\na,b,1.0\n");
  FileState before = stateOf(path);
  auto s = Store::openReadOnly(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "'" + path + "' is not an alea store (not an SQLite database)");
  EXPECT_TRUE(stateOf(path) == before);
}

TEST(StoreReadOnly, RefusesAnEmptyFileLeavingItEmpty) {
  test::TempDir dir;
  std::string path = dir.write("empty.db", "");
  auto s = Store::openReadOnly(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "'" + path + "' is empty, not an alea store");
  EXPECT_EQ(fs::file_size(path), 0u);
  EXPECT_FALSE(fs::exists(path + "-wal"));
}

TEST(StoreReadOnly, RefusesAMissingFileCreatingNothing) {
  test::TempDir dir;
  std::string path = dir.file("missing.db");
  auto s = Store::openReadOnly(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "no such campaign store: '" + path + "'");
  EXPECT_FALSE(fs::exists(path));
}

// --- what the store holds stays private and redacted (issue 18) ------------

namespace {

unsigned modeOf(const std::string &path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
}

// Sets the umask for the scope of a test, then restores it.
struct Umask {
  mode_t before;
  explicit Umask(mode_t mask) : before(::umask(mask)) {}
  ~Umask() { ::umask(before); }
};

std::string fileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

} // namespace

// Issue 18: campaign.db was 0644 under umask 022.
TEST(StorePermissions, ANewStoreAndItsWalFilesArePrivateUnderUmask022) {
  Umask mask(022);
  test::TempDir dir;
  const std::string path = dir.file("c.db");
  Store store = Fixture::open(path);
  ASSERT_TRUE(store.setMeta("k", "v").ok()); // a write: the -wal and -shm files are in use
  for (const std::string &file : {path, path + "-wal", path + "-shm"}) {
    ASSERT_TRUE(fs::exists(file)) << file;
    EXPECT_EQ(modeOf(file), 0600u) << file;
  }
}

TEST(StorePermissions, AnExistingStoreKeepsItsMode) {
  test::TempDir dir;
  const std::string path = dir.file("c.db");
  {
    Store created = Fixture::open(path);
  }
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  Store store = Fixture::open(path);
  ASSERT_TRUE(store.setMeta("k", "v").ok());
  EXPECT_EQ(modeOf(path), 0640u);
  EXPECT_EQ(modeOf(path + "-wal"), 0640u);
}

// Issue 18: log tails, errors and environments were stored as they came.
TEST(StoreRedaction, FreeTextColumnsPassThroughTheRedactor) {
  Fixture f;
  Redactor redactor;
  redactor.learnEntry("GH_PAT=pat-VALUE-0001");
  f.store.redactWith(redactor);
  MachineState m;
  m.hostname = "h";
  m.compilers = "CC=/opt/cc --password=pw-VALUE-0002";
  ASSERT_TRUE(f.store.addMachine(m, "start").ok());
  // A live state compares with the recorded one as recorded: no change.
  EXPECT_NE(f.store.lastMachine()->compilers, m.compilers);
  EXPECT_TRUE(machineChanges(*f.store.lastMachine(), f.store.recorded(m)).empty());
  BuildRecord b;
  b.systemId = f.sys;
  b.buildIndex = 1;
  b.status = BuildStatus::Failed;
  b.dir = "/campaign/builds/base/1"; // a path: recorded as it is
  b.logTail = "+ curl -u admin:pw-VALUE-0003 https://h\n+ echo pat-VALUE-0001\n";
  ASSERT_TRUE(f.store.recordBuild(b).ok());
  ExecutionRecord e = f.exec(0, ExecutionStatus::Exit);
  e.environment = "DATABASE_URL=postgres://u:pw-VALUE-0004@h/db\nMYSQL_PWD=pw-VALUE-0005\n";
  e.stderrTail = "token: pw-VALUE-0006\n";
  e.error = "connecting to redis://:pw-VALUE-0007@cache failed";
  e.leftovers = "killed pid 12 (helper --secret=pw-VALUE-0008)";
  ASSERT_TRUE(f.store.recordExecution(e, {}, "s").ok());
  std::string recorded;
  for (const char *sql :
       {"SELECT compilers FROM machine", "SELECT log_tail || dir FROM build WHERE build_index = 1",
        "SELECT environment || stderr_tail || error || leftovers FROM execution"}) {
    Statement st(StoreTestAccess::handle(f.store), sql);
    ASSERT_TRUE(st.step()) << sql;
    recorded += st.columnText(0) + "\n";
  }
  EXPECT_NE(recorded.find("/campaign/builds/base/1"), std::string::npos);
  EXPECT_NE(recorded.find("postgres://u:<redacted>@h/db"), std::string::npos) << recorded;
  const std::string bytes = fileBytes(f.dir.file("c.db")) + fileBytes(f.dir.file("c.db-wal"));
  for (int i = 1; i <= 8; ++i) {
    const std::string secret = (i == 1 ? "pat-VALUE-000" : "pw-VALUE-000") + std::to_string(i);
    EXPECT_EQ(recorded.find(secret), std::string::npos) << secret << " in\n" << recorded;
    EXPECT_EQ(bytes.find(secret), std::string::npos) << secret << " in the store's files";
  }
}

// Issue 18 item 5: the writer's open of an existing file that is not an alea
// store (empty after a truncate, not SQLite, another program's database) is
// an error naming the file, and leaves the file and its side files as they
// were: a campaign's store is never silently replaced by a new one.
TEST(Store, AnExistingFileThatIsNoStoreIsRefusedAndLeftAsItWas) {
  test::TempDir dir;
  std::string empty = dir.write("empty.db", "");
  std::string wal = dir.write("empty.db-wal", std::string(4096, 'w'));
  std::string junk = dir.write("junk.db", std::string(300, 'x'));
  std::string foreign = dir.file("foreign.db");
  {
    sqlite3 *db = nullptr;
    ASSERT_EQ(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(1);", nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
  }
  const std::string foreignBefore = fileBytes(foreign);
  struct Case {
    std::string path, why;
  };
  for (const Case &c : {Case{empty, "is empty, not an alea store"},
                        Case{junk, "is not an alea store (not an SQLite database)"},
                        Case{foreign, "is not an alea store (no such table: meta)"}}) {
    auto s = Store::open(c.path);
    ASSERT_FALSE(s.ok()) << c.path;
    EXPECT_EQ(s.error().rfind("'" + c.path + "' " + c.why, 0), 0u) << s.error();
    EXPECT_NE(s.error().find("alea does not replace an existing file"), std::string::npos)
        << s.error();
  }
  EXPECT_EQ(fileBytes(empty), "");
  EXPECT_EQ(fileBytes(wal), std::string(4096, 'w'));
  EXPECT_FALSE(std::filesystem::exists(empty + "-shm"));
  EXPECT_EQ(fileBytes(junk), std::string(300, 'x'));
  EXPECT_EQ(fileBytes(foreign), foreignBefore); // not turned to WAL, no meta table added
  EXPECT_FALSE(std::filesystem::exists(foreign + "-wal"));
}
