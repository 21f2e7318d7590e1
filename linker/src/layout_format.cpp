// Text and JSON renderings of a layout and of a layout diff, as printed by
// `alea layout` (docs/layout.md). Kept in the library so tests can pin them and
// the CLI file stays option parsing only. JSON is written with nlohmann-json
// (compact, keys in a fixed order).
#include "alea/linker/layout.hpp"

#include "alea/contract.hpp"

#include <llvm/Demangle/Demangle.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace alea::linker {

namespace {

using Json = nlohmann::ordered_json;

// Names and notes are bytes from an ELF file: invalid UTF-8 is replaced, not
// an error.
std::string dumped(const Json &j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string joined(const std::vector<std::string> &items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? std::string(sep) : std::string()) + items[i];
  return out;
}

std::string percent(std::size_t part, std::size_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return buf;
}

// The seed as `alea layout` shows it: the compile-time notes', else the link
// record's; "none" when alea recorded nothing.
std::string seedText(const Layout &l) {
  const AleaRecord &r = l.record;
  if (r.present && !r.valid)
    return "unreadable note: \"" + r.text + "\"";
  if (auto seed = l.seed())
    return formatSeed(*seed);
  if (l.link.present)
    return "unreadable link record: \"" + l.link.text + "\"";
  return "none (not randomized by alea)";
}

// The `link:` line: the link-time factors, what was not applied, and a seed
// that is not the compile-time one.
std::string linkText(const Layout &l) {
  const LinkRecord &k = l.link;
  if (!k.present)
    return "none (no link record)";
  if (!k.valid)
    return "unreadable record: \"" + k.text + "\"";
  std::string out = k.factors.empty() ? "(none)" : joined(k.factors, ",");
  std::vector<std::string> remarks;
  if (!k.skipped.empty())
    remarks.push_back("not applied: " + joined(k.skipped, ","));
  if (l.record.present && l.record.valid && k.seed != l.record.seed)
    remarks.push_back("seed " + formatSeed(k.seed) + ", not the compile-time seed");
  if (k.recordCount > 1) // a partial link (-r) linked in brings its own
    remarks.push_back(std::to_string(k.recordCount) + " link records");
  if (!remarks.empty())
    out += " (" + joined(remarks, "; ") + ")";
  return out;
}

Json linkJson(const LinkRecord &k) {
  if (!k.present)
    return nullptr;
  Json o = Json::object();
  o["valid"] = k.valid;
  if (k.valid) {
    o["seed"] = formatSeed(k.seed);
    o["factors"] = k.factors;
    o["skipped"] = k.skipped;
  }
  o["note"] = k.text;
  o["records"] = k.recordCount;
  o["others"] = k.others;
  if (k.odrCount > 0) { // only then: records without findings read as before
    Json odr = Json::object();
    odr["count"] = k.odrCount;
    odr["symbols"] = k.odrSymbols;
    std::vector<std::string> demangled;
    for (const auto &name : k.odrSymbols)
      demangled.push_back(demangleSymbol(name));
    odr["demangled"] = demangled;
    o["odr"] = odr;
  }
  return o;
}

// "alea": compile-time notes (as before) plus "link", the link record.
Json recordJson(const Layout &l) {
  const AleaRecord &r = l.record;
  Json o = Json::object();
  o["randomized"] = l.randomized();
  if (auto seed = l.seed()) {
    o["seed"] = formatSeed(*seed);
    o["factors"] = r.present && r.valid ? r.factors : std::vector<std::string>{};
  }
  if (r.present)
    o["note"] = r.text;
  o["notes"] = r.noteCount;
  o["consistent"] = r.consistent();
  o["disagreeing"] = r.disagreeing;
  o["link"] = linkJson(l.link);
  return o;
}

// "seed <compile-time>  link <link record>" for a --diff header line.
std::string diffSeeds(const Layout &l) {
  if (!l.record.present && !l.link.present)
    return "seed none (not randomized by alea)";
  std::string out = "seed ";
  if (!l.record.present)
    out += "none";
  else if (!l.record.valid)
    out += "unreadable";
  else
    out += formatSeed(l.record.seed);
  out += "  link ";
  if (!l.link.present)
    out += "none";
  else if (!l.link.valid)
    out += "unreadable";
  else
    out += formatSeed(l.link.seed);
  return out;
}

// "functions", "code", "nothing": the JSON spelling of a basis.
const char *basisKey(FingerprintBasis basis) { return enumName(basis); }

// Why a file's fingerprint is not of its functions.
std::string noFunctionsReason(const Layout &l) {
  return l.stripped ? "stripped" : "no function symbols";
}

// "2 executable sections, 1234 bytes".
std::string codeText(const CodeSummary &c) {
  return std::to_string(c.sections) + " executable section" + (c.sections == 1 ? "" : "s") + ", " +
         std::to_string(c.bytes) + " byte" + (c.bytes == 1 ? "" : "s");
}

// The `fingerprint:` value of `alea layout`, with what it was computed from
// unless it is the usual function fingerprint.
std::string fingerprintText(const Layout &l) {
  switch (l.basis) {
  case FingerprintBasis::Functions:
    return hex16(l.fingerprint);
  case FingerprintBasis::Code:
    return hex16(l.fingerprint) + " (of the code bytes: " + noFunctionsReason(l) + "; " +
           codeText(l.code) + ")";
  case FingerprintBasis::Nothing:
    break;
  }
  return "none (no function symbols and no code)";
}

// The fingerprint on an `A:`/`B:` line of --diff.
std::string diffFingerprint(const Layout &l) {
  switch (l.basis) {
  case FingerprintBasis::Functions:
    return hex16(l.fingerprint);
  case FingerprintBasis::Code:
    return hex16(l.fingerprint) + " (code bytes)";
  case FingerprintBasis::Nothing:
    break;
  }
  return "none";
}

// "A and B are stripped", "B has no function symbols; A is stripped": the
// sides whose layout is not told by function symbols.
std::string sidesWithoutFunctions(const Layout &a, const Layout &b) {
  const bool na = a.basis != FingerprintBasis::Functions;
  const bool nb = b.basis != FingerprintBasis::Functions;
  if (na && nb && a.stripped == b.stripped)
    return std::string("A and B ") + (a.stripped ? "are stripped" : "have no function symbols");
  std::vector<std::string> parts;
  const auto side = [&parts](const char *name, const Layout &l) {
    parts.push_back(std::string(name) + (l.stripped ? " is stripped" : " has no function symbols"));
  };
  if (na)
    side("A", a);
  if (nb)
    side("B", b);
  return joined(parts, "; ");
}

// The `layouts:` value of --diff: the verdict and what it went by.
std::string verdictText(const Layout &a, const Layout &b, const LayoutDiff &d) {
  if (d.compared == FingerprintBasis::Nothing) {
    std::vector<std::string> empty;
    if (a.code.sections == 0)
      empty.push_back("A");
    if (b.code.sections == 0)
      empty.push_back("B");
    return "not compared: " + joined(empty, " and ") + (empty.size() == 1 ? " has" : " have") +
           " no code";
  }
  std::string out =
      std::string(d.same ? "identical" : "different") + " (compared: " + basisName(d.compared);
  if (d.compared == FingerprintBasis::Code)
    out += "; " + sidesWithoutFunctions(a, b);
  return out + ")";
}

Json codeJson(const CodeSummary &c) {
  return {{"sections", c.sections}, {"bytes", c.bytes}, {"fingerprint", hex16(c.fingerprint)}};
}

// The fingerprint as JSON: null when there is none.
Json fingerprintJson(const Layout &l) {
  if (l.basis == FingerprintBasis::Nothing)
    return nullptr;
  return hex16(l.fingerprint);
}

} // namespace

