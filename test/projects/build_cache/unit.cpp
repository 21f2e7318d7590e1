#include <iostream>
#include <vector>
#include <map>
#include <string>
#include <algorithm>
#include <stdexcept>
template <class T> T sum(const std::vector<T>& v) { T s{}; for (auto& x : v) s += x; return s; }
static int helper(int x) { if (x < 0) throw std::runtime_error("neg"); return x * 2; }
int main(int argc, char**) {
  std::map<std::string, int> m{{"a", 1}, {"b", 2}};
  std::vector<double> v{1.5, 2.5};
  auto f = [&](int k) { return helper(k) + m["a"]; };
  try { std::cout << sum(v) << " " << f(argc) << std::endl; helper(-argc); } catch (const std::exception& e) { std::cout << e.what() << "\n"; }
  std::sort(v.begin(), v.end());
  return 0;
}
