// Progress of a campaign: a bar with the ETA when stderr is a terminal
// (isatty), plain progress lines otherwise (CI logs), nothing in tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace alea::runner {

class Progress {
public:
  virtual ~Progress() = default;
  virtual void message(const std::string &line) {}
  // `total` executions planned, `done` finished (this run and earlier runs).
  virtual void start(std::int64_t done, std::int64_t total) {}
  virtual void update(std::int64_t done, std::int64_t total, std::int64_t failed) {}
  virtual void finish() {}
};

class NullProgress final : public Progress {};

// The clock the display reads for its throttle and its ETA: steady_clock in
// `alea run`, a fake in tests (what is drawn must not depend on their speed).
using ProgressClock = std::function<std::chrono::steady_clock::time_point()>;

// Writes to `out` (stderr by default); a bar if `out` is a terminal.
class StreamProgress final : public Progress {
public:
  explicit StreamProgress(std::FILE *out = stderr,
                          ProgressClock now = &std::chrono::steady_clock::now);
  void message(const std::string &line) override;
  void start(std::int64_t done, std::int64_t total) override;
  void update(std::int64_t done, std::int64_t total, std::int64_t failed) override;
  void finish() override;

private:
  std::FILE *out_;
  ProgressClock now_;
  bool tty_;
  bool barShown_ = false;
  std::int64_t startDone_ = 0;
  std::int64_t lastPercentShown_ = -1;
  std::chrono::steady_clock::time_point started_, lastDraw_;
};

// "1h02m", "3m07s", "12s"
std::string formatDuration(double seconds);

} // namespace alea::runner
