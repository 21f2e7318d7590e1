// One named test per rule of the wrapper's decision table (STYLE.md) and of the
// response-file rules. The classifier sees a fake file system: the set `files`
// holds the regular files, `rsp` the readable response files.
#include "alea/wrapper/classify.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>

using namespace alea::wrapper;

namespace {

struct FakeFs {
  std::set<std::string> files{"a.c",     "b.c",    "m.cpp",  "x.cc",        "a.o",    "b.o",
                              "c.o",     "d.o",    "e.o",    "lib.a",       "g.a",    "s.s",
                              "p.S",     "h.h",    "k.cu",   "f.ll",        "f.bc",   "noext",
                              "libx.so", "crti.o", "crtn.o", "crtbeginS.o", "in.txt", "p.f90",
                              "q.F90",   "old.f",  "t.ftn",  "m.mod"};
  std::map<std::string, std::string> rsp;
  std::map<std::string, std::string> bytes; // file contents for sniffing link inputs
  ClassifyEnv env() const {
    return {[this](const std::string &p) { return files.count(p) > 0; },
            [this](const std::string &p) -> std::optional<std::string> {
              auto it = rsp.find(p);
              if (it == rsp.end())
                return std::nullopt;
              return it->second;
            },
            [this](const std::string &p, std::uint64_t at,
                   std::size_t n) -> std::optional<std::string> {
              auto it = bytes.find(p);
              if (it == bytes.end() || at > it->second.size())
                return std::nullopt;
              return it->second.substr(at, n);
            }};
  }
};

Classification cc(std::vector<std::string> args, const FakeFs &fs = FakeFs()) {
  return classify(args, fs.env());
}
Classification fc(std::vector<std::string> args, const FakeFs &fs = FakeFs()) {
  return classify(args, fs.env(), Frontend::Flang);
}
Classification ld(std::vector<std::string> args, const FakeFs &fs = FakeFs()) {
  return classifyLinker(args, fs.env());
}

void expectPass(const Classification &c, Reason r) {
  EXPECT_EQ(c.mode, Mode::PassThrough);
  EXPECT_EQ(c.reason, r) << reasonName(c.reason);
}

} // namespace

// --- randomizing modes ----------------------------------------------------------------

TEST(Classify, DashCWithCSourceIsCompile) {
  auto c = cc({"-O2", "-c", "a.c", "-o", "a.o"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.reason, Reason::CompileSources);
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].language, Language::C);
}

TEST(Classify, DashSWithCxxSourceIsCompile) {
  auto c = cc({"-S", "m.cpp"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.inputs[0].language, Language::Cxx);
}

TEST(Classify, IrInputsCompile) {
  EXPECT_EQ(cc({"-c", "f.ll"}).mode, Mode::Compile);
  EXPECT_EQ(cc({"-c", "f.bc"}).mode, Mode::Compile);
}

TEST(Classify, SourcesWithoutDashCCompileAndLink) {
  auto c = cc({"a.c", "b.c", "-o", "prog"});
  EXPECT_EQ(c.mode, Mode::CompileAndLink);
  EXPECT_EQ(c.reason, Reason::CompileAndLink);
}

TEST(Classify, ConftestStyleSourceAndLibrariesCompileAndLink) {
  // autoconf: cc -o conftest -g -O2 conftest.c -lm
  auto c = cc({"-o", "conftest", "-g", "-O2", "a.c", "-lm"});
  EXPECT_EQ(c.mode, Mode::CompileAndLink);
  EXPECT_EQ(c.libraryCount, 1u);
}

TEST(Classify, ObjectsOnlyIsLink) {
  auto c = cc({"a.o", "b.o", "-o", "prog"});
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_EQ(c.reason, Reason::LinkInputs);
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{0, 1}));
}

TEST(Classify, ArchivesAndLibrariesLinkButNeverMove) {
  auto c = cc({"a.o", "lib.a", "b.o", "-lm", "-l", "z", "libx.so", "c.o"});
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_EQ(c.libraryCount, 2u);
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{0, 2, 7}));
}

TEST(Classify, LibrariesAloneLink) { EXPECT_EQ(cc({"-lfoo", "-o", "x"}).mode, Mode::Link); }

TEST(Classify, ExtensionlessFileIsLinkerInputThatKeepsItsPlace) {
  auto c = cc({"a.o", "noext", "b.o"});
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_EQ(c.inputs[1].language, Language::LinkerInput);
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{0, 2}));
}

TEST(Classify, StartGroupRegionKeepsObjectsInPlace) {
  auto c = cc({"a.o", "-Wl,--start-group", "b.o", "lib.a", "c.o", "-Wl,--end-group", "d.o"});
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{0, 6}));
}

TEST(Classify, WholeArchiveRegionKeepsObjectsInPlace) {
  auto c = cc({"a.o", "-Wl,--whole-archive", "b.o", "lib.a", "-Wl,--no-whole-archive", "c.o",
               "-Xlinker", "--whole-archive", "d.o", "-Xlinker", "--no-whole-archive", "e.o"});
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{0, 5, 11}));
}

TEST(Classify, CommaJoinedLinkerRegionsAreTracked) {
  auto c = cc({"-Wl,-O1,--start-group", "a.o", "b.o", "-Wl,--end-group,-O1", "c.o", "d.o"});
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{4, 5}));
}

