// The campaign store: one SQLite file per campaign (`<dir>/campaign.db`), with a
// versioned schema (a `meta` table holding `version` and `compatible_version`,
// as Chromium's sql::MetaTable), numbered migrations, WAL and synchronous=NORMAL.
// Tables mirror the experiment levels (LNT's machine/run/sample model): machine,
// system, benchmark, build, plan, execution, measurement. An execution's
// measurements are committed in the same transaction as its completion record,
// so a crash loses at most the execution in flight and never duplicates one.
// Every SQL statement of alea is in store.cpp: the rest of the runner reads and
// writes through the named methods below, which take and return plain rows.
// docs/store.md documents the schema and the durability choice.
#pragma once

#include "alea/config/error.hpp"
#include "alea/config/redact.hpp"
#include "alea/exec/machine.hpp"
#include "alea/records.hpp"
#include "alea/store/function_profile.hpp"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace alea::runner {

// The schema this alea writes, and the oldest schema it can still read/write.
inline constexpr int kStoreVersion = 10;
inline constexpr int kStoreCompatibleVersion = 1;

// A prepared statement; finalized in the destructor. bind* are 1-based.
// store.cpp's tool (and the tests', through StoreTestAccess): code outside the
// store has no handle to prepare one on.
class Statement {
public:
  Statement(sqlite3 *db, std::string_view sql);
  ~Statement();
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;

  bool valid() const { return stmt_ != nullptr; }
  Statement &bind(int index, std::int64_t value);
  Statement &bind(int index, int value) { return bind(index, std::int64_t{value}); }
  Statement &bind(int index, double value);
  Statement &bind(int index, std::string_view value);
  Statement &bindNull(int index);
  // SQLITE_ROW -> true; SQLITE_DONE -> false; errors -> false and ok() false.
  bool step();
  void reset();
  bool ok() const { return ok_; }
  std::int64_t columnInt(int col) const;
  double columnDouble(int col) const;
  std::string columnText(int col) const;
  // The text without a copy: valid until the next step, reset or column call.
  std::string_view columnView(int col) const;
  bool columnIsNull(int col) const;

private:
  sqlite3 *db_;
  sqlite3_stmt *stmt_ = nullptr;
  bool ok_ = true;
};

class Store;

// RAII transaction: commit() or the destructor rolls back, never throwing
// there (SQLiteCpp's Transaction). A write transaction begins IMMEDIATE (it
// takes the write lock at once); a read one (Store::ReadSnapshot) is a plain
// BEGIN that only reads and ends in the destructor.
class Transaction {
public:
  enum class Kind { Write, Read };
  explicit Transaction(Store &store, Kind kind = Kind::Write);
  ~Transaction();
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;
  bool active() const { return active_; }
  Status commit();

private:
  Store &store_;
  bool active_ = false;
};

struct ArtifactRecord {
  std::string path;       // relative to the build directory
  std::string objectHash; // sha256, name of the file under <dir>/objects/
  std::int64_t size = 0;
};

// A build as the campaign loop records it: the build (alea/records.hpp) with
// the store's ids, its factors, its directory and its artifacts.
struct BuildRecord : Build {
  std::int64_t id = 0;
  std::int64_t systemId = 0;
  std::string factors;
  std::string dir;
  std::string compilers;
  std::vector<ArtifactRecord> artifacts;
};

struct PlanEntry {
  std::int64_t position = 0; // order of execution, 0-based
  std::int64_t systemId = 0;
  std::int64_t benchmarkId = 0;
  int buildIndex = 0;
  int executionIndex = 0;
  // Paired designs (scheduler.hpp): the block this entry belongs to, one
  // entry of each system's same build; -1 = unpaired.
  std::int64_t block = -1;
  bool operator==(const PlanEntry &) const = default;
};

