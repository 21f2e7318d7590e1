/* The C workload of the validity benchmark (bench/validity/run.sh --workload c):
 * one fixed chunk of work repeated REPS times, in three translation units so that
 * alea-cc's layout factors (function order, alignment, link order) have
 * something to move. */
#ifndef VALIDITY_WORK_H
#define VALIDITY_WORK_H
#include <stdint.h>

typedef uint32_t (*op_fn)(uint32_t, uint32_t);
extern const op_fn ops[16];
uint32_t run_program(const uint8_t *code, unsigned n, uint32_t acc);
uint32_t table_work(uint32_t seed);
#endif
