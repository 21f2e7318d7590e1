// Tests of the ELF layout reader, fingerprint and diff (alea_linker). Every ELF
// file is built here with LLVM 19's clang + lld; expected function orders come
// from lld's --symbol-ordering-file, expected addresses and sizes from llvm-nm,
// and notes are hand-written `.note.alea` sections, so nothing expected is
// produced by the code under test.
#include "alea/linker/layout.hpp"

#include "alea/random.hpp"
#include "alea/wrapper/link_record.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <tuple>
#include <vector>

namespace al = alea::linker;

namespace {

std::string gDir;

std::string path(const std::string &name) { return gDir + "/" + name; }

void writeFile(const std::string &name, const std::string &text) {
  std::ofstream(path(name)) << text;
}

// Runs a shell command, returns its stdout; fails the test on nonzero status.
std::string run(const std::string &cmd) {
  std::string out;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) {
    ADD_FAILURE() << "popen failed: " << cmd;
    return out;
  }
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    out.append(buf.data(), n);
  const int status = pclose(p);
  EXPECT_EQ(status, 0) << "command failed: " << cmd << "\n" << out;
  return out;
}

// C source of a hand-made alea note (common brief: name "alea", type 1 for the
// compile-time notes, 2 for link records, descriptor NUL-padded to 4 bytes).
std::string noteSource(const std::string &var, const std::string &text, int type = 1) {
  const std::size_t n = (text.size() + 1 + 3) & ~std::size_t{3};
  std::ostringstream os;
  os << "struct AleaNote_" << var << " { unsigned namesz, descsz, type; char name[8]; char desc["
     << n << "]; };\n"
     << "__attribute__((section(\".note.alea\"), used, aligned(4))) static const struct AleaNote_"
     << var << " " << var << " = {5, " << n << ", " << type << ", \"alea\", \"" << text << "\"};\n";
  return os.str();
}

// Five functions of distinct sizes (bodies differ in length) plus main.
const char *const ProgramSource = R"(
#include <stdio.h>
#define NI __attribute__((noinline, used))
NI int fa(int x) { return x + 1; }
NI int fb(int x) { return x * 3 + fa(x); }
NI int fc(int x) { int s = 0; for (int i = 0; i < x; ++i) s += i * fb(i); return s; }
NI int fd(int x) { return fc(x) ^ fb(x) ^ (x << 3) ^ (x >> 2) ^ fa(x * 5); }
NI int fe(int x) { int s = 1; for (int i = 1; i < x; ++i) s = s * 31 + fd(i) % 7 + fc(i) / 3; return s; }
int main(int argc, char **argv) { (void)argv; printf("%d\n", fe(argc + 4)); return 0; }
)";

const std::string Clang = ALEA_TEST_CLANG;

// Links ProgramSource (+ extra sources) with lld, optionally with an order file.
std::string buildProgram(const std::string &name, const std::vector<std::string> &order,
                         const std::string &extraSources = "") {
  writeFile(name + ".c", ProgramSource);
  std::string cmd = Clang + " -O1 -ffunction-sections -fuse-ld=lld -o " + path(name) + " " +
                    path(name + ".c") + " " + extraSources;
  if (!order.empty()) {
    std::string text;
    for (const auto &f : order)
      text += f + "\n";
    writeFile(name + ".order", text);
    cmd += " -Wl,--symbol-ordering-file=" + path(name + ".order");
  }
  run(cmd + " 2>&1");
  return path(name);
}

al::Layout mustRead(const std::string &file) {
  auto layout = al::readLayout(file);
  EXPECT_TRUE(layout.ok()) << layout.error();
  return layout ? *layout : al::Layout{};
}

// Whether readLayout reads `file`; its error (or "") in `error`.
bool readsLayout(const std::string &file, std::string &error) {
  const auto layout = al::readLayout(file);
  error = layout.error();
  return layout.ok();
}

std::vector<std::string> namesOf(const al::Layout &l, const std::vector<std::string> &wanted) {
  std::vector<std::string> out;
  for (const auto &f : l.functions)
    for (const auto &w : wanted)
      if (f.name == w)
        out.push_back(f.name);
  return out;
}

class LinkerLayout : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/alea-linker-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    gDir = tmpl;
  }
  static void TearDownTestSuite() { std::system(("rm -rf '" + gDir + "'").c_str()); }
};

} // namespace

// --- note text -----------------------------------------------------------------

TEST(NoteText, ParsesSeedAndFactors) {
  auto n =
      al::parseNoteText("alea-layout-v1 seed=0x00000000deadBEEF factors=function-order,link-order");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->seed, 0xdeadbeefULL);
  EXPECT_EQ(n->factors, (std::vector<std::string>{"function-order", "link-order"}));
}

TEST(NoteText, EmptyFactorListIsValid) {
  auto n = al::parseNoteText("alea-layout-v1 seed=0xffffffffffffffff factors=");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->seed, ~0ULL);
  EXPECT_TRUE(n->factors.empty());
}

TEST(NoteText, RejectsMalformed) {
  EXPECT_FALSE(al::parseNoteText(""));
  EXPECT_FALSE(al::parseNoteText("alea-layout-v2 seed=0x0000000000000001 factors=a"));
  EXPECT_FALSE(al::parseNoteText("alea-layout-v1 seed=0x001 factors=a")); // short
  EXPECT_FALSE(al::parseNoteText("alea-layout-v1 seed=0x000000000000000g factors=a"));
  EXPECT_FALSE(al::parseNoteText("alea-layout-v1 seed=0x0000000000000001")); // no factors
  EXPECT_FALSE(al::parseNoteText("alea-layout-v1 seed=0x0000000000000001 factors=a,"));
  EXPECT_FALSE(al::parseNoteText("alea-layout-v1 seed=0x0000000000000001 factors=a,,b"));
  EXPECT_FALSE(al::parseNoteText("alea-layout-v1 seed=1 factors=a"));
}

