// ELF layout inspection: what alea recorded in a binary and where its functions
// ended up. readLayout() opens an executable, shared object or relocatable object
// with libelf and returns the `.note.alea` record (seed and factor set, checked
// for agreement across all notes the linker concatenated), the functions in
// address order and a 64-bit layout fingerprint; diffLayouts() compares two
// layouts (matched functions, rank moves, cache-line offset changes). Formatting
// as text and JSON lives here too so that `alea layout` is only option parsing.
// The formats are documented in docs/layout.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::linker {

// The note contract (common brief): section .note.alea, SHT_NOTE, name "alea",
// type 1, descriptor `alea-layout-v1 seed=0x<16 hex> factors=<list>`.
inline constexpr std::string_view NoteSectionName = ".note.alea";
inline constexpr std::string_view NoteName = "alea";
inline constexpr std::uint32_t NoteType = 1;
inline constexpr std::string_view NoteFormatTag = "alea-layout-v1";

// What the `.note.alea` notes of one file say.
struct AleaRecord {
  bool present = false;             // at least one note named "alea" of type 1
  bool valid = false;               // the first note parsed as alea-layout-v1
  std::uint64_t seed = 0;           // from the first note
  std::vector<std::string> factors; // from the first note, in note order
  std::string text;                 // descriptor text of the first note (NULs stripped)
  std::size_t noteCount = 0;        // notes named "alea" of type 1
  // Descriptors (distinct, in file order) that differ from the first note's.
  std::vector<std::string> disagreeing;
  bool consistent() const { return disagreeing.empty(); }
};

// Parses one descriptor text; nullopt unless it is a well-formed alea-layout-v1
// record (`seed=0x` followed by exactly 16 hex digits, `factors=` a comma list,
// possibly empty).
struct ParsedNote {
  std::uint64_t seed = 0;
  std::vector<std::string> factors;
};
std::optional<ParsedNote> parseNoteText(std::string_view text);

// One defined function (STT_FUNC or STT_GNU_IFUNC, nonzero size, in an
// executable section). Aliases (same section and address) are folded into one
// entry named after the preferred alias (global over local, then by name).
struct Function {
  std::string name;
  std::uint64_t address = 0; // st_value: virtual address, or section offset in .o
  std::uint64_t size = 0;
  std::string section;
  bool local = false; // STB_LOCAL binding (names may be randomized by alea)
  // A never-called padding function of the code-padding factor (local, named
  // PaddingPrefix...): part of the layout, but not matched by diffLayouts.
  bool padding = false;
};

inline constexpr std::string_view PaddingPrefix = "__alea_pad_";

struct Layout {
  std::string path;
  std::string fileType;    // "executable", "shared object", "relocatable", ...
  bool fromDynsym = false; // no .symtab (stripped): functions from .dynsym
  AleaRecord record;
  std::vector<Function> functions; // sorted by (section index, address)
  std::uint64_t fingerprint = 0;
};

// Reads `path`; on failure returns nullopt and sets `error` to one line
// (missing file, not an ELF file, malformed ELF).
std::optional<Layout> readLayout(const std::string &path, std::string &error);

// Layout fingerprint (docs/layout.md): FNV-1a 64 over, for each function in
// order, the little-endian 64-bit (address - base, size) where base is the
// start of the 4 KiB page holding the first function. Names do not enter it, so
// randomized local names alone do not change it; order, padding and sizes do.
std::uint64_t fingerprint(const std::vector<Function> &functions);

// "0x" is not included: 16 lower-case hex digits.
std::string hex16(std::uint64_t value);

// How two layouts differ. Functions are matched by name (unique names, then
// name+size among duplicated names); remaining local functions are matched by
// size when that size is unique among the unmatched locals of both sides, and
// otherwise reported as unmatched locals. alea's padding functions are
// counted apart and never matched (their names are reused across seeds).
struct MatchedFunction {
  std::size_t indexA = 0, indexB = 0; // into Layout::functions
  std::size_t rankA = 0, rankB = 0;   // rank among matched functions
  bool byName = true;                 // false: paired by unique size
};

struct LayoutDiff {
  std::vector<MatchedFunction> pairs; // in A's order
  std::uint64_t fingerprintA = 0, fingerprintB = 0;
  std::size_t functionsA = 0, functionsB = 0; // including padding functions
  std::size_t paddingA = 0, paddingB = 0;
  std::size_t matchedByName = 0, matchedBySize = 0;
  std::size_t unmatchedLocalA = 0, unmatchedLocalB = 0;
  std::vector<std::string> onlyInA, onlyInB; // unmatched global functions
  std::size_t moved = 0;                     // matched functions whose rank (among matched) changed
  std::size_t addressChanged = 0;            // matched functions whose address changed
  std::size_t sizeChanged = 0;
  std::size_t lineOffsetChanged = 0; // address mod 64 differs
  // histogram of (addrB mod 64 - addrA mod 64) mod 64 over matched functions
  std::array<std::size_t, 64> lineOffsetDelta{};
  std::size_t matched() const { return matchedByName + matchedBySize; }
  bool sameLayout() const { return fingerprintA == fingerprintB; }
};

LayoutDiff diffLayouts(const Layout &a, const Layout &b);

// Renderings used by `alea layout` (docs/layout.md shows them).
std::string formatLayout(const Layout &layout);
std::string layoutToJson(const Layout &layout);
std::string formatDiff(const Layout &a, const Layout &b, const LayoutDiff &diff);
std::string diffToJson(const Layout &a, const Layout &b, const LayoutDiff &diff);
// One line per matched function: ranks, addresses, cache-line offsets, names.
std::string formatDiffFunctions(const Layout &a, const Layout &b, const LayoutDiff &diff);

} // namespace alea::linker
