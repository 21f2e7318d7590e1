// The runner's side of the heap start offset factor (see heap_runtime.hpp):
// writing the embedded runtime out, the static check, the status.
#include "alea/exec/heap_runtime.hpp"

#include "alea/exec/hash.hpp"
#include "alea/fd.hpp"
#include "alea/file.hpp"
#include "alea/heap_offset.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace alea::runner {

// runner/exec/heap/embed.cmake writes these from the built libalea_heap.so.
extern const char kHeapRuntimeImage[];
extern const std::size_t kHeapRuntimeSize;

std::string_view heapRuntimeImage() { return {kHeapRuntimeImage, kHeapRuntimeSize}; }

namespace {

// A directory only this user can write to (the runtime is loaded into every
// benchmark: nobody else may replace it), created when missing.
bool privateDirectory(const std::string &dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return false;
  struct stat st;
  return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() &&
         (st.st_mode & 022) == 0;
}

bool sameContent(const std::string &path, std::string_view bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  std::string data(bytes.size() + 1, '\0');
  std::size_t got = 0;
  while (got < data.size()) {
    ssize_t n = ::read(fd, data.data() + got, data.size() - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return got == bytes.size() && std::string_view(data.data(), got) == bytes;
}

Expected<std::string> writeRuntime() {
  std::string_view image = heapRuntimeImage();
  const std::string name = "libalea_heap-" + sha256Hex(image).substr(0, 16) + ".so";
  std::vector<std::string> dirs;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
    dirs.push_back(std::string(xdg) + "/alea");
  if (const char *home = std::getenv("HOME"); home && *home == '/')
    dirs.push_back(std::string(home) + "/.cache/alea");
  dirs.push_back(tempDirectory() + "/alea-" + std::to_string(::getuid()));
  std::string why;
  for (const auto &dir : dirs) {
    // ~/.cache itself may be missing: its parent is made like `mkdir -p`.
    if (auto slash = dir.rfind('/'); slash > 0)
      ::mkdir(dir.substr(0, slash).c_str(), 0700);
    if (!privateDirectory(dir)) {
      why += (why.empty() ? "" : "; ") + dir + ": not a private directory";
      continue;
    }
    const std::string path = dir + "/" + name;
    if (sameContent(path, image))
      return path;
    const std::string temp = path + ".tmp." + std::to_string(::getpid());
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
    bool ok = fd >= 0 && writeAll(fd, image);
    if (fd >= 0)
      ok = ::close(fd) == 0 && ok;
    if (ok && ::rename(temp.c_str(), path.c_str()) == 0)
      return path;
    why += (why.empty() ? "" : "; ") + path + ": " + std::strerror(errno);
    ::unlink(temp.c_str());
  }
  return Error{"cannot write the heap runtime (" + why + ")"};
}

template <typename Ehdr, typename Phdr> std::optional<bool> hasNoInterpreter(int fd) {
  Ehdr eh;
  if (::pread(fd, &eh, sizeof eh, 0) != static_cast<ssize_t>(sizeof eh) ||
      eh.e_phentsize != sizeof(Phdr) || eh.e_phnum == 0 || eh.e_phnum > 4096)
    return std::nullopt;
  std::vector<Phdr> ph(eh.e_phnum);
  const auto bytes = static_cast<ssize_t>(ph.size() * sizeof(Phdr));
  if (::pread(fd, ph.data(), static_cast<std::size_t>(bytes), static_cast<off_t>(eh.e_phoff)) !=
      bytes)
    return std::nullopt;
  for (const auto &p : ph)
    if (p.p_type == PT_INTERP)
      return false;
  return true;
}

} // namespace

Expected<std::string> heapRuntimePath() {
  static std::mutex mutex;
  static std::optional<Expected<std::string>> written;
  std::lock_guard lock(mutex);
  // Written once per process; a failure is tried again (a full disk freed).
  if (!written || !*written)
    written = writeRuntime();
  return *written;
}

std::optional<bool> isStaticExecutable(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  unsigned char ident[EI_NIDENT];
  std::optional<bool> out;
  if (::pread(fd, ident, sizeof ident, 0) == static_cast<ssize_t>(sizeof ident) &&
      std::memcmp(ident, ELFMAG, SELFMAG) == 0) {
    if (ident[EI_CLASS] == ELFCLASS64)
      out = hasNoInterpreter<Elf64_Ehdr, Elf64_Phdr>(fd);
    else if (ident[EI_CLASS] == ELFCLASS32)
      out = hasNoInterpreter<Elf32_Ehdr, Elf32_Phdr>(fd);
  }
  ::close(fd);
  return out;
}

std::string heapOffsetText(std::int64_t offset) {
  char text[16];
  std::snprintf(text, sizeof text, "%07lld", static_cast<long long>(offset));
  return text;
}

std::string preloadWith(std::string_view userValue, std::string_view runtime) {
  std::string out(userValue);
  if (!out.empty())
    out += ':';
  out += runtime;
  return out;
}

std::string heapStatusFromReport(std::string_view report) {
  std::vector<std::string_view> distinct;
  while (!report.empty()) {
    std::size_t nl = report.find('\n');
    std::string_view line = report.substr(0, nl);
    report.remove_prefix(nl == std::string_view::npos ? report.size() : nl + 1);
    if (line.empty())
      continue;
    bool seen = false;
    for (auto d : distinct)
      seen = seen || d == line;
    if (!seen)
      distinct.push_back(line);
  }
  if (distinct.empty())
    return ALEA_HEAP_NOT_LOADED;
  std::string out;
  for (auto d : distinct) {
    if (!out.empty())
      out += "; ";
    out += d;
  }
  return out;
}

} // namespace alea::runner
