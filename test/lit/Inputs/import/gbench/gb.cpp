#include <algorithm>
#include <benchmark/benchmark.h>
#include <vector>
static void BM_Sort(benchmark::State &state) {
  std::vector<unsigned> v(4096);
  for (auto _ : state) {
    unsigned x = 1;
    for (auto &e : v)
      e = x = x * 1103515245u + 12345u;
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_Sort)->Iterations(200);
static void BM_Sum(benchmark::State &state) {
  unsigned long acc = 1;
  for (auto _ : state)
    for (unsigned long j = 0; j < 20000; ++j) {
      acc = acc * 31 + j;
      benchmark::DoNotOptimize(acc);
    }
}
BENCHMARK(BM_Sum)->Iterations(200);
BENCHMARK_MAIN();
