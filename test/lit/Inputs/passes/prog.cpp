// Execution test program for the layout pass (C++): exceptions thrown through
// recursion and across translation-unit-local classes, static constructors,
// templates (comdat), virtual dispatch, std::sort with a lambda, function
// pointers, static locals with guards, weak functions. Its output must not
// depend on the layout.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
std::vector<std::string> &events() {
  static std::vector<std::string> v; // guarded static local
  return v;
}
struct Registrar {
  explicit Registrar(const char *name) { events().push_back(name); }
};
Registrar first("first");
Registrar second("second");

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual const char *name() const = 0;
};
struct Square : Shape {
  double s;
  explicit Square(double s) : s(s) {}
  double area() const override { return s * s; }
  const char *name() const override { return "square"; }
};
struct Rect : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
  const char *name() const override { return "rect"; }
};

struct Bottom : std::runtime_error {
  int depth;
  explicit Bottom(int d) : std::runtime_error("bottom"), depth(d) {}
};
int dive(int n, int depth) {
  if (n == 0)
    throw Bottom(depth);
  return dive(n - 1, depth + 1) + 1;
}
} // namespace

template <typename T> T sumOf(const std::vector<T> &v) {
  T total{};
  for (const T &x : v)
    total += x;
  return total;
}
template <typename T> struct Box {
  T value;
  T get() const { return value; }
};

__attribute__((weak)) int weakHook() { return 5; }

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }

int main() {
  for (const auto &e : events())
    std::printf("ctor %s\n", e.c_str());

  std::vector<std::unique_ptr<Shape>> shapes;
  shapes.push_back(std::make_unique<Square>(3));
  shapes.push_back(std::make_unique<Rect>(2, 5));
  shapes.push_back(std::make_unique<Square>(1.5));
  std::sort(shapes.begin(), shapes.end(),
            [](const auto &a, const auto &b) { return a->area() < b->area(); });
  for (const auto &s : shapes)
    std::printf("%s %.2f\n", s->name(), s->area());

  try {
    dive(6, 0);
  } catch (const Bottom &b) {
    std::printf("caught %s at %d\n", b.what(), b.depth);
  }
  try {
    throw std::out_of_range("range");
  } catch (const std::exception &e) {
    std::printf("caught %s\n", e.what());
  }

  std::printf("sum %d %.1f\n", sumOf(std::vector<int>{1, 2, 3}),
              sumOf(std::vector<double>{0.5, 0.25}));
  Box<int> bi{7};
  Box<std::string> bs{"boxed"};
  std::printf("%d %s\n", bi.get(), bs.get().c_str());

  int (*ops[])(int) = {twice, square};
  const char *names[] = {"twice", "square"};
  for (int i = 0; i < 2; i++)
    std::printf("%s=%d\n", names[i], ops[i](9));
  std::printf("weak %d\n", weakHook());
  return 0;
}
