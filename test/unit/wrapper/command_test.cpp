// The planned final argv: what each mode adds, where, and the link-order shuffle
// (a permutation of the movable slots only, deterministic per seed, different
// across seeds).
#include "alea/wrapper/command.hpp"

#include "alea/random.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace alea::wrapper;

namespace {

Settings seeded(std::uint64_t seed, FactorSet f = FactorSet::all()) {
  Settings s;
  s.seed = seed;
  s.factors = f;
  return s;
}

FactorSet factors(const char *list) {
  FactorSet f;
  EXPECT_FALSE(parseFactors(list, f));
  return f;
}

Classification make(Mode mode, std::vector<std::size_t> slots = {}) {
  Classification c;
  c.mode = mode;
  c.linkOrderSlots = std::move(slots);
  return c;
}

// n object files o0.o ... and the slots they occupy (all of them).
std::pair<std::vector<std::string>, std::vector<std::size_t>> numberedObjects(int n) {
  std::vector<std::string> args;
  std::vector<std::size_t> slots;
  for (int i = 0; i < n; ++i) {
    std::string name = "o"; // (built in steps: GCC 12's -Wrestrict false positive)
    name += std::to_string(i);
    name += ".o";
    args.push_back(name);
    slots.push_back(static_cast<std::size_t>(i));
  }
  return {args, slots};
}

// alea kept the compiler's default linker for a link (no lld, no trial), and
// the log says why.
void expectDefaultLinkerKept(const Plan &p, const std::string &why) {
  EXPECT_FALSE(p.lldByAlea);
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "-fuse-ld=lld"), 0);
  ASSERT_GE(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0], "section-order skipped: alea keeps the default linker: " + why);
}

} // namespace

TEST(Plan, NoSeedKeepsTheOriginalArguments) {
  Settings s;
  auto p = planCommand(Tool::Cc, {"-c", "a.c"}, make(Mode::Compile), s, "/cc", "/p.so");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "-c", "a.c"}));
}

TEST(Plan, PassThroughKeepsTheOriginalArguments) {
  auto p = planCommand(Tool::Cc, {"-E", "a.c"}, make(Mode::PassThrough), seeded(1), "/cc", "/p.so");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "-E", "a.c"}));
}

TEST(Plan, CompileAddsPluginAndSectionsFirst) {
  auto p = planCommand(Tool::Cc, {"-c", "a.c", "--", "b.c"}, make(Mode::Compile), seeded(1), "/cc",
                       "/p.so");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "-fpass-plugin=/p.so", "-ffunction-sections",
                                              "-fdata-sections", "-c", "a.c", "--", "b.c"}));
}

TEST(Plan, CompileWithoutSectionOrderKeepsThePluginOnly) {
  FactorSet f;
  ASSERT_FALSE(parseFactors("function-order", f));
  auto p = planCommand(Tool::Cc, {"-c", "a.c"}, make(Mode::Compile), seeded(1, f), "/cc", "/p.so");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "-fpass-plugin=/p.so", "-c", "a.c"}));
}

// flang-new-19 rejects -ffunction-sections and -fdata-sections: alea-fc adds
// the plugin only (which gives flang's functions their sections) and says so.
TEST(Plan, FortranCompileAddsThePluginButNoSectionOptions) {
  auto p = planCommand(Tool::Fc, {"-c", "p.f90"}, make(Mode::Compile), seeded(1), "/fc", "/p.so");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/fc", "-fpass-plugin=/p.so", "-c", "p.f90"}));
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("no -ffunction-sections"), std::string::npos) << p.notes[0];
  // Without section-order there is nothing to say.
  auto q = planCommand(Tool::Fc, {"-c", "p.f90"}, make(Mode::Compile),
                       seeded(1, factors("function-order")), "/fc", "/p.so");
  EXPECT_TRUE(q.notes.empty());
}

// flang-new-19 is the link driver of alea-fc as clang is alea-cc's: the same
// lld, section shuffle, link order and record.
TEST(Plan, FortranLinkIsTheSameAsACLink) {
  const std::vector<std::string> args = {"a.o", "b.o", "-o", "x"};
  auto c = make(Mode::Link, {0, 1});
  auto f = planCommand(Tool::Fc, args, c, seeded(7), "/fc", "/p.so");
  auto g = planCommand(Tool::Cc, args, c, seeded(7), "/cc", "/p.so");
  ASSERT_EQ(f.argv.size(), g.argv.size());
  EXPECT_EQ(f.argv[0], "/fc");
  EXPECT_EQ(std::vector<std::string>(f.argv.begin() + 1, f.argv.end()),
            std::vector<std::string>(g.argv.begin() + 1, g.argv.end()));
  EXPECT_TRUE(f.lldByAlea);
}

