// The wrappers' build cache (build_cache.hpp): planBuildCache decides from the
// planned command alone; runCachedCompile acts (temporary directory,
// preprocessing, the key, the hit or the miss, the store).
#include "alea/wrapper/build_cache.hpp"

#include "alea/wrapper/driver.hpp"

#include "alea/contract.hpp"
#include "alea/fd.hpp"
#include "alea/file.hpp"
#include "alea/sha256.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace alea::wrapper {
namespace {

constexpr std::string_view kKeyVersion = "alea-build-cache-v1";

// Options whose compile is never cached: its result is more than the object
// (-S, -emit-llvm, side files, statistics), its IR gets passes the stored
// module would miss (instrumentation, sanitizers, profiles, other plugins,
// which clang schedules around the layout pass), or the key cannot see what
// they change (-mllvm, -Xclang, -Wp, modules, a language forced by -x).
constexpr std::array<std::string_view, 18> kRefusedExact = {"-S",
                                                            "-emit-llvm",
                                                            "-mllvm",
                                                            "-Xclang",
                                                            "-Xpreprocessor",
                                                            "-Xanalyzer",
                                                            "-x",
                                                            "-v",
                                                            "--",
                                                            "--coverage",
                                                            "-MJ",
                                                            "-gsplit-dwarf",
                                                            "-ftest-coverage",
                                                            "-fprofile-arcs",
                                                            "-serialize-diagnostics",
                                                            "--serialize-diagnostics",
                                                            "-frecord-command-line",
                                                            "-grecord-command-line"};
constexpr std::array<std::string_view, 20> kRefusedPrefix = {"-fsanitize",
                                                             "-fno-sanitize",
                                                             "-fprofile",
                                                             "-fcs-profile",
                                                             "-fcoverage",
                                                             "-fxray",
                                                             "-fmemory-profile",
                                                             "-fpseudo-probe",
                                                             "-fsave-optimization-record",
                                                             "-foptimization-record",
                                                             "-Rpass",
                                                             "-ftime-trace",
                                                             "-fembed-bitcode",
                                                             "-save-",
                                                             "-fplugin",
                                                             "-fpass-plugin",
                                                             "-Wp,",
                                                             "-fmodules",
                                                             "-finstrument-function",
                                                             "-grecord-gcc-switches"};

bool refused(std::string_view word) {
  for (std::string_view r : kRefusedExact)
    if (word == r)
      return true;
  for (std::string_view r : kRefusedPrefix)
    if (word.starts_with(r))
      return true;
  return word.starts_with("-x") && word.size() > 2; // -xc
}

// Dependency-file words: the preprocessing writes the file, code generation
// must not, and they change nothing in the IR.
bool dependencyFlag(std::string_view w) {
  return w == "-MD" || w == "-MMD" || w == "-MP" || w == "-MG" || w == "-MV";
}
// -MF/-MT/-MQ, separate (value next) or joined; which one.
std::string_view dependencyValued(std::string_view w) {
  for (std::string_view o : {"-MF", "-MT", "-MQ"})
    if (w.starts_with(o))
      return o;
  return {};
}

// Options that only change what the preprocessor reads or defines (their
// effect is all in the preprocessed text), separate or joined.
bool preprocessorOnly(std::string_view w) {
  for (std::string_view o : {"-nostdinc", "-nostdinc++", "-nostdlibinc", "-nobuiltininc"})
    if (w == o)
      return true;
  for (std::string_view o :
       {"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix",
        "-iwithprefix", "-isysroot", "--sysroot", "-cxx-isystem"})
    if (w.starts_with(o))
      return true;
  return false;
}

std::string withExtension(const std::string &path, const char *ext) {
  return fs::path(path).replace_extension(ext).string();
}

} // namespace

