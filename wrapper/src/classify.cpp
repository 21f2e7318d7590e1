// The classifier of compiler and linker invocations (see classify.hpp). It walks
// the arguments once with a table of the options that matter, collects facts
// (stop phase, languages, inputs, link regions) and then applies the decision
// table of STYLE.md in a fixed order, most specific rule first. Options not in the
// table are forwarded verbatim and do not influence the decision. The table is
// clang's and flang-new's (flang-new-19 --help-hidden): flang's own options
// that take an argument are listed with them; -cpp, -nocpp, -ffree-form,
// -ffixed-form, -ffixed-line-length=N and the like change how a Fortran
// source reads, not what the command does, so they need no entry.
#include "alea/wrapper/classify.hpp"

#include "alea/wrapper/bitcode.hpp"

#include "alea/contract.hpp"

#include <algorithm>
#include <array>
#include <iterator>

namespace alea::wrapper {
namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool endsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// --- the option table of the compiler driver (clang, GCC-compatible) ------------

enum class Effect {
  None,
  Compile,      // -c
  Assemble,     // -S
  Preprocess,   // -E
  DepsOnly,     // -M, -MM
  DepsSide,     // -MD, -MMD
  SyntaxOnly,   // -fsyntax-only, -emit-ast
  Precompile,   // --precompile
  Hashes,       // -###
  Version,      // --version
  Query,        // -dumpversion, --help, -print-*
  Verbose,      // -v
  Language,     // -x
  Output,       // -o
  Library,      // -l
  LinkerArgs,   // -Wl,  (comma-separated linker words)
  LinkerArg,    // -Xlinker <word>
  FuseLd,       // -fuse-ld=
  LdPath,       // --ld-path=
  Lto,          // -flto, -flto=...
  NoLto,        // -fno-lto
  Cc1,          // -cc1, -cc1as
  DriverMode,   // --driver-mode=
  Target,       // -target, --target=
  LinkerScript, // -T <script>, -T<script> (clang's -Ttext... are -T with a joined value)
  Offload,      // -fopenmp-targets=, --offload-arch=: device compilations
  LinkerZ,      // -z <keyword> (clang passes it to the linker)
  Relocatable,  // -r
  EndOfOptions, // --
};

struct OptionSpec {
  std::string_view name;
  Effect effect;
  bool separate; // exact name takes the next argument as its value
};

// Exact option names. `separate` options also accept their value joined
// (-ofile, -Ifoo, -lm); that is handled by kJoined below for those that matter.
constexpr std::array kExact = {
    OptionSpec{"-c", Effect::Compile, false},
    OptionSpec{"-S", Effect::Assemble, false},
    OptionSpec{"-E", Effect::Preprocess, false},
    OptionSpec{"-M", Effect::DepsOnly, false},
    OptionSpec{"-MM", Effect::DepsOnly, false},
    OptionSpec{"-MD", Effect::DepsSide, false},
    OptionSpec{"-MMD", Effect::DepsSide, false},
    OptionSpec{"-fsyntax-only", Effect::SyntaxOnly, false},
    OptionSpec{"-emit-ast", Effect::SyntaxOnly, false},
    OptionSpec{"--precompile", Effect::Precompile, false},
    OptionSpec{"-###", Effect::Hashes, false},
    OptionSpec{"--version", Effect::Version, false},
    OptionSpec{"-dumpversion", Effect::Query, false},
    OptionSpec{"-dumpfullversion", Effect::Query, false},
    OptionSpec{"-dumpmachine", Effect::Query, false},
    OptionSpec{"-dumpspecs", Effect::Query, false},
    OptionSpec{"--help", Effect::Query, false},
    OptionSpec{"-help", Effect::Query, false},
    OptionSpec{"--help-hidden", Effect::Query, false},
    OptionSpec{"-v", Effect::Verbose, false},
    OptionSpec{"-flto", Effect::Lto, false},
    OptionSpec{"-fno-lto", Effect::NoLto, false},
    OptionSpec{"-cc1", Effect::Cc1, false},
    OptionSpec{"-cc1as", Effect::Cc1, false},
    OptionSpec{"-fc1", Effect::Cc1, false}, // flang's frontend job
    OptionSpec{"-r", Effect::Relocatable, false},
    OptionSpec{"--", Effect::EndOfOptions, false},
    // options whose value is the next argument
    OptionSpec{"-o", Effect::Output, true},
    OptionSpec{"-x", Effect::Language, true},
    OptionSpec{"-l", Effect::Library, true},
    OptionSpec{"-Xlinker", Effect::LinkerArg, true},
    OptionSpec{"-I", Effect::None, true},
    OptionSpec{"-D", Effect::None, true},
    OptionSpec{"-U", Effect::None, true},
    OptionSpec{"-L", Effect::None, true},
    OptionSpec{"-F", Effect::None, true},
    OptionSpec{"-B", Effect::None, true},
    OptionSpec{"-T", Effect::LinkerScript, true},
    OptionSpec{"-u", Effect::None, true},
    OptionSpec{"-e", Effect::None, true},
    OptionSpec{"-z", Effect::LinkerZ, true},
    OptionSpec{"-G", Effect::None, true},
    OptionSpec{"-MF", Effect::None, true},
    OptionSpec{"-MT", Effect::None, true},
    OptionSpec{"-MQ", Effect::None, true},
    OptionSpec{"-MJ", Effect::None, true},
    OptionSpec{"-include", Effect::None, true},
    OptionSpec{"-include-pch", Effect::None, true},
    OptionSpec{"-imacros", Effect::None, true},
    OptionSpec{"-isystem", Effect::None, true},
    OptionSpec{"-isystem-after", Effect::None, true},
    OptionSpec{"-iquote", Effect::None, true},
    OptionSpec{"-idirafter", Effect::None, true},
    OptionSpec{"-iprefix", Effect::None, true},
    OptionSpec{"-iwithprefix", Effect::None, true},
    OptionSpec{"-iwithprefixbefore", Effect::None, true},
    OptionSpec{"-iframework", Effect::None, true},
    OptionSpec{"-isysroot", Effect::None, true},
    OptionSpec{"-ivfsoverlay", Effect::None, true},
    OptionSpec{"--sysroot", Effect::None, true},
    OptionSpec{"-Xclang", Effect::None, true},
    OptionSpec{"-Xassembler", Effect::None, true},
    OptionSpec{"-Xpreprocessor", Effect::None, true},
    OptionSpec{"-Xanalyzer", Effect::None, true},
    OptionSpec{"-Xopenmp-target", Effect::None, true},
    OptionSpec{"-Xcuda-fatbinary", Effect::None, true},
    OptionSpec{"-Xcuda-ptxas", Effect::None, true},
    OptionSpec{"-Xflang", Effect::None, true},
    // flang: module files (-J is gfortran's spelling of -module-dir), MLIR options
    OptionSpec{"-J", Effect::None, true},
    OptionSpec{"-module-dir", Effect::None, true},
    OptionSpec{"-fintrinsic-modules-path", Effect::None, true},
    OptionSpec{"-mmlir", Effect::None, true},
    OptionSpec{"-mllvm", Effect::None, true},
    OptionSpec{"-target", Effect::Target, true},
    OptionSpec{"--target", Effect::Target, true},
    OptionSpec{"-arch", Effect::None, true},
    OptionSpec{"-rpath", Effect::None, true},
    OptionSpec{"-framework", Effect::None, true},
    OptionSpec{"-working-directory", Effect::None, true},
    OptionSpec{"-resource-dir", Effect::None, true},
    OptionSpec{"--gcc-toolchain", Effect::None, true},
    OptionSpec{"-serialize-diagnostics", Effect::None, true},
    OptionSpec{"--serialize-diagnostics", Effect::None, true},
    OptionSpec{"-cxx-isystem", Effect::None, true},
    OptionSpec{"-index-store-path", Effect::None, true},
    OptionSpec{"-module-dependency-dir", Effect::None, true},
    OptionSpec{"-dumpdir", Effect::None, true},
    OptionSpec{"-dumpbase", Effect::None, true},
    OptionSpec{"-dumpbase-ext", Effect::None, true},
    OptionSpec{"--param", Effect::None, true},
    OptionSpec{"-aux-info", Effect::None, true},
    OptionSpec{"-install_name", Effect::None, true},
    OptionSpec{"-exported_symbols_list", Effect::None, true},
    OptionSpec{"-filelist", Effect::None, true},
};

// Options recognized by prefix (value joined to the name).
constexpr std::array kJoined = {
    OptionSpec{"-flto=", Effect::Lto, false},
    OptionSpec{"-fuse-ld=", Effect::FuseLd, false},
    OptionSpec{"--ld-path=", Effect::LdPath, false},
    OptionSpec{"-Wl,", Effect::LinkerArgs, false},
    OptionSpec{"-print-", Effect::Query, false},
    OptionSpec{"--print-", Effect::Query, false},
    OptionSpec{"--driver-mode=", Effect::DriverMode, false},
    OptionSpec{"--target=", Effect::Target, false},
    OptionSpec{"-T", Effect::LinkerScript, false}, // -Tlink.ld; also -Ttext=... (= -T text=...)
    OptionSpec{"-fopenmp-targets=", Effect::Offload, false},
    OptionSpec{"--offload-arch=", Effect::Offload, false},
    OptionSpec{"--cuda-gpu-arch=", Effect::Offload, false},
    OptionSpec{"-Xarch_", Effect::None, true}, // -Xarch_<arch> <arg>
    OptionSpec{"-x", Effect::Language, false},
    OptionSpec{"-l", Effect::Library, false},
    OptionSpec{"-o", Effect::Output, false}, // -o$@ (after -objc*/-object, below)
};

const OptionSpec *findOption(std::string_view arg) {
  for (const auto &o : kExact)
    if (arg == o.name)
      return &o;
  if (startsWith(arg, "-obj")) // -objcmt-*, -object: not an output
    return nullptr;
  for (const auto &o : kJoined)
    if (startsWith(arg, o.name) && arg.size() > o.name.size())
      return &o;
  return nullptr;
}

// --- link regions ------------------------------------------------------------------

// Tracks --start-group/--end-group, --whole-archive/--no-whole-archive and
// --push-state/--pop-state so that nothing inside them is reordered.
struct LinkRegions {
  bool group = false;
  bool wholeArchive = false;
  int pushDepth = 0;
  // (Not a region: the linker's `-z` takes its keyword from the next word.)
  bool zKeywordNext = false;
  bool active() const { return group || wholeArchive || pushDepth > 0; }
  void see(std::string_view word) {
    // The linker accepts one or two dashes for long options.
    if (startsWith(word, "--"))
      word.remove_prefix(1);
    if (word == "-start-group" || word == "-(")
      group = true;
    else if (word == "-end-group" || word == "-)")
      group = false;
    else if (word == "-whole-archive")
      wholeArchive = true;
    else if (word == "-no-whole-archive")
      wholeArchive = false;
    else if (word == "-push-state")
      ++pushDepth;
    else if (word == "-pop-state" && pushDepth > 0)
      --pushDepth;
  }
};

// --- what the linker's own options tell us ------------------------------------------

// Linker options by which a link places sections itself or writes another
// output format. Such a link gets no link record: the record is one more input
// whose allocated note the script or the format puts where the user did not ask
// for it (a 512-byte boot sector linked with --oformat=binary -Ttext=0x7c00 grew
// to 4 MB with GNU ld). Names without their leading dashes (the linkers accept
// one or two); each matches alone, with "=value", and the `joined` ones also
// with the value glued on (-Tlink.ld; hence -Ttext-segment=... too, which sets
// an address: no record either, which costs nothing but the record).
struct LayoutOptionSpec {
  std::string_view name;
  bool joined;
};
constexpr LayoutOptionSpec kLayoutOptions[] = {
    {"T", true},       // -T script, -Tscript (GNU ld, gold, lld)
    {"script", false}, // --script=script
    {"dT", true},      // -dT script: GNU ld's default script
    {"default-script", false},
    {"oformat", false}, // --oformat=binary / ihex / srec...
    {"Ttext", false},   // -Ttext=0x7c00 (also caught by -T joined; listed for the reader)
    {"Tdata", false},
    {"Tbss", false},
    {"section-start", false}, // --section-start=.text=0x1000
};

// A -z keyword: execstack / noexecstack say what the output's stack is, for
// GNU ld and lld alike, whatever the inputs' .note.GNU-stack sections say.
void seeZKeyword(Classification &c, std::string_view keyword) {
  if (keyword == "execstack" || keyword == "noexecstack")
    c.userStack = true;
}

// The classifier's view of one linker word, wherever the linker reads it.
void seeLinkerWord(Classification &c, LinkRegions &regions, std::string_view word) {
  if (regions.zKeywordNext) {
    regions.zKeywordNext = false;
    seeZKeyword(c, word);
    return;
  }
  regions.see(word);
  if (word.size() < 2 || word[0] != '-')
    return;
  if (word == "-z") {
    regions.zKeywordNext = true;
    return;
  }
  if (startsWith(word, "-z") && !startsWith(word, "--"))
    seeZKeyword(c, word.substr(2));
  std::string_view name = word.substr(startsWith(word, "--") ? 2 : 1);
  if (name == "r" || name == "relocatable")
    c.relocatable = true;
  if (startsWith(name, "shuffle-sections"))
    c.userShuffleSections = true;
  if (startsWith(name, "dependency-file"))
    c.dependencyFile = true;
  if (c.layoutOption.empty() && isLayoutOption(word))
    c.layoutOption = std::string(word);
}

// The words of -Wl,a,b,c and of -Xlinker a. A word @file in a -Wl, list is a
// response file that the linker reads (GNU syntax, as ours; clang expands a
// plain @file argument itself, so -Xlinker never sees one): its words count
// too. One the linker cannot read is its error to report, not our decision.
void seeLinkerArgs(Classification &c, LinkRegions &regions, std::string_view commaList,
                   bool splitCommas, const ClassifyEnv &env) {
  while (true) {
    const auto comma = splitCommas ? commaList.find(',') : std::string_view::npos;
    const std::string_view word = commaList.substr(0, comma);
    if (startsWith(word, "@") && env.readFile) {
      const Expected<ExpandedArgs> inner = expandResponseFiles({std::string(word)}, env);
      if (inner)
        for (const auto &w : inner->args)
          seeLinkerWord(c, regions, w);
    } else {
      seeLinkerWord(c, regions, word);
    }
    if (comma == std::string_view::npos)
      return;
    commaList.remove_prefix(comma + 1);
  }
}

bool isLld(std::string_view linker) {
  const auto slash = linker.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? linker : linker.substr(slash + 1);
  // alea-ld runs ld.lld itself.
  return base.find("lld") != std::string_view::npos || base == kLdWrapperName;
}

Classification passThrough(Classification c, Reason reason, std::string detail) {
  c.mode = Mode::PassThrough;
  c.reason = reason;
  c.detail = std::move(detail);
  c.linkOrderSlots.clear();
  return c;
}

// A thin archive names its members relative to its own directory.
std::string thinMemberPath(const std::string &archive, const std::string &member) {
  const auto slash = archive.rfind('/');
  if (member.starts_with("/") || slash == std::string::npos)
    return member;
  return archive.substr(0, slash + 1) + member;
}

// Reads the first bytes of the link's inputs (for the link record): the ELF
// header of the first relocatable object (else of the first shared library),
// looking into an archive's first member too, and whether any input is LLVM
// bitcode. Stops as soon as it knows both. Files that cannot be read are
// skipped: the linker will say what is wrong with them.
void sniffLinkInputs(Classification &c, const ClassifyEnv &env, bool wantBitcode,
                     bool compilesSources) {
  if (!env.readAt)
    return;
  std::optional<ElfTarget> shared;
  std::optional<std::string> firstBitcode; // the file, and where in it (an archive member)
  std::uint64_t firstBitcodeAt = 0;
  for (const Input &in : c.inputs) {
    if (c.elfTarget && (c.bitcodeInput || !wantBitcode))
      break;
    if (in.path == "-" || (compilesSources && isSourceLanguage(in.language)))
      continue; // the compiler driver compiles .c/.ll/.bc inputs, the linker sees objects
    const auto head = env.readAt(in.path, 0, 64);
    if (!head)
      continue;
    ElfTarget target;
    InputKind kind = inspectInput(*head, &target);
    std::uint64_t memberAt = 0;
    std::string file = in.path; // where the bytes are: a thin archive's member is a file
    if (kind == InputKind::Archive) {
      const auto member = firstArchiveMember(
          [&](std::uint64_t at, std::size_t n) { return env.readAt(in.path, at, n); });
      const auto bytes = member ? env.readAt(in.path, *member, 64) : std::nullopt;
      kind = bytes ? inspectInput(*bytes, &target) : InputKind::Other;
      memberAt = member.value_or(0);
    } else if (kind == InputKind::ThinArchive) {
      const auto members = thinArchiveMembers(
          [&](std::uint64_t at, std::size_t n) { return env.readAt(in.path, at, n); });
      file = members && !members->empty() ? thinMemberPath(in.path, members->front()) : "";
      const auto bytes = file.empty() ? std::nullopt : env.readAt(file, 0, 64);
      kind = bytes ? inspectInput(*bytes, &target) : InputKind::Other;
    }
    if (kind == InputKind::ElfRelocatable && !c.elfTarget)
      c.elfTarget = target;
    else if (kind == InputKind::ElfShared && !shared)
      shared = target;
    else if (kind == InputKind::Bitcode && wantBitcode)
      c.bitcodeInput = true;
    if (kind == InputKind::Bitcode && !firstBitcode) {
      firstBitcode = file;
      firstBitcodeAt = memberAt;
    }
  }
  if (!c.elfTarget)
    c.elfTarget = shared;
  // Only bitcode (every object of a CMake IPO or meson b_lto build): its
  // triple says what lld links it for (bitcode.hpp).
  if (!c.elfTarget && firstBitcode) {
    const std::string path = *firstBitcode;
    const std::uint64_t base = firstBitcodeAt;
    const auto triple = bitcodeTriple(
        [&](std::uint64_t at, std::size_t n) { return env.readAt(path, base + at, n); });
    if (triple)
      c.elfTarget = elfTargetOfTriple(*triple);
  }
}

// GNU ld's executable stack (Classification::execStackObject, stackUnknown):
// reads the section headers of every named relocatable object, and of every
// object inside the archives, for .note.GNU-stack. Stops at the first reason
// why GNU ld's choice cannot be told. Files that cannot be read are skipped,
// as above.
void scanStackNotes(Classification &c, const ClassifyEnv &env) {
  if (!env.readAt)
    return;
  for (const Input &in : c.inputs) {
    if (!c.stackUnknown.empty())
      return;
    if (in.language == Language::Asm || in.language == Language::AsmCpp) {
      c.stackUnknown = "assembler source " + in.path +
                       " is assembled in this command, so whether GNU ld makes the stack "
                       "executable depends on its text";
      continue;
    }
    if (in.path == "-" || (c.mode == Mode::CompileAndLink && isSourceLanguage(in.language)))
      continue; // compiled by clang, whose objects have the note
    const ByteReader file = [&](std::uint64_t at, std::size_t n) {
      return env.readAt(in.path, at, n);
    };
    const auto head = file(0, 64);
    const InputKind kind = head ? inspectInput(*head) : InputKind::Other;
    if (kind == InputKind::ElfRelocatable) {
      const StackNote note = stackNoteOf(file);
      if (note == StackNote::Unknown)
        c.stackUnknown = "the sections of " + in.path + " cannot be read";
      else if (note != StackNote::Present && c.execStackObject.empty())
        c.execStackObject = in.path;
    } else if (kind == InputKind::Archive) {
      forEachArchiveMember(file, [&](std::uint64_t member) {
        const ByteReader object = [&](std::uint64_t at, std::size_t n) {
          return file(member + at, n);
        };
        const auto memberHead = object(0, 64);
        if (!memberHead || inspectInput(*memberHead) != InputKind::ElfRelocatable ||
            stackNoteOf(object) == StackNote::Present)
          return true;
        c.stackUnknown = "an object in " + in.path +
                         " has no .note.GNU-stack, so whether GNU ld makes the stack "
                         "executable depends on what it links";
        return false;
      });
    } else if (kind == InputKind::ThinArchive) {
      // Meson's static libraries: the members are files of their own.
      const auto members = thinArchiveMembers(file);
      if (!members) {
        c.stackUnknown = "thin archive " + in.path + ": its member list cannot be read";
        continue;
      }
      for (const std::string &name : *members) {
        const std::string member = thinMemberPath(in.path, name);
        const ByteReader object = [&](std::uint64_t at, std::size_t n) {
          return env.readAt(member, at, n);
        };
        const auto memberHead = object(0, 64);
        if (!memberHead) {
          c.stackUnknown = "thin archive " + in.path + ": its member " + member + " cannot be read";
          break;
        }
        if (inspectInput(*memberHead) == InputKind::ElfRelocatable &&
            stackNoteOf(object) != StackNote::Present) {
          c.stackUnknown = "an object in " + in.path +
                           " has no .note.GNU-stack, so whether GNU ld makes the stack "
                           "executable depends on what it links";
          break;
        }
      }
    }
  }
}
} // namespace