TEST(LinkNoteText, ParsesSeedFactorsAndSkipped) {
  auto n =
      al::parseLinkNoteText("alea-link-v1 seed=0x000000000000002a factors=link-order,lto-link");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->seed, 42u);
  EXPECT_EQ(n->factors, (std::vector<std::string>{"link-order", "lto-link"}));
  EXPECT_TRUE(n->skipped.empty());
  n = al::parseLinkNoteText(
      "alea-link-v1 seed=0x0000000000000001 factors= skipped=link-order,section-order");
  ASSERT_TRUE(n);
  EXPECT_TRUE(n->factors.empty());
  EXPECT_EQ(n->skipped, (std::vector<std::string>{"link-order", "section-order"}));
}

TEST(LinkNoteText, RejectsMalformed) {
  EXPECT_FALSE(al::parseLinkNoteText("alea-layout-v1 seed=0x0000000000000001 factors=a"));
  EXPECT_FALSE(al::parseLinkNoteText("alea-link-v1 seed=0x01 factors=a"));
  EXPECT_FALSE(al::parseLinkNoteText("alea-link-v1 seed=0x0000000000000001"));
  EXPECT_FALSE(al::parseLinkNoteText("alea-link-v1 seed=0x0000000000000001 factors=a,"));
  EXPECT_FALSE(al::parseLinkNoteText("alea-link-v1 seed=0x0000000000000001 factors=a skipped="));
  EXPECT_FALSE(al::parseLinkNoteText("alea-link-v1 seed=0x0000000000000001 factors=a other=b"));
  EXPECT_FALSE(al::parseLinkNoteText("alea-link-v1 seed=0x0000000000000001 factors=a skipped=b c"));
  // and the compile-time parser does not take a link record
  EXPECT_FALSE(al::parseNoteText("alea-link-v1 seed=0x0000000000000001 factors=a"));
}

TEST(Hex16, SixteenLowerCaseDigits) {
  EXPECT_EQ(al::hex16(0), "0000000000000000");
  EXPECT_EQ(al::hex16(0xDEADBEEF12345678ULL), "deadbeef12345678");
}

// --- fingerprint ---------------------------------------------------------------

TEST(Fingerprint, EmptyIsFnvOffsetBasis) {
  // FNV-1a 64 offset basis (Fowler/Noll/Vo, IETF draft-eastlake-fnv).
  EXPECT_EQ(al::fingerprint({}), 0xcbf29ce484222325ULL);
}

TEST(Fingerprint, IsFnv1aOfOffsetsAndSizes) {
  std::vector<al::Function> fs = {{"x", 0x401130, 16, ".text", false},
                                  {"y", 0x401150, 40, ".text", true}};
  // Independent computation with alea::hashName (FNV-1a over a byte string):
  // offsets are relative to the page of the first function, 0x401000.
  std::string bytes;
  for (std::uint64_t v : {0x130ULL, 16ULL, 0x150ULL, 40ULL})
    for (int i = 0; i < 8; ++i)
      bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  EXPECT_EQ(al::fingerprint(fs), alea::hashName(bytes));
}

TEST(Fingerprint, IgnoresNamesAndWholePageShiftsButNotOffsetsOrSizes) {
  std::vector<al::Function> fs = {{"x", 0x401130, 16, ".text", false},
                                  {"y", 0x401150, 40, ".text", true}};
  const auto base = al::fingerprint(fs);
  auto renamed = fs;
  renamed[1].name = "zz_random";
  EXPECT_EQ(al::fingerprint(renamed), base);
  auto pageShift = fs;
  for (auto &f : pageShift)
    f.address += 0x3000;
  EXPECT_EQ(al::fingerprint(pageShift), base);
  auto lineShift = fs;
  for (auto &f : lineShift)
    f.address += 16;
  EXPECT_NE(al::fingerprint(lineShift), base);
  auto resized = fs;
  resized[0].size = 17;
  EXPECT_NE(al::fingerprint(resized), base);
  auto swapped = fs;
  std::swap(swapped[0].size, swapped[1].size);
  EXPECT_NE(al::fingerprint(swapped), base);
}

// --- reading ELF files ---------------------------------------------------------

TEST_F(LinkerLayout, FunctionOrderFollowsSymbolOrderingFile) {
  const std::vector<std::string> order1 = {"fd", "main", "fa", "fe", "fc", "fb"};
  const std::vector<std::string> order2 = {"fb", "fc", "fe", "fa", "main", "fd"};
  const auto l1 = mustRead(buildProgram("order1", order1));
  const auto l2 = mustRead(buildProgram("order2", order2));
  EXPECT_EQ(namesOf(l1, order1), order1);
  EXPECT_EQ(namesOf(l2, order2), order2);
  for (std::size_t i = 1; i < l1.functions.size(); ++i)
    EXPECT_LT(l1.functions[i - 1].address, l1.functions[i].address);
  EXPECT_NE(l1.fingerprint, l2.fingerprint);
}

TEST_F(LinkerLayout, AddressesAndSizesAgreeWithLlvmNm) {
  const std::string exe = buildProgram("nm", {"fe", "fa", "main"});
  const auto l = mustRead(exe);
  // llvm-nm -P: "name type value size" (hex), defined text symbols only.
  std::istringstream nm(run(std::string(ALEA_TEST_LLVM_NM) + " -P --defined-only " + exe));
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> expected;
  std::string line;
  while (std::getline(nm, line)) {
    std::istringstream ls(line);
    std::string name, type, value, size;
    if (!(ls >> name >> type >> value >> size) || (type != "T" && type != "t"))
      continue;
    const auto sz = std::stoull(size, nullptr, 16);
    if (sz)
      expected[name] = {std::stoull(value, nullptr, 16), sz};
  }
  ASSERT_GE(expected.size(), 6u);
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> got;
  for (const auto &f : l.functions)
    got[f.name] = {f.address, f.size};
  EXPECT_EQ(got, expected);
  EXPECT_EQ(l.fileType, "executable (PIE)");
  for (const auto &f : l.functions)
    EXPECT_EQ(f.section, ".text") << f.name;
}

