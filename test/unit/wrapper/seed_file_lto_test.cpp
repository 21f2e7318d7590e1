// ALEA_SEED_FILE (the seed's source for rebuilds after a seed change: its
// rules and the dependency-file entry compiles get) and the link record's
// target for bitcode-only links (the triple of a bitcode file and the ELF
// target it stands for). Real bitcode from clang is read in
// test/lit/wrapper/lto-bitcode-record.test.
#include "alea/wrapper/bitcode.hpp"
#include "alea/wrapper/command.hpp"
#include "alea/wrapper/config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace alea::wrapper;

namespace {

// Settings from a fake environment and a fake file system.
std::optional<std::string> read(std::map<std::string, std::string> vars,
                                std::map<std::string, std::string> files, Settings &out) {
  auto settings = readSettings(
      Tool::Cc,
      [&vars](const char *name) -> std::optional<std::string> {
        auto it = vars.find(name);
        return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
      },
      [&files](const std::string &path) -> std::optional<std::string> {
        auto it = files.find(path);
        return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
      });
  if (!settings)
    return settings.error();
  out = std::move(*settings);
  return std::nullopt;
}

Classification compileOf(Mode mode) {
  Classification c;
  c.mode = mode;
  return c;
}

std::vector<std::string>::difference_type countOf(const std::vector<std::string> &argv,
                                                  const std::string &word) {
  return std::count(argv.begin(), argv.end(), word);
}

} // namespace

TEST(SeedFile, HoldsTheSeed) {
  Settings s;
  EXPECT_FALSE(read({{"ALEA_SEED_FILE", "/b/seed"}}, {{"/b/seed", "42\n"}}, s));
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.seedFile, "/b/seed");
  EXPECT_FALSE(read({{"ALEA_SEED_FILE", "/b/seed"}}, {{"/b/seed", "  0x2A\r\n\n"}}, s));
  EXPECT_EQ(s.seed, 42u);
  // An empty variable is unset, as for ALEA_SEED.
  EXPECT_FALSE(read({{"ALEA_SEED_FILE", ""}, {"ALEA_SEED", "7"}}, {}, s));
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.seedFile, "");
}

TEST(SeedFile, BothSetIsAnError) {
  Settings s;
  auto error = read({{"ALEA_SEED_FILE", "/b/seed"}, {"ALEA_SEED", "42"}}, {{"/b/seed", "42"}}, s);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("ALEA_SEED and ALEA_SEED_FILE are both set"), std::string::npos);
}

TEST(SeedFile, BadFilesAreErrors) {
  Settings s;
  const std::map<std::string, std::string> files = {
      {"/b/empty", " \n"}, {"/b/junk", "seed 42\n"}, {"/b/two", "1\n2\n"}};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"seed", "is not an absolute path"},
      {"/b/missing", "cannot be read"},
      {"/b/empty", "is empty"},
      {"/b/junk", "holds 'seed 42', not a seed"},
      {"/b/two", "holds '1?2', not a seed"},
  };
  for (const auto &[path, message] : cases) {
    auto error = read({{"ALEA_SEED_FILE", path}}, files, s);
    ASSERT_TRUE(error) << path;
    EXPECT_NE(error->find("ALEA_SEED_FILE='" + path + "'"), std::string::npos) << *error;
    EXPECT_NE(error->find(message), std::string::npos) << *error;
  }
  // Without a reader nothing can be read.
  EXPECT_FALSE(readSettings(Tool::Cc, [](const char *name) -> std::optional<std::string> {
    return std::string(name) == "ALEA_SEED_FILE" ? std::optional<std::string>("/b/seed")
                                                 : std::nullopt;
  }));
}

