// Executions on other machines: quoting, frames, the helper and its session
// (see remote.hpp).
#include "alea/remote/remote.hpp"

#include "alea/fd.hpp"
#include "alea/file.hpp"

#include "alea/exec/hash.hpp"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <set>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace fs = std::filesystem;
using nlohmann::json;

namespace alea::runner {

// ---- frames -----------------------------------------------------------------

std::string encodeFrame(std::string_view tag, std::string_view payload) {
  std::string out(tag);
  out += ' ';
  out += std::to_string(payload.size());
  out += '\n';
  out.append(payload);
  return out;
}

std::string encodeFrame(std::string_view tag, const json &payload) {
  std::vector<std::uint8_t> bytes = json::to_msgpack(payload);
  return encodeFrame(tag,
                     std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

Expected<json> framePayload(const Frame &frame) {
  try {
    return json::from_msgpack(frame.payload);
  } catch (const json::exception &e) {
    return Error{"a malformed '" + frame.tag + "' frame: " + e.what()};
  }
}

Expected<std::optional<Frame>> FrameReader::next() {
  std::size_t nl = buffer_.find('\n');
  if (nl == std::string::npos) {
    if (buffer_.size() > 64)
      return Error{"a malformed frame header"};
    return std::optional<Frame>{};
  }
  std::size_t space = buffer_.find(' ');
  if (space == std::string::npos || space > nl || space == 0)
    return Error{"a malformed frame header: '" + buffer_.substr(0, std::min<std::size_t>(nl, 40)) +
                 "'"};
  std::size_t length = 0;
  for (std::size_t i = space + 1; i < nl; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(buffer_[i])) || i - space > 12)
      return Error{"a malformed frame length"};
    length = length * 10 + static_cast<std::size_t>(buffer_[i] - '0');
  }
  if (buffer_.size() - nl - 1 < length)
    return std::optional<Frame>{};
  Frame f{buffer_.substr(0, space), buffer_.substr(nl + 1, length)};
  buffer_.erase(0, nl + 1 + length);
  return std::optional<Frame>{std::move(f)};
}

// ---- wire values ------------------------------------------------------------

json requestToJson(const ExecutionRequest &r) {
  std::vector<std::string> counterNames;
  for (Metric m : r.counters)
    counterNames.emplace_back(enumName(m));
  return json{{"argv", r.argv},
              {"env", r.env},
              {"workdir", r.workdir},
              {"stdin", r.stdinPath},
              {"timeout", r.timeoutSeconds},
              {"cpus", r.cpus},
              {"noaslr", r.disableAslr},
              {"pad", r.envPadBytes},
              {"heap", r.heapOffset},
              {"records", r.recordsPipe},
              {"stdout", r.captureStdout},
              {"stdoutLimit", r.stdoutLimit},
              {"stderrTail", r.stderrTail},
              {"watch", r.watchLeftovers},
              {"kill", r.killLeftovers},
              {"sink", r.sink != nullptr},
              {"expectedExit", r.expectedExit},
              {"counters", counterNames},
              {"simulate",
               r.simulate ? json{r.simulate->i1, r.simulate->d1, r.simulate->ll} : json(nullptr)},
              {"nativeToo", r.nativeToo}};
}

ExecutionRequest requestFromJson(const json &j) {
  ExecutionRequest r;
  r.argv = j.at("argv").get<std::vector<std::string>>();
  r.env = j.at("env").get<std::vector<std::string>>();
  r.workdir = j.at("workdir").get<std::string>();
  r.stdinPath = j.at("stdin").get<std::string>();
  r.timeoutSeconds = j.at("timeout").get<double>();
  r.cpus = j.at("cpus").get<std::vector<int>>();
  r.disableAslr = j.at("noaslr").get<bool>();
  r.envPadBytes = j.at("pad").get<std::int64_t>();
  r.heapOffset = j.at("heap").get<std::int64_t>();
  r.recordsPipe = j.at("records").get<bool>();
  r.captureStdout = j.at("stdout").get<bool>();
  r.stdoutLimit = j.at("stdoutLimit").get<std::size_t>();
  r.stderrTail = j.at("stderrTail").get<std::size_t>();
  r.watchLeftovers = j.at("watch").get<bool>();
  r.killLeftovers = j.at("kill").get<bool>();
  r.expectedExit = j.value("expectedExit", 0);
  // The metrics' counters and simulated cache (absent from an older alea's
  // request, whose one counter was "counter").
  for (const auto &name : j.value("counters", std::vector<std::string>()))
    if (auto metric = parseEnum<Metric>(name))
      r.counters.push_back(*metric);
  if (auto metric = parseEnum<Metric>(j.value("counter", std::string())))
    r.counters.push_back(*metric);
  if (j.contains("simulate") && j.at("simulate").is_array()) {
    auto g = j.at("simulate").get<std::vector<std::string>>();
    if (g.size() == 3)
      r.simulate = SimCache{g[0], g[1], g[2]};
  }
  r.nativeToo = j.value("nativeToo", false);
  return r;
}

namespace {
template <typename T> json optionalJson(const std::optional<T> &v) {
  return v ? json(*v) : json(nullptr);
}
template <typename T> std::optional<T> optionalFrom(const json &j, const char *key) {
  if (!j.contains(key) || j.at(key).is_null())
    return std::nullopt;
  return j.at(key).get<T>();
}
// cachegrind's 13 counts, in CachegrindCounts' order.
json simulatedJson(const CachegrindCounts &c) {
  return json{c.ir,   c.i1mr, c.ilmr, c.dr,  c.d1mr, c.dlmr, c.dw,
              c.d1mw, c.dlmw, c.bc,   c.bcm, c.bi,   c.bim};
}
std::optional<CachegrindCounts> simulatedFrom(const json &j) {
  auto v = j.get<std::vector<std::uint64_t>>();
  if (v.size() != 13)
    return std::nullopt;
  return CachegrindCounts{v[0], v[1], v[2], v[3],  v[4],  v[5], v[6],
                          v[7], v[8], v[9], v[10], v[11], v[12]};
}
} // namespace

json resultToJson(const ExecutionResult &r) {
  const ExecutionOutput &o = r.output;
  json counterValues = json::object();
  for (const auto &[metric, value] : o.counterValues)
    counterValues[enumName(metric)] = value;
  return json{{"stdout", o.stdoutText},
              {"stderr", o.stderrTail},
              {"records", o.records},
              {"exit", o.exitCode},
              {"signal", o.signal},
              {"timedOut", o.timedOut},
              {"wall", o.wallSeconds},
              {"user", o.userSeconds},
              {"sys", o.sysSeconds},
              {"rss", o.maxRssKib},
              {"counterValues", counterValues},
              {"simulated", o.simulated ? simulatedJson(*o.simulated) : json(nullptr)},
              {"metricError", o.metricError},
              {"spawnFailed", r.spawnFailed},
              {"spawnError", r.spawnError},
              {"cancelled", r.cancelled},
              {"leftovers", r.leftovers},
              {"leftoversKilled", r.leftoversKilled},
              {"startedAt", r.startedAt},
              {"steadyStart", r.steadyStart},
              {"steadyEnd", r.steadyEnd},
              {"vcsw", r.voluntarySwitches},
              {"ivcsw", r.involuntarySwitches},
              {"migrations", optionalJson(r.migrations)},
              {"otherLoad", optionalJson(r.otherLoad)},
              {"cpuMhz", optionalJson(r.cpuMhz)},
              {"heapStatus", r.heapStatus},
              {"duetSync", r.duetSync ? enumName(*r.duetSync) : ""},
              {"overlap", optionalJson(r.overlap)},
              {"duetBarriers", r.duetBarriers},
              {"duetRestarts", r.duetRestarts},
              {"duetAlone", r.duetAlone},
              {"simulationSeconds", optionalJson(r.simulationSeconds)}};
}

ExecutionResult resultFromJson(const json &j) {
  ExecutionResult r;
  ExecutionOutput &o = r.output;
  o.stdoutText = j.at("stdout").get<std::string>();
  o.stderrTail = j.at("stderr").get<std::string>();
  o.records = j.at("records").get<std::string>();
  o.exitCode = j.at("exit").get<int>();
  o.signal = j.at("signal").get<int>();
  o.timedOut = j.at("timedOut").get<bool>();
  o.wallSeconds = j.at("wall").get<double>();
  o.userSeconds = j.at("user").get<double>();
  o.sysSeconds = j.at("sys").get<double>();
  o.maxRssKib = j.at("rss").get<long>();
  if (j.contains("counterValues") && j.at("counterValues").is_object())
    for (const auto &[name, value] : j.at("counterValues").items())
      if (auto metric = parseEnum<Metric>(name); metric && value.is_number())
        o.counterValues[*metric] = value.get<double>();
  if (j.contains("simulated") && j.at("simulated").is_array())
    o.simulated = simulatedFrom(j.at("simulated"));
  o.metricError = j.value("metricError", std::string());
  r.spawnFailed = j.at("spawnFailed").get<bool>();
  r.spawnError = j.at("spawnError").get<std::string>();
  r.cancelled = j.at("cancelled").get<bool>();
  r.leftovers = j.at("leftovers").get<std::vector<std::string>>();
  r.leftoversKilled = j.at("leftoversKilled").get<bool>();
  r.startedAt = j.at("startedAt").get<double>();
  r.steadyStart = j.at("steadyStart").get<double>();
  r.steadyEnd = j.at("steadyEnd").get<double>();
  r.voluntarySwitches = j.at("vcsw").get<std::int64_t>();
  r.involuntarySwitches = j.at("ivcsw").get<std::int64_t>();
  r.migrations = optionalFrom<std::int64_t>(j, "migrations");
  r.otherLoad = optionalFrom<double>(j, "otherLoad");
  r.cpuMhz = optionalFrom<double>(j, "cpuMhz");
  r.heapStatus = j.at("heapStatus").get<std::string>();
  // A duet's (absent from an older helper's answer).
  r.duetSync = parseEnum<DuetSync>(j.value("duetSync", std::string()));
  r.overlap = optionalFrom<double>(j, "overlap");
  r.simulationSeconds = optionalFrom<double>(j, "simulationSeconds");
  r.duetBarriers = j.value("duetBarriers", std::int64_t{0});
  r.duetRestarts = j.value("duetRestarts", std::int64_t{0});
  r.duetAlone = j.value("duetAlone", std::string());
  return r;
}

json machineToJson(const MachineState &m) {
  return json{{"hostname", m.hostname}, {"cpuModel", m.cpuModel},  {"cpuCount", m.cpuCount},
              {"governor", m.governor}, {"kernel", m.kernel},      {"aslr", m.aslr},
              {"load1", m.load1},       {"compilers", m.compilers}};
}

MachineState machineFromJson(const json &j) {
  MachineState m;
  m.hostname = j.at("hostname").get<std::string>();
  m.cpuModel = j.at("cpuModel").get<std::string>();
  m.cpuCount = j.at("cpuCount").get<int>();
  m.governor = j.at("governor").get<std::string>();
  m.kernel = j.at("kernel").get<std::string>();
  m.aslr = j.at("aslr").get<int>();
  m.load1 = j.at("load1").get<double>();
  m.compilers = j.at("compilers").get<std::string>();
  return m;
}

json blockOptionsToJson(const BlockOptions &o) {
  return json{{"together", o.together},
              {"quiet", o.quiet.enabled},
              {"quietLoad", o.quiet.load},
              {"quietWait", o.quiet.waitSeconds}};
}

BlockOptions blockOptionsFromJson(const json &j) {
  BlockOptions o;
  o.together = j.at("together").get<bool>();
  o.quiet.enabled = j.at("quiet").get<bool>();
  o.quiet.load = j.at("quietLoad").get<double>();
  o.quiet.waitSeconds = j.at("quietWait").get<double>();
  return o;
}

// ---- the helper -------------------------------------------------------------

namespace {

bool isDigest(const std::string &h) {
  return h.size() == 64 && h.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// A relative path that stays inside its directory (no "..", not absolute).
bool containedPath(const std::string &p) {
  if (p.empty() || p[0] == '/')
    return false;
  for (const auto &part : fs::path(p))
    if (part == "..")
      return false;
  return true;
}

struct Helper {
  int out;
  std::string workdir;
  std::mutex writeMutex;
  std::atomic<bool> cancel{false};
  bool outBroken = false;
  LocalExecutor executor;
  std::optional<MachineState> machine;
  std::chrono::steady_clock::time_point lastRecheck{};

  // Queue of frames read by the reader thread.
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Frame> frames;
  bool ended = false;
  std::string endReason;

  void emit(std::string_view tag, const json &payload) {
    std::lock_guard<std::mutex> lock(writeMutex);
    if (!outBroken && !writeAll(out, encodeFrame(tag, payload)))
      outBroken = true;
  }
  void emitRaw(const std::string &frame) {
    std::lock_guard<std::mutex> lock(writeMutex);
    if (!outBroken && !writeAll(out, frame))
      outBroken = true;
  }

  // Output chunks of request `index`, sent as they are read.
  struct ChunkSink final : OutputSink {
    Helper *helper;
    std::size_t index;
    void write(OutputChannel channel, std::string_view bytes) override {
      if (bytes.empty())
        return;
      char c = channel == OutputChannel::Stdout   ? 'o'
               : channel == OutputChannel::Stderr ? 'e'
                                                  : 'r';
      helper->emitRaw(encodeFrame(std::string(1, c) + std::to_string(index), bytes));
    }
  };

  // Cancels what runs: the flag, and a signal that interrupts the executor's
  // wait (it looks at the flag when poll returns, as after a Ctrl-C).
  pthread_t mainThread = ::pthread_self();
  void interrupt() {
    cancel = true;
    ::pthread_kill(mainThread, SIGUSR1);
  }

  void reader(int in) {
    FrameReader fr;
    char buf[65536];
    std::string why = "the host closed the session";
    for (;;) {
      ssize_t n = ::read(in, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      fr.feed(std::string_view(buf, static_cast<std::size_t>(n)));
      bool bad = false;
      for (;;) {
        auto f = fr.next();
        if (!f) {
          why = f.error();
          bad = true;
          break;
        }
        if (!*f)
          break;
        if ((*f)->tag == "cancel") {
          interrupt();
          continue;
        }
        std::lock_guard<std::mutex> lock(mutex);
        // A new block starts uncancelled; a cancel read after it (even in
        // the same read) cancels it.
        if ((*f)->tag == "block")
          cancel = false;
        frames.push_back(std::move(**f));
        cv.notify_all();
      }
      if (bad)
        break;
    }
    // The host is gone (or spoke garbage): whatever runs is cancelled.
    interrupt();
    std::lock_guard<std::mutex> lock(mutex);
    ended = true;
    endReason = why;
    cv.notify_all();
  }

  std::optional<Frame> nextFrame() {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return !frames.empty() || ended; });
    if (frames.empty() || ended) // the host is gone: nothing more to run or answer
      return std::nullopt;
    Frame f = std::move(frames.front());
    frames.pop_front();
    return f;
  }

  std::string objectPath(const std::string &hash) const { return workdir + "/objects/" + hash; }

  // `p` (absolute, or relative to the workdir) when it is inside the
  // workdir; the host reaches nothing else of the target's files.
  std::string inWorkdir(const std::string &p) const {
    fs::path rel = fs::path(p).lexically_normal();
    if (rel.is_absolute())
      rel = rel.lexically_relative(workdir);
    if (!containedPath(rel.string()) || rel == ".")
      throw std::runtime_error("a path outside the workdir: '" + p + "'");
    return workdir + "/" + rel.string();
  }

  // `hello`: the helper's workdir, pid, CPUs (its affinity), environment and Slurm job.
  json hello(const json &) {
    std::vector<std::string> env = processEnvironment();
    const char *job = std::getenv("SLURM_JOB_ID");
    std::vector<int> cpus;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set))
          cpus.push_back(c);
    return json{{"workdir", workdir},
                {"pid", static_cast<int>(::getpid())},
                {"cpus", cpus},
                {"env", env},
                {"job", job ? job : ""}};
  }

