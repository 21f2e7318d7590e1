// Progress output without a terminal (plain lines), durations, and the
// machine-state comparison that decides what counts as a change.
#include "alea/runner/machine.hpp"
#include "alea/runner/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace alea::runner;

TEST(Progress, PlainLinesWhenNotATerminal) {
  std::FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    StreamProgress p(f);
    p.message("building a #0");
    p.start(0, 20);
    for (int i = 1; i <= 20; ++i)
      p.update(i, 20, i / 10);
    p.finish();
  }
  std::rewind(f);
  std::string text;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, f))
    text.append(buf, n);
  std::fclose(f);
  EXPECT_EQ(text.find('\r'), std::string::npos); // no bar
  EXPECT_EQ(text.rfind("building a #0\n", 0), 0u);
  EXPECT_NE(text.find("progress: 2/20 executions (10%), 0 failed, ETA"), std::string::npos) << text;
  EXPECT_NE(text.find("progress: 20/20 executions (100%), 2 failed, ETA"), std::string::npos)
      << text;
  // one line per 10% step, not one per execution
  std::size_t lines = 0;
  for (char c : text)
    lines += c == '\n';
  EXPECT_LE(lines, 12u);
}

TEST(Progress, ResumeIsAnnounced) {
  std::FILE *f = std::tmpfile();
  {
    StreamProgress p(f);
    p.start(7, 20);
  }
  std::rewind(f);
  char buf[256] = {};
  ASSERT_NE(std::fgets(buf, sizeof buf, f), nullptr);
  std::fclose(f);
  EXPECT_STREQ(buf, "resuming: 7 of 20 executions already done\n");
}

TEST(Progress, Durations) {
  EXPECT_EQ(formatDuration(5), "5s");
  EXPECT_EQ(formatDuration(187), "3m07s");
  EXPECT_EQ(formatDuration(3725), "1h02m");
  EXPECT_EQ(formatDuration(-1), "?");
}

TEST(Machine, StableFieldChangesAreReportedLoadOnlyWhenItRises) {
  MachineState a;
  a.governor = "performance";
  a.aslr = 2;
  a.kernel = "Linux 6";
  a.cpuCount = 2;
  a.load1 = 0.5;
  MachineState b = a;
  b.load1 = 1.4; // +0.9: noise
  EXPECT_TRUE(machineChanges(a, b).empty());
  b.load1 = 1.6;
  EXPECT_EQ(machineChanges(a, b), std::vector<std::string>{"load"});
  b = a;
  b.governor = "powersave";
  b.aslr = 0;
  EXPECT_EQ(machineChanges(a, b), (std::vector<std::string>{"governor", "aslr"}));
}

TEST(Machine, ReadsThisMachine) {
  MachineState m = readMachineState({"sh-does-not-exist-alea"});
  EXPECT_GT(m.cpuCount, 0);
  EXPECT_FALSE(m.kernel.empty());
  EXPECT_GE(m.aslr, 0); // /proc/sys/kernel/randomize_va_space exists on Linux
  EXPECT_NE(m.compilers.find("(not found)"), std::string::npos);
  MachineState again = recheckMachineState(m);
  EXPECT_EQ(again.kernel, m.kernel);
  EXPECT_EQ(again.aslr, m.aslr);
}
