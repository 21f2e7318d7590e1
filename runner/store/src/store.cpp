// SQLite campaign store: schema migrations, RAII transactions, and every
// query alea makes of a store: the campaign loop's writes, the report's,
// export's and the pilot planner's reads, import's writes (see store.hpp and
// docs/store.md). No other file of alea holds SQL.
#include "alea/store/store.hpp"

#include "alea/contract.hpp"
#include "alea/exec/kill_point.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace alea::runner {

// --- Statement -------------------------------------------------------------

Statement::Statement(sqlite3 *db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    stmt_ = nullptr;
    ok_ = false;
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement &Statement::bind(int index, std::int64_t value) {
  if (stmt_ && sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK)
    ok_ = false;
  return *this;
}
Statement &Statement::bind(int index, double value) {
  if (stmt_ && sqlite3_bind_double(stmt_, index, value) != SQLITE_OK)
    ok_ = false;
  return *this;
}
Statement &Statement::bind(int index, std::string_view value) {
  if (stmt_ && sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                                 SQLITE_TRANSIENT) != SQLITE_OK)
    ok_ = false;
  return *this;
}
Statement &Statement::bindNull(int index) {
  if (stmt_ && sqlite3_bind_null(stmt_, index) != SQLITE_OK)
    ok_ = false;
  return *this;
}

bool Statement::step() {
  if (!stmt_ || !ok_)
    return false;
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW)
    return true;
  if (rc != SQLITE_DONE)
    ok_ = false;
  return false;
}

void Statement::reset() {
  ok_ = stmt_ != nullptr;
  if (stmt_) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

std::int64_t Statement::columnInt(int col) const { return sqlite3_column_int64(stmt_, col); }
double Statement::columnDouble(int col) const { return sqlite3_column_double(stmt_, col); }
std::string Statement::columnText(int col) const {
  const auto *text = sqlite3_column_text(stmt_, col);
  if (!text)
    return {};
  return std::string(reinterpret_cast<const char *>(text),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
}
std::string_view Statement::columnView(int col) const {
  const auto *text = sqlite3_column_text(stmt_, col);
  if (!text)
    return {};
  return {reinterpret_cast<const char *>(text),
          static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))};
}
bool Statement::columnIsNull(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

// --- Transaction -----------------------------------------------------------

// A read transaction's BEGIN is deferred: its snapshot is taken by the first
// read inside it.
Transaction::Transaction(Store &store, Kind kind) : store_(store) {
  active_ = store_.exec(kind == Kind::Write ? "BEGIN IMMEDIATE" : "BEGIN").ok();
}

Transaction::~Transaction() {
  if (active_)
    sqlite3_exec(store_.handle(), "ROLLBACK", nullptr, nullptr, nullptr); // no throw
}

Status Transaction::commit() {
  if (!active_)
    return Error{"no active transaction"};
  killPoint("store-write");
  Status s = store_.exec("COMMIT");
  if (!s)
    return Error{"cannot commit to the store '" + store_.path() + "': " + s.error()};
  active_ = false;
  return s;
}

// --- schema ----------------------------------------------------------------

namespace {

// Migration N (1-based) brings a store from version N-1 to N. Never edit a
// migration that has shipped: append a new one and raise kStoreVersion.
const char *const kMigrations[] = {
    // 1: the experiment levels.
    R"sql(
CREATE TABLE machine(
  id INTEGER PRIMARY KEY,
  recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  reason TEXT NOT NULL,
  hostname TEXT, cpu_model TEXT, cpu_count INTEGER, governor TEXT,
  kernel TEXT, aslr INTEGER, load1 REAL, compilers TEXT);
CREATE TABLE system(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  baseline INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL);
CREATE TABLE benchmark(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  position INTEGER NOT NULL,
  unit TEXT NOT NULL DEFAULT 's');
CREATE TABLE build(
  id INTEGER PRIMARY KEY,
  system_id INTEGER NOT NULL REFERENCES system(id),
  build_index INTEGER NOT NULL,
  seed TEXT NOT NULL,
  factors TEXT NOT NULL,
  status TEXT NOT NULL,
  build_seconds REAL,
  dir TEXT,
  fingerprint TEXT,
  binary_hash TEXT,
  compilers TEXT,
  log_tail TEXT,
  finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  UNIQUE(system_id, build_index));
CREATE TABLE artifact(
  build_id INTEGER NOT NULL REFERENCES build(id),
  path TEXT NOT NULL,
  object_hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  PRIMARY KEY(build_id, path));
CREATE TABLE plan(
  position INTEGER PRIMARY KEY,
  system_id INTEGER NOT NULL REFERENCES system(id),
  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),
  build_index INTEGER NOT NULL,
  execution_index INTEGER NOT NULL,
  UNIQUE(system_id, benchmark_id, build_index, execution_index));
CREATE TABLE execution(
  id INTEGER PRIMARY KEY,
  plan_position INTEGER NOT NULL UNIQUE REFERENCES plan(position),
  build_id INTEGER REFERENCES build(id),
  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),
  execution_index INTEGER NOT NULL,
  env_padding INTEGER NOT NULL DEFAULT 0,
  environment TEXT,
  status TEXT NOT NULL,
  exit_code INTEGER, signal INTEGER,
  wall_seconds REAL, user_seconds REAL, sys_seconds REAL,
  max_rss_kib INTEGER,
  stderr_tail TEXT,
  error TEXT,
  machine_id INTEGER REFERENCES machine(id),
  finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
CREATE TABLE measurement(
  execution_id INTEGER NOT NULL REFERENCES execution(id),
  iteration INTEGER NOT NULL,
  value REAL NOT NULL,
  unit TEXT NOT NULL,
  warmup INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(execution_id, iteration)) WITHOUT ROWID;
)sql",
    // 2: indexes for the report's joins (execution by build and benchmark).
    R"sql(
CREATE INDEX execution_by_build ON execution(build_id, benchmark_id);
CREATE INDEX build_by_system ON build(system_id);
)sql",
    // 3: the processes an execution left running (killed or not), NULL: none.
    R"sql(
ALTER TABLE execution ADD COLUMN leftovers TEXT;
)sql",
    // 4: paired designs (the block of the plan an execution belongs to; NULL:
    // unpaired) and the conditions each execution ran under, for the noise
    // diagnosis: start time, the load of other processes, CPUs, scheduler
    // counts, frequency, the quiet gate, the duet overlap.
    R"sql(
ALTER TABLE plan ADD COLUMN block INTEGER;
ALTER TABLE execution ADD COLUMN started_at REAL;
ALTER TABLE execution ADD COLUMN other_load REAL;
ALTER TABLE execution ADD COLUMN cpus TEXT;
ALTER TABLE execution ADD COLUMN migrations INTEGER;
ALTER TABLE execution ADD COLUMN involuntary_switches INTEGER;
ALTER TABLE execution ADD COLUMN voluntary_switches INTEGER;
ALTER TABLE execution ADD COLUMN cpu_mhz REAL;
ALTER TABLE execution ADD COLUMN quiet_wait REAL;
ALTER TABLE execution ADD COLUMN ran_busy INTEGER;
ALTER TABLE execution ADD COLUMN overlap REAL;
)sql",
    // 5: targets (docs/targets.md): the target a machine state was read on and
    // an execution ran on (NULL: the host), the execution's place in its
    // target's sequence, and the Slurm jobs a campaign started.
    R"sql(
ALTER TABLE machine ADD COLUMN target TEXT;
ALTER TABLE execution ADD COLUMN target TEXT;
ALTER TABLE execution ADD COLUMN target_order INTEGER;
CREATE TABLE target_job(
  id INTEGER PRIMARY KEY,
  target TEXT NOT NULL,
  job_id TEXT NOT NULL,
  submitted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  state TEXT);
)sql",
    // 6: the heap start offset of an execution (NULL: the factor was off or
    // the store is older) and its status ("applied", "static", "off", ...).
    R"sql(
ALTER TABLE execution ADD COLUMN heap_offset INTEGER;
ALTER TABLE execution ADD COLUMN heap_status TEXT;
)sql",
    // 7: how a duet kept its partners together (duet.hpp; NULL: not a duet):
    // "barrier" (per iteration) or "overlap" (restarts), the barriers it
    // passed, the times it was restarted to keep its partners company.
    R"sql(