Expected<CachePlan> planBuildCache(const std::vector<std::string> &planned, std::size_t inputIndex,
                                   const Classification &c, const std::string &cacheDir,
                                   const std::string &process) {
  if (c.mode != Mode::Compile || c.inputs.size() != 1)
    return Error{"not one source compiled to an object"};
  const Input &in = c.inputs[0];
  if (in.language != Language::C && in.language != Language::Cxx)
    return Error{"not a C or C++ source"};
  if (in.path == "-")
    return Error{"the source is standard input"};
  if (c.usedResponseFiles)
    return Error{"response files"};
  if (!c.lto.empty())
    return Error{c.lto};
  if (inputIndex >= planned.size() || planned[inputIndex] != in.path)
    return Error{"the source is not where the plan has it"};

  CachePlan p;
  p.dir = cacheDir;
  p.tmp = cacheDir + "/tmp/" + process;
  p.preprocessed = p.tmp + "/input.i";
  p.module = p.tmp + "/module.bc";
  p.compile = planned;
  p.preprocess = {planned[0]};
  p.codegen = {planned[0]};
  p.source = in.path;
  bool depSide = false, depTarget = false, outputGiven = false;
  std::string depFile; // the -MF value
  for (std::size_t i = 1; i < planned.size(); ++i) {
    const std::string &w = planned[i];
    if (i == inputIndex) {
      p.manifestWords.push_back(w);
      p.keyWords.push_back(w);
      p.preprocess.push_back(w);
      p.codegen.insert(p.codegen.end(), {"-x", "ir", p.module});
      continue;
    }
    // decide()'s own plugin comes first (it does not change the IR before
    // the layout pass: left out of the key); the seed file's dependency entry
    // is the only -Xclang alea adds (addCompileOptions).
    if (i == 1 && w.starts_with("-fpass-plugin=")) {
      p.codegen.push_back(w);
      continue;
    }
    p.manifestWords.push_back(w);
    if (optionTakesValue(w) && i + 1 < planned.size())
      p.manifestWords.push_back(planned[i + 1]);
    if (w == "-Xclang" && i + 1 < planned.size() &&
        planned[i + 1].starts_with("-fdepfile-entry=")) {
      p.preprocess.insert(p.preprocess.end(), {w, planned[i + 1]});
      ++i;
      continue;
    }
    if (refused(w))
      return Error{"'" + w + "'"};
    const bool separate = optionTakesValue(w) && i + 1 < planned.size();
    if (w == "-o" || (w.starts_with("-o") && !w.starts_with("-obj"))) {
      p.output = separate ? planned[++i] : w.substr(2);
      outputGiven = true;
      continue;
    }
    if (dependencyFlag(w)) {
      depSide = depSide || w == "-MD" || w == "-MMD";
      p.preprocess.push_back(w);
      continue;
    }
    if (std::string_view o = dependencyValued(w); !o.empty()) {
      depTarget = depTarget || o != "-MF";
      p.preprocess.push_back(w);
      if (separate)
        p.preprocess.push_back(planned[++i]);
      if (o == "-MF")
        depFile = separate ? planned[i] : w.substr(3);
      continue;
    }
    if (w.starts_with("-g") && w != "-g0")
      p.keyDirectory = true;
    // What only steers the preprocessor is in the preprocessed text: not in
    // the key (an include directory inside each build's own directory, as
    // CMake's generated headers are, would otherwise never match).
    const bool cppOnly = preprocessorOnly(w);
    if (!cppOnly)
      p.keyWords.push_back(w);
    p.codegen.push_back(w);
    if (w != "-c")
      p.preprocess.push_back(w);
    if (separate) {
      const std::string &value = planned[++i];
      if (!cppOnly)
        p.keyWords.push_back(value);
      p.codegen.push_back(value);
      p.preprocess.push_back(value);
    }
  }
  if (!outputGiven) // clang: the source's name with .o, in the working directory
    p.output = withExtension(fs::path(in.path).filename().string(), ".o");
  if (p.output == "-")
    return Error{"the object goes to standard output"};
  // The dependency file and its target as the compile would name them
  // (clang's driver: from -o, else from the source's name).
  p.preprocess.insert(p.preprocess.end(), {"-E", "-o", p.preprocessed});
  if (depSide && depFile.empty())
    p.preprocess.insert(p.preprocess.end(), {"-MF", withExtension(p.output, ".d")});
  if (depSide)
    p.depFile = depFile.empty() ? withExtension(p.output, ".d") : depFile;
  if (depSide && !depTarget)
    p.preprocess.insert(p.preprocess.end(), {"-MQ", p.output});
  p.codegen.insert(p.codegen.end(), {"-o", p.output, "-Wno-unused-command-line-argument"});
  return p;
}

