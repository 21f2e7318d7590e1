// The wrappers' build cache (issue 23; docs/wrapper.md, "Build cache"). A
// seeded compile's work up to the layout pass (preprocessing, the front end,
// the whole optimizer) depends on its input and options, never on the seed:
// the plugin lays out only at the optimizer's last extension point. With
// ALEA_BUILD_CACHE set, alea-cc and alea-c++ keep that work per translation
// unit, as bitcode, and the next build of the same unit under another seed
// runs only what the seed changes:
//
//   direct = a manifest, named by the source's content, the compile's words
//            and the compiler, lists the files its last preprocessing read
//            with their SHA-256: when none changed, its key is the key and
//            the dependency file it kept is written again (ccache's direct
//            mode; never for files that use __DATE__, __TIME__ or
//            __TIMESTAMP__). Otherwise:
//   key    = SHA-256 of the compiler's, its libclang-cpp's and libLLVM's, and
//            the plugin's identity (resolved path, size, modification time), the compile's words
//            without its output, dependency-file, plugin and preprocessor-only words (-I, -D...),
//            the working directory when the compile records it (debug
//            information), and the preprocessed text (`clang -E` with the
//            same words, which also writes the dependency file the compile
//            would), without its line markers unless debug information or a
//            location builtin (__builtin_FILE...) can see them;
//   miss   = the compile as planned, with ALEA_IR_SNAPSHOT: the plugin writes
//            the module just before the layout pass; stored with the
//            module's identifier and the compile's diagnostics;
//   hit    = clang compiles the stored module with the compile's own words
//            and plugin, which replays it (ALEA_IR_REPLAY): every optional
//            pass before the layout pass is skipped, then the layout pass
//            (under the compile's module identifier, ALEA_MODULE_ID), the
//            rest of the pipeline and code generation run as in the compile;
//            the stored diagnostics are written again.
//
// A hit gives the bytes the compile would have given (test/projects/
// build_cache.sh checks every object of real projects). Only what can be
// proven so is cached: one C or C++ source compiled with -c to an object,
// no -x, no LTO, no sanitizer, profile, coverage or other instrumentation,
// no -mllvm/-Xclang (but the seed file's dependency entry), no response
// files, no option that writes another file or records the command line.
// Anything else, and any failure of the cache itself, is the plain compile.
#pragma once

#include "alea/wrapper/classify.hpp"

#include "alea/expected.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace alea::wrapper {

// How one compile goes through the cache, decided from its planned command.
struct CachePlan {
  std::string dir;                  // the cache (ALEA_BUILD_CACHE)
  std::string tmp;                  // this compile's temporary directory inside it
  std::string output;               // the object the compile writes
  std::vector<std::string> compile; // argv: the compile as planned (a miss runs it)
  std::string source;               // the source, as the compile names it
  std::string depFile;              // the dependency file the compile writes ("" none)
  // What names the manifest (direct mode): every planned word but the plugin.
  std::vector<std::string> manifestWords;
  // argv: the compile as `-E -o <tmp>/input.i`, writing the dependency file
  // (explicit -MF/-MQ where the compile's would be implied by its -o).
  std::vector<std::string> preprocess;
  std::string preprocessed; // <tmp>/input.i
  // The planned words that decide the IR besides the preprocessed text.
  std::vector<std::string> keyWords;
  bool keyDirectory = false; // debug information records the working directory
  // argv: the compile of <tmp>/module.bc (-x ir) with the compile's words
  // and plugin, without its dependency-file words.
  std::vector<std::string> codegen;
  std::string module; // <tmp>/module.bc: the stored module, linked there
};

// The plan of a compile `planned` (argv[0] the real compiler; decide()'s
// command) whose one source is planned[inputIndex], or why it is not cached
// (the log's note). `process` names the temporary directory: unique among
// the processes that share the cache (host and pid: a cache on a file system
// that several machines share).
Expected<CachePlan> planBuildCache(const std::vector<std::string> &planned, std::size_t inputIndex,
                                   const Classification &c, const std::string &cacheDir,
                                   const std::string &process);

// What the key and the children need besides the plan: the real compiler and
// the plugin (their identities), the children's environment.
struct CacheTools {
  std::string compiler, plugin;
  std::vector<std::string> env;
  std::function<void(const std::string &)> log; // one line to ALEA_LOG
  std::string logHead;                          // "alea-cc pid=N"
};

// Runs the compile through the cache; its exit status (128 + signal when the
// compiler was killed), or nothing when the cache could not be used at all
// (the caller then runs the plain compile).
std::optional<int> runCachedCompile(const CachePlan &plan, const CacheTools &tools);

} // namespace alea::wrapper