  // `have`: which of the given objects (by sha256) the workdir lacks.
  json have(const json &in) {
    std::vector<std::string> missing;
    for (const auto &h : in.at("hashes")) {
      std::error_code ec;
      if (!fs::is_regular_file(objectPath(h.get<std::string>()), ec))
        missing.push_back(h.get<std::string>());
    }
    return json{{"hashes", missing}};
  }

  // `put`: one object, verified against its digest, stored under it.
  json put(const json &in) {
    std::string hash = in.at("hash").get<std::string>();
    const std::string &data = in.at("data").get_ref<const std::string &>();
    if (!isDigest(hash))
      throw std::runtime_error("not a sha256 digest: '" + hash + "'");
    if (sha256Hex(data) != hash)
      throw std::runtime_error("object " + hash.substr(0, 12) +
                               "... arrived damaged (its sha256 differs)");
    // Unique among helpers sharing the workdir (a home on NFS): host and pid.
    char host[256] = "";
    ::gethostname(host, sizeof host - 1);
    std::string tmp = objectPath(hash) + ".tmp." + host + "." + std::to_string(::getpid());
    {
      std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
      f.write(data.data(), static_cast<std::streamsize>(data.size()));
      f.flush();
      if (!f)
        throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
    }
    ::chmod(tmp.c_str(), in.at("mode").get<unsigned>() & 0755);
    if (::rename(tmp.c_str(), objectPath(hash).c_str()) != 0) {
      ::unlink(tmp.c_str());
      throw std::runtime_error("cannot store object: " + std::string(std::strerror(errno)));
    }
    return json::object();
  }