TEST_F(LinkerLayout, SameInputGivesSameFingerprint) {
  const std::vector<std::string> order = {"fc", "fa", "main"};
  const auto a = mustRead(buildProgram("same1", order));
  const auto b = mustRead(buildProgram("same2", order));
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  const auto d = al::diffLayouts(a, b);
  EXPECT_TRUE(d.sameLayout());
  EXPECT_EQ(d.moved, 0u);
  EXPECT_EQ(d.addressChanged, 0u);
  EXPECT_EQ(d.matchedByName, a.functions.size());
}

TEST_F(LinkerLayout, UnrandomizedBinaryHasNoRecord) {
  const auto l = mustRead(buildProgram("plain", {}));
  EXPECT_FALSE(l.record.present);
  EXPECT_EQ(l.record.noteCount, 0u);
  EXPECT_NE(al::formatLayout(l).find("not randomized by alea"), std::string::npos);
}

TEST_F(LinkerLayout, ReadsHandmadeNoteInExecutableAndObject) {
  const std::string text = "alea-layout-v1 seed=0x00000000000004d2 factors=function-order,"
                           "global-order,symbol-names,code-padding,stack-offset,link-order,"
                           "section-order";
  writeFile("note1.c", noteSource("n1", text));
  run(Clang + " -c -o " + path("note1.o") + " " + path("note1.c"));
  const auto obj = mustRead(path("note1.o"));
  EXPECT_EQ(obj.fileType, "relocatable");
  ASSERT_TRUE(obj.record.present);
  EXPECT_TRUE(obj.record.valid);
  EXPECT_EQ(obj.record.seed, 1234u);
  EXPECT_EQ(obj.record.text, text);

  const auto exe = mustRead(buildProgram("withnote", {}, path("note1.c")));
  ASSERT_TRUE(exe.record.present);
  EXPECT_TRUE(exe.record.valid);
  EXPECT_TRUE(exe.record.consistent());
  EXPECT_EQ(exe.record.noteCount, 1u);
  EXPECT_EQ(exe.record.seed, 1234u);
  EXPECT_EQ(exe.record.factors.size(), 7u);
  EXPECT_EQ(exe.record.factors.front(), "function-order");
  EXPECT_EQ(exe.record.factors.back(), "section-order");
  const std::string json = al::layoutToJson(exe);
  EXPECT_NE(json.find("\"seed\":\"0x00000000000004d2\""), std::string::npos) << json;
}

TEST_F(LinkerLayout, AgreeingNotesFromSeveralObjectsAreConsistent) {
  const std::string text = "alea-layout-v1 seed=0x0000000000000007 factors=link-order";
  writeFile("agree1.c", noteSource("a1", text));
  writeFile("agree2.c", noteSource("a2", text));
  const auto l = mustRead(buildProgram("agree", {}, path("agree1.c") + " " + path("agree2.c")));
  EXPECT_EQ(l.record.noteCount, 2u);
  EXPECT_TRUE(l.record.consistent());
  EXPECT_EQ(l.record.seed, 7u);
  EXPECT_EQ(l.record.factors, std::vector<std::string>{"link-order"});
}

TEST_F(LinkerLayout, DisagreeingNotesAreReported) {
  const std::string t1 = "alea-layout-v1 seed=0x0000000000000001 factors=function-order";
  const std::string t2 = "alea-layout-v1 seed=0x0000000000000002 factors=function-order";
  writeFile("dis1.c", noteSource("d1", t1));
  writeFile("dis2.c", noteSource("d2", t2));
  const auto l = mustRead(buildProgram("disagree", {}, path("dis1.c") + " " + path("dis2.c")));
  EXPECT_EQ(l.record.noteCount, 2u);
  EXPECT_FALSE(l.record.consistent());
  ASSERT_EQ(l.record.disagreeing.size(), 1u);
  // Which note comes first is the linker's choice; the other one disagrees.
  EXPECT_TRUE((l.record.text == t1 && l.record.disagreeing[0] == t2) ||
              (l.record.text == t2 && l.record.disagreeing[0] == t1));
  EXPECT_NE(al::formatLayout(l).find("DISAGREE"), std::string::npos);
}

TEST_F(LinkerLayout, ObjectFileListsFunctionSections) {
  writeFile("obj.c", ProgramSource);
  run(Clang + " -O1 -ffunction-sections -c -o " + path("obj.o") + " " + path("obj.c"));
  const auto l = mustRead(path("obj.o"));
  EXPECT_EQ(l.fileType, "relocatable");
  std::map<std::string, std::string> sections;
  for (const auto &f : l.functions)
    sections[f.name] = f.section;
  ASSERT_EQ(sections.size(), 6u);
  EXPECT_EQ(sections["fa"], ".text.fa");
  EXPECT_EQ(sections["main"], ".text.main");
}

TEST_F(LinkerLayout, ErrorsForMissingTextAndArchiveFiles) {
  std::string error;
  EXPECT_FALSE(readsLayout(path("does-not-exist"), error));
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
  writeFile("text.txt", "hello, not an ELF file\n");
  EXPECT_FALSE(readsLayout(path("text.txt"), error));
  EXPECT_NE(error.find("is not an ELF file"), std::string::npos) << error;
  writeFile("arobj.c", "int f(void) { return 1; }\n");
  run(Clang + " -c -o " + path("arobj.o") + " " + path("arobj.c"));
  run(std::string(ALEA_TEST_LLVM_AR) + " rc " + path("lib.a") + " " + path("arobj.o"));
  EXPECT_FALSE(readsLayout(path("lib.a"), error));
  EXPECT_NE(error.find("archive"), std::string::npos) << error;
}

