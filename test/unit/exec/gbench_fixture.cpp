// A tiny Google Benchmark program whose real JSON output the measure tests
// parse (--benchmark_format=json --benchmark_repetitions=N): two benchmarks
// with different time units, so filters, units and aggregates are exercised.
#include <benchmark/benchmark.h>

#include <cstdint>

static void BM_Sum(benchmark::State &state) {
  std::uint64_t acc = 0;
  for (auto _ : state) {
    for (std::uint64_t i = 0; i < 1000; ++i)
      acc += i * i;
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_Sum)->Unit(benchmark::kMicrosecond)->Iterations(200);

static void BM_Hash(benchmark::State &state) {
  std::uint64_t h = 1469598103934665603ULL;
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i)
      h = (h ^ static_cast<std::uint64_t>(i)) * 1099511628211ULL;
    benchmark::DoNotOptimize(h);
  }
}
BENCHMARK(BM_Hash)->Iterations(500);

BENCHMARK_MAIN();