ALTER TABLE execution ADD COLUMN duet_sync TEXT;
ALTER TABLE execution ADD COLUMN duet_barriers INTEGER;
ALTER TABLE execution ADD COLUMN duet_restarts INTEGER;
)sql",
    // 8: several metrics per execution (docs/measure.md): each measurement
    // names its metric ('' = the one unnamed measure of an older store or an
    // import), the key gains it; each benchmark names the metric its decision
    // is on (NULL: its one measure).
    R"sql(
CREATE TABLE measurement_8(
  execution_id INTEGER NOT NULL REFERENCES execution(id),
  metric TEXT NOT NULL DEFAULT '',
  iteration INTEGER NOT NULL,
  value REAL NOT NULL,
  unit TEXT NOT NULL,
  warmup INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(execution_id, metric, iteration)) WITHOUT ROWID;
INSERT INTO measurement_8(execution_id, iteration, value, unit, warmup)
  SELECT execution_id, iteration, value, unit, warmup FROM measurement;
DROP TABLE measurement;
ALTER TABLE measurement_8 RENAME TO measurement;
ALTER TABLE benchmark ADD COLUMN decided_on TEXT;
)sql",
    // 9: the per-function simulated counts of one execution per build
    // and benchmark under cachegrind (function_profile.hpp): the profile's
    // metric, I1 geometry and execution, and each function's 13 cachegrind
    // counts ("" is every function not kept).
    R"sql(
CREATE TABLE function_profile(
  build_id INTEGER NOT NULL REFERENCES build(id),
  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),
  execution_id INTEGER NOT NULL REFERENCES execution(id),
  metric TEXT NOT NULL,
  i1 TEXT NOT NULL,
  PRIMARY KEY(build_id, benchmark_id)) WITHOUT ROWID;
CREATE TABLE function_cost(
  build_id INTEGER NOT NULL REFERENCES build(id),
  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),
  function TEXT NOT NULL,
  ir INTEGER NOT NULL, i1mr INTEGER NOT NULL, ilmr INTEGER NOT NULL,
  dr INTEGER NOT NULL, d1mr INTEGER NOT NULL, dlmr INTEGER NOT NULL,
  dw INTEGER NOT NULL, d1mw INTEGER NOT NULL, dlmw INTEGER NOT NULL,
  bc INTEGER NOT NULL, bcm INTEGER NOT NULL, bi INTEGER NOT NULL, bim INTEGER NOT NULL,
  PRIMARY KEY(build_id, benchmark_id, function)) WITHOUT ROWID;
)sql",
    // 10: the wall seconds of an execution's second run, under cachegrind
    // (several metrics per execution; NULL: none), in the machine time.
    R"sql(
ALTER TABLE execution ADD COLUMN simulation_seconds REAL;
)sql",
};
// The schema version that brought the function_profile and function_cost tables.
constexpr int kFunctionCostVersion = 9;
constexpr int kMigrationCount = sizeof(kMigrations) / sizeof(kMigrations[0]);
static_assert(kMigrationCount == kStoreVersion);

// A store whose compatible_version is above the schema this alea knows: the
// writer and the readers refuse it with the same words.
std::string newerStoreError(const std::string &version, const std::string &compatible) {
  return "written by a newer alea (schema version " + version +
         ", needs a reader of version >= " + compatible + "; this alea reads up to " +
         std::to_string(kStoreVersion) + ")";
}

// A path as a "file:" URI for SQLITE_OPEN_URI, so that parameters (mode=ro,
// immutable=1) can follow: every byte outside [A-Za-z0-9/._~-] is
// percent-encoded (a '?', '#' or '%' in a name must not end the path), and an
// absolute path gets an empty authority ("file:///dir/campaign.db").
std::string fileUri(const std::string &path, const char *parameters) {
  std::string uri = path.starts_with('/') ? "file://" : "file:";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '~' || c == '-') {
      uri += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      uri += hex;
    }
  }
  return uri + "?" + parameters;
}

// A reader's first read: version and compatible_version from alea's meta
// table. rc is SQLite's extended result code of the query; the values are
// set when their rows exist.
struct MetaVersions {
  int rc = SQLITE_OK;
  std::string message;
  std::optional<std::string> version, compatible;
};

MetaVersions readMetaVersions(sqlite3 *db) {
  MetaVersions out;
  Statement st(db, "SELECT key, value FROM meta WHERE key IN ('version', 'compatible_version')");
  while (st.step())
    (st.columnText(0) == "version" ? out.version : out.compatible) = st.columnText(1);
  if (!st.ok()) {
    out.rc = sqlite3_extended_errcode(db);
    out.message = sqlite3_errmsg(db);
  }
  return out;
}

// What the file at `path` says before SQLite opens it: a directory or an
// empty file is no store. A WAL store's file is never empty (a new store is
// made whole under another name and linked into place; switching to WAL
// writes its header), so 0 bytes is a file truncated or made by someone
// else, whatever lies next to it.
Status checkStoreFile(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status))
    return Error{"no such campaign store: '" + path + "'"};
  if (fs::is_directory(status))
    return Error{"'" + path + "' is a directory, not an alea store"};
  if (fs::file_size(path, ec) == 0 && !ec)
    return Error{"'" + path + "' is empty, not an alea store"};
  return {};
}

// The verdict on a reader's first read (readMetaVersions) of an existing file.
Status checkMetaVersions(const std::string &path, const MetaVersions &meta) {
  if (meta.rc == SQLITE_NOTADB)
    return Error{"'" + path + "' is not an alea store (not an SQLite database)"};
  if ((meta.rc & 0xff) == SQLITE_ERROR) // no meta table, or not alea's
    return Error{"'" + path + "' is not an alea store (" + meta.message + ")"};
  if (meta.rc != SQLITE_OK)
    return Error{"cannot read store '" + path + "': " + meta.message};
  if (!meta.version || !meta.compatible || std::atoi(meta.version->c_str()) < 1)
    return Error{"'" + path + "' is not an alea store (its meta table has no schema version)"};
  return {};
}

// The writer never replaces a file it cannot read as a store: what it holds
// may be a campaign's only record (a store truncated after a crash, a file
// put there by mistake).
const char *const kNotReplaced =
    "; alea does not replace an existing file: move it away (with its -wal and -shm) to start "
    "a new store there";

} // namespace

Expected<Store> Store::openWritable(const std::string &path, bool create, int targetVersion) {
  Store store;
  store.path_ = path;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  if (create)
    flags |= SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &store.db_, flags, nullptr) != SQLITE_OK) {
    std::string msg = store.db_ ? sqlite3_errmsg(store.db_) : "out of memory";
    return Error{"cannot open store '" + path + "': " + msg};
  }
  sqlite3_busy_timeout(store.db_, 10000);
  // An existing file is read before anything is written to it (a pragma
  // would already turn a foreign database to WAL): it must be an alea store.
  if (!create)
    if (Status s = checkMetaVersions(path, readMetaVersions(store.db_)); !s)
      return Error{s.error() + kNotReplaced};
  // WAL + synchronous=NORMAL: a commit is durable against a crash of alea
  // (kill -9) because the WAL write happens before COMMIT returns; only an OS
  // crash or power loss can lose the last transactions (docs/store.md).
  // wal_autocheckpoint=10000 pages (~10 MB of WAL with 1 KiB pages; SQLite's
  // default is 1000): a checkpoint costs two fdatasyncs, which at the default
  // came every ~250 one-measurement executions and were a third of the store's
  // time per execution. Crash safety is unchanged (the WAL is complete at every COMMIT);
  // on power loss more of the last transactions can be lost; the WAL is
  // checkpointed and removed when the store is closed.
  // page_size=1024 (a file-format setting, not the schema; it takes effect
  // only when the store is created and is a no-op on an existing one): each
  // execution's commit writes one WAL frame per B-tree it touches (execution,
  // its two indexes, measurement), and a 1 KiB frame is written and
  // checksummed in a quarter of the time of a 4 KiB one. bench_store: 1.8x the
  // executions/s with one measurement each, +10% measurements/s with 100,
  // and a slightly smaller file.
  for (const char *pragma :
       {"PRAGMA page_size=1024", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
        "PRAGMA foreign_keys=ON", "PRAGMA wal_autocheckpoint=10000"}) {
    if (Status s = store.exec(pragma); !s)
      return Error{"store '" + path + "': " + s.error()};
  }
  if (Status s = store.migrate(targetVersion); !s)
    return Error{"store '" + path + "': " + s.error()};
  return store;
}