namespace {

std::string readBytes(const std::string &file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeBytes(const std::string &file, const std::string &bytes) {
  std::ofstream(file, std::ios::binary) << bytes;
}

// The error of reading `file`, which must fail.
std::string readError(const std::string &file) {
  std::string error;
  EXPECT_FALSE(readsLayout(file, error)) << file << " read without an error";
  return error;
}

const std::string NineNote = "alea-layout-v1 seed=0x0000000000000009 factors=function-order";

// e_shoff, as llvm-readelf reads it.
std::size_t sectionHeaderOffset(const std::string &file) {
  const std::string header = run(std::string(ALEA_TEST_LLVM_READELF) + " -h " + file);
  const auto at = header.find("Start of section headers:");
  EXPECT_NE(at, std::string::npos) << header;
  return at == std::string::npos ? 0 : std::stoul(header.substr(at + 25));
}

} // namespace

// libelf reads a file cut before its section header table as one without
// sections; the reader must not turn that into "not randomized by alea".
TEST_F(LinkerLayout, TruncatedBinaryIsAnErrorNotAnUnrandomizedOne) {
  writeFile("tnote.c", noteSource("tn", NineNote));
  const std::string whole = readBytes(buildProgram("trunc", {}, path("tnote.c")));
  ASSERT_TRUE(mustRead(path("trunc")).randomized());
  const std::size_t shoff = sectionHeaderOffset(path("trunc"));
  ASSERT_LT(shoff + 64 * 3, whole.size());

  const std::string expected = "truncated or corrupt ELF: the section header table";
  for (const std::size_t size : {whole.size() / 2, shoff, shoff + 64 * 3, whole.size() - 1}) {
    const std::string cut = path("trunc." + std::to_string(size));
    writeBytes(cut, whole.substr(0, size));
    const std::string error = readError(cut);
    EXPECT_EQ(error.rfind(cut + ": " + expected, 0), 0u) << error;
    EXPECT_NE(error.find("past the end of the file (" + std::to_string(size) + " bytes)"),
              std::string::npos)
        << error;
  }
  // Cut inside the ELF header: the magic is there, the header is not.
  writeBytes(path("trunc.40"), whole.substr(0, 40));
  EXPECT_EQ(readError(path("trunc.40")),
            path("trunc.40") + ": truncated or corrupt ELF: the file (40 bytes) has the ELF "
                               "magic but no readable ELF header");
}

// A section whose bytes lie past the end of the file (the table of section
// headers intact) and a note whose size runs past its section are errors too.
TEST_F(LinkerLayout, SectionOrNoteRunningPastItsEndIsAnError) {
  writeFile("cnote.c", noteSource("cn", NineNote));
  const std::string whole = readBytes(buildProgram("corrupt", {}, path("cnote.c")));
  // The note as noteSource() lays it out: namesz 5, descsz, type 1, "alea".
  const auto name = whole.find(std::string("alea\0\0\0\0alea-layout-v1", 22));
  ASSERT_NE(name, std::string::npos);
  ASSERT_GE(name, 12u);

  std::string badNote = whole;
  badNote[name - 8] = '\xff'; // descsz, little-endian: now larger than the section
  badNote[name - 7] = '\x7f';
  writeBytes(path("corrupt.note"), badNote);
  const std::string error = readError(path("corrupt.note"));
  EXPECT_EQ(error.rfind(path("corrupt.note") + ": corrupt ELF: section [", 0), 0u) << error;
  EXPECT_NE(error.find("] .note.alea: the note at byte 0 runs past the end of the section"),
            std::string::npos)
      << error;

  // The section moved past the end of the file: its sh_offset, from the
  // section header table, pointed at the last byte.
  const std::string sections = run(std::string(ALEA_TEST_LLVM_READELF) + " -S -W " +
                                   path("corrupt") + " | grep ' .note.alea '");
  const std::size_t index = std::stoul(sections.substr(sections.find('[') + 1));
  const std::size_t shoff = sectionHeaderOffset(path("corrupt"));
  std::string moved = whole;
  const std::size_t offsetField = shoff + 64 * index + 24; // Elf64_Shdr.sh_offset
  const std::uint64_t last = whole.size() - 1;
  for (int i = 0; i < 8; ++i)
    moved[offsetField + i] = static_cast<char>((last >> (8 * i)) & 0xff);
  writeBytes(path("corrupt.moved"), moved);
  const std::string movedError = readError(path("corrupt.moved"));
  EXPECT_EQ(movedError.rfind(path("corrupt.moved") + ": truncated or corrupt ELF: section [" +
                                 std::to_string(index) + "] .note.alea (",
                             0),
            0u)
      << movedError;
  EXPECT_NE(movedError.find(" bytes at offset " + std::to_string(last) +
                            ") runs past the end of the file (" + std::to_string(whole.size()) +
                            " bytes)"),
            std::string::npos)
      << movedError;
}

// --- link records ----------------------------------------------------------------

namespace {

const std::string AllFactors = "function-order,global-order,symbol-names,code-padding,"
                               "stack-offset,link-order,section-order";

std::string compileNote(int seed) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016x", seed);
  return "alea-layout-v1 seed=0x" + std::string(hex) + " factors=" + AllFactors;
}

std::string lineOf(const std::string &text, const std::string &key) {
  const auto at = text.find("\n" + key);
  if (at == std::string::npos)
    return "(no " + key + " line)";
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

} // namespace

TEST_F(LinkerLayout, LinkRecordIsReadApartFromTheCompileTimeNotes) {
  writeFile("c1.c", noteSource("c1", compileNote(5)));
  writeFile("c2.c", noteSource("c2", compileNote(5)));
  writeFile("l1.c", noteSource("l1",
                               "alea-link-v1 seed=0x0000000000000005 factors=link-order "
                               "skipped=section-order",
                               2));
  const auto l = mustRead(
      buildProgram("withlink", {}, path("c1.c") + " " + path("c2.c") + " " + path("l1.c")));
  EXPECT_EQ(l.record.noteCount, 2u);  // the link record is not a compile-time note
  EXPECT_TRUE(l.record.consistent()); // and does not disagree with them
  EXPECT_EQ(l.record.seed, 5u);
  ASSERT_TRUE(l.link.present);
  EXPECT_TRUE(l.link.valid);
  EXPECT_EQ(l.link.seed, 5u);
  EXPECT_EQ(l.link.factors, std::vector<std::string>{"link-order"});
  EXPECT_EQ(l.link.skipped, std::vector<std::string>{"section-order"});
  EXPECT_EQ(l.link.recordCount, 1u);
  EXPECT_TRUE(l.randomized());
  const std::string text = al::formatLayout(l);
  EXPECT_EQ(lineOf(text, "seed:"), "seed:        0x0000000000000005");
  EXPECT_EQ(lineOf(text, "factors:"), "factors:     " + AllFactors);
  EXPECT_EQ(lineOf(text, "notes:"), "notes:       2 compile-time (all agree)");
  EXPECT_EQ(lineOf(text, "link:"), "link:        link-order (not applied: section-order)");
  const std::string json = al::layoutToJson(l);
  EXPECT_NE(json.find("\"link\":{\"valid\":true,\"seed\":\"0x0000000000000005\","
                      "\"factors\":[\"link-order\"],\"skipped\":[\"section-order\"],"),
            std::string::npos)
      << json;
}

TEST_F(LinkerLayout, OnlyALinkRecordReadsAsRandomizedWithItsSeed) {
  writeFile(
      "lonly.c",
      noteSource("lo", "alea-link-v1 seed=0x00000000000004d2 factors=link-order,section-order", 2));
  const auto l = mustRead(buildProgram("linkonly", {}, path("lonly.c")));
  EXPECT_FALSE(l.record.present);
  EXPECT_TRUE(l.randomized());
  ASSERT_TRUE(l.seed());
  EXPECT_EQ(*l.seed(), 1234u);
  const std::string text = al::formatLayout(l);
  EXPECT_EQ(lineOf(text, "seed:"), "seed:        0x00000000000004d2");
  EXPECT_EQ(lineOf(text, "factors:"),
            "factors:     none at compile time (no object was compiled by alea)");
  EXPECT_EQ(lineOf(text, "notes:"), "(no notes: line)");
  EXPECT_EQ(lineOf(text, "link:"), "link:        link-order,section-order");
  const std::string json = al::layoutToJson(l);
  EXPECT_NE(json.find("\"alea\":{\"randomized\":true,\"seed\":\"0x00000000000004d2\","
                      "\"factors\":[],\"notes\":0,"),
            std::string::npos)
      << json;
  // --diff shows the compile-time and the link seed of each side.
  const auto plain = mustRead(buildProgram("plainlink", {}));
  const std::string diff = al::formatDiff(l, plain, al::diffLayouts(l, plain));
  EXPECT_NE(diff.find("  seed none  link 0x00000000000004d2  fingerprint "), std::string::npos)
      << diff;
  EXPECT_NE(diff.find("  seed none (not randomized by alea)  fingerprint "), std::string::npos);
}

TEST_F(LinkerLayout, LinkRecordOfAnotherSeedAndOtherRecordsAreShown) {
  writeFile("c3.c", noteSource("c3", compileNote(1)));
  writeFile("l2.c", noteSource("l2", "alea-link-v1 seed=0x0000000000000002 factors=link-order", 2));
  writeFile("l3.c", noteSource("l3", "alea-link-v1 seed=0x0000000000000002 factors=", 2));
  const auto l = mustRead(
      buildProgram("twolinks", {}, path("c3.c") + " " + path("l2.c") + " " + path("l3.c")));
  EXPECT_TRUE(l.record.consistent());
  EXPECT_EQ(l.link.recordCount, 2u);
  ASSERT_EQ(l.link.others.size(), 1u);
  const std::string text = al::formatLayout(l);
  EXPECT_EQ(lineOf(text, "link:"), "link:        link-order (seed 0x0000000000000002, not the "
                                   "compile-time seed; 2 link records)");
  EXPECT_NE(text.find("\n  other link record: alea-link-v1 seed=0x0000000000000002 factors="),
            std::string::npos);
  EXPECT_EQ(text.find("DISAGREE"), std::string::npos);
  const auto d = al::diffLayouts(l, l);
  EXPECT_NE(al::formatDiff(l, l, d).find("seed 0x0000000000000001  link 0x0000000000000002"),
            std::string::npos);
}

TEST_F(LinkerLayout, ReadsWhatTheWrappersRecordWriterWrites) {
  // Objects of both classes and byte orders, and an x86-64 one linked by lld.
  const std::string text = "alea-link-v1 seed=0x00000000cafebabe factors=section-order,lto-link";
  for (auto [cls, data, machine] :
       {std::tuple<int, int, int>{2, 1, 62}, {1, 1, 3}, {2, 2, 21}, {1, 2, 8}}) {
    alea::wrapper::ElfTarget t;
    t.elfClass = static_cast<std::uint8_t>(cls);
    t.data = static_cast<std::uint8_t>(data);
    t.machine = static_cast<std::uint16_t>(machine);
    const std::string name = "record" + std::to_string(machine) + ".o";
    std::ofstream(path(name), std::ios::binary) << alea::wrapper::writeLinkRecordObject(t, text);
    const auto l = mustRead(path(name));
    EXPECT_EQ(l.fileType, "relocatable");
    EXPECT_TRUE(l.link.valid) << name;
    EXPECT_EQ(l.link.seed, 0xcafebabeULL);
    EXPECT_EQ(l.link.factors, (std::vector<std::string>{"section-order", "lto-link"}));
    EXPECT_FALSE(l.record.present);
  }
  const auto linked = mustRead(buildProgram("recordlinked", {}, path("record62.o")));
  EXPECT_TRUE(linked.link.valid);
  EXPECT_EQ(*linked.seed(), 0xcafebabeULL);
}

// --- diff ----------------------------------------------------------------------

TEST_F(LinkerLayout, DiffCountsRankMovesFromOrderingFiles) {
  // Swapping the first two ordered functions changes exactly their two ranks.
  const auto a = mustRead(buildProgram("rank1", {"fa", "fb", "fc", "fd", "fe", "main"}));
  const auto b = mustRead(buildProgram("rank2", {"fb", "fa", "fc", "fd", "fe", "main"}));
  const auto d = al::diffLayouts(a, b);
  EXPECT_FALSE(d.sameLayout());
  EXPECT_EQ(d.matchedByName, a.functions.size());
  EXPECT_EQ(d.moved, 2u);
  ASSERT_EQ(d.pairs.size(), d.matched());
  std::map<std::string, std::pair<std::size_t, std::size_t>> ranks;
  for (const auto &p : d.pairs) {
    EXPECT_EQ(a.functions[p.indexA].name, b.functions[p.indexB].name);
    EXPECT_TRUE(p.byName);
    ranks[a.functions[p.indexA].name] = {p.rankA, p.rankB};
  }
  EXPECT_EQ(ranks["fa"], (std::pair<std::size_t, std::size_t>{0, 1}));
  EXPECT_EQ(ranks["fb"], (std::pair<std::size_t, std::size_t>{1, 0}));
  EXPECT_EQ(ranks["fc"], (std::pair<std::size_t, std::size_t>{2, 2}));
  EXPECT_TRUE(d.onlyInA.empty());
  EXPECT_TRUE(d.onlyInB.empty());
  // fa and fb (different sizes) swapped places: both addresses changed.
  EXPECT_GE(d.addressChanged, 2u);
  std::size_t total = 0;
  for (auto n : d.lineOffsetDelta)
    total += n;
  EXPECT_EQ(total, d.matched());
  EXPECT_EQ(d.matched() - d.lineOffsetDelta[0], d.lineOffsetChanged);
  const std::string json = al::diffToJson(a, b, d);
  EXPECT_NE(json.find("\"moved\":2"), std::string::npos) << json;
  EXPECT_NE(al::formatDiff(a, b, d).find("layouts:                   different"),
            std::string::npos);
}

TEST_F(LinkerLayout, DiffMatchesRenamedLocalsBySizeOrReportsThemUnmatched) {
  // Static functions whose names differ between the two builds (as with the
  // symbol-names factor): `big` has a unique size, `t1`/`t2` share a size.
  const char *src = R"(
#define NI static __attribute__((noinline, used))
NI int BIG(int x) { int s = 0; for (int i = 0; i < x; ++i) s += i * i ^ (s >> 1); return s; }
NI int T1(int x) { return x + 11; }
NI int T2(int x) { return x + 22; }
int main(int argc, char **argv) { (void)argv; return BIG(argc) + T1(argc) + T2(argc) - 100; }
)";
  writeFile("locals.c", src);
  run(Clang + " -O1 -fuse-ld=lld -DBIG=big_a -DT1=t1_a -DT2=t2_a -o " + path("locals_a") + " " +
      path("locals.c"));
  run(Clang + " -O1 -fuse-ld=lld -DBIG=big_b -DT1=t1_b -DT2=t2_b -o " + path("locals_b") + " " +
      path("locals.c"));
  const auto a = mustRead(path("locals_a"));
  const auto b = mustRead(path("locals_b"));
  std::map<std::string, std::uint64_t> sizes;
  for (const auto &f : a.functions)
    sizes[f.name] = f.size;
  ASSERT_EQ(sizes["t1_a"], sizes["t2_a"]) << "test premise: t1 and t2 have equal sizes";
  const auto d = al::diffLayouts(a, b);
  EXPECT_EQ(d.matchedBySize, 1u); // big_a <-> big_b
  EXPECT_EQ(d.unmatchedLocalA, 2u);
  EXPECT_EQ(d.unmatchedLocalB, 2u);
  EXPECT_TRUE(d.onlyInA.empty());
  EXPECT_EQ(d.matchedByName + d.matchedBySize + d.unmatchedLocalA, a.functions.size());
}