TEST(Plan, LinkAddsLldAndSectionShuffle) {
  auto p =
      planCommand(Tool::Cc, {"a.o", "-o", "x"}, make(Mode::Link, {0}), seeded(7), "/cc", "/p.so");
  const std::string shuffle = "-Wl,--shuffle-sections=*=" + std::to_string(lldShuffleSeed(7));
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "-fuse-ld=lld", "-Wl,--undefined-version",
                                              "-Wl,--warn-backrefs", shuffle, "a.o", "-o", "x"}));
}

// Where alea replaces GNU ld with lld, the program must come out as GNU ld
// would make it. An object without .note.GNU-stack gives GNU ld an executable
// stack: lld gets -z execstack (first, so a user's own -z noexecstack later on
// the line wins with lld as it does with GNU ld).
TEST(Plan, LldLinkOfAnObjectWithoutStackNoteGetsAnExecutableStack) {
  auto c = make(Mode::Link, {0, 1});
  c.execStackObject = "s.o";
  auto p = planCommand(Tool::Cc, {"s.o", "m.o", "-o", "x"}, c, seeded(7), "/cc", "");
  EXPECT_TRUE(p.lldByAlea);
  EXPECT_EQ(p.argv[3], "-Wl,--warn-backrefs");
  EXPECT_EQ(p.argv[4], "-Wl,-z,execstack");
  ASSERT_GE(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0], "-z execstack: s.o has no non-executable .note.GNU-stack, so GNU ld would "
                        "make the stack executable");
  // The user said what the stack is: both linkers do as told.
  c.userStack = true;
  p = planCommand(Tool::Cc, {"s.o", "m.o", "-Wl,-z,noexecstack"}, c, seeded(7), "/cc", "");
  EXPECT_TRUE(p.lldByAlea);
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "-Wl,-z,execstack"), 0);
  // A -r link: GNU ld writes an executable .note.GNU-stack, lld cannot.
  c.userStack = false;
  c.relocatable = true;
  p = planCommand(Tool::Cc, {"-r", "s.o", "m.o", "-o", "sm.o"}, c, seeded(7), "/cc", "");
  expectDefaultLinkerKept(p, "s.o has no non-executable .note.GNU-stack, which GNU ld's -r output "
                             "keeps and lld's does not");
}

TEST(Plan, UnpredictableStackKeepsTheDefaultLinker) {
  auto c = make(Mode::Link, {0});
  c.stackUnknown = "an object in lib.a has no .note.GNU-stack, so whether GNU ld makes the stack "
                   "executable depends on what it links";
  expectDefaultLinkerKept(planCommand(Tool::Cc, {"m.o", "lib.a"}, c, seeded(7), "/cc", ""),
                          c.stackUnknown);
  c.userStack = true; // -z execstack / -z noexecstack: nothing to predict
  EXPECT_TRUE(planCommand(Tool::Cc, {"m.o", "lib.a"}, c, seeded(7), "/cc", "").lldByAlea);
}

TEST(Plan, LldChosenByUsKeepsGnuLdLeniencyForVersionScripts) {
  // zlib's configure links its shared-library probe with a version script that
  // names symbols the probe does not define: GNU ld accepts it, lld >= 16 only
  // with --undefined-version. The user's own choice of lld is left as it is.
  auto p = planCommand(Tool::Cc, {"-shared", "a.o", "-Wl,--version-script,z.map"},
                       make(Mode::Link, {1}), seeded(7), "/cc", "");
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "-Wl,--undefined-version"), 1);
  auto c = make(Mode::Link, {0});
  c.userLinker = "lld";
  p = planCommand(Tool::Cc, {"a.o", "-fuse-ld=lld"}, c, seeded(7), "/cc", "");
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "-Wl,--undefined-version"), 0);
}