Expected<Store> Store::open(const std::string &path, StoreOpenOptions options) {
  // A new store appears whole: it is made under a temporary name (schema,
  // WAL mode), closed, and linked into place, so that a reader (`alea
  // report` started with the campaign) finds either no store or a complete
  // one, never a file without its tables. A creation killed half-way leaves
  // only the temporary file, which the next creation replaces.
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    if (Status s = checkStoreFile(path); !s)
      return Error{s.error() + kNotReplaced};
    return openWritable(path, false, options.targetVersion);
  }
  if (options.create) {
    const std::string fresh = path + ".new";
    for (const char *suffix : {"", "-journal", "-wal", "-shm"})
      std::filesystem::remove(fresh + suffix, ec);
    // The store holds environments, commands and logs: it is private to the
    // user (0600) whatever the umask, and so are its -wal and -shm files,
    // which SQLite creates with the database file's mode. (An existing store
    // keeps its mode.)
    int fd = ::open(fresh.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
      return Error{"cannot open store '" + path + "': " + std::strerror(errno)};
    const int err = ::fchmod(fd, 0600) == 0 ? 0 : errno;
    ::close(fd);
    if (err)
      return Error{"cannot open store '" + path + "': cannot make '" + fresh +
                   "' private (0600): " + std::strerror(err)};
    if (auto made = openWritable(fresh, true, options.targetVersion); !made)
      return Error{made.error()};
    // (closed here: the last connection checkpoints and removes its -wal)
    if (::link(fresh.c_str(), path.c_str()) != 0 && errno != EEXIST)
      return Error{"cannot create store '" + path + "': " + std::strerror(errno)};
    ::unlink(fresh.c_str()); // EEXIST: someone else's store won; ours goes
  }
  return openWritable(path, false, options.targetVersion);
}

Expected<Store> Store::openReadOnly(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (Status s = checkStoreFile(path); !s)
    return Error{s.error()};

  // SQLITE_OPEN_READONLY with mode=ro: SQLite writes nothing to the file;
  // no pragma, no migration, no meta table. (In a writable directory it may
  // create the WAL's -wal and -shm files next to it, as for any reader of a
  // WAL database; they stay, empty, until the next writer closes the store.)
  auto openUri = [&path](const char *parameters) -> Expected<Store> {
    Store store;
    store.path_ = path;
    std::string uri = fileUri(path, parameters);
    if (sqlite3_open_v2(uri.c_str(), &store.db_,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
      std::string msg = store.db_ ? sqlite3_errmsg(store.db_) : "out of memory";
      return Error{"cannot open store '" + path + "': " + msg};
    }
    sqlite3_busy_timeout(store.db_, 10000);
    return store;
  };
  Expected<Store> store = openUri("mode=ro");
  if (!store)
    return store;
  MetaVersions meta = readMetaVersions(store->db_);
  int primary = meta.rc & 0xff;
  if (primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY) {
    // Reading a WAL database needs its -wal and -shm files, which SQLite
    // creates when they are absent; on a read-only directory or mount it
    // cannot (SQLite 3.40: SQLITE_READONLY_DIRECTORY for a read-only
    // directory, SQLITE_CANTOPEN on a read-only mount). Without a -wal file
    // holding frames the file alone is the whole database, and nobody can be
    // writing it (a writer must create the -wal file first), so reading it
    // as immutable (no locks, no side files) is exact. A -wal file with
    // frames needs SQLite's WAL index, which cannot be built here.
    std::uintmax_t walBytes = fs::file_size(path + "-wal", ec);
    if (!ec && walBytes > 0)
      return Error{"cannot read store '" + path + "': " + meta.message + " (its WAL '" + path +
                   "-wal' holds data and SQLite cannot create '" + path +
                   "-shm' here; read a copy in a writable directory)"};
    store = openUri("mode=ro&immutable=1");
    if (!store)
      return store;
    meta = readMetaVersions(store->db_);
  }
  if (Status s = checkMetaVersions(path, meta); !s)
    return Error{s.error()};
  // An older store is read as it is (readers never migrate); a newer one
  // only if it declares itself readable by this schema version.
  if (std::atoi(meta.compatible->c_str()) > kStoreVersion)
    return Error{"store '" + path + "': " + newerStoreError(*meta.version, *meta.compatible)};
  return store;
}

struct Store::HotStatements {
  Statement begin, commit, insertExecution, insertMeasurement;
  explicit HotStatements(sqlite3 *db)
      : begin(db, "BEGIN IMMEDIATE"), commit(db, "COMMIT"),
        insertExecution(
            db, "INSERT INTO execution(plan_position,build_id,benchmark_id,"
                "execution_index,env_padding,environment,status,exit_code,signal,"
                "wall_seconds,user_seconds,sys_seconds,max_rss_kib,stderr_tail,"
                "error,machine_id,leftovers,started_at,other_load,cpus,"
                "migrations,involuntary_switches,voluntary_switches,cpu_mhz,"
                "quiet_wait,ran_busy,overlap,target,target_order,heap_offset,"
                "heap_status,duet_sync,duet_barriers,duet_restarts,simulation_seconds) "
                "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
        insertMeasurement(db, "INSERT INTO measurement(execution_id,iteration,value,unit,"
                              "warmup,metric) VALUES(?,?,?,?,?,?)") {}
  bool valid() const {
    return begin.valid() && commit.valid() && insertExecution.valid() && insertMeasurement.valid();
  }
};

void Store::finalizeHot() { hot_.reset(); }

Store::Store(Store &&other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)),
      redactor_(std::move(other.redactor_)), hot_(std::move(other.hot_)) {}

Store &Store::operator=(Store &&other) noexcept {
  if (this != &other) {
    finalizeHot();
    if (db_)
      sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
    redactor_ = std::move(other.redactor_);
    hot_ = std::move(other.hot_);
  }
  return *this;
}

Store::~Store() {
  finalizeHot();
  if (db_)
    sqlite3_close_v2(db_);
}

// A write outside a transaction is durable at once: the crash tests' kill
// point comes before it (inside one, Transaction::commit has it).
void Store::autocommitWritePoint() {
  if (sqlite3_get_autocommit(db_))
    killPoint("store-write");
}

std::string Store::lastError() const {
  if (!db_)
    return "no database";
  std::string message = sqlite3_errmsg(db_);
  // SQLite says "disk I/O error" or "database or disk is full" for a write
  // that met the file size limit (its errno is not kept): the store file
  // that reached the limit is named with it.
  int primary = sqlite3_extended_errcode(db_) & 0xff;
  std::uint64_t limit = fileSizeLimit();
  if ((primary == SQLITE_IOERR || primary == SQLITE_FULL) && limit > 0)
    for (const char *suffix : {"-wal", ""}) {
      std::error_code ec;
      std::uintmax_t size = std::filesystem::file_size(path_ + suffix, ec);
      if (!ec && size + 65536 >= limit) // within a write of the limit
        return message + ": '" + path_ + suffix + "' has reached the file size limit of this " +
               "process (`ulimit -f`: " + std::to_string(limit) + " bytes; it has " +
               std::to_string(size) + " bytes)";
    }
  return message;
}

Status Store::exec(std::string_view sql) {
  std::string text(sql);
  char *err = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : lastError();
    sqlite3_free(err);
    return Error{msg};
  }
  return {};
}

int Store::version() {
  auto v = meta("version");
  return v ? std::atoi(v->c_str()) : 0;
}

std::optional<std::string> Store::meta(std::string_view key) {
  Statement st(db_, "SELECT value FROM meta WHERE key=?");
  if (!st.valid())
    return std::nullopt;
  st.bind(1, key);
  if (st.step())
    return st.columnText(0);
  return std::nullopt;
}

