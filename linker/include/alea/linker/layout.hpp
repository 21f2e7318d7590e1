// ELF layout inspection: what alea recorded in a binary and where its functions
// ended up. readLayout() opens an executable, shared object or relocatable object
// with libelf and returns the `.note.alea` records - the compile-time notes of
// the plugin (seed and factor set, checked for agreement across all notes the
// linker concatenated) and the link record of the wrapper (seed and the
// link-time factors the link applied) - the functions in address order with the
// gap before each, and a 64-bit layout fingerprint (of the functions, or of the
// code bytes of a stripped file); diffLayouts() compares two layouts (matched
// functions, rank moves, cache-line offset and gap changes).
// Formatting as text and JSON lives here too so that `alea layout` is only
// option parsing. The formats are documented in docs/layout.md; the notes
// themselves (section, owner, types, descriptors) in alea/contract.hpp.
#pragma once

#include "alea/enum_names.hpp"
#include "alea/expected.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::linker {

// Parses one descriptor text; nullopt unless it is a well-formed alea-layout-v1
// record (`seed=0x` followed by exactly 16 hex digits, `factors=` a comma list,
// possibly empty).
struct ParsedNote {
  std::uint64_t seed = 0;
  std::vector<std::string> factors; // in note order
};
std::optional<ParsedNote> parseNoteText(std::string_view text);

// Parses an alea-link-v1 descriptor (`skipped=` and `odr=` are optional, in
// that order); nullopt unless well formed.
struct ParsedLinkNote {
  std::uint64_t seed = 0;
  std::vector<std::string> factors; // applied at link time: link-order, section-order, lto-link
  std::vector<std::string> skipped; // on, but not applied by that link
  // The ODR check's findings (odr=): symbols defined differently by several
  // inputs, and the first of their mangled names (alea/linker/odr.hpp).
  std::size_t odrCount = 0;
  std::vector<std::string> odrSymbols;
};
std::optional<ParsedLinkNote> parseLinkNoteText(std::string_view text);

// What the compile-time (type 1) `.note.alea` notes of one file say: the first
// note's fields (ParsedNote, when `valid`).
struct AleaRecord : ParsedNote {
  bool present = false;      // at least one note named "alea" of type 1
  bool valid = false;        // the first note parsed as alea-layout-v1
  std::string text;          // descriptor text of the first note (NULs stripped)
  std::size_t noteCount = 0; // notes named "alea" of type 1
  // Descriptors (distinct, in file order) that differ from the first note's.
  std::vector<std::string> disagreeing;
  bool consistent() const { return disagreeing.empty(); }
};

// What the link records (type 2) of one file say: the first record's fields
// (ParsedLinkNote, when `valid`). A program has one; an object from a partial
// link (-r) linked into it brings its own, listed as `others` (not a
// disagreement: each link records what it did).
struct LinkRecord : ParsedLinkNote {
  bool present = false;            // at least one note named "alea" of type 2
  bool valid = false;              // the first one parsed as alea-link-v1
  std::string text;                // descriptor text of the first record
  std::size_t recordCount = 0;     // notes named "alea" of type 2
  std::vector<std::string> others; // distinct descriptors other than the first
};

// One defined function (STT_FUNC or STT_GNU_IFUNC, nonzero size, in an
// executable section). Aliases (same section and address) are folded into one
// entry named after the preferred alias (global over local, then by name).
struct Function {
  std::string name;
  std::uint64_t address = 0; // st_value: virtual address, or section offset in .o
  std::uint64_t size = 0;
  std::string section;
  bool local = false; // STB_LOCAL binding (names may be randomized by alea)
  // Bytes between the end of the previous function of the same section (or
  // the section's start, for its first function) and this function's start:
  // alignment padding, and the int3/zero prefix bytes of the code-padding
  // factor, which sit right before the entry and belong to no symbol.
  std::uint64_t gap = 0;
};

// The executable sections of a file (SHF_EXECINSTR, with bytes in the file):
// what a fingerprint can go by when no symbol names the functions.
struct CodeSummary {
  std::size_t sections = 0;
  std::uint64_t bytes = 0; // their total size
  // FNV-1a 64 over, for each section in address order (index order in .o),
  // the little-endian 64-bit (address - base, size) and then its bytes, where
  // base is the start of the 4 KiB page holding the first section.
  std::uint64_t fingerprint = 0;
};

// What a layout fingerprint was computed from (docs/layout.md, "The
// fingerprint"). The function addresses and sizes when the static symbol
// table lists functions; otherwise (a stripped file, or code without function
// symbols) the code bytes, since an empty function list would make every such
// file look alike; nothing when the file has no code either. Each has a name
// (the JSON spelling) and a phrase (the text output's, basisName).
#define ALEA_FINGERPRINT_BASES(X)                                                                  \
  X(Functions, "functions", "the function addresses and sizes")                                    \
  X(Code, "code", "the code bytes")                                                                \
  X(Nothing, "nothing", "nothing")
