// A duet's synchronization (duet.hpp): the per-iteration barrier's protocol
// (who is released when, a partner that ended or never takes part, records
// split across reads), the judgment of whole-process executions by their
// partners' spans, and both schemes on real processes through
// LocalExecutor::runTogether.
#include "alea/exec/duet.hpp"
#include "alea/exec/executor.hpp"
#include "alea/exec/measure.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace alea;
using namespace alea::runner;

namespace {

std::string barrierRecord(std::uint64_t k) { return iter::encode({iter::Kind::Barrier, k, 1}); }
std::string beginRecord(std::uint64_t k) { return iter::encode({iter::Kind::Begin, k, 10}); }
std::string endRecord(std::uint64_t k) { return iter::encode({iter::Kind::End, k, 20}); }

using Released = std::vector<std::size_t>;

} // namespace

TEST(DuetBarrier, ReleasesBothOnlyOnceBothArrived) {
  DuetBarrier b(2);
  EXPECT_EQ(b.records(0, barrierRecord(0)), Released{});
  EXPECT_EQ(b.records(1, barrierRecord(0)), (Released{0, 1}));
  // Iteration 0 runs; partner 1 is first at barrier 1 and waits for 0.
  EXPECT_EQ(b.records(1, beginRecord(0) + endRecord(0) + barrierRecord(1)), Released{});
  EXPECT_EQ(b.records(0, beginRecord(0) + endRecord(0)), Released{});
  EXPECT_EQ(b.records(0, barrierRecord(1)), (Released{0, 1}));
  EXPECT_EQ(b.passed(0), 2);
  EXPECT_EQ(b.passed(1), 2);
}

TEST(DuetBarrier, AnEndedPartnerHoldsNobodyBack) {
  DuetBarrier b(2);
  b.records(0, barrierRecord(0));
  b.records(1, barrierRecord(0));
  EXPECT_EQ(b.records(0, barrierRecord(1)), Released{});
  // Partner 1 died (or had fewer iterations): its exit releases partner 0,
  // and every later barrier of 0 passes at once.
  EXPECT_EQ(b.ended(1), Released{0});
  EXPECT_EQ(b.records(0, barrierRecord(2)), Released{0});
  EXPECT_EQ(b.passed(0), 3);
}

TEST(DuetBarrier, AProgramOfTheOlderHeaderIsLeftOutAndHoldsNobodyBack) {
  // Built against an <alea/iter.h> without the barrier: its first record is
  // an iteration's, never a barrier's.
  DuetBarrier b(2);
  EXPECT_EQ(b.records(0, barrierRecord(0)), Released{});
  EXPECT_EQ(b.records(1, beginRecord(0)), Released{0});
  EXPECT_FALSE(b.takesPart(1));
  EXPECT_TRUE(b.takesPart(0));
  EXPECT_EQ(b.records(0, barrierRecord(1)), Released{0});
}

TEST(DuetBarrier, RecordsSplitAcrossReadsAreJoined) {
  DuetBarrier b(2);
  std::string both = barrierRecord(0);
  EXPECT_EQ(b.records(0, both.substr(0, 5)), Released{});
  EXPECT_EQ(b.records(1, both), Released{});
  EXPECT_EQ(b.records(0, both.substr(5)), (Released{0, 1}));
}

TEST(DuetBarrier, GarbageEndsThePartnersPartInTheBarrier) {
  DuetBarrier b(2);
  b.records(0, barrierRecord(0));
  EXPECT_EQ(b.records(1, std::string(24, 'x')), Released{0});
  EXPECT_FALSE(b.takesPart(1));
}

TEST(DuetBarrier, ThreePartnersWaitForTheSlowest) {
  DuetBarrier b(3);
  EXPECT_EQ(b.records(2, barrierRecord(0)), Released{});
  EXPECT_EQ(b.records(0, barrierRecord(0)), Released{});
  EXPECT_EQ(b.records(1, barrierRecord(0)), (Released{0, 1, 2}));
}

TEST(DuetJudgment, PartnersRunningThroughoutCountFully) {
  // Partner 0 (short) ended at 1.0 and was restarted until 2.1; partner 1
  // ran 0..2.0: both ran beside a running partner all their time.
  std::vector<DuetPartnerRun> runs{{0, 1.0, 0, 2.1, false, "", "a"},
                                   {0, 2.0, 0, 2.0, false, "", "b"}};
  auto j = judgeDuet(runs);
  EXPECT_DOUBLE_EQ(j[0].overlap, 1.0);
  EXPECT_DOUBLE_EQ(j[1].overlap, 1.0);
  EXPECT_TRUE(j[0].alone.empty());
  EXPECT_TRUE(j[1].alone.empty());
}

