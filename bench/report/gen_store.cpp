// Writes a realistic campaign store for the `alea report` benchmark (issue 10;
// bench/report/run.sh), through the runner's Store API exactly as `alea run`
// records a campaign: the campaign's meta keys, systems, benchmarks, builds
// (seed, build time, a distinct layout fingerprint each), the plan (one random
// order of all executions: the unpaired design), then every execution in plan
// order, one transaction each, with its conditions (start time, environment
// padding, other load, migrations, switches) and its iterations, the first
// ones flagged warm-up. `alea import` of a CSV would give the same
// measurements but neither warm-up flags nor execution conditions, so the
// report would skip the noise diagnosis: this store exercises all of it.
//
// The values have the structure alea is built for: each system 5% faster
// than the previous one, benchmarks of 2-10 ms per iteration, a layout effect
// per build (lognormal 2%, and a slow layout mode in every 5th build), an
// execution effect (0.5%), right-skewed iteration noise (|N(0, 1%)| on the log
// scale) with a rare 30% spike (an interrupt), and warm-up iterations 25%
// slower, halving each iteration. Seeded (alea::Rng): the same arguments write
// the same measurements.
//
// Usage: alea_report_gen_store OUT.db [systems=2] [benchmarks=5] [builds=20]
//                              [executions=10] [iterations=500] [warmup=5] [seed=1]
//                              [design=unpaired] (interleaved/duet: the report pairs builds)
#include "alea/contract.hpp"
#include "alea/random.hpp"
#include "alea/store/store.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace alea::runner;

// A standard normal draw (Box-Muller, one of the pair).
double normal(alea::Rng &rng) {
  double u;
  do
    u = rng.uniform();
  while (u == 0);
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * rng.uniform());
}

template <typename T> T check(Expected<T> e) {
  if (!e) {
    std::fprintf(stderr, "alea_report_gen_store: %s\n", e.error().c_str());
    std::exit(1);
  }
  return std::move(*e);
}

