// A Google Benchmark program for the gbench source of the end-to-end test:
// BM_Work does WORK multiply-adds per benchmark iteration.
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

BENCHMARK_MAIN();
