// The build cache's plan (build_cache.hpp), through decide(): which compiles
// go through the cache, the preprocessing that keys them (and writes the
// dependency file the compile would), the words of the key, and the compile
// of the stored module. Pure: no file is read or written. That a hit gives the
// compile's bytes is checked on real projects (test/projects/build_cache.sh).
#include "alea/wrapper/driver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace alea::wrapper;

namespace {

const std::string kPlugin = "/alea/lib/AleaPlugin.so";
const std::string kTmp = "/cache/tmp/1234";

Decision decideWithCache(const std::vector<std::string> &args, Tool tool = Tool::Cc,
                         const std::string &seedFile = "") {
  Facts f;
  f.tool = tool;
  f.realTool = "/usr/bin/clang-19";
  f.defaultPlugin = kPlugin;
  f.pid = 1234;
  Settings s;
  s.seed = 42;
  s.buildCache = "/cache";
  s.seedFile = seedFile;
  ClassifyEnv env{[](const std::string &p) {
                    return p == kPlugin || p.ends_with(".c") || p.ends_with(".cc") ||
                           p.ends_with(".f90") || p.ends_with(".o");
                  },
                  [](const std::string &) -> std::optional<std::string> { return std::nullopt; },
                  nullptr};
  return decide(f, args, s, env);
}

bool has(const std::vector<std::string> &words, const std::string &w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

} // namespace

TEST(BuildCache, CompileOfOneSourceIsPlanned) {
  Decision d = decideWithCache({"-O2", "-Iinc", "-c", "src/a.c", "-o", "obj/a.o"});
  ASSERT_TRUE(d.cache) << d.logLine;
  const CachePlan &p = *d.cache;
  EXPECT_EQ(p.output, "obj/a.o");
  EXPECT_EQ(p.source, "src/a.c");
  EXPECT_EQ(p.tmp, kTmp);
  EXPECT_EQ(p.compile, d.argv); // a miss runs the planned compile
  EXPECT_EQ(p.preprocess,
            (std::vector<std::string>{"/usr/bin/clang-19", "-ffunction-sections", "-fdata-sections",
                                      "-O2", "-Iinc", "src/a.c", "-E", "-o", kTmp + "/input.i"}));
  EXPECT_EQ(p.codegen, (std::vector<std::string>{
                           "/usr/bin/clang-19", "-fpass-plugin=" + kPlugin, "-ffunction-sections",
                           "-fdata-sections", "-O2", "-Iinc", "-c", "-x", "ir", kTmp + "/module.bc",
                           "-o", "obj/a.o", "-Wno-unused-command-line-argument"}));
  // The key: what decides the IR, not where the object goes or the plugin.
  EXPECT_TRUE(has(p.keyWords, "-O2"));
  EXPECT_TRUE(has(p.keyWords, "src/a.c"));
  EXPECT_FALSE(has(p.keyWords, "obj/a.o"));
  EXPECT_FALSE(has(p.keyWords, "-fpass-plugin=" + kPlugin));
  EXPECT_FALSE(p.keyDirectory);
  EXPECT_TRUE(p.depFile.empty());
  // The manifest (direct mode) names the output too: its dependency file does.
  EXPECT_TRUE(has(p.manifestWords, "obj/a.o"));
}

TEST(BuildCache, ObjectWithoutOutputOptionIsNamedAfterTheSource) {
  Decision d = decideWithCache({"-c", "src/b.c"});
  ASSERT_TRUE(d.cache);
  EXPECT_EQ(d.cache->output, "b.o");
  EXPECT_TRUE(has(d.cache->codegen, "b.o"));
}

TEST(BuildCache, DependencyFileIsNamedAsClangNamesIt) {
  // -MD alone: the file and its target follow -o.
  Decision d = decideWithCache({"-MD", "-c", "a.c", "-o", "out/x.o"});
  ASSERT_TRUE(d.cache);
  const auto &pre = d.cache->preprocess;
  EXPECT_TRUE(has(pre, "-MD"));
  auto mf = std::find(pre.begin(), pre.end(), "-MF");
  ASSERT_NE(mf, pre.end());
  EXPECT_EQ(*(mf + 1), "out/x.d");
  auto mq = std::find(pre.begin(), pre.end(), "-MQ");
  ASSERT_NE(mq, pre.end());
  EXPECT_EQ(*(mq + 1), "out/x.o");
  EXPECT_EQ(d.cache->depFile, "out/x.d");
  EXPECT_FALSE(has(d.cache->codegen, "-MD")); // only the preprocessing writes it

  // The user's own -MF and -MT (CMake's spelling), separate and joined.
  for (const auto &args :
       {std::vector<std::string>{"-MMD", "-MT", "t", "-MF", "deps/a.d", "-c", "a.c", "-o", "a.o"},
        std::vector<std::string>{"-MMD", "-MTt", "-MFdeps/a.d", "-c", "a.c", "-oa.o"}}) {
    Decision e = decideWithCache(args);
    ASSERT_TRUE(e.cache);
    EXPECT_EQ(e.cache->depFile, "deps/a.d");
    EXPECT_EQ(e.cache->output, "a.o");
    EXPECT_EQ(std::count(e.cache->preprocess.begin(), e.cache->preprocess.end(), "-MQ"), 0);
    EXPECT_EQ(std::count(e.cache->preprocess.begin(), e.cache->preprocess.end(), "-MF") +
                  std::count(e.cache->preprocess.begin(), e.cache->preprocess.end(), "-MFdeps/a.d"),
              1);
    for (const auto &w : e.cache->codegen)
      EXPECT_FALSE(w.starts_with("-M")) << w;
    EXPECT_FALSE(has(e.cache->keyWords, "deps/a.d"));
  }
}

TEST(BuildCache, DebugInformationPutsTheDirectoryInTheKey) {
  EXPECT_TRUE(decideWithCache({"-g", "-c", "a.c"}).cache->keyDirectory);
  EXPECT_TRUE(decideWithCache({"-gline-tables-only", "-c", "a.c"}).cache->keyDirectory);
  EXPECT_FALSE(decideWithCache({"-g0", "-c", "a.c"}).cache->keyDirectory);
}

TEST(BuildCache, SeedFileEntryGoesOnlyToThePreprocessing) {
  Decision d = decideWithCache({"-MD", "-c", "a.c"}, Tool::Cc, "/seeds/seed");
  ASSERT_TRUE(d.cache) << d.logLine;
  EXPECT_TRUE(has(d.cache->preprocess, "-fdepfile-entry=/seeds/seed"));
  EXPECT_FALSE(has(d.cache->codegen, "-fdepfile-entry=/seeds/seed"));
}

TEST(BuildCache, CompilesItCannotProveAreNotCached) {
  const std::vector<std::vector<std::string>> refused = {
      {"-S", "a.c"},                                  // assembly, not an object
      {"-c", "a.c", "b.c"},                           // two sources
      {"-c", "-x", "c", "a.c"},                       // a forced language
      {"-c", "-xc", "a.c"},                           //
      {"-flto", "-c", "a.c"},                         // bitcode objects
      {"-fsanitize=address", "-c", "a.c"},            // passes after the layout pass
      {"-fprofile-instr-generate", "-c", "a.c"},      //
      {"--coverage", "-c", "a.c"},                    // a .gcno beside the object
      {"-c", "a.c", "-mllvm", "-inline-threshold=9"}, // options the key cannot read
      {"-Xclang", "-fno-inline", "-c", "a.c"},        //
      {"-save-temps", "-c", "a.c"},                   // other files written
      {"-frecord-command-line", "-c", "a.c"},         // the command line in the object
      {"-fplugin=x.so", "-c", "a.c"},                 // another plugin
      {"-c", "a.c", "-o", "-"},                       // standard output
  };
  for (const auto &args : refused) {
    Decision d = decideWithCache(args);
    EXPECT_FALSE(d.cache) << args[0] << " " << args[1];
    EXPECT_NE(d.logLine.find("build cache not used"), std::string::npos) << d.logLine;
  }
}

TEST(BuildCache, OnlyTheCCompilersOfASeededCompile) {
  EXPECT_TRUE(decideWithCache({"-c", "a.cc"}, Tool::Cxx).cache);
  EXPECT_FALSE(decideWithCache({"-c", "a.f90"}, Tool::Fc).cache);
  EXPECT_FALSE(decideWithCache({"a.c", "-o", "a"}).cache); // compile and link
  EXPECT_FALSE(decideWithCache({"a.o", "-o", "a"}).cache); // link
}

TEST(BuildCache, SettingsWantAnAbsoluteDirectoryAndASeed) {
  auto env = [](std::string cache, std::string seed) {
    return [cache, seed](const char *name) -> std::optional<std::string> {
      if (std::string(name) == "ALEA_BUILD_CACHE")
        return cache;
      if (std::string(name) == "ALEA_SEED" && !seed.empty())
        return seed;
      return std::nullopt;
    };
  };
  auto ok = readSettings(Tool::Cc, env("/tmp/c", "1"));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->buildCache, "/tmp/c");
  auto relative = readSettings(Tool::Cc, env("cache", "1"));
  ASSERT_FALSE(relative);
  EXPECT_NE(relative.error().find("ALEA_BUILD_CACHE"), std::string::npos);
  auto unseeded = readSettings(Tool::Cc, env("cache", ""));
  ASSERT_TRUE(unseeded); // without a seed the wrapper is the real tool
  EXPECT_TRUE(unseeded->buildCache.empty());
}
