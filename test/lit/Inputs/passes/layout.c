/* Input of the per-factor clang tests (test/lit/passes/clang-*-order.test,
   clang-symbol-names.test, clang-code-padding.test, clang-stack-offset.test),
   C: external and static functions and variables, a declaration and a
   variable in an explicit section (both keep their slots), a string literal,
   a main with a local array. Everything survives -O2: functions are noinline
   and called or address-taken, variables escape through sink() (declared
   only: the tests compile, they do not link), so the module the layout pass
   sees at -O2 holds the same symbols as at -O0. */
extern void sink(const void *);
extern int ext_var; /* a declaration: holds its slot */

int g_counter = 1;
int g_table[4] = {3, 1, 4, 1};
const long g_limit = 1000;
double g_scale = 2.5;
__attribute__((section("alea_data"))) int g_in_section = 9; /* holds its slot */
char g_buffer[64];
static int s_hits;
static const int s_primes[5] = {2, 3, 5, 7, 11};
long g_last;

__attribute__((noinline)) int add(int a, int b) { return a + b + g_counter; }
__attribute__((noinline)) int scale(int x) { return (int)(x * g_scale); }
__attribute__((noinline)) static int hit(int x) {
  s_hits += x;
  return s_hits;
}
__attribute__((noinline)) long limit(long x) { return x < g_limit ? x : g_limit; }
__attribute__((noinline)) static int prime(int i) { return s_primes[i % 5]; }
__attribute__((noinline)) int table(int i) { return g_table[i & 3]; }
__attribute__((noinline)) void fill(char c) {
  for (int i = 0; i < 63; i++)
    g_buffer[i] = c;
}
__attribute__((noinline)) long remember(long v) { return g_last = v; }

int main(int argc, char **argv) {
  char local[100];
  sink(local);
  sink(&s_hits);
  sink(s_primes);
  sink((const void *)hit);
  sink((const void *)prime);
  sink(&ext_var);
  sink(&g_in_section);
  sink("layout");
  fill((char)argc);
  return add(argc, scale(argc)) + hit(argc) + (int)limit(argc) + prime(argc) +
         table(argc) + (int)remember(argc) + local[argc];
}
