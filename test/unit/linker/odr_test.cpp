// Tests of the link-time ODR check (alea/linker/odr.hpp) on objects compiled
// here by LLVM 19's clang, with and without alea's plugin: what differs is
// reported with the objects of each variant, what is the same definition
// under alea's randomization (padding before entries, random local names,
// shuffled functions and globals, another string table) is not, and the
// archive, weak and error rules hold.
#include "alea/linker/odr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace al = alea::linker;

namespace {

std::string gDir;

std::string path(const std::string &name) { return gDir + "/" + name; }

void writeFile(const std::string &name, const std::string &text) {
  std::ofstream(path(name)) << text;
}

// Runs a shell command in the test directory; fails the test on nonzero status.
void run(const std::string &cmd) {
  const int status = std::system(("cd '" + gDir + "' && " + cmd).c_str());
  ASSERT_EQ(status, 0) << "command failed: " << cmd;
}

const std::string Clang = ALEA_TEST_CLANG;
const std::string Plugin = ALEA_TEST_PLUGIN;

// Compiles a C++ source as alea-c++ does for a seed (the plugin, function and
// data sections), or plainly for seed 0.
void compile(const std::string &source, const std::string &object, const std::string &flags,
             int seed) {
  std::string cmd = seed ? "ALEA_SEED=" + std::to_string(seed) + " " + Clang +
                               " -fpass-plugin=" + Plugin + " -ffunction-sections -fdata-sections"
                         : "env -u ALEA_SEED " + Clang;
  cmd += " -x c++ -c " + flags + " " + source + " -o " + object;
  run(cmd);
}

std::optional<al::OdrReport> check(const std::vector<std::string> &inputs) {
  std::vector<std::string> paths;
  for (const auto &in : inputs)
    paths.push_back(path(in));
  auto report = al::checkOdr(paths);
  EXPECT_TRUE(report) << report.error();
  return report ? std::optional(std::move(*report)) : std::nullopt;
}

// Whether checkOdr checks `paths`; its error (or "") in `error`.
bool checks(const std::vector<std::string> &paths, std::string &error) {
  const auto report = al::checkOdr(paths);
  error = report.error();
  return report.ok();
}

const char *const Shared = R"(
__attribute__((noinline)) inline int checked_div(int a, int b) {
#ifndef NDEBUG
  if (b == 0) return -1;
#endif
  return b == 0 ? 0 : a / b;
}
)";

// Inline functions, a template, a vtable, a switch table of strings, a
// static local, a constant: everything a header brings twice.
const char *const Rich = R"(
#include <cstring>
inline const char *rich_name(int k) {
  switch (k) {
  case 0: return "zero"; case 1: return "one"; case 2: return "two";
  case 3: return "three"; case 4: return "four"; case 5: return "five";
  default: return "many";
  }
}
inline double rich_scale(double x) { static int calls = 0; ++calls; return x * 3.14159 + calls; }
template <class T> T rich_sum(const T *p, int n) { T s = 0; for (int i = 0; i < n; ++i) s += p[i]; return s; }
struct RichBase {
  virtual ~RichBase() = default;
  virtual int f() const { return std::strlen(rich_name(f2())); }
  virtual int f2() const { return 3; }
};
)";

// w1.o/w2.o: a weak C function defined differently; v1.o/v2.o: an inline
// variable defined differently.
void buildWeakAndInline() {
  writeFile("w1.c", "__attribute__((weak)) int limit(void) { return 10; }\n");
  writeFile("w2.c", "__attribute__((weak)) int limit(void) { return 20; }\n");
  writeFile("v1.cpp", "inline int table[3] = {1, 2, 3};\nint *t1() { return table; }\n");
  writeFile("v2.cpp", "inline int table[3] = {1, 2, 4};\nint *t2() { return table; }\n");
  run(Clang + " -O2 -c w1.c w2.c");
  compile("v1.cpp", "v1.o", "-std=c++17 -O2", 3);
  compile("v2.cpp", "v2.o", "-std=c++17 -O2", 4);
}

