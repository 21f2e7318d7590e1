// Throughput of the Li-Chen-Peng resampling methods (randomization test and
// suite bootstrap of the GM ratio) on a SPEC-like suite, 1 vs 2 threads.
// Prints replicates per second; run.sh runs the same computation in R in the
// same session and prints the ratio. A benchmark, not a test.
#include "alea/analysis/resampling.hpp"
#include "alea/random.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace alea::analysis;

int main(int argc, char **argv) {
  const int benchmarks = argc > 1 ? std::atoi(argv[1]) : 29;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::size_t reps = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 20000;
  std::vector<BenchmarkRuns> suite(benchmarks);
  alea::Rng rng(1);
  for (int b = 0; b < benchmarks; ++b)
    for (int i = 0; i < runs; ++i) {
      suite[b].baseline.push_back((1 + b) * (1 + 0.02 * rng.uniform()));
      suite[b].candidate.push_back((1 + b) * (0.99 + 0.02 * rng.uniform()));
    }
  auto time = [](auto &&f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  double rt[3] = {0, 0, 0}, bs[3] = {0, 0, 0};
  for (unsigned threads : {1u, 2u}) {
    rt[threads] = time([&] {
      auto r = randomizationTest(
          suite, {.replicates = reps, .seed = 3, .threads = threads, .exhaustiveLimit = 0});
      if (!r)
        std::abort();
    });
    bs[threads] = time([&] {
      auto r = bootstrapSuiteRatio(suite, {.replicates = reps, .seed = 3, .threads = threads});
      if (!r)
        std::abort();
    });
  }
  std::printf("suite: %d benchmarks x %d runs, %zu replicates\n", benchmarks, runs, reps);
  std::printf("randomization test: %.0f replicates/s (1 thread), speed-up with 2 threads %.2fx\n",
              reps / rt[1], rt[1] / rt[2]);
  std::printf("suite bootstrap:    %.0f replicates/s (1 thread), speed-up with 2 threads %.2fx\n",
              reps / bs[1], bs[1] / bs[2]);
  std::printf("ALEA_RT_RATE=%.6g\nALEA_BS_RATE=%.6g\n", reps / rt[1], reps / bs[1]);
  return 0;
}