bool optionTakesValue(std::string_view arg) {
  for (const auto &o : kExact)
    if (arg == o.name)
      return o.separate;
  return false;
}

// --- languages -----------------------------------------------------------------------

namespace {

// A file name extension or an -x name, and the language clang gives it.
struct LanguageName {
  std::string_view name;
  Language language;
};

// clang's extension rules (LLVM 19's driver types, which clang and flang share).
constexpr LanguageName kExtensions[] = {
    {"c", Language::C},
    {"i", Language::C},
    {"cc", Language::Cxx},
    {"cp", Language::Cxx},
    {"cxx", Language::Cxx},
    {"cpp", Language::Cxx},
    {"CPP", Language::Cxx},
    {"c++", Language::Cxx},
    {"C", Language::Cxx},
    {"ii", Language::Cxx},
    {"cppm", Language::Cxx},
    {"ixx", Language::Cxx},
    {"m", Language::ObjC},
    {"mi", Language::ObjC},
    {"mm", Language::ObjCxx},
    {"M", Language::ObjCxx},
    {"mii", Language::ObjCxx},
    {"ll", Language::Ir},
    {"bc", Language::Ir},
    {"s", Language::Asm},
    {"S", Language::AsmCpp},
    {"sx", Language::AsmCpp},
    {"h", Language::Header},
    {"hh", Language::Header},
    {"hpp", Language::Header},
    {"hxx", Language::Header},
    {"H", Language::Header},
    {"h++", Language::Header},
    {"tcc", Language::Header},
    {"hp", Language::Header},
    {"cu", Language::Offload},
    {"hip", Language::Offload},
    {"cl", Language::Offload},
    // .ftn, .f77 and .FTN, .F77 are not among the driver types: both drivers
    // hand those to the linker.
    {"f", Language::Fortran},
    {"for", Language::Fortran},
    {"f90", Language::Fortran},
    {"f95", Language::Fortran},
    {"f03", Language::Fortran},
    {"f08", Language::Fortran},
    {"F", Language::Fortran},
    {"FOR", Language::Fortran},
    {"F90", Language::Fortran},
    {"F95", Language::Fortran},
    {"F03", Language::Fortran},
    {"F08", Language::Fortran},
    {"fpp", Language::Fortran},
    {"FPP", Language::Fortran},
    {"o", Language::Object},
    {"obj", Language::Object},
    {"a", Language::Archive},
    {"so", Language::SharedLib},
};

// The -x names we know ("-header" and "-header-unit" names aside).
constexpr LanguageName kXNames[] = {
    {"none", Language::None},
    {"c", Language::C},
    {"cpp-output", Language::C},
    {"c++", Language::Cxx},
    {"c++-cpp-output", Language::Cxx},
    {"c++-module", Language::Cxx},
    {"objective-c", Language::ObjC},
    {"objective-c-cpp-output", Language::ObjC},
    {"objc-cpp-output", Language::ObjC},
    {"objective-c++", Language::ObjCxx},
    {"objective-c++-cpp-output", Language::ObjCxx},
    {"objc++-cpp-output", Language::ObjCxx},
    {"ir", Language::Ir},
    {"lto-ir", Language::Ir},
    {"assembler", Language::Asm},
    {"assembler-with-cpp", Language::AsmCpp},
    {"cuda", Language::Offload},
    {"hip", Language::Offload},
    {"cl", Language::Offload},
    {"clcpp", Language::Offload},
    {"f95", Language::Fortran}, // the driver's only Fortran names
    {"f95-cpp-input", Language::Fortran},
};

template <std::size_t N>
std::optional<Language> lookUp(const LanguageName (&table)[N], std::string_view name) {
  for (const LanguageName &entry : table)
    if (entry.name == name)
      return entry.language;
  return std::nullopt;
}

} // namespace

