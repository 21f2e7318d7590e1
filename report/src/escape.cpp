// The escaping functions of the reports' output contexts (escape.hpp). Each
// walks the string by UTF-8 code point, so that a byte that is not UTF-8 is
// handled once, the same way in every context.
#include "alea/report/escape.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/report/svg.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <span>

namespace alea::report {

namespace {

// The well-formed UTF-8 sequences by lead byte (The Unicode Standard, Table
// 3-7): their length and the range of their second byte, narrower than
// 80..BF where the sequence would be overlong, a surrogate or above U+10FFFF.
struct Utf8Lead {
  unsigned char first, last; // the lead bytes
  std::size_t len;
  unsigned char lo, hi; // the second byte
};
constexpr Utf8Lead kUtf8Leads[] = {
    {0xC2, 0xDF, 2, 0x80, 0xBF}, // U+0080..U+07FF
    {0xE0, 0xE0, 3, 0xA0, 0xBF}, // U+0800..U+0FFF
    {0xE1, 0xEC, 3, 0x80, 0xBF}, // U+1000..U+CFFF
    {0xED, 0xED, 3, 0x80, 0x9F}, // U+D000..U+D7FF
    {0xEE, 0xEF, 3, 0x80, 0xBF}, // U+E000..U+FFFF
    {0xF0, 0xF0, 4, 0x90, 0xBF}, // U+10000..U+3FFFF
    {0xF1, 0xF3, 4, 0x80, 0xBF}, // U+40000..U+FFFFF
    {0xF4, 0xF4, 4, 0x80, 0x8F}, // U+100000..U+10FFFF
};

} // namespace

std::pair<char32_t, std::size_t> decodeUtf8(std::string_view s, std::size_t i) {
  constexpr std::pair<char32_t, std::size_t> bad{0xFFFD, 1};
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80)
    return {c, 1};
  const auto lead = std::find_if(std::begin(kUtf8Leads), std::end(kUtf8Leads),
                                 [c](const Utf8Lead &l) { return c >= l.first && c <= l.last; });
  if (lead == std::end(kUtf8Leads) || i + lead->len > s.size())
    return bad;
  char32_t cp = c & (0x7F >> lead->len); // the lead byte's payload bits
  for (std::size_t k = 1; k < lead->len; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if (k == 1 ? (b < lead->lo || b > lead->hi) : (b < 0x80 || b > 0xBF))
      return bad;
    cp = (cp << 6) | (b & 0x3F);
  }
  return {cp, lead->len};
}

