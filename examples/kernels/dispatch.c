/* dispatch: an interpreter-like dispatch loop. A small stack machine runs a
 * fixed bytecode program through a table of many tiny handler functions, one
 * indirect call per instruction: the kind of call-heavy code whose speed moves
 * with function placement (i-cache sets, branch-target buffer aliasing), so it
 * should be among the most layout-sensitive kernels of the demo.
 * Usage: dispatch [iterations] [scale]; prints a checksum (deterministic). */
#include <alea/iter.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int64_t stack[64];
  int sp;
  int pc;
  int64_t reg[4];
} Vm;

typedef void (*Handler)(Vm *, int64_t);

#define NOINLINE __attribute__((noinline))
static NOINLINE void opPush(Vm *m, int64_t a) { m->stack[m->sp++] = a; }
static NOINLINE void opAdd(Vm *m, int64_t a) {
  m->sp--;
  m->stack[m->sp - 1] += m->stack[m->sp];
}
static NOINLINE void opSub(Vm *m, int64_t a) {
  m->sp--;
  m->stack[m->sp - 1] -= m->stack[m->sp];
}
static NOINLINE void opMul(Vm *m, int64_t a) {
  m->sp--;
  m->stack[m->sp - 1] *= m->stack[m->sp];
}
static NOINLINE void opXor(Vm *m, int64_t a) {
  m->sp--;
  m->stack[m->sp - 1] ^= m->stack[m->sp];
}
static NOINLINE void opShl(Vm *m, int64_t a) {
  m->stack[m->sp - 1] <<= (a & 7);
}
static NOINLINE void opShr(Vm *m, int64_t a) {
  m->stack[m->sp - 1] = (int64_t)((uint64_t)m->stack[m->sp - 1] >> (a & 7));
}
static NOINLINE void opDup(Vm *m, int64_t a) {
  m->stack[m->sp] = m->stack[m->sp - 1];
  m->sp++;
}
static NOINLINE void opSwap(Vm *m, int64_t a) {
  int64_t t = m->stack[m->sp - 1];
  m->stack[m->sp - 1] = m->stack[m->sp - 2];
  m->stack[m->sp - 2] = t;
}
static NOINLINE void opDrop(Vm *m, int64_t a) { m->sp--; }
static NOINLINE void opLoad(Vm *m, int64_t a) {
  m->stack[m->sp++] = m->reg[a & 3];
}
static NOINLINE void opStore(Vm *m, int64_t a) {
  m->reg[a & 3] = m->stack[--m->sp];
}
static NOINLINE void opInc(Vm *m, int64_t a) { m->reg[a & 3]++; }
static NOINLINE void opDec(Vm *m, int64_t a) { m->reg[a & 3]--; }
static NOINLINE void opAnd(Vm *m, int64_t a) { m->stack[m->sp - 1] &= a; }
static NOINLINE void opOr(Vm *m, int64_t a) { m->stack[m->sp - 1] |= a; }
static NOINLINE void opNeg(Vm *m, int64_t a) {
  m->stack[m->sp - 1] = -m->stack[m->sp - 1];
}
static NOINLINE void opMix(Vm *m, int64_t a) {
  uint64_t x = (uint64_t)m->stack[m->sp - 1];
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ull;
  m->stack[m->sp - 1] = (int64_t)(x ^ (x >> 32));
}
static NOINLINE void opJnz(Vm *m, int64_t a) {
  if (m->reg[1] != 0)
    m->pc = (int)a - 1;
}
static NOINLINE void opNop(Vm *m, int64_t a) { (void)m; }

enum {
  PUSH,
  ADD,
  SUB,
  MUL,
  XOR,
  SHL,
  SHR,
  DUP,
  SWAP,
  DROP,
  LOAD,
  STORE,
  INC,
  DEC,
  AND,
  OR,
  NEG,
  MIX,
  JNZ,
  NOP,
  HALT
};
static const Handler handlers[] = {
    opPush, opAdd,   opSub, opMul, opXor, opShl, opShr, opDup, opSwap, opDrop,
    opLoad, opStore, opInc, opDec, opAnd, opOr,  opNeg, opMix, opJnz,  opNop};

typedef struct {
  int op;
  int64_t arg;
} Insn;

/* r0 = accumulator, r1 = loop counter (set before running). */
static const Insn program[] = {
    {LOAD, 0},  {PUSH, 3}, {MUL, 0}, {LOAD, 1}, {XOR, 0},
    {MIX, 0},   {DUP, 0},  {SHR, 3}, {ADD, 0},  {AND, 0xffffffffff},
    {PUSH, 7},  {SWAP, 0}, {SUB, 0}, {NEG, 0},  {NEG, 0},
    {OR, 1},    {DUP, 0},  {SHL, 2}, {XOR, 0},  {NOP, 0},
    {STORE, 0}, {INC, 2},  {DEC, 1}, {JNZ, 0},  {HALT, 0}};

static int64_t run(int64_t seed, int64_t loops) {
  Vm m = {{0}, 0, 0, {seed, loops, 0, 0}};
  for (;;) {
    const Insn *i = &program[m.pc];
    if (i->op == HALT)
      break;
    handlers[i->op](&m, i->arg);
    m.pc++;
  }
  return m.reg[0] ^ m.reg[2];
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 10;
  int64_t scale = argc > 2 ? atoll(argv[2]) : 100000;
  uint64_t checksum = 0;
  int it;
  for (it = 0; it < iterations; ++it) {
    alea_iter_begin();
    checksum = checksum * 31 + (uint64_t)run(it + 1, scale);
    alea_iter_end();
  }
  printf("dispatch %d %016llx\n", iterations, (unsigned long long)checksum);
  return 0;
}
