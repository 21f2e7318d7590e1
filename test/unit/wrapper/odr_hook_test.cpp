// decide() and the ODR check hook (driver.hpp, OdrCheck): a seeded link hands
// its object and archive inputs, in command-line order, to the check; the
// findings extend the link record's descriptor and the log line; a check that
// throws or is skipped leaves the link exactly as it would be without it.
// (The check itself is tested on real objects in test/unit/linker/odr_test.cpp.)
#include "alea/wrapper/driver.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

using namespace alea::wrapper;

namespace {

Facts linkFacts() {
  Facts f;
  f.tool = Tool::Cxx;
  f.realTool = "/usr/bin/clang++-19";
  f.defaultPlugin = "/alea/lib/AleaPlugin.so";
  f.pid = 7;
  return f;
}

Settings seeded() {
  Settings s;
  s.seed = 3;
  return s;
}

// Every named file exists; the .o and .a files start as an x86-64 ELF
// relocatable object (enough for the record's target) or an archive.
ClassifyEnv world(std::set<std::string> names) {
  std::string elf(64, '\0');
  elf.replace(0, 4,
              "\x7f"
              "ELF");
  elf[4] = 2;   // ELFCLASS64
  elf[5] = 1;   // ELFDATA2LSB
  elf[6] = 1;   // EV_CURRENT
  elf[16] = 1;  // ET_REL
  elf[18] = 62; // EM_X86_64
  return {[names](const std::string &p) { return names.count(p) > 0; },
          [](const std::string &) -> std::optional<std::string> { return std::nullopt; },
          [elf](const std::string &p, std::uint64_t offset,
                std::size_t n) -> std::optional<std::string> {
            const std::string bytes = p.ends_with(".a") ? std::string("!<arch>\n") : elf;
            return offset < bytes.size() ? bytes.substr(offset, n) : std::string();
          }};
}

} // namespace

TEST(OdrHook, FindingsGoIntoTheRecordAndTheLogLine) {
  std::vector<std::string> seen;
  OdrCheck check = [&seen](const std::vector<std::string> &inputs) {
    seen = inputs;
    OdrOutcome o;
    o.recordField = " odr=1:_Z1fv";
    o.warning = "ODR violation: f() (a.o | b.o)";
    return o;
  };
  const auto d = decide(linkFacts(), {"main.o", "a.o", "-lm", "b.o", "libx.a", "-o", "p"}, seeded(),
                        world({"main.o", "a.o", "b.o", "libx.a"}), check);
  ASSERT_FALSE(d.error);
  EXPECT_EQ(seen, (std::vector<std::string>{"main.o", "a.o", "b.o", "libx.a"}));
  ASSERT_TRUE(d.record);
  EXPECT_TRUE(d.record->descriptor.ends_with(" odr=1:_Z1fv")) << d.record->descriptor;
  EXPECT_NE(d.logLine.find(" warning=\"ODR violation: f() (a.o | b.o)\" record=\"alea-link-v1 "
                           "seed=0x0000000000000003 factors="),
            std::string::npos)
      << d.logLine;
}

TEST(OdrHook, AThrowingCheckChangesNothingButTheNote) {
  const std::vector<std::string> args = {"main.o", "a.o", "-o", "p"};
  const std::set<std::string> files = {"main.o", "a.o"};
  const auto plain = decide(linkFacts(), args, seeded(), world(files));
  const auto d = decide(
      linkFacts(), args, seeded(), world(files),
      [](const std::vector<std::string> &) -> OdrOutcome { throw std::runtime_error("boom"); });
  EXPECT_EQ(d.argv, plain.argv);
  ASSERT_TRUE(d.record && plain.record);
  EXPECT_EQ(d.record->descriptor, plain.record->descriptor);
  EXPECT_NE(d.logLine.find("note=\"odr check skipped: internal error\""), std::string::npos);
  EXPECT_NE(d.logLine.find("mode=link"), std::string::npos);
}

TEST(OdrHook, NoCheckWithoutASeedOrOnACompile) {
  int calls = 0;
  OdrCheck count = [&calls](const std::vector<std::string> &) {
    ++calls;
    return OdrOutcome{};
  };
  decide(linkFacts(), {"main.o", "a.o", "-o", "p"}, Settings{}, world({"main.o", "a.o"}), count);
  decide(linkFacts(), {"-c", "a.cpp"}, seeded(), world({"a.cpp", "/alea/lib/AleaPlugin.so"}),
         count);
  EXPECT_EQ(calls, 0);
}