// --- gaps ------------------------------------------------------------------------

TEST_F(LinkerLayout, GapsAreTheBytesBeforeEachFunction) {
  // patchable_function_entry(N, N) puts N bytes before the entry, outside the
  // symbol, as the code-padding factor's prefix data does.
  const char *src = R"(
__attribute__((patchable_function_entry(PADN, PADN), noinline)) int f1(int x) { return x * 3 + 1; }
__attribute__((noinline)) int f2(int x) { return f1(x) + 2; }
int main(int argc, char **argv) { (void)argv; return f2(argc); }
)";
  writeFile("gap.c", src);
  run(Clang + " -O1 -ffunction-sections -DPADN=8 -c -o " + path("gap.o") + " " + path("gap.c"));
  const auto obj = mustRead(path("gap.o"));
  std::map<std::string, std::uint64_t> gaps;
  for (const auto &f : obj.functions)
    gaps[f.name] = f.gap;
  // One function per section: the gap is the offset in the section.
  EXPECT_EQ(gaps, (std::map<std::string, std::uint64_t>{{"f1", 8}, {"f2", 0}, {"main", 0}}));

  // In an executable: the distance from the previous function's end, which
  // llvm-nm gives independently (sorted by address, sizes in hex).
  run(Clang + " -O1 -fuse-ld=lld -DPADN=24 -o " + path("gap") + " " + path("gap.c"));
  const auto exe = mustRead(path("gap"));
  std::istringstream nm(
      run(std::string(ALEA_TEST_LLVM_NM) + " -P -n --defined-only " + path("gap")));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> text; // (address, size)
  std::string line;
  while (std::getline(nm, line)) {
    std::istringstream ls(line);
    std::string name, type, value, size;
    if ((ls >> name >> type >> value >> size) && (type == "T" || type == "t") &&
        std::stoull(size, nullptr, 16) > 0)
      text.emplace_back(std::stoull(value, nullptr, 16), std::stoull(size, nullptr, 16));
  }
  ASSERT_EQ(text.size(), exe.functions.size());
  for (std::size_t i = 1; i < text.size(); ++i) {
    EXPECT_EQ(exe.functions[i].address, text[i].first);
    EXPECT_EQ(exe.functions[i].gap, text[i].first - (text[i - 1].first + text[i - 1].second)) << i;
  }
  bool padded = false;
  for (const auto &f : exe.functions)
    if (f.name == "f1")
      padded = f.gap >= 24;
  EXPECT_TRUE(padded);
  EXPECT_NE(al::formatLayout(exe).find("    gap  section / name"), std::string::npos);
  EXPECT_NE(al::layoutToJson(exe).find("\"gap\":"), std::string::npos);
}

