// Progress of a campaign: a bar with the ETA when stderr is a terminal
// (isatty), plain progress lines otherwise (CI logs), nothing in tests. The
// bar shows the builds while they are made, then the executions, and beside
// them an adaptive campaign's current precision against its target.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

namespace alea::runner {

class Progress {
public:
  virtual ~Progress() = default;
  virtual void message(const std::string &line) {}
  // `total` executions planned, `done` finished (this run and earlier runs),
  // `failed` of them failed.
  virtual void start(std::int64_t done, std::int64_t total, std::int64_t failed = 0) {}
  virtual void update(std::int64_t done, std::int64_t total, std::int64_t failed) {}
  virtual void finish() {}
  // The build phase: `done` of the campaign's `total` builds exist (made now
  // or by an earlier run); called before each build made and once at the end.
  virtual void builds(std::int64_t done, std::int64_t total) {}
  // An adaptive campaign after a batch: the widest relative half-width of its
  // ratios (infinity: unknown) and its target (0: only a time budget).
  virtual void precision(double halfWidth, double target) {}
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
  void start(std::int64_t done, std::int64_t total, std::int64_t failed = 0) override;
  void update(std::int64_t done, std::int64_t total, std::int64_t failed) override;
  void finish() override;
  void builds(std::int64_t done, std::int64_t total) override;
  void precision(double halfWidth, double target) override;

private:
  // Draws `line` in place of the bar (terminal only).
  void drawBar(const std::string &line);
  // The bar, "[#####.....] 3/10  30%", and the ETA of the rest at the pace
  // since `since`, of which `ranHere` units went by.
  static std::string bar(std::int64_t done, std::int64_t total);
  std::string eta(std::int64_t done, std::int64_t total, std::int64_t ranHere,
                  std::chrono::steady_clock::time_point since) const;

  std::FILE *out_;
  ProgressClock now_;
  bool tty_;
  bool barShown_ = false;
  std::int64_t startDone_ = 0;
  std::int64_t lastPercentShown_ = -1;
  std::chrono::steady_clock::time_point started_, lastDraw_;
  // The build phase: when its first build started, and how many existed then.
  std::optional<std::chrono::steady_clock::time_point> buildsStarted_;
  std::int64_t buildsAtStart_ = 0;
  std::string precision_; // "  +-4.20% (target +-2.50%)"; "" before the first batch
};

// "1h02m", "3m07s", "12s"
std::string formatDuration(double seconds);

} // namespace alea::runner
