// Step 1 of `alea report` (report.hpp): reading a campaign store into a
// CampaignData value. Read-only SQL over the runner's schema (docs/store.md):
// measurements through Store::measurements(), the rest (failed executions,
// builds with their fingerprints, machine-state changes, settings kept in the
// meta table) by direct queries, so the report sees exactly what was stored.
#include "alea/runner/report.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace alea::runner {

namespace {

namespace fs = std::filesystem;

double toDouble(const std::optional<std::string> &s, double fallback) {
  if (!s || s->empty())
    return fallback;
  char *end = nullptr;
  double v = std::strtod(s->c_str(), &end);
  return end && *end == '\0' ? v : fallback;
}

} // namespace

Expected<CampaignData> loadCampaignData(const std::string &path) {
  std::error_code ec;
  std::string file = path;
  if (fs::is_directory(path, ec))
    file = (fs::path(path) / "campaign.db").string();
  if (!fs::is_regular_file(file, ec))
    return Error{fs::is_directory(path, ec)
                     ? "no campaign store in '" + path + "' (expected " + file +
                           "; run `alea run` first)"
                     : "no such campaign store: '" + path + "'"};
  // Read-only: never create, migrate or touch the file (docs/store.md); a
  // file that is not an alea store is one error.
  auto store = Store::openReadOnly(file);
  if (!store)
    return Error{store.error()};
  return loadCampaignData(*store);
}

namespace {
// One read transaction around every query of the report: a campaign may be
// writing to the store meanwhile (WAL: readers never block the writer), and
// the counts, measurements and failures must come from one snapshot.
class ReadSnapshot {
public:
  explicit ReadSnapshot(Store &store) : store_(store), active_(store.exec("BEGIN").ok()) {}
  ~ReadSnapshot() {
    if (active_)
      sqlite3_exec(store_.handle(), "COMMIT", nullptr, nullptr, nullptr);
  }
  ReadSnapshot(const ReadSnapshot &) = delete;
  ReadSnapshot &operator=(const ReadSnapshot &) = delete;

private:
  Store &store_;
  bool active_;
};
} // namespace

