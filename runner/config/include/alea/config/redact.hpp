// Secrets stay out of everything alea records. A campaign records the
// environment builds and benchmarks run in, the campaign file, build and
// execution log tails, error texts, the processes an execution left behind
// and the machine facts; a store can then be shared, exported or attached to
// a paper. Every such string passes through one Redactor (the store applies
// it to its free-text columns, the campaign to the environment and the
// campaign file it records), which replaces what looks secret by
// "<redacted>":
//
//  - an environment entry whose NAME looks secret (looksSecret) keeps only
//    its name; any other entry has its value redacted as text;
//  - in any text: the password of a URL (`scheme://user:PASSWORD@host`), the
//    value of an assignment, option, header or JSON/YAML key whose name looks
//    secret (`GH_PAT=X`, `--password=X`, `--password X`, `Authorization:
//    Bearer X`, `"token": "X"`), the password of curl's `-u user:PASSWORD`
//    (also `-U`, `--user`, `--proxy-user`), well-known token shapes (GitHub,
//    GitLab, Slack, npm, AWS access key ids), and every occurrence of a secret
//    value learned from the campaign's environment and commands, when it is at
//    least kMinMaskedLength bytes long.
//
// The rules are written out in docs/campaign.md, "Secrets". Redaction is
// idempotent (redacting a redacted text changes nothing), and it never
// touches what runs: builds and benchmarks get the real values.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

inline constexpr const char *kRedactedValue = "<redacted>";

// Learned values shorter than this are not searched for in texts: a short
// value ("1", "true", "default") would hide ordinary words and numbers.
inline constexpr std::size_t kMinMaskedLength = 8;

// Whether a variable, option or key named NAME holds a secret, case ignored.
// NAME's components are its parts between '_', '-' and '.' (leading dashes of
// an option dropped). It looks secret when it contains TOKEN, SECRET,
// PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL, APIKEY, AUTHORIZATION or COOKIE;
// or has a component PWD,
// PASS, PAT or AUTH (but the name PWD alone is the shell's working
// directory); or a component KEY after the first (API_KEY, not KEY_MAP); or
// starts with AWS_; or matches one of the shell patterns `extra` (fnmatch(3):
// `*`, `?`, `[...]`; a campaign's `redact_env`).
bool looksSecret(std::string_view name, const std::vector<std::string> &extra);

class Redactor {
public:
  // The default rules plus `namePatterns` (a campaign's `redact_env`).
  explicit Redactor(std::vector<std::string> namePatterns = {});

  bool secretName(std::string_view name) const { return looksSecret(name, patterns_); }

  // Remembers the secrets of an environment entry "NAME=value" (the value of
  // a secret-looking name, and what text() would hide in any value), or of a
  // text (a command), so that text() hides them wherever they appear later:
  // a build that prints its $GH_PAT, a log that echoes a password.
  void learnEntry(std::string_view entry);
  void learnText(std::string_view text);
  void learnArgv(const std::vector<std::string> &args);

  // "NAME=value" as recorded: "NAME=<redacted>" when NAME looks secret, else
  // NAME=text(value). A value may span lines (it is one entry).
  std::string entry(std::string_view entry) const;
  // Any other recorded text, with the rules above applied.
  std::string text(std::string_view text) const;
  // A command written as argv (a campaign file's array): each element as
  // text, and the element after an option named secret (`"--token", "X"`)
  // or after curl's `-u` (`"-u", "user:X"`) redacted as its value.
  std::vector<std::string> argv(const std::vector<std::string> &args) const;

private:
  struct Span {
    std::size_t from, to;
  };
  std::vector<Span> secretSpans(std::string_view text) const;
  std::optional<std::string> optionValue(std::string_view option, std::string_view value) const;
  void learn(std::string_view value);

  std::vector<std::string> patterns_;
  std::vector<std::string> known_; // learned values, longest first
};

} // namespace alea::runner
