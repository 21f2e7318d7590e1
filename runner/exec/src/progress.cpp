// Progress display for `alea run` (see progress.hpp).
#include "alea/exec/progress.hpp"

#include <cmath>
#include <unistd.h>
#include <utility>

namespace alea::runner {

std::string formatDuration(double s) {
  if (!(s >= 0) || s > 1e7)
    return "?";
  long t = static_cast<long>(s + 0.5);
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
  else if (t >= 60)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%lds", t);
  return buf;
}

StreamProgress::StreamProgress(std::FILE *out, ProgressClock now)
    : out_(out), now_(std::move(now)), tty_(::isatty(fileno(out)) != 0) {}

void StreamProgress::message(const std::string &line) {
  if (barShown_) {
    std::fprintf(out_, "\r\033[K");
    barShown_ = false;
  }
  std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
}

void StreamProgress::start(std::int64_t done, std::int64_t total, std::int64_t failed) {
  startDone_ = done;
  started_ = lastDraw_ = now_();
  if (done > 0)
    message("resuming: " + std::to_string(done) + " of " + std::to_string(total) +
            " executions already done");
  // On a terminal the bar stands from the start, so that a first execution
  // that takes long is not a blank line.
  if (tty_)
    drawBar(bar(done, total) + "  failed " + std::to_string(failed) + "  ETA ?" + precision_);
}

std::string StreamProgress::bar(std::int64_t done, std::int64_t total) {
  const int width = 30;
  int filled = total > 0 ? static_cast<int>(done * width / total) : width;
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(width, '.');
  char counts[64];
  std::snprintf(counts, sizeof counts, "] %lld/%lld %3lld%%", static_cast<long long>(done),
                static_cast<long long>(total),
                static_cast<long long>(total > 0 ? done * 100 / total : 100));
  return "[" + bar + counts;
}

std::string StreamProgress::eta(std::int64_t done, std::int64_t total, std::int64_t ranHere,
                                std::chrono::steady_clock::time_point since) const {
  if (ranHere <= 0)
    return "?";
  double elapsed = std::chrono::duration<double>(now_() - since).count();
  return formatDuration(elapsed / static_cast<double>(ranHere) * static_cast<double>(total - done));
}

void StreamProgress::drawBar(const std::string &line) {
  std::fprintf(out_, "\r\033[K%s", line.c_str());
  barShown_ = true;
  std::fflush(out_);
}

void StreamProgress::update(std::int64_t done, std::int64_t total, std::int64_t failed) {
  auto now = now_();
  const std::string left = eta(done, total, done - startDone_, started_);
  std::int64_t percent = total > 0 ? done * 100 / total : 100;
  if (tty_) {
    if (done != total && now - lastDraw_ < std::chrono::milliseconds(100))
      return;
    lastDraw_ = now;
    drawBar(bar(done, total) + "  failed " + std::to_string(failed) + "  ETA " + left + precision_);
    return;
  }
  // Plain lines: every 10% step, or every 10 s, and at the end.
  bool step = percent / 10 != lastPercentShown_ / 10;
  if (!step && done != total && now - lastDraw_ < std::chrono::seconds(10))
    return;
  if (done == total && lastPercentShown_ == 100)
    return;
  lastPercentShown_ = percent;
  lastDraw_ = now;
  std::fprintf(out_, "progress: %lld/%lld executions (%lld%%), %lld failed, ETA %s\n",
               static_cast<long long>(done), static_cast<long long>(total),
               static_cast<long long>(percent), static_cast<long long>(failed), left.c_str());
  std::fflush(out_);
}

void StreamProgress::builds(std::int64_t done, std::int64_t total) {
  // Plain output names every build already ("building base #3 ..."): the
  // bar is for a terminal only.
  if (!tty_ || total <= 0)
    return;
  const auto now = now_();
  if (!buildsStarted_) {
    buildsStarted_ = now;
    buildsAtStart_ = done;
  }
  if (done >= total) { // the phase is over: the executions' bar takes its place
    if (barShown_) {
      std::fprintf(out_, "\r\033[K");
      barShown_ = false;
      std::fflush(out_);
    }
    buildsStarted_.reset();
    return;
  }
  drawBar(bar(done, total) + "  builds  ETA " +
          eta(done, total, done - buildsAtStart_, *buildsStarted_));
}

void StreamProgress::precision(double halfWidth, double target) {
  char buf[96];
  if (!std::isfinite(halfWidth))
    std::snprintf(buf, sizeof buf, "  +-?");
  else
    std::snprintf(buf, sizeof buf, "  +-%.2f%%", 100 * halfWidth);
  precision_ = buf;
  if (target > 0) {
    std::snprintf(buf, sizeof buf, " (target +-%.2f%%)", 100 * target);
    precision_ += buf;
  }
}

void StreamProgress::finish() {
  if (barShown_) {
    std::fprintf(out_, "\n");
    barShown_ = false;
    std::fflush(out_);
  }
}

} // namespace alea::runner
