// The campaign warnings made of what builds' binaries tell about their
// layouts (layout_facts.hpp): identical layouts with the odds of such a
// collision (analysis/collision.hpp), and ODR violations of their links.
#include "alea/model/layout_facts.hpp"

#include "alea/words.hpp"

#include <cstdio>

namespace alea::model {

namespace {

// "1 in 12", "1 in 3.2e+07".
std::string oneIn(double p) {
  const double n = 1 / p;
  char buf[48];
  if (n < 1e6)
    std::snprintf(buf, sizeof buf, "1 in %.0f", n);
  else
    std::snprintf(buf, sizeof buf, "1 in %.2g", n);
  return buf;
}

std::string fmtProbability(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, p >= 0.01 ? "%.2f" : "%.1e", p);
  return buf;
}

} // namespace

std::string odrWarning(const std::string &system, const std::vector<int> &builds,
                       const std::string &findings) {
  std::string list;
  for (int b : builds)
    list += (list.empty() ? "" : ", ") + std::to_string(b);
  return (builds.size() == 1 ? "build " : "builds ") + list + " of " + system +
         ": ODR violation: " + findings +
         "; which copy the linker keeps depends on the link order, so results may differ "
         "between seeds (a real bug of the program; the link's ALEA_LOG line names the "
         "objects)";
}

std::string identicalLayoutsWarning(const std::string &system, const std::vector<int> &builds,
                                    std::size_t systemBuilds,
                                    const std::optional<LayoutFacts> &facts) {
  std::string w = "identical layouts: builds " + listed(builds) + " of " + system +
                  " have the same layout fingerprint";
  if (!facts)
    return w + " (the randomization did not take: check that the build uses $CC/$CXX)";
  if (!facts->randomized)
    return w + "; the binary carries no alea note: the randomization did not take (check that "
               "the build uses $CC/$CXX)";
  if (facts->codeFingerprint)
    // Without function symbols the functions cannot be counted, so there are
    // no odds: the fingerprint is of the code bytes, which are the same.
    return w + "; the program " +
           (facts->stripped ? "is stripped (no symbol table)" : "has no function symbols") +
           ", so the fingerprint is of its code: these builds' executable sections are the same "
           "byte for byte, so the randomization did not take, or the program is too small to "
           "vary (check ALEA_FACTORS and the log)";
  const analysis::LayoutSpace &s = facts->space;
  const analysis::CollisionOdds odds = analysis::layoutCollisionOdds(s, systemBuilds);
  w += "; the program has " + std::to_string(s.functions + s.otherFunctions) + " function" +
       (s.functions + s.otherFunctions == 1 ? "" : "s");
  w += s.otherFunctions ? " (" + std::to_string(s.functions) + " in " : " in ";
  w += std::to_string(s.modules) + " module" + (s.modules == 1 ? "" : "s") + " alea compiled";
  if (s.otherFunctions)
    w += ", " + std::to_string(s.otherFunctions) + " from the C runtime)";
  // Three verdicts on the chance that some pair of the system's builds
  // coincides (analysis/collision.hpp counts the draws that move functions).
  if (odds.anyPairProbability < 1e-12)
    return w + ", so two builds coincide with probability below 1e-12: the randomization did "
               "not take (check ALEA_FACTORS and the log)";
  w += ", so two builds coincide with probability about " + oneIn(odds.pairProbability) + " (" +
       fmtProbability(odds.anyPairProbability) + " that some pair of " +
       std::to_string(systemBuilds) + " builds does)";
  if (odds.anyPairProbability >= 1e-3)
    return w + ": expected for a program this small";
  return w + ": unlikely, check ALEA_FACTORS and the log";
}

} // namespace alea::model
