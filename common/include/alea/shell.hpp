// Quoting for the POSIX shell: the one definition for the whole project. The
// runner quotes the commands it sends over SSH and the placeholder values it
// substitutes into a campaign's `shell` strings; the wrappers quote the argv
// they log and print in a dry run. One rule, so the two cannot drift apart.
//
// A word is left as it is when it has only characters no shell treats
// specially, and is otherwise put in single quotes (`it's` -> 'it'\''s'),
// which every POSIX shell reads literally, newlines included. `=` is quoted
// only where the shell would read it (`NAME=...`, a leading `=`): `-DX=1` stays.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace alea {

enum class ShellQuoting {
  // For a shell to execute (sh -c, ssh's remote command line): control
  // characters stay literal inside the single quotes (dash, Debian's /bin/sh,
  // has no $'...').
  Execute,
  // For a line a person reads or pastes into bash (logs, dry runs): a word
  // with a control character is spelt $'...' with escapes, so that a newline
  // in an argument never splits the line.
  DisplayLine,
};

namespace shell_detail {

inline bool isControl(char ch) {
  const auto byte = static_cast<unsigned char>(ch);
  return byte < 0x20 || byte == 0x7f;
}

inline bool isSafe(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         std::string_view("_@%+=:,./-").find(ch) != std::string_view::npos;
}

// Whether an unquoted `=` in `word` means something to a shell: NAME=... (a
// variable name, then '=') as a command's first word is an assignment, and
// zsh (a remote login shell may be zsh) expands a leading `=cmd` to a path.
inline bool equalsSignMatters(std::string_view word) {
  const std::size_t eq = word.find('=');
  if (eq == 0)
    return true;
  if (eq == std::string_view::npos)
    return false;
  if (word[0] >= '0' && word[0] <= '9')
    return false;
  for (std::size_t i = 0; i < eq; ++i) {
    const char ch = word[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
          ch == '_'))
      return false;
  }
  return true;
}

// \n, \t, \r, else \xHH: the escapes bash's $'...' reads.
inline std::string controlEscape(char ch) {
  switch (ch) {
  case '\n':
    return "\\n";
  case '\t':
    return "\\t";
  case '\r':
    return "\\r";
  default: {
    static constexpr char kHex[] = "0123456789abcdef";
    const auto byte = static_cast<unsigned char>(ch);
    return std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
  }
  }
}

} // namespace shell_detail

// One word, quoted for the shell as `how` says (see ShellQuoting).
inline std::string shellQuote(std::string_view word, ShellQuoting how = ShellQuoting::Execute) {
  using namespace shell_detail;
  if (word.empty())
    return "''";
  bool plain = !equalsSignMatters(word);
  bool control = false;
  for (char ch : word) {
    plain = plain && isSafe(ch);
    control = control || isControl(ch);
  }
  if (plain)
    return std::string(word);
  std::string out;
  if (control && how == ShellQuoting::DisplayLine) {
    out = "$'";
    for (char ch : word) {
      if (isControl(ch))
        out += controlEscape(ch);
      else if (ch == '\\' || ch == '\'')
        out += std::string("\\") + ch;
      else
        out += ch;
    }
    return out + '\'';
  }
  out = "'";
  for (char ch : word) {
    if (ch == '\'')
      out += "'\\''";
    else
      out += ch;
  }
  return out + '\'';
}

// The words joined by single spaces, each quoted as `how` says.
inline std::string shellJoin(const std::vector<std::string> &words,
                             ShellQuoting how = ShellQuoting::Execute) {
  std::string out;
  for (const auto &word : words) {
    if (!out.empty())
      out += ' ';
    out += shellQuote(word, how);
  }
  return out;
}

} // namespace alea
