// The remote-execution pieces without a network (shell quoting is common's,
// tested in test/unit/common/shell_test.cpp): the frame codec, the
// wire values, and a TargetSession driving a real `alea __target` helper
// started locally (staging with hash checks, blocks with streamed output,
// cancel, a helper killed mid-execution, reconnecting).
#include "alea/remote/remote.hpp"

#include "alea/exec/hash.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

namespace alea::runner {
namespace {

using test::TempDir;

TEST(Frames, DecodeAcrossArbitraryChunks) {
  std::string stream = encodeFrame("hello", nlohmann::json{{"a", 1}}) +
                       encodeFrame("o0", std::string_view("raw\nbytes\0x", 11)) +
                       encodeFrame("bye", std::string_view());
  FrameReader reader;
  std::vector<Frame> frames;
  for (char c : stream) { // one byte at a time
    reader.feed(std::string_view(&c, 1));
    for (;;) {
      auto f = reader.next();
      ASSERT_TRUE(f) << f.error();
      if (!*f)
        break;
      frames.push_back(**f);
    }
  }
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].tag, "hello");
  EXPECT_EQ(framePayload(frames[0])->at("a").get<int>(), 1);
  EXPECT_EQ(frames[1].payload, std::string("raw\nbytes\0x", 11));
  EXPECT_EQ(frames[2].tag, "bye");
  EXPECT_TRUE(frames[2].payload.empty());
}

TEST(Frames, MalformedHeaderIsAnError) {
  FrameReader reader;
  reader.feed("hello x12\n");
  EXPECT_FALSE(reader.next());
  FrameReader noSpace;
  noSpace.feed("hello\n");
  EXPECT_FALSE(noSpace.next());
}

TEST(Wire, RequestAndResultRoundTrip) {
  ExecutionRequest r;
  r.argv = {"prog", "a b", std::string("\xff\x00z", 3)};
  r.env = {"A=1", "B=two words"};
  r.workdir = "/w";
  r.timeoutSeconds = 2.5;
  r.cpus = {1, 3};
  r.disableAslr = true;
  r.envPadBytes = 77;
  r.recordsPipe = true;
  ExecutionRequest back =
      requestFromJson(nlohmann::json::from_msgpack(nlohmann::json::to_msgpack(requestToJson(r))));
  EXPECT_EQ(back.argv, r.argv);
  EXPECT_EQ(back.env, r.env);
  EXPECT_EQ(back.workdir, "/w");
  EXPECT_EQ(back.timeoutSeconds, 2.5);
  EXPECT_EQ(back.cpus, r.cpus);
  EXPECT_TRUE(back.disableAslr);
  EXPECT_EQ(back.envPadBytes, 77);
  EXPECT_TRUE(back.recordsPipe);

  ExecutionResult res;
  res.output.stderrTail = std::string("err\xff", 4);
  res.output.exitCode = 3;
  res.output.wallSeconds = 0.125;
  res.migrations = 4;
  res.otherLoad = 0.5;
  res.leftovers = {"pid 1 (x)"};
  ExecutionResult rb =
      resultFromJson(nlohmann::json::from_msgpack(nlohmann::json::to_msgpack(resultToJson(res))));
  EXPECT_EQ(rb.output.stderrTail, res.output.stderrTail);
  EXPECT_EQ(rb.output.exitCode, 3);
  EXPECT_EQ(rb.output.wallSeconds, 0.125);
  EXPECT_EQ(rb.migrations, std::optional<std::int64_t>(4));
  EXPECT_EQ(rb.otherLoad, std::optional<double>(0.5));
  EXPECT_FALSE(rb.cpuMhz);
  EXPECT_EQ(rb.leftovers, res.leftovers);
  EXPECT_TRUE(rb.output.counterValues.empty());
  EXPECT_FALSE(rb.output.simulated);
}

