// [[target]] tables and the command lines alea builds for them: parsing and
// its errors, machines = "level" checks, the ssh and srun argv (user strings
// only ever as whole arguments; the remote command one word built by
// shellJoin), all without a network.
#include "alea/config/config.hpp"
#include "alea/remote/targets.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace alea;
using namespace alea::runner;

namespace {

const char *kTail = R"toml(
[[system]]
name = "a"
build = ["true"]
[[benchmark]]
name = "b"
command = ["true"]
)toml";

Expected<CampaignConfig> parse(const std::string &head) {
  return parseCampaignText(head + kTail, "c.toml");
}

TEST(TargetConfig, ParsesSshAndSlurmTargetsWithOverrides) {
  auto c = parse(R"toml(
[campaign]
machines = "level"
[levels]
builds = 4
[[target]]
name = "box"
ssh = "me@box.example"
ssh_options = ["-p", "2222", "-F", "cfg"]
workdir = "/scratch/alea"
cpus = [2, 3]
aslr = "off"
env = { OMP_NUM_THREADS = "1" }
[[target]]
name = "cluster"
slurm = { partition = "bench", constraint = "skylake", account = "lab", time_limit = "2:00:00", exclusive = false, options = ["--qos=low"] }
)toml");
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->targets.size(), 2u);
  EXPECT_EQ(c->machines, Machines::Level);
  const TargetConfig &box = c->targets[0];
  EXPECT_EQ(box.ssh, "me@box.example");
  EXPECT_EQ(box.sshOptions, (std::vector<std::string>{"-p", "2222", "-F", "cfg"}));
  EXPECT_EQ(box.workdir, "/scratch/alea");
  EXPECT_EQ(box.cpus, std::optional<std::vector<int>>({2, 3}));
  EXPECT_EQ(box.disableAslr, std::optional<bool>(true));
  EXPECT_EQ(box.env.at("OMP_NUM_THREADS"), "1");
  EXPECT_FALSE(box.slurm);
  const TargetConfig &cl = c->targets[1];
  ASSERT_TRUE(cl.slurm);
  EXPECT_EQ(cl.slurm->partition, "bench");
  EXPECT_EQ(cl.slurm->constraint, "skylake");
  EXPECT_EQ(cl.slurm->account, "lab");
  EXPECT_EQ(cl.slurm->timeLimit, "2:00:00");
  EXPECT_FALSE(cl.slurm->exclusive);
  EXPECT_EQ(cl.slurm->extra, std::vector<std::string>{"--qos=low"});
}

TEST(TargetConfig, DefaultsArePoolAndExclusive) {
  auto c = parse("[[target]]\nname = \"c\"\nslurm = {}\n");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->machines, Machines::Pool);
  EXPECT_TRUE(c->targets[0].slurm->exclusive);
  auto none = parse("");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->targets.empty());
}

TEST(TargetConfig, BuildsOnTargetsWithTheirToolDirectory) {
  const std::string system = "[[system]]\nname = \"a\"\nbuild = [\"true\"]\nartifacts = [\"p\"]\n"
                             "[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n";
  const std::string targets =
      "[[target]]\nname = \"t\"\nssh = \"h\"\ntool_dir = \"/opt/alea/bin\"\n"
      "[[target]]\nname = \"u\"\nssh = \"g\"\n";
  auto c = parseCampaignText("[campaign]\nbuild_on = \"targets\"\n" + system + targets, "c.toml");
  ASSERT_TRUE(c) << c.error();
  EXPECT_TRUE(c->buildOnTargets);
  EXPECT_EQ(c->targets[0].toolDir, "/opt/alea/bin");
  EXPECT_EQ(c->targets[1].toolDir, ""); // the host's tool directory
  auto host = parse("[[target]]\nname = \"t\"\nssh = \"h\"\n");
  ASSERT_TRUE(host) << host.error();
  EXPECT_FALSE(host->buildOnTargets); // the host builds by default
  // Mistakes: one line, at build_on.
  auto err = [](const std::string &text) {
    auto bad = parseCampaignText(text, "c.toml");
    return bad ? std::string() : bad.error();
  };
  std::string alone = err("[campaign]\nbuild_on = \"targets\"\n" + system);
  EXPECT_EQ(alone.rfind("c.toml:2:12:", 0), 0u) << alone;
  EXPECT_NE(alone.find("expects [[target]] tables"), std::string::npos) << alone;
  EXPECT_NE(err("[campaign]\nbuild_on = \"node\"\n" + system).find("\"host\" or \"targets\""),
            std::string::npos);
  EXPECT_NE(err("[campaign]\nbuild_on = \"targets\"\n" + std::string(kTail) + targets)
                .find("artifacts = [...] in every system"),
            std::string::npos);
  EXPECT_NE(err(system + "[[target]]\nname = \"t\"\nssh = \"h\"\ntool_dir = \"bin\"\n")
                .find("absolute directory"),
            std::string::npos);
}

