// Reading a JSON document (hyperfine's export for `alea import`, Google
// Benchmark's output for the "json" measurement source) with nlohmann-json,
// the project's one JSON library, and saying where it stopped being JSON in
// the runner's words: "malformed JSON at byte N: <nlohmann's reason>", N being
// the 0-based offset of the byte it stopped at (the end of the text for a
// truncated document). A UTF-8 byte order mark at the start is skipped by
// nlohmann and counted in N, as the file's bytes are.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace alea::runner {

struct JsonDocument {
  nlohmann::json value;
  std::string error; // "" when the text was one JSON value
  bool ok() const { return error.empty(); }
};

inline JsonDocument parseJsonDocument(std::string_view text) {
  JsonDocument doc;
  try {
    doc.value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error &e) {
    // e.byte is 1-based and names the last byte read, i.e. the offending one
    // (one past the text at its end); what() is "[json.exception...] parse
    // error at line L, column C: <reason>", of which the reason is kept.
    std::string_view what = e.what();
    if (auto at = what.find(": "); at != std::string_view::npos)
      what.remove_prefix(at + 2);
    doc.error = "malformed JSON at byte " + std::to_string(e.byte > 0 ? e.byte - 1 : 0) + ": " +
                std::string(what);
  } catch (const nlohmann::json::exception &e) {
    // A number beyond double's range, the one error that is not positional.
    std::string_view what = e.what();
    if (auto at = what.find("] "); at != std::string_view::npos)
      what.remove_prefix(at + 2);
    doc.error = "malformed JSON: " + std::string(what);
  }
  return doc;
}

} // namespace alea::runner
