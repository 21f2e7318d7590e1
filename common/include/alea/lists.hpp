// Lists written as text: split at a separator (costs "1,10", a target triple's
// dash-separated parts) and joined with one (the names a message lists, a
// note's comma list). One spelling for every place that takes or writes one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace alea {

// The pieces of `text` between the `separator`s, empty ones included: "a,,b" is
// {"a", "", "b"}, "" is {""}. The pieces view `text`.
inline std::vector<std::string_view> splitAt(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  while (true) {
    const auto at = text.find(separator);
    pieces.push_back(text.substr(0, at));
    if (at == std::string_view::npos)
      return pieces;
    text.remove_prefix(at + 1);
  }
}

// The items (strings, string views or C strings) one after the other, the
// separator between two where the text so far is not empty.
template <typename Range> std::string joinWith(const Range &items, std::string_view separator) {
  std::string out;
  for (const auto &item : items) {
    if (!out.empty())
      out += separator;
    out += item;
  }
  return out;
}

} // namespace alea