  // `stage`: objects linked into a directory of the workdir at their paths.
  json stage(const json &in) {
    std::string dir = in.at("dir").get<std::string>();
    if (!containedPath(dir))
      throw std::runtime_error("a staging directory outside the workdir: '" + dir + "'");
    fs::path root = fs::path(workdir) / dir;
    fs::create_directories(root);
    for (const auto &f : in.at("files")) {
      std::string rel = f.at("path").get<std::string>();
      if (!containedPath(rel))
        throw std::runtime_error("a staged path outside its directory: '" + rel + "'");
      fs::path to = root / rel;
      fs::create_directories(to.parent_path());
      std::error_code ec;
      fs::remove(to, ec);
      std::string hash = f.at("hash").get<std::string>();
      if (!isDigest(hash))
        throw std::runtime_error("not a sha256 digest: '" + hash + "'");
      std::string from = objectPath(hash);
      fs::create_hard_link(from, to, ec);
      if (ec)
        fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    }
    return json{{"dir", root.string()}};
  }

  // `fresh`: an empty directory for a build.
  json fresh(const json &in) {
    std::string root = inWorkdir(in.at("dir").get<std::string>());
    fs::remove_all(root); // a lost build's leftovers, never the host's files
    fs::create_directories(root);
    return json{{"dir", root}};
  }

