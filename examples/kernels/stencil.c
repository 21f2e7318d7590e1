/* stencil: a tight numeric loop (1-D three-point Jacobi smoothing over a
 * double array that stays in L2). One hot loop in one function: little to
 * gain or lose from layout, a lot from vectorization and unrolling, so it is
 * the kernel where -O3 vs -O2 should matter most and layout least.
 * Usage: stencil [iterations] [sweeps]; prints a checksum (deterministic). */
#include <alea/iter.h>

#include <stdio.h>
#include <stdlib.h>

#define N 16384

static double a[N], b[N];

static void sweep(double *restrict out, const double *restrict in) {
  int i;
  out[0] = in[0];
  out[N - 1] = in[N - 1];
  for (i = 1; i < N - 1; ++i)
    out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 10;
  int sweeps = argc > 2 ? atoi(argv[2]) : 1000;
  double checksum = 0;
  int it, s, i;
  for (it = 0; it < iterations; ++it) {
    for (i = 0; i < N; ++i)
      a[i] = (double)((i * 7919 + it) % 1000) / 1000.0;
    alea_iter_begin();
    for (s = 0; s < sweeps; s += 2) {
      sweep(b, a);
      sweep(a, b);
    }
    alea_iter_end();
    for (i = 0; i < N; i += 97)
      checksum += a[i];
  }
  printf("stencil %d %.6f\n", iterations, checksum);
  return 0;
}
