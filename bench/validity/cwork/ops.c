/* Sixteen small operations called through a table: an interpreter's dispatch,
 * whose speed depends on where the functions and the loop land. */
#include "work.h"

static uint32_t op_add(uint32_t a, uint32_t b) { return a + b; }
static uint32_t op_sub(uint32_t a, uint32_t b) { return a - b; }
static uint32_t op_xor(uint32_t a, uint32_t b) { return a ^ b; }
static uint32_t op_mul(uint32_t a, uint32_t b) { return a * (b | 1); }
static uint32_t op_rol(uint32_t a, uint32_t b) { return (a << (b & 31)) | (a >> ((32 - (b & 31)) & 31)); }
static uint32_t op_shr(uint32_t a, uint32_t b) { return a >> (b & 7); }
static uint32_t op_or(uint32_t a, uint32_t b) { return a | (b & 0xff); }
static uint32_t op_and(uint32_t a, uint32_t b) { return a & (b | 0xffff0000u); }
static uint32_t op_min(uint32_t a, uint32_t b) { return a < b ? a : b + 1; }
static uint32_t op_max(uint32_t a, uint32_t b) { return a > b ? a : b - 1; }
static uint32_t op_neg(uint32_t a, uint32_t b) { return ~a + (b & 3); }
static uint32_t op_mix(uint32_t a, uint32_t b) { return (a ^ (a >> 15)) * 0x2c1b3c6du + b; }
static uint32_t op_cnt(uint32_t a, uint32_t b) {
  uint32_t n = 0;
  for (uint32_t x = a ^ b; x; x &= x - 1)
    ++n;
  return a + n;
}
static uint32_t op_div(uint32_t a, uint32_t b) { return a / ((b & 15) + 1) + a; }
static uint32_t op_sel(uint32_t a, uint32_t b) { return (a & 1) ? a + b : a - b; }
static uint32_t op_sq(uint32_t a, uint32_t b) { return a * a + b; }

const op_fn ops[16] = {op_add, op_sub, op_xor, op_mul, op_rol, op_shr, op_or,  op_and,
                       op_min, op_max, op_neg, op_mix, op_cnt, op_div, op_sel, op_sq};

uint32_t run_program(const uint8_t *code, unsigned n, uint32_t acc) {
  for (unsigned i = 0; i < n; ++i)
    acc = ops[code[i] & 15](acc, code[(i + 1) % n] * 2654435761u);
  return acc;
}