  // `fetch`: a file a build made, back to the host (bytes, digest, mode).
  json fetch(const json &in) {
    std::string path = inWorkdir(in.at("path").get<std::string>());
    const std::optional<std::string> data = alea::readFile(path);
    if (!data)
      throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
    struct stat st{};
    unsigned mode = ::stat(path.c_str(), &st) == 0 ? st.st_mode & 0777 : 0644;
    std::string hash = sha256Hex(*data);
    // Kept as an object too: executions staged here later need not ship it.
    std::error_code ec;
    if (!fs::exists(objectPath(hash), ec))
      fs::create_hard_link(path, objectPath(hash), ec);
    return json{{"data", *data}, {"hash", hash}, {"mode", mode}};
  }

  // `libs`: the shared libraries each executable lacks here (ldd's "not found").
  json libs(const json &in) {
    json missing = json::object();
    for (const auto &p : in.at("paths")) {
      ExecutionRequest r;
      r.argv = {"ldd", p.get<std::string>()};
      r.env = processEnvironment();
      r.timeoutSeconds = 60;
      ExecutionResult res = executor.run(r);
      std::vector<std::string> libs;
      std::istringstream lines(res.output.stdoutText);
      for (std::string line; std::getline(lines, line);)
        if (auto at = line.find("=> not found"); at != std::string::npos) {
          std::size_t b = line.find_first_not_of(" \t");
          libs.push_back(line.substr(b, line.find(' ', b) - b));
        }
      if (!libs.empty())
        missing[p.get<std::string>()] = libs;
    }
    return json{{"missing", missing}};
  }