Expected<CampaignData> loadCampaignData(Store &store) {
  ReadSnapshot snapshot(store);
  CampaignData d;
  d.storePath = store.path();
  d.name = store.meta("campaign_name").value_or("");
  d.baseline = store.meta("baseline").value_or("");
  d.seed = store.meta("campaign_seed").value_or("");
  d.confidence = toDouble(store.meta("confidence"), 0.95);
  d.threshold = toDouble(store.meta("threshold"), 0.01);
  d.warmup = static_cast<int>(toDouble(store.meta("levels.warmup"), 0));
  d.design = store.meta("design").value_or("unpaired");
  d.machines = store.meta("machines").value_or("");
  if (auto t = store.meta("targets"); t && !t->empty())
    d.targets = 1 + static_cast<int>(std::count(t->begin(), t->end(), ','));
  d.targetHalfWidth = toDouble(store.meta("target_half_width"), 0.01);
  d.adaptiveLog = store.meta("adaptive_log").value_or("");
  d.executions = store.executionConditions();

  sqlite3 *db = store.handle();
  {
    Statement st(db, "SELECT name, baseline FROM system ORDER BY position, id");
    while (st.step()) {
      d.systems.push_back(st.columnText(0));
      if (d.baseline.empty() && st.columnInt(1) != 0)
        d.baseline = d.systems.back();
    }
    if (!st.ok())
      return Error{"store '" + d.storePath + "': " + store.lastError()};
  }
  {
    Statement st(db, "SELECT name, unit FROM benchmark ORDER BY position, id");
    while (st.step()) {
      d.benchmarks.push_back(st.columnText(0));
      d.units[d.benchmarks.back()] = st.columnText(1);
      if (d.benchmarks.size() == 1)
        d.unit = st.columnText(1);
    }
  }
  StoreSummary summary = store.summary();
  d.planned = summary.planned;
  d.executed = summary.executed;

  for (const MeasurementRow &r : store.measurements(/*includeWarmup=*/false))
    d.measurements.push_back(
        {r.system, r.benchmark, r.build, r.execution, r.iteration, r.value});

  {
    // Failed executions. A failed build leaves build_id NULL or pointing to a
    // failed build: the plan row still names its system and build index.
    Statement st(
        db,
        "SELECT s.name, b.name, p.build_index, e.execution_index, e.status, "
        "e.exit_code, e.signal, e.error, e.stderr_tail "
        "FROM execution e JOIN plan p ON p.position = e.plan_position "
        "JOIN system s ON s.id = p.system_id "
        "JOIN benchmark b ON b.id = e.benchmark_id "
        "WHERE e.status <> 'ok' ORDER BY e.plan_position");
    while (st.step()) {
      FailedExecution f;
      f.system = st.columnText(0);
      f.benchmark = st.columnText(1);
      f.buildIndex = static_cast<int>(st.columnInt(2));
      f.executionIndex = static_cast<int>(st.columnInt(3));
      f.status = st.columnText(4);
      f.exitCode = static_cast<int>(st.columnInt(5));
      f.signal = static_cast<int>(st.columnInt(6));
      f.error = st.columnText(7);
      f.stderrTail = st.columnText(8);
      d.failures.push_back(std::move(f));
    }
    if (!st.ok())
      return Error{"store '" + d.storePath + "': " + store.lastError()};
  }
  if (store.version() >= 3) { // stores before migration 3 have no leftovers column
    Statement st(db, "SELECT s.name, b.name, count(*), min(e.leftovers), "
                     "max(e.leftovers LIKE 'left running%') "
                     "FROM execution e JOIN plan p ON p.position = e.plan_position "
                     "JOIN system s ON s.id = p.system_id "
                     "JOIN benchmark b ON b.id = e.benchmark_id "
                     "WHERE e.leftovers IS NOT NULL GROUP BY s.id, b.id "
                     "ORDER BY b.position, s.position");
    while (st.step())
      d.leftovers.push_back({st.columnText(0), st.columnText(1), static_cast<int>(st.columnInt(2)),
                             st.columnText(3), st.columnInt(4) != 0});
    if (!st.ok())
      return Error{"store '" + d.storePath + "': " + store.lastError()};
  }
  {
    Statement st(
        db,
        "SELECT s.name, bu.build_index, bu.seed, bu.status, bu.build_seconds, "
        "bu.fingerprint, bu.binary_hash, bu.log_tail "
        "FROM build bu JOIN system s ON s.id = bu.system_id "
        "ORDER BY s.position, bu.build_index");
    while (st.step()) {
      BuildInfo b;
      b.system = st.columnText(0);
      b.buildIndex = static_cast<int>(st.columnInt(1));
      b.seed = st.columnText(2);
      b.status = st.columnText(3);
      b.seconds = st.columnDouble(4);
      b.fingerprint = st.columnText(5);
      b.binaryHash = st.columnText(6);
      b.logTail = st.columnText(7);
      d.builds.push_back(std::move(b));
    }
  }
  {
    Statement st(db, "SELECT recorded_at, reason FROM machine "
                     "WHERE reason LIKE 'change%' ORDER BY id");
    while (st.step()) {
      std::string reason = st.columnText(1);
      if (reason.rfind("change: ", 0) == 0)
        reason = reason.substr(8);
      d.machineChanges.push_back(st.columnText(0) + ": " + reason);
    }
  }
  {
    Statement st(db,
                 "SELECT avg(wall_seconds) FROM execution WHERE status = 'ok'");
    if (st.step() && !st.columnIsNull(0))
      d.meanExecutionSeconds = st.columnDouble(0);
  }
  return d;
}

} // namespace alea::runner
