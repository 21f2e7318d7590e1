// A Google Benchmark program for the gbench source of the end-to-end tests:
// BM_Work does WORK multiply-adds per benchmark iteration; BM_Other is there
// to be filtered out (measure.filter), by alea and by the program itself.
#include <benchmark/benchmark.h>

#ifndef WORK
#define WORK 4000000
#endif

static void BM_Work(benchmark::State &state) {
  unsigned long acc = 1;
  for (auto _ : state) {
    for (unsigned long j = 0; j < static_cast<unsigned long>(WORK); ++j) {
      acc = acc * 6364136223846793005ul + j;
      benchmark::DoNotOptimize(acc);
    }
  }
}
BENCHMARK(BM_Work)->Iterations(5);

static void BM_Other(benchmark::State &state) {
  unsigned long acc = 3;
  for (auto _ : state)
    benchmark::DoNotOptimize(acc *= 7);
}
BENCHMARK(BM_Other)->Iterations(1000);

BENCHMARK_MAIN();