TEST(DuetJudgment, AnExecutionWhosePartnerStoppedEarlyIsNotCounted) {
  // Partner 0 failed at 0.5 and was not restarted: partner 1 ran its last
  // three quarters alone.
  std::vector<DuetPartnerRun> runs{
      {0, 0.5, 0, 0.5, true, "exit status 3, expected 0", "its partner (p)"},
      {0, 2.0, 0, 2.0, false, "", "its partner (q)"}};
  auto j = judgeDuet(runs);
  EXPECT_TRUE(j[0].alone.empty());
  EXPECT_EQ(j[1].alone, "ran alone for 75.0% of its time: its partner (p) stopped (exit status "
                        "3, expected 0) before it ended; not counted");
  EXPECT_DOUBLE_EQ(j[1].overlap, 0.25);
}

TEST(DuetJudgment, ProcessSpansGiveTheOverlapOfAnUnsynchronizedPair) {
  std::vector<DuetPartnerRun> runs{{0, 1, 0, 1, false, "", ""},
                                   {0.5, 2.5, 0.5, 2.5, false, "", ""}};
  auto j = judgeDuet(runs);
  EXPECT_DOUBLE_EQ(j[0].overlap, 0.5);
  EXPECT_DOUBLE_EQ(j[1].overlap, 0.25);
}

TEST(DuetSync, RecordsMeanTheBarrierElseOverlap) {
  EXPECT_EQ(duetSyncFor(true), DuetSync::Barrier);
  EXPECT_EQ(duetSyncFor(false), DuetSync::Overlap);
  EXPECT_STREQ(enumName(DuetSync::Barrier), "barrier");
  EXPECT_STREQ(enumName(DuetSync::Overlap), "overlap");
}

namespace {

ExecutionRequest sh(const std::string &script) {
  ExecutionRequest r;
  r.argv = {"/bin/sh", "-c", script};
  r.env = {"PATH=/usr/bin:/bin"};
  r.timeoutSeconds = 120; // a safety net only
  return r;
}

std::size_t lines(const std::string &path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string l; std::getline(in, l);)
    ++n;
  return n;
}

} // namespace

TEST(LocalExecutorDuet, TheShorterPartnerIsRestartedUntilTheLongerEnds) {
  // Partner 0 appends a line and ends; partner 1 ends only once the file
  // has two lines, i.e. once partner 0 was restarted: without restarts it
  // would wait for its timeout.
  test::TempDir dir;
  std::string log = dir.file("starts");
  auto quick = sh("echo start >> " + log);
  auto waits = sh("while [ \"$(wc -l < " + log +
                  " 2>/dev/null || echo 0)\" -lt 2 ]; do "
                  "sleep 0.01; done");
  LocalExecutor ex;
  auto results = ex.runTogether({quick, waits});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[1].output.timedOut);
  EXPECT_EQ(results[1].output.exitCode, 0);
  EXPECT_GE(results[0].duetRestarts, 1);
  EXPECT_GE(lines(log), 2u);
  for (const auto &r : results) {
    EXPECT_EQ(r.duetSync, DuetSync::Overlap);
    EXPECT_TRUE(r.duetAlone.empty()) << r.duetAlone;
    ASSERT_TRUE(r.overlap.has_value());
  }
}

TEST(LocalExecutorDuet, APartnerThatFailsLeavesTheOtherAloneAndItIsMarked) {
  // Partner 0 writes its pid and fails; partner 1 ends once partner 0's
  // process is gone (reaped by alea): it ran its last stretch alone.
  test::TempDir dir;
  std::string pidFile = dir.file("pid");
  auto fails =
      sh("echo $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "; exit 3");
  auto waits = sh("while [ ! -s " + pidFile +
                  " ]; do sleep 0.01; done; "
                  "while [ -e /proc/$(cat " +
                  pidFile + ") ]; do sleep 0.01; done");
  LocalExecutor ex;
  auto results = ex.runTogether({fails, waits});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].output.exitCode, 3);
  EXPECT_EQ(results[0].duetRestarts, 0); // a failed execution is not restarted
  EXPECT_EQ(results[1].output.exitCode, 0);
  EXPECT_NE(results[1].duetAlone.find("stopped (exit status 3, expected 0) before it ended"),
            std::string::npos)
      << results[1].duetAlone;
  EXPECT_TRUE(results[0].duetAlone.empty());
}