Language languageFromExtension(std::string_view path) {
  const auto slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const auto dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0)
    return Language::LinkerInput;
  if (const auto lang = lookUp(kExtensions, base.substr(dot + 1)))
    return *lang;
  if (base.find(".so.") != std::string_view::npos) // libz.so.1
    return Language::SharedLib;
  return Language::LinkerInput;
}

Language languageFromXName(std::string_view name) {
  if (const auto lang = lookUp(kXNames, name))
    return *lang;
  if (endsWith(name, "-header") || endsWith(name, "-header-unit"))
    return Language::Header;
  return Language::Unknown;
}

bool isSourceLanguage(Language lang) {
  return lang == Language::C || lang == Language::Cxx || lang == Language::ObjC ||
         lang == Language::ObjCxx || lang == Language::Ir || lang == Language::Fortran;
}

bool isLayoutOption(std::string_view word) {
  if (word.size() < 2 || word[0] != '-')
    return false;
  const std::string_view name = word.substr(startsWith(word, "--") ? 2 : 1);
  for (const auto &o : kLayoutOptions)
    if (name == o.name || (startsWith(name, o.name) && name.size() > o.name.size() &&
                           (o.joined || name[o.name.size()] == '=')))
      return true;
  return false;
}

bool isElfTarget(std::string_view triple) {
  for (std::string_view nonElf : {"wasm", "apple", "darwin", "macos", "ios", "windows", "msvc",
                                  "mingw", "cygwin", "uefi", "aix", "zos"})
    if (triple.find(nonElf) != std::string_view::npos)
      return false;
  return true;
}

