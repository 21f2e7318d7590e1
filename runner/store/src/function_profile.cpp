// The report's read of the per-function profiles (function_profile.hpp):
// the stored counts split into the metric's terms, each function placed by
// the symbol table of its build's binary.
#include "alea/store/function_profile.hpp"

#include "alea/store/campaign_dir.hpp"
#include "alea/store/store.hpp"

#if __has_include("alea/linker/layout.hpp")
#include "alea/linker/layout.hpp"
#define ALEA_HAVE_LINKER 1
#endif

#include <charconv>
#include <map>

namespace alea::runner {

namespace {

using Placements = std::map<std::string, analysis::FunctionPlacement, std::less<>>;

// The functions of a binary by name, as cachegrind names them: the symbol's
// name, and its demangled name (cachegrind demangles C++); the first of
// several with one name. Empty when the binary cannot be read.
Placements placementsOf(const std::string &binary) {
  Placements out;
#ifdef ALEA_HAVE_LINKER
  auto layout = alea::linker::readLayout(binary);
  if (!layout)
    return out;
  for (const auto &fn : layout->functions) {
    out.try_emplace(fn.name, analysis::FunctionPlacement{fn.address, fn.size});
    out.try_emplace(alea::linker::demangleSymbol(fn.name),
                    analysis::FunctionPlacement{fn.address, fn.size});
  }
#else
  (void)binary;
#endif
  return out;
}

// "size,assoc,line" -> (line, sets); (64, 0) when it does not parse.
std::pair<std::uint64_t, std::uint64_t> lineAndSets(std::string_view geometry) {
  std::uint64_t v[3] = {0, 0, 0};
  const char *at = geometry.data(), *end = at + geometry.size();
  for (auto &value : v) {
    auto [ptr, ec] = std::from_chars(at, end, value);
    if (ec != std::errc())
      return {64, 0};
    at = ptr < end && *ptr == ',' ? ptr + 1 : ptr;
  }
  if (v[1] == 0 || v[2] == 0)
    return {64, 0};
  return {v[2], v[0] / (v[1] * v[2])};
}

} // namespace

std::vector<analysis::AttributionInput> loadAttributionInputs(Store &store,
                                                              const std::string &campaignDir) {
  std::vector<analysis::AttributionInput> out;
  std::vector<StoredFunctionProfile> profiles = store.functionProfiles();
  if (profiles.empty())
    return out;
  std::map<std::pair<std::string, int>, std::string> binaries; // (system, build) -> hash
  if (auto builds = store.builds())
    for (const Build &b : *builds)
      binaries[{b.system, b.buildIndex}] = b.binaryHash;
  for (const StoredFunctionProfile &p : profiles) {
    auto metric = parseEnum<Metric>(p.profile.metric);
    if (!metric || !isSimulated(*metric))
      continue; // a newer alea's metric: not ours to split
    if (out.empty() || out.back().system != p.system || out.back().benchmark != p.benchmark) {
      analysis::AttributionInput &in = out.emplace_back();
      in.system = p.system;
      in.benchmark = p.benchmark;
      in.metric = p.profile.metric;
      for (const auto &[name, value] : costTerms(*metric, {}))
        in.terms.push_back(name);
      std::tie(in.lineBytes, in.i1Sets) = lineAndSets(p.profile.i1);
    }
    const std::string &hash = binaries[{p.system, p.build}];
    const Placements placements =
        hash.empty() ? Placements{} : placementsOf(objectPath(campaignDir, hash));
    analysis::BuildProfile &build = out.back().builds.emplace_back();
    build.build = p.build;
    for (const FunctionCounts &f : p.profile.functions) {
      analysis::FunctionCost &cost = build.functions.emplace_back();
      cost.function = f.name;
      for (const auto &[name, value] : costTerms(*metric, f.counts))
        cost.terms.push_back(value);
      if (auto it = placements.find(f.name); !f.name.empty() && it != placements.end())
        cost.placement = it->second;
    }
  }
  return out;
}

} // namespace alea::runner
