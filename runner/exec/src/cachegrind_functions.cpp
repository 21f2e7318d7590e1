// Per-function simulated counts from cachegrind's output files
// (cachegrind_functions.hpp): the "fn=" blocks parsed, summed per name and
// trimmed to the functions that matter.
#include "alea/exec/cachegrind_functions.hpp"

#include "alea/file.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <dirent.h>
#include <map>

namespace alea::runner {

namespace {

// The 13 events in CachegrindCounts' order, by their "events:" names.
constexpr std::array<const char *, 13> kEventNames = {
    "Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw", "Bc", "Bcm", "Bi", "Bim"};

std::uint64_t &field(CachegrindCounts &c, std::size_t event) {
  std::uint64_t *fields[] = {&c.ir,   &c.i1mr, &c.ilmr, &c.dr,  &c.d1mr, &c.dlmr, &c.dw,
                             &c.d1mw, &c.dlmw, &c.bc,   &c.bcm, &c.bi,   &c.bim};
  return *fields[event];
}

// The line without its keyword and the blanks after it.
std::string_view after(std::string_view line, std::size_t keyword) {
  line.remove_prefix(keyword);
  line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
    line.remove_suffix(1);
  return line;
}

// Splits on blanks.
std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0; at < line.size();) {
    at = line.find_first_not_of(" \t\r", at);
    if (at == std::string_view::npos)
      break;
    std::size_t end = std::min(line.find_first_of(" \t\r", at), line.size());
    out.push_back(line.substr(at, end - at));
    at = end;
  }
  return out;
}

} // namespace

Expected<std::vector<FunctionCounts>> parseCachegrindFunctions(std::string_view text) {
  // slot[i]: the CachegrindCounts field of the i-th event of the file, -1
  // for an event alea does not keep.
  std::vector<int> slot;
  bool haveEvents = false;
  std::vector<FunctionCounts> out;
  std::map<std::string, std::size_t, std::less<>> index;
  FunctionCounts *current = nullptr;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    if (line.starts_with("events:")) {
      auto events = split(line.substr(7));
      for (std::size_t e = 0; e < kEventNames.size(); ++e)
        if (std::find(events.begin(), events.end(), std::string_view(kEventNames[e])) ==
            events.end())
          return Error{std::string("cachegrind's events lack ") + kEventNames[e] +
                       " (it ran without --cache-sim=yes --branch-sim=yes)"};
      for (auto name : events) {
        auto e = std::find(kEventNames.begin(), kEventNames.end(), name);
        slot.push_back(e == kEventNames.end() ? -1 : static_cast<int>(e - kEventNames.begin()));
      }
      haveEvents = true;
    } else if (line.starts_with("fn=")) {
      std::string_view name = after(line, 3);
      auto it = index.find(name);
      if (it == index.end()) {
        it = index.emplace(std::string(name), out.size()).first;
        out.push_back({std::string(name), {}});
      }
      current = &out[it->second];
    } else if (current && !line.empty() && line[0] >= '0' && line[0] <= '9') {
      auto words = split(line);
      if (words.size() - 1 > slot.size())
        return Error{"cachegrind's line \"" + std::string(line) + "\" has " +
                     std::to_string(words.size() - 1) + " counts for " +
                     std::to_string(slot.size()) + " events"};
      for (std::size_t i = 1; i < words.size(); ++i) {
        if (words[i] == "." || slot[i - 1] < 0)
          continue;
        std::uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(words[i].data(), words[i].data() + words[i].size(), v);
        if (ec != std::errc() || ptr != words[i].data() + words[i].size())
          return Error{"cachegrind's count \"" + std::string(words[i]) + "\" of function " +
                       current->name + " is not a number"};
        field(current->counts, static_cast<std::size_t>(slot[i - 1])) += v;
      }
    }
  }
  if (!haveEvents)
    return Error{"not a cachegrind output file: no \"events:\" line"};
  return out;
}