  // `machine`: this machine's state, read now.
  json readMachine(const json &) {
    machine = readMachineState({});
    return machineToJson(*machine);
  }

  // `block`: a block of executions (their output streamed as they run), the
  // results and the machine state.
  json block(const json &in) {
    std::vector<ExecutionRequest> requests;
    std::vector<std::unique_ptr<ChunkSink>> sinks;
    for (const auto &r : in.at("requests")) {
      requests.push_back(requestFromJson(r));
      requests.back().cancel = &cancel;
      if (r.at("sink").get<bool>()) {
        sinks.push_back(std::make_unique<ChunkSink>());
        sinks.back()->helper = this;
        sinks.back()->index = requests.size() - 1;
        requests.back().sink = sinks.back().get();
      }
    }
    BlockResult block = executor.runBlock(requests, blockOptionsFromJson(in.at("options")));
    json results = json::array();
    for (const auto &r : block.results)
      results.push_back(resultToJson(r));
    // Re-read at most once a second, as a local campaign does (the cheap
    // fields cost ~30 us, a tenth of the helper's time on 1 ms programs).
    auto nowTime = std::chrono::steady_clock::now();
    if (!machine)
      machine = readMachineState({});
    else if (nowTime - lastRecheck >= std::chrono::seconds(1)) {
      machine = recheckMachineState(*machine);
      lastRecheck = nowTime;
    }
    json out{
        {"results", results}, {"cancelled", block.cancelled}, {"machine", machineToJson(*machine)}};
    if (block.gate)
      out["gate"] = json{{"waited", block.gate->waited},
                         {"lastLoad", block.gate->lastLoad},
                         {"ranBusy", block.gate->ranBusy}};
    return out;
  }