// A metric's counter or simulated cache goes to the target, and its value
// or counts come back.
TEST(Wire, MetricRequestsAndValuesRoundTrip) {
  auto wire = [](const nlohmann::json &j) {
    return nlohmann::json::from_msgpack(nlohmann::json::to_msgpack(j));
  };
  ExecutionRequest counter, simulated;
  counter.counters = {Metric::TaskClock, Metric::PageFaults};
  simulated.simulate = SimCache{"16384,4,64", "32768,8,64", "1048576,16,64"};
  simulated.nativeToo = true;
  ExecutionRequest c = requestFromJson(wire(requestToJson(counter)));
  ExecutionRequest s = requestFromJson(wire(requestToJson(simulated)));
  EXPECT_EQ(c.counters, counter.counters);
  EXPECT_FALSE(c.simulate);
  EXPECT_FALSE(c.nativeToo);
  EXPECT_TRUE(s.counters.empty());
  ASSERT_TRUE(s.simulate);
  EXPECT_EQ(*s.simulate, *simulated.simulate);
  EXPECT_TRUE(s.nativeToo);

  ExecutionResult res;
  res.output.counterValues = {{Metric::TaskClock, 123456789.0}, {Metric::PageFaults, 42.0}};
  res.output.simulated = CachegrindCounts{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
  res.output.metricError = "why";
  ExecutionResult rb = resultFromJson(wire(resultToJson(res)));
  EXPECT_EQ(rb.output.counterValues, res.output.counterValues);
  ASSERT_TRUE(rb.output.simulated);
  EXPECT_EQ(*rb.output.simulated, *res.output.simulated);
  EXPECT_EQ(rb.output.metricError, "why");
}

// Collects what a sink receives.
struct Collect final : OutputSink {
  std::string out, err, records;
  void write(OutputChannel c, std::string_view b) override {
    (c == OutputChannel::Stdout ? out : c == OutputChannel::Stderr ? err : records).append(b);
  }
};

std::vector<std::string> thisEnv() {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    env.emplace_back(*e);
  return env;
}

class Session : public ::testing::Test {
protected:
  TempDir dir;
  TargetSession session{{ALEA_EXECUTABLE, "__target", "--workdir", dir.file("target")},
                        dir.file("session.log")};
};

TEST_F(Session, RunsABlockAndStreamsItsOutput) {
  ASSERT_TRUE(session.start().ok());
  EXPECT_EQ(session.workdir(), std::filesystem::canonical(dir.file("target")).string());
  EXPECT_EQ(std::filesystem::status(dir.file("target")).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_all); // private to the user
  Collect c0, c1;
  ExecutionRequest a, b;
  a.argv = {"/bin/sh", "-c", "echo out-$ALEA_X; echo err >&2; exit 3"};
  a.env = {"ALEA_X=1", "PATH=/usr/bin:/bin"};
  a.sink = &c0;
  a.stdoutLimit = 0;
  b.argv = {"/bin/sh", "-c", "printf '%s' \"${#ALEA_ENV_PAD}\""};
  b.env = {"PATH=/usr/bin:/bin"};
  b.envPadBytes = 123;
  b.sink = &c1;
  BlockResult block = session.runBlock({a, b}, {});
  ASSERT_EQ(block.results.size(), 2u);
  EXPECT_FALSE(block.results[0].lost) << block.results[0].lostReason;
  EXPECT_EQ(block.results[0].output.exitCode, 3);
  EXPECT_EQ(c0.out, "out-1\n");
  EXPECT_EQ(c0.err, "err\n");
  EXPECT_EQ(c1.out, "123");
  EXPECT_GT(block.results[1].output.wallSeconds, 0);
  EXPECT_GT(block.results[1].startedAt, 0);
  ASSERT_TRUE(session.lastMachine);
  EXPECT_GT(session.lastMachine->cpuCount, 0);
  auto m = session.machine();
  ASSERT_TRUE(m) << m.error();
  EXPECT_FALSE(m->kernel.empty());
}

TEST_F(Session, StagesFilesOnceByContent) {
  ASSERT_TRUE(session.start().ok());
  std::string prog = dir.write("prog.sh", "#!/bin/sh\necho staged\n");
  std::filesystem::permissions(prog, std::filesystem::perms::owner_all);
  std::string data = dir.write("data.txt", "payload");
  std::vector<StagedFile> files{{"bin/prog", prog, *sha256File(prog), 0755},
                                {"data.txt", data, *sha256File(data), 0644}};
  auto staged = session.stage("builds/a", files);
  ASSERT_TRUE(staged) << staged.error();
  ExecutionRequest r;
  r.argv = {*staged + "/bin/prog"};
  r.captureStdout = true;
  EXPECT_EQ(session.run(r).output.stdoutText, "staged\n");
  std::ifstream in(*staged + "/data.txt");
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, "payload");
  // A second stage of the same content ships nothing: the objects are there.
  std::filesystem::remove(prog);
  auto again = session.stage("builds/b", files);
  ASSERT_TRUE(again) << again.error();
  EXPECT_TRUE(std::filesystem::exists(*again + "/bin/prog"));
  // A staging directory outside the workdir is refused.
  EXPECT_FALSE(session.stage("../escape", files));
  EXPECT_FALSE(session.stage("x", {{"../../escape", data, *sha256File(data), 0644}}));
}

TEST_F(Session, AnObjectThatArrivesDamagedIsRefused) {
  ASSERT_TRUE(session.start().ok());
  std::string data = dir.write("data.txt", "payload");
  std::string wrong = sha256Hex("something else");
  auto staged = session.stage("builds/a", {{"data.txt", data, wrong, 0644}});
  ASSERT_FALSE(staged);
  EXPECT_NE(staged.error().find("damaged"), std::string::npos) << staged.error();
  EXPECT_FALSE(std::filesystem::exists(dir.file("target/objects/" + wrong)));
}