// When alea picks lld in place of the compiler's default linker, the driver
// tries the link and falls back to the original command if lld rejects it; a
// linker the user chose (or none picked by us) is exec'ed as it is.
TEST(Plan, LldChosenByAleaIsMarkedForTheTrial) {
  EXPECT_TRUE(planCommand(Tool::Cc, {"a.o", "b.o"}, make(Mode::Link, {0, 1}), seeded(7), "/cc", "")
                  .lldByAlea);
  EXPECT_TRUE(
      planCommand(Tool::Cc, {"a.c"}, make(Mode::CompileAndLink, {0}), seeded(7), "/cc", "/p.so")
          .lldByAlea);
  // -flto with function-order alone: lld for the plugin in the LTO link.
  auto lto = make(Mode::CompileAndLink, {0});
  lto.lto = "-flto";
  auto p = planCommand(Tool::Cc, {"-flto", "a.c"}, lto, seeded(7, factors("function-order")), "/cc",
                       "/p.so");
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "-fuse-ld=lld"), 1);
  EXPECT_TRUE(p.lldByAlea);
  // No lld needed (section-order off, no LTO): the default linker, exec'ed.
  p = planCommand(Tool::Cc, {"a.o", "b.o"}, make(Mode::Link, {0, 1}),
                  seeded(7, factors("link-order")), "/cc", "");
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "-fuse-ld=lld"), 0);
  EXPECT_FALSE(p.lldByAlea);
  // The user's own linker, lld or not.
  for (const char *linker : {"lld", "bfd"}) {
    auto c = make(Mode::Link, {0});
    c.userLinker = linker;
    c.nonLldLinker = std::string(linker) != "lld";
    EXPECT_FALSE(
        planCommand(Tool::Cc, {"a.o", std::string("-fuse-ld=") + linker}, c, seeded(7), "/cc", "")
            .lldByAlea)
        << linker;
  }
  // alea-ld (its linker is ALEA_LD), compiles, pass-through, no seed, not ELF.
  EXPECT_FALSE(
      planCommand(Tool::Ld, {"a.o"}, make(Mode::Link, {0}), seeded(7), "/ld.lld", "").lldByAlea);
  EXPECT_FALSE(planCommand(Tool::Cc, {"-c", "a.c"}, make(Mode::Compile), seeded(7), "/cc", "/p.so")
                   .lldByAlea);
  EXPECT_FALSE(
      planCommand(Tool::Cc, {"a.o"}, make(Mode::PassThrough), seeded(7), "/cc", "").lldByAlea);
  EXPECT_FALSE(
      planCommand(Tool::Cc, {"a.o"}, make(Mode::Link, {0}), Settings{}, "/cc", "").lldByAlea);
  auto wasm = make(Mode::Link, {0});
  wasm.target = "wasm32-unknown-wasi";
  EXPECT_FALSE(planCommand(Tool::Cc, {"a.o"}, wasm, seeded(7), "/cc", "").lldByAlea);
}

// A command that reads its source from standard input cannot run twice (the
// trial would consume what the original command needs): alea keeps the
// compiler's default linker for it, and says so.
TEST(Plan, StdinCommandKeepsTheDefaultLinker) {
  auto c = make(Mode::CompileAndLink, {});
  c.readsStdin = true;
  auto p = planCommand(Tool::Cc, {"-x", "c", "-", "-x", "none", "f.o", "-o", "p"}, c, seeded(7),
                       "/cc", "/p.so");
  expectDefaultLinkerKept(p, "the command reads standard input, which a fallback from lld could "
                             "not read again");
  EXPECT_EQ(p.argv[1], "-fpass-plugin=/p.so"); // still compiled with the plugin
  // A linker the user chose is theirs: no trial, so nothing to keep.
  c.userLinker = "lld";
  p = planCommand(Tool::Cc, {"-x", "c", "-", "-fuse-ld=lld"}, c, seeded(7), "/cc", "/p.so");
  EXPECT_EQ(std::count_if(p.argv.begin(), p.argv.end(),
                          [](const std::string &a) { return a.starts_with("-Wl,--shuffle"); }),
            1);
}

// The plugin is built for LLVM 19: another lld aborts an LTO link that loads it.
TEST(Plan, WhichLldLoadsThePlugin) {
  EXPECT_TRUE(lldLoadsPlugin("/usr/lib/llvm-19/bin/ld.lld", "/usr/lib/llvm-19/bin/lld"));
  EXPECT_TRUE(lldLoadsPlugin("ld.lld-19", "/usr/lib/llvm-19/bin/lld"));
  EXPECT_TRUE(lldLoadsPlugin("/opt/bin/ld.lld-19", "/opt/bin/ld.lld-19"));
  EXPECT_TRUE(lldLoadsPlugin("/usr/bin/ld.lld", "/usr/lib/llvm-19/bin/lld"));
  EXPECT_FALSE(lldLoadsPlugin("/usr/bin/ld.lld", "/usr/lib/llvm-14/bin/lld")); // Debian 12
  EXPECT_FALSE(lldLoadsPlugin("ld.lld-18", "/usr/lib/llvm-18/bin/lld"));
  EXPECT_FALSE(lldLoadsPlugin("/opt/llvm/bin/ld.lld", "/opt/llvm/bin/lld")); // says nothing
  EXPECT_FALSE(lldLoadsPlugin("/usr/lib/llvm-190/bin/ld.lld", "/usr/lib/llvm-190/bin/lld"));
}