  // One request: its reply frame's tag and payload.
  json handle(const std::string &tag, const json &in, std::string &replyTag) {
    struct Route {
      std::string_view tag, reply;
      json (Helper::*handler)(const json &);
    };
    static constexpr Route kRoutes[] = {
        {"hello", "hello", &Helper::hello},  {"have", "missing", &Helper::have},
        {"put", "ok", &Helper::put},         {"stage", "staged", &Helper::stage},
        {"fresh", "staged", &Helper::fresh}, {"fetch", "file", &Helper::fetch},
        {"libs", "libs", &Helper::libs},     {"machine", "machine", &Helper::readMachine},
        {"block", "done", &Helper::block}};
    for (const Route &r : kRoutes)
      if (tag == r.tag) {
        replyTag = r.reply;
        return (this->*r.handler)(in);
      }
    throw std::runtime_error("unknown request '" + tag + "'");
  }
};

} // namespace

extern "C" void onInterruptSignal(int) {}

int serveTarget(int in, int out, const std::string &workdirArg) {
  std::signal(SIGPIPE, SIG_IGN);
  struct sigaction sa{};
  sa.sa_handler = onInterruptSignal; // no SA_RESTART: poll returns EINTR
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGUSR1, &sa, nullptr);
  std::error_code ec;
  // A workdir it creates is private to the user (0700); an existing one keeps
  // its mode (the user chose it). Files inside take the benchmarks' umask.
  bool existed = fs::exists(workdirArg, ec);
  fs::create_directories(fs::path(workdirArg) / "objects", ec);
  if (ec) {
    std::fprintf(stderr, "alea __target: cannot create %s: %s\n", workdirArg.c_str(),
                 ec.message().c_str());
    return 1;
  }
  if (!existed)
    ::chmod(workdirArg.c_str(), 0700);
  Helper helper;
  helper.out = out;
  helper.workdir = fs::canonical(workdirArg, ec).string();
  std::thread reader([&] { helper.reader(in); });
  int status = 0;
  while (auto frame = helper.nextFrame()) {
    if (frame->tag == "bye")
      break;
    std::string replyTag;
    json reply;
    try {
      json payload = frame->payload.empty() ? json::object() : json::from_msgpack(frame->payload);
      reply = helper.handle(frame->tag, payload, replyTag);
    } catch (const std::exception &e) {
      replyTag = "error";
      reply = json{{"message", e.what()}};
    }
    helper.emit(replyTag, reply);
    if (helper.outBroken) {
      status = 1;
      break;
    }
  }
  // The reader ends with the input (the host closes it after bye, or is gone).
  ::close(out);
  reader.join();
  return status;
}

// ---- the host side ----------------------------------------------------------

TargetSession::TargetSession(std::vector<std::string> command, std::string logPath)
    : command_(std::move(command)), logPath_(std::move(logPath)) {}

TargetSession::~TargetSession() { stop(); }

void TargetSession::broken(const std::string &why) {
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int st = 0;
    while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
  }
  if (toChild_ >= 0)
    ::close(toChild_);
  if (fromChild_ >= 0)
    ::close(fromChild_);
  pid_ = toChild_ = fromChild_ = -1;
  reader_ = FrameReader();
  // The last line the helper's side wrote (ssh's own errors: "Connection
  // closed", "Host key verification failed") says more than a broken pipe.
  std::string last;
  if (std::ifstream log{logPath_}) {
    for (std::string line; std::getline(log, line);) {
      while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.pop_back();
      if (!line.empty())
        last = line;
    }
  }
  lostReason_ = why + (last.empty() ? "" : " (" + last + ")");
}

void TargetSession::stop() {
  if (pid_ <= 0)
    return;
  writeAll(toChild_, encodeFrame("bye", std::string_view()));
  ::close(toChild_);
  toChild_ = -1;
  // Wait for the helper to go (its stream ends; srun also ends its job), at
  // most ~30 s, then kill it.
  for (int i = 0; i < 3000; ++i) {
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      pid_ = -1;
      break;
    }
    ::usleep(10000);
  }
  if (pid_ > 0)
    broken("stopped");
  if (fromChild_ >= 0)
    ::close(fromChild_);
  fromChild_ = -1;
  pid_ = -1;
}

