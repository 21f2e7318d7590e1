// Where a rendered report goes (render.hpp writeReport): standard output or a
// file, and each figure as a standalone SVG file in a directory (--plots).
#include "phrases.hpp"

#include "alea/report/svg.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace alea::report {

namespace {

alea::Status writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out)
    out << text;
  out.close();
  if (!out)
    return alea::Error{"cannot write " + path + ": " + std::strerror(errno)};
  return {};
}

} // namespace

alea::Status writeReport(const model::CampaignReport &report, Format format,
                         const std::string &output, const std::string &plotsDir) {
  const std::string text = render(report, format);
  if (output.empty() || output == "-") {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
  } else if (auto s = writeFile(output, text); !s) {
    return s;
  }
  if (plotsDir.empty())
    return {};
  std::error_code ec;
  std::filesystem::create_directories(plotsDir, ec);
  if (ec)
    return alea::Error{"cannot create " + plotsDir + ": " + ec.message()};
  for (const Figure &f : figures(report))
    if (auto s = writeFile((std::filesystem::path(plotsDir) / (f.id + ".svg")).string(),
                           svg::standalone(f.svg));
        !s)
      return s;
  return {};
}

} // namespace alea::report
