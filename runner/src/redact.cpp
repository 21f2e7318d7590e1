// Redaction of secret-looking environment variables (see redact.hpp).
#include "alea/runner/redact.hpp"

#include <fnmatch.h>

namespace alea::runner {

bool looksSecret(std::string_view name, const std::vector<std::string> &extra) {
  const std::string n(name);
  for (const char *pattern : kSecretNamePatterns)
    if (::fnmatch(pattern, n.c_str(), FNM_CASEFOLD) == 0)
      return true;
  for (const auto &pattern : extra)
    if (::fnmatch(pattern.c_str(), n.c_str(), FNM_CASEFOLD) == 0)
      return true;
  return false;
}

std::string redactEnvironmentEntry(std::string_view entry, const std::vector<std::string> &extra) {
  const auto eq = entry.find('=');
  if (eq == std::string_view::npos || !looksSecret(entry.substr(0, eq), extra))
    return std::string(entry);
  return std::string(entry.substr(0, eq + 1)) + kRedactedValue;
}

} // namespace alea::runner
