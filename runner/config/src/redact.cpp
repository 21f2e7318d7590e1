// Redaction of secrets in what alea records (see redact.hpp). Each rule
// finds spans of the text to hide; overlapping spans are merged and each is
// replaced by "<redacted>". The scanners are plain loops over the bytes (no
// regular expressions): the store runs them on every execution's record.
#include "alea/config/redact.hpp"

#include <algorithm>
#include <cctype>
#include <fnmatch.h>
#include <iterator>

namespace alea::runner {

namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }
bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
// ASCII only, without the C library's locale lookups: these run on every byte
// of every recorded log tail.
bool alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// The characters of a name in `NAME=value`, `--name value`, `name: value`.
bool nameChar(char c) { return alnum(c) || c == '_' || c == '-' || c == '.'; }

std::string upper(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    if (c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
  return out;
}

// Where the value starting at `v` ends: a quoted value at its closing quote
// (included; a backslash escapes in double quotes) or the end of its line;
// any other at the first white space, quote, ';' (the end of a shell
// command) or '&' (the next parameter of a URL's query, a shell operator).
std::size_t valueEnd(std::string_view t, std::size_t v) {
  const std::size_t n = t.size();
  // A value redacted before is that much (redacting again changes nothing).
  if (t.substr(v, std::string_view(kRedactedValue).size()) == kRedactedValue)
    return v + std::string_view(kRedactedValue).size();
  if (v < n && (t[v] == '"' || t[v] == '\'')) {
    const char q = t[v];
    std::size_t e = v + 1;
    while (e < n && t[e] != q && t[e] != '\n')
      e += (q == '"' && t[e] == '\\' && e + 1 < n) ? 2 : 1;
    return e < n && t[e] == q ? e + 1 : std::min(e, n);
  }
  std::size_t e = v;
  while (e < n && !space(t[e]) && t[e] != '"' && t[e] != '\'' && t[e] != ';' && t[e] != '&')
    ++e;
  return e;
}

// `scheme://user:PASSWORD@host`: the password, up to the last '@' of the
// authority (which ends at '/', '?', '#', white space or a quote). A user
// name alone (`ssh://git@host`) is kept.
template <typename Add> void urlPasswords(std::string_view t, Add add) {
  for (std::size_t p = t.find("://"); p != std::string_view::npos; p = t.find("://", p + 3)) {
    const std::size_t from = p + 3;
    std::size_t end = from;
    while (end < t.size() && !space(t[end]) &&
           std::string_view("/?#\"'`").find(t[end]) == std::string_view::npos)
      ++end;
    const std::string_view authority = t.substr(from, end - from);
    const std::size_t at = authority.rfind('@');
    if (at == std::string_view::npos)
      continue;
    const std::size_t colon = authority.substr(0, at).find(':');
    if (colon != std::string_view::npos && colon + 1 < at)
      add(from + colon + 1, from + at);
  }
}

// The options of curl whose value is `user:PASSWORD`.
constexpr std::string_view kUserOptions[] = {"--proxy-user", "--user", "-u", "-U"};

// curl's `-u user:PASSWORD` (`-uuser:PASSWORD`, `--user[=]`, `-U`,
// `--proxy-user[=]`): the part after the value's first ':'.
template <typename Add> void userPasswords(std::string_view t, Add add) {
  const std::size_t n = t.size();
  for (std::size_t i = t.find('-'); i != std::string_view::npos; i = t.find('-', i + 1)) {
    if (i > 0 && nameChar(t[i - 1]))
      continue;
    std::size_t v = std::string_view::npos;
    for (std::string_view opt : kUserOptions) {
      if (t.substr(i, opt.size()) != opt || i + opt.size() >= n)
        continue;
      const char next = t[i + opt.size()];
      if (next == '=' && opt.size() > 2)
        v = i + opt.size() + 1;
      else if (blank(next) || opt.size() == 2) // a short option's value may be attached
        v = i + opt.size();
      break;
    }
    if (v == std::string_view::npos)
      continue;
    while (v < n && blank(t[v]))
      ++v;
    const std::size_t end = valueEnd(t, v);
    std::size_t from = v, to = end;
    if (end > v && (t[v] == '"' || t[v] == '\'')) { // the quotes stay
      from = v + 1;
      if (end - 1 > v && t[end - 1] == t[v])
        to = end - 1;
    }
    const std::size_t colon = t.substr(from, to - from).find(':');
    if (colon != std::string_view::npos && from + colon + 1 < to)
      add(from + colon + 1, to);
  }
}

// A name that looks secret, then its value: `NAME=value`, `NAME: value`
// (a header, YAML; a blank after the colon), `"NAME": value` (JSON), and for
// an option `--name value`. `Authorization: Bearer X` hides X (the scheme
// word stays).
template <typename Add, typename Secret>
void namedValues(std::string_view t, Secret secret, Add add) {
  const std::size_t n = t.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!nameChar(t[i]) || (i > 0 && nameChar(t[i - 1])))
      continue;
    std::size_t j = i;
    while (j < n && nameChar(t[j]))
      ++j;
    const std::string_view name = t.substr(i, j - i);
    const bool quoted = i > 0 && (t[i - 1] == '"' || t[i - 1] == '\'') && j < n && t[j] == t[i - 1];
    const std::size_t k = quoted ? j + 1 : j;
    std::size_t v = std::string_view::npos;
    if (k < n && t[k] == '=')
      v = k + 1;
    else if (k < n && t[k] == ':' && (quoted || (k + 1 < n && blank(t[k + 1]))))
      v = k + 1;
    else if (name[0] == '-' && k < n && blank(t[k]))
      v = k;
    if (v != std::string_view::npos) {
      while (v < n && blank(t[v]))
        ++v;
      if (name[0] == '-' && t[k] != '=' && v < n && t[v] == '-')
        v = std::string_view::npos; // `--password --verbose`: no value
    }
    if (v == std::string_view::npos || v >= n || t[v] == '\n' || t[v] == '\r' || !secret(name)) {
      i = j - 1;
      continue;
    }
    const std::string key = upper(name);
    if (key == "AUTHORIZATION" || key == "PROXY-AUTHORIZATION") {
      std::size_t w = v;
      while (w < n && alpha(t[w]))
        ++w;
      std::size_t c = w;
      while (c < n && blank(t[c]))
        ++c;
      if (w > v && c > w && c < n && !space(t[c]))
        v = c; // "Bearer", "Basic", "token": the credentials follow
    }
    const std::size_t end = valueEnd(t, v);
    if (end > v)
      add(v, end);
    i = std::max(j, end) - 1;
  }
}

