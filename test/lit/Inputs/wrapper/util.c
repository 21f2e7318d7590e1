/* Part of the wrapper's multi-file test program. */
int counter = 39;

static int add(int a, int b) { return a + b; }

int sumTo(int n) {
  int s = 0;
  for (int i = 1; i <= n; ++i)
    s = add(s, i);
  return s;
}
