// The scratch directory of a process and the files of its executions
// (scratch.hpp).
#include "alea/exec/scratch.hpp"

#include "alea/file.hpp"

#include <cerrno>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <string_view>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace alea::runner {

namespace {

constexpr std::string_view kPrefix = "alea-scratch-";

void removeTree(const std::string &path) {
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
}

// Whether `fd` is still the directory at `path` (a sweep may have removed it
// between mkdtemp and the lock).
bool sameDirectory(int fd, const std::string &path) {
  struct stat opened, named;
  return ::fstat(fd, &opened) == 0 && ::lstat(path.c_str(), &named) == 0 &&
         opened.st_dev == named.st_dev && opened.st_ino == named.st_ino;
}

// The process's directory: locked from its creation, removed at exit by the
// process that made it (not by a forked child that exits).
struct ProcessDirectory {
  std::string path;
  int lockFd = -1;
  int error = 0; // errno when it could not be made
  pid_t owner = 0;

  ProcessDirectory() {
    const std::string tmp = tempDirectory();
    sweepStaleScratch(tmp);
    // A sweep by another process can take the directory between mkdtemp and
    // the lock (it was not locked yet): then make another.
    for (int attempt = 0; attempt < 8; ++attempt) {
      std::string pattern = tmp + "/" + std::string(kPrefix) + "XXXXXX";
      if (!::mkdtemp(pattern.data()))
        break;
      const int fd = ::open(pattern.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (fd >= 0 && ::flock(fd, LOCK_EX) == 0 && sameDirectory(fd, pattern)) {
        path = pattern;
        lockFd = fd;
        owner = ::getpid();
        return;
      }
      if (fd >= 0)
        ::close(fd);
    }
    error = errno != 0 ? errno : EEXIST;
  }
  ~ProcessDirectory() {
    if (path.empty() || ::getpid() != owner)
      return;
    removeTree(path);
    ::close(lockFd);
  }
  ProcessDirectory(const ProcessDirectory &) = delete;
  ProcessDirectory &operator=(const ProcessDirectory &) = delete;
};

} // namespace

const std::string &scratchDirectory() {
  static ProcessDirectory directory;
  if (directory.path.empty())
    errno = directory.error;
  return directory.path;
}

std::size_t sweepStaleScratch(const std::string &dir) {
  std::size_t removed = 0;
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return 0;
  while (const dirent *e = ::readdir(d)) {
    if (std::string_view(e->d_name).substr(0, kPrefix.size()) != kPrefix)
      continue;
    const std::string path = dir + "/" + e->d_name;
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
      continue;
    struct stat st;
    // Held while removing it: its process has ended, and no other sweep
    // takes it at the same time.
    if (::fstat(fd, &st) == 0 && st.st_uid == ::geteuid() && ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      removeTree(path);
      ++removed;
    }
    ::close(fd);
  }
  ::closedir(d);
  return removed;
}

Scratch::~Scratch() {
  if (!path_.empty())
    removeTree(path_);
}

bool Scratch::create(const char *name, bool directory) {
  const std::string &root = scratchDirectory();
  if (root.empty())
    return false;
  std::string pattern = root + "/" + name + "-XXXXXX";
  if (directory) {
    if (!::mkdtemp(pattern.data()))
      return false;
  } else {
    const int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
    if (fd < 0)
      return false;
    ::close(fd);
  }
  path_ = pattern;
  return true;
}

std::string Scratch::read() const {
  std::string text;
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return text;
  char chunk[4096];
  ssize_t n;
  while (text.size() < 65536 && (n = ::read(fd, chunk, sizeof chunk)) > 0)
    text.append(chunk, static_cast<std::size_t>(n));
  ::close(fd);
  return text;
}

} // namespace alea::runner