TEST(Plan, AleaLdOffersThePluginOnlyToLlvm19Lld) {
  auto c = make(Mode::Link, {0, 1});
  c.elfTarget = ElfTarget{2, 1, 0, 62, 0};
  c.bitcodeInput = true;
  auto p = planCommand(Tool::Ld, {"a.o", "b.o"}, c, seeded(7), "/usr/bin/ld.lld-18", "/p.so",
                       /*linkerLoadsPlugin=*/false);
  for (const auto &a : p.argv)
    EXPECT_EQ(a.find("--load-pass-plugin"), std::string::npos) << a;
  EXPECT_EQ(std::count(p.notes.begin(), p.notes.end(),
                       "the LTO link does not load the plugin: the real linker /usr/bin/ld.lld-18 "
                       "is not LLVM 19's lld"),
            1);
  ASSERT_TRUE(p.record);
  EXPECT_EQ(p.record->descriptor,
            "alea-link-v1 seed=0x0000000000000007 factors=link-order,section-order");
  p = planCommand(Tool::Ld, {"a.o", "b.o"}, c, seeded(7), "/usr/bin/ld.lld-19", "/p.so", true);
  EXPECT_EQ(p.argv[1], "--load-pass-plugin=/p.so");
}

TEST(Plan, AleaCcLoadsThePluginOnlyIntoAnLlvm19Lld) {
  auto c = make(Mode::Link, {0});
  c.lto = "-flto";
  auto withLinker = [&](const std::string &linker) {
    c.userLinker = linker;
    const auto p = planCommand(Tool::Cc, {"-flto", "a.o", "--ld-path=" + linker}, c, seeded(7),
                               "/cc", "/p.so");
    return std::count(p.argv.begin(), p.argv.end(), "-Wl,--load-pass-plugin=/p.so") == 1;
  };
  EXPECT_TRUE(withLinker(""));
  EXPECT_TRUE(withLinker("lld"));
  EXPECT_TRUE(withLinker("/usr/bin/ld.lld-19"));
  EXPECT_TRUE(withLinker("/usr/lib/llvm-19/bin/ld.lld"));
  EXPECT_TRUE(withLinker("/build/bin/alea-ld"));
  EXPECT_FALSE(withLinker("/usr/bin/ld.lld")); // LLVM 14's on Debian 12
  EXPECT_FALSE(withLinker("/usr/bin/ld.lld-18"));
  c.userLinker = "/usr/bin/ld.lld-18";
  const auto p = planCommand(Tool::Cc, {"-flto", "a.o"}, c, seeded(7), "/cc", "/p.so");
  ASSERT_FALSE(p.notes.empty());
  EXPECT_NE(p.notes[0].find("the LTO link does not load the plugin (the linker /usr/bin/ld.lld-18 "
                            "is not LLVM 19's lld)"),
            std::string::npos)
      << p.notes[0];
}

TEST(Plan, CompileAndLinkAddsBoth) {
  auto p = planCommand(Tool::Cxx, {"a.cpp"}, make(Mode::CompileAndLink, {0}), seeded(7), "/cxx",
                       "/p.so");
  ASSERT_EQ(p.argv.size(), 9u);
  EXPECT_EQ(p.argv[1], "-fpass-plugin=/p.so");
  EXPECT_EQ(p.argv[4], "-fuse-ld=lld");
  EXPECT_EQ(p.argv[5], "-Wl,--undefined-version");
  EXPECT_EQ(p.argv[6], "-Wl,--warn-backrefs");
  EXPECT_EQ(p.argv[7].rfind("-Wl,--shuffle-sections=*=", 0), 0u);
}

TEST(Plan, UserLldChoiceIsKeptAndNonLldSkipsSectionOrder) {
  auto c = make(Mode::Link, {0});
  c.userLinker = "lld";
  auto p = planCommand(Tool::Cc, {"a.o", "-fuse-ld=lld"}, c, seeded(7), "/cc", "");
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "-fuse-ld=lld"), 1);
  c.userLinker = "bfd";
  c.nonLldLinker = true;
  p = planCommand(Tool::Cc, {"a.o", "-fuse-ld=bfd"}, c, seeded(7), "/cc", "");
  // (no ELF input and no host: no link record either)
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "a.o", "-fuse-ld=bfd"}));
  ASSERT_GE(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0], "section-order skipped: linker bfd is not lld");
}