TEST(Classify, StartupObjectsNeverMove) {
  auto c = cc({"crti.o", "crtbeginS.o", "a.o", "b.o", "crtn.o"});
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{2, 3}));
}

TEST(Classify, CompileAndLinkMovesSourcesAndObjectsOutsideXRegions) {
  auto c = cc({"a.c", "a.o", "-x", "c", "in.txt", "-x", "none", "b.c"});
  EXPECT_EQ(c.mode, Mode::CompileAndLink);
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{0, 1, 7}));
}

TEST(Classify, FuseLdNonLldIsRecorded) {
  auto c = cc({"a.o", "-fuse-ld=bfd"});
  EXPECT_TRUE(c.nonLldLinker);
  EXPECT_EQ(c.userLinker, "bfd");
  EXPECT_FALSE(cc({"a.o", "-fuse-ld=lld"}).nonLldLinker);
  EXPECT_TRUE(cc({"a.o", "--ld-path=/usr/bin/ld.gold"}).nonLldLinker);
}

TEST(Classify, TargetTripleIsRecorded) {
  EXPECT_EQ(cc({"--target=wasm32-unknown-wasi", "a.o"}).target, "wasm32-unknown-wasi");
  EXPECT_EQ(cc({"-target", "aarch64-linux-gnu", "-c", "a.c"}).target, "aarch64-linux-gnu");
  EXPECT_TRUE(isElfTarget(""));
  EXPECT_TRUE(isElfTarget("aarch64-linux-gnu"));
  EXPECT_FALSE(isElfTarget("x86_64-apple-darwin"));
  EXPECT_FALSE(isElfTarget("wasm32-unknown-wasi"));
}

// --- -x ------------------------------------------------------------------------------

