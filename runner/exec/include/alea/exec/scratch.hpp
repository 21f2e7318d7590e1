// The temporary files of executions (the heap runtime's report, cachegrind's
// outputs): in one directory per process, $TMPDIR/alea-scratch-XXXXXX, which
// the process holds locked (flock) while it lives and removes when it exits.
// A process killed with SIGKILL (a campaign stopped by kill -9, a target's
// helper whose SSH session died) cannot remove its own: the next process that
// needs one removes every such directory of this user whose lock is free.
// A lock is released by the kernel when its holder ends, in whatever PID
// namespace it ran, so no live process's directory is ever taken.
#pragma once

#include <cstddef>
#include <string>

namespace alea::runner {

// This process's scratch directory: created on first use, after removing the
// directories of ended processes (sweepStaleScratch) in the temporary
// directory (alea/file.hpp). "" with errno set when it cannot be created.
const std::string &scratchDirectory();

// Removes the scratch directories in `dir` that belong to this user and whose
// process has ended; returns how many. Other files, other users' directories
// and locked ones stay.
std::size_t sweepStaleScratch(const std::string &dir);

// A file or directory of one execution in the scratch directory, removed with
// the execution (a directory with the files its processes wrote in it): the
// file the heap runtime reports into (ALEA_HEAP_REPORT), created before the
// child, because the runtime never creates files; the directory where each
// process of a tree under cachegrind writes its output file and Valgrind its
// messages.
class Scratch {
public:
  Scratch() = default;
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  ~Scratch();
  // Creates "<name>-XXXXXX", a file or a directory; false (errno set) if it
  // cannot.
  bool create(const char *name, bool directory);
  const std::string &path() const { return path_; }
  // The file's first 64 KiB or so (a heap report is one line).
  std::string read() const;

private:
  std::string path_;
};

} // namespace alea::runner