TEST(Plan, NonElfTargetSkipsSectionOrder) {
  auto c = make(Mode::Link, {0});
  c.target = "wasm32-unknown-wasi";
  c.elfTarget = ElfTarget{}; // (an ELF object among the inputs does not make it ELF)
  auto p = planCommand(Tool::Cc, {"a.o", "--target=wasm32-unknown-wasi"}, c, seeded(7), "/cc", "");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "a.o", "--target=wasm32-unknown-wasi"}));
  ASSERT_EQ(p.notes.size(), 2u);
  EXPECT_NE(p.notes[0].find("not ELF"), std::string::npos);
  EXPECT_EQ(p.notes[1], "link record skipped: target wasm32-unknown-wasi is not ELF");
  EXPECT_FALSE(p.record);
}

TEST(Plan, LinkerAddsShuffleSectionsDirectly) {
  auto p = planCommand(Tool::Ld, {"a.o"}, make(Mode::Link, {0}), seeded(7), "/ld.lld", "");
  EXPECT_EQ(p.argv[1], "--shuffle-sections=*=" + std::to_string(lldShuffleSeed(7)));
}

TEST(Plan, LldSeedAvoidsRandomAndReverse) {
  // lld: 0 = nondeterministic seed, 0xffffffff = reverse order.
  for (std::uint64_t s = 0; s < 2000; ++s) {
    const std::uint32_t v = lldShuffleSeed(s);
    EXPECT_GE(v, 1u);
    EXPECT_LE(v, 0x7fffffffu);
  }
  EXPECT_NE(lldShuffleSeed(1), lldShuffleSeed(2));
}

TEST(LinkOrder, OnlySlotsMoveAndTheyArePermuted) {
  const std::vector<std::string> args = {
      "a.o", "-Wl,--start-group", "g.a", "b.o", "-Wl,--end-group", "c.o", "-lm", "d.o", "e.o"};
  const std::vector<std::size_t> slots = {0, 5, 7, 8};
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    auto out = args;
    shuffleLinkOrder(out, slots, seed);
    for (std::size_t i : {1, 2, 3, 4, 6})
      EXPECT_EQ(out[i], args[i]);
    std::multiset<std::string> before, after;
    for (std::size_t i : slots) {
      before.insert(args[i]);
      after.insert(out[i]);
    }
    EXPECT_EQ(before, after);
  }
}

TEST(LinkOrder, SameSeedSameOrderOtherSeedOtherOrder) {
  auto [args, slots] = numberedObjects(12);
  auto a = args, b = args, c = args;
  shuffleLinkOrder(a, slots, 42);
  shuffleLinkOrder(b, slots, 42);
  shuffleLinkOrder(c, slots, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, args);
}

TEST(LinkOrder, MatchesTheCommonFisherYatesStream) {
  // The order is exactly alea::shuffle with the "link-order" stream of the seed,
  // so any component can reproduce it from the recorded seed.
  // The stream is salted with the output's file name ("a.out" by default).
  std::vector<std::string> args = {"a.o", "b.o", "c.o", "d.o", "e.o"};
  auto expected = args;
  alea::Rng rng(alea::mixSeed(alea::mixSeed(99, "link-order"), "a.out"));
  alea::shuffle(expected.begin(), expected.end(), rng);
  shuffleLinkOrder(args, {0, 1, 2, 3, 4}, 99);
  EXPECT_EQ(args, expected);
}

TEST(LinkOrder, EachOutputOfABuildDrawsItsOwnOrderWhereverItIsBuilt) {
  auto [args, slots] = numberedObjects(10);
  auto lib = args, prog = args, progElsewhere = args;
  shuffleLinkOrder(lib, slots, 42, "libz.so.1.2.13");
  shuffleLinkOrder(prog, slots, 42, "minigzip");
  shuffleLinkOrder(progElsewhere, slots, 42, "/other/build/dir/minigzip");
  EXPECT_NE(lib, prog);
  EXPECT_EQ(prog, progElsewhere);
}

TEST(LinkOrder, ThePlanSaltsWithTheOutput) {
  auto c = make(Mode::Link, {0, 1, 2, 3, 4, 5});
  c.output = "prog";
  const std::vector<std::string> objs = {"a.o", "b.o", "c.o", "d.o", "e.o", "f.o"};
  auto p = planCommand(Tool::Cc, objs, c, seeded(5), "/cc", "");
  auto expected = objs;
  shuffleLinkOrder(expected, c.linkOrderSlots, 5, "prog");
  EXPECT_EQ(std::vector<std::string>(p.argv.end() - 6, p.argv.end()), expected);
}