TEST(Classify, DashXCMakesAnyFileACSource) {
  auto c = cc({"-x", "c", "-c", "in.txt"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.inputs[0].language, Language::C);
}

TEST(Classify, DashXCxxJoinedForm) {
  auto c = cc({"-xc++", "-c", "a.c"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.inputs[0].language, Language::Cxx);
}

TEST(Classify, DashXAssemblerPassesThrough) {
  expectPass(cc({"-x", "assembler", "-c", "a.c"}), Reason::AssemblerOnly);
}

TEST(Classify, DashXNoneRestoresExtensions) {
  auto c = cc({"-x", "c", "-c", "in.txt", "-x", "none", "s.s"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.inputs[1].language, Language::Asm);
}

TEST(Classify, DashXUnknownLanguagePassesThrough) {
  expectPass(cc({"-x", "cobol", "-c", "a.c"}), Reason::UnknownLanguage);
}

TEST(Classify, StdinWithDashXIsCompile) {
  EXPECT_EQ(cc({"-x", "c", "-c", "-", "-o", "a.o"}).mode, Mode::Compile);
}

// A command that reads standard input can run only once (no lld trial).
TEST(Classify, StdinSourceIsNotedForTheLink) {
  auto c = cc({"-x", "c", "-", "-x", "none", "a.o", "-o", "p"});
  EXPECT_EQ(c.mode, Mode::CompileAndLink);
  EXPECT_TRUE(c.readsStdin);
  EXPECT_FALSE(cc({"a.c", "a.o", "-o", "p"}).readsStdin);
}

TEST(Classify, StdinWithoutLanguagePassesThrough) {
  expectPass(cc({"-c", "-"}), Reason::UnknownLanguage);
}

// --- pass-through rules --------------------------------------------------------------

TEST(Classify, PreprocessPassesThrough) {
  expectPass(cc({"-E", "a.c"}), Reason::Preprocess);
  expectPass(cc({"-E", "-x", "c", "-"}), Reason::Preprocess);
}

TEST(Classify, DashMPassesThrough) { expectPass(cc({"-M", "a.c"}), Reason::DependenciesOnly); }

TEST(Classify, DashMMPassesThrough) {
  expectPass(cc({"-MM", "-c", "a.c"}), Reason::DependenciesOnly);
}

TEST(Classify, DashMDCompiles) {
  auto c = cc({"-MD", "-MF", "a.d", "-MT", "a.o", "-c", "a.c"});
  EXPECT_EQ(c.mode, Mode::Compile);
}

TEST(Classify, DashMMDCompiles) {
  EXPECT_EQ(cc({"-MMD", "-MP", "-MQ", "x", "-c", "a.c"}).mode, Mode::Compile);
}

TEST(Classify, DashMWithDashMDStillPassesThrough) {
  // clang -### -M -MD -c a.c shows a single -E job: -M implies -E whatever else
  // is given, so adding the plugin would only earn an "unused argument" warning.
  expectPass(cc({"-M", "-MD", "-c", "a.c"}), Reason::DependenciesOnly);
  expectPass(cc({"-MM", "-MMD", "-c", "a.c"}), Reason::DependenciesOnly);
}

TEST(Classify, SyntaxOnlyPassesThrough) {
  expectPass(cc({"-fsyntax-only", "a.c"}), Reason::SyntaxOnly);
}

TEST(Classify, HashesPassThrough) { expectPass(cc({"-###", "-c", "a.c"}), Reason::PrintCommands); }

TEST(Classify, VersionPassesThrough) { expectPass(cc({"--version"}), Reason::Version); }

TEST(Classify, DumpAndPrintQueriesPassThrough) {
  expectPass(cc({"-dumpversion"}), Reason::Query);
  expectPass(cc({"-dumpmachine"}), Reason::Query);
  expectPass(cc({"-print-file-name=libgcc.a"}), Reason::Query);
  expectPass(cc({"--print-search-dirs"}), Reason::Query);
  expectPass(cc({"-print-prog-name=ld"}), Reason::Query);
}

TEST(Classify, VerboseAlonePassesThroughAsNoInputs) { expectPass(cc({"-v"}), Reason::NoInputs); }

TEST(Classify, VerboseWithSourceStillCompiles) {
  EXPECT_EQ(cc({"-v", "-c", "a.c"}).mode, Mode::Compile);
}

TEST(Classify, NoInputsPassesThrough) {
  expectPass(cc({}), Reason::NoInputs);
  expectPass(cc({"-O2", "-c"}), Reason::NoInputs);
}

TEST(Classify, AssemblerInputsPassThrough) {
  expectPass(cc({"-c", "s.s"}), Reason::AssemblerOnly);
  expectPass(cc({"-c", "p.S", "-o", "p.o"}), Reason::AssemblerOnly);
  expectPass(cc({"s.s", "-o", "prog"}), Reason::AssemblerOnly);
}

TEST(Classify, AssemblerWithSourceCompiles) {
  EXPECT_EQ(cc({"-c", "a.c", "s.s"}).mode, Mode::Compile);
}

TEST(Classify, AssemblerWithObjectsLinks) {
  EXPECT_EQ(cc({"s.s", "a.o", "-o", "prog"}).mode, Mode::Link);
}

TEST(Classify, HeaderInputPassesThroughAsPrecompile) {
  expectPass(cc({"-c", "h.h"}), Reason::Precompile);
  expectPass(cc({"-x", "c++-header", "-c", "m.cpp"}), Reason::Precompile);
  expectPass(cc({"--precompile", "m.cpp"}), Reason::Precompile);
}

TEST(Classify, DashCWithOnlyObjectsPassesThrough) {
  expectPass(cc({"-c", "a.o"}), Reason::NoSourceInputs);
}

TEST(Classify, LtoIsRandomizedAndRecorded) {
  auto c = cc({"-flto", "-c", "a.c"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.lto, "-flto");
  auto l = cc({"-flto=thin", "a.o", "b.o"});
  EXPECT_EQ(l.mode, Mode::Link);
  EXPECT_EQ(l.lto, "-flto=thin");
}

TEST(Classify, NoLtoAfterLtoIsNotLto) {
  auto c = cc({"-flto", "-fno-lto", "-c", "a.c"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_TRUE(c.lto.empty());
}

TEST(Classify, OutputToStdoutCompileIsRandomized) {
  // -c/-S -o - writes the randomized object or assembly to stdout: still a compile.
  EXPECT_EQ(cc({"-S", "a.c", "-o", "-"}).mode, Mode::Compile);
}

TEST(Classify, OutputToStdoutLinkPassesThrough) {
  expectPass(cc({"a.o", "b.o", "-o", "-"}), Reason::OutputToStdout);
  expectPass(cc({"a.o", "b.o", "-o-"}), Reason::OutputToStdout);
}

TEST(Classify, JoinedOutputIsNotAnInput) {
  auto c = cc({"-c", "a.c", "-oa.o"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.inputs.size(), 1u);
}

TEST(Classify, OffloadLanguagesPassThrough) {
  expectPass(cc({"-c", "k.cu"}), Reason::UnsupportedLanguage);
  expectPass(cc({"-x", "cuda", "-c", "a.c"}), Reason::UnsupportedLanguage);
}

TEST(Classify, OffloadTargetsPassThrough) {
  auto c = cc({"-fopenmp", "-fopenmp-targets=nvptx64", "-c", "a.c"});
  expectPass(c, Reason::UnsupportedLanguage);
  EXPECT_EQ(c.detail, "-fopenmp-targets=nvptx64");
  expectPass(cc({"--offload-arch=gfx90a", "-c", "a.c"}), Reason::UnsupportedLanguage);
}

TEST(Classify, Cc1PassesThrough) {
  expectPass(cc({"-cc1", "-emit-obj", "a.c"}), Reason::DriverMode);
}

TEST(Classify, ClDriverModePassesThrough) {
  expectPass(cc({"--driver-mode=cl", "/c", "a.c"}), Reason::DriverMode);
}

TEST(Classify, MissingInputFilePassesThrough) {
  auto c = cc({"-c", "nothere.c"});
  expectPass(c, Reason::MissingInput);
  EXPECT_EQ(c.detail, "nothere.c");
}

TEST(Classify, UnknownOptionsAreToleratedAndDecideNothing) {
  auto c = cc({"-fsome-future-flag", "-mfancy=3", "--weird", "-c", "a.c"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.inputs.size(), 1u);
}

TEST(Classify, SeparateArgumentOptionsConsumeTheirValue) {
  // a.c after -include / -MF / -o is a value, not an input.
  auto c = cc({"-include", "a.c", "-MF", "b.c", "-o", "x.cc", "-c", "m.cpp"});
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].path, "m.cpp");
}

TEST(Classify, EndOfOptionsMakesEverythingAnInput) {
  auto c = cc({"-c", "--", "a.c"});
  EXPECT_EQ(c.mode, Mode::Compile);
}

// --- response files -------------------------------------------------------------------

TEST(ResponseFile, ExpandedBeforeClassifying) {
  FakeFs fs;
  fs.rsp["args.rsp"] = "-c a.c -o a.o";
  auto c = cc({"@args.rsp"}, fs);
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_TRUE(c.usedResponseFiles);
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].argIndex, -1);
}

TEST(ResponseFile, NestedFilesExpand) {
  FakeFs fs;
  fs.rsp["outer.rsp"] = "-O2 @inner.rsp";
  fs.rsp["inner.rsp"] = "-E a.c";
  expectPass(cc({"@outer.rsp"}, fs), Reason::Preprocess);
}

TEST(ResponseFile, UnreadablePassesThrough) {
  auto c = cc({"-c", "a.c", "@missing.rsp"});
  expectPass(c, Reason::UnreadableResponseFile);
  EXPECT_EQ(c.detail, "@missing.rsp");
}

TEST(ResponseFile, CycleIsTreatedAsUnreadable) {
  FakeFs fs;
  fs.rsp["loop.rsp"] = "-c @loop.rsp";
  expectPass(cc({"@loop.rsp"}, fs), Reason::UnreadableResponseFile);
}

TEST(ResponseFile, ObjectsInsideNeverMove) {
  FakeFs fs;
  fs.rsp["objs.rsp"] = "b.o c.o";
  auto c = cc({"a.o", "@objs.rsp", "d.o"}, fs);
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{0, 2}));
}

TEST(ResponseFile, GnuQuotingRules) {
  EXPECT_EQ(tokenizeResponseFile("  -DA=1\t-DB='x y'\n\"-DC=\\\"q\\\"\" a\\ b  "),
            (std::vector<std::string>{"-DA=1", "-DB=x y", "-DC=\"q\"", "a b"}));
  EXPECT_EQ(tokenizeResponseFile("'it''s' \"\" x"), (std::vector<std::string>{"its", "", "x"}));
  EXPECT_EQ(tokenizeResponseFile("a\r\nb"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(tokenizeResponseFile(" \n\t ").empty());
}

TEST(ResponseFile, QuotedFileNameWithSpaceIsOneInput) {
  FakeFs fs;
  fs.files.insert("my file.c");
  fs.rsp["q.rsp"] = "-c 'my file.c'";
  auto c = cc({"@q.rsp"}, fs);
  EXPECT_EQ(c.mode, Mode::Compile);
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].path, "my file.c");
}

// --- languages and helpers --------------------------------------------------------------

TEST(Languages, ExtensionsFollowClang) {
  EXPECT_EQ(languageFromExtension("dir.d/x.c"), Language::C);
  EXPECT_EQ(languageFromExtension("x.C"), Language::Cxx);
  EXPECT_EQ(languageFromExtension("x.S"), Language::AsmCpp);
  EXPECT_EQ(languageFromExtension("libz.so.1.2"), Language::SharedLib);
  EXPECT_EQ(languageFromExtension("dir.d/noext"), Language::LinkerInput);
}

TEST(Languages, StartupObjects) {
  EXPECT_TRUE(isStartupObject("/usr/lib/x86_64-linux-gnu/Scrt1.o"));
  EXPECT_TRUE(isStartupObject("crtendS.o"));
  EXPECT_FALSE(isStartupObject("scrtch.c"));
  EXPECT_FALSE(isStartupObject("microcrt.o"));
}

// --- link inputs, for the link record ---------------------------------------------------

namespace {

ElfTarget elf(std::uint8_t cls, std::uint16_t machine, std::uint32_t flags = 0) {
  ElfTarget t;
  t.elfClass = cls;
  t.data = 1;
  t.machine = machine;
  t.flags = flags;
  return t;
}

// A file system whose objects have real headers (written by the record writer).
FakeFs withHeaders() {
  FakeFs fs;
  fs.bytes["a.o"] = writeLinkRecordObject(elf(2, 62, 0), "x");
  fs.bytes["b.o"] = writeLinkRecordObject(elf(2, 62, 7), "x");
  fs.bytes["f.bc"] = std::string("BC\xc0\xde", 4) + std::string(60, '\0');
  fs.bytes["c.o"] = fs.bytes["f.bc"]; // an -flto object is bitcode
  std::string so = writeLinkRecordObject(elf(2, 183, 0), "x");
  so[16] = 3; // ET_DYN
  fs.bytes["libx.so"] = so;
  fs.bytes["in.txt"] = "GROUP ( libc.so.6 )";
  return fs;
}

} // namespace

TEST(LinkInputs, TargetOfTheFirstElfObject) {
  const FakeFs fs = withHeaders();
  auto c = cc({"in.txt", "c.o", "b.o", "a.o", "-o", "p"}, fs);
  EXPECT_EQ(c.mode, Mode::Link);
  ASSERT_TRUE(c.elfTarget);
  EXPECT_EQ(c.elfTarget->flags, 7u); // b.o: the first ELF relocatable in command-line order
  EXPECT_FALSE(c.bitcodeInput);      // not looked for without -flto
}

TEST(LinkInputs, SharedLibraryWhenNoObject) {
  auto c = cc({"a.c", "libx.so"}, withHeaders());
  EXPECT_EQ(c.mode, Mode::CompileAndLink);
  ASSERT_TRUE(c.elfTarget);
  EXPECT_EQ(c.elfTarget->machine, 183u);
  EXPECT_FALSE(cc({"a.c", "b.c"}, withHeaders()).elfTarget); // sources only
}

TEST(LinkInputs, ArchiveMemberGivesTheTarget) {
  FakeFs fs = withHeaders();
  const std::string member = writeLinkRecordObject(elf(1, 3, 0), "x");
  char header[61];
  std::snprintf(header, sizeof header, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", "m.o/", "0", "0", "0",
                "644", member.size());
  fs.bytes["lib.a"] = "!<arch>\n" + std::string(header, 60) + member;
  auto c = cc({"lib.a", "a.o"}, fs);
  ASSERT_TRUE(c.elfTarget);
  EXPECT_EQ(c.elfTarget->elfClass, 1u);
  EXPECT_EQ(c.elfTarget->machine, 3u);
}

TEST(LinkInputs, BitcodeIsSeenWithLtoAndAlwaysByTheLinker) {
  const FakeFs fs = withHeaders();
  EXPECT_TRUE(cc({"-flto", "a.o", "c.o"}, fs).bitcodeInput);
  EXPECT_FALSE(cc({"-flto", "a.o", "b.o"}, fs).bitcodeInput);
  EXPECT_TRUE(ld({"a.o", "f.bc"}, fs).bitcodeInput);
  EXPECT_FALSE(ld({"a.o", "b.o"}, fs).bitcodeInput);
}

TEST(LinkInputs, NothingIsReadForCompilesOrWithoutAReader) {
  FakeFs fs = withHeaders();
  EXPECT_FALSE(cc({"-c", "a.c"}, fs).elfTarget);
  ClassifyEnv noReader = fs.env();
  noReader.readAt = nullptr;
  EXPECT_FALSE(classify({"a.o", "b.o"}, noReader).elfTarget);
}

// A link that places sections itself or writes a raw image gets no link record
// (its note would land in the image): the classifier names the option, wherever
// the linker reads it.
TEST(LinkInputs, LinkerScriptsAndImageFormatsAreRecorded) {
  EXPECT_EQ(cc({"-nostdlib", "-Wl,--oformat=binary", "-Wl,-Ttext=0x7c00", "a.o"}).layoutOption,
            "--oformat=binary");
  EXPECT_EQ(cc({"a.o", "-Wl,-Ttext=0x7c00"}).layoutOption, "-Ttext=0x7c00");
  EXPECT_EQ(cc({"a.o", "-Wl,-T,boot.ld"}).layoutOption, "-T");
  EXPECT_EQ(cc({"a.o", "-Wl,--section-start=.boot=0x7c00"}).layoutOption,
            "--section-start=.boot=0x7c00");
  EXPECT_EQ(cc({"a.o", "-Xlinker", "--script", "-Xlinker", "k.ld"}).layoutOption, "--script");
  EXPECT_EQ(cc({"a.o", "-Xlinker", "--oformat", "-Xlinker", "ihex"}).layoutOption, "--oformat");
  // clang's own -T (separate or joined; clang-19 reads -Ttext=x as -T text=x).
  auto c = cc({"a.o", "-T", "boot.ld", "-o", "p"});
  EXPECT_EQ(c.mode, Mode::Link); // the script is not an input (nor a missing one)
  EXPECT_EQ(c.layoutOption, "-T boot.ld");
  EXPECT_EQ(cc({"a.o", "-Tboot.ld"}).layoutOption, "-Tboot.ld");
  EXPECT_EQ(cc({"a.c", "-Ttext=0x7c00"}).layoutOption, "-Ttext=0x7c00");
  // alea-ld's own arguments, one or two dashes.
  EXPECT_EQ(ld({"a.o", "--oformat", "binary"}).layoutOption, "--oformat");
  EXPECT_EQ(ld({"a.o", "-Ttext", "0x7c00"}).layoutOption, "-Ttext");
  EXPECT_EQ(ld({"a.o", "-Tbss=0x9000"}).layoutOption, "-Tbss=0x9000");
  EXPECT_EQ(ld({"-T", "boot.ld", "a.o"}).layoutOption, "-T");
  EXPECT_EQ(ld({"--script=boot.ld", "a.o"}).layoutOption, "--script=boot.ld");
  EXPECT_EQ(ld({"-dT", "boot.ld", "a.o"}).layoutOption, "-dT");
  EXPECT_EQ(ld({"a.o", "--section-start", ".boot=0x7c00"}).layoutOption, "--section-start");
  // Ordinary links.
  EXPECT_EQ(cc({"a.o", "b.o", "-Wl,--gc-sections,-O1,-soname,Tlib.so"}).layoutOption, "");
  EXPECT_EQ(ld({"a.o", "--trace", "-t", "--strip-all", "-o", "p"}).layoutOption, "");
  EXPECT_EQ(cc({"a.c", "-target", "x86_64-linux-gnu"}).layoutOption, "");
}

TEST(LinkInputs, LayoutOptionTable) {
  for (const char *word : {"-T",
                           "-Tboot.ld",
                           "--script",
                           "--script=x",
                           "-script=x",
                           "-dT",
                           "--default-script=x",
                           "--oformat",
                           "--oformat=binary",
                           "-oformat=srec",
                           "-Ttext",
                           "-Ttext=0",
                           "--Ttext=0",
                           "-Tdata",
                           "-Tdata=0",
                           "-Tbss",
                           "-Tbss=0",
                           "--section-start",
                           "--section-start=.a=0",
                           "-Ttext-segment=0x400000"})
    EXPECT_TRUE(isLayoutOption(word)) << word;
  for (const char *word : {"", "-", "T", "boot.ld", "--trace", "-t", "--scripts", "--oformatx",
                           "--section-startx", "-o", "--gc-sections", "-dynamic-linker"})
    EXPECT_FALSE(isLayoutOption(word)) << word;
}

// A linker response file (-Wl,@file) is read by the linker:
// its words count as if they were on the command line.
TEST(LinkInputs, LinkerResponseFilesAreLookedInto) {
  FakeFs fs;
  fs.rsp["dep.rsp"] = "--gc-sections --dependency-file=out.d";
  fs.rsp["img.rsp"] = "-T 'boot.ld' --shuffle-sections=*=3";
  EXPECT_TRUE(cc({"a.o", "-Wl,@dep.rsp"}, fs).dependencyFile);
  EXPECT_TRUE(cc({"a.o", "-Wl,-O1,@dep.rsp"}, fs).dependencyFile);
  // (-Xlinker @file: clang expands every @file argument itself before parsing,
  // as the classifier does, so the linker sees the file's first word.)
  auto c = cc({"a.o", "b.o", "-Wl,@img.rsp"}, fs);
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_EQ(c.layoutOption, "-T");
  EXPECT_TRUE(c.userShuffleSections);
  // alea-ld expands its own @files like the linker does.
  EXPECT_TRUE(ld({"a.o", "@dep.rsp"}, fs).dependencyFile);
  // One the linker cannot read is the linker's error: no effect on us.
  c = cc({"a.o", "b.o", "-Wl,@missing.rsp"}, fs);
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_FALSE(c.dependencyFile);
}

TEST(LinkInputs, LdPathWinsOverFuseLd) {
  auto c = cc({"a.o", "--ld-path=/usr/bin/ld.lld-19", "-fuse-ld=bfd"});
  EXPECT_EQ(c.userLinker, "/usr/bin/ld.lld-19");
  EXPECT_FALSE(c.nonLldLinker);
  c = cc({"a.o", "-fuse-ld=lld", "--ld-path=/usr/bin/ld.gold"});
  EXPECT_EQ(c.userLinker, "/usr/bin/ld.gold");
  EXPECT_TRUE(c.nonLldLinker);
}

TEST(LinkInputs, DependencyFileIsRecorded) {
  EXPECT_TRUE(cc({"a.o", "-Wl,--dependency-file=x.d"}).dependencyFile);
  EXPECT_TRUE(cc({"a.o", "-Xlinker", "--dependency-file", "-Xlinker", "x.d"}).dependencyFile);
  EXPECT_TRUE(ld({"a.o", "--dependency-file", "x.d"}).dependencyFile);
  EXPECT_TRUE(ld({"a.o", "--dependency-file=x.d"}).dependencyFile);
  EXPECT_FALSE(cc({"a.o", "b.o"}).dependencyFile);
}

// --- the linker (alea-ld) ----------------------------------------------------------------

TEST(ClassifyLinker, ObjectsLink) {
  auto c = ld({"-o", "prog", "a.o", "b.o", "-lc"});
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{2, 3}));
}

