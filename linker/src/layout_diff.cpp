// Comparing two layouts: match the functions of A and B, then measure how the
// matched ones moved (rank among matched functions, address, address modulo the
// 64-byte cache line). Names of global functions are stable across alea seeds;
// local names are not when the symbol-names factor is on, so locals left over
// after matching by name are paired by size only when that size is unique on
// both sides (an honest, conservative match) and otherwise counted as
// "unmatched local". The gaps before functions (alignment and the code-padding
// factor's prefix bytes) are compared too. Whether the layouts are identical
// goes by the function fingerprints, or by the code bytes when a side has no
// function symbols (stripped), never by an empty function list.
#include "alea/linker/layout.hpp"

#include <map>
#include <utility>

namespace alea::linker {

namespace {

constexpr std::size_t None = static_cast<std::size_t>(-1);

// Groups function indices by a key.
template <typename Key, typename KeyFn>
std::map<Key, std::vector<std::size_t>>
groupBy(const std::vector<Function> &fs, const std::vector<std::size_t> &partner, KeyFn key) {
  std::map<Key, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < fs.size(); ++i)
    if (partner[i] == None)
      groups[key(fs[i])].push_back(i);
  return groups;
}

} // namespace

LayoutDiff diffLayouts(const Layout &a, const Layout &b) {
  LayoutDiff d;
  d.fingerprintA = a.fingerprint;
  d.fingerprintB = b.fingerprint;
  // Function fingerprints when both sides have them; else the code itself.
  if (a.basis == FingerprintBasis::Functions && b.basis == FingerprintBasis::Functions) {
    d.compared = FingerprintBasis::Functions;
    d.same = a.fingerprint == b.fingerprint;
  } else if (a.code.sections > 0 && b.code.sections > 0) {
    d.compared = FingerprintBasis::Code;
    d.same = a.code.fingerprint == b.code.fingerprint;
  }
  d.functionsA = a.functions.size();
  d.functionsB = b.functions.size();
  const auto &fa = a.functions;
  const auto &fb = b.functions;
  std::vector<std::size_t> partnerA(fa.size(), None), partnerB(fb.size(), None);
  for (const auto &f : fa)
    d.gapBytesA += f.gap;
  for (const auto &f : fb)
    d.gapBytesB += f.gap;
  std::vector<bool> bySize(fa.size(), false);
  auto link = [&](std::size_t i, std::size_t j) {
    partnerA[i] = j;
    partnerB[j] = i;
  };

  // 1. Same name, unique on both sides.
  {
    auto ga = groupBy<std::string>(fa, partnerA, [](const Function &f) { return f.name; });
    auto gb = groupBy<std::string>(fb, partnerB, [](const Function &f) { return f.name; });
    for (auto &[name, ia] : ga) {
      auto it = gb.find(name);
      if (it != gb.end() && ia.size() == 1 && it->second.size() == 1) {
        link(ia[0], it->second[0]);
        ++d.matchedByName;
      }
    }
  }
  // 2. Duplicated names (static functions of the same name in several files):
  //    same name and same size, unique on both sides.
  {
    using Key = std::pair<std::string, std::uint64_t>;
    auto key = [](const Function &f) { return Key{f.name, f.size}; };
    auto ga = groupBy<Key>(fa, partnerA, key);
    auto gb = groupBy<Key>(fb, partnerB, key);
    for (auto &[k, ia] : ga) {
      auto it = gb.find(k);
      if (it != gb.end() && ia.size() == 1 && it->second.size() == 1) {
        link(ia[0], it->second[0]);
        ++d.matchedByName;
      }
    }
  }
  // 3. Remaining locals: by size, when the size is unique among them on both sides.
  {
    std::map<std::uint64_t, std::vector<std::size_t>> ga, gb;
    for (std::size_t i = 0; i < fa.size(); ++i)
      if (partnerA[i] == None && fa[i].local)
        ga[fa[i].size].push_back(i);
    for (std::size_t j = 0; j < fb.size(); ++j)
      if (partnerB[j] == None && fb[j].local)
        gb[fb[j].size].push_back(j);
    for (auto &[size, ia] : ga) {
      auto it = gb.find(size);
      if (it != gb.end() && ia.size() == 1 && it->second.size() == 1) {
        link(ia[0], it->second[0]);
        bySize[ia[0]] = true;
        ++d.matchedBySize;
      }
    }
  }
  // What is left on each side: named globals, counted locals.
  const auto unmatched = [](const std::vector<Function> &fs,
                            const std::vector<std::size_t> &partner, std::size_t &locals,
                            std::vector<std::string> &names) {
    for (std::size_t i = 0; i < fs.size(); ++i)
      if (partner[i] == None) {
        if (fs[i].local)
          ++locals;
        else
          names.push_back(fs[i].name);
      }
  };
  unmatched(fa, partnerA, d.unmatchedLocalA, d.onlyInA);
  unmatched(fb, partnerB, d.unmatchedLocalB, d.onlyInB);

  // Ranks among matched functions, in each side's own order.
  std::vector<std::size_t> rankB(fb.size(), None);
  for (std::size_t j = 0, r = 0; j < fb.size(); ++j)
    if (partnerB[j] != None)
      rankB[j] = r++;
  for (std::size_t i = 0, r = 0; i < fa.size(); ++i) {
    const std::size_t j = partnerA[i];
    if (j == None)
      continue;
    if (rankB[j] != r)
      ++d.moved;
    d.pairs.push_back({i, j, r, rankB[j], !bySize[i]});
    ++r;
    if (fa[i].address != fb[j].address)
      ++d.addressChanged;
    if (fa[i].size != fb[j].size)
      ++d.sizeChanged;
    const std::uint64_t oa = fa[i].address % 64, ob = fb[j].address % 64;
    if (oa != ob)
      ++d.lineOffsetChanged;
    ++d.lineOffsetDelta[(ob + 64 - oa) % 64];
    if (fa[i].gap != fb[j].gap)
      ++d.gapChanged;
  }
  return d;
}

} // namespace alea::linker