// An execution as the campaign loop records it: how its process ended
// (alea/records.hpp, as the executor measured it) and everything else the
// store keeps of it.
struct ExecutionRecord : ProcessEnd, RunConditions {
  std::int64_t planPosition = 0;
  std::int64_t buildId = 0; // 0 = the build failed (no process was run)
  std::int64_t benchmarkId = 0;
  int executionIndex = 0;
  std::int64_t envPadding = 0;
  std::string environment; // KEY=VALUE lines (ALEA_ENV_PAD shown by its size)
  ExecutionStatus status = ExecutionStatus::Ok;
  std::string stderrTail;
  std::string error;
  std::int64_t machineId = 0;
  // Processes left running after the execution ended: "killed pid 12 (x), ..."
  // or "left running pid 12 (x), ..."; "" = none.
  std::string leftovers;
  // The conditions it ran under beyond RunConditions (the noise diagnosis;
  // docs/store.md).
  std::string cpus; // the CPUs it was allowed ("" = any)
  std::optional<std::int64_t> involuntarySwitches, voluntarySwitches;
  std::optional<double> quietWait; // seconds the quiet gate waited (none: no gate)
  bool ranBusy = false;            // the gate gave up waiting: ran while busy
  std::optional<double> overlap;   // duet: share of its wall time its partners ran too
  // Duet (duet.hpp): how it was kept with its partners (none: not a duet),
  // the barriers it passed (Barrier), the times it was restarted to keep its
  // partners company (Overlap).
  std::optional<DuetSync> duetSync;
  std::optional<std::int64_t> duetBarriers, duetRestarts;
  std::string target;           // the [[target]] it ran on; "" = this host
  std::int64_t targetOrder = 0; // its place in its target's sequence (1, 2, ...)
  // The heap start offset (docs/campaign.md): bytes drawn (none: the factor
  // is off) and what came of it, a status word of alea/heap_offset.h
  // ("applied", "applied-late", "own-allocator <object>", "static", ...).
  std::optional<std::int64_t> heapOffset;
  std::string heapStatus;
  // Several metrics per execution: the wall seconds of its second run, under
  // cachegrind (none: there was none), machine time the campaign spent too.
  std::optional<double> simulationSeconds;
};

struct MeasurementRecord {
  int iteration = 0;
  double value = 0;
  bool warmup = false;
  // Of another metric than the execution's own (several metrics per
  // execution, docs/measure.md): its name and unit; empty: the execution's.
  std::string_view metric = {}, unit = {};
};

// An execution with its measurements, as recordExecutions takes them: the
// metric they measure ("" in stores of one unnamed measure, as imports) and
// its unit.
struct RecordedExecution {
  const ExecutionRecord &execution;
  std::span<const MeasurementRecord> measurements;
  std::string_view unit;
  std::string_view metric = {};
  // Its counts per function under cachegrind (function_profile.hpp), kept
  // when it is the first ok execution of its build and benchmark to have one.
  const FunctionProfile *profile = nullptr;
};

// One row of the long form (what `alea export` writes): a measurement with
// its unit.
struct MeasurementRow : MeasurementPoint {
  std::string unit;
};

// One measurement as Store::visitMeasurements passes it. The names point
// into the visit's own buffers: valid during the call only (copy what you keep).
struct MeasurementView {
  std::string_view system, benchmark, unit;
  int build = 0, execution = 0, iteration = 0;
  double value = 0;
  bool warmup = false;
  double executionWallSeconds = 0; // of the execution it belongs to (0: not recorded)
  double startedAt = 0;            // when that execution started, epoch seconds (0: unknown)
};

// A system or a benchmark, in store order (position, then id).
struct SystemRow {
  std::string name;
  bool baseline = false;
};
struct BenchmarkRow {
  std::string name;
  std::string unit; // of its values: "s", "KiB" or "count"
  // The metric its decision is on ("" in stores of one unnamed measure).
  std::string decidedOn;
};

// A machine state recorded because something changed during the campaign.
struct MachineChangeRow {
  std::string recordedAt; // ISO 8601, UTC
  std::string reason;     // "change: governor,aslr,..."
};

// An execution of imported data (`alea import`): its plan entry, its build's
// id and its measurements; recorded with status ok and no process facts.
struct ImportedExecution {
  PlanEntry plan;
  std::int64_t buildId = 0;
  double startedAt = 0; // epoch seconds (0: unknown)
  std::span<const MeasurementRecord> measurements;
};

struct StoreSummary {
  std::int64_t planned = 0, executed = 0, failed = 0, measurements = 0;
  std::int64_t builds = 0, failedBuilds = 0, machineChanges = 0;
};

struct StoreOpenOptions {
  bool create = true;
  int targetVersion = kStoreVersion; // tests open older schemas
};