TEST(LinkOrder, FactorOffKeepsOrder) {
  FactorSet f;
  ASSERT_FALSE(parseFactors("section-order", f));
  auto p = planCommand(Tool::Cc, {"a.o", "b.o", "c.o", "d.o"}, make(Mode::Link, {0, 1, 2, 3}),
                       seeded(5, f), "/cc", "");
  EXPECT_EQ(std::vector<std::string>(p.argv.end() - 4, p.argv.end()),
            (std::vector<std::string>{"a.o", "b.o", "c.o", "d.o"}));
}

TEST(LogText, EscapesLineBreaksOutsideTheArgv) {
  EXPECT_EQ(oneLogLine("reason=\"input is not a regular file: a\nb\" argv: cc $'a\\nb'"),
            "reason=\"input is not a regular file: a\\nb\" argv: cc $'a\\nb'");
  EXPECT_EQ(oneLogLine("x\ry\tz"), "x\\ry\\tz");
  EXPECT_EQ(oneLogLine("plain"), "plain");
}

TEST(Plan, LtoLinkLoadsThePluginIntoLld) {
  auto c = make(Mode::Link, {0});
  c.lto = "-flto";
  auto p = planCommand(Tool::Cc, {"a.o", "-flto"}, c, seeded(7), "/cc", "/p.so");
  const std::string shuffle = "-Wl,--shuffle-sections=*=" + std::to_string(lldShuffleSeed(7));
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "-fuse-ld=lld", "-Wl,--undefined-version",
                                              "-Wl,--warn-backrefs", "-Wl,--load-pass-plugin=/p.so",
                                              shuffle, "a.o", "-flto"}));
  ASSERT_GE(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("in the LTO link"), std::string::npos);
}

TEST(Plan, LtoLinkPicksLldForThePluginEvenWithoutSectionOrder) {
  FactorSet f;
  ASSERT_FALSE(parseFactors("function-order", f));
  auto c = make(Mode::Link, {0});
  c.lto = "-flto=thin";
  auto p = planCommand(Tool::Cc, {"a.o", "-flto=thin"}, c, seeded(7, f), "/cc", "/p.so");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "-fuse-ld=lld", "-Wl,--undefined-version",
                                              "-Wl,--warn-backrefs", "-Wl,--load-pass-plugin=/p.so",
                                              "a.o", "-flto=thin"}));
}

