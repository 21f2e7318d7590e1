// Progress display for `alea run` (see progress.hpp).
#include "alea/exec/progress.hpp"

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

void StreamProgress::start(std::int64_t done, std::int64_t total) {
  startDone_ = done;
  started_ = lastDraw_ = now_();
  if (done > 0)
    message("resuming: " + std::to_string(done) + " of " + std::to_string(total) +
            " executions already done");
}

void StreamProgress::update(std::int64_t done, std::int64_t total, std::int64_t failed) {
  auto now = now_();
  double elapsed = std::chrono::duration<double>(now - started_).count();
  std::int64_t ranHere = done - startDone_;
  double eta =
      ranHere > 0 ? elapsed / static_cast<double>(ranHere) * static_cast<double>(total - done) : -1;
  std::int64_t percent = total > 0 ? done * 100 / total : 100;
  if (tty_) {
    if (done != total && now - lastDraw_ < std::chrono::milliseconds(100))
      return;
    lastDraw_ = now;
    const int width = 30;
    int filled = total > 0 ? static_cast<int>(done * width / total) : width;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(out_, "\r\033[K[%s] %lld/%lld %3lld%%  failed %lld  ETA %s", bar.c_str(),
                 static_cast<long long>(done), static_cast<long long>(total),
                 static_cast<long long>(percent), static_cast<long long>(failed),
                 eta < 0 ? "?" : formatDuration(eta).c_str());
    barShown_ = true;
    std::fflush(out_);
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
               static_cast<long long>(percent), static_cast<long long>(failed),
               eta < 0 ? "?" : formatDuration(eta).c_str());
  std::fflush(out_);
}

void StreamProgress::finish() {
  if (barShown_) {
    std::fprintf(out_, "\n");
    barShown_ = false;
    std::fflush(out_);
  }
}

} // namespace alea::runner