TEST_F(LinkerLayout, DiffCountsChangedGaps) {
  writeFile("gapd.c", R"(
__attribute__((patchable_function_entry(PADN, PADN), noinline)) int f1(int x) { return x + 1; }
__attribute__((noinline)) int f2(int x) { return f1(x) * 2; }
int main(int argc, char **argv) { (void)argv; return f2(argc); }
)");
  run(Clang + " -O1 -ffunction-sections -DPADN=0 -c -o " + path("gapd_a.o") + " " + path("gapd.c"));
  run(Clang + " -O1 -ffunction-sections -DPADN=16 -c -o " + path("gapd_b.o") + " " +
      path("gapd.c"));
  const auto a = mustRead(path("gapd_a.o"));
  const auto b = mustRead(path("gapd_b.o"));
  const auto d = al::diffLayouts(a, b);
  EXPECT_EQ(d.matched(), 3u);
  EXPECT_EQ(d.gapChanged, 1u); // f1
  EXPECT_EQ(d.gapBytesA, 0u);
  EXPECT_EQ(d.gapBytesB, 16u);
  EXPECT_NE(al::formatDiff(a, b, d).find("gap changed:               1 of 3 (33.3%)"),
            std::string::npos)
      << al::formatDiff(a, b, d);
  EXPECT_NE(al::formatDiff(a, b, d).find("gap bytes (all functions): A 0, B 16"),
            std::string::npos);
  const std::string json = al::diffToJson(a, b, d);
  EXPECT_NE(json.find("\"gap_changed\":1,\"gap_bytes_a\":0,\"gap_bytes_b\":16"), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"name_a\":\"f1\""), std::string::npos);
  EXPECT_NE(json.find("\"gap_a\":0,\"gap_b\":16"), std::string::npos) << json;
}

