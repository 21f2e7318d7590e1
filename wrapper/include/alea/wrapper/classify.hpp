// The pure classifier of a compiler or linker invocation (STYLE.md: "decide, then
// act"; the ccache anchor). classify() looks at the arguments a build passed to
// alea-cc / alea-c++ (or alea-ld) and decides whether the wrapper compiles with the
// layout plugin, compiles and links, only links, or execs the untouched command,
// always with a reason. It touches no file itself: whether an argument names a
// regular file and what a response file contains come in through ClassifyEnv, so the
// unit tests need no files. Tool knowledge (which options change the mode, which
// take a separate argument) is data in classify.cpp. One classifier serves both
// compiler drivers, clang (alea-cc, alea-c++) and flang (alea-fc): their options
// share one table, and only what a Fortran source means differs (Frontend).
#pragma once

#include "alea/wrapper/link_record.hpp"

#include "alea/enum_names.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::wrapper {

#define ALEA_WRAPPER_MODES(X)                                                                      \
  X(Compile, "compile")                                                                            \
  X(CompileAndLink, "compile-and-link")                                                            \
  X(Link, "link")                                                                                  \
  X(PassThrough, "pass-through")
enum class Mode { ALEA_WRAPPER_MODES(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Mode, ALEA_WRAPPER_MODES);

// The compiler driver behind the wrapper: clang-19 (alea-cc, alea-c++) or
// flang-new-19 (alea-fc). They agree on every option and language the
// classifier knows except Fortran sources, which flang compiles with LLVM (and
// so with the plugin) and clang hands to gcc (gfortran), which cannot load it.
enum class Frontend { Clang, Flang };

// Why the classifier decided as it did; one value per rule of the decision table,
// named as the log says it.
#define ALEA_WRAPPER_REASONS(X)                                                                    \
  /* randomizing modes */                                                                          \
  /* -c/-S with C, C++, Objective-C or IR sources */                                               \
  X(CompileSources, "compiling sources")                                                           \
  /* sources, no -c/-S/-E: compile then link */                                                    \
  X(CompileAndLink, "compiling and linking sources")                                               \
  /* only objects, archives, -l: link */                                                           \
  X(LinkInputs, "linking objects")                                                                 \
  /* pass-through: what the invocation asks for is not a code layout */                            \
  X(Preprocess, "preprocessing only (-E)")                                                         \
  /* -M / -MM without -MD / -MMD */                                                                \
  X(DependenciesOnly, "dependencies only (-M/-MM imply -E)")                                       \
  /* -fsyntax-only, -emit-ast */                                                                   \
  X(SyntaxOnly, "no code generated (-fsyntax-only/-emit-ast)")                                     \
  /* --precompile, header inputs (PCH) */                                                          \
  X(Precompile, "precompiling a header or module")                                                 \
  X(PrintCommands, "printing commands (-###)")                                                     \
  /* --version, -v/-V of the linker */                                                             \
  X(Version, "version query")                                                                      \
  /* -dumpversion, -dumpmachine, -print-*, --help */                                               \
  X(Query, "information query")                                                                    \
  /* nothing to compile or link (e.g. -v alone) */                                                 \
  X(NoInputs, "no inputs")                                                                         \
  /* .s / .S (preprocessed assembly) inputs only */                                                \
  X(AssemblerOnly, "assembler inputs only")                                                        \
  /* -c/-S with only linker inputs (clang warns, does nothing) */                                  \
  X(NoSourceInputs, "nothing to compile")                                                          \
  /* -o - on a link */                                                                             \
  X(OutputToStdout, "linking to standard output (-o -)")                                           \
  /* -cc1, -cc1as, --driver-mode=cl, -flavor */                                                    \
  X(DriverMode, "other driver mode")                                                               \
  /* pass-through: we cannot be sure */                                                            \
  X(UnreadableResponseFile, "unreadable response file")                                            \
  /* a non-option argument that is not a regular file */                                           \
  X(MissingInput, "input is not a regular file")                                                   \
  /* -x <something we do not know> */                                                              \
  X(UnknownLanguage, "unknown input language")                                                     \
  /* CUDA / HIP (device compilation) */                                                            \
  X(UnsupportedLanguage, "offloading (CUDA/HIP/OpenCL/OpenMP targets)")                            \
  /* alea-cc/alea-c++ with a Fortran source: clang runs gcc for it */                              \
  X(FortranViaGcc, "Fortran source, which clang hands to gcc (use alea-fc, over flang-new-19)")
enum class Reason { ALEA_WRAPPER_REASONS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Reason, ALEA_WRAPPER_REASONS);

enum class Language {
  None, // (for -x none: decide by extension)
  C,
  Cxx,
  ObjC,
  ObjCxx,
  Ir,          // .ll, .bc, -x ir
  Asm,         // .s, -x assembler
  AsmCpp,      // .S, .sx, -x assembler-with-cpp
  Header,      // .h, .hpp..., -x c-header
  Offload,     // .cu, .hip, -x cuda/hip
  Fortran,     // .f, .for, .f90 ... .F08, .fpp, -x f95 / f95-cpp-input
  Object,      // .o, .obj
  Archive,     // .a
  SharedLib,   // .so, .so.N
  LinkerInput, // anything else: clang hands it to the linker
  Unknown,     // -x value we do not know
};

// Language of a file from its name alone (clang's extension rules).
Language languageFromExtension(std::string_view path);
// Language named by -x; Unknown if we do not know the name.
Language languageFromXName(std::string_view name);
bool isSourceLanguage(Language lang); // C, C++, ObjC, ObjC++, IR, Fortran
// crt1.o, Scrt1.o, crti.o, crtn.o, crtbegin*.o, crtend*.o...: their order is ABI.
bool isStartupObject(std::string_view path);

struct Input {
  std::string path; // "-" for standard input
  Language language;
  int argIndex; // index in the original argument list, -1 if from a @file
};

// What the classifier may ask the world.
struct ClassifyEnv {
  std::function<bool(const std::string &)> isRegularFile;
  std::function<std::optional<std::string>(const std::string &)> readFile;
  // Up to `n` bytes of a file from `offset` (fewer at its end), or nothing if
  // it cannot be read. Used on links only, to sniff the inputs (ELF header,
  // bitcode, archive); may be left empty (then no input is sniffed).
  std::function<std::optional<std::string>(const std::string &, std::uint64_t offset,
                                           std::size_t n)>
      readAt;
};

struct Classification {
  Mode mode = Mode::PassThrough;
  Reason reason = Reason::NoInputs;
  std::string detail;           // the argument that decided, for the log
  std::vector<Input> inputs;    // files (and "-") in command-line order
  std::size_t libraryCount = 0; // -l options
  // Indices into the ORIGINAL argument list whose entries may trade places for the
  // link-order factor: plain objects (and, when compiling and linking, sources
  // whose language comes from their extension) outside -x regions, outside
  // --start-group/--end-group, --whole-archive/--no-whole-archive and
  // --push-state/--pop-state regions, and not startup objects.
  std::vector<std::size_t> linkOrderSlots;
  bool usedResponseFiles = false;   // entries inside @files are never reordered
  bool nonLldLinker = false;        // -fuse-ld=bfd/gold or --ld-path to a non-lld
  std::string userLinker;           // the linker the user chose: --ld-path= (wins), else -fuse-ld=
  bool userShuffleSections = false; // the user already passes --shuffle-sections
  std::string target;               // -target / --target= value, if any
  std::string lto;                  // the -flto* option in effect, if any
  std::string output;               // the -o value, if any
  // An input is "-": the command reads standard input, so it can run only once
  // (alea does not try lld first, see command.hpp).
  bool readsStdin = false;
  // GNU ld's executable stack, for a link alea-cc may move from the default
  // linker (GNU ld) to lld, which ignores .note.GNU-stack (keepDefaultLinker
  // in command.cpp). Looked at only when the user chose no linker and no
  // -z execstack / -z noexecstack:
  std::string execStackObject; // the first named object without a non-executable note
  // Why GNU ld's choice cannot be told from the command: an archive member
  // without the note (GNU ld links a member only if it resolves a symbol), a
  // thin archive, an assembler source compiled in this command, an object
  // whose sections cannot be read. The text is the log's.
  std::string stackUnknown;
  bool userStack = false;   // the user's own -z execstack / -z noexecstack decides
  bool relocatable = false; // -r / -Wl,-r / --relocatable: the output is an object
  // Facts for the link record (links only, see link_record.hpp):
  std::optional<ElfTarget> elfTarget; // of the first ELF object (else shared library) input
  bool bitcodeInput = false;          // an input, or an archive's first member, is LLVM bitcode
  bool dependencyFile = false;        // the linker writes a dependency file (--dependency-file)
  // The first option by which the link places sections itself or writes a raw
  // image (a linker script, --oformat, -Ttext, --section-start...): such a link
  // gets no link record, whose note would land in the image.
  std::string layoutOption;
};

// Whether one word the linker reads (on alea-ld's command line, in a -Wl, list,
// after -Xlinker, inside a linker response file) makes the link place sections
// itself: -T <script>, -T<script>, --script, --default-script/-dT, --oformat,
// -Ttext/-Tdata/-Tbss (and their = forms, and -T<x>-segment), --section-start.
bool isLayoutOption(std::string_view linkerWord);

// Whether an option, spelled exactly so, takes the next argument as its value
// (-o, -I, -MF, -Xclang...): the classifier's own table.
bool optionTakesValue(std::string_view arg);

// Whether a target triple links with lld's ELF port (the only one with
// --shuffle-sections); an empty triple is the host (ELF on our platforms).
bool isElfTarget(std::string_view triple);

// Classifies a compiler driver invocation; args exclude argv[0].
Classification classify(const std::vector<std::string> &args, const ClassifyEnv &env,
                        Frontend frontend = Frontend::Clang);
// Classifies a direct linker invocation (alea-ld); args exclude argv[0].
Classification classifyLinker(const std::vector<std::string> &args, const ClassifyEnv &env);

std::string_view modeName(Mode mode);
std::string_view reasonName(Reason reason);

// --- response files ------------------------------------------------------------

// Splits response-file text like GCC's libiberty and LLVM's
// cl::TokenizeGNUCommandLine: whitespace separates, a backslash escapes the next
// character (also inside quotes), '...' and "..." group.
std::vector<std::string> tokenizeResponseFile(std::string_view text);

struct ExpandedArgs {
  std::vector<std::string> args;
  std::vector<int> origin; // per expanded arg: original index, or -1 if from a @file
  bool usedResponseFiles = false;
};

// Replaces every @file by its tokens, recursively (nested names relative to the
// current directory, as GCC does; depth limited to catch cycles). The error is
// the @file that could not be read (or recursed) as written, "@name": the
// classifier's detail for Reason::UnreadableResponseFile.
Expected<ExpandedArgs> expandResponseFiles(const std::vector<std::string> &args,
                                           const ClassifyEnv &env);

} // namespace alea::wrapper