bool isStartupObject(std::string_view path) {
  const auto slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const auto crt = base.find("crt");
  return crt != std::string_view::npos && crt <= 2 && endsWith(base, ".o");
}

// --- the compiler driver -------------------------------------------------------------

namespace {

// What one walk over a compiler driver's arguments learns. The walk only
// collects (walkDriverArgs); decideDriver() then applies the decision table.
struct DriverFacts {
  bool compileOnly = false; // -c, -S
  bool preprocess = false, depsOnly = false, syntaxOnly = false, precompile = false;
  bool hashes = false, version = false, query = false, cc1 = false;
  bool relocatable = false, endOfOptions = false;
  bool lto = false, ldPath = false;
  std::string queryArg, ltoArg, driverMode, output, missing, unknownLanguage, offloadArg;
  Language xLanguage = Language::None;
  LinkRegions regions;
  std::vector<std::size_t> slots; // Classification::linkOrderSlots, if a link follows
};

// The effects that raise one fact and do nothing else: data, like kExact.
struct FlagEffect {
  Effect effect;
  bool DriverFacts::*flag;
};
constexpr FlagEffect kFlagEffects[] = {
    {Effect::Compile, &DriverFacts::compileOnly},
    {Effect::Assemble, &DriverFacts::compileOnly},
    {Effect::Preprocess, &DriverFacts::preprocess},
    {Effect::DepsOnly, &DriverFacts::depsOnly},
    {Effect::SyntaxOnly, &DriverFacts::syntaxOnly},
    {Effect::Precompile, &DriverFacts::precompile},
    {Effect::Hashes, &DriverFacts::hashes},
    {Effect::Version, &DriverFacts::version},
    {Effect::Cc1, &DriverFacts::cc1},
    {Effect::Relocatable, &DriverFacts::relocatable},
    {Effect::EndOfOptions, &DriverFacts::endOfOptions},
};

bool DriverFacts::*flagOf(Effect effect) {
  for (const auto &f : kFlagEffects)
    if (f.effect == effect)
      return f.flag;
  return nullptr;
}

// One input file (or "-"): its language from -x or its extension, and whether
// it may trade places for the link-order factor.
void addDriverInput(DriverFacts &f, Classification &c, const ClassifyEnv &env,
                    const std::string &path, int origin) {
  Language lang = f.xLanguage;
  if (lang == Language::None)
    lang = path == "-" ? Language::Unknown : languageFromExtension(path);
  if (path != "-" && !env.isRegularFile(path)) {
    if (f.missing.empty())
      f.missing = path;
    return;
  }
  if (f.xLanguage == Language::Unknown && f.unknownLanguage.empty())
    f.unknownLanguage = path;
  c.inputs.push_back({path, lang, origin});
  c.readsStdin |= path == "-";
  const bool movable = lang == Language::Object || isSourceLanguage(lang);
  if (movable && f.xLanguage == Language::None && !f.regions.active() && origin >= 0 &&
      path != "-" && !isStartupObject(path))
    f.slots.push_back(static_cast<std::size_t>(origin));
}

// One option of the table with a value or more than a flag (kFlagEffects has
// the others). `exact`: written alone, its value (if any) was the next argument.
void seeDriverOption(DriverFacts &f, Classification &c, const ClassifyEnv &env, Effect effect,
                     const std::string &arg, const std::string &value, bool exact) {
  switch (effect) {
  case Effect::Query:
    f.query = true;
    if (f.queryArg.empty())
      f.queryArg = arg;
    break;
  case Effect::Language:
    f.xLanguage = languageFromXName(value);
    break;
  case Effect::Output:
    f.output = value;
    break;
  case Effect::Library:
    ++c.libraryCount;
    break;
  case Effect::LinkerArgs:
    seeLinkerArgs(c, f.regions, value, /*splitCommas=*/true, env);
    break;
  case Effect::LinkerArg:
    seeLinkerArgs(c, f.regions, value, /*splitCommas=*/false, env);
    break;
  case Effect::FuseLd:
    if (f.ldPath)
      break; // clang: --ld-path= wins over -fuse-ld=
    c.userLinker = value;
    c.nonLldLinker = !isLld(value);
    break;
  case Effect::LdPath:
    f.ldPath = true;
    c.userLinker = value;
    c.nonLldLinker = !isLld(value);
    break;
  case Effect::LinkerScript:
    if (c.layoutOption.empty())
      c.layoutOption = exact ? "-T " + value : arg;
    break;
  case Effect::Lto:
    f.lto = true;
    f.ltoArg = arg;
    break;
  case Effect::NoLto:
    f.lto = false;
    break;
  case Effect::DriverMode:
    f.driverMode = value;
    break;
  case Effect::Target:
    c.target = value;
    break;
  case Effect::Offload:
    if (f.offloadArg.empty())
      f.offloadArg = arg;
    break;
  case Effect::LinkerZ:
    seeZKeyword(c, value);
    break;
  default:
    // Effect::None; DepsSide (-MD/-MMD: dependencies as a side output of a
    // real compile); Verbose (-v with inputs compiles verbosely, -v alone has
    // no inputs); and the flags of kFlagEffects.
    break;
  }
}

// The one walk: inputs in order, and the facts of every option in the table.
// Options not in the table are forwarded verbatim and decide nothing.
void walkDriverArgs(DriverFacts &f, Classification &c, const ExpandedArgs &expanded,
                    const ClassifyEnv &env) {
  const auto &args = expanded.args;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (f.endOfOptions || arg == "-" || arg.empty() || arg[0] != '-') {
      addDriverInput(f, c, env, arg, expanded.origin[i]);
      continue;
    }
    const OptionSpec *spec = findOption(arg);
    if (!spec)
      continue;
    const bool exact = arg == spec->name;
    std::string value;
    if (spec->separate && (exact || spec->name == "-Xarch_")) {
      if (i + 1 < args.size())
        value = args[++i];
    } else if (!exact) {
      value = arg.substr(spec->name.size());
    }
    if (bool DriverFacts::*flag = flagOf(spec->effect))
      f.*flag = true;
    else
      seeDriverOption(f, c, env, spec->effect, arg, value, exact);
  }
  c.relocatable |= f.relocatable;
}

