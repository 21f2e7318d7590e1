// The project's one shell quoting rule (common's shell.hpp): which words stay
// as they are, and hostile words read back byte for byte by the shells that
// execute alea's command lines (dash, Debian's /bin/sh, and bash) and, in the
// display form of logs and dry runs, by bash on one line.
#include "alea/shell.hpp"
#include "shell_output.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace alea {
namespace {

// printf '%s\n' WORDS... as one command line for `shell`: what comes out
// must be the words exactly.
std::string echoThrough(const std::string &shell, const std::vector<std::string> &words,
                        ShellQuoting how) {
  std::vector<std::string> argv{"printf", "%s\\n"};
  argv.insert(argv.end(), words.begin(), words.end());
  return test_support::shellOutput(shell + " -c " + shellQuote(shellJoin(argv, how)));
}

const std::vector<std::string> kHostile{"; rm -rf /tmp/never",
                                        "$(touch /tmp/alea-pwned-shell-test)",
                                        "`touch /tmp/alea-pwned-shell-test`",
                                        "a'b\"c",
                                        "'",
                                        "\\",
                                        "x\ny",
                                        "$HOME ${PATH}",
                                        "* ? [a]",
                                        "-n",
                                        "&& || | > < >> &",
                                        "~root",
                                        "#comment",
                                        "\t tab",
                                        "X=1",
                                        "=true",
                                        "{a,b}",
                                        "\xc3\xa9t\xc3\xa9 \xff\xfe"};

std::string lines(const std::vector<std::string> &words) {
  std::string out;
  for (const auto &w : words)
    out += w + "\n";
  return out;
}

TEST(ShellQuote, SafeWordsStayAsTheyAre) {
  EXPECT_EQ(shellQuote("-O2"), "-O2");
  EXPECT_EQ(shellQuote("abc-1.2/x_y:z@h,2+%"), "abc-1.2/x_y:z@h,2+%");
  EXPECT_EQ(shellQuote("-DNAME=1"), "-DNAME=1");
  EXPECT_EQ(shellQuote("--opt=a=b"), "--opt=a=b");
  EXPECT_EQ(shellQuote("1x=2"), "1x=2"); // no variable name: never an assignment
}

TEST(ShellQuote, QuotesWhatAShellWouldRead) {
  EXPECT_EQ(shellQuote(""), "''");
  EXPECT_EQ(shellQuote("a b"), "'a b'");
  EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(shellQuote("-Wl,--shuffle-sections=*=3"), "'-Wl,--shuffle-sections=*=3'");
  // An assignment as a first word, and zsh's `=cmd` expansion:
  EXPECT_EQ(shellQuote("a=b/bin/tool"), "'a=b/bin/tool'");
  EXPECT_EQ(shellQuote("_X9=1"), "'_X9=1'");
  EXPECT_EQ(shellQuote("=ls"), "'=ls'");
}

TEST(ShellQuote, HostileWordsRoundTripThroughDashAndBash) {
  for (const char *shell : {"/bin/sh", "dash", "bash"}) {
    SCOPED_TRACE(shell);
    EXPECT_EQ(echoThrough(shell, kHostile, ShellQuoting::Execute), lines(kHostile));
  }
  EXPECT_FALSE(std::filesystem::exists("/tmp/alea-pwned-shell-test"));
}

// A control character (a newline above all) would split the one-line log and
// the dry-run line: in the display form such a word is written $'...', which
// bash, ksh, zsh and POSIX.1-2024 shells read back as the same bytes.
TEST(ShellQuote, DisplayFormStaysOnOneLine) {
  const auto display = ShellQuoting::DisplayLine;
  EXPECT_EQ(shellQuote("a\nb", display), "$'a\\nb'");
  EXPECT_EQ(shellQuote(std::string("t\tr\r'q'\\") + '\x01' + "\x7f", display),
            "$'t\\tr\\r\\'q\\'\\\\\\x01\\x7f'");
  // High bytes (UTF-8) are no line breaks: plain single quotes.
  EXPECT_EQ(shellQuote("caf\xc3\xa9", display), "'caf\xc3\xa9'");
  EXPECT_EQ(shellJoin({"cc", "-o", "x\ny"}, display).find('\n'), std::string::npos);
  // The same word to execute keeps its newline inside single quotes.
  EXPECT_EQ(shellQuote("a\nb"), "'a\nb'");
  EXPECT_EQ(echoThrough("bash", kHostile, display), lines(kHostile));
}

} // namespace
} // namespace alea
