// C++ side of the detection project: virtual dispatch, exceptions, a static
// constructor and std::sort, exposed to C.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

namespace {
struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Rect : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
};
struct Square : Rect {
  explicit Square(double s) : Rect(s, s) {
    if (s < 0)
      throw std::invalid_argument("negative side");
  }
};
std::vector<std::unique_ptr<Shape>> registry = [] {
  std::vector<std::unique_ptr<Shape>> v;
  v.push_back(std::make_unique<Rect>(2, 3));
  v.push_back(std::make_unique<Square>(4));
  return v;
}();
} // namespace

extern "C" double shapesAreaSum(double extraSquare) {
  double sum = 0;
  try {
    Square s(extraSquare);
    sum += s.area();
  } catch (const std::invalid_argument &) {
    sum -= 1000;
  }
  std::vector<double> areas;
  for (const auto &shape : registry)
    areas.push_back(shape->area());
  std::sort(areas.begin(), areas.end());
  for (double a : areas)
    sum += a;
  return sum;
}