// A pass-through and the argument that decided it.
struct Verdict {
  Reason reason;
  std::string detail;
};

// The rules that the options alone decide: what the command asks for is not a
// code layout. Most specific first.
std::optional<Verdict> optionVerdict(const DriverFacts &f) {
  if (f.cc1)
    return Verdict{Reason::DriverMode, "-cc1"};
  if (f.driverMode == "cl" || f.driverMode == "cpp" || f.driverMode == "flang")
    return Verdict{Reason::DriverMode, "--driver-mode=" + f.driverMode};
  if (f.hashes)
    return Verdict{Reason::PrintCommands, "-###"};
  if (f.version)
    return Verdict{Reason::Version, "--version"};
  if (f.query)
    return Verdict{Reason::Query, f.queryArg};
  if (f.preprocess)
    return Verdict{Reason::Preprocess, "-E"};
  // -M/-MM imply -E even next to -MD/-MMD (clang -### shows the -E job), so
  // they pass through in every combination; -MD/-MMD alone are a side output.
  if (f.depsOnly)
    return Verdict{Reason::DependenciesOnly, "-M"};
  if (f.syntaxOnly)
    return Verdict{Reason::SyntaxOnly, "-fsyntax-only"};
  if (f.precompile)
    return Verdict{Reason::Precompile, "--precompile"};
  return std::nullopt;
}

