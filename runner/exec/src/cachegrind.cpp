// The simulated metrics under Valgrind's cachegrind (cachegrind.hpp): its
// command line, its output files read and summed, and the metrics' formulas.
#include "alea/exec/cachegrind.hpp"

#include "alea/exec/executor.hpp"
#include "alea/file.hpp"

#include <algorithm>
#include <charconv>
#include <dirent.h>
#include <fstream>
#include <span>
#include <sstream>

namespace alea::runner {

namespace {

// The words of a line after its keyword ("events: Ir I1mr" -> Ir, I1mr).
std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < line.size()) {
    at = line.find_first_not_of(" \t\r", at);
    if (at == std::string_view::npos)
      break;
    std::size_t end = line.find_first_of(" \t\r", at);
    if (end == std::string_view::npos)
      end = line.size();
    out.push_back(line.substr(at, end - at));
    at = end;
  }
  return out;
}

// "I1 cache:         32768 B, 64 B, 8-way associative" -> "32768,8,64"
// (SimCache's order: size, associativity, line size); "" if it is not one.
// An associativity of 1 is written "direct-mapped".
std::string geometryOf(std::string_view desc) {
  unsigned long long v[3] = {0, 0, 1};
  const char *at = desc.data(), *end = desc.data() + desc.size();
  const bool directMapped = desc.find("direct-mapped") != std::string_view::npos;
  for (auto &value : directMapped ? std::span(v, 2) : std::span(v, 3)) {
    while (at < end && (*at < '0' || *at > '9'))
      ++at;
    auto [ptr, ec] = std::from_chars(at, end, value);
    if (ec != std::errc())
      return {};
    at = ptr;
  }
  return std::to_string(v[0]) + "," + std::to_string(v[2]) + "," + std::to_string(v[1]);
}

// The files of `dir` whose names start with `prefix`, sorted.
std::vector<std::string> filesStartingWith(const std::string &dir, std::string_view prefix) {
  std::vector<std::string> out;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d))
      if (std::string_view(e->d_name).starts_with(prefix))
        out.push_back(dir + "/" + e->d_name);
    ::closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

CachegrindCounts &CachegrindCounts::operator+=(const CachegrindCounts &o) {
  ir += o.ir, i1mr += o.i1mr, ilmr += o.ilmr;
  dr += o.dr, d1mr += o.d1mr, dlmr += o.dlmr;
  dw += o.dw, d1mw += o.d1mw, dlmw += o.dlmw;
  bc += o.bc, bcm += o.bcm, bi += o.bi, bim += o.bim;
  return *this;
}

Expected<CachegrindOutput> parseCachegrindOutput(std::string_view text) {
  CachegrindOutput out;
  out.cache = {"", "", ""};
  std::vector<std::string_view> events, summary;
  bool haveEvents = false, haveSummary = false;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    if (line.starts_with("desc:")) {
      std::string_view desc = line.substr(5);
      desc.remove_prefix(std::min(desc.find_first_not_of(" \t"), desc.size()));
      for (auto [name, field] :
           {std::pair{"I1 cache:", &out.cache.i1}, std::pair{"D1 cache:", &out.cache.d1},
            std::pair{"LL cache:", &out.cache.ll}})
        if (desc.starts_with(name))
          *field = geometryOf(desc.substr(std::string_view(name).size()));
    } else if (line.starts_with("cmd:")) {
      std::string_view cmd = line.substr(4);
      cmd.remove_prefix(std::min(cmd.find_first_not_of(" \t"), cmd.size()));
      out.command = cmd;
    } else if (line.starts_with("events:")) {
      events = words(line.substr(7));
      haveEvents = true;
    } else if (line.starts_with("summary:")) {
      summary = words(line.substr(8));
      haveSummary = true;
    }
  }
  if (!haveEvents)
    return Error{"not a cachegrind output file: no \"events:\" line"};
  if (!haveSummary)
    return Error{"cachegrind output without a \"summary:\" line (Valgrind did not finish it)"};
  if (summary.size() > events.size())
    return Error{"cachegrind's summary has " + std::to_string(summary.size()) + " counts for " +
                 std::to_string(events.size()) + " events"};
  CachegrindCounts &c = out.counts;
  const std::pair<const char *, std::uint64_t *> fields[] = {
      {"Ir", &c.ir},     {"I1mr", &c.i1mr}, {"ILmr", &c.ilmr}, {"Dr", &c.dr},     {"D1mr", &c.d1mr},
      {"DLmr", &c.dlmr}, {"Dw", &c.dw},     {"D1mw", &c.d1mw}, {"DLmw", &c.dlmw}, {"Bc", &c.bc},
      {"Bcm", &c.bcm},   {"Bi", &c.bi},     {"Bim", &c.bim}};
  for (const auto &[name, field] : fields) {
    auto e = std::find(events.begin(), events.end(), std::string_view(name));
    if (e == events.end())
      return Error{std::string("cachegrind's events lack ") + name +
                   " (it ran without --cache-sim=yes --branch-sim=yes)"};
    std::size_t i = static_cast<std::size_t>(e - events.begin());
    if (i >= summary.size() || summary[i] == ".")
      continue; // 0
    std::string_view word = summary[i];
    auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), *field);
    if (ec != std::errc() || ptr != word.data() + word.size())
      return Error{std::string("cachegrind's summary count of ") + name + " is not a number: \"" +
                   std::string(word) + "\""};
  }
  return out;
}

