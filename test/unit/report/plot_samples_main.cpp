// report_plot_samples OUTDIR: writes every sample figure (plot_samples.hpp)
// twice, OUTDIR/<name>.svg as a standalone file and OUTDIR/inline/<name>.svg
// as the element the HTML report inlines, for test/e2e's XML and browser checks.
#include "plot_samples.hpp"

#include "alea/report/svg.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: report_plot_samples OUTDIR\n";
    return 2;
  }
  namespace fs = std::filesystem;
  fs::path out = argv[1];
  std::error_code ec;
  fs::create_directories(out / "inline", ec); // a failure shows as a failed write
  auto write = [](const fs::path &path, const std::string &text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    f.close();
    if (f.fail())
      std::cerr << "alea: error: cannot write " << path.string() << "\n";
    return !f.fail();
  };
  auto plots = alea::report::samples::samplePlots();
  for (auto &p : alea::report::samples::degeneratePlots())
    plots.push_back(std::move(p));
  for (const auto &p : plots)
    if (!write(out / (p.name + ".svg"), alea::report::svg::standalone(p.svg)) ||
        !write(out / "inline" / (p.name + ".svg"), p.svg))
      return 1;
  return 0;
}
