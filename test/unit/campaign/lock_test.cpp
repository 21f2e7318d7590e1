// The campaign directory's lock: one holder at a time, the holder named to the
// next who tries, released by the kernel however the holder dies, and a
// removed lock file noticed by its holder.
#include "alea/campaign/lock.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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

// Issue 18 item 6: the lock file names the run that holds it; the next
// holder learns which earlier runs may still have processes running, and
// they stay named until a holder has ended them (recordRun), so that a run
// killed before it got there passes them on.
TEST(CampaignLock, NamesTheEarlierRunsUntilAHolderRecordsItsOwn) {
  test::TempDir dir;
  {
    auto first = CampaignLock::acquire(dir.path());
    ASSERT_TRUE(first.ok()) << first.error();
    EXPECT_TRUE(first->earlierRuns().empty());
    ASSERT_TRUE(first->recordRun("aaaa").ok());
  }
  {
    auto second = CampaignLock::acquire(dir.path());
    ASSERT_TRUE(second.ok()) << second.error();
    EXPECT_EQ(second->earlierRuns(), std::vector<std::string>{"aaaa"});
    // Ends without recordRun (killed before it ended aaaa's processes).
  }
  {
    auto third = CampaignLock::acquire(dir.path());
    ASSERT_TRUE(third.ok()) << third.error();
    EXPECT_EQ(third->earlierRuns(), std::vector<std::string>{"aaaa"});
    ASSERT_TRUE(third->recordRun("bbbb").ok());
    // The holder's line stays first: a refused run names the holder only.
    auto refused = CampaignLock::acquire(dir.path());
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().find("run bbbb"), std::string::npos) << refused.error();
    EXPECT_NE(refused.error().find("(pid " + std::to_string(::getpid()) + " on "),
              std::string::npos)
        << refused.error();
  }
  auto fourth = CampaignLock::acquire(dir.path());
  ASSERT_TRUE(fourth.ok()) << fourth.error();
  EXPECT_EQ(fourth->earlierRuns(), std::vector<std::string>{"bbbb"});
}
