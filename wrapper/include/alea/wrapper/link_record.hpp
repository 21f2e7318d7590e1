// The link record: a tiny ELF relocatable object that the wrapper writes itself
// (no assembler, no compiler run) and adds to every seeded link that has an ELF
// input and no layout of its own (linker script, output format), so that each
// executable, shared object or partial link says which seed and which link-time
// factors produced it, also when its objects were not compiled by alea
// (docs/layout.md "The link record", docs/wrapper.md "The link record").
//
// The object holds one ELF note in `.note.alea` (SHT_NOTE, SHF_ALLOC, align 4):
// owner "alea", type 2, descriptor
//     alea-link-v1 seed=0x<16 hex> factors=<applied>[ skipped=<not applied>]
// next to the compile-time notes of the plugin (type 1, alea-layout-v1; both
// notes are defined in alea/contract.hpp). It also carries an empty
// `.note.GNU-stack` (without it GNU ld and gold would make the stack
// executable) and, on x86 and AArch64, a `.note.gnu.property` that claims every
// AND-feature (IBT, SHSTK, BTI, PAC...), which is true of an object without code
// and leaves the features of the output exactly what the other inputs give.
// Everything here is pure: bytes in, bytes out.
#pragma once

#include "alea/contract.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::wrapper {

// What an input object must agree on with the rest of a link: the linker
// rejects another class, byte order or machine, and merges e_flags (RISC-V
// float ABI, ARM EABI version...). Taken from the link's first ELF input.
struct ElfTarget {
  std::uint8_t elfClass = 0; // ELFCLASS32 = 1, ELFCLASS64 = 2
  std::uint8_t data = 0;     // ELFDATA2LSB = 1, ELFDATA2MSB = 2
  std::uint8_t osabi = 0;    // EI_OSABI
  std::uint16_t machine = 0; // e_machine
  std::uint32_t flags = 0;   // e_flags
  bool operator==(const ElfTarget &) const = default;
};

// What the first bytes of a link input are.
enum class InputKind {
  Other,          // text (a linker script such as libc.so), unknown
  ElfRelocatable, // ET_REL
  ElfShared,      // ET_DYN
  ElfOther,       // ET_EXEC, ET_CORE...
  Bitcode,        // LLVM bitcode (raw or wrapped): the link runs LTO
  Archive,        // "!<arch>\n"
  ThinArchive,    // "!<thin>\n" (members are other files)
};

// Classifies `bytes` (the start of a file; 64 bytes suffice). For ELF files
// `target` receives class, byte order, OS ABI, machine and flags.
InputKind inspectInput(std::string_view bytes, ElfTarget *target = nullptr);

// Up to `n` bytes of one file at `offset` (fewer at its end; nothing past it).
using ByteReader = std::function<std::optional<std::string>(std::uint64_t offset, std::size_t n)>;

// Where the data of the first real member of a (non-thin) ar archive starts:
// the symbol and name tables ("/", "//", "/SYM64/", "__.SYMDEF*") are skipped,
// and a BSD long name ("#1/<n>") is stepped over. `readAt` reads the archive.
std::optional<std::uint64_t> firstArchiveMember(const ByteReader &readAt, int maxMembers = 4);

// Calls visit(offset of the member's data) for every real member of a
// (non-thin) ar archive in order, tables skipped as above, until visit
// returns false. Returns false if the archive is malformed.
bool forEachArchiveMember(const ByteReader &readAt,
                          const std::function<bool(std::uint64_t)> &visit);

// The member paths of a GNU thin archive ("!<thin>\n"), as the archive
// names them: relative to the archive's own directory unless absolute.
// Nothing if the archive is malformed or has more than `maxMembers` members.
std::optional<std::vector<std::string>> thinArchiveMembers(const ByteReader &readAt,
                                                           std::size_t maxMembers = 65536);

// What an ELF relocatable object says about the stack. GNU ld makes the
// output's stack executable when an input object has no .note.GNU-stack
// (binutils 2.40 warns: "missing .note.GNU-stack section implies executable
// stack") or one with SHF_EXECINSTR; lld ignores the note and never does.
enum class StackNote {
  Present,    // .note.GNU-stack, not executable
  Missing,    // no .note.GNU-stack
  Executable, // .note.GNU-stack with SHF_EXECINSTR
  Unknown,    // not an ELF relocatable object, or its sections cannot be read
};

// Reads the section headers and their names (`readAt` reads the object,
// which may be an archive member: offsets are relative to its start).
StackNote stackNoteOf(const ByteReader &readAt);

// The descriptor text, factors in the order given.
std::string linkNoteText(std::uint64_t seed, const std::vector<std::string> &factors,
                         const std::vector<std::string> &skipped);

// The complete relocatable object (ELFCLASS32 or 64, either byte order).
std::string writeLinkRecordObject(const ElfTarget &target, std::string_view descriptor);

} // namespace alea::wrapper
