// Store write throughput (a benchmark, not a test; issue 4 "Performance"):
// measurements committed per second in campaign conditions, i.e. through the
// runner's Store API exactly as `alea run` writes them: one transaction per
// execution holding the execution row and its iterations (default 100), on a
// fresh store file (WAL, synchronous=NORMAL, as the runner opens it). Side by
// side in the same run: the same rows written with one transaction for
// everything (the bound of SQLite on this machine for this schema), so the
// ratio shows what per-execution durability costs. Prints measurements/s,
// ratios and the store size per million measurements.
// Usage: alea_bench_store [executions=10000] [iterations=100] [dir=/tmp]
#include "alea/store/store.hpp"

#include "store_test_access.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using alea::runner::Store;

struct Result {
  double seconds = 0;
  double bytes = 0;
};

std::uintmax_t storeBytes(const std::string &path) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (const char *suffix : {"", "-wal", "-shm"})
    if (fs::exists(path + suffix, ec))
      total += fs::file_size(path + suffix, ec);
  return total;
}

// Writes `executions` executions of `iterations` measurements. perExecution:
// Store::recordExecution, one transaction per execution (what the runner
// does); otherwise plain prepared inserts of the same rows in one transaction.
Result run(const std::string &path, int executions, int iterations, bool perExecution) {
  fs::remove(path);
  fs::remove(path + "-wal");
  fs::remove(path + "-shm");
  auto store = Store::open(path);
  if (!store) {
    std::fprintf(stderr, "bench_store: %s\n", store.error().c_str());
    std::exit(1);
  }
  auto sys = store->ensureSystem("sys", true, 0);
  auto bench = store->ensureBenchmark("bench", 0, "s");
  std::vector<alea::runner::PlanEntry> plan;
  for (int i = 0; i < executions; ++i)
    plan.push_back({i, *sys, *bench, i / 100, i % 100});
  if (!store->savePlan(plan)) {
    std::fprintf(stderr, "bench_store: cannot save the plan\n");
    std::exit(1);
  }
  std::vector<std::int64_t> buildIds;
  for (int b = 0; b * 100 < executions; ++b) {
    alea::runner::BuildRecord br;
    br.systemId = *sys;
    br.buildIndex = b;
    br.status = alea::BuildStatus::Ok;
    buildIds.push_back(*store->recordBuild(br));
  }
  std::vector<alea::runner::MeasurementRecord> values(iterations);
  auto fill = [&](int i) {
    for (int k = 0; k < iterations; ++k)
      values[k] = {k, 0.01 + 1e-6 * ((i * 31 + k * 7) % 1000), k < 2};
  };
  auto t0 = std::chrono::steady_clock::now();
  if (perExecution) {
    for (int i = 0; i < executions; ++i) {
      alea::runner::ExecutionRecord e;
      e.planPosition = i;
      e.buildId = buildIds[i / 100];
      e.benchmarkId = *bench;
      e.executionIndex = i % 100;
      e.status = alea::ExecutionStatus::Ok;
      e.wallSeconds = 0.5;
      e.environment = "ALEA_ENV_PAD=<1234 bytes>\naslr=system\n";
      fill(i);
      if (!store->recordExecution(e, values, "s")) {
        std::fprintf(stderr, "bench_store: recordExecution failed: %s\n",
                     store->lastError().c_str());
        std::exit(1);
      }
    }
  } else {
    // The same rows through the same schema with plain prepared statements in
    // ONE transaction: what SQLite itself can do here (raw SQL, so through
    // the tests' access to the store's connection).
    using alea::runner::StoreTestAccess;
    alea::runner::Transaction txn(*store);
    alea::runner::Statement ex(StoreTestAccess::handle(*store),
                               "INSERT INTO execution(plan_position,build_id,benchmark_id,"
                               "execution_index,environment,status,wall_seconds) "
                               "VALUES(?,?,?,?,?,?,?) RETURNING id");
    alea::runner::Statement m(StoreTestAccess::handle(*store),
                              "INSERT INTO measurement(execution_id,iteration,value,unit,"
                              "warmup) VALUES(?,?,?,?,?)");
    for (int i = 0; i < executions; ++i) {
      ex.reset();
      ex.bind(1, std::int64_t{i}).bind(2, buildIds[i / 100]).bind(3, *bench);
      ex.bind(4, i % 100).bind(5, std::string_view("ALEA_ENV_PAD=<1234 bytes>\naslr=system\n"));
      ex.bind(6, std::string_view("ok")).bind(7, 0.5);
      if (!ex.step()) {
        std::fprintf(stderr, "bench_store: insert failed: %s\n", store->lastError().c_str());
        std::exit(1);
      }
      std::int64_t id = ex.columnInt(0);
      ex.step();
      fill(i);
      for (const auto &v : values) {
        m.reset();
        m.bind(1, id).bind(2, v.iteration).bind(3, v.value);
        m.bind(4, std::string_view("s")).bind(5, v.warmup ? 1 : 0);
        m.step();
      }
    }
    (void)txn.commit();
  }
  auto t1 = std::chrono::steady_clock::now();
  Result r;
  r.seconds = std::chrono::duration<double>(t1 - t0).count();
  (void)alea::runner::StoreTestAccess::exec(*store, "PRAGMA wal_checkpoint(TRUNCATE)");
  r.bytes = static_cast<double>(storeBytes(path));
  return r;
}

} // namespace

int main(int argc, char **argv) {
  const int executions = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 100;
  const std::string dir = argc > 3 ? argv[3] : fs::temp_directory_path().string();
  const std::string path = dir + "/alea-bench-store-" + std::to_string(::getpid()) + ".db";
  const double n = static_cast<double>(executions) * iterations;

  Result campaign = run(path, executions, iterations, true);
  Result bound = run(path, executions, iterations, false);
  for (const char *suffix : {"", "-wal", "-shm"})
    fs::remove(path + suffix);

  std::printf("store: %d executions x %d measurements = %.0f measurements (%s)\n", executions,
              iterations, n, dir.c_str());
  std::printf("  one transaction per execution (alea run): %10.0f "
              "measurements/s, %8.0f "
              "executions/s  (goal >= 100000/s: %s)\n",
              n / campaign.seconds, executions / campaign.seconds,
              n / campaign.seconds >= 100000 ? "met" : "NOT met");
  std::printf("  one transaction for all (SQLite bound)  : %10.0f measurements/s\n",
              n / bound.seconds);
  std::printf("  ratio per-execution / bound: %.2f\n", bound.seconds / campaign.seconds);
  std::printf("  store size: %.1f MB per million measurements (%.1f bytes each)\n",
              campaign.bytes / n * 1e6 / 1e6, campaign.bytes / n);
  return 0;
}