TEST_F(Session, MakesAFreshBuildDirectoryAndFetchesWhatABuildMade) {
  ASSERT_TRUE(session.start().ok());
  auto made = session.freshDir("c/builds/a/0");
  ASSERT_TRUE(made) << made.error();
  ExecutionRequest r;
  r.argv = {"/bin/sh", "-c", "printf made > prog && chmod 755 prog && mkdir sub"};
  r.workdir = *made;
  EXPECT_EQ(session.run(r).output.exitCode, 0);
  // By its absolute path there: the bytes, the mode, the hash, verified.
  auto f = session.fetch(*made + "/prog");
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f->data, "made");
  EXPECT_EQ(f->hash, sha256Hex("made"));
  EXPECT_EQ(f->mode, 0755u);
  // The target keeps it as an object: staging it later ships nothing.
  EXPECT_TRUE(std::filesystem::exists(dir.file("target/objects/" + f->hash)));
  // Made fresh again, the directory is empty (a lost build's leftovers go).
  ASSERT_TRUE(session.freshDir("c/builds/a/0"));
  EXPECT_FALSE(std::filesystem::exists(*made + "/prog"));
  // A missing file is an error of the request; the session goes on.
  EXPECT_FALSE(session.fetch(*made + "/prog"));
  EXPECT_TRUE(session.alive());
  // Nothing outside the workdir.
  EXPECT_FALSE(session.fetch("/etc/passwd"));
  EXPECT_FALSE(session.fetch(*made + "/../../../../../escape"));
  EXPECT_FALSE(session.freshDir("../escape"));
  EXPECT_FALSE(session.freshDir("."));
  EXPECT_TRUE(session.alive());
}

TEST_F(Session, ReportsMissingSharedLibraries) {
  ASSERT_TRUE(session.start().ok());
  auto libs = session.missingLibraries({"/bin/sh"});
  ASSERT_TRUE(libs) << libs.error();
  EXPECT_TRUE(libs->empty());
}

TEST_F(Session, CancelEndsTheRunningExecution) {
  ASSERT_TRUE(session.start().ok());
  std::atomic<bool> cancel{false};
  ExecutionRequest r;
  r.argv = {"/bin/sh", "-c", "echo started; exec sleep 300"};
  r.env = thisEnv();
  r.cancel = &cancel;
  Collect c;
  r.sink = &c;
  std::thread t([&] {
    test::waitFor([&] { return c.out.find("started") != std::string::npos; });
    cancel = true;
  });
  ExecutionResult res = session.run(r);
  t.join();
  EXPECT_TRUE(res.cancelled);
  EXPECT_FALSE(res.lost);
  EXPECT_TRUE(session.alive()); // the session goes on
  r.argv = {"/bin/true"};
  r.cancel = nullptr;
  r.sink = nullptr;
  EXPECT_EQ(session.run(r).output.exitCode, 0);
}

TEST_F(Session, ACancelArrivingWithItsBlockStillCancelsIt) {
  // Ctrl-C while the block is on its way: the host sends the cancel right
  // after the block; the helper must not run the block to its end.
  ASSERT_TRUE(session.start().ok());
  std::atomic<bool> cancel{true};
  ExecutionRequest r;
  r.argv = {"/bin/sh", "-c", "exec sleep 300"};
  r.env = thisEnv();
  r.cancel = &cancel;
  Collect c;
  r.sink = &c; // a block with a sink: the session stays, the execution is cancelled
  ExecutionResult res = session.run(r);
  EXPECT_TRUE(res.cancelled);
  EXPECT_FALSE(res.lost) << res.lostReason;
}

TEST_F(Session, StartGivesUpWhenCancelledBeforeTheHello) {
  // A helper that never answers (srun waiting in the queue): start returns
  // once the flag is set.
  TargetSession silent({"/bin/sh", "-c", "exec sleep 300"}, dir.file("silent.log"));
  std::atomic<bool> cancel{false};
  std::thread t([&] {
    test::waitFor([&] { return silent.pid() > 0; });
    cancel = true;
  });
  Status s = silent.start(&cancel);
  t.join();
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(silent.alive());
}

TEST_F(Session, AHelperKilledMidExecutionLosesItThenReconnects) {
  ASSERT_TRUE(session.start().ok());
  ExecutionRequest r;
  r.argv = {"/bin/sh", "-c", "echo started; exec sleep 300"};
  r.env = thisEnv();
  Collect c;
  r.sink = &c;
  std::thread killer([&] {
    test::waitFor([&] { return c.out.find("started") != std::string::npos; });
    ::kill(session.pid(), SIGKILL);
  });
  ExecutionResult res = session.run(r);
  killer.join();
  EXPECT_TRUE(res.lost);
  EXPECT_FALSE(res.lostReason.empty());
  EXPECT_FALSE(session.alive());
  ASSERT_TRUE(session.start().ok());
  r.argv = {"/bin/true"};
  r.sink = nullptr;
  ExecutionResult again = session.run(r);
  EXPECT_FALSE(again.lost);
  EXPECT_EQ(again.output.exitCode, 0);
}

} // namespace
} // namespace alea::runner
