// The C++ static library of the LTO project: joins words, so that the LTO
// link merges libstdc++ templates instantiated in two modules.
#include "words.hpp"

std::string joinWords(const std::vector<std::string> &words) {
  std::string out;
  for (const auto &word : words) {
    if (!out.empty())
      out += '-';
    out += word;
  }
  return out;
}