TEST(Plan, LtoLinkWithAnotherLinkerSaysThePluginIsNotLoaded) {
  auto c = make(Mode::Link, {0});
  c.lto = "-flto";
  c.userLinker = "gold";
  c.nonLldLinker = true;
  auto p = planCommand(Tool::Cc, {"a.o", "-flto", "-fuse-ld=gold"}, c, seeded(7), "/cc", "/p.so");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/cc", "a.o", "-flto", "-fuse-ld=gold"}));
  bool said = false;
  for (const auto &n : p.notes)
    said |= n.find("does not load the plugin") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(Plan, LinkerOffersThePluginToLld) {
  auto p = planCommand(Tool::Ld, {"a.o"}, make(Mode::Link, {0}), seeded(7), "/ld.lld", "/p.so");
  EXPECT_EQ(p.argv[1], "--load-pass-plugin=/p.so");
  EXPECT_EQ(p.argv[2], "--shuffle-sections=*=" + std::to_string(lldShuffleSeed(7)));
  // Without an installed plugin alea-ld still shuffles.
  p = planCommand(Tool::Ld, {"a.o"}, make(Mode::Link, {0}), seeded(7), "/ld.lld", "");
  EXPECT_EQ(p.argv[1], "--shuffle-sections=*=" + std::to_string(lldShuffleSeed(7)));
}

// --- the link record ------------------------------------------------------------------

namespace {

ElfTarget x86_64() {
  ElfTarget t;
  t.elfClass = 2;
  t.data = 1;
  t.machine = 62;
  return t;
}

// A link of `objects` plain objects whose first ELF header is x86-64.
Classification linkOf(std::size_t objects) {
  Classification c = make(Mode::Link);
  for (std::size_t i = 0; i < objects; ++i)
    c.linkOrderSlots.push_back(i);
  c.elfTarget = x86_64();
  return c;
}

std::vector<std::string> objects(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(std::string(1, static_cast<char>('a' + i)) + ".o");
  return out;
}

std::string recordOf(const Plan &p) { return p.record ? p.record->descriptor : "(none)"; }

} // namespace

TEST(LinkRecord, PlaceholderAfterOurAdditionsBeforeTheUsersArguments) {
  auto p = planCommand(Tool::Cc, {"a.o", "b.o", "-o", "x"}, linkOf(2), seeded(7), "/cc", "");
  ASSERT_TRUE(p.record);
  EXPECT_EQ(p.record->argIndex, 5u);
  EXPECT_EQ(p.argv[5], LinkRecordPlaceholder);
  EXPECT_EQ(p.argv[4].rfind("-Wl,--shuffle-sections=", 0), 0u);
  EXPECT_EQ(p.argv.size(), 10u);
  EXPECT_EQ(p.record->target, x86_64());
  EXPECT_FALSE(p.record->persistent);
  EXPECT_EQ(recordOf(p), "alea-link-v1 seed=0x0000000000000007 factors=link-order,section-order");
}

TEST(LinkRecord, AleaLdAddsItToo) {
  auto p = planCommand(Tool::Ld, {"a.o", "b.o"}, linkOf(2), seeded(7), "/ld.lld", "/p.so");
  ASSERT_TRUE(p.record);
  EXPECT_EQ(p.argv[p.record->argIndex], LinkRecordPlaceholder);
  EXPECT_EQ(p.record->argIndex, 3u); // after --load-pass-plugin and --shuffle-sections
}

TEST(LinkRecord, SaysWhatTheLinkDidNotApply) {
  // A non-lld linker: the objects are shuffled, the sections are not.
  auto c = linkOf(3);
  c.userLinker = "bfd";
  c.nonLldLinker = true;
  auto p = planCommand(Tool::Cc, objects(3), c, seeded(1), "/cc", "");
  EXPECT_EQ(recordOf(p),
            "alea-link-v1 seed=0x0000000000000001 factors=link-order skipped=section-order");
  // The user shuffles sections with a seed of their own.
  c = linkOf(3);
  c.userShuffleSections = true;
  p = planCommand(Tool::Cc, objects(3), c, seeded(1), "/cc", "");
  EXPECT_EQ(recordOf(p),
            "alea-link-v1 seed=0x0000000000000001 factors=link-order skipped=section-order");
  // One object: nothing to reorder.
  p = planCommand(Tool::Cc, objects(1), linkOf(1), seeded(1), "/cc", "");
  EXPECT_EQ(recordOf(p),
            "alea-link-v1 seed=0x0000000000000001 factors=section-order skipped=link-order");
  // alea-ld whose real linker is not lld.
  c = linkOf(2);
  c.nonLldLinker = true;
  p = planCommand(Tool::Ld, objects(2), c, seeded(1), "/usr/bin/ld.bfd", "");
  EXPECT_EQ(recordOf(p),
            "alea-link-v1 seed=0x0000000000000001 factors=link-order skipped=section-order");
}

TEST(LinkRecord, FactorsOffAreNeitherAppliedNorSkipped) {
  auto p =
      planCommand(Tool::Cc, objects(3), linkOf(3), seeded(1, factors("function-order")), "/cc", "");
  EXPECT_EQ(recordOf(p), "alea-link-v1 seed=0x0000000000000001 factors=");
  p = planCommand(Tool::Cc, objects(3), linkOf(3), seeded(1, FactorSet::none()), "/cc", "");
  EXPECT_EQ(recordOf(p), "alea-link-v1 seed=0x0000000000000001 factors=");
  p = planCommand(Tool::Cc, objects(3), linkOf(3), seeded(1, factors("link-order")), "/cc", "");
  EXPECT_EQ(recordOf(p), "alea-link-v1 seed=0x0000000000000001 factors=link-order");
}

TEST(LinkRecord, LtoLinkWhenTheLtoLinkLoadsThePlugin) {
  auto c = linkOf(2);
  c.lto = "-flto";
  c.bitcodeInput = true;
  auto p = planCommand(Tool::Cc, {"a.o", "b.o", "-flto"}, c, seeded(3), "/cc", "/p.so");
  EXPECT_EQ(recordOf(p),
            "alea-link-v1 seed=0x0000000000000003 factors=link-order,section-order,lto-link");
  c.bitcodeInput = false; // -flto, but no bitcode: lld runs no LTO
  p = planCommand(Tool::Cc, {"a.o", "b.o", "-flto"}, c, seeded(3), "/cc", "/p.so");
  EXPECT_EQ(recordOf(p), "alea-link-v1 seed=0x0000000000000003 factors=link-order,section-order");
  // Compiling sources with -flto in the same command: LTO runs.
  auto cal = linkOf(0);
  cal.mode = Mode::CompileAndLink;
  cal.lto = "-flto=thin";
  p = planCommand(Tool::Cc, {"a.c", "-flto=thin"}, cal, seeded(3), "/cc", "/p.so");
  EXPECT_EQ(recordOf(p), "alea-link-v1 seed=0x0000000000000003 factors=section-order,lto-link "
                         "skipped=link-order");
  // alea-ld offers the plugin; with bitcode among the inputs lld loads it.
  auto l = linkOf(2);
  l.bitcodeInput = true;
  p = planCommand(Tool::Ld, objects(2), l, seeded(3), "/ld.lld", "/p.so");
  EXPECT_EQ(recordOf(p),
            "alea-link-v1 seed=0x0000000000000003 factors=link-order,section-order,lto-link");
  l.nonLldLinker = true; // gold with the LLVMgold plugin: no alea plugin in the LTO link
  p = planCommand(Tool::Ld, objects(2), l, seeded(3), "/usr/bin/ld.gold", "/p.so");
  EXPECT_EQ(recordOf(p),
            "alea-link-v1 seed=0x0000000000000003 factors=link-order skipped=section-order");
}

namespace {

std::string skippedBecause(const Plan &p) {
  EXPECT_FALSE(p.record);
  for (const auto &n : p.notes)
    if (n.rfind("link record skipped: ", 0) == 0)
      return n.substr(21);
  return "(no note)";
}

} // namespace

// Without an ELF input nothing says for sure which target the compiler driver
// links for (--config files, default configuration files, CCC_OVERRIDE_OPTIONS
// can change it): no record, whatever the command line says.
TEST(LinkRecord, SkippedWithoutAnElfInput) {
  auto c = make(Mode::CompileAndLink, {0, 1});
  EXPECT_EQ(skippedBecause(
                planCommand(Tool::Cc, {"a.c", "b.c"}, c, seeded(1), "/usr/bin/clang-19", "/p.so")),
            "no ELF object among the inputs tells the target");
  EXPECT_EQ(skippedBecause(planCommand(Tool::Cc, {"--config=m32.cfg", "a.c", "b.c"}, c, seeded(1),
                                       "/usr/bin/clang-19", "/p.so")),
            "no ELF object among the inputs tells the target");
  // Bitcode only, -l only.
  auto bitcode = make(Mode::Link, {0});
  bitcode.lto = "-flto";
  bitcode.bitcodeInput = true;
  EXPECT_FALSE(planCommand(Tool::Cc, {"a.o", "-flto"}, bitcode, seeded(1), "/cc", "/p.so").record);
  EXPECT_FALSE(planCommand(Tool::Cc, {"-lfoo"}, make(Mode::Link), seeded(1), "/cc", "").record);
  // An ELF object among the inputs decides, whatever the options say.
  EXPECT_TRUE(planCommand(Tool::Cc, {"-m32", "a.o"}, linkOf(1), seeded(1), "/cc", "").record);
}

TEST(LinkRecord, SkippedWhenTheLinkPlacesSectionsItself) {
  auto c = linkOf(1);
  c.layoutOption = "--oformat=binary";
  const auto p =
      planCommand(Tool::Cc, {"-nostdlib", "-Wl,--oformat=binary", "a.o"}, c, seeded(1), "/cc", "");
  EXPECT_EQ(skippedBecause(p), "--oformat=binary: the link places the sections itself (linker "
                               "script, output format or addresses)");
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), std::string(LinkRecordPlaceholder)), 0);
  // Everything else of the link stays (the user asked for a seeded layout).
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "-fuse-ld=lld"), 1);
  c.layoutOption = "-T";
  EXPECT_FALSE(planCommand(Tool::Ld, {"-T", "k.ld", "a.o"}, c, seeded(1), "/ld.lld", "").record);
}

TEST(LinkRecord, DependencyFileLinksUseAPersistentFile) {
  auto c = linkOf(2);
  c.dependencyFile = true;
  auto p =
      planCommand(Tool::Cc, {"a.o", "b.o", "-Wl,--dependency-file=x.d"}, c, seeded(1), "/cc", "");
  ASSERT_TRUE(p.record);
  EXPECT_TRUE(p.record->persistent);
}

TEST(LinkRecord, NoneForCompilesPassThroughOrWithoutSeed) {
  auto compile = make(Mode::Compile);
  compile.elfTarget = x86_64();
  EXPECT_FALSE(planCommand(Tool::Cc, {"-c", "a.c"}, compile, seeded(1), "/cc", "/p.so").record);
  auto pass = linkOf(2);
  pass.mode = Mode::PassThrough;
  EXPECT_FALSE(planCommand(Tool::Cc, objects(2), pass, seeded(1), "/cc", "").record);
  EXPECT_FALSE(planCommand(Tool::Cc, objects(2), linkOf(2), Settings{}, "/cc", "").record);
}