// The rules on inputs we cannot be sure of: a missing file, a device
// compilation, a language we do not know or cannot lay out.
std::optional<Verdict> inputVerdict(const DriverFacts &f, const std::vector<Input> &inputs,
                                    Frontend frontend) {
  if (!f.missing.empty())
    return Verdict{Reason::MissingInput, f.missing};
  if (!f.offloadArg.empty())
    return Verdict{Reason::UnsupportedLanguage, f.offloadArg};
  if (!f.unknownLanguage.empty())
    return Verdict{Reason::UnknownLanguage, f.unknownLanguage};
  for (const auto &in : inputs) {
    if (in.language == Language::Offload)
      return Verdict{Reason::UnsupportedLanguage, in.path};
    // clang compiles a Fortran source by running gcc (gfortran), whose code
    // the plugin cannot lay out: the command runs unchanged, and the log
    // points to alea-fc (rather than silently taking the .f90 for a linker
    // input, or switching the user's Fortran compiler behind their back).
    if (in.language == Language::Fortran && frontend == Frontend::Clang)
      return Verdict{Reason::FortranViaGcc, in.path};
    if (in.language == Language::Unknown) // "-" without -x
      return Verdict{Reason::UnknownLanguage, in.path};
  }
  return std::nullopt;
}

// Which kinds of input the command has.
struct InputKinds {
  bool source = false, assembler = false, header = false, linkable = false;
};

