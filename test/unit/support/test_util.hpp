// Helpers shared by the runner's unit tests: a fresh temporary directory that
// is removed at the end of the test, and a wait for an event.
#pragma once

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace alea::runner::test {

class TempDir {
public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "alea-runner-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  std::string write(const std::string &name, const std::string &content) const {
    std::ofstream(file(name), std::ios::binary) << content;
    return file(name);
  }

private:
  std::string path_;
};

// Waits until `happened()` is true, looking every 10 ms; false if it is still
// false after `safetySeconds`. The event decides the outcome: the limit only
// ends the wait for an event that never comes (a bug), and is far beyond what
// the slowest, busiest machine needs.
template <class Event> bool waitFor(Event happened, double safetySeconds = 120) {
  const auto giveUp = std::chrono::steady_clock::now() +
                      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                          std::chrono::duration<double>(safetySeconds));
  while (!happened()) {
    if (std::chrono::steady_clock::now() >= giveUp)
      return happened();
    ::usleep(10000);
  }
  return true;
}

} // namespace alea::runner::test
