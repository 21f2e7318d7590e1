// Helpers shared by the runner's unit tests: a fresh temporary directory that
// is removed at the end of the test.
#pragma once

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

} // namespace alea::runner::test