std::uint64_t estimatedCycles(const CachegrindCounts &c) {
  const std::uint64_t ram = c.ilmr + c.dlmr + c.dlmw;
  const std::uint64_t l1Misses = c.i1mr + c.d1mr + c.d1mw;
  const std::uint64_t ll = l1Misses - ram; // a LL miss is an L1 miss first
  const std::uint64_t l1 = c.ir + c.dr + c.dw - l1Misses;
  return l1 + 5 * ll + 35 * ram;
}

double simulatedValue(Metric metric, const CachegrindCounts &c) {
  switch (metric) {
  case Metric::SimInstructions:
    return static_cast<double>(c.ir);
  case Metric::SimI1Misses:
    return static_cast<double>(c.i1mr);
  case Metric::SimD1Misses:
    return static_cast<double>(c.d1mr + c.d1mw);
  case Metric::SimLlMisses:
    return static_cast<double>(c.ilmr + c.dlmr + c.dlmw);
  case Metric::SimBranchMisses:
    return static_cast<double>(c.bcm + c.bim);
  case Metric::SimCycles:
    return static_cast<double>(estimatedCycles(c));
  default:
    return 0;
  }
}

std::vector<std::string> cachegrindOptions(const SimCache &cache, const std::string &outDir) {
  return {"--tool=cachegrind",
          "--cache-sim=yes",
          "--branch-sim=yes",
          "--trace-children=yes",
          "--I1=" + cache.i1,
          "--D1=" + cache.d1,
          "--LL=" + cache.ll,
          "--cachegrind-out-file=" + outDir + "/cachegrind.out.%p",
          "--log-file=" + outDir + "/valgrind.%p.log",
          "-q"};
}

std::string valgrindComplaint(const std::string &dir, std::string_view stderrText) {
  std::string first;
  for (const auto &path : filesStartingWith(dir, "valgrind.")) {
    std::string text = alea::readFile(path).value_or("");
    for (std::size_t at = 0; at < text.size();) {
      std::size_t nl = text.find('\n', at);
      std::string line = text.substr(at, nl == std::string::npos ? nl : nl - at);
      at = nl == std::string::npos ? text.size() : nl + 1;
      // "==123== message" or "--123-- warning: ...": the message.
      if (line.size() > 2 && (line.starts_with("==") || line.starts_with("--")))
        if (std::size_t end = line.find(line.substr(0, 2), 2); end != std::string::npos)
          line = line.substr(end + 2);
      line.erase(0, std::min(line.find_first_not_of(' '), line.size()));
      // cachegrind's notes on the machine's own caches are not problems.
      if (line.empty() || line.find("cache found") != std::string::npos ||
          line.find("specified LL cache") != std::string::npos ||
          line.find("simulated LL cache") != std::string::npos)
        continue;
      // "### unhandled dwarf2 abbrev form ...": parts of the debug info it
      // skips (DWARF 5 of clang 19 for Debian 12's Valgrind 3.19), not why a
      // run failed. Its debug info reader failing is: it gives up on the
      // program; say what helps.
      if (line.starts_with("###"))
        continue;
      if (line.find("debuginfo reader") != std::string::npos)
        return "valgrind cannot read the program's debug info (\"" + line +
               "\"): build it with -gdwarf-4 (e.g. CFLAGS='-g -gdwarf-4'), or without -g";
      if (first.empty())
        first = line.starts_with("valgrind:") ? line : "valgrind: " + line;
    }
  }
  if (!first.empty())
    return first;
  for (std::size_t at = 0; at < stderrText.size();) {
    std::size_t nl = stderrText.find('\n', at);
    std::string_view line = stderrText.substr(at, nl == std::string_view::npos ? nl : nl - at);
    at = nl == std::string_view::npos ? stderrText.size() : nl + 1;
    if (line.starts_with("valgrind:"))
      return std::string(line);
  }
  return {};
}

Expected<CachegrindCounts> sumCachegrindOutputs(const std::string &dir, const SimCache &cache,
                                                std::string_view stderrText) {
  std::vector<std::string> files = filesStartingWith(dir, "cachegrind.out.");
  if (files.empty()) {
    std::string why = valgrindComplaint(dir, stderrText);
    return Error{"cachegrind wrote no output file" + (why.empty() ? "" : " (" + why + ")")};
  }
  CachegrindCounts sum;
  for (const auto &path : files) {
    auto out = parseCachegrindOutput(alea::readFile(path).value_or(""));
    if (!out)
      return Error{out.error() + " (" + path.substr(path.rfind('/') + 1) + ")"};
    if (!(out->cache == cache))
      return Error{"cachegrind simulated I1 " + out->cache.i1 + ", D1 " + out->cache.d1 + ", LL " +
                   out->cache.ll + " instead of I1 " + cache.i1 + ", D1 " + cache.d1 + ", LL " +
                   cache.ll + " (" + out->command + ")"};
    sum += out->counts;
  }
  return sum;
}

SimulatorFacts probeSimulator(const SimCache &cache) {
  SimulatorFacts facts;
  facts.cache = cache;
  ExecutionRequest req;
  req.argv = {"true"};
  req.env = processEnvironment();
  req.simulate = cache;
  req.timeoutSeconds = 120;
  req.captureStdout = false;
  LocalExecutor executor;
  ExecutionResult r = executor.run(req);
  if (r.spawnFailed)
    facts.problem = r.spawnError;
  else if (!r.output.metricError.empty())
    facts.problem = r.output.metricError;
  else if (std::string why = describeFailure(r.output); !why.empty())
    facts.problem = "valgrind --tool=cachegrind true: " + why;
  return facts;
}

} // namespace alea::runner