bool alnumOrUnderscore(char c) { return alnum(c) || c == '_'; }
bool alnumOrDashUnderscore(char c) { return alnum(c) || c == '_' || c == '-'; }
bool alnumOrDash(char c) { return alnum(c) || c == '-'; }
bool capitalOrDigit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// A token shape: a prefix (each '?' in it one of `oneOf`), then at least
// `minBody` characters of `body`.
struct TokenShape {
  std::string_view prefix;
  std::string_view oneOf;
  bool (*body)(char);
  std::size_t minBody;
};

// Well-known token shapes, anywhere: GitHub (ghp_, gho_, ghu_, ghs_, ghr_
// and 36 letters or digits; github_pat_ and 22 or more), GitLab (glpat- and
// 20 or more), Slack (xoxb-, xoxa-, xoxp-, xoxr-, xoxs- and 10 or more), npm
// (npm_ and 36), AWS access key ids (AKIA or ASIA and exactly 16 capitals or
// digits, below).
constexpr TokenShape kTokenShapes[] = {
    {"gh?_", "pousr", alnum, 36},
    {"github_pat_", "", alnumOrUnderscore, 22},
    {"glpat-", "", alnumOrDashUnderscore, 20},
    {"xox?-", "abprs", alnumOrDash, 10},
    {"npm_", "", alnum, 36},
};

bool startsWithShape(std::string_view s, const TokenShape &shape) {
  if (s.size() < shape.prefix.size())
    return false;
  for (std::size_t k = 0; k < shape.prefix.size(); ++k)
    if (shape.prefix[k] == '?' ? shape.oneOf.find(s[k]) == std::string_view::npos
                               : s[k] != shape.prefix[k])
      return false;
  return true;
}

template <typename Add> void tokenShapes(std::string_view t, Add add) {
  const std::size_t n = t.size();
  auto run = [&](std::size_t from, bool (*allowed)(char)) {
    std::size_t e = from;
    while (e < n && allowed(t[e]))
      ++e;
    return e - from;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const char c = t[i];
    if ((c != 'g' && c != 'x' && c != 'n' && c != 'A') ||
        (i > 0 && alnumOrDashUnderscore(t[i - 1])))
      continue;
    const std::string_view s = t.substr(i);
    std::size_t len = 0;
    if (s.substr(0, 4) == "AKIA" || s.substr(0, 4) == "ASIA") {
      if (run(i + 4, capitalOrDigit) == 16 && (i + 20 >= n || !alnum(t[i + 20])))
        len = 20;
    } else {
      for (const TokenShape &shape : kTokenShapes)
        if (startsWithShape(s, shape)) {
          const std::size_t p = shape.prefix.size();
          if (std::size_t r = run(i + p, shape.body); r >= shape.minBody)
            len = p + r;
          break;
        }
    }
    if (len) {
      add(i, i + len);
      i += len - 1;
    }
  }
}

} // namespace

bool looksSecret(std::string_view name, const std::vector<std::string> &extra) {
  while (!name.empty() && name.front() == '-')
    name.remove_prefix(1);
  if (name.empty())
    return false;
  const std::string n(name);
  for (const auto &pattern : extra)
    if (::fnmatch(pattern.c_str(), n.c_str(), FNM_CASEFOLD) == 0)
      return true;
  const std::string u = upper(name);
  if (u == "PWD")
    return false; // the shell's working directory
  for (const char *part : {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL",
                           "APIKEY", "AUTHORIZATION", "COOKIE"})
    if (u.find(part) != std::string::npos)
      return true;
  if (u.rfind("AWS_", 0) == 0)
    return true;
  std::size_t index = 0;
  for (std::size_t from = 0; from <= u.size(); ++index) {
    std::size_t to = u.find_first_of("_-.", from);
    if (to == std::string::npos)
      to = u.size();
    const std::string_view c = std::string_view(u).substr(from, to - from);
    if (c == "PWD" || c == "PASS" || c == "PAT" || c == "AUTH" || (c == "KEY" && index > 0))
      return true;
    from = to + 1;
  }
  return false;
}