Status TargetSession::start(const std::atomic<bool> *cancel) {
  if (pid_ > 0)
    return {};
  // A session whose process died must fail a write with EPIPE, not kill alea
  // with SIGPIPE. (The processes alea starts get SIGPIPE's default back: the
  // local executor resets it, and so does the spawn below.)
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
    return Error{std::string("pipe: ") + std::strerror(errno)};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, logPath_.empty() ? "/dev/null" : logPath_.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group: the terminal's Ctrl-C reaches alea, which cancels
  // the running execution through the session instead of cutting it.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGXFSZ); // ignored by alea (cli/main.cpp)
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char *> argv;
  for (auto &a : command_)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]);
  ::close(out[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    return Error{"cannot start '" + command_[0] + "': " + std::strerror(rc)};
  }
  pid_ = pid;
  toChild_ = in[1];
  fromChild_ = out[0];
  auto hello = call("hello", json::object(), "hello", cancel);
  if (!hello)
    return Error{hello.error()};
  try {
    workdir_ = hello->at("workdir").get<std::string>();
    environment = hello->at("env").get<std::vector<std::string>>();
    jobId = hello->at("job").get<std::string>();
    cpus = hello->at("cpus").get<std::vector<int>>();
  } catch (const json::exception &e) {
    broken(std::string("a malformed hello: ") + e.what());
    return Error{lostReason_};
  }
  return {};
}

Status TargetSession::send(std::string_view tag, const json &payload) {
  if (pid_ <= 0)
    return Error{lostReason_.empty() ? "the session is not started" : lostReason_};
  if (!writeAll(toChild_, encodeFrame(tag, payload))) {
    broken("the session's connection broke while sending");
    return Error{lostReason_};
  }
  return {};
}

Expected<Frame> TargetSession::reply(const std::vector<OutputSink *> &sinks,
                                     const std::atomic<bool> *cancel) {
  bool cancelSent = false;
  char buf[65536];
  for (;;) {
    auto f = reader_.next();
    if (!f) {
      broken("the session sent " + f.error());
      return Error{lostReason_};
    }
    if (*f) {
      Frame &frame = **f;
      char c = frame.tag.empty() ? 0 : frame.tag[0];
      if ((c == 'o' || c == 'e' || c == 'r') && frame.tag.size() > 1 &&
          std::isdigit(static_cast<unsigned char>(frame.tag[1]))) {
        std::size_t i = frame.tag.size() < 8 ? std::stoul(frame.tag.substr(1)) : sinks.size();
        if (i < sinks.size() && sinks[i])
          sinks[i]->write(c == 'o'   ? OutputChannel::Stdout
                          : c == 'e' ? OutputChannel::Stderr
                                     : OutputChannel::Records,
                          frame.payload);
        continue;
      }
      return std::move(frame);
    }
    if (cancel && cancel->load() && sinks.empty()) {
      // Interrupted before the helper answered (srun waiting in the queue,
      // a slow connection): the session is given up.
      broken("interrupted");
      return Error{lostReason_};
    }
    if (cancel && cancel->load() && !cancelSent) {
      cancelSent = true;
      if (!writeAll(toChild_, encodeFrame("cancel", std::string_view()))) {
        broken("the session's connection broke");
        return Error{lostReason_};
      }
    }
    pollfd p{fromChild_, POLLIN, 0};
    int r = ::poll(&p, 1, 100);
    if (r < 0 && errno == EINTR)
      continue;
    if (r == 0)
      continue;
    ssize_t n = ::read(fromChild_, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      broken("the session ended");
      return Error{lostReason_};
    }
    reader_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
  }
}

Expected<json> TargetSession::call(std::string_view tag, const json &payload,
                                   std::string_view expect, const std::atomic<bool> *cancel) {
  if (Status s = send(tag, payload); !s)
    return Error{s.error()};
  auto f = reply({}, cancel);
  if (!f)
    return Error{f.error()};
  auto j = framePayload(*f);
  if (!j) {
    broken(j.error());
    return Error{lostReason_};
  }
  if (f->tag == "error")
    return Error{j->value("message", std::string("the helper failed"))};
  if (f->tag != expect) {
    broken("the session answered '" + f->tag + "' to '" + std::string(tag) + "'");
    return Error{lostReason_};
  }
  return j;
}

ExecutionResult TargetSession::run(const ExecutionRequest &request) {
  return runBlock({request}, {}).results.front();
}

