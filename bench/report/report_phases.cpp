// Where `alea report` spends its time and memory (a benchmark, not a test;
// issue 10): the steps of the command (runner/report.hpp, report/render.hpp)
// timed one by one on a campaign store, exactly as `alea report` calls them,
// the text and the HTML rendering of the same report, with wall and CPU time
// (CPU time counts both bootstrap threads, and is what a busy machine changes
// least) and the process's resident and peak memory after each; the store
// queries inside step 1 alone; then the statistics engine's parts
// timed alone on the same data (the table, nesting and balancing, and per
// system, per ratio and per suite each estimator the report runs), so a slow
// step can be named. One run's figures; nothing is asserted. The engine parts
// get their own seeds: their results are not the report's, their cost is.
// Usage: alea_report_phases STORE [threads=0 (all cores)] [replicates=2000]
#include "alea/analysis/bootstrap.hpp"
#include "alea/analysis/diagnostics.hpp"
#include "alea/analysis/fieller.hpp"
#include "alea/analysis/interval.hpp"
#include "alea/analysis/noise.hpp"
#include "alea/analysis/planner.hpp"
#include "alea/analysis/ratio_planner.hpp"
#include "alea/analysis/resampling.hpp"
#include "alea/analysis/speedup_test.hpp"
#include "alea/analysis/table.hpp"
#include "alea/analysis/variance.hpp"
#include "alea/report/render.hpp"
#include "alea/store/campaign_data.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

namespace an = alea::analysis;
using Clock = std::chrono::steady_clock;

// VmRSS and VmHWM of this process in MB (Linux /proc).
std::pair<double, double> memoryMb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  double rss = 0, hwm = 0;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0)
      rss = std::atof(line.c_str() + 6) / 1024;
    else if (line.rfind("VmHWM:", 0) == 0)
      hwm = std::atof(line.c_str() + 6) / 1024;
  }
  return {rss, hwm};
}

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Wall and CPU seconds of f(), added to wall and cpu; returns f's result.
template <typename F> auto measure(F &&f, double &wall, double &cpu) {
  const auto t0 = Clock::now();
  const double c0 = cpuSeconds();
  auto result = f();
  wall += std::chrono::duration<double>(Clock::now() - t0).count();
  cpu += cpuSeconds() - c0;
  return result;
}

// Accumulated seconds per named part, printed in first-use order.
struct Timers {
  std::vector<std::string> order;
  std::map<std::string, std::pair<double, double>> seconds; // wall, CPU
  template <typename F> auto time(const std::string &name, F &&f) {
    if (!seconds.count(name))
      order.push_back(name);
    auto &[wall, cpu] = seconds[name];
    return measure(f, wall, cpu);
  }
};

void line(const char *name, double wall, double cpu) {
  auto [rss, hwm] = memoryMb();
  std::printf("  %-36s %7.3f s %7.3f s   %7.1f MB %7.1f MB\n", name, wall, cpu, rss, hwm);
}