TEST(SeedFile, CompilesNameItInTheirDependencyFile) {
  Settings s;
  s.seed = 1;
  s.seedFile = "/b/seed";
  for (Mode mode : {Mode::Compile, Mode::CompileAndLink}) {
    auto p = planCommand(Tool::Cc, {"-MMD", "-c", "a.c"}, compileOf(mode), s, "/cc", "/p.so");
    const auto at = std::find(p.argv.begin(), p.argv.end(), "-fdepfile-entry=/b/seed");
    ASSERT_NE(at, p.argv.end());
    EXPECT_EQ(*(at - 1), "-Xclang");
    // Ours, before the user's arguments.
    EXPECT_LT(at - p.argv.begin(),
              std::find(p.argv.begin(), p.argv.end(), "-MMD") - p.argv.begin());
  }
  // Links, pass-throughs and a seed from ALEA_SEED add nothing of the kind.
  auto link = planCommand(Tool::Cc, {"a.o", "b.o"}, compileOf(Mode::Link), s, "/cc", "/p.so");
  EXPECT_EQ(countOf(link.argv, "-Xclang"), 0);
  auto pass = planCommand(Tool::Cc, {"-M", "a.c"}, compileOf(Mode::PassThrough), s, "/cc", "/p.so");
  EXPECT_EQ(pass.argv, (std::vector<std::string>{"/cc", "-M", "a.c"}));
  s.seedFile.clear();
  auto plain = planCommand(Tool::Cc, {"-c", "a.c"}, compileOf(Mode::Compile), s, "/cc", "/p.so");
  EXPECT_EQ(countOf(plain.argv, "-Xclang"), 0);
}

TEST(BitcodeTarget, TriplesWithAFixedElfTarget) {
  auto x86 = elfTargetOfTriple("x86_64-pc-linux-gnu");
  ASSERT_TRUE(x86);
  EXPECT_EQ(*x86, (ElfTarget{2, 1, 0, 62, 0}));
  EXPECT_EQ(elfTargetOfTriple("x86_64-unknown-linux-gnux32"), (ElfTarget{1, 1, 0, 62, 0}));
  EXPECT_EQ(elfTargetOfTriple("i686-pc-linux-gnu"), (ElfTarget{1, 1, 0, 3, 0}));
  EXPECT_EQ(elfTargetOfTriple("i386-unknown-linux-gnu"), (ElfTarget{1, 1, 0, 3, 0}));
  EXPECT_EQ(elfTargetOfTriple("aarch64-unknown-linux-gnu"), (ElfTarget{2, 1, 0, 183, 0}));
  EXPECT_EQ(elfTargetOfTriple("aarch64_be-none-elf"), (ElfTarget{2, 2, 0, 183, 0}));
}

TEST(BitcodeTarget, OtherTriplesGiveNoTarget) {
  // e_flags from ABI options, another OS ABI, not ELF, ILP32, unknown.
  for (const char *t :
       {"riscv64-unknown-linux-gnu", "armv7-unknown-linux-gnueabihf", "x86_64-unknown-freebsd14",
        "x86_64-apple-macosx14", "x86_64-pc-windows-msvc", "aarch64-unknown-linux-gnu_ilp32",
        "i786-pc-linux-gnu", "x86_64", ""})
    EXPECT_FALSE(elfTargetOfTriple(t)) << t;
}

TEST(BitcodeTarget, NotBitcodeOrTruncatedGivesNoTriple) {
  for (std::string bytes : {std::string(), std::string("BC"), std::string("BC\xc0\xde", 4),
                            std::string("BC\xc0\xde\x35\x14\x00\x00", 8),
                            std::string("\x7f"
                                        "ELF\x02\x01\x01",
                                        7),
                            std::string("\xde\xc0\x17\x0b\0\0\0\0\x14\0\0\0\x04\0\0\0", 16)}) {
    const ByteReader reader = [&](std::uint64_t at, std::size_t n) -> std::optional<std::string> {
      if (at > bytes.size())
        return std::nullopt;
      return bytes.substr(at, n);
    };
    EXPECT_FALSE(bitcodeTriple(reader)) << bytes.size();
  }
}

TEST(ThinArchive, MalformedHeadersGiveNoMembers) {
  const std::string bad = "!<thin>\nnot a header";
  const ByteReader reader = [&](std::uint64_t at, std::size_t n) -> std::optional<std::string> {
    if (at > bad.size())
      return std::nullopt;
    return bad.substr(at, n);
  };
  EXPECT_FALSE(thinArchiveMembers(reader));
}
