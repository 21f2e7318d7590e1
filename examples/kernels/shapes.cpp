// shapes: C++ virtual dispatch. A scene of objects of six classes in a
// shuffled order is updated and measured through virtual calls each step, so
// the vtable targets are indirect branches whose predictability and i-cache
// footprint depend on where the small methods land. grow() only flips low
// bits, so the work per step stays the same from iteration to iteration.
// Usage: shapes [iterations] [steps]; prints a checksum (deterministic).
#include <alea/iter.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

struct Shape {
  virtual ~Shape() = default;
  virtual std::int64_t area() const = 0;
  virtual std::int64_t perimeter() const = 0;
  virtual void grow(std::int64_t d) = 0;
};

struct Square final : Shape {
  std::int64_t s;
  explicit Square(std::int64_t v) : s(v) {}
  std::int64_t area() const override { return s * s; }
  std::int64_t perimeter() const override { return 4 * s; }
  void grow(std::int64_t d) override { s ^= d & 1; }
};
struct Rect final : Shape {
  std::int64_t w, h;
  Rect(std::int64_t a, std::int64_t b) : w(a), h(b) {}
  std::int64_t area() const override { return w * h; }
  std::int64_t perimeter() const override { return 2 * (w + h); }
  void grow(std::int64_t d) override {
    w ^= d & 1;
    h ^= (d >> 1) & 1;
  }
};
struct Tri final : Shape {
  std::int64_t b, h;
  Tri(std::int64_t x, std::int64_t y) : b(x), h(y) {}
  std::int64_t area() const override { return b * h / 2; }
  std::int64_t perimeter() const override { return 3 * b; }
  void grow(std::int64_t d) override { b ^= d & 2; }
};
struct Circle final : Shape {
  std::int64_t r;
  explicit Circle(std::int64_t v) : r(v) {}
  std::int64_t area() const override { return 355 * r * r / 113; }
  std::int64_t perimeter() const override { return 710 * r / 113; }
  void grow(std::int64_t d) override { r ^= d & 1; }
};
struct Hex final : Shape {
  std::int64_t s;
  explicit Hex(std::int64_t v) : s(v) {}
  std::int64_t area() const override { return 26 * s * s / 10; }
  std::int64_t perimeter() const override { return 6 * s; }
  void grow(std::int64_t d) override { s ^= (d * d) & 1; }
};
struct Ring final : Shape {
  std::int64_t outer, inner;
  Ring(std::int64_t o, std::int64_t i) : outer(o), inner(i) {}
  std::int64_t area() const override {
    return 355 * (outer * outer - inner * inner) / 113;
  }
  std::int64_t perimeter() const override {
    return 710 * (outer + inner) / 113;
  }
  void grow(std::int64_t d) override {
    outer ^= d & 1;
    inner = outer / 2;
  }
};

std::uint64_t lcg(std::uint64_t &s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 33;
}

std::vector<std::unique_ptr<Shape>> makeScene(std::size_t n) {
  std::vector<std::unique_ptr<Shape>> scene;
  std::uint64_t seed = 2024;
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t a = static_cast<std::int64_t>(lcg(seed) % 100 + 1);
    std::int64_t b = static_cast<std::int64_t>(lcg(seed) % 100 + 1);
    switch (lcg(seed) % 6) {
    case 0:
      scene.push_back(std::make_unique<Square>(a));
      break;
    case 1:
      scene.push_back(std::make_unique<Rect>(a, b));
      break;
    case 2:
      scene.push_back(std::make_unique<Tri>(a, b));
      break;
    case 3:
      scene.push_back(std::make_unique<Circle>(a));
      break;
    case 4:
      scene.push_back(std::make_unique<Hex>(a));
      break;
    default:
      scene.push_back(std::make_unique<Ring>(a, b));
      break;
    }
  }
  return scene;
}

std::uint64_t step(std::vector<std::unique_ptr<Shape>> &scene, std::int64_t t) {
  std::uint64_t acc = 0;
  for (auto &s : scene) {
    acc += static_cast<std::uint64_t>(s->area() - s->perimeter());
    s->grow(t & 7);
  }
  return acc;
}

} // namespace

int main(int argc, char **argv) {
  int iterations = argc > 1 ? std::atoi(argv[1]) : 10;
  int steps = argc > 2 ? std::atoi(argv[2]) : 120;
  auto scene = makeScene(4096);
  std::uint64_t checksum = 0;
  for (int it = 0; it < iterations; ++it) {
    alea_iter_begin();
    for (int t = 0; t < steps; ++t)
      checksum = checksum * 31 + step(scene, t + it);
    alea_iter_end();
  }
  std::printf("shapes %d %016llx\n", iterations,
              static_cast<unsigned long long>(checksum));
  return 0;
}