TEST(ClassifyLinker, GroupsWholeArchiveAndStartupObjectsStay) {
  auto c = ld({"crti.o", "a.o", "--start-group", "b.o", "g.a", "--end-group", "c.o",
               "-whole-archive", "d.o", "-no-whole-archive", "-(", "lib.a", "-)", "e.o", "crtn.o"});
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{1, 6, 13}));
}

TEST(ClassifyLinker, SeparateValuesAreNotInputs) {
  auto c =
      ld({"-m", "elf_x86_64", "-dynamic-linker", "/lib64/ld.so", "-L", "dir", "-o", "prog", "a.o"});
  EXPECT_EQ(c.mode, Mode::Link);
  ASSERT_EQ(c.inputs.size(), 1u);
}

TEST(ClassifyLinker, VersionPassesThrough) {
  expectPass(ld({"--version"}), Reason::Version);
  expectPass(ld({"-v"}), Reason::Version);
}

TEST(ClassifyLinker, NoInputsPassesThrough) { expectPass(ld({"-o", "x"}), Reason::NoInputs); }

TEST(ClassifyLinker, UserShuffleSectionsIsRecorded) {
  EXPECT_TRUE(ld({"--shuffle-sections=*=3", "a.o"}).userShuffleSections);
}

// --- GNU ld's executable stack (for a link alea would move to lld) -----------------