namespace {

// Calls f(code point, its bytes, valid) for each code point of s; an invalid
// byte is passed alone with valid = false.
template <class F> void eachCodePoint(std::string_view s, F f) {
  for (std::size_t i = 0; i < s.size();) {
    auto [cp, len] = decodeUtf8(s, i);
    const bool valid = !(cp == 0xFFFD && len == 1 && static_cast<unsigned char>(s[i]) >= 0x80);
    f(cp, s.substr(i, len), valid);
    i += len;
  }
}

bool isControl(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// Appends s to o as the LaTeX and Markdown contexts want it: `invalid` for a
// byte that is not UTF-8, a space for a control character, and whatever
// f(code point, its bytes) appends for every other code point.
template <class F>
void eachPrintable(std::string_view s, std::string &o, std::string_view invalid, F f) {
  eachCodePoint(s, [&](char32_t cp, std::string_view bytes, bool valid) {
    if (!valid)
      o += invalid;
    else if (isControl(cp))
      o += ' ';
    else
      f(cp, bytes);
  });
}

// s with each invalid byte as `invalid` and each control character as a
// space.
std::string printable(std::string_view s, std::string_view invalid) {
  std::string o;
  o.reserve(s.size());
  eachPrintable(s, o, invalid, [&](char32_t, std::string_view bytes) { o += bytes; });
  return o;
}

// A character and the word a context writes instead of it.
using Word = std::pair<char32_t, std::string_view>;

// LaTeX's text commands for the characters it has no backslash escape for.
constexpr Word kLatexWords[] = {{'\\', "\\textbackslash{}"},  {'~', "\\textasciitilde{}"},
                                {'^', "\\textasciicircum{}"}, {'<', "\\textless{}"},
                                {'>', "\\textgreater{}"},     {'|', "\\textbar{}"}};

// Markdown's character references for the characters Python-Markdown has no
// backslash escape for: $ is TeX math on GitHub and in Pandoc, ~ strikethrough
// on GitHub.
constexpr Word kMarkdownWords[] = {
    {'<', "&lt;"}, {'>', "&gt;"}, {'&', "&amp;"}, {'$', "&#36;"}, {'~', "&#126;"}};

// Appends cp escaped, after a backslash if `backslashed` holds it or as its
// word in `words`; false (nothing appended) when the context takes it as it is.
bool appendEscaped(std::string &o, char32_t cp, std::string_view backslashed,
                   std::span<const Word> words) {
  if (cp < 0x80 && backslashed.find(static_cast<char>(cp)) != std::string_view::npos) {
    o += '\\';
    o += static_cast<char>(cp);
    return true;
  }
  for (const auto &[c, word] : words)
    if (c == cp) {
      o += word;
      return true;
    }
  return false;
}

// The bidirectional embeddings, overrides and isolates (Unicode TR9): they
// reorder the text around them on a terminal that honours them.
bool isBidiControl(char32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
         cp == 0x200F || cp == 0x061C;
}

std::string hex(const char *format, unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

} // namespace

std::string plainText(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  eachCodePoint(s, [&](char32_t cp, std::string_view bytes, bool valid) {
    if (!valid)
      o += hex("\\x%02x", static_cast<unsigned char>(bytes[0]));
    else if (cp == '\n')
      o += "\\n";
    else if (cp == '\r')
      o += "\\r";
    else if (cp == '\t')
      o += "\\t";
    else if (cp < 0x80 && isControl(cp))
      o += hex("\\x%02x", static_cast<unsigned>(cp));
    else if (isControl(cp) || isBidiControl(cp))
      o += hex("\\u%04x", static_cast<unsigned>(cp));
    else
      o += bytes;
  });
  return o;
}

std::string latexText(std::string_view s) {
  std::string o;
  o.reserve(s.size() + s.size() / 4);
  eachPrintable(s, o, "?", [&](char32_t cp, std::string_view bytes) {
    if (appendEscaped(o, cp, "&%$#_{}", kLatexWords))
      return;
    // The font's ligatures would turn -- into a dash, `` and '' into
    // quotes, !` and ?` into inverted marks: an empty group between the two
    // characters keeps them as typed.
    if (!o.empty() &&
        ((cp == '-' && o.back() == '-') || (cp == '`' && o.back() == '`') ||
         (cp == '\'' && o.back() == '\'') || (cp == '`' && (o.back() == '!' || o.back() == '?'))))
      o += "{}";
    o += bytes;
  });
  return o;
}

std::string latexComment(std::string_view s) { return printable(s, "?"); }

std::string markdownText(std::string_view s) {
  std::string o;
  o.reserve(s.size() + s.size() / 4);
  // A leading "-", "+" or "1." would start a list where a name begins a
  // line or a list item ("- " + name).
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9')
    ++digits;
  const std::size_t listMark =
      !s.empty() && (s[0] == '-' || s[0] == '+') ? 0
      : digits > 0 && digits < s.size() && (s[digits] == '.' || s[digits] == ')')
          ? digits
          : std::string_view::npos;
  // U+FFFD for an invalid byte, as the HTML report shows it.
  eachPrintable(s, o, "\xEF\xBF\xBD", [&](char32_t cp, std::string_view bytes) {
    if (appendEscaped(o, cp, "\\`*_[]|#", kMarkdownWords))
      return;
    if (static_cast<std::size_t>(bytes.data() - s.data()) == listMark) // bytes is part of s
      o += '\\';
    o += bytes;
  });
  return o;
}

std::string markdownCode(std::string_view s) {
  const std::string body = printable(s, "\xEF\xBF\xBD");
  std::size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string htmlText(std::string_view s) { return svg::escape(s); }

std::string csvText(std::string_view s) {
  const bool formula = !s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' ||
                                      s[0] == '\t' || s[0] == '\r' || s[0] == '\'');
  return analysis::csvField(formula ? "'" + std::string(s) : std::string(s));
}

} // namespace alea::report