enum class FingerprintBasis { ALEA_FINGERPRINT_BASES(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(FingerprintBasis, ALEA_FINGERPRINT_BASES);

struct Layout {
  std::string path;
  std::string fileType;            // "executable", "shared object", "relocatable", ...
  bool stripped = false;           // no static symbol table (.symtab)
  bool fromDynsym = false;         // stripped: functions from .dynsym
  AleaRecord record;               // compile-time notes
  LinkRecord link;                 // link records
  std::vector<Function> functions; // sorted by (section index, address)
  CodeSummary code;
  FingerprintBasis basis = FingerprintBasis::Nothing;
  // Of the functions or of the code (per `basis`); FNV-1a of nothing
  // (cbf29ce484222325) with basis Nothing, which no caller may take as a layout.
  std::uint64_t fingerprint = 0;
  // Randomized by alea: a readable compile-time note or link record.
  bool randomized() const {
    return (record.present && record.valid) || (link.present && link.valid);
  }
  // The build seed: the compile-time notes' seed, else the link record's.
  std::optional<std::uint64_t> seed() const;
};

// Reads `path`; on failure the error is one line (missing file, not a regular
// file, not an ELF file, a truncated or corrupt ELF: a header table, a section
// or a `.note.alea` note running past the end of the file or of its section).
// A FIFO, device or directory is refused before it is opened for reading, so
// the call never blocks.
Expected<Layout> readLayout(const std::string &path);

// Layout fingerprint (docs/layout.md): FNV-1a 64 over, for each function in
// order, the little-endian 64-bit (address - base, size) where base is the
// start of the 4 KiB page holding the first function. Names do not enter it, so
// randomized local names alone do not change it; order, gaps and sizes do.
std::uint64_t fingerprint(const std::vector<Function> &functions);

// "the function addresses and sizes", "the code bytes", "nothing": what a
// fingerprint or a diff went by, as the text output names it.
std::string basisName(FingerprintBasis basis);

// A symbol name demangled (Itanium C++, Rust, D, MS) by LLVM's demangler; the
// name itself when it is not mangled.
std::string demangleSymbol(std::string_view name);

// "0x" is not included: 16 lower-case hex digits.
std::string hex16(std::uint64_t value);

// How two layouts differ. Functions are matched by name (unique names, then
// name+size among duplicated names); remaining local functions are matched by
// size when that size is unique among the unmatched locals of both sides, and
// otherwise reported as unmatched locals.
struct MatchedFunction {
  std::size_t indexA = 0, indexB = 0; // into Layout::functions
  std::size_t rankA = 0, rankB = 0;   // rank among matched functions
  bool byName = true;                 // false: paired by unique size
};

struct LayoutDiff {
  std::vector<MatchedFunction> pairs; // in A's order
  std::uint64_t fingerprintA = 0, fingerprintB = 0;
  // What decides identical/different: the function fingerprints when both
  // sides have them; else the code fingerprints when both sides have code
  // (a stripped file compared with itself or with its unstripped original);
  // else nothing, and the layouts are neither identical nor different.
  FingerprintBasis compared = FingerprintBasis::Nothing;
  bool same = false; // meaningful unless compared is Nothing
  std::size_t functionsA = 0, functionsB = 0;
  std::size_t matchedByName = 0, matchedBySize = 0;
  std::size_t unmatchedLocalA = 0, unmatchedLocalB = 0;
  std::vector<std::string> onlyInA, onlyInB; // unmatched global functions
  std::size_t moved = 0;                     // matched functions whose rank (among matched) changed
  std::size_t addressChanged = 0;            // matched functions whose address changed
  std::size_t sizeChanged = 0;
  std::size_t lineOffsetChanged = 0; // address mod 64 differs
  // histogram of (addrB mod 64 - addrA mod 64) mod 64 over matched functions
  std::array<std::size_t, 64> lineOffsetDelta{};
  std::size_t gapChanged = 0;                 // matched functions whose gap differs
  std::uint64_t gapBytesA = 0, gapBytesB = 0; // sum of the gaps of all functions
  std::size_t matched() const { return matchedByName + matchedBySize; }
  bool sameLayout() const { return compared != FingerprintBasis::Nothing && same; }
};

LayoutDiff diffLayouts(const Layout &a, const Layout &b);

// Renderings used by `alea layout` (docs/layout.md shows them).
std::string formatLayout(const Layout &layout);
std::string layoutToJson(const Layout &layout);
std::string formatDiff(const Layout &a, const Layout &b, const LayoutDiff &diff);
std::string diffToJson(const Layout &a, const Layout &b, const LayoutDiff &diff);
// One line per matched function: ranks, addresses, cache-line offsets, gaps, names.
std::string formatDiffFunctions(const Layout &a, const Layout &b, const LayoutDiff &diff);

} // namespace alea::linker