TEST_F(LinkerLayout, BigEndianObjectNoteIsDecodedInItsByteOrder) {
  // A PowerPC64 (big-endian) object: note words must be read big-endian.
  const std::string text = "alea-layout-v1 seed=0x0123456789abcdef factors=global-order";
  writeFile("be.c", noteSource("be", text) + "int f(int x) { return x + 1; }\n");
  run(Clang + " --target=powerpc64-linux-gnu -O1 -c -o " + path("be.o") + " " + path("be.c"));
  const auto l = mustRead(path("be.o"));
  ASSERT_TRUE(l.record.present);
  EXPECT_TRUE(l.record.valid);
  EXPECT_EQ(l.record.seed, 0x0123456789abcdefULL);
  EXPECT_EQ(l.record.factors, std::vector<std::string>{"global-order"});
}

TEST_F(LinkerLayout, StrippedSharedObjectFallsBackToDynsym) {
  writeFile("so.c", "int exported_one(int x) { return x * 2; }\n"
                    "int exported_two(int x) { return exported_one(x) + 3; }\n");
  run(Clang + " -O1 -shared -fPIC -fuse-ld=lld -o " + path("libso.so") + " " + path("so.c"));
  run(std::string(ALEA_TEST_LLVM_STRIP) + " -o " + path("libso.stripped.so") + " " +
      path("libso.so"));
  const auto full = mustRead(path("libso.so"));
  const auto stripped = mustRead(path("libso.stripped.so"));
  EXPECT_FALSE(full.fromDynsym);
  EXPECT_TRUE(stripped.fromDynsym);
  EXPECT_EQ(full.fileType, "shared object");
  std::vector<std::string> names;
  for (const auto &f : stripped.functions)
    names.push_back(f.name);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"exported_one", "exported_two"}));
}

// --- stripped files and files without code -------------------------------------

