// How alea's messages say a count: "1 build", "3 builds". One spelling for
// the runner's progress and errors, the CLI's lines and every report format.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

namespace alea {

// The noun for `n` of it: an "s" unless n is 1 (every noun alea counts takes one).
template <typename Int> std::string nounFor(Int n, std::string_view word) {
  static_assert(std::is_integral_v<Int>);
  return std::string(word) + (n == 1 ? "" : "s");
}

// `n` and its noun: "1 build", "3 builds".
template <typename Int> std::string counted(Int n, std::string_view word) {
  return std::to_string(n) + " " + nounFor(n, word);
}

} // namespace alea