Redactor::Redactor(std::vector<std::string> namePatterns) : patterns_(std::move(namePatterns)) {}

std::vector<Redactor::Span> Redactor::secretSpans(std::string_view t) const {
  std::vector<Span> spans;
  auto add = [&](std::size_t from, std::size_t to) { spans.push_back({from, to}); };
  urlPasswords(t, add);
  userPasswords(t, add);
  namedValues(t, [this](std::string_view name) { return secretName(name); }, add);
  tokenShapes(t, add);
  for (const auto &value : known_)
    for (std::size_t p = t.find(value); p != std::string_view::npos; p = t.find(value, p + 1))
      add(p, p + value.size());
  std::sort(spans.begin(), spans.end(),
            [](const Span &a, const Span &b) { return a.from < b.from; });
  std::vector<Span> merged;
  for (const Span &s : spans)
    if (!merged.empty() && s.from <= merged.back().to)
      merged.back().to = std::max(merged.back().to, s.to);
    else
      merged.push_back(s);
  return merged;
}

std::string Redactor::text(std::string_view t) const {
  std::string out;
  std::size_t at = 0;
  for (const Span &s : secretSpans(t)) {
    out.append(t.substr(at, s.from - at)).append(kRedactedValue);
    at = s.to;
  }
  if (at == 0)
    return std::string(t);
  return out.append(t.substr(at));
}

std::vector<std::string> Redactor::argv(const std::vector<std::string> &args) const {
  std::vector<std::string> out;
  for (const auto &a : args)
    out.push_back(text(a));
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (std::optional<std::string> value = optionValue(args[i], args[i + 1]))
      out[i + 1] = *value;
  return out;
}

// An option written as its own argv element and the element after it, its
// value: the value as recorded, when the option shows that it is secret.
std::optional<std::string> Redactor::optionValue(std::string_view option,
                                                 std::string_view value) const {
  if (option.size() < 2 || option[0] != '-' || option.find('=') != std::string_view::npos ||
      value.empty() || value[0] == '-')
    return std::nullopt;
  if (std::find(std::begin(kUserOptions), std::end(kUserOptions), option) !=
      std::end(kUserOptions)) {
    const std::size_t colon = value.find(':');
    if (colon == std::string_view::npos || colon + 1 == value.size())
      return std::nullopt;
    return text(value.substr(0, colon + 1)) + kRedactedValue;
  }
  if (secretName(option))
    return std::string(kRedactedValue);
  return std::nullopt;
}

std::string Redactor::entry(std::string_view e) const {
  const std::size_t eq = e.find('=');
  if (eq == std::string_view::npos)
    return text(e);
  if (secretName(e.substr(0, eq)))
    return std::string(e.substr(0, eq + 1)) + kRedactedValue;
  return std::string(e.substr(0, eq + 1)) + text(e.substr(eq + 1));
}

void Redactor::learn(std::string_view value) {
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
      value.back() == value.front())
    value = value.substr(1, value.size() - 2);
  // A value inside "<redacted>" would redact the redaction again.
  if (value.size() < kMinMaskedLength ||
      std::string_view(kRedactedValue).find(value) != std::string_view::npos ||
      std::find(known_.begin(), known_.end(), value) != known_.end())
    return;
  known_.emplace_back(value);
  std::stable_sort(known_.begin(), known_.end(),
                   [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
}

void Redactor::learnText(std::string_view t) {
  for (const Span &s : secretSpans(t))
    learn(t.substr(s.from, s.to - s.from));
}

void Redactor::learnArgv(const std::vector<std::string> &args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    learnText(args[i]);
    if (i + 1 < args.size() && optionValue(args[i], args[i + 1])) {
      const std::size_t colon = args[i + 1].find(':');
      const bool user = std::find(std::begin(kUserOptions), std::end(kUserOptions), args[i]) !=
                        std::end(kUserOptions);
      learn(user ? std::string_view(args[i + 1]).substr(colon + 1) : args[i + 1]);
    }
  }
}

void Redactor::learnEntry(std::string_view e) {
  const std::size_t eq = e.find('=');
  if (eq == std::string_view::npos)
    return learnText(e);
  const std::string_view value = e.substr(eq + 1);
  if (secretName(e.substr(0, eq))) {
    learn(value);
    // A multi-line value (a private key) may be printed a line at a time.
    for (std::size_t from = 0; from < value.size();) {
      std::size_t to = std::min(value.find('\n', from), value.size());
      learn(value.substr(from, to - from));
      from = to + 1;
    }
  }
  learnText(value);
}

} // namespace alea::runner
