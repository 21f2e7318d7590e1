/* Execution test program for the layout pass (C): function pointers, qsort
   callbacks, recursion, constructors, weak and optnone functions, a static
   referenced from top-level asm, a linker set in a named section, static
   locals and string literals. Its output must not depend on the layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calls;
static const char *greeting = "hello";
static int table[8] = {7, 3, 9, 1, 8, 2, 6, 4};

static int cmpUp(const void *a, const void *b) {
  calls++;
  return *(const int *)a - *(const int *)b;
}
static int cmpDown(const void *a, const void *b) { return cmpUp(b, a); }

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int ackermann(int m, int n) {
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

__attribute__((weak)) int weakValue(void) { return 11; }
__attribute__((optnone, noinline)) static int slowSquare(int x) { return x * x; }

static int asmTarget(int x) __attribute__((used, noinline));
static int asmTarget(int x) { return x + 100; }
__asm__(".globl alea_asm_alias\n.set alea_asm_alias, asmTarget");
extern int alea_asm_alias(int);

static int ctorRan;
__attribute__((constructor)) static void early(void) { ctorRan = 42; }

/* A linker set: its order is the declaration order (explicit sections are
   never shuffled). */
__attribute__((used, section("alea_set"))) static const int setA = 1;
__attribute__((used, section("alea_set"))) static const int setB = 2;
__attribute__((used, section("alea_set"))) static const int setC = 3;
extern const int __start_alea_set[], __stop_alea_set[];

static int counter(void) {
  static int n;
  return ++n;
}

typedef long (*UnaryFn)(int);
static const UnaryFn unary[] = {fib, fact};

int main(int argc, char **argv) {
  int up[8], down[8];
  memcpy(up, table, sizeof up);
  memcpy(down, table, sizeof down);
  qsort(up, 8, sizeof up[0], cmpUp);
  qsort(down, 8, sizeof down[0], cmpDown);
  for (int i = 0; i < 8; i++)
    printf("%d%c", up[i], i == 7 ? '\n' : ' ');
  for (int i = 0; i < 8; i++)
    printf("%d%c", down[i], i == 7 ? '\n' : ' ');
  printf("compares>0 %d\n", calls > 0);
  for (int i = 0; i < 2; i++)
    printf("unary[%d](10) = %ld\n", i, unary[i](10));
  printf("ackermann(2,3) = %d\n", ackermann(2, 3));
  printf("weak %d optnone %d asm %d ctor %d\n", weakValue(), slowSquare(12),
         alea_asm_alias(5), ctorRan);
  for (const int *p = __start_alea_set; p < __stop_alea_set; p++)
    printf("set %d\n", *p);
  counter();
  counter();
  printf("%s %d argc=%d\n", greeting, counter(), argc);
  return 0;
}