namespace {

// path, size and modification time of what a path resolves to: a changed
// compiler or plugin is another key.
std::string identity(const std::string &path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  struct stat st{};
  if (ec || ::stat(real.c_str(), &st) != 0)
    return path + ":?";
  return real.string() + ":" + std::to_string(st.st_size) + ":" +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

// Written under a temporary name, then renamed: a reader sees all or nothing.
bool writeAtomically(const std::string &path, std::string_view bytes, const std::string &tmp) {
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush())
      return false;
  }
  return ::rename(tmp.c_str(), path.c_str()) == 0;
}

bool succeeded(const std::optional<CapturedRun> &run) {
  return run && WIFEXITED(run->waitStatus) && WEXITSTATUS(run->waitStatus) == 0;
}

int exitStatusOf(int waitStatus) {
  return WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 128 + WTERMSIG(waitStatus);
}

// Variables that change what clang reads or does without a word on the
// command line: both keys include them.
constexpr std::array<const char *, 6> kKeyVariables = {"CPATH",
                                                       "C_INCLUDE_PATH",
                                                       "CPLUS_INCLUDE_PATH",
                                                       "OBJC_INCLUDE_PATH",
                                                       "SOURCE_DATE_EPOCH",
                                                       "CCC_OVERRIDE_OPTIONS"};

// The shared libraries that hold clang's and LLVM's code (clang itself is a
// small driver over them), beside the compiler: <bin>/../lib/libclang-cpp.so*
// and libLLVM*.so*, each file they resolve to once, in order.
std::vector<std::string> compilerLibraries(const std::string &compiler) {
  std::error_code ec;
  const fs::path lib = fs::canonical(compiler, ec).parent_path().parent_path() / "lib";
  std::vector<std::string> out;
  for (fs::directory_iterator it(lib, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with("libclang-cpp.so") &&
        !(name.starts_with("libLLVM") && name.find(".so") != std::string::npos))
      continue;
    std::error_code bad;
    if (fs::path real = fs::canonical(it->path(), bad); !bad)
      out.push_back(real.string());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The start of both keys: the cache's version, compiler, plugin, words, the
// working directory when debug information records it, the variables.
Sha256 keyStart(const CachePlan &p, const CacheTools &t, const std::vector<std::string> &words) {
  Sha256 h;
  auto field = [&h](std::string_view s) {
    h.update(s);
    h.update(std::string_view("\0", 1));
  };
  field(kKeyVersion);
  field(identity(t.compiler));
  // An update may change only the compiler's libraries.
  for (const std::string &library : compilerLibraries(t.compiler))
    field(identity(library));
  field(identity(t.plugin));
  for (const auto &w : words)
    field(w);
  if (p.keyDirectory) {
    std::error_code ec;
    field(fs::current_path(ec).string());
  }
  for (const char *var : kKeyVariables) {
    const char *value = std::getenv(var);
    field(value ? std::string(var) + "=" + value : std::string());
  }
  return h;
}

// The preprocessed text as the key reads it. Its line markers (`# 12
// "path"`) name where each line came from: in the IR only through debug
// information and the builtins that return a location (__builtin_FILE,
// __builtin_LINE, std::source_location...), whose calls the text shows. With
// neither, the markers are left out, so that the same code read from another
// build's directory (its own generated headers) is the same key.
std::string textForKey(const std::string &text, bool debugInfo) {
  if (debugInfo || text.find("__builtin_FILE") != std::string::npos ||
      text.find("__builtin_LINE") != std::string::npos ||
      text.find("__builtin_COLUMN") != std::string::npos ||
      text.find("__builtin_source_location") != std::string::npos)
    return text;
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    end = end == std::string::npos ? text.size() : end + 1;
    if (!(text.compare(pos, 2, "# ") == 0 && pos + 2 < text.size() &&
          std::isdigit(static_cast<unsigned char>(text[pos + 2]))))
      out.append(text, pos, end - pos);
    pos = end;
  }
  return out;
}

std::string entryPath(const CachePlan &p, const std::string &key) {
  return p.dir + "/" + key.substr(0, 2) + "/" + key;
}

// The files a preprocessing read, from the line markers of its output
// (`# 12 "path" 1`), in order, each once; not <built-in> and the like.
std::vector<std::string> filesRead(const std::string &text) {
  std::vector<std::string> files;
  for (std::string_view line : linesOf(text)) {
    if (!line.starts_with("# "))
      continue;
    const std::size_t open = line.find('"');
    if (open == std::string_view::npos || open + 1 >= line.size() || line[open + 1] == '<')
      continue;
    std::string name;
    std::size_t i = open + 1;
    for (; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size())
        ++i;
      name += line[i];
    }
    if (i < line.size() && std::find(files.begin(), files.end(), name) == files.end())
      files.push_back(name);
  }
  return files;
}

