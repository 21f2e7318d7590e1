// The C++ part of the mixed C/C++/Fortran links (cmain.c): a median through the
// C++ standard library, so that the link needs libstdc++.
#include <algorithm>
#include <vector>

extern "C" double cxx_median(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back((i * 37) % 11);
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  return v[n / 2];
}