namespace {

// Link inputs with real bytes: "b.o" has a .note.GNU-stack (the link record
// object has one), "a.o" and the member of "lib.a" have none.
FakeFs stackFs() {
  FakeFs fs;
  const std::string withNote = writeLinkRecordObject(ElfTarget{2, 1, 0, 62, 0}, "x");
  std::string without = withNote;
  without[without.find(".note.GNU-stack") + 14] = 'X';
  fs.bytes["b.o"] = withNote;
  fs.bytes["a.o"] = without;
  char header[61];
  std::snprintf(header, sizeof header, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", "n.o/", "0", "0", "0",
                "644", without.size());
  fs.bytes["lib.a"] = "!<arch>\n" + std::string(header, 60) + without;
  fs.bytes["g.a"] = "!<thin>\n";
  return fs;
}

} // namespace

TEST(Classify, ObjectWithoutStackNoteIsNamed) {
  auto c = cc({"b.o", "a.o", "-o", "p"}, stackFs());
  EXPECT_EQ(c.mode, Mode::Link);
  EXPECT_EQ(c.execStackObject, "a.o");
  EXPECT_EQ(c.stackUnknown, "");
  EXPECT_EQ(cc({"b.o", "-o", "p"}, stackFs()).execStackObject, "");
}

TEST(Classify, ArchiveMemberWithoutStackNoteMakesTheStackUnpredictable) {
  auto c = cc({"b.o", "lib.a", "-o", "p"}, stackFs());
  EXPECT_EQ(c.execStackObject, "");
  EXPECT_NE(c.stackUnknown.find("lib.a"), std::string::npos) << c.stackUnknown;
  // A thin archive without members has nothing to look at.
  EXPECT_EQ(cc({"b.o", "g.a"}, stackFs()).stackUnknown, "");
  // An assembler source compiled in the same command: its text decides.
  EXPECT_NE(cc({"a.c", "s.s", "-o", "p"}, stackFs()).stackUnknown.find("s.s"), std::string::npos);
  EXPECT_NE(cc({"b.o", "s.s", "-o", "p"}, stackFs()).stackUnknown.find("s.s"), std::string::npos);
}

