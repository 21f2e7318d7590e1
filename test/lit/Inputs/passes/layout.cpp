// Input of the per-factor clang tests (test/lit/passes/clang-*-order.test,
// clang-symbol-names.test, clang-code-padding.test, clang-stack-offset.test),
// C++: mangled names, a namespace, an anonymous namespace, out-of-line
// virtual functions (the vtable and typeinfo are emitted here), templates and
// an inline function (comdat), a variable template, a dynamic initializer (a
// constructor function in .text.startup, which keeps its slot, and
// llvm.global_ctors), a declaration.
// Everything survives -O2: functions are noinline and called or
// address-taken, variables escape through sink() (declared only: the tests
// compile, they do not link).
extern void sink(const void *);
extern int compute(int);
extern int extVar; // a declaration: holds its slot

namespace ns {
int counter = 1;
double weights[3] = {0.5, 0.25, 0.125};
} // namespace ns

namespace {
int hidden = 7;
__attribute__((noinline)) int hiddenTwice(int x) { return 2 * x + hidden; }
} // namespace

static long statics[4];

struct Shape {
  virtual ~Shape();
  virtual int area(int) const;
};
Shape::~Shape() {}
int Shape::area(int x) const { return x * x; }

template <typename T> __attribute__((noinline)) T twice(T x) { return x + x; }
template <typename T> T tvar = T(3);
inline __attribute__((noinline)) int inlineFn(int x) { return x - ns::counter; }

__attribute__((noinline)) int plain(int x) { return x + ns::counter; }
__attribute__((noinline)) static int staticFn(int x) { return x * 3; }
__attribute__((noinline)) double weigh(int i) { return ns::weights[i % 3]; }

int dynamicInit = compute(5);

int main(int argc, char **) {
  char local[100];
  sink(local);
  sink(&hidden);
  sink(statics);
  sink(&tvar<int>);
  sink(&extVar);
  sink(reinterpret_cast<const void *>(&staticFn));
  sink(reinterpret_cast<const void *>(&hiddenTwice));
  Shape *s = new Shape;
  int r = s->area(argc);
  delete s;
  return r + twice(argc) + (int)twice(1.5) + inlineFn(argc) + plain(argc) +
         (int)weigh(argc) + local[argc] + dynamicInit;
}
