// Response files (@file): GCC and clang read more arguments from a file, split
// with the GNU rules (libiberty's buildargv, LLVM's cl::TokenizeGNUCommandLine).
// The wrapper expands them only to classify; it executes the original arguments,
// so a response file's contents always reach the real tool untouched.
#include "alea/wrapper/classify.hpp"

namespace alea::wrapper {
namespace {

constexpr int kMaxDepth = 16; // deeper nesting is taken as a cycle

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Appends the expansion of one argument; the error names a @file that cannot
// be read.
Status expandOne(const std::string &arg, int origin, int depth, const ClassifyEnv &env,
                 ExpandedArgs &out) {
  if (arg.size() < 2 || arg[0] != '@') {
    out.args.push_back(arg);
    out.origin.push_back(origin);
    return Status::success();
  }
  const std::string path = arg.substr(1);
  out.usedResponseFiles = true;
  std::optional<std::string> text;
  if (depth < kMaxDepth)
    text = env.readFile(path);
  if (!text)
    return fail(arg);
  for (const std::string &word : tokenizeResponseFile(*text))
    if (Status inner = expandOne(word, -1, depth + 1, env, out); !inner)
      return inner;
  return Status::success();
}

} // namespace

std::vector<std::string> tokenizeResponseFile(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (isSpace(c)) {
      if (inWord)
        words.push_back(std::move(word));
      word.clear();
      inWord = false;
      continue;
    }
    inWord = true;
    if (c == '\\' && i + 1 < text.size()) {
      word.push_back(text[++i]);
      continue;
    }
    if (c == '\'' || c == '"') {
      // Quoted run: up to the matching quote; a backslash escapes inside too.
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\\' && i + 1 < text.size())
          ++i;
        word.push_back(text[i]);
      }
      continue;
    }
    word.push_back(c);
  }
  if (inWord)
    words.push_back(std::move(word));
  return words;
}

Expected<ExpandedArgs> expandResponseFiles(const std::vector<std::string> &args,
                                           const ClassifyEnv &env) {
  ExpandedArgs out;
  for (std::size_t i = 0; i < args.size(); ++i)
    if (Status one = expandOne(args[i], static_cast<int>(i), 0, env, out); !one)
      return fail(one.error());
  return out;
}

} // namespace alea::wrapper