namespace {

// A GNU thin archive naming `members` (short names, or long ones through the
// "//" table); the members' bytes are files of their own.
std::string thinArchive(const std::vector<std::string> &members) {
  auto header = [](const std::string &name, std::size_t size) {
    char h[128];
    std::snprintf(h, sizeof h, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name.c_str(), "0", "0", "0",
                  "644", size);
    return std::string(h, 60);
  };
  std::string longNames, headers;
  for (const std::string &m : members) {
    if (m.size() < 15) {
      headers += header(m + "/", 100);
    } else {
      std::string name = "/"; // (built in steps: GCC 12's -Wrestrict false positive)
      name += std::to_string(longNames.size());
      headers += header(name, 100);
      longNames += m + "/\n";
    }
  }
  std::string out = "!<thin>\n" + header("/", 4) + std::string(4, '\0');
  if (!longNames.empty())
    out += header("//", longNames.size()) + longNames + (longNames.size() % 2 ? "\n" : "");
  return out + headers;
}

} // namespace

TEST(Classify, ThinArchiveMembersAreInspectedAsFiles) {
  // Meson's static libraries are thin archives; their members are named
  // relative to the archive's directory.
  FakeFs fs = stackFs();
  fs.files.insert({"d/t.a", "d/u.a", "d/v.a"});
  fs.bytes["d/b.o"] = fs.bytes["b.o"];
  fs.bytes["d/sub/with-a-long-name.o"] = fs.bytes["b.o"];
  fs.bytes["d/a.o"] = fs.bytes["a.o"];
  fs.bytes["d/t.a"] = thinArchive({"b.o", "sub/with-a-long-name.o"});
  fs.bytes["d/u.a"] = thinArchive({"b.o", "a.o"});
  fs.bytes["d/v.a"] = thinArchive({"missing.o"});
  EXPECT_EQ(cc({"b.o", "d/t.a", "-o", "p"}, fs).stackUnknown, "");
  EXPECT_NE(cc({"b.o", "d/u.a", "-o", "p"}, fs).stackUnknown.find("an object in d/u.a"),
            std::string::npos);
  EXPECT_NE(cc({"b.o", "d/v.a", "-o", "p"}, fs).stackUnknown.find("d/missing.o cannot be read"),
            std::string::npos);
  // The first member tells the link record's target.
  auto c = cc({"d/t.a", "-o", "p"}, fs);
  ASSERT_TRUE(c.elfTarget);
  EXPECT_EQ(c.elfTarget->machine, 62);
}