// The manifest of direct mode: the key the files led to, and the files with
// their digests ("<sha256> <path>" per line after the first).
struct Manifest {
  std::string key;
  std::vector<std::pair<std::string, std::string>> files; // digest, path
};

std::optional<Manifest> readManifest(const std::string &path) {
  std::ifstream in(path);
  Manifest m;
  if (!in || !std::getline(in, m.key) || m.key.size() != 64)
    return std::nullopt;
  for (std::string line; std::getline(in, line);) {
    if (line.size() < 66 || line[64] != ' ')
      return std::nullopt;
    m.files.emplace_back(line.substr(0, 64), line.substr(65));
  }
  return m;
}

bool unchanged(const Manifest &m) {
  for (const auto &[digest, path] : m.files)
    if (sha256File(path) != digest)
      return false;
  return true;
}

// The manifest text for `key` and the files read, or nothing when one of
// them cannot be read or uses the date or time (a hit would not be the
// compile).
std::optional<std::string> manifestText(const std::string &key,
                                        const std::vector<std::string> &files) {
  std::string text = key + "\n";
  for (const auto &f : files) {
    const auto content = readFile(f);
    if (!content)
      return std::nullopt;
    for (std::string_view macro : {"__DATE__", "__TIME__", "__TIMESTAMP__"})
      if (content->find(macro) != std::string::npos)
        return std::nullopt;
    text += sha256Hex(*content) + " " + f + "\n";
  }
  return text;
}

// The stored module compiled again from the layout pass on (the plugin's
// replay, under the compile's module identifier): true when the object is
// written.
bool replay(const CachePlan &p, const CacheTools &t, const std::string &entry,
            const std::string &moduleId, std::string &why) {
  std::error_code ec;
  fs::create_hard_link(entry + ".bc", p.module, ec);
  if (ec && !fs::copy_file(entry + ".bc", p.module, ec)) {
    why = "cannot read the stored module: " + ec.message();
    return false;
  }
  std::vector<std::string> env = t.env;
  env.push_back(std::string(kIrReplayVariable) + "=1");
  env.push_back(std::string(kModuleIdVariable) + "=" + moduleId);
  const auto built = runCapturingStderr(p.codegen, env);
  if (!succeeded(built)) {
    why = "clang " + (built ? describeWaitStatus(built->waitStatus) : std::string("did not start"));
    return false;
  }
  return true;
}

} // namespace

