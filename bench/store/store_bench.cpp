// Store benchmark: writes executions the way the campaign loop does (one
// transaction per execution: its row plus all its measurements, WAL,
// synchronous=NORMAL) for several iteration counts per execution, and prints
// measurements per second (goal >= 100,000/s), executions per second, and the
// store's size per million measurements. Side by side in one run: the same
// data written with one transaction per measurement (what a naive store does).
#include "alea/runner/store.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace alea::runner;
namespace fs = std::filesystem;

namespace {

struct Result {
  double measurementsPerSecond = 0, executionsPerSecond = 0, bytesPerMillion = 0;
};

Result runOnce(const std::string &dir, int iterations, std::int64_t totalMeasurements,
               bool perMeasurementTxn) {
  std::string path =
      dir + "/bench-" + std::to_string(iterations) + (perMeasurementTxn ? "n" : "") + ".db";
  for (const char *s : {"", "-wal", "-shm"})
    fs::remove(path + s);
  auto store = Store::open(path);
  if (!store) {
    std::fprintf(stderr, "%s\n", store.error().c_str());
    std::exit(1);
  }
  auto sys = *store->ensureSystem("base", true, 0);
  auto bench = *store->ensureBenchmark("b", 0, "s");
  BuildRecord b;
  b.systemId = sys;
  b.status = "ok";
  b.factors = "all";
  auto buildId = *store->recordBuild(b);
  std::int64_t executions = totalMeasurements / iterations;
  std::vector<PlanEntry> plan;
  for (std::int64_t e = 0; e < executions; ++e)
    plan.push_back({e, sys, bench, 0, static_cast<int>(e)});
  (void)store->savePlan(plan);
  std::vector<MeasurementRecord> values(static_cast<std::size_t>(iterations));
  auto start = std::chrono::steady_clock::now();
  for (std::int64_t e = 0; e < executions; ++e) {
    for (int i = 0; i < iterations; ++i)
      values[static_cast<std::size_t>(i)] = {
          i, 0.001 + 1e-9 * static_cast<double>(e * iterations + i), i == 0};
    ExecutionRecord rec;
    rec.planPosition = e;
    rec.buildId = buildId;
    rec.benchmarkId = bench;
    rec.executionIndex = static_cast<int>(e);
    rec.status = "ok";
    rec.environment = "ALEA_ITERATIONS=10\nALEA_ENV_PAD=<1234 bytes>\naslr=system\n";
    rec.wallSeconds = 0.01;
    if (!perMeasurementTxn) {
      if (!store->recordExecution(rec, values, "s").ok())
        std::exit(2);
    } else {
      // Naive: the execution, then each measurement, each in its own transaction.
      if (!store->recordExecution(rec, {}, "s").ok())
        std::exit(2);
      Statement id(store->handle(), "SELECT id FROM execution WHERE plan_position=?");
      id.bind(1, e);
      id.step();
      std::int64_t eid = id.columnInt(0);
      for (const auto &v : values) {
        Statement m(store->handle(), "INSERT INTO measurement VALUES(?,?,?,'s',?)");
        m.bind(1, eid).bind(2, v.iteration).bind(3, v.value).bind(4, v.warmup ? 1 : 0);
        m.step();
      }
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  (void)store->exec("PRAGMA wal_checkpoint(TRUNCATE)");
  Result r;
  r.measurementsPerSecond = static_cast<double>(executions * iterations) / secs;
  r.executionsPerSecond = static_cast<double>(executions) / secs;
  r.bytesPerMillion =
      static_cast<double>(fs::file_size(path)) / static_cast<double>(executions * iterations) * 1e6;
  return r;
}

} // namespace

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : fs::temp_directory_path().string();
  dir += "/alea-store-bench-" + std::to_string(::getpid());
  fs::create_directories(dir);
  std::printf("store benchmark (WAL, synchronous=NORMAL, one transaction per execution)\n");
  std::printf("%12s %16s %14s %16s %20s\n", "iter/exec", "measurements/s", "executions/s",
              "MiB per 1e6 meas", "vs 1 txn/measurement");
  for (int iterations : {1, 10, 100, 1000}) {
    std::int64_t total = iterations == 1 ? 50000 : 400000;
    Result r = runOnce(dir, iterations, total, false);
    Result naive = runOnce(dir, iterations, std::min<std::int64_t>(total, 20000), true);
    std::printf("%12d %16.0f %14.0f %16.1f %19.1fx\n", iterations, r.measurementsPerSecond,
                r.executionsPerSecond, r.bytesPerMillion / (1 << 20),
                r.measurementsPerSecond / naive.measurementsPerSecond);
  }
  fs::remove_all(dir);
  return 0;
}
