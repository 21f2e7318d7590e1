// Benchmark of the hierarchical bootstrap (issue 3, "Performance"): RRR
// bootstrap of the ratio of means, 2 systems x 30 builds x 20 executions x 50
// iterations, 10,000 replicates. Prints, side by side in one run: resampled
// measurements per second; the ratio to this machine's bound (a loop that only
// draws the same number of random indices, with the same bounds, and sums the
// values they select); the speed-up with 2 threads; the RRN variant (lowest
// level collapsed to precomputed sums); and the per-replicate rate ratio to a
// straightforward R implementation (bootstrap.R) on the same data.
// This is a benchmark, not a test: nothing is asserted.
#include "alea/analysis/bootstrap.hpp"
#include "alea/random.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

using namespace alea::analysis;

namespace {

constexpr std::size_t kBuilds = 30, kExecs = 20, kIters = 50;

double normal(alea::Rng &rng) {
  double u1;
  do
    u1 = rng.uniform();
  while (u1 <= 0);
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * rng.uniform());
}

Hierarchy makeSystem(alea::Rng &rng, double mu) {
  Hierarchy h{{"build", "execution", "iteration"}, {kBuilds, kExecs, kIters}, {}};
  for (std::size_t b = 0; b < kBuilds; ++b) {
    const double mb = mu * (1 + 0.02 * normal(rng));
    for (std::size_t e = 0; e < kExecs; ++e) {
      const double me = mb * (1 + 0.01 * normal(rng));
      for (std::size_t i = 0; i < kIters; ++i)
        h.values.push_back(me * (1 + 0.03 * normal(rng)));
    }
  }
  return h;
}

double cpuSeconds() {
  struct rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
         1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

struct Timing {
  double wall = 1e300; // best wall-clock seconds
  double cpu = 1e300;  // process CPU seconds of that best run
};

// Best of `repeats` by wall clock. On a shared machine the CPU time of a
// single-threaded run is the steadier figure; both are printed.
template <typename Fn> Timing best(int repeats, Fn fn) {
  Timing t;
  for (int r = 0; r < repeats; ++r) {
    const double c0 = cpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double c = cpuSeconds() - c0;
    if (w < t.wall)
      t = {w, c};
  }
  return t;
}

// The bound: per replicate and system, the same draws (same count, same
// bounds, same generator and seeding) each adding one selected value, with
// the same two-accumulator sum as the engine (kIters is even).
double boundLoop(const Hierarchy &a, const Hierarchy &b, std::size_t replicates,
                 std::uint64_t seed) {
  double sink = 0;
  for (std::size_t r = 0; r < replicates; ++r) {
    alea::Rng rng(alea::mixSeed(seed, r));
    for (const Hierarchy *h : {&a, &b}) {
      const double *v = h->values.data();
      double sum = 0;
      for (std::size_t i = 0; i < kBuilds; ++i)
        sum += v[rng.below(kBuilds)];
      for (std::size_t i = 0; i < kBuilds * kExecs; ++i)
        sum += v[rng.below(kExecs)];
      double odd = 0;
      for (std::size_t u = 0; u < kBuilds * kExecs; ++u) {
        const double *base = v + u * kIters;
        for (std::size_t j = 0; j < kIters; j += 2) {
          sum += base[rng.below(kIters)];
          odd += base[rng.below(kIters)];
        }
      }
      sink += sum + odd;
    }
  }
  return sink;
}

void writeCsv(const std::string &path, const Hierarchy &base, const Hierarchy &cand) {
  std::ofstream out(path);
  out << "system,build,execution,iteration,value\n";
  char buf[64];
  for (auto [name, h] : {std::pair{"baseline", &base}, std::pair{"candidate", &cand}}) {
    std::size_t k = 0;
    for (std::size_t b = 0; b < kBuilds; ++b)
      for (std::size_t e = 0; e < kExecs; ++e)
        for (std::size_t i = 0; i < kIters; ++i) {
          std::snprintf(buf, sizeof buf, "%.17g", h->values[k++]);
          out << name << ',' << b << ',' << e << ',' << i << ',' << buf << '\n';
        }
  }
}

struct RTiming {
  double wall = 0; // seconds per replicate
  double cpu = 0;
};

// Runs the R reference; zero timings if R is missing or failed.
RTiming runR(const std::string &script, const std::string &csv, int replicates,
             std::string &intervalOut) {
  const std::string cmd = "Rscript '" + script + "' '" + csv + "' " + std::to_string(replicates) +
                          " baseline candidate 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p)
    return {};
  char line[512];
  RTiming perRep;
  while (std::fgets(line, sizeof line, p)) {
    double x, y;
    if (std::sscanf(line, "seconds_per_replicate %lf", &x) == 1)
      perRep.wall = x;
    else if (std::sscanf(line, "cpu_seconds_per_replicate %lf", &x) == 1)
      perRep.cpu = x;
    else if (std::sscanf(line, "interval %lf %lf", &x, &y) == 2)
      intervalOut = std::string("[")
                        .append(std::to_string(x))
                        .append(", ")
                        .append(std::to_string(y))
                        .append("]"); // (not "[" + ...: GCC 12 -Wrestrict false positive)
  }
  return pclose(p) == 0 ? perRep : RTiming{};
}

} // namespace