class Store {
public:
  // The writer's open (alea run, alea import): creates the file if asked,
  // sets WAL and the other pragmas, applies the migrations.
  static Expected<Store> open(const std::string &path, StoreOpenOptions options = {});
  // A reader's open (alea report, alea export, the pilot's planner): never
  // writes, creates or migrates anything in the file. Checks that the file is
  // an alea store this alea can read; a missing, empty, non-SQLite or foreign
  // file is one error. On a read-only directory or mount without the WAL's
  // side files it reads the file as immutable (docs/store.md, "Reading a store").
  static Expected<Store> openReadOnly(const std::string &path);
  Store(Store &&other) noexcept;
  Store &operator=(Store &&other) noexcept;
  ~Store();
  Store(const Store &) = delete;

  const std::string &path() const { return path_; }
  std::string lastError() const;

  // What the free-text columns pass through when written (redact.hpp): the
  // machine facts, builds' compilers and log tails, executions' environment,
  // stderr tail, error and leftovers. A store starts with the default rules;
  // a campaign sets its own (its redact_env, the secret values it learned).
  // Names, paths, hashes and meta values are written as given: the campaign
  // redacts the meta values it records (config_text, environment).
  void redactWith(Redactor redactor) { redactor_ = std::move(redactor); }

  // One read transaction for the reads made while it lives: a campaign may be
  // writing the store meanwhile (WAL: readers never block the writer), and a
  // reader that needs its counts, measurements and failures to agree reads
  // them from one snapshot. Ends (a rollback of a read: nothing was written)
  // in the destructor, which never throws.
  class ReadSnapshot : private Transaction { // never committed: it only reads
  public:
    explicit ReadSnapshot(Store &store) : Transaction(store, Kind::Read) {}
    using Transaction::active;
  };

  int version();
  std::optional<std::string> meta(std::string_view key);
  Status setMeta(std::string_view key, std::string_view value);

  Expected<std::int64_t> ensureSystem(std::string_view name, bool baseline, int position);
  // `decidedOn`: the metric its decision is on ("" = its one measure).
  Expected<std::int64_t> ensureBenchmark(std::string_view name, int position, std::string_view unit,
                                         std::string_view decidedOn = {});
  // `target`: the [[target]] it was read on; "" = this host.
  Expected<std::int64_t> addMachine(const MachineState &state, std::string_view reason,
                                    std::string_view target = {});
  // `state` as addMachine records it (its text fields redacted): what a live
  // state is compared with the recorded ones as.
  MachineState recorded(const MachineState &state) const;
  // The machine state of `target` recorded last (at the start, a resume or a
  // change), if any.
  std::optional<MachineState> lastMachine(std::string_view target = {});
  // ...and the one recorded first (the machine a report says it ran on).
  std::optional<MachineState> firstMachine(std::string_view target = {});
  // The Slurm jobs of the campaign (docs/targets.md): recorded when started,
  // their last known state set when they end or are found again.
  struct TargetJob {
    std::int64_t id = 0;
    std::string target, jobId, state;
  };
  Expected<std::int64_t> recordJob(std::string_view target, std::string_view jobId);
  Status setJobState(std::int64_t id, std::string_view state);
  std::vector<TargetJob> jobs();

  std::optional<BuildRecord> findBuild(std::int64_t systemId, int buildIndex);
  // The id of the system named `name`, without recording it (a reader's
  // lookup: an auto campaign finds the pilot's builds to reuse).
  std::optional<std::int64_t> findSystemId(std::string_view name);
  // Inserts the build and its artifacts in one transaction; returns its id.
  Expected<std::int64_t> recordBuild(const BuildRecord &build);

  bool hasPlan();
  // Appends plan entries, and sets the meta keys given, in one transaction.
  Status savePlan(std::span<const PlanEntry> plan,
                  std::initializer_list<std::pair<std::string_view, std::string>> meta = {});
  std::vector<PlanEntry> loadPlan();
  std::set<std::int64_t> completedPositions();
  // The highest target_order recorded for `target` (0: none yet).
  std::int64_t lastTargetOrder(std::string_view target);

  // The execution row and all its measurements, in ONE transaction.
  Status recordExecution(const ExecutionRecord &execution,
                         std::span<const MeasurementRecord> measurements, std::string_view unit);
  // Several executions (a duet's) in ONE transaction: all or none.
  Status recordExecutions(std::span<const RecordedExecution> executions);