std::string demangleSymbol(std::string_view name) { return llvm::demangle(name); }

std::string formatLayout(const Layout &l) {
  std::ostringstream os;
  const auto &r = l.record;
  os << "file:        " << l.path << " (" << l.fileType << ")\n";
  os << "seed:        " << seedText(l) << "\n";
  if (r.present && r.valid)
    os << "factors:     " << (r.factors.empty() ? "(none)" : joined(r.factors, ",")) << "\n";
  else if (!r.present && l.link.present)
    os << "factors:     none at compile time (no object was compiled by alea)\n";
  if (r.present) {
    os << "notes:       " << r.noteCount << " compile-time"
       << (r.consistent() ? " (all agree)" : " (DISAGREE)") << "\n";
    for (const auto &d : r.disagreeing)
      os << "  disagreeing note: " << d << "\n";
  }
  if (r.present || l.link.present) {
    os << "link:        " << linkText(l) << "\n";
    for (const auto &other : l.link.others)
      os << "  other link record: " << other << "\n";
  }
  if (l.link.valid && l.link.odrCount > 0) {
    // The ODR check of the link (docs/wrapper.md, "ODR check").
    const std::size_t n = l.link.odrCount;
    os << "odr:         " << n << (n == 1 ? " symbol is" : " symbols are")
       << " defined differently by the link's objects (an ODR violation: which copy the "
          "linker keeps depends on the link order)\n";
    for (const auto &name : l.link.odrSymbols)
      os << "  differs:   " << demangleSymbol(name) << "\n";
    if (l.link.odrSymbols.size() < n)
      os << "  (" << n - l.link.odrSymbols.size()
         << " more not named in the record; the wrapper's log names them all)\n";
  }
  os << "functions:   " << l.functions.size()
     << (l.fromDynsym ? " (from .dynsym: stripped)"
         : l.stripped ? " (stripped: no symbol table)"
                      : "")
     << "\n";
  os << "fingerprint: " << fingerprintText(l) << "\n";
  if (l.functions.empty())
    return os.str();
  os << "\n";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%6s  %-18s  %8s  %5s  ", "#", "address", "size", "gap");
  os << buf << "section / name\n";
  for (std::size_t i = 0; i < l.functions.size(); ++i) {
    const auto &f = l.functions[i];
    std::snprintf(buf, sizeof buf, "%6zu  0x%016llx  %8llu  %5llu  ", i,
                  static_cast<unsigned long long>(f.address),
                  static_cast<unsigned long long>(f.size), static_cast<unsigned long long>(f.gap));
    os << buf << f.section << "  " << f.name << (f.local ? " (local)" : "") << "\n";
  }
  return os.str();
}

