/* Interface of the LTO project's C library (stats.c). */
#ifndef LTO_STATS_H
#define LTO_STATS_H
#ifdef __cplusplus
extern "C" {
#endif
long statsSum(const int *values, int count);
long statsSumOfSquares(const int *values, int count);
#ifdef __cplusplus
}
#endif
#endif
