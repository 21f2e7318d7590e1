// How alea's messages say a count ("1 build", "3 builds") and a list of
// numbers ("0, 1 and 2"). One spelling for the runner's progress and errors,
// the CLI's lines and every report format.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

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

// Numbers as a sentence lists them, each after `prefix`: "0", "0 and 2",
// "#0, #1 and #3".
inline std::string listed(const std::vector<int> &numbers, std::string_view prefix = {}) {
  std::string list;
  for (std::size_t i = 0; i < numbers.size(); ++i)
    list += std::string(i == 0                    ? ""
                        : i + 1 == numbers.size() ? " and "
                                                  : ", ") +
            std::string(prefix) + std::to_string(numbers[i]);
  return list;
}

} // namespace alea