std::string layoutToJson(const Layout &l) {
  Json o = Json::object();
  o["file"] = l.path;
  o["type"] = l.fileType;
  o["alea"] = recordJson(l);
  o["fingerprint"] = fingerprintJson(l);
  o["fingerprint_basis"] = basisKey(l.basis);
  o["stripped"] = l.stripped;
  o["code"] = codeJson(l.code);
  o["from_dynsym"] = l.fromDynsym;
  o["function_count"] = l.functions.size();
  Json functions = Json::array();
  for (const auto &f : l.functions)
    functions.push_back({{"name", f.name},
                         {"address", f.address},
                         {"size", f.size},
                         {"gap", f.gap},
                         {"section", f.section},
                         {"local", f.local}});
  o["functions"] = std::move(functions);
  return dumped(o) + "\n";
}

std::string formatDiff(const Layout &a, const Layout &b, const LayoutDiff &d) {
  std::ostringstream os;
  const std::size_t m = d.matched();
  os << "A: " << a.path << "  " << diffSeeds(a) << "  fingerprint " << diffFingerprint(a) << "\n";
  os << "B: " << b.path << "  " << diffSeeds(b) << "  fingerprint " << diffFingerprint(b) << "\n";
  os << "layouts:                   " << verdictText(a, b, d) << "\n";
  if (d.compared != FingerprintBasis::Functions)
    os << "code:                      A " << codeText(a.code) << "; B " << codeText(b.code) << "\n";
  os << "functions:                 A " << d.functionsA << ", B " << d.functionsB << "\n";
  os << "matched:                   " << m << " (" << d.matchedByName << " by name, "
     << d.matchedBySize << " by unique size)\n";
  os << "unmatched locals:          A " << d.unmatchedLocalA << ", B " << d.unmatchedLocalB << "\n";
  if (!d.onlyInA.empty())
    os << "only in A:                 " << d.onlyInA.size() << " (" << joined(d.onlyInA, ", ")
       << ")\n";
  if (!d.onlyInB.empty())
    os << "only in B:                 " << d.onlyInB.size() << " (" << joined(d.onlyInB, ", ")
       << ")\n";
  os << "moved (rank changed):      " << d.moved << " of " << m << " (" << percent(d.moved, m)
     << ")\n";
  os << "address changed:           " << d.addressChanged << " of " << m << " ("
     << percent(d.addressChanged, m) << ")\n";
  os << "cache-line offset changed: " << d.lineOffsetChanged << " of " << m << " ("
     << percent(d.lineOffsetChanged, m) << ")\n";
  os << "size changed:              " << d.sizeChanged << "\n";
  os << "gap changed:               " << d.gapChanged << " of " << m << " ("
     << percent(d.gapChanged, m) << ")\n";
  os << "gap bytes (all functions): A " << d.gapBytesA << ", B " << d.gapBytesB << "\n";
  os << "offset delta mod 64 (bytes: functions):";
  for (std::size_t bin = 0; bin < 8; ++bin) {
    std::size_t n = 0;
    for (std::size_t k = bin * 8; k < bin * 8 + 8; ++k)
      n += d.lineOffsetDelta[k];
    os << (bin ? "," : "") << " " << bin * 8 << "-" << bin * 8 + 7 << ": " << n;
  }
  os << "\n";
  return os.str();
}

