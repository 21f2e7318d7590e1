// The link-time ODR check: finds symbols that several inputs of one link define
// as weak or COMDAT definitions (C++ inline functions, templates, inline
// variables, vtables; C `__attribute__((weak))`) whose contents differ between
// the inputs. The linker keeps one copy of such a symbol and drops the others
// without a word, and which copy it keeps depends on the link order, the very
// thing alea randomizes: a program with such a violation of the One
// Definition Rule behaves differently under different seeds (fmtlib's tests
// looped forever for some seeds because a copy of `bigint::divmod_assign`
// compiled without assertions won the link). The wrapper runs this check on
// every seeded link and records the findings in the link record (`odr=`,
// alea/contract.hpp), the log and the campaign's warnings (docs/wrapper.md,
// "ODR check").
//
// Two definitions compare equal when the symbol's bytes (st_value ..
// st_value + st_size of its section: code padding that alea's plugin puts
// before a function's entry is not part of it) are equal with relocated
// fields masked, and their relocations agree in type, offset and addend and
// in what they point to: a global symbol by name; a local symbol, a section
// symbol, a string literal or a constant by the bytes it points to, so that
// neither alea's random local names (`__alea_...`) nor the numbering of
// `.L.str.N` in each object make a difference. Only the definitions of
// symbols defined at least twice are compared; a symbol that also has a
// strong (non-weak, non-COMDAT) definition is not reported, since that one
// wins in any order.
#pragma once

#include "alea/expected.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::linker {

// One symbol whose definitions differ: the objects holding each variant
// ("dir/a.o", or "lib.a(member.o)" for an archive member), variants in the
// order of their first object on the command line.
struct OdrFinding {
  std::string symbol;   // as in the symbol table (mangled)
  bool function = true; // STT_FUNC / STT_GNU_IFUNC, else an object (variable, vtable...)
  std::vector<std::vector<std::string>> variants;
};

struct OdrReport {
  std::vector<OdrFinding> findings; // sorted by symbol name
  std::size_t objects = 0;          // ELF relocatable objects read (members included)
  std::size_t compared = 0;         // symbols defined more than once, compared
  // Inputs looked at but not checked, with why (bitcode of an LTO link, a
  // thin archive, a shared library...): the check covers the rest.
  std::vector<std::string> unchecked;
};

// Checks the link inputs named in `paths` (in command-line order): ELF
// relocatable objects, and the members of ar archives that the link would
// extract (members that define a symbol some object or extracted member
// leaves undefined, to a fixed point; a member that nothing references is not
// part of the link). Other inputs (shared libraries, bitcode, linker
// scripts) are listed in `unchecked`. On an input that cannot be read or is
// not well formed, returns the error (the check never fails a link: the
// caller goes on without it).
//
// `method` says how definitions are compared, not what is reported: Fast (the
// default) first compares cheap fingerprints of each definition (a hash of its
// masked bytes and of its relocations' summary) and builds the detailed forms
// only for the names whose fingerprints differ; Detailed builds the detailed
// form of every definition. Both give the same report (the tests check it).
enum class OdrMethod { Fast, Detailed };
Expected<OdrReport> checkOdr(const std::vector<std::string> &paths,
                             OdrMethod method = OdrMethod::Fast);

// The record field ` odr=<count>:<name>,<name>...` (alea/contract.hpp
// kNoteOdrKey): the count of findings and the first mangled names that fit
// (at most kOdrRecordNames names, kOdrRecordChars characters in all); "" for
// a report without findings.
inline constexpr std::size_t kOdrRecordNames = 3;
inline constexpr std::size_t kOdrRecordChars = 256;
std::string odrRecordField(const OdrReport &report);

// One line for the wrapper's log: each finding demangled with the objects of
// each variant, e.g. `answer() (a.o | b.o)`; at most `limit` findings, then
// "and N more".
std::string describeOdrFindings(const OdrReport &report, std::size_t limit = 10);

} // namespace alea::linker