Status Store::setMeta(std::string_view key, std::string_view value) {
  Statement st(db_, "INSERT INTO meta(key,value) VALUES(?,?) "
                    "ON CONFLICT(key) DO UPDATE SET value=excluded.value");
  st.bind(1, key).bind(2, value);
  autocommitWritePoint();
  st.step();
  if (!st.ok())
    return Error{lastError()};
  return {};
}

Status Store::migrate(int targetVersion) {
  if (Status s = exec("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      !s)
    return s;
  Transaction txn(*this);
  if (!txn.active())
    return Error{"cannot begin a transaction: " + lastError()};
  int current = version();
  if (auto compat = meta("compatible_version")) {
    int needed = std::atoi(compat->c_str());
    if (needed > kStoreVersion)
      return Error{newerStoreError(std::to_string(current), *compat)};
  }
  for (int v = current + 1; v <= targetVersion && v <= kMigrationCount; ++v) {
    if (Status s = exec(kMigrations[v - 1]); !s)
      return Error{"migration " + std::to_string(v) + " failed: " + s.error()};
    if (Status s = setMeta("version", std::to_string(v)); !s)
      return s;
    if (Status s = setMeta("compatible_version", std::to_string(kStoreCompatibleVersion)); !s)
      return s;
  }
  return txn.commit();
}

Expected<std::int64_t> Store::ensureSystem(std::string_view name, bool baseline, int position) {
  Statement st(db_, "INSERT INTO system(name,baseline,position) VALUES(?,?,?) "
                    "ON CONFLICT(name) DO UPDATE SET baseline=excluded.baseline, "
                    "position=excluded.position RETURNING id");
  st.bind(1, name).bind(2, baseline ? 1 : 0).bind(3, position);
  autocommitWritePoint();
  if (!st.step())
    return Error{"cannot record system: " + lastError()};
  std::int64_t id = st.columnInt(0);
  st.step(); // run the statement to completion
  return id;
}

Expected<std::int64_t> Store::ensureBenchmark(std::string_view name, int position,
                                              std::string_view unit, std::string_view decidedOn) {
  Statement st(db_, "INSERT INTO benchmark(name,position,unit,decided_on) VALUES(?,?,?,?) "
                    "ON CONFLICT(name) DO UPDATE SET position=excluded.position, "
                    "unit=excluded.unit, decided_on=excluded.decided_on RETURNING id");
  st.bind(1, name).bind(2, position).bind(3, unit);
  if (decidedOn.empty())
    st.bindNull(4);
  else
    st.bind(4, decidedOn);
  autocommitWritePoint();
  if (!st.step())
    return Error{"cannot record benchmark: " + lastError()};
  std::int64_t id = st.columnInt(0);
  st.step();
  return id;
}

MachineState Store::recorded(const MachineState &state) const {
  MachineState m = state;
  for (std::string *text : {&m.hostname, &m.cpuModel, &m.governor, &m.kernel, &m.compilers})
    *text = redactor_.text(*text);
  return m;
}

Expected<std::int64_t> Store::addMachine(const MachineState &state, std::string_view reason,
                                         std::string_view target) {
  const MachineState m = recorded(state);
  Statement st(db_, "INSERT INTO machine(reason,hostname,cpu_model,cpu_count,governor,kernel,"
                    "aslr,load1,compilers,target) VALUES(?,?,?,?,?,?,?,?,?,?) RETURNING id");
  st.bind(1, reason).bind(2, m.hostname).bind(3, m.cpuModel).bind(4, m.cpuCount);
  st.bind(5, m.governor).bind(6, m.kernel).bind(7, m.aslr).bind(8, m.load1);
  st.bind(9, m.compilers);
  if (target.empty())
    st.bindNull(10);
  else
    st.bind(10, target);
  autocommitWritePoint();
  if (!st.step())
    return Error{"cannot record machine state: " + lastError()};
  std::int64_t id = st.columnInt(0);
  st.step();
  return id;
}

std::optional<MachineState> Store::lastMachine(std::string_view target) {
  return machineState(target, /*first=*/false);
}

std::optional<MachineState> Store::firstMachine(std::string_view target) {
  return machineState(target, /*first=*/true);
}

std::optional<MachineState> Store::machineState(std::string_view target, bool first) {
  // Stores before schema 5 have no target column: every row is the host's.
  bool host = target.empty();
  Statement st(db_,
               std::string("SELECT hostname,cpu_model,cpu_count,governor,kernel,aslr,load1,"
                           "compilers FROM machine ") +
                   (host ? (version() >= 5 ? "WHERE target IS NULL " : "") : "WHERE target = ? ") +
                   (first ? "ORDER BY id LIMIT 1" : "ORDER BY id DESC LIMIT 1"));
  if (!host)
    st.bind(1, std::string(target));
  if (!st.step())
    return std::nullopt;
  MachineState m;
  m.hostname = st.columnText(0);
  m.cpuModel = st.columnText(1);
  m.cpuCount = static_cast<int>(st.columnInt(2));
  m.governor = st.columnText(3);
  m.kernel = st.columnText(4);
  m.aslr = st.columnIsNull(5) ? -1 : static_cast<int>(st.columnInt(5));
  m.load1 = st.columnDouble(6);
  m.compilers = st.columnText(7);
  st.step();
  return m;
}

namespace {
// The words the store keeps, read back (alea/records.hpp spells them). A word
// this version does not know (a newer alea's; the schema's compatible version
// keeps such stores out) reads as a failure, never as a success.
std::uint64_t storedSeed(std::string_view text) {
  std::uint64_t seed = 0;
  return parseSeed(text, seed) ? seed : 0;
}
BuildStatus storedBuildStatus(std::string_view word) {
  return parseEnum<BuildStatus>(word).value_or(BuildStatus::Failed);
}
ExecutionStatus storedExecutionStatus(std::string_view word) {
  return parseEnum<ExecutionStatus>(word).value_or(ExecutionStatus::Exit);
}
} // namespace

std::optional<BuildRecord> Store::findBuild(std::int64_t systemId, int buildIndex) {
  Statement st(db_, "SELECT bu.id,bu.seed,bu.factors,bu.status,bu.build_seconds,bu.dir,"
                    "bu.fingerprint,bu.binary_hash,bu.compilers,bu.log_tail,s.name "
                    "FROM build bu JOIN system s ON s.id = bu.system_id "
                    "WHERE bu.system_id=? AND bu.build_index=?");
  st.bind(1, systemId).bind(2, buildIndex);
  if (!st.step())
    return std::nullopt;
  BuildRecord b;
  b.id = st.columnInt(0);
  b.systemId = systemId;
  b.system = st.columnText(10);
  b.buildIndex = buildIndex;
  b.seed = storedSeed(st.columnView(1));
  b.factors = st.columnText(2);
  b.status = storedBuildStatus(st.columnView(3));
  b.seconds = st.columnDouble(4);
  b.dir = st.columnText(5);
  b.fingerprint = st.columnText(6);
  b.binaryHash = st.columnText(7);
  b.compilers = st.columnText(8);
  b.logTail = st.columnText(9);
  Statement arts(db_, "SELECT path,object_hash,size FROM artifact WHERE build_id=? ORDER BY path");
  arts.bind(1, b.id);
  while (arts.step())
    b.artifacts.push_back({arts.columnText(0), arts.columnText(1), arts.columnInt(2)});
  return b;
}

std::optional<std::int64_t> Store::findSystemId(std::string_view name) {
  Statement st(db_, "SELECT id FROM system WHERE name=?");
  st.bind(1, name);
  if (!st.step())
    return std::nullopt;
  return st.columnInt(0);
}

Expected<std::int64_t> Store::recordBuild(const BuildRecord &b) {
  Transaction txn(*this);
  if (!txn.active())
    return Error{"cannot begin a transaction: " + lastError()};
  Statement st(db_, "INSERT INTO build(system_id,build_index,seed,factors,status,build_seconds,"
                    "dir,fingerprint,binary_hash,compilers,log_tail) "
                    "VALUES(?,?,?,?,?,?,?,?,?,?,?) RETURNING id");
  st.bind(1, b.systemId).bind(2, b.buildIndex).bind(3, formatSeed(b.seed)).bind(4, b.factors);
  st.bind(5, enumName(b.status)).bind(6, b.seconds).bind(7, b.dir).bind(8, b.fingerprint);
  st.bind(9, b.binaryHash).bind(10, redactor_.text(b.compilers));
  st.bind(11, redactor_.text(b.logTail));
  if (!st.step())
    return Error{"cannot record build: " + lastError()};
  std::int64_t id = st.columnInt(0);
  st.step();
  Statement art(db_, "INSERT INTO artifact(build_id,path,object_hash,size) VALUES(?,?,?,?)");
  for (const auto &a : b.artifacts) {
    art.reset();
    art.bind(1, id).bind(2, a.path).bind(3, a.objectHash).bind(4, a.size);
    art.step();
    if (!art.ok())
      return Error{"cannot record artifact: " + lastError()};
  }
  killPoint("build");
  if (Status s = txn.commit(); !s)
    return Error{s.error()};
  return id;
}

bool Store::hasPlan() {
  Statement st(db_, "SELECT 1 FROM plan LIMIT 1");
  return st.step();
}

Status Store::savePlan(std::span<const PlanEntry> plan,
                       std::initializer_list<std::pair<std::string_view, std::string>> meta) {
  Transaction txn(*this);
  if (!txn.active())
    return Error{"cannot begin a transaction: " + lastError()};
  Statement st(db_, "INSERT INTO plan(position,system_id,benchmark_id,build_index,"
                    "execution_index,block) VALUES(?,?,?,?,?,?)");
  for (const auto &p : plan) {
    st.reset();
    st.bind(1, p.position).bind(2, p.systemId).bind(3, p.benchmarkId);
    st.bind(4, p.buildIndex).bind(5, p.executionIndex);
    if (p.block >= 0)
      st.bind(6, p.block);
    else
      st.bindNull(6);
    st.step();
    if (!st.ok())
      return Error{"cannot record the plan: " + lastError()};
  }
  for (const auto &[key, value] : meta)
    if (Status s = setMeta(key, value); !s)
      return s;
  killPoint("plan");
  return txn.commit();
}

std::vector<PlanEntry> Store::loadPlan() {
  std::vector<PlanEntry> plan;
  Statement st(db_, "SELECT position,system_id,benchmark_id,build_index,execution_index,"
                    "coalesce(block, -1) FROM plan ORDER BY position");
  while (st.step())
    plan.push_back({st.columnInt(0), st.columnInt(1), st.columnInt(2),
                    static_cast<int>(st.columnInt(3)), static_cast<int>(st.columnInt(4)),
                    st.columnInt(5)});
  return plan;
}

std::set<std::int64_t> Store::completedPositions() {
  std::set<std::int64_t> done;
  Statement st(db_, "SELECT plan_position FROM execution");
  while (st.step())
    done.insert(st.columnInt(0));
  return done;
}

// One execution row and its measurements, inside the caller's transaction.
Status Store::insertExecution(const ExecutionRecord &e,
                              std::span<const MeasurementRecord> measurements,
                              std::string_view unit, std::string_view metric) {
  Statement &st = hot_->insertExecution;
  st.reset();
  st.bind(1, e.planPosition);
  if (e.buildId)
    st.bind(2, e.buildId);
  else
    st.bindNull(2);
  st.bind(3, e.benchmarkId).bind(4, e.executionIndex).bind(5, e.envPadding);
  st.bind(6, redactor_.text(e.environment)).bind(7, enumName(e.status));
  st.bind(8, e.exitCode);
  st.bind(9, e.signal).bind(10, e.wallSeconds).bind(11, e.userSeconds).bind(12, e.sysSeconds);
  st.bind(13, e.maxRssKib).bind(14, redactor_.text(e.stderrTail)).bind(15, redactor_.text(e.error));
  if (e.machineId)
    st.bind(16, e.machineId);
  else
    st.bindNull(16);
  auto bindOptional = [&](int index, const auto &value) {
    if (value)
      st.bind(index, *value);
    else
      st.bindNull(index);
  };
  // Text columns that are NULL when there is nothing to say.
  auto bindText = [&](int index, const std::string &text) {
    if (!text.empty())
      st.bind(index, text);
    else
      st.bindNull(index);
  };
  bindText(17, e.leftovers.empty() ? e.leftovers : redactor_.text(e.leftovers));
  if (e.startedAt > 0)
    st.bind(18, e.startedAt);
  else
    st.bindNull(18);
  bindOptional(19, e.otherLoad);
  bindText(20, e.cpus);
  bindOptional(21, e.migrations);
  bindOptional(22, e.involuntarySwitches);
  bindOptional(23, e.voluntarySwitches);
  bindOptional(24, e.cpuMhz);
  bindOptional(25, e.quietWait);
  if (e.quietWait)
    st.bind(26, e.ranBusy ? 1 : 0);
  else
    st.bindNull(26);
  bindOptional(27, e.overlap);
  if (e.target.empty()) {
    st.bindNull(28);
    st.bindNull(29);
  } else {
    st.bind(28, e.target).bind(29, e.targetOrder);
  }
  bindOptional(30, e.heapOffset);
  bindText(31, e.heapStatus);
  bindText(32, e.duetSync ? enumName(*e.duetSync) : "");
  bindOptional(33, e.duetBarriers);
  bindOptional(34, e.duetRestarts);
  bindOptional(35, e.simulationSeconds);
  st.step();
  bool inserted = st.ok();
  std::string insertError = inserted ? std::string() : lastError();
  st.reset();
  if (!inserted)
    return Error{"cannot record execution " + std::to_string(e.planPosition) + ": " + insertError};
  // The execution's id: the rowid just inserted on this connection (the
  // statement ran to completion, without RETURNING's extra result row).
  std::int64_t id = sqlite3_last_insert_rowid(db_);
  Statement &m = hot_->insertMeasurement;
  for (const auto &r : measurements) {
    m.reset();
    m.bind(1, id).bind(2, r.iteration).bind(3, r.value);
    m.bind(4, r.unit.empty() ? unit : r.unit).bind(5, r.warmup ? 1 : 0);
    // (A default string_view's null data would bind NULL, not '': the
    // literal.)
    m.bind(6, !r.metric.empty() ? r.metric : !metric.empty() ? metric : std::string_view(""));
    m.step();
    if (!m.ok()) {
      std::string why = lastError();
      m.reset();
      return Error{"cannot record a measurement: " + why};
    }
  }
  m.reset();
  return {};
}

// The first profile of a build and benchmark is kept (INSERT OR IGNORE on
// the pair): per-function counts vary little across executions of a build.
Status Store::insertFunctionProfile(const ExecutionRecord &e, const FunctionProfile &profile) {
  if (!e.buildId || profile.functions.empty())
    return {};
  Statement head(db_, "INSERT OR IGNORE INTO function_profile(build_id,benchmark_id,"
                      "execution_id,metric,i1) SELECT ?,?,id,?,? FROM execution "
                      "WHERE plan_position = ?");
  head.bind(1, e.buildId).bind(2, e.benchmarkId).bind(3, profile.metric).bind(4, profile.i1);
  head.bind(5, e.planPosition);
  head.step();
  if (!head.ok())
    return Error{"cannot record a function profile: " + lastError()};
  if (sqlite3_changes(db_) == 0) // the build and benchmark have one
    return {};
  Statement row(db_, "INSERT INTO function_cost(build_id,benchmark_id,function,ir,i1mr,ilmr,"
                     "dr,d1mr,dlmr,dw,d1mw,dlmw,bc,bcm,bi,bim) "
                     "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  for (const FunctionCounts &f : profile.functions) {
    const CachegrindCounts &c = f.counts;
    row.reset();
    row.bind(1, e.buildId).bind(2, e.benchmarkId).bind(3, f.name);
    int i = 4;
    for (std::uint64_t v : {c.ir, c.i1mr, c.ilmr, c.dr, c.d1mr, c.dlmr, c.dw, c.d1mw, c.dlmw, c.bc,
                            c.bcm, c.bi, c.bim})
      row.bind(i++, static_cast<std::int64_t>(v));
    row.step();
    if (!row.ok())
      return Error{"cannot record the cost of function " + f.name + ": " + lastError()};
  }
  return {};
}

std::vector<StoredFunctionProfile> Store::functionProfiles() {
  std::vector<StoredFunctionProfile> out;
  if (version() < kFunctionCostVersion)
    return out;
  Statement st(db_, "SELECT s.name, bm.name, b.build_index, p.metric, p.i1, c.function, c.ir, "
                    "c.i1mr, c.ilmr, c.dr, c.d1mr, c.dlmr, c.dw, c.d1mw, c.dlmw, c.bc, c.bcm, "
                    "c.bi, c.bim FROM function_profile p "
                    "JOIN function_cost c ON c.build_id = p.build_id "
                    "AND c.benchmark_id = p.benchmark_id "
                    "JOIN build b ON b.id = p.build_id JOIN system s ON s.id = b.system_id "
                    "JOIN benchmark bm ON bm.id = p.benchmark_id "
                    "ORDER BY s.position, bm.position, b.build_index, c.function");
  while (st.step()) {
    const int build = static_cast<int>(st.columnInt(2));
    if (out.empty() || out.back().system != st.columnView(0) ||
        out.back().benchmark != st.columnView(1) || out.back().build != build)
      out.push_back(
          {st.columnText(0), st.columnText(1), build, {st.columnText(3), st.columnText(4), {}}});
    FunctionCounts f;
    f.name = st.columnText(5);
    CachegrindCounts &c = f.counts;
    int i = 6;
    for (std::uint64_t *v : {&c.ir, &c.i1mr, &c.ilmr, &c.dr, &c.d1mr, &c.dlmr, &c.dw, &c.d1mw,
                             &c.dlmw, &c.bc, &c.bcm, &c.bi, &c.bim})
      *v = static_cast<std::uint64_t>(st.columnInt(i++));
    out.back().profile.functions.push_back(std::move(f));
  }
  return out;
}

Status Store::recordExecution(const ExecutionRecord &e,
                              std::span<const MeasurementRecord> measurements,
                              std::string_view unit) {
  const RecordedExecution one{e, measurements, unit};
  return recordExecutions({&one, 1});
}

Status Store::recordExecutions(std::span<const RecordedExecution> executions) {
  if (!hot_) {
    hot_ = std::make_unique<HotStatements>(db_);
    if (!hot_->valid()) {
      std::string why = lastError();
      hot_.reset();
      return Error{"cannot prepare the store's statements: " + why};
    }
  }
  // One transaction per call, an execution or a duet's executions together
  // (crash safety: a kill -9 loses at most what is in flight, and a duet is
  // recorded whole or not at all), with the prepared BEGIN IMMEDIATE / COMMIT; the
  // guard rolls back on every early return, like Transaction does.
  Statement &begin = hot_->begin;
  begin.reset();
  begin.step();
  bool begun = begin.ok();
  std::string beginError = begun ? std::string() : lastError();
  begin.reset();
  if (!begun)
    return Error{"cannot begin a transaction: " + beginError};
  struct Rollback {
    sqlite3 *db;
    bool armed = true;
    ~Rollback() {
      if (armed)
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr); // no throw
    }
  } guard{db_};
  for (const RecordedExecution &r : executions) {
    if (Status s = insertExecution(r.execution, r.measurements, r.unit, r.metric); !s)
      return s;
    if (r.profile)
      if (Status s = insertFunctionProfile(r.execution, *r.profile); !s)
        return s;
  }
  killPoint("execution");
  killPoint("store-write");
  Statement &commit = hot_->commit;
  commit.reset();
  commit.step();
  bool committed = commit.ok();
  std::string why = committed ? std::string() : lastError();
  commit.reset();
  if (!committed)
    return Error{"cannot commit to the store '" + path_ + "': " + why};
  guard.armed = false;
  return {};
}

std::int64_t Store::lastTargetOrder(std::string_view target) {
  if (version() < 5)
    return 0;
  Statement st(db_, "SELECT coalesce(max(target_order), 0) FROM execution WHERE target = ?");
  st.bind(1, std::string(target));
  return st.step() ? st.columnInt(0) : 0;
}

Expected<std::int64_t> Store::recordJob(std::string_view target, std::string_view jobId) {
  Statement st(db_, "INSERT INTO target_job(target, job_id) VALUES(?,?) RETURNING id");
  st.bind(1, target).bind(2, jobId);
  autocommitWritePoint();
  if (!st.step())
    return Error{"cannot record job " + std::string(jobId) + ": " + lastError()};
  std::int64_t id = st.columnInt(0);
  st.step();
  return id;
}

Status Store::setJobState(std::int64_t id, std::string_view state) {
  Statement st(db_, "UPDATE target_job SET state = ? WHERE id = ?");
  st.bind(1, state).bind(2, id);
  autocommitWritePoint();
  st.step();
  if (!st.ok())
    return Error{"cannot record a job's state: " + lastError()};
  return {};
}

std::vector<Store::TargetJob> Store::jobs() {
  std::vector<TargetJob> out;
  if (version() < 5)
    return out;
  Statement st(db_, "SELECT id, target, job_id, coalesce(state, '') FROM target_job ORDER BY id");
  while (st.step())
    out.push_back({st.columnInt(0), st.columnText(1), st.columnText(2), st.columnText(3)});
  return out;
}

std::vector<MeasurementRow> Store::measurements(bool includeWarmup) {
  std::vector<MeasurementRow> rows;
  (void)visitMeasurements(includeWarmup, [&rows](const MeasurementView &m) {
    rows.push_back({{std::string(m.system), std::string(m.benchmark), m.build, m.execution,
                     m.iteration, m.value},
                    std::string(m.unit)});
  });
  return rows;
}

namespace {
// A measurement held between visitMeasurements' two reads (16 bytes).
struct HeldMeasurement {
  double value;
  int iteration;
  std::uint16_t unit; // index into the distinct units
  bool warmup;
};
} // namespace

Status Store::visitMeasurements(bool includeWarmup,
                                const std::function<void(const MeasurementView &)> &visit,
                                const std::function<void(std::size_t)> &sized,
                                std::string_view metric) {
  // Sorting a million measurements by (system, benchmark, build, execution,
  // iteration) in SQL costs SQLite a temporary B-tree and most of a report's
  // load time. Instead: (1) the successful executions, few, in that order
  // (SQL sorts them); (2) every measurement once, in primary-key order
  // (execution_id, iteration: no sort), each execution's rows a contiguous
  // block; (3) the blocks passed in the order of (1).
  struct Execution {
    std::int64_t id = 0, systemId = 0, benchmarkId = 0;
    int build = 0, execution = 0;
    double wallSeconds = 0, startedAt = 0;
    std::size_t begin = 0, end = 0; // its block of `held`
  };
  const auto readError = [this] { return Error{"cannot read the measurements: " + lastError()}; };
  // Which rows each benchmark's executions keep: those of `metric`, or of
  // its decision metric (and the unnamed measure of an older store); a store
  // before schema 8 has one measure per execution.
  const bool named = version() >= 8;
  std::map<std::int64_t, std::string> systemNames, benchmarkNames, decidedOn;
  for (auto [names, sql] :
       {std::pair{&systemNames, "SELECT id, name FROM system"},
        std::pair{&benchmarkNames, "SELECT id, name FROM benchmark"},
        std::pair{&decidedOn, named ? "SELECT id, coalesce(decided_on, '') FROM benchmark" : ""}}) {
    if (!*sql)
      continue;
    Statement st(db_, sql);
    while (st.step())
      (*names)[st.columnInt(0)] = st.columnText(1);
    if (!st.ok())
      return readError();
  }
  static const std::string kNone;
  auto kept = [&](const std::string &decision, std::string_view rowMetric) {
    if (!metric.empty())
      return rowMetric == metric;
    return rowMetric.empty() || rowMetric == decision;
  };
  std::vector<Execution> executions;
  {
    // (start times since schema 4; NULL reads as 0, unknown)
    Statement st(db_, std::string("SELECT e.id, bu.system_id, e.benchmark_id, bu.build_index, "
                                  "e.execution_index, e.wall_seconds, ") +
                          (version() >= 4 ? "e.started_at " : "NULL ") +
                          "FROM execution e JOIN build bu ON bu.id = e.build_id "
                          "JOIN system s ON s.id = bu.system_id "
                          "JOIN benchmark b ON b.id = e.benchmark_id WHERE e.status = 'ok' "
                          "ORDER BY s.position, b.position, bu.build_index, e.execution_index");
    while (st.step())
      executions.push_back({st.columnInt(0), st.columnInt(1), st.columnInt(2),
                            static_cast<int>(st.columnInt(3)), static_cast<int>(st.columnInt(4)),
                            st.columnDouble(5), st.columnDouble(6)});
    if (!st.ok())
      return readError();
  }
  // The executions by id, to meet the measurements' scan (a merge, no map).
  std::vector<Execution *> byId;
  byId.reserve(executions.size());
  for (Execution &e : executions)
    byId.push_back(&e);
  std::sort(byId.begin(), byId.end(),
            [](const Execution *a, const Execution *b) { return a->id < b->id; });

  std::vector<HeldMeasurement> held;
  std::vector<std::string> units; // distinct, in order of appearance
  {
    // Primary-key order: an execution's rows of one metric are contiguous,
    // in iteration order.
    std::string sql = named ? "SELECT execution_id, iteration, value, unit, warmup, metric "
                              "FROM measurement"
                            : "SELECT execution_id, iteration, value, unit, warmup, '' "
                              "FROM measurement";
    sql += includeWarmup ? "" : " WHERE warmup = 0";
    sql +=
        named ? " ORDER BY execution_id, metric, iteration" : " ORDER BY execution_id, iteration";
    Statement st(db_, sql);
    auto next = byId.begin();
    Execution *current = nullptr;
    const std::string *decision = &kNone; // current's benchmark's decision metric
    std::int64_t currentId = -1;
    std::size_t unit = 0;
    while (st.step()) {
      std::int64_t id = st.columnInt(0);
      if (id != currentId) {
        if (current)
          current->end = held.size();
        currentId = id;
        while (next != byId.end() && (*next)->id < id)
          ++next;
        current = next != byId.end() && (*next)->id == id ? *next : nullptr;
        if (current) {
          current->begin = held.size();
          auto d = decidedOn.find(current->benchmarkId);
          decision = d != decidedOn.end() ? &d->second : &kNone;
        }
      }
      if (!current || !kept(*decision, st.columnView(5)))
        continue; // a failed execution's, or another metric's
      std::string_view unitText = st.columnView(3);
      if (unit >= units.size() || units[unit] != unitText) {
        unit = static_cast<std::size_t>(std::find(units.begin(), units.end(), unitText) -
                                        units.begin());
        if (unit == units.size())
          units.emplace_back(unitText);
      }
      held.push_back({st.columnDouble(2), static_cast<int>(st.columnInt(1)),
                      static_cast<std::uint16_t>(unit), st.columnInt(4) != 0});
    }
    if (current)
      current->end = held.size();
    if (!st.ok())
      return readError();
  }

  if (sized)
    sized(held.size());
  MeasurementView m;
  for (const Execution &e : executions) {
    m.system = systemNames[e.systemId];
    m.benchmark = benchmarkNames[e.benchmarkId];
    m.build = e.build;
    m.execution = e.execution;
    m.executionWallSeconds = e.wallSeconds;
    m.startedAt = e.startedAt;
    for (std::size_t i = e.begin; i < e.end; ++i) {
      const HeldMeasurement &h = held[i];
      m.iteration = h.iteration;
      m.value = h.value;
      m.unit = units[h.unit];
      m.warmup = h.warmup;
      visit(m);
    }
  }
  return {};
}

bool Store::hasStartTimes() {
  if (version() < 4)
    return false;
  Statement st(db_, "SELECT EXISTS(SELECT 1 FROM execution WHERE status = 'ok' AND "
                    "started_at IS NOT NULL)");
  return st.step() && st.columnInt(0) != 0;
}

StoreSummary Store::summary() {
  StoreSummary s;
  auto count = [&](const char *sql) {
    Statement st(db_, sql);
    return st.step() ? st.columnInt(0) : 0;
  };
  s.planned = count("SELECT count(*) FROM plan");
  s.executed = count("SELECT count(*) FROM execution");
  s.failed = count("SELECT count(*) FROM execution WHERE status <> 'ok'");
  s.measurements = count("SELECT count(*) FROM measurement");
  s.builds = count("SELECT count(*) FROM build");
  s.failedBuilds = count("SELECT count(*) FROM build WHERE status = 'failed'");
  s.machineChanges = count("SELECT count(*) FROM machine WHERE reason LIKE 'change%'");
  return s;
}

std::vector<ExecutionConditions> Store::executionConditions() {
  std::vector<ExecutionConditions> out;
  if (version() < 4)
    return out;
  Statement st(db_, "SELECT s.name, b.name, bu.build_index, e.execution_index, avg(m.value), "
                    "e.started_at, e.env_padding, e.other_load, e.cpu_mhz, e.migrations, "
                    "e.involuntary_switches, coalesce(e.cpus, ''), "
                    "instr(coalesce(e.environment, ''), 'aslr=off') > 0, "
                    "coalesce(e.ran_busy, 0), e.overlap "
                    "FROM execution e JOIN measurement m ON m.execution_id = e.id "
                    "JOIN build bu ON bu.id = e.build_id JOIN system s ON s.id = bu.system_id "
                    "JOIN benchmark b ON b.id = e.benchmark_id "
                    "WHERE e.status = 'ok' AND m.warmup = 0 AND e.started_at IS NOT NULL " +
                        std::string(version() >= 8 ? "AND (m.metric = '' OR m.metric = "
                                                     "coalesce(b.decided_on, '')) "
                                                   : "") +
                        "GROUP BY e.id ORDER BY e.started_at, e.plan_position");
  auto optionalDouble = [&](int col) {
    return st.columnIsNull(col) ? std::nullopt : std::optional<double>(st.columnDouble(col));
  };
  auto optionalInt = [&](int col) {
    return st.columnIsNull(col) ? std::nullopt : std::optional<std::int64_t>(st.columnInt(col));
  };
  while (st.step()) {
    ExecutionConditions c;
    c.system = st.columnText(0);
    c.benchmark = st.columnText(1);
    c.build = static_cast<int>(st.columnInt(2));
    c.execution = static_cast<int>(st.columnInt(3));
    c.value = st.columnDouble(4);
    c.startedAt = st.columnDouble(5);
    c.envPadding = st.columnInt(6);
    c.otherLoad = optionalDouble(7);
    c.cpuMhz = optionalDouble(8);
    c.migrations = optionalInt(9);
    c.involuntarySwitches = optionalInt(10);
    c.cpus = st.columnText(11);
    c.aslrOff = st.columnInt(12) != 0;
    c.ranBusy = st.columnInt(13) != 0;
    c.overlap = optionalDouble(14);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<DuetSyncRow> Store::duetSync() {
  std::vector<DuetSyncRow> out;
  if (version() < 7)
    return out;
  Statement st(db_, "SELECT duet_sync, count(*), sum(coalesce(duet_barriers, 0)), "
                    "sum(coalesce(duet_restarts, 0)), sum(status = 'alone') FROM execution "
                    "WHERE duet_sync IS NOT NULL GROUP BY duet_sync ORDER BY duet_sync");
  while (st.step())
    if (auto sync =
            parseEnum<DuetSync>(st.columnView(0))) // a newer alea's scheme: not ours to name
      out.push_back({*sync, st.columnInt(1), st.columnInt(2), st.columnInt(3), st.columnInt(4)});
  return out;
}

// --- the report's reads ---------------------------------------------------

namespace {
// Every row of `sql`, each made by makeRow from the statement; a failure of
// the query is one error naming `what` was being read.
template <class Row, class MakeRow>
Expected<std::vector<Row>> readRows(sqlite3 *db, std::string_view sql, const char *what,
                                    MakeRow makeRow) {
  std::vector<Row> out;
  Statement st(db, sql);
  while (st.step())
    out.push_back(makeRow(st));
  if (!st.ok())
    return Error{std::string("cannot read the ") + what + ": " + sqlite3_errmsg(db)};
  return out;
}
} // namespace

Expected<std::vector<SystemRow>> Store::systems() {
  return readRows<SystemRow>(
      db_, "SELECT name, baseline FROM system ORDER BY position, id", "systems",
      [](const Statement &st) { return SystemRow{st.columnText(0), st.columnInt(1) != 0}; });
}

Expected<std::vector<BenchmarkRow>> Store::benchmarks() {
  return readRows<BenchmarkRow>(
      db_,
      version() >= 8 ? "SELECT name, unit, coalesce(decided_on, '') FROM benchmark "
                       "ORDER BY position, id"
                     : "SELECT name, unit, '' FROM benchmark ORDER BY position, id",
      "benchmarks", [](const Statement &st) {
        return BenchmarkRow{st.columnText(0), st.columnText(1), st.columnText(2)};
      });
}

std::vector<std::string> Store::measuredMetrics() {
  std::vector<std::string> names;
  std::string list = meta("metrics").value_or("");
  for (std::size_t at = 0; at < list.size();) {
    std::size_t end = std::min(list.find(',', at), list.size());
    if (end > at)
      names.push_back(list.substr(at, end - at));
    at = end + 1;
  }
  return names;
}

Expected<std::vector<FailedExecution>> Store::failedExecutions() {
  // A failed build leaves build_id NULL or pointing to a failed build: the
  // plan row still names its system and build index.
  return readRows<FailedExecution>(
      db_,
      "SELECT s.name, b.name, p.build_index, e.execution_index, e.status, "
      "e.exit_code, e.signal, e.error, e.stderr_tail "
      "FROM execution e JOIN plan p ON p.position = e.plan_position "
      "JOIN system s ON s.id = p.system_id "
      "JOIN benchmark b ON b.id = e.benchmark_id "
      "WHERE e.status <> 'ok' ORDER BY e.plan_position",
      "failed executions", [](const Statement &st) {
        return FailedExecution{.system = st.columnText(0),
                               .benchmark = st.columnText(1),
                               .buildIndex = static_cast<int>(st.columnInt(2)),
                               .executionIndex = static_cast<int>(st.columnInt(3)),
                               .status = storedExecutionStatus(st.columnView(4)),
                               .exitCode = static_cast<int>(st.columnInt(5)),
                               .signal = static_cast<int>(st.columnInt(6)),
                               .error = st.columnText(7),
                               .stderrTail = st.columnText(8)};
      });
}

Expected<std::vector<LeftoverGroup>> Store::leftovers() {
  if (version() < 3) // the leftovers column came with migration 3
    return std::vector<LeftoverGroup>{};
  return readRows<LeftoverGroup>(db_,
                                 "SELECT s.name, b.name, count(*), min(e.leftovers), "
                                 "max(e.leftovers LIKE 'left running%') "
                                 "FROM execution e JOIN plan p ON p.position = e.plan_position "
                                 "JOIN system s ON s.id = p.system_id "
                                 "JOIN benchmark b ON b.id = e.benchmark_id "
                                 "WHERE e.leftovers IS NOT NULL GROUP BY s.id, b.id "
                                 "ORDER BY b.position, s.position",
                                 "leftover processes", [](const Statement &st) {
                                   return LeftoverGroup{st.columnText(0), st.columnText(1),
                                                        static_cast<int>(st.columnInt(2)),
                                                        st.columnText(3), st.columnInt(4) != 0};
                                 });
}

Expected<std::vector<Build>> Store::builds() {
  return readRows<Build>(db_,
                         "SELECT s.name, bu.build_index, bu.seed, bu.status, bu.build_seconds, "
                         "bu.fingerprint, bu.binary_hash, bu.log_tail "
                         "FROM build bu JOIN system s ON s.id = bu.system_id "
                         "ORDER BY s.position, bu.build_index",
                         "builds", [](const Statement &st) {
                           return Build{.system = st.columnText(0),
                                        .buildIndex = static_cast<int>(st.columnInt(1)),
                                        .seed = storedSeed(st.columnView(2)),
                                        .status = storedBuildStatus(st.columnView(3)),
                                        .seconds = st.columnDouble(4),
                                        .fingerprint = st.columnText(5),
                                        .binaryHash = st.columnText(6),
                                        .logTail = st.columnText(7)};
                         });
}

Expected<std::vector<MachineChangeRow>> Store::machineChanges() {
  return readRows<MachineChangeRow>(db_,
                                    "SELECT recorded_at, reason FROM machine "
                                    "WHERE reason LIKE 'change%' ORDER BY id",
                                    "machine changes", [](const Statement &st) {
                                      return MachineChangeRow{st.columnText(0), st.columnText(1)};
                                    });
}

std::optional<double> Store::meanExecutionSeconds() {
  Statement st(db_, "SELECT avg(wall_seconds) FROM execution WHERE status = 'ok'");
  if (st.step() && !st.columnIsNull(0))
    return st.columnDouble(0);
  return std::nullopt;
}

std::map<std::string, double> Store::meanBuildSeconds() {
  std::map<std::string, double> out;
  Statement st(db_, "SELECT s.name, avg(bu.build_seconds) FROM build bu JOIN system s "
                    "ON s.id = bu.system_id WHERE bu.status = 'ok' GROUP BY s.name");
  while (st.step())
    out[st.columnText(0)] = st.columnDouble(1);
  return out;
}

// --- alea import -----------------------------------------------------------

Expected<std::int64_t> Store::importBuild(std::int64_t systemId, int buildIndex,
                                          std::string_view source) {
  Statement st(db_, "INSERT INTO build(system_id,build_index,seed,factors,status,dir) "
                    "VALUES(?,?,'0x0000000000000000','unknown','imported',?) RETURNING id");
  st.bind(1, systemId).bind(2, buildIndex).bind(3, source);
  if (!st.step())
    return Error{"cannot record an imported build: " + lastError()};
  std::int64_t id = st.columnInt(0);
  st.step();
  return id;
}

Status Store::importExecutions(std::span<const ImportedExecution> executions,
                               std::string_view environment, std::string_view unit) {
  // Prepared once for the whole import: an import of a million rows parses
  // three statements, not three per execution.
  Statement plan(db_, "INSERT INTO plan(position,system_id,benchmark_id,build_index,"
                      "execution_index) VALUES(?,?,?,?,?)");
  Statement ex(db_, "INSERT INTO execution(plan_position,build_id,benchmark_id,"
                    "execution_index,status,environment,started_at) VALUES(?,?,?,?,'ok',?,?)");
  Statement m(db_, "INSERT INTO measurement(execution_id,iteration,value,unit,warmup) "
                   "VALUES(?,?,?,?,0)");
  const std::string recordedEnvironment = redactor_.text(environment);
  for (const ImportedExecution &e : executions) {
    const PlanEntry &p = e.plan;
    plan.reset();
    plan.bind(1, p.position).bind(2, p.systemId).bind(3, p.benchmarkId);
    plan.bind(4, p.buildIndex).bind(5, p.executionIndex);
    plan.step();
    if (plan.ok()) {
      ex.reset();
      ex.bind(1, p.position).bind(2, e.buildId).bind(3, p.benchmarkId);
      ex.bind(4, p.executionIndex).bind(5, recordedEnvironment);
      if (e.startedAt > 0)
        ex.bind(6, e.startedAt);
      else
        ex.bindNull(6);
      ex.step();
    }
    if (!plan.ok() || !ex.ok())
      return Error{"cannot record an imported execution: " + lastError()};
    // The rowid just inserted on this connection (as insertExecution).
    std::int64_t id = sqlite3_last_insert_rowid(db_);
    for (const MeasurementRecord &v : e.measurements) {
      m.reset();
      m.bind(1, id).bind(2, v.iteration).bind(3, v.value).bind(4, unit);
      m.step();
      if (!m.ok())
        return Error{"cannot record an imported measurement: " + lastError()};
    }
  }
  return {};
}

double Store::machineSeconds() {
  Statement st(db_, "SELECT (SELECT coalesce(sum(build_seconds), 0) FROM build) + "
                    "(SELECT coalesce(sum(wall_seconds), 0) + coalesce(sum(simulation_seconds), 0) "
                    "FROM execution)");
  return st.step() ? st.columnDouble(0) : 0;
}

std::string Store::integrityCheck() {
  Statement st(db_, "PRAGMA integrity_check");
  if (!st.step())
    return "integrity_check failed: " + lastError();
  return st.columnText(0);
}

} // namespace alea::runner
