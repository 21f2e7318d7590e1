// Secrets stay out of the store. alea records the environment builds and
// benchmarks run in (the campaign's base environment in the store's meta
// table, what alea and the benchmark add with every execution); a variable
// whose name looks like it holds a credential is recorded with its value
// replaced by "<redacted>", so a store can be shared, exported or attached to
// a paper. A name looks secret when it matches, ignoring case, one of the
// shell patterns (fnmatch(3): `*`, `?`, `[...]`) of kSecretNamePatterns or of
// the campaign's `redact_env` list. Only what is recorded changes: the
// processes still get the real values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

inline constexpr const char *kRedactedValue = "<redacted>";

inline constexpr const char *kSecretNamePatterns[] = {"*TOKEN*",  "*SECRET*",     "*PASSWORD*",
                                                      "*PASSWD*", "*_KEY",        "*CREDENTIAL*",
                                                      "AWS_*",    "SSH_AUTH_SOCK"};

// Whether the variable NAME is recorded redacted (defaults plus `extra`).
bool looksSecret(std::string_view name, const std::vector<std::string> &extra);

// "NAME=value" as recorded: "NAME=<redacted>" when NAME looks secret.
std::string redactEnvironmentEntry(std::string_view entry, const std::vector<std::string> &extra);

} // namespace alea::runner