TEST(Classify, UsersOwnStackOptionDecides) {
  for (std::vector<std::string> z : {std::vector<std::string>{"-Wl,-z,noexecstack"},
                                     {"-Wl,-zexecstack"},
                                     {"-Xlinker", "-z", "-Xlinker", "execstack"},
                                     {"-z", "noexecstack"},
                                     {"-Wl,-z", "-Wl,execstack"}}) {
    std::vector<std::string> args = {"a.o", "lib.a", "-o", "p"};
    args.insert(args.end(), z.begin(), z.end());
    auto c = cc(args, stackFs());
    EXPECT_TRUE(c.userStack) << z[0];
    EXPECT_EQ(c.execStackObject, "") << z[0]; // nothing to look at
    EXPECT_EQ(c.stackUnknown, "") << z[0];
  }
  EXPECT_FALSE(cc({"a.o", "-Wl,-z,now"}, stackFs()).userStack);
}

TEST(Classify, RelocatableLinkIsNoted) {
  EXPECT_TRUE(cc({"-r", "a.o", "b.o", "-o", "ab.o"}).relocatable);
  EXPECT_TRUE(cc({"-Wl,-r", "a.o", "b.o", "-o", "ab.o"}).relocatable);
  EXPECT_TRUE(cc({"-Wl,--relocatable", "a.o", "b.o", "-o", "ab.o"}).relocatable);
  EXPECT_FALSE(cc({"a.o", "b.o", "-o", "ab"}).relocatable);
}

