// What a built binary tells about its layout (see layout_facts.hpp), read
// with alea_linker's readLayout from a build's artifact or its snapshot.
#include "alea/store/layout_facts.hpp"

#if __has_include("alea/linker/layout.hpp")
#include "alea/linker/layout.hpp"
#define ALEA_HAVE_LINKER 1
#endif

#include <algorithm>
#include <cstdio>
#include <set>
#include <string_view>

namespace alea::runner {


std::string odrFindings(const std::string &path) {
#ifdef ALEA_HAVE_LINKER
  const auto layout = alea::linker::readLayout(path);
  if (!layout || !layout->link.valid || layout->link.odrCount == 0)
    return "";
  const std::size_t n = layout->link.odrCount;
  std::string text = std::to_string(n) + (n == 1 ? " weak/inline symbol" : " weak/inline symbols") +
                     " defined differently by the objects of its link (";
  for (std::size_t i = 0; i < layout->link.odrSymbols.size(); ++i)
    text += (i ? ", " : "") + alea::linker::demangleSymbol(layout->link.odrSymbols[i]);
  if (layout->link.odrSymbols.size() < n)
    text += ", ...";
  return text + ")";
#else
  (void)path;
  return "";
#endif
}

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

namespace {

// The functions of the C runtime's start files (crt1.o, crti.o, crtbegin.o,
// crtend.o, crtn.o of glibc and GCC): linked into every program, never
// compiled by alea. They count as one section for section-order, and are not
// padded.
const std::set<std::string, std::less<>> kRuntimeStartFunctions = {"_start",
                                                                   "_init",
                                                                   "_fini",
                                                                   "__do_global_dtors_aux",
                                                                   "deregister_tm_clones",
                                                                   "register_tm_clones",
                                                                   "frame_dummy",
                                                                   "_dl_relocate_static_pie",
                                                                   "__libc_csu_init",
                                                                   "__libc_csu_fini",
                                                                   "call_weak_fn"};

bool hasFactor(const std::vector<std::string> &factors, std::string_view name) {
  return std::find(factors.begin(), factors.end(), name) != factors.end();
}

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

std::optional<LayoutFacts> layoutFactsOf(const std::string &binary) {
#ifdef ALEA_HAVE_LINKER
  auto layout = alea::linker::readLayout(binary);
  if (!layout)
    return std::nullopt;
  LayoutFacts f;
  f.randomized = layout->randomized();
  f.stripped = layout->stripped;
  f.codeFingerprint = layout->basis == alea::linker::FingerprintBasis::Code;
  for (const auto &fn : layout->functions)
    ++(kRuntimeStartFunctions.count(fn.name) ? f.space.otherFunctions : f.space.functions);
  f.space.modules = layout->record.noteCount;
  const auto &compiled = layout->record.factors;
  f.space.functionOrder = layout->record.valid && hasFactor(compiled, "function-order");
  f.space.codePadding = layout->record.valid && hasFactor(compiled, "code-padding");
  // Link-time factors only as the link record says they were applied: a
  // program linked without one (sources compiled and linked in one command)
  // is counted without them, the side that makes a collision likelier.
  const auto &linked = layout->link.factors;
  f.space.linkOrder = layout->link.valid && hasFactor(linked, "link-order");
  f.space.sectionOrder = layout->link.valid && hasFactor(linked, "section-order");
  return f;
#else
  (void)binary;
  return std::nullopt;
#endif
}

std::string identicalLayoutsWarning(const std::string &system, const std::vector<int> &builds,
                                    std::size_t systemBuilds,
                                    const std::optional<LayoutFacts> &facts) {
  std::string list;
  for (std::size_t i = 0; i < builds.size(); ++i)
    list += (i == 0 ? "" : i + 1 == builds.size() ? " and " : ", ") + std::to_string(builds[i]);
  std::string w =
      "identical layouts: builds " + list + " of " + system + " have the same layout fingerprint";
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

} // namespace alea::runner