TEST(TargetConfig, ATildeWorkdirIsInTheLoginDirectory) {
  // The workdir reaches the remote shell quoted: "~/x" means x relative to
  // the login directory, where ssh starts.
  auto c = parse("[[target]]\nname = \"t\"\nssh = \"h\"\nworkdir = \"~/bench/alea\"\n");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->targets[0].workdir, "bench/alea");
  auto home = parse("[[target]]\nname = \"t\"\nssh = \"h\"\nworkdir = \"~\"\n");
  ASSERT_TRUE(home) << home.error();
  EXPECT_EQ(home->targets[0].workdir, ".");
  EXPECT_FALSE(parse("[[target]]\nname = \"t\"\nssh = \"h\"\nworkdir = \"~other/x\"\n"));
  EXPECT_FALSE(parse("[[target]]\nname = \"t\"\nssh = \"h\"\nworkdir = \"-rf\"\n"));
}

TEST(TargetConfig, MistakesAreOneLineWithThePlace) {
  auto err = [](const std::string &head) {
    auto c = parse(head);
    EXPECT_FALSE(c) << head;
    return c ? std::string() : c.error();
  };
  EXPECT_NE(err("[[target]]\nname = \"x\"\n").find("expected either ssh"), std::string::npos);
  EXPECT_NE(err("[[target]]\nname = \"x\"\nssh = \"h\"\nslurm = {}\n").find("expected either ssh"),
            std::string::npos);
  EXPECT_NE(err("[[target]]\nname = \"x\"\nssh = \"-oProxyCommand=evil\"\n").find("not an option"),
            std::string::npos);
  EXPECT_NE(err("[[target]]\nname = \"a b\"\nssh = \"h\"\n").find("target name"),
            std::string::npos);
  EXPECT_NE(err("[[target]]\nname = \"x\"\nssh = \"h\"\nport = 22\n").find("unknown key 'port'"),
            std::string::npos);
  EXPECT_NE(err("[[target]]\nname = \"x\"\nssh = \"h\"\n[[target]]\nname = \"x\"\nssh = \"g\"\n")
                .find("unique target name"),
            std::string::npos);
  EXPECT_NE(err("[[target]]\nname = \"x\"\nslurm = { nodes = 2 }\n").find("nodes = 1"),
            std::string::npos);
  EXPECT_NE(err("[campaign]\nmachines = \"cluster\"\n").find("machines = \"pool\""),
            std::string::npos);
  std::string one =
      err("[campaign]\nmachines = \"level\"\n[[target]]\nname = \"x\"\nssh = \"h\"\n");
  EXPECT_EQ(one.rfind("c.toml:1:1:", 0), 0u) << one;
  EXPECT_NE(one.find("two or more [[target]]"), std::string::npos) << one;
  std::string odd = err("[campaign]\nmachines = \"level\"\n[levels]\nbuilds = 3\n"
                        "[[target]]\nname = \"x\"\nssh = \"h\"\n[[target]]\nname = \"y\"\n"
                        "ssh = \"g\"\n");
  EXPECT_NE(odd.find("multiple of the 2 targets"), std::string::npos) << odd;
}

TEST(TargetArgv, SshKeepsUserStringsAsWholeArgumentsAndTheUsersOptionsFirst) {
  TargetConfig t;
  t.name = "t";
  t.ssh = "me@host; rm -rf /";
  t.sshOptions = {"-F", "my config"};
  std::string remote = alea::shellJoin({"/w d/bin/alea-x", "__target", "--workdir", "$(evil)"});
  std::vector<std::string> argv = sshArgv(t, remote);
  ASSERT_GE(argv.size(), 6u);
  EXPECT_EQ(argv[0], "ssh");
  EXPECT_EQ(argv[1], "-F");
  EXPECT_EQ(argv[2], "my config");
  EXPECT_NE(std::find(argv.begin(), argv.end(), "BatchMode=yes"), argv.end());
  // No StrictHostKeyChecking=no: host keys are checked as the user's ssh does.
  for (const auto &a : argv)
    EXPECT_EQ(a.find("StrictHostKeyChecking"), std::string::npos) << a;
  // The destination after "--" (never an option), the remote command last, one word.
  EXPECT_EQ(argv[argv.size() - 3], "--");
  EXPECT_EQ(argv[argv.size() - 2], "me@host; rm -rf /");
  EXPECT_EQ(argv.back(), "'/w d/bin/alea-x' __target --workdir '$(evil)'");
}

TEST(TargetArgv, SrunAsksForAnExclusiveNodeAndPassesTheSettings) {
  TargetConfig t;
  t.name = "c";
  t.slurm = SlurmSettings{};
  t.slurm->partition = "p";
  t.slurm->timeLimit = "10";
  t.slurm->extra = {"--qos=x"};
  auto argv = srunArgv(t, "alea-k-c", {"/opt/alea", "__target", "--workdir", "/d"});
  auto has = [&](const std::string &a) {
    return std::find(argv.begin(), argv.end(), a) != argv.end();
  };
  EXPECT_EQ(argv.front(), "srun");
  EXPECT_TRUE(has("--exclusive"));
  EXPECT_TRUE(has("--partition=p"));
  EXPECT_TRUE(has("--time=10"));
  EXPECT_TRUE(has("--job-name=alea-k-c"));
  EXPECT_TRUE(has("--unbuffered"));
  EXPECT_TRUE(has("--qos=x"));
  EXPECT_EQ(std::vector<std::string>(argv.end() - 4, argv.end()),
            (std::vector<std::string>{"/opt/alea", "__target", "--workdir", "/d"}));
  t.slurm->exclusive = false;
  auto shared = srunArgv(t, "j", {"a"});
  EXPECT_EQ(std::find(shared.begin(), shared.end(), "--exclusive"), shared.end());
}

} // namespace