  // Measurements of successful executions, warm-up excluded unless asked, in
  // store order (system, benchmark, build, execution, iteration positions).
  std::vector<MeasurementRow> measurements(bool includeWarmup = false);
  // The same rows, passed one at a time without being copied (a report of a
  // million measurements reads them in one pass, into its own structures);
  // `sized`, if given, is told how many rows will come before the first one.
  // Each view carries its execution's wall seconds (the pilot's overhead).
  // `metric`: the rows of that metric only; empty: of each benchmark's
  // decision metric (a store of one measure: all).
  Status visitMeasurements(bool includeWarmup,
                           const std::function<void(const MeasurementView &)> &visit,
                           const std::function<void(std::size_t)> &sized = {},
                           std::string_view metric = {});
  // True if a successful execution has its start time (a campaign's store
  // since schema 4; an import of a CSV that had them).
  bool hasStartTimes();
  // The metrics a campaign measured, in the campaign file's order (meta
  // key "metrics"; empty before several metrics per execution).
  std::vector<std::string> measuredMetrics();

  StoreSummary summary();
  // Every successful execution with its conditions, in the order they ran.
  std::vector<ExecutionConditions> executionConditions();
  // How the duet's executions were kept together, per scheme (duet.hpp);
  // empty before schema 7 or without a duet.
  std::vector<DuetSyncRow> duetSync();
  // The per-function profiles (function_profile.hpp), by system, benchmark
  // and build index; none in a store older than the function_cost table.
  std::vector<StoredFunctionProfile> functionProfiles();
  // The machine time a campaign has used: its builds' and executions' wall
  // seconds (what an adaptive campaign's time budget counts).
  double machineSeconds();
  // "ok" when PRAGMA integrity_check is clean, else its first message.
  std::string integrityCheck();

  // The report's reads (campaign_data.cpp), in store order; errors name the
  // SQLite failure.
  Expected<std::vector<SystemRow>> systems();
  Expected<std::vector<BenchmarkRow>> benchmarks();
  // In plan order.
  Expected<std::vector<FailedExecution>> failedExecutions();
  // Per (system, benchmark), benchmark then system order; none in stores
  // before schema 3, which did not record them.
  Expected<std::vector<LeftoverGroup>> leftovers();
  // In system order, then build index.
  Expected<std::vector<Build>> builds();
  // The recorded machine changes, oldest first.
  Expected<std::vector<MachineChangeRow>> machineChanges();
  // Mean wall seconds of the successful executions; none without one.
  std::optional<double> meanExecutionSeconds();
  // Per system name: mean build seconds of its successful builds (the pilot's
  // build cost); systems without one are absent.
  std::map<std::string, double> meanBuildSeconds();

  // `alea import`, inside the caller's Transaction: a build of imported data
  // (no seed, factors "unknown", status "imported", dir = the source file)...
  Expected<std::int64_t> importBuild(std::int64_t systemId, int buildIndex,
                                     std::string_view source);
  // ...and executions: each one's plan entry, execution row (status ok,
  // `environment` as given, its start time when known) and measurements (not
  // warm-up) in `unit`.
  Status importExecutions(std::span<const ImportedExecution> executions,
                          std::string_view environment, std::string_view unit);

private:
  // Raw SQL stays inside the store; the tests reach it through StoreTestAccess
  // (test/unit/support/store_test_access.hpp), Transaction for BEGIN, COMMIT and ROLLBACK.
  friend struct StoreTestAccess;
  friend class Transaction;
  sqlite3 *handle() { return db_; }
  Status exec(std::string_view sql);

  Store() = default;
  static Expected<Store> openWritable(const std::string &path, bool create, int targetVersion);
  std::optional<MachineState> machineState(std::string_view target, bool first);
  Status migrate(int targetVersion);
  void autocommitWritePoint();
  Status insertFunctionProfile(const ExecutionRecord &execution, const FunctionProfile &profile);
  Status insertExecution(const ExecutionRecord &execution,
                         std::span<const MeasurementRecord> measurements, std::string_view unit,
                         std::string_view metric);
  sqlite3 *db_ = nullptr;
  std::string path_;
  Redactor redactor_;
  // The hot path's statements, prepared once (recordExecution): the
  // transaction's BEGIN/COMMIT too, so an execution parses no SQL.
  struct HotStatements;
  std::unique_ptr<HotStatements> hot_;
  void finalizeHot();
};

} // namespace alea::runner
