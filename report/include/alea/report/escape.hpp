// How a string that can come from a user (a campaign, system, benchmark or
// target name, a store path, a host name, a warning or an error that quotes
// one) is written in each output context of the reports: one function per
// context, applied by the renderers where they write the string, never
// earlier (the report value holds the strings as they are). Each function
// writes any input as text of its context, newlines and control characters
// included, so that no data can end a comment, open a LaTeX command, a
// Markdown link, an HTML element or a spreadsheet formula. The rules, and
// why, are in docs/report.md ("Names in the reports").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace alea::report {

// The code point starting at s[i] and its length in bytes; {U+FFFD, 1} for a
// byte that does not start a valid, shortest UTF-8 sequence.
std::pair<char32_t, std::size_t> decodeUtf8(std::string_view s, std::size_t i);

// The text report (a terminal): control characters (C0, DEL, C1) and the
// bidirectional overrides that can reorder what a terminal shows ("Trojan
// Source", CVE-2021-42574) are shown as escapes (\n, \r, \t, \xHH, \uHHHH),
// as is a byte that is not UTF-8 (\xHH). Nothing else changes.
std::string plainText(std::string_view s);

// LaTeX text (table cells, captions) under pdflatex: the ten special
// characters, < > | and " as text commands, control characters as a space (a
// blank line would end the paragraph), invalid UTF-8 as '?'. Other UTF-8 is
// kept (LaTeX reads UTF-8 by default).
std::string latexText(std::string_view s);

// The rest of a LaTeX comment line ("% alea report: <name>"): nothing ends a
// comment but the end of the line, so every control character becomes a
// space; invalid UTF-8 becomes '?'.
std::string latexComment(std::string_view s);

// Markdown inline text (headings, paragraphs, list items, table cells), as
// CommonMark, GitHub and Python-Markdown read it: \ ` * _ [ ] | # and a
// leading - + or "1." backslash-escaped; < > & $ ~ as character references
// (Python-Markdown has no backslash escape for them); control characters as
// a space.
std::string markdownText(std::string_view s);

// A complete Markdown code span (backticks included) showing `s` verbatim: a
// run of backticks longer than any inside it, padded with a space when `s`
// starts or ends with a backtick; control characters as a space.
std::string markdownCode(std::string_view s);

// HTML and SVG character data and attribute values (svg::escape: & < > " '
// as references, invalid UTF-8 as U+FFFD, control characters XML forbids
// left out).
std::string htmlText(std::string_view s);

// One CSV text cell: RFC 4180 quoted when needed (analysis::csvField), and
// written so that a spreadsheet does not evaluate it: a cell that begins with
// = + - @ TAB CR or ' gets a leading ', which spreadsheets take as "text" and
// hide. A program reading the CSV removes one leading ' from a text cell.
// Numbers are not text cells: -0.5 stays -0.5.
std::string csvText(std::string_view s);

} // namespace alea::report
