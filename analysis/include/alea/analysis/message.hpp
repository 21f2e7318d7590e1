// How an error message of the statistics engine shows data (a CSV cell, a
// system name): escaped so that the message stays one line. The messages
// themselves travel in alea's one Expected (alea/expected.hpp).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace alea::analysis {

// `text` as a message shows it: control characters escaped C style (\0 for
// NUL, \t, \n, \r, \xHH for the others and DEL), so that a message stays
// one line and a NUL (a C string's end) does not cut it short when printed.
// Every other byte, UTF-8 included, is kept.
inline std::string escapeForMessage(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    switch (c) {
    case '\0':
      out += "\\0";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    default: {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02X", u);
      out += hex;
    }
    }
  }
  return out;
}

// "text" in double quotes, escaped as above: a name or a cell in a message.
inline std::string quoteForMessage(std::string_view text) {
  return "\"" + escapeForMessage(text) + "\"";
}

} // namespace alea::analysis