// --- Fortran: flang-new-19 behind alea-fc, clang behind alea-cc ------------------------

TEST(Classify, FortranExtensionsAreFlangsSourceTypes) {
  for (const char *name : {"a.f", "a.for", "a.f90", "a.f95", "a.f03", "a.f08", "a.F", "a.FOR",
                           "a.F90", "a.F95", "a.F03", "a.F08", "a.fpp", "a.FPP"})
    EXPECT_EQ(languageFromExtension(name), Language::Fortran) << name;
  // Not in LLVM 19's driver types: both drivers hand these to the linker.
  for (const char *name : {"a.ftn", "a.f77", "a.FTN", "a.F77"})
    EXPECT_EQ(languageFromExtension(name), Language::LinkerInput) << name;
  EXPECT_EQ(languageFromXName("f95"), Language::Fortran);
  EXPECT_EQ(languageFromXName("f95-cpp-input"), Language::Fortran);
  EXPECT_EQ(languageFromXName("fortran"), Language::Unknown); // flang does not know it either
  EXPECT_TRUE(isSourceLanguage(Language::Fortran));
}

TEST(Classify, AleaFcCompilesFortranSources) {
  auto c = fc({"-O2", "-c", "p.f90", "-o", "p.o"});
  EXPECT_EQ(c.mode, Mode::Compile);
  EXPECT_EQ(c.reason, Reason::CompileSources);
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].language, Language::Fortran);
  EXPECT_EQ(fc({"-c", "q.F90", "old.f"}).mode, Mode::Compile);
  EXPECT_EQ(fc({"-c", "-x", "f95", "t.ftn"}).mode, Mode::Compile);
}

TEST(Classify, AleaFcCompilesAndLinksFortranSourcesAndObjects) {
  auto c = fc({"p.f90", "a.o", "b.o", "-o", "prog"});
  EXPECT_EQ(c.mode, Mode::CompileAndLink);
  // The source and the objects trade places like C sources do.
  EXPECT_EQ(c.linkOrderSlots, (std::vector<std::size_t>{0, 1, 2}));
  auto l = fc({"a.o", "b.o", "-o", "prog", "-lFortranRuntime"});
  EXPECT_EQ(l.mode, Mode::Link);
  EXPECT_EQ(l.reason, Reason::LinkInputs);
}

TEST(Classify, FlangOptionsTakingADirectoryDoNotMakeInputs) {
  // The directories are not regular files: were they inputs, the command
  // would pass through as "input is not a regular file".
  auto c = fc({"-J", "mods", "-module-dir", "mods2", "-fintrinsic-modules-path", "/usr/lib/mods",
               "-mmlir", "--mlir-print-ir-after-all", "-c", "p.f90"});
  EXPECT_EQ(c.mode, Mode::Compile);
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].path, "p.f90");
  EXPECT_EQ(fc({"-Jmods", "-cpp", "-ffree-form", "-ffixed-line-length=132", "-c", "p.f90"}).mode,
            Mode::Compile);
}

TEST(Classify, FlangModeOptionsPassThrough) {
  expectPass(fc({"-E", "q.F90"}), Reason::Preprocess);
  expectPass(fc({"-cpp", "-E", "p.f90"}), Reason::Preprocess);
  expectPass(fc({"-fsyntax-only", "p.f90"}), Reason::SyntaxOnly);
  expectPass(fc({"-fc1", "-emit-obj", "p.f90"}), Reason::DriverMode);
  expectPass(fc({"-c", "m.mod"}), Reason::NoSourceInputs); // a module file is no source
}

TEST(Classify, AleaCcPassesFortranThroughWithAReason) {
  // clang-19 runs gcc (gfortran) for a Fortran source: no plugin can load
  // there. Not a link of objects any more (the old, silent decision).
  auto c = cc({"-c", "p.f90"});
  expectPass(c, Reason::FortranViaGcc);
  EXPECT_EQ(c.detail, "p.f90");
  expectPass(cc({"p.f90", "a.c", "-o", "prog"}), Reason::FortranViaGcc);
  EXPECT_NE(reasonName(Reason::FortranViaGcc).find("alea-fc"), std::string_view::npos);
  // Objects flang made are linked by alea-cc like any other.
  EXPECT_EQ(cc({"a.o", "b.o", "-L/usr/lib/llvm-19/lib", "-lFortranRuntime"}).mode, Mode::Link);
}
