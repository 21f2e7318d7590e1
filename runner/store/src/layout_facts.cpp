// What a built binary tells about its layout (see layout_facts.hpp), read
// with alea_linker's readLayout from a build's artifact or its snapshot.
#include "alea/store/layout_facts.hpp"

#if __has_include("alea/linker/layout.hpp")
#include "alea/linker/layout.hpp"
#define ALEA_HAVE_LINKER 1
#endif

#include <algorithm>
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

} // namespace alea::runner
