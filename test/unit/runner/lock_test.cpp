// The campaign directory's lock: one holder at a time, the holder named to the
// next who tries, released by the kernel however the holder dies, and a
// removed lock file noticed by its holder.
#include "alea/runner/lock.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

using namespace alea::runner;

TEST(CampaignLock, ASecondHolderIsRefusedAndToldWhoHoldsIt) {
  test::TempDir dir;
  auto first = CampaignLock::acquire(dir.path());
  ASSERT_TRUE(first.ok()) << first.error();
  auto second = CampaignLock::acquire(dir.path());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.errorKind(), ErrorKind::Busy);
  EXPECT_NE(
      second.error().find("in use by another alea run (pid " + std::to_string(::getpid()) + " on "),
      std::string::npos)
      << second.error();
  EXPECT_NE(second.error().find(", since 20"), std::string::npos) << second.error();
}

TEST(CampaignLock, IsFreeAgainOnceReleased) {
  test::TempDir dir;
  {
    auto first = CampaignLock::acquire(dir.path());
    ASSERT_TRUE(first.ok());
  }
  auto again = CampaignLock::acquire(dir.path());
  EXPECT_TRUE(again.ok()) << again.error();
}

TEST(CampaignLock, TheKernelReleasesItWhenTheHolderIsKilled) {
  test::TempDir dir;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto lock = CampaignLock::acquire(dir.path());
    char c = lock.ok() ? 'y' : 'n';
    [[maybe_unused]] ssize_t w = ::write(ready[1], &c, 1);
    ::pause(); // holds the lock until killed
    ::_exit(0);
  }
  ::close(ready[1]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  ASSERT_EQ(c, 'y');
  EXPECT_EQ(CampaignLock::acquire(dir.path()).errorKind(), ErrorKind::Busy);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  auto after = CampaignLock::acquire(dir.path());
  EXPECT_TRUE(after.ok()) << after.error();
}

TEST(CampaignLock, ItsHolderNoticesThatTheLockFileWasRemovedOrReplaced) {
  test::TempDir dir;
  auto lock = CampaignLock::acquire(dir.path());
  ASSERT_TRUE(lock.ok());
  EXPECT_TRUE(lock->held());
  std::filesystem::remove(lockPath(dir.path()));
  EXPECT_FALSE(lock->held());
  // Another run may now lock a new file of that name: ours stays "not held".
  auto other = CampaignLock::acquire(dir.path());
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(lock->held());
  EXPECT_TRUE(other->held());
}