std::vector<FunctionCounts> keepMeaningfulFunctions(const std::vector<FunctionCounts> &all,
                                                    double minShare, std::size_t maxFunctions) {
  CachegrindCounts total;
  for (const auto &f : all)
    total += f.counts;
  auto atLeast = [&](std::uint64_t part, std::uint64_t whole) {
    return part > 0 && static_cast<double>(part) >= minShare * static_cast<double>(whole);
  };
  std::vector<const FunctionCounts *> kept;
  for (const auto &f : all)
    if (!f.name.empty() && (atLeast(f.counts.ir, total.ir) || atLeast(f.counts.i1mr, total.i1mr) ||
                            atLeast(f.counts.d1mr + f.counts.d1mw, total.d1mr + total.d1mw)))
      kept.push_back(&f);
  std::sort(kept.begin(), kept.end(), [](const FunctionCounts *a, const FunctionCounts *b) {
    const auto ca = estimatedCycles(a->counts), cb = estimatedCycles(b->counts);
    return ca != cb ? ca > cb : a->name < b->name;
  });
  if (kept.size() > maxFunctions)
    kept.resize(maxFunctions);
  std::vector<FunctionCounts> out;
  CachegrindCounts keptSum;
  for (const FunctionCounts *f : kept) {
    out.push_back(*f);
    keptSum += f->counts;
  }
  FunctionCounts rest{"", total};
  for (std::size_t e = 0; e < kEventNames.size(); ++e)
    field(rest.counts, e) -= field(keptSum, e);
  if (!(rest.counts == CachegrindCounts{}))
    out.push_back(rest);
  return out;
}

Expected<std::vector<FunctionCounts>> sumCachegrindFunctions(const std::string &dir) {
  std::vector<std::string> files;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d))
      if (std::string_view(e->d_name).starts_with("cachegrind.out."))
        files.push_back(dir + "/" + e->d_name);
    ::closedir(d);
  }
  std::sort(files.begin(), files.end());
  if (files.empty())
    return Error{"cachegrind wrote no output file"};
  std::vector<FunctionCounts> all;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const auto &path : files) {
    auto functions = parseCachegrindFunctions(alea::readFile(path).value_or(""));
    if (!functions)
      return Error{functions.error() + " (" + path.substr(path.rfind('/') + 1) + ")"};
    for (auto &f : *functions) {
      auto [it, added] = index.emplace(f.name, all.size());
      if (added)
        all.push_back(std::move(f));
      else
        all[it->second].counts += f.counts;
    }
  }
  return keepMeaningfulFunctions(all);
}

std::vector<std::pair<std::string, double>> costTerms(Metric metric, const CachegrindCounts &c) {
  auto d = [](std::uint64_t v) { return static_cast<double>(v); };
  switch (metric) {
  case Metric::SimCycles:
    // estimatedCycles = (Ir + Dr + Dw - L1m) + 5 (L1m - RAM) + 35 RAM
    //                 = (Ir + Dr + Dw) + 4 L1m + 30 RAM.
    return {{"instructions", d(c.ir + c.dr + c.dw)},
            {"I1 misses", 4 * d(c.i1mr)},
            {"D1 misses", 4 * d(c.d1mr + c.d1mw)},
            {"LL misses", 30 * d(c.ilmr + c.dlmr + c.dlmw)}};
  case Metric::SimInstructions:
    return {{"instructions", d(c.ir)}};
  case Metric::SimI1Misses:
    return {{"I1 misses", d(c.i1mr)}};
  case Metric::SimD1Misses:
    return {{"D1 misses", d(c.d1mr + c.d1mw)}};
  case Metric::SimLlMisses:
    return {{"LL misses", d(c.ilmr + c.dlmr + c.dlmw)}};
  case Metric::SimBranchMisses:
    return {{"branch misses", d(c.bcm + c.bim)}};
  default:
    return {};
  }
}

} // namespace alea::runner