class OdrCheck : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/alea-odr-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    gDir = tmpl;
    writeFile("shared.hpp", Shared);
    writeFile("a.cpp",
              "#include \"shared.hpp\"\nint from_a(int x) { return checked_div(x, 0); }\n");
    writeFile("b.cpp",
              "#include \"shared.hpp\"\nint from_b(int x) { return checked_div(x, 1); }\n");
    writeFile("rich.hpp", Rich);
    writeFile("r1.cpp", "#include \"rich.hpp\"\n"
                        "static const char *t(int i) { return i ? \"only in r1\" : \"x\"; }\n"
                        "int use_r1(int k) { RichBase b; double d[3] = {1, 2, 3};\n"
                        "  return b.f() + (int)rich_scale(k) + (int)rich_sum(d, 3) +\n"
                        "         std::strlen(rich_name(k)) + std::strlen(t(k)); }\n");
    writeFile("r2.cpp", "#include \"rich.hpp\"\n"
                        "const char *more[] = {\"padding one\", \"padding two\", \"three\"};\n"
                        "int use_r2(int k) { RichBase b; float f[2] = {1, 2};\n"
                        "  double d[3] = {4, 5, 6};\n"
                        "  return b.f() + (int)rich_scale(k) + (int)rich_sum(d, 3) +\n"
                        "         (int)rich_sum(f, 2) + std::strlen(rich_name(k)) +\n"
                        "         std::strlen(more[k % 3]); }\n");
  }
  static void TearDownTestSuite() { std::system(("rm -rf '" + gDir + "'").c_str()); }
};

TEST_F(OdrCheck, NdebugDependentInlineFunctionIsReportedWithBothObjects) {
  compile("a.cpp", "a.o", "-O1", 1);
  compile("b.cpp", "b.o", "-O1 -DNDEBUG", 1);
  compile("a.cpp", "a2.o", "-O1", 2); // the same definition as a.o, another module seed
  const auto report = check({"a.o", "b.o", "a2.o"});
  ASSERT_TRUE(report);
  ASSERT_EQ(report->findings.size(), 1u);
  const al::OdrFinding &f = report->findings[0];
  EXPECT_EQ(f.symbol, "_Z11checked_divii");
  EXPECT_TRUE(f.function);
  ASSERT_EQ(f.variants.size(), 2u);
  EXPECT_EQ(f.variants[0], (std::vector<std::string>{path("a.o"), path("a2.o")}));
  EXPECT_EQ(f.variants[1], (std::vector<std::string>{path("b.o")}));
  EXPECT_EQ(report->objects, 3u);
  EXPECT_EQ(al::odrRecordField(*report), " odr=1:_Z11checked_divii");
  EXPECT_EQ(al::describeOdrFindings(*report), "checked_div(int, int) (" + path("a.o") + ", " +
                                                  path("a2.o") + " | " + path("b.o") + ")");
}

TEST_F(OdrCheck, SameDefinitionsUnderDifferentModuleSeedsAreNoFinding) {
  for (const char *opt : {"-O0", "-O2 -fno-inline"}) {
    SCOPED_TRACE(opt);
    compile("r1.cpp", "r1.o", opt, 5);
    compile("r2.cpp", "r2.o", opt, 77);
    compile("r1.cpp", "r1-plain.o", opt, 0); // plain clang: no padding, no data sections
    const auto report = check({"r1.o", "r2.o", "r1-plain.o"});
    ASSERT_TRUE(report);
    EXPECT_TRUE(report->findings.empty()) << al::describeOdrFindings(*report);
    // rich_name, rich_scale, calls, rich_sum<double>, RichBase's members,
    // vtable, typeinfo...: all compared.
    EXPECT_GE(report->compared, 8u);
    EXPECT_EQ(al::odrRecordField(*report), "");
  }
}

TEST_F(OdrCheck, WeakCFunctionsAndInlineVariables) {
  buildWeakAndInline();
  const auto report = check({"w1.o", "w2.o", "v1.o", "v2.o"});
  ASSERT_TRUE(report);
  ASSERT_EQ(report->findings.size(), 2u);
  EXPECT_EQ(report->findings[0].symbol, "limit");
  EXPECT_TRUE(report->findings[0].function);
  EXPECT_EQ(report->findings[1].symbol, "table");
  EXPECT_FALSE(report->findings[1].function);
}