template <typename F> auto timed(const char *name, F &&f) {
  double wall = 0, cpu = 0;
  auto result = measure(f, wall, cpu);
  line(name, wall, cpu);
  return result;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: alea_report_phases STORE [threads] [replicates]\n");
    return 2;
  }
  const std::string path = argv[1];
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 0;
  const std::size_t replicates = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 2000;

  std::printf("alea report, step by step (%s; threads %u, %zu replicates; bootstrap: %s)\n",
              path.c_str(), threads, replicates, an::bootstrapLanes());
  std::printf("  %-36s %9s %9s   %10s %10s\n", "step", "wall", "CPU", "RSS after", "peak");
  line("start", 0, 0);
  auto data = timed("1. load (SQLite)", [&] { return alea::runner::loadCampaignData(path); });
  if (!data) {
    std::fprintf(stderr, "alea_report_phases: %s\n", data.error().c_str());
    return 1;
  }
  alea::model::CampaignReportOptions ro;
  ro.bootstrapReplicates = replicates;
  ro.threads = threads;
  {
    auto report = timed("2. statistics", [&] { return buildCampaignReport(*data, ro); });
    if (!report.analysis) {
      std::fprintf(stderr, "alea_report_phases: %s\n", report.analysisError.c_str());
      return 1;
    }
    auto text =
        timed("3. text", [&] { return alea::report::render(report, alea::report::Format::Text); });
    auto html = timed("3. HTML (instead of text)",
                      [&] { return alea::report::render(report, alea::report::Format::Html); });
    std::printf("  (%zu measurements, %zu bytes of text, %zu bytes of HTML)\n",
                data->measurements.size(), text.size(), html.size());
  }
  {
    std::printf("inside step 1, alone:\n");
    auto store = alea::runner::Store::openReadOnly(path);
    if (!store)
      return 1;
    timed("Store::measurements()", [&] { return store->measurements().size(); });
    timed("Store::executionConditions()", [&] { return store->executionConditions().size(); });
  }

  // --- the engine's parts, alone ---
  Timers t;
  const std::vector<std::string> levels{"build", "execution", "iteration"};
  an::Table table = t.time("table (Table::add)", [&] {
    an::Table tb(levels);
    std::map<std::tuple<std::string, std::string, int, int>, int> next;
    for (const auto &m : data->measurements) {
      const std::string b = std::to_string(m.build), e = std::to_string(m.execution);
      const std::string i = std::to_string(next[{m.system, m.benchmark, m.build, m.execution}]++);
      const std::string_view units[] = {b, e, i};
      tb.add(m.system, m.benchmark, units, m.value);
    }
    return tb;
  });
  auto balanced = t.time("nest + balance", [&] {
    return an::balance(an::nest(table).benchmarks, levels, an::UnbalancedPolicy::Auto);
  });
  std::map<std::string, std::vector<an::BenchmarkRuns>> suite;
  std::uint64_t seed = 1;
  for (const auto &bench : balanced.benchmarks) {
    std::vector<an::Hierarchy> hs;
    for (const auto &sys : bench.systems)
      hs.push_back(t.time("hierarchy (flatten)",
                          [&] { return *an::makeHierarchy(levels, sys.shape, an::flatten(sys)); }));
    an::BootstrapOptions bo;
    bo.replicates = replicates;
    bo.threads = threads;
    for (const auto &h : hs) {
      t.time("t interval", [&] { return an::meanInterval(h).ok(); });
      bo.seed = ++seed;
      t.time("bootstrap of the mean", [&] { return an::bootstrapMean(h, bo).ok(); });
      t.time("variance components", [&] { return an::varianceComponents(h).ok(); });
      t.time("plan", [&] {
        an::PlanOptions po;
        po.overheads = {1, 1};
        po.topUpperBound = true;
        return an::planExperiment(h, po).ok();
      });
      t.time("diagnostics", [&] { return an::diagnose(h).ok(); });
    }
    for (std::size_t k = 1; k < hs.size(); ++k) {
      t.time("Fieller", [&] { return an::fiellerRatio(hs[k], hs[0]).ok(); });
      bo.seed = ++seed;
      bo.keepReplicates = true;
      t.time("bootstrap of the ratio", [&] { return an::bootstrapRatio(hs[k], hs[0], bo).ok(); });
      bo.keepReplicates = false;
      t.time("Speedup-Test",
             [&] { return an::speedupTest(hs[0].topMeans(), hs[k].topMeans()).ok(); });
      t.time("ratio plan", [&] {
        an::RatioPlanOptions po;
        po.overheads = {1, 1};
        po.targetHalfWidth = 0.01;
        return an::planRatio(hs[k], hs[0], po).ok();
      });
      suite[bench.systems[k].system].push_back(an::topLevelRuns(hs[0], hs[k]));
    }
  }
  for (const auto &[name, runs] : suite) {
    if (runs.size() < 2)
      continue;
    t.time("suite bootstrap", [&] {
      an::SuiteBootstrapOptions so;
      so.replicates = replicates;
      so.threads = threads;
      return an::bootstrapSuiteRatio(runs, so).ok();
    });
    t.time("randomization test", [&] {
      an::RandomizationOptions so;
      so.threads = threads;
      return an::randomizationTest(runs, so).ok();
    });
  }
  for (const auto &bench : data->benchmarks)
    t.time("noise diagnosis", [&] {
      std::vector<an::ExecutionObservation> obs;
      for (const auto &e : data->executions) {
        if (e.benchmark != bench)
          continue;
        an::ExecutionObservation o;
        o.system = static_cast<std::size_t>(
            std::find(data->systems.begin(), data->systems.end(), e.system) -
            data->systems.begin());
        o.build = static_cast<std::size_t>(e.build);
        o.startedAt = e.startedAt;
        o.value = e.value;
        o.otherLoad = e.otherLoad;
        o.envPadding = static_cast<double>(e.envPadding);
        obs.push_back(o);
      }
      return an::diagnoseNoise(obs).ok();
    });
  std::printf("the statistics engine's parts, alone (sum over benchmarks and systems):\n");
  for (const auto &name : t.order)
    std::printf("  %-36s %7.3f s %7.3f s\n", name.c_str(), t.seconds[name].first,
                t.seconds[name].second);
  return 0;
}