int main(int argc, char **argv) {
  std::string rScript = ALEA_BENCH_R_SCRIPT;
  int rReplicates = 40;
  std::size_t replicates = 10000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--r-script")
      rScript = argv[i + 1];
    else if (a == "--r-replicates")
      rReplicates = std::atoi(argv[i + 1]);
    else if (a == "--replicates")
      replicates = static_cast<std::size_t>(std::atoll(argv[i + 1]));
  }

  alea::Rng dataRng(20130616);
  const Hierarchy baseline = makeSystem(dataRng, 1.0);
  const Hierarchy candidate = makeSystem(dataRng, 0.96);
  const double measurementsPerReplicate = 2.0 * kBuilds * kExecs * kIters;
  const double drawsPerReplicate = 2.0 * (kBuilds + kBuilds * kExecs + kBuilds * kExecs * kIters);

  BootstrapOptions o;
  o.replicates = replicates;
  o.seed = 42;
  BootstrapResult r1, r2, rrn;
  o.threads = 1;
  const Timing t1 = best(3, [&] { r1 = *bootstrapRatio(candidate, baseline, o); });
  o.threads = 2;
  const Timing t2 = best(3, [&] { r2 = *bootstrapRatio(candidate, baseline, o); });
  o.threads = 1;
  o.scheme.kind = ResamplingScheme::Kind::RRN;
  const Timing tRrn = best(3, [&] { rrn = *bootstrapRatio(candidate, baseline, o); });
  volatile double sink = 0;
  const Timing tBound =
      best(3, [&] { sink = sink + boundLoop(candidate, baseline, replicates, 42); });
  double load[1] = {0};
  getloadavg(load, 1);

  const double rate1 = replicates * measurementsPerReplicate / t1.cpu;
  std::printf("hierarchical RRR bootstrap of the ratio: 2 systems x %zu x %zu x %zu, %zu "
              "replicates\n",
              kBuilds, kExecs, kIters, replicates);
  std::printf("  estimate %.6f  95%% CI [%.6f, %.6f]  (threads=2 identical: %s)\n", r1.estimate,
              r1.interval.lower, r1.interval.upper,
              r1.interval.lower == r2.interval.lower && r1.interval.upper == r2.interval.upper
                  ? "yes"
                  : "NO");
  std::printf("  (load average %.1f on %u hardware threads; times: wall / CPU seconds)\n", load[0],
              std::thread::hardware_concurrency());
  std::printf("  1 thread : %7.3f / %7.3f s  %.3g resampled measurements/s  %.3g draws/s (CPU)\n",
              t1.wall, t1.cpu, rate1, replicates * drawsPerReplicate / t1.cpu);
  std::printf(
      "  bound    : %7.3f / %7.3f s  (draw + load + add only)  engine at %.0f%% of the bound "
      "(CPU; %.0f%% wall)\n",
      tBound.wall, tBound.cpu, 100 * tBound.cpu / t1.cpu, 100 * tBound.wall / t1.wall);
  std::printf("  2 threads: %7.3f / %7.3f s  speed-up %.2fx (wall)\n", t2.wall, t2.cpu,
              t1.wall / t2.wall);
  std::printf(
      "  RRN      : %7.3f / %7.3f s  (lowest level collapsed to sums)  %.1fx faster than RRR; "
      "CI [%.6f, %.6f]\n",
      tRrn.wall, tRrn.cpu, t1.cpu / tRrn.cpu, rrn.interval.lower, rrn.interval.upper);

  const std::string csv = "/tmp/alea_bench_bootstrap.csv";
  writeCsv(csv, baseline, candidate);
  std::string rInterval;
  const RTiming rPerRep = rReplicates > 0 ? runR(rScript, csv, rReplicates, rInterval) : RTiming{};
  if (rPerRep.cpu > 0) {
    const double b = static_cast<double>(replicates);
    std::printf("  R        : %.4f / %.4f s per replicate over %d replicates (CI %s, type 7)\n",
                rPerRep.wall, rPerRep.cpu, rReplicates, rInterval.c_str());
    std::printf("  engine (1 thread) vs R per replicate: %.0fx faster (CPU; %.0fx wall)\n",
                rPerRep.cpu / (t1.cpu / b), rPerRep.wall / (t1.wall / b));
  } else {
    std::printf("  R        : not run (Rscript missing or failed)\n");
  }
  struct rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("  max RSS %.1f MiB (data %.1f MiB, replicates %.2f MiB)\n", ru.ru_maxrss / 1024.0,
              measurementsPerReplicate * 8 / 1048576.0, replicates * 8 / 1048576.0);
  return 0;
}