std::string diffToJson(const Layout &a, const Layout &b, const LayoutDiff &d) {
  Json o = Json::object();
  const auto side = [](const Layout &l, std::size_t functions) {
    return Json{{"file", l.path},
                {"alea", recordJson(l)},
                {"fingerprint", fingerprintJson(l)},
                {"fingerprint_basis", basisKey(l.basis)},
                {"stripped", l.stripped},
                {"code", codeJson(l.code)},
                {"functions", functions}};
  };
  o["a"] = side(a, d.functionsA);
  o["b"] = side(b, d.functionsB);
  o["compared"] = basisKey(d.compared);
  // null: nothing to compare (a side without code).
  o["same_layout"] = d.compared == FingerprintBasis::Nothing ? Json(nullptr) : Json(d.same);
  o["matched"] = d.matched();
  o["matched_by_name"] = d.matchedByName;
  o["matched_by_size"] = d.matchedBySize;
  o["unmatched_local_a"] = d.unmatchedLocalA;
  o["unmatched_local_b"] = d.unmatchedLocalB;
  o["only_in_a"] = d.onlyInA;
  o["only_in_b"] = d.onlyInB;
  o["moved"] = d.moved;
  o["address_changed"] = d.addressChanged;
  o["size_changed"] = d.sizeChanged;
  o["line_offset_changed"] = d.lineOffsetChanged;
  o["gap_changed"] = d.gapChanged;
  o["gap_bytes_a"] = d.gapBytesA;
  o["gap_bytes_b"] = d.gapBytesB;
  o["line_offset_delta"] = Json::array();
  for (std::size_t k = 0; k < 64; ++k)
    o["line_offset_delta"].push_back(d.lineOffsetDelta[k]);
  Json pairs = Json::array();
  for (const auto &p : d.pairs) {
    const auto &x = a.functions[p.indexA];
    const auto &y = b.functions[p.indexB];
    pairs.push_back({{"name_a", x.name},
                     {"name_b", y.name},
                     {"by", p.byName ? "name" : "size"},
                     {"rank_a", p.rankA},
                     {"rank_b", p.rankB},
                     {"address_a", x.address},
                     {"address_b", y.address},
                     {"size_a", x.size},
                     {"size_b", y.size},
                     {"gap_a", x.gap},
                     {"gap_b", y.gap}});
  }
  o["pairs"] = std::move(pairs);
  return dumped(o) + "\n";
}

std::string formatDiffFunctions(const Layout &a, const Layout &b, const LayoutDiff &d) {
  std::ostringstream os;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%6s %6s  %-18s  %-18s  %5s %5s  %5s %5s  ", "rank A", "rank B",
                "address A", "address B", "mod64", "mod64", "gap A", "gap B");
  os << buf << "name (A / B)\n";
  for (const auto &p : d.pairs) {
    const auto &x = a.functions[p.indexA];
    const auto &y = b.functions[p.indexB];
    std::snprintf(buf, sizeof buf, "%6zu %6zu  0x%016llx  0x%016llx  %5llu %5llu  %5llu %5llu  ",
                  p.rankA, p.rankB, static_cast<unsigned long long>(x.address),
                  static_cast<unsigned long long>(y.address),
                  static_cast<unsigned long long>(x.address % 64),
                  static_cast<unsigned long long>(y.address % 64),
                  static_cast<unsigned long long>(x.gap), static_cast<unsigned long long>(y.gap));
    os << buf << x.name;
    if (x.name != y.name)
      os << " / " << y.name << (p.byName ? "" : " (by size)");
    os << "\n";
  }
  return os.str();
}

} // namespace alea::linker
