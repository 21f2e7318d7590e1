// The target of an LLVM bitcode file, for the link record of a link whose
// inputs are all bitcode (CMake's CMAKE_INTERPROCEDURAL_OPTIMIZATION and
// meson's b_lto compile every object with -flto): no ELF input says which
// class and machine the record object must have, but the bitcode does, in the
// target triple of its symbol table (llvm/Object/IRSymtab.h), which lld reads
// too. The wrapper links nothing of LLVM, so this is a reader of just enough
// of the bitstream container (LLVM's "LLVM Bitcode File Format" document:
// top-level blocks, abbreviations, blobs) to find the SYMTAB and STRTAB
// blobs. Anything unexpected gives no answer, and the link simply gets no
// record, as before. Pure: bytes come in through a ByteReader.
#pragma once

#include "alea/wrapper/link_record.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace alea::wrapper {

// The target triple recorded in a bitcode file's symbol table ("x86_64-pc-
// linux-gnu"), or nothing: no symbol table (bitcode older than LLVM 5, or
// written for a target the producer did not have), another symbol table
// version, or bytes that are not bitcode. Raw bitcode and the 0x0B17C0DE
// wrapper are read; for a multi-module file, the first module's triple.
std::optional<std::string> bitcodeTriple(const ByteReader &readAt);

// The ELF object a link for `triple` accepts, for the triples whose class,
// byte order, OS ABI, machine and flags the triple alone fixes: x86-64
// (x32 too), i386-i686 and AArch64 (either byte order, not ILP32) on Linux
// or bare metal. Nothing for the rest (RISC-V and ARM take e_flags from the
// ABI options, other systems an OS ABI of their own).
std::optional<ElfTarget> elfTargetOfTriple(std::string_view triple);

} // namespace alea::wrapper