std::optional<int> runCachedCompile(const CachePlan &p, const CacheTools &t) {
  std::error_code ec;
  fs::remove_all(p.tmp, ec); // left by a killed compile of an earlier process with our pid
  fs::create_directories(p.tmp, ec);
  const auto source = ec ? std::nullopt : readFile(p.source);
  if (!source) {
    t.log(t.logHead + " build-cache=off reason=\"cannot create " + p.tmp + " or read " + p.source +
          "\"");
    return std::nullopt;
  }
  struct RemoveTmp {
    const std::string &dir;
    ~RemoveTmp() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } removeTmp{p.tmp};
  // A stored module compiled again: true when the object is written.
  auto hit = [&](const std::string &key, const char *how) {
    const std::string entry = entryPath(p, key);
    const auto moduleId = readFile(entry + ".id");
    std::error_code ignored;
    if (!moduleId || !fs::exists(entry + ".bc", ignored))
      return false;
    std::string why;
    if (!replay(p, t, entry, *moduleId, why)) {
      t.log(t.logHead + " build-cache=hit-failed key=" + key.substr(0, 16) + " reason=\"" + why +
            "\": compiled instead");
      return false;
    }
    writeAll(2, readFile(entry + ".stderr").value_or(""));
    t.log(t.logHead + " build-cache=hit key=" + key.substr(0, 16) + " by=" + how);
    return true;
  };

  // 1. direct: the manifest of this source, words and compiler names the
  //    files its last preprocessing read; none changed: its key, and the
  //    dependency file it kept
  Sha256 manifestKey = keyStart(p, t, p.manifestWords);
  manifestKey.update(*source);
  const std::string manifest = p.dir + "/m/" + manifestKey.hexDigest();
  if (auto m = readManifest(manifest); m && unchanged(*m) && hit(m->key, "manifest")) {
    if (!p.depFile.empty())
      if (auto dep = readFile(manifest + ".d"))
        writeAtomically(p.depFile, *dep, p.tmp + "/dep");
    return 0;
  }

  // 2. the preprocessed text (and the dependency file); a failure is the
  //    plain compile's to report
  const auto pre = runCapturingStderr(p.preprocess, t.env);
  const auto text = succeeded(pre) ? readFile(p.preprocessed) : std::nullopt;
  if (!text) {
    t.log(t.logHead + " build-cache=off reason=\"preprocessing failed\"");
    return std::nullopt;
  }
  Sha256 entryKey = keyStart(p, t, p.keyWords);
  entryKey.update(textForKey(*text, p.keyDirectory));
  const std::string key = entryKey.hexDigest();
  // The manifest for next time (its dependency file first, its key last).
  auto remember = [&] {
    const auto content = manifestText(key, filesRead(*text));
    std::error_code ignored;
    fs::create_directories(p.dir + "/m", ignored);
    if (!p.depFile.empty())
      if (auto dep = readFile(p.depFile);
          !dep || !writeAtomically(manifest + ".d", *dep, p.tmp + "/manifest.d"))
        return;
    if (content)
      writeAtomically(manifest, *content, p.tmp + "/manifest");
  };
  if (hit(key, "preprocessed")) {
    remember();
    return 0;
  }

  // 3. a miss: the compile as planned, its module kept before the layout pass
  std::vector<std::string> env = t.env;
  const std::string snapshot = p.tmp + "/snapshot.bc";
  env.push_back(std::string(kIrSnapshotVariable) + "=" + snapshot);
  const auto run = runCapturingStderr(p.compile, env);
  if (!run)
    return std::nullopt;
  writeAll(2, run->errors);
  if (!succeeded(run))
    return exitStatusOf(run->waitStatus);
  const std::string entry = entryPath(p, key);
  fs::create_directories(fs::path(entry).parent_path(), ec);
  const bool stored = !ec && fs::exists(snapshot, ec) &&
                      writeAtomically(entry + ".stderr", run->errors, p.tmp + "/stderr") &&
                      ::rename((snapshot + ".id").c_str(), (entry + ".id").c_str()) == 0 &&
                      ::rename(snapshot.c_str(), (entry + ".bc").c_str()) == 0;
  if (stored)
    remember();
  t.log(t.logHead + " build-cache=miss key=" + key.substr(0, 16) +
        (stored ? " stored" : " not-stored"));
  return 0;
}

} // namespace alea::wrapper