InputKinds inputKinds(const std::vector<Input> &inputs) {
  InputKinds k;
  for (const auto &in : inputs) {
    k.source |= isSourceLanguage(in.language);
    k.assembler |= in.language == Language::Asm || in.language == Language::AsmCpp;
    k.header |= in.language == Language::Header;
    k.linkable |= in.language == Language::Object || in.language == Language::Archive ||
                  in.language == Language::SharedLib || in.language == Language::LinkerInput;
  }
  return k;
}

// -c / -S: compile sources, or pass through what has nothing to lay out.
Classification decideCompileOnly(Classification c, const InputKinds &kinds) {
  if (kinds.source) {
    c.mode = Mode::Compile;
    c.reason = Reason::CompileSources;
    return c; // no link: nothing to reorder
  }
  if (kinds.header)
    return passThrough(std::move(c), Reason::Precompile, "header input");
  if (kinds.assembler)
    return passThrough(std::move(c), Reason::AssemblerOnly, "");
  return passThrough(std::move(c), Reason::NoSourceInputs, "");
}

// A link follows (with or without compiling sources first).
Classification decideLink(Classification c, DriverFacts &f, const InputKinds &kinds,
                          const ClassifyEnv &env) {
  if (kinds.header)
    return passThrough(std::move(c), Reason::Precompile, "header input");
  if (f.output == "-")
    return passThrough(std::move(c), Reason::OutputToStdout, "-o -");
  if (kinds.assembler && !kinds.source && !kinds.linkable && c.libraryCount == 0)
    return passThrough(std::move(c), Reason::AssemblerOnly, "");
  c.linkOrderSlots = std::move(f.slots);
  if (kinds.source) {
    c.mode = Mode::CompileAndLink;
    c.reason = Reason::CompileAndLink;
  } else {
    c.mode = Mode::Link;
    c.reason = Reason::LinkInputs;
  }
  // Bitcode matters only when the LTO link may load the plugin (-flto).
  sniffLinkInputs(c, env, /*wantBitcode=*/!c.lto.empty(), /*compilesSources=*/true);
  // The stack matters only for a link alea may move to lld (no linker chosen)
  // and only if the user did not say what it is.
  if (c.userLinker.empty() && !c.userStack)
    scanStackNotes(c, env);
  return c;
}

// The decision table over the walk's facts, most specific rule first.
Classification decideDriver(Classification c, DriverFacts &f, const ClassifyEnv &env,
                            Frontend frontend) {
  if (auto v = optionVerdict(f))
    return passThrough(std::move(c), v->reason, std::move(v->detail));
  // -flto* is randomized too: the plugin runs in the pre-link pipeline (clang
  // invokes the optimizer-last callbacks there, for full and thin LTO) and lld
  // gives every function of the LTO output its own section, which
  // --shuffle-sections then orders. Recorded for the log.
  if (f.lto)
    c.lto = f.ltoArg;
  c.output = f.output;
  if (auto v = inputVerdict(f, c.inputs, frontend))
    return passThrough(std::move(c), v->reason, std::move(v->detail));
  if (c.inputs.empty() && (f.compileOnly || c.libraryCount == 0))
    return passThrough(std::move(c), Reason::NoInputs, "");
  const InputKinds kinds = inputKinds(c.inputs);
  if (f.compileOnly)
    return decideCompileOnly(std::move(c), kinds);
  return decideLink(std::move(c), f, kinds, env);
}

} // namespace