namespace {

// The code fingerprint computed independently of libelf: the executable
// sections as llvm-readelf lists them (flags with X), sorted by address, their
// bytes read from the file at their offsets, hashed with alea::hashName
// (FNV-1a) over (address - page of the first, size, bytes) per section.
struct IndependentCode {
  std::size_t sections = 0;
  std::uint64_t bytes = 0;
  std::uint64_t fingerprint = 0;
};
IndependentCode independentCode(const std::string &file) {
  std::istringstream lines(run(std::string(ALEA_TEST_LLVM_READELF) + " -S -W " + file));
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>> code; // addr, off, size
  std::string line;
  while (std::getline(lines, line)) {
    const auto close = line.find(']');
    if (line.find('[') == std::string::npos || close == std::string::npos ||
        line.find("Nr]") != std::string::npos)
      continue;
    std::istringstream ls(line.substr(close + 1));
    std::string name, type, addr, off, size, es, flags;
    if (!(ls >> name >> type >> addr >> off >> size >> es >> flags))
      continue;
    if (flags.find('X') != std::string::npos && type != "NOBITS" && std::stoull(size, nullptr, 16))
      code.emplace_back(std::stoull(addr, nullptr, 16), std::stoull(off, nullptr, 16),
                        std::stoull(size, nullptr, 16));
  }
  std::stable_sort(code.begin(), code.end(),
                   [](const auto &x, const auto &y) { return std::get<0>(x) < std::get<0>(y); });
  std::ifstream in(file, std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string hashed;
  IndependentCode out;
  const std::uint64_t base = code.empty() ? 0 : std::get<0>(code.front()) & ~0xfffULL;
  for (const auto &[addr, off, size] : code) {
    for (std::uint64_t v : {addr - base, size})
      for (int i = 0; i < 8; ++i)
        hashed.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    hashed += image.substr(off, size);
    ++out.sections;
    out.bytes += size;
  }
  out.fingerprint = alea::hashName(hashed);
  return out;
}

} // namespace

TEST_F(LinkerLayout, StrippedProgramIsFingerprintedByItsCode) {
  const std::string strip = ALEA_TEST_LLVM_STRIP;
  const std::string a = buildProgram("code1", {"fd", "main", "fa", "fe", "fc", "fb"});
  const std::string b = buildProgram("code2", {"fb", "fc", "fe", "fa", "main", "fd"});
  run(strip + " -o " + a + ".s " + a);
  run(strip + " -o " + a + ".s2 " + a);
  run(strip + " -o " + b + ".s " + b);
  const auto full = mustRead(a), fullB = mustRead(b);
  const auto sa = mustRead(a + ".s"), sa2 = mustRead(a + ".s2"), sb = mustRead(b + ".s");

  EXPECT_FALSE(full.stripped);
  EXPECT_EQ(full.basis, al::FingerprintBasis::Functions);
  EXPECT_EQ(full.fingerprint, al::fingerprint(full.functions));
  EXPECT_TRUE(sa.stripped);
  EXPECT_EQ(sa.basis, al::FingerprintBasis::Code);
  EXPECT_EQ(sa.fingerprint, sa.code.fingerprint);
  EXPECT_NE(sa.fingerprint, al::fingerprint({})) << "the hash of nothing";

  const IndependentCode expected = independentCode(a + ".s");
  EXPECT_EQ(sa.code.sections, expected.sections);
  EXPECT_EQ(sa.code.bytes, expected.bytes);
  EXPECT_EQ(sa.code.fingerprint, expected.fingerprint);
  EXPECT_GE(sa.code.sections, 1u);

  // Same layout, same fingerprint; another layout, another; stripping does
  // not change the code.
  EXPECT_EQ(sa.fingerprint, sa2.fingerprint);
  EXPECT_NE(sa.fingerprint, sb.fingerprint);
  EXPECT_EQ(full.code.fingerprint, sa.code.fingerprint);

  const auto differ = al::diffLayouts(sa, sb);
  EXPECT_EQ(differ.compared, al::FingerprintBasis::Code);
  EXPECT_FALSE(differ.sameLayout());
  const std::string text = al::formatDiff(sa, sb, differ);
  EXPECT_NE(text.find("layouts:                   different (compared: the code bytes; A and B "
                      "are stripped)\ncode:                      A " +
                      std::to_string(expected.sections) + " executable sections, " +
                      std::to_string(expected.bytes) + " bytes; B "),
            std::string::npos)
      << text;
  const auto same = al::diffLayouts(sa, sa2);
  EXPECT_EQ(same.compared, al::FingerprintBasis::Code);
  EXPECT_TRUE(same.sameLayout());
  // Unstripped against its stripped copy: by the code, identical.
  const auto mixed = al::diffLayouts(full, sa);
  EXPECT_EQ(mixed.compared, al::FingerprintBasis::Code);
  EXPECT_TRUE(mixed.sameLayout());
  EXPECT_NE(al::formatDiff(full, sa, mixed)
                .find("identical (compared: the code bytes; B is "
                      "stripped)"),
            std::string::npos);
  // Both with symbols: by the functions, as before.
  const auto functions = al::diffLayouts(full, fullB);
  EXPECT_EQ(functions.compared, al::FingerprintBasis::Functions);
  EXPECT_FALSE(functions.sameLayout());
}

TEST_F(LinkerLayout, FileWithoutCodeHasNoFingerprintAndIsNeverIdentical) {
  writeFile("data.c", "int table[4] = {1, 2, 3, 4};\n");
  run(Clang + " -c -o " + path("data.o") + " " + path("data.c"));
  const auto l = mustRead(path("data.o"));
  EXPECT_EQ(l.basis, al::FingerprintBasis::Nothing);
  EXPECT_EQ(l.code.sections, 0u);
  const auto d = al::diffLayouts(l, l);
  EXPECT_EQ(d.compared, al::FingerprintBasis::Nothing);
  EXPECT_FALSE(d.sameLayout());
  EXPECT_NE(al::formatDiff(l, l, d).find("layouts:                   not compared: A and B have "
                                         "no code\n"),
            std::string::npos);
  EXPECT_NE(al::formatLayout(l).find("fingerprint: none (no function symbols and no code)\n"),
            std::string::npos);
}

TEST_F(LinkerLayout, NonRegularFilesAreRefusedWithoutOpeningThem) {
  // A FIFO without a writer: opening it for reading would wait forever.
  const std::string fifo = path("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string error;
  EXPECT_FALSE(readsLayout(fifo, error));
  EXPECT_EQ(error, "'" + fifo + "' is not a regular file (it is a FIFO)");
  EXPECT_FALSE(readsLayout(gDir, error));
  EXPECT_EQ(error, "'" + gDir + "' is not a regular file (it is a directory)");
  EXPECT_FALSE(readsLayout("/dev/null", error));
  EXPECT_EQ(error, "'/dev/null' is not a regular file (it is a character device)");
}
