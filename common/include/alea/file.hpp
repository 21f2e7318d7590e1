// Reading a whole file, and its lines: the one std::ifstream loop the
// wrapper (its build cache) and the runner (campaign files, imports,
// Valgrind's outputs, lock files) share; the end of a command's log; and the
// directory temporary files go in.
#pragma once

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

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

// The lines of `text`, without their '\n' (a last line without one counts).
inline std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return lines;
}

// A command's log as alea keeps it (a build's log tail): its last non-blank
// line, the reason it ended ("build exited with status 2"), and up to `most`
// non-blank lines of the output before it, oldest first, which usually name
// the cause.
struct LogEnd {
  std::string_view reason;
  std::vector<std::string_view> before;
};
inline LogEnd logEnd(std::string_view log, std::size_t most) {
  std::vector<std::string_view> lines;
  for (std::string_view line : linesOf(log))
    if (line.find_first_not_of(" \t\r") != std::string_view::npos)
      lines.push_back(line);
  LogEnd end;
  if (lines.empty())
    return end;
  end.reason = lines.back();
  lines.pop_back();
  end.before.assign(lines.size() > most ? lines.end() - static_cast<std::ptrdiff_t>(most)
                                        : lines.begin(),
                    lines.end());
  return end;
}

// The directory for temporary files: $TMPDIR when it is an absolute path,
// else /tmp.
inline std::string tempDirectory() {
  const char *tmp = std::getenv("TMPDIR");
  return tmp && *tmp == '/' ? tmp : "/tmp";
}

} // namespace alea
