// The scratch directory of a process (runner/exec/.../scratch.hpp): a killed
// process's directory is removed by the next sweep, a live one's is not, and
// a process that exits removes its own. Each process below is a forked child
// of the test with TMPDIR set to the test's own directory (the directory is
// made once per process).
#include "alea/exec/scratch.hpp"

#include "../support/test_util.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace alea::runner {
namespace {

using test::TempDir;
namespace fs = std::filesystem;

// A child that makes its scratch directory in `tmp`, with an execution's
// file and directory in it (a file in the directory too), writes the
// directory's path to `report`, then waits until the pipe `hold` reads end
// of file and exits (or kills itself with SIGKILL first when `killed`).
pid_t childWithScratch(const std::string &tmp, int report, const int hold[2], bool killed) {
  const pid_t pid = ::fork();
  if (pid != 0)
    return pid;
  ::close(hold[1]);
  ::setenv("TMPDIR", tmp.c_str(), 1);
  const std::string &dir = scratchDirectory();
  Scratch file, sub;
  if (dir.empty() || !file.create("heap", false) || !sub.create("cachegrind", true))
    ::_exit(2);
  std::ofstream(sub.path() + "/cachegrind.out.1") << "summary: 1\n";
  const std::string line = dir + "\n";
  if (::write(report, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    ::_exit(3);
  if (killed)
    ::raise(SIGKILL);
  char byte;
  while (::read(hold[0], &byte, 1) > 0) {
  }
  std::exit(0); // not _exit: the process's directory goes at exit
}

std::string readLine(int fd) {
  std::string line;
  char c;
  while (::read(fd, &c, 1) == 1 && c != '\n')
    line += c;
  return line;
}

TEST(ScratchDirectory, AKilledProcessesIsSweptALiveOnesStaysAnEndedOneRemovedItsOwn) {
  TempDir tmp;
  int report[2], hold[2];
  ASSERT_EQ(::pipe(report), 0);
  ASSERT_EQ(::pipe(hold), 0);
  // The live one first: the killed one's sweep leaves it (it is locked).
  const pid_t live = childWithScratch(tmp.path(), report[1], hold, false);
  const std::string liveDir = readLine(report[0]);
  const pid_t killed = childWithScratch(tmp.path(), report[1], hold, true);
  const std::string killedDir = readLine(report[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(killed, &status, 0), killed);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  ::close(hold[0]);

  // Both directories were made in TMPDIR; the killed one still holds its
  // files (nothing could remove them).
  ASSERT_EQ(fs::path(killedDir).parent_path(), fs::path(tmp.path()));
  ASSERT_EQ(fs::path(liveDir).parent_path(), fs::path(tmp.path()));
  EXPECT_NE(killedDir, liveDir);
  EXPECT_EQ(std::distance(fs::directory_iterator(killedDir), fs::directory_iterator()), 2);
  // What is not a scratch directory of a process stays: another name, a
  // file with the prefix.
  fs::create_directory(tmp.file("alea-other-dir"));
  tmp.write("alea-scratch-file", "not a directory");

  EXPECT_EQ(sweepStaleScratch(tmp.path()), 1u);
  EXPECT_FALSE(fs::exists(killedDir));
  EXPECT_TRUE(fs::is_directory(liveDir)); // locked: its process lives
  EXPECT_TRUE(fs::is_directory(tmp.file("alea-other-dir")));
  EXPECT_TRUE(fs::is_regular_file(tmp.file("alea-scratch-file")));

  // The live one ends normally and removes its own directory.
  ::close(hold[1]);
  ASSERT_EQ(::waitpid(live, &status, 0), live);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_FALSE(fs::exists(liveDir));
  EXPECT_EQ(sweepStaleScratch(tmp.path()), 0u);
  ::close(report[0]);
  ::close(report[1]);
}

// A new process sweeps when it makes its own directory.
TEST(ScratchDirectory, TheNextProcessRemovesAKilledOnesDirectory) {
  TempDir tmp;
  int report[2], hold[2];
  ASSERT_EQ(::pipe(report), 0);
  ASSERT_EQ(::pipe(hold), 0);
  const pid_t killed = childWithScratch(tmp.path(), report[1], hold, true);
  const std::string killedDir = readLine(report[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(killed, &status, 0), killed);
  ASSERT_TRUE(fs::is_directory(killedDir));
  const pid_t next = childWithScratch(tmp.path(), report[1], hold, false);
  const std::string nextDir = readLine(report[0]);
  EXPECT_FALSE(fs::exists(killedDir)); // removed before the next one made its own
  EXPECT_TRUE(fs::is_directory(nextDir));
  ::close(hold[0]);
  ::close(hold[1]);
  ASSERT_EQ(::waitpid(next, &status, 0), next);
  EXPECT_TRUE(fs::is_empty(tmp.path()));
  ::close(report[0]);
  ::close(report[1]);
}

} // namespace
} // namespace alea::runner