TEST_F(OdrCheck, AStrongDefinitionWinsInAnyOrder) {
  writeFile("s1.c", "__attribute__((weak)) int hook(void) { return 0; }\n");
  writeFile("s2.c", "int hook(void) { return 1; }\n");
  writeFile("s3.c", "__attribute__((weak)) int hook(void) { return 2; }\n");
  run(Clang + " -O2 -c s1.c s2.c s3.c");
  const auto report = check({"s1.o", "s2.o", "s3.o"});
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->findings.empty());
}

TEST_F(OdrCheck, ArchiveMembersCountOnlyWhenTheLinkExtractsThem) {
  writeFile("m1.c", "__attribute__((weak)) int knob(void) { return 1; }\n"
                    "int use(void);\nint main(void) { return knob() + use(); }\n");
  writeFile("m2.c",
            "__attribute__((weak)) int knob(void) { return 2; }\nint use(void) { return 0; }\n");
  writeFile("m3.c",
            "__attribute__((weak)) int knob(void) { return 3; }\nint unused(void) { return 0; }\n");
  run(Clang + " -O2 -c m1.c m2.c m3.c && rm -f libm.a && " ALEA_TEST_LLVM_AR
              " rc libm.a m2.o m3.o");
  const auto report = check({"m1.o", "libm.a"});
  ASSERT_TRUE(report);
  ASSERT_EQ(report->findings.size(), 1u);
  ASSERT_EQ(report->findings[0].variants.size(), 2u);
  EXPECT_EQ(report->findings[0].variants[1], (std::vector<std::string>{path("libm.a") + "(m2.o)"}));
  EXPECT_EQ(report->objects, 2u); // m3.o defines nothing the link needs
}

TEST_F(OdrCheck, InputsWithoutDefinitionsToCompareAreListedNotErrors) {
  compile("a.cpp", "a.o", "-O1", 1);
  run(Clang + " -x c++ -O1 -flto -c a.cpp -o a.bc.o");
  writeFile("script.ld", "INPUT(a.o)\n");
  const auto report = check({"a.o", "a.bc.o", "script.ld"});
  ASSERT_TRUE(report);
  ASSERT_EQ(report->unchecked.size(), 2u);
  EXPECT_EQ(report->unchecked[0], path("a.bc.o") + ": LLVM bitcode (an LTO input)");
  EXPECT_EQ(report->unchecked[1], path("script.ld") + ": not an ELF object or archive");
}

TEST_F(OdrCheck, AnUnreadableOrDamagedInputSkipsTheCheckWithAReason) {
  std::string error;
  EXPECT_FALSE(checks({path("missing.o")}, error));
  EXPECT_NE(error.find("missing.o: No such file or directory"), std::string::npos) << error;
  // An object cut off in the middle: its section headers are gone.
  compile("a.cpp", "a.o", "-O1", 1);
  run("head -c 300 a.o > cut.o");
  error.clear();
  EXPECT_FALSE(checks({path("cut.o")}, error));
  EXPECT_NE(error.find("cut.o"), std::string::npos) << error;
}