BlockResult TargetSession::runBlock(const std::vector<ExecutionRequest> &requests,
                                    const BlockOptions &options) {
  BlockResult block;
  auto lost = [&](const std::string &why) {
    block.results.assign(requests.size(), ExecutionResult{});
    for (auto &r : block.results) {
      r.lost = true;
      r.lostReason = why;
    }
    return block;
  };
  json reqs = json::array();
  std::vector<OutputSink *> sinks;
  for (const auto &r : requests) {
    reqs.push_back(requestToJson(r));
    sinks.push_back(r.sink);
  }
  if (Status s = send("block", json{{"requests", reqs}, {"options", blockOptionsToJson(options)}});
      !s)
    return lost(s.error());
  auto f = reply(sinks, requests.empty() ? nullptr : requests.front().cancel);
  if (!f)
    return lost(f.error());
  auto j = framePayload(*f);
  if (!j || f->tag != "done") {
    std::string why = !j ? j.error() : j->value("message", "answered '" + f->tag + "'");
    if (f->tag != "error")
      broken(why);
    return lost(why);
  }
  try {
    for (const auto &r : j->at("results"))
      block.results.push_back(resultFromJson(r));
    block.cancelled = j->at("cancelled").get<bool>();
    if (j->contains("gate")) {
      const json &g = j->at("gate");
      block.gate = QuietOutcome{g.at("waited").get<double>(), g.at("lastLoad").get<double>(),
                                g.at("ranBusy").get<bool>(), false};
    }
    if (j->contains("machine"))
      lastMachine = machineFromJson(j->at("machine"));
  } catch (const json::exception &e) {
    broken(std::string("a malformed result: ") + e.what());
    return lost(lostReason_);
  }
  if (block.results.size() != requests.size())
    return lost("the session answered " + std::to_string(block.results.size()) + " results for " +
                std::to_string(requests.size()) + " requests");
  return block;
}

Expected<MachineState> TargetSession::machine() {
  auto j = call("machine", json::object(), "machine");
  if (!j)
    return Error{j.error()};
  try {
    return machineFromJson(*j);
  } catch (const json::exception &e) {
    return Error{std::string("a malformed machine state: ") + e.what()};
  }
}

Expected<std::string> TargetSession::stage(const std::string &dir,
                                           const std::vector<StagedFile> &files) {
  json hashes = json::array();
  for (const auto &f : files)
    hashes.push_back(f.hash);
  auto missing = call("have", json{{"hashes", hashes}}, "missing");
  if (!missing)
    return Error{missing.error()};
  std::set<std::string> need;
  for (const auto &h : missing->at("hashes"))
    need.insert(h.get<std::string>());
  for (const auto &f : files) {
    if (!need.count(f.hash))
      continue;
    need.erase(f.hash);
    const std::optional<std::string> data = alea::readFile(f.localPath);
    if (!data)
      return Error{"cannot read " + f.localPath + " to ship it"};
    auto put = call("put", json{{"hash", f.hash}, {"mode", f.mode}, {"data", *data}}, "ok");
    if (!put)
      return Error{"shipping " + f.path + ": " + put.error()};
  }
  json list = json::array();
  for (const auto &f : files)
    list.push_back(json{{"path", f.path}, {"hash", f.hash}});
  auto staged = call("stage", json{{"dir", dir}, {"files", list}}, "staged");
  if (!staged)
    return Error{staged.error()};
  return staged->at("dir").get<std::string>();
}

Expected<std::string> TargetSession::freshDir(const std::string &dir) {
  auto j = call("fresh", json{{"dir", dir}}, "staged");
  if (!j)
    return Error{j.error()};
  return j->at("dir").get<std::string>();
}

Expected<FetchedFile> TargetSession::fetch(const std::string &path) {
  auto j = call("fetch", json{{"path", path}}, "file");
  if (!j)
    return Error{j.error()};
  FetchedFile f{j->at("data").get<std::string>(), j->at("hash").get<std::string>(),
                j->at("mode").get<unsigned>()};
  // Verified on arrival, as the helper verifies what the host puts.
  if (sha256Hex(f.data) != f.hash)
    return Error{"file " + path + " arrived damaged (its sha256 differs)"};
  return f;
}

Expected<std::map<std::string, std::vector<std::string>>>
TargetSession::missingLibraries(const std::vector<std::string> &paths) {
  auto j = call("libs", json{{"paths", paths}}, "libs");
  if (!j)
    return Error{j.error()};
  std::map<std::string, std::vector<std::string>> out;
  for (const auto &[path, libs] : j->at("missing").items())
    out[path] = libs.get<std::vector<std::string>>();
  return out;
}

} // namespace alea::runner