Classification classify(const std::vector<std::string> &original, const ClassifyEnv &env,
                        Frontend frontend) {
  Classification c;
  const Expected<ExpandedArgs> expanded = expandResponseFiles(original, env);
  c.usedResponseFiles = !expanded || expanded->usedResponseFiles; // only a @file fails
  if (!expanded)
    return passThrough(std::move(c), Reason::UnreadableResponseFile, expanded.error());
  DriverFacts facts;
  walkDriverArgs(facts, c, *expanded, env);
  return decideDriver(std::move(c), facts, env, frontend);
}

// --- the linker (alea-ld) --------------------------------------------------------------

namespace {

// Linker options (without their leading dashes: lld accepts one or two) whose value
// is the next argument when written alone.
constexpr std::string_view kLinkerSeparate[] = {"o",
                                                "output",
                                                "L",
                                                "library-path",
                                                "l",
                                                "library",
                                                "T",
                                                "script",
                                                "e",
                                                "entry",
                                                "u",
                                                "undefined",
                                                "m",
                                                "z",
                                                "h",
                                                "soname",
                                                "rpath",
                                                "R",
                                                "just-symbols",
                                                "y",
                                                "trace-symbol",
                                                "Map",
                                                "dynamic-linker",
                                                "I",
                                                "version-script",
                                                "defsym",
                                                "wrap",
                                                "plugin",
                                                "plugin-opt",
                                                "exclude-libs",
                                                "hash-style",
                                                "dynamic-list",
                                                "init",
                                                "fini",
                                                "format",
                                                "b",
                                                "A",
                                                "architecture",
                                                "Y",
                                                "retain-symbols-file",
                                                "require-defined",
                                                "P",
                                                "depaudit",
                                                "Ttext",
                                                "Tdata",
                                                "Tbss",
                                                "f",
                                                "auxiliary",
                                                "F",
                                                "filter",
                                                "dependency-file",
                                                "error-limit",
                                                "mllvm",
                                                "sysroot",
                                                "symbol-ordering-file",
                                                "call-graph-ordering-file",
                                                "undefined-glob",
                                                "thinlto-cache-dir",
                                                "O",
                                                "image-base",
                                                "export-dynamic-symbol",
                                                "chroot",
                                                "oformat",
                                                "section-start",
                                                "dT",
                                                "default-script"};

} // namespace

Classification classifyLinker(const std::vector<std::string> &original, const ClassifyEnv &env) {
  Classification c;
  const Expected<ExpandedArgs> expanded = expandResponseFiles(original, env);
  c.usedResponseFiles = !expanded || expanded->usedResponseFiles; // only a @file fails
  if (!expanded)
    return passThrough(std::move(c), Reason::UnreadableResponseFile, expanded.error());
  const auto &args = expanded->args;
  LinkRegions regions;
  std::string missing, output;
  bool queried = false;
  std::string queryArg;

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {
      if (!env.isRegularFile(arg)) {
        if (missing.empty())
          missing = arg;
        continue;
      }
      const Language lang = languageFromExtension(arg);
      const int origin = expanded->origin[i];
      c.inputs.push_back({arg, lang, origin});
      if (lang == Language::Object && !regions.active() && origin >= 0 && !isStartupObject(arg))
        c.linkOrderSlots.push_back(static_cast<std::size_t>(origin));
      continue;
    }
    std::string_view name = arg;
    name.remove_prefix(startsWith(name, "--") ? 2 : 1);
    if (i == 0 && (name == "flavor"))
      return passThrough(std::move(c), Reason::DriverMode, "-flavor");
    if (name == "version" || name == "v" || name == "V") {
      queried = true;
      queryArg = arg;
      continue;
    }
    if (name == "help") {
      return passThrough(std::move(c), Reason::Query, arg);
    }
    seeLinkerWord(c, regions, arg);
    if (startsWith(arg, "-l") && arg.size() > 2 && arg[1] == 'l') {
      ++c.libraryCount;
      continue;
    }
    if (startsWith(name, "output=")) {
      output = std::string(name.substr(7));
      continue;
    }
    if (startsWith(name, "library=")) {
      ++c.libraryCount;
      continue;
    }
    if (startsWith(arg, "-o") && arg.size() > 2 && arg[1] == 'o' && !startsWith(name, "output")) {
      output = arg.substr(2);
      continue;
    }
    if (std::find(std::begin(kLinkerSeparate), std::end(kLinkerSeparate), name) !=
        std::end(kLinkerSeparate)) {
      if (name == "l" || name == "library")
        ++c.libraryCount;
      if (i + 1 < args.size()) {
        ++i;
        if (name == "o" || name == "output")
          output = args[i];
        if (name == "z") // its keyword (seeLinkerWord saw the -z)
          seeLinkerWord(c, regions, args[i]);
      }
    }
  }
  if (queried)
    return passThrough(std::move(c), Reason::Version, queryArg);
  if (!missing.empty())
    return passThrough(std::move(c), Reason::MissingInput, missing);
  if (c.inputs.empty() && c.libraryCount == 0)
    return passThrough(std::move(c), Reason::NoInputs, "");
  if (output == "-")
    return passThrough(std::move(c), Reason::OutputToStdout, "-o -");
  c.output = output;
  c.mode = Mode::Link;
  c.reason = Reason::LinkInputs;
  // alea-ld offers the plugin to every link; lld loads it when it runs LTO.
  sniffLinkInputs(c, env, /*wantBitcode=*/true, /*compilesSources=*/false);
  return c;
}

std::string_view modeName(Mode mode) { return enumName(mode); }

std::string_view reasonName(Reason reason) { return enumName(reason); }

} // namespace alea::wrapper