// The fast comparison (fingerprints first, detailed forms only where they
// differ) gives exactly the report of the detailed one: on the reproducers
// above, and on a larger C++ link whose objects share hundreds of library
// inline functions (std::string, std::map, std::regex, iostreams), built
// under different seeds, optimization levels and NDEBUG, so that many of
// them differ by inlining and some by an assertion.
TEST_F(OdrCheck, FastAndDetailedComparisonsGiveTheSameReport) {
  const char *const Lib = R"(
#include <cassert>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>
__attribute__((noinline)) inline int lib_checked(int v) { assert(v >= 0 && "negative input"); return v * 2; }
template <class T> std::string lib_join(const std::vector<T> &v) {
  std::ostringstream out; for (const T &x : v) out << x << ','; return out.str();
}
)";
  writeFile("lib.hpp", Lib);
  const char *const Units[] = {
      "int u0(const std::string &s) { std::map<std::string, int> m; m[s] = lib_checked(1);\n"
      "  return (int)lib_join(std::vector<int>{1, 2}).size() + m.size(); }\n",
      "int u1(const std::string &s) { std::regex r(\"a+b\"); std::cout << s << std::endl;\n"
      "  return std::regex_search(s, r) + lib_checked((int)s.size()); }\n",
      "int u2(const std::string &s) { std::vector<std::string> v{s, s + s};\n"
      "  std::map<std::string, int> m; for (auto &x : v) m[x]++;\n"
      "  return (int)lib_join(v).size() + lib_checked((int)m.size()); }\n",
      "int u3(const std::string &s) { std::regex r(\"[0-9]+\"); std::smatch mt;\n"
      "  std::regex_match(s, mt, r); return (int)mt.size() + "
      "(int)lib_join(std::vector<double>{1.5}).size(); }\n"};
  const char *const Flags[] = {"-O2", "-O2 -DNDEBUG", "-O1", "-O2 -DNDEBUG"};
  std::vector<std::string> objects = {"a.o",  "b.o",  "a2.o", "r1.o", "r2.o",
                                      "w1.o", "w2.o", "v1.o", "v2.o"};
  compile("a.cpp", "a.o", "-O1", 1);
  compile("b.cpp", "b.o", "-O1 -DNDEBUG", 1);
  compile("a.cpp", "a2.o", "-O1", 2);
  compile("r1.cpp", "r1.o", "-O2", 5);
  compile("r2.cpp", "r2.o", "-O2", 77);
  buildWeakAndInline();
  for (int u = 0; u < 4; ++u) {
    const std::string name = "u" + std::to_string(u);
    writeFile(name + ".cpp", "#include \"lib.hpp\"\n" + std::string(Units[u]));
    compile(name + ".cpp", name + ".o", Flags[u], u + 11);
    objects.push_back(name + ".o");
  }
  std::vector<std::string> paths;
  for (const auto &in : objects)
    paths.push_back(path(in));
  const auto fast = al::checkOdr(paths, al::OdrMethod::Fast);
  ASSERT_TRUE(fast) << fast.error();
  const auto detailed = al::checkOdr(paths, al::OdrMethod::Detailed);
  ASSERT_TRUE(detailed) << detailed.error();
  EXPECT_GE(fast->compared, 200u); // the library's inline functions, compared
  // The known findings are there (the NDEBUG reproducer, the weak C function,
  // the inline variable, the assertion of lib_checked)...
  std::vector<std::string> symbols;
  for (const al::OdrFinding &f : fast->findings)
    symbols.push_back(f.symbol);
  for (const char *known : {"_Z11checked_divii", "limit", "table", "_Z11lib_checkedi"})
    EXPECT_NE(std::find(symbols.begin(), symbols.end(), known), symbols.end()) << known;
  // ...and both comparisons agree on every field.
  EXPECT_EQ(fast->objects, detailed->objects);
  EXPECT_EQ(fast->compared, detailed->compared);
  EXPECT_EQ(fast->unchecked, detailed->unchecked);
  ASSERT_EQ(fast->findings.size(), detailed->findings.size());
  for (std::size_t k = 0; k < fast->findings.size(); ++k) {
    SCOPED_TRACE(fast->findings[k].symbol);
    EXPECT_EQ(fast->findings[k].symbol, detailed->findings[k].symbol);
    EXPECT_EQ(fast->findings[k].function, detailed->findings[k].function);
    EXPECT_EQ(fast->findings[k].variants, detailed->findings[k].variants);
  }
}

TEST(OdrRecordField, CountAndTheFirstNamesThatFit) {
  al::OdrReport r;
  EXPECT_EQ(al::odrRecordField(r), "");
  for (const char *name : {"_Z1av", "_Z1bv", "_Z1cv", "_Z1dv"})
    r.findings.push_back({name, true, {{"x.o"}, {"y.o"}}});
  EXPECT_EQ(al::odrRecordField(r), " odr=4:_Z1av,_Z1bv,_Z1cv");
  r.findings.insert(r.findings.begin(), {std::string(al::kOdrRecordChars, 'n'), true, {}});
  EXPECT_EQ(al::odrRecordField(r), " odr=5"); // the first name alone is too long
  EXPECT_EQ(al::describeOdrFindings(r, 2).substr(al::kOdrRecordChars),
            " (); a() (x.o | y.o); and 3 more");
}

} // namespace