void check(const Status &s) {
  if (!s) {
    std::fprintf(stderr, "alea_report_gen_store: %s\n", s.error().c_str());
    std::exit(1);
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: alea_report_gen_store OUT.db [systems benchmarks builds "
                         "executions iterations warmup seed design]\n");
    return 2;
  }
  auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
  const std::string path = argv[1];
  const int systems = arg(2, 2), benchmarks = arg(3, 5), builds = arg(4, 20);
  const int executions = arg(5, 10), iterations = arg(6, 500), warmup = arg(7, 5);
  const std::uint64_t seed = static_cast<std::uint64_t>(arg(8, 1));
  const std::string design = argc > 9 ? argv[9] : "unpaired";
  const char *systemNames[] = {"baseline", "candidate", "candidate2", "candidate3"};
  const char *benchmarkNames[] = {"fft", "sor", "montecarlo", "sparse", "lu", "sha", "lua", "zlib"};
  if (systems < 1 || systems > 4 || benchmarks < 1 || benchmarks > 8 || builds < 2 ||
      executions < 1 || iterations < 1 || warmup < 0) {
    std::fprintf(stderr, "alea_report_gen_store: 1-4 systems, 1-8 benchmarks, >= 2 builds\n");
    return 2;
  }
  for (const char *suffix : {"", "-wal", "-shm"})
    std::filesystem::remove(path + suffix);
  Store store = check(Store::open(path));
  alea::Rng rng(seed);

  std::vector<std::int64_t> systemIds, benchmarkIds;
  for (int s = 0; s < systems; ++s)
    systemIds.push_back(check(store.ensureSystem(systemNames[s], s == 0, s)));
  for (int b = 0; b < benchmarks; ++b)
    benchmarkIds.push_back(check(store.ensureBenchmark(benchmarkNames[b], b, "s")));
  // Builds: their ids, and their layout effect per benchmark.
  std::vector<std::vector<std::int64_t>> buildIds(systems);
  for (int s = 0; s < systems; ++s)
    for (int k = 0; k < builds; ++k) {
      BuildRecord b;
      b.systemId = systemIds[s];
      b.buildIndex = k;
      b.seed = alea::mixSeed(seed, static_cast<std::uint64_t>(s * 1000 + k));
      b.factors = "all";
      b.status = alea::BuildStatus::Ok;
      b.seconds = 20 + 2 * normal(rng);
      b.dir = "builds/" + std::string(systemNames[s]) + "/" + std::to_string(k);
      b.fingerprint = alea::formatSeed(b.seed);
      b.binaryHash = alea::formatSeed(~b.seed);
      buildIds[s].push_back(check(store.recordBuild(b)));
    }
  // The plan: every (benchmark, system, build, execution) in one random order.
  std::vector<PlanEntry> plan;
  for (int b = 0; b < benchmarks; ++b)
    for (int s = 0; s < systems; ++s)
      for (int k = 0; k < builds; ++k)
        for (int e = 0; e < executions; ++e)
          plan.push_back({0, systemIds[s], benchmarkIds[b], k, e});
  alea::shuffle(plan.begin(), plan.end(), rng);
  for (std::size_t i = 0; i < plan.size(); ++i)
    plan[i].position = static_cast<std::int64_t>(i);
  check(store.savePlan(plan, {{"campaign_name", "report-bench"},
                              {"campaign_seed", alea::formatSeed(seed)},
                              {"confidence", "0.950000"},
                              {"threshold", "0.010000"},
                              {"baseline", systemNames[0]},
                              {"design", design},
                              {"levels.builds", std::to_string(builds)},
                              {"levels.executions", std::to_string(executions)},
                              {"levels.iterations", std::to_string(iterations)},
                              {"levels.warmup", std::to_string(warmup)}}));
  alea::MachineState machine;
  const std::int64_t machineId = check(store.addMachine(machine, "start"));

  // Layout effect of (system, benchmark, build), drawn up front.
  std::vector<double> layout(static_cast<std::size_t>(systems * benchmarks * builds));
  for (std::size_t i = 0; i < layout.size(); ++i)
    layout[i] = std::exp(0.02 * normal(rng)) * ((i % builds) % 5 == 3 ? 1.04 : 1.0);
  double clock = 1.7e9; // epoch seconds
  std::vector<MeasurementRecord> values;
  for (const PlanEntry &p : plan) {
    const int s = static_cast<int>(p.systemId - systemIds[0]);
    const int b = static_cast<int>(p.benchmarkId - benchmarkIds[0]);
    const double unit = 0.002 * (1 + b) * std::pow(0.95, s) *
                        layout[static_cast<std::size_t>((s * benchmarks + b) * builds) +
                               static_cast<std::size_t>(p.buildIndex)] *
                        std::exp(0.005 * normal(rng));
    values.clear();
    double wall = 0.05; // start-up
    for (int i = 0; i < warmup + iterations; ++i) {
      double v = unit * std::exp(std::fabs(0.01 * normal(rng)));
      if (i < warmup)
        v *= 1 + 0.25 * std::pow(0.5, i);
      if (rng.uniform() < 0.001)
        v *= 1.3;
      values.push_back({i, v, i < warmup});
      wall += v;
    }
    ExecutionRecord e;
    e.planPosition = p.position;
    e.buildId = buildIds[s][p.buildIndex];
    e.benchmarkId = p.benchmarkId;
    e.executionIndex = p.executionIndex;
    e.envPadding = static_cast<std::int64_t>(rng.below(4096));
    e.environment = "ALEA_ENV_PAD=<" + std::to_string(e.envPadding) + " bytes>";
    e.status = alea::ExecutionStatus::Ok;
    e.wallSeconds = wall;
    e.userSeconds = wall * 0.98;
    e.sysSeconds = wall * 0.01;
    e.maxRssKib = 20000;
    e.machineId = machineId;
    e.startedAt = clock;
    e.otherLoad = 0.05 * rng.uniform();
    e.migrations = static_cast<std::int64_t>(rng.below(3));
    e.involuntarySwitches = static_cast<std::int64_t>(rng.below(20));
    e.voluntarySwitches = 2;
    clock += wall + 0.001;
    check(store.recordExecution(e, values, "s"));
  }
  std::printf("alea_report_gen_store: %s: %d systems x %d benchmarks x %d builds x %d executions "
              "x %d iterations (+%d warm-up)\n",
              path.c_str(), systems, benchmarks, builds, executions, iterations, warmup);
  return 0;
}
