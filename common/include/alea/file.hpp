// Reading a whole file: the one std::ifstream loop the wrapper (its build
// cache, response files) and the runner (campaign files, imports, Valgrind's
// outputs) share.
#pragma once

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace alea {

// The content of the file at `path`, or nothing when it cannot be opened or
// read.
inline std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return std::nullopt;
  return text.str();
}

} // namespace alea
