// The settings line of an exported CSV (export_settings.hpp): written by
// exportComment, read back by readExportComment.
#include "alea/model/export_settings.hpp"

#include "alea/records.hpp"

#include <charconv>
#include <cstdio>

namespace alea::model {

namespace {

// %HH for the bytes that would end or split the comment line.
std::string percentEncode(std::string_view v) {
  std::string o;
  for (char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7F || c == '%' || c == '#') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", u);
      o += buf;
    } else {
      o += c;
    }
  }
  return o;
}

std::optional<std::string> percentDecode(std::string_view v) {
  std::string o;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '%') {
      o += v[i];
      continue;
    }
    unsigned byte = 0;
    if (i + 2 >= v.size())
      return std::nullopt;
    auto [p, ec] = std::from_chars(v.data() + i + 1, v.data() + i + 3, byte, 16);
    if (ec != std::errc() || p != v.data() + i + 3)
      return std::nullopt;
    o += static_cast<char>(byte);
    i += 2;
  }
  return o;
}

} // namespace

std::string settingNumber(double v) {
  char num[64];
  auto [end, ec] = std::to_chars(num, num + sizeof num, v);
  return std::string(num, end);
}

std::string exportComment(const ExportSettings &s) {
  std::string o(kExportCommentTag);
  if (!s.design.empty())
    o += " design=" + percentEncode(s.design);
  if (s.threshold)
    o += " threshold=" + settingNumber(*s.threshold);
  if (s.confidence)
    o += " confidence=" + settingNumber(*s.confidence);
  if (!s.baseline.empty())
    o += " baseline=" + percentEncode(s.baseline);
  return o;
}

Expected<std::optional<ExportSettings>>
readExportComment(const std::vector<std::string> &comments) {
  for (const std::string &c : comments) {
    if (!std::string_view(c).starts_with(kExportCommentTag))
      continue;
    ExportSettings s;
    std::string_view rest = std::string_view(c).substr(kExportCommentTag.size());
    while (!rest.empty()) {
      const std::size_t start = rest.find_first_not_of(' ');
      if (start == std::string_view::npos)
        break;
      rest.remove_prefix(start);
      const std::size_t end = std::min(rest.find(' '), rest.size());
      const std::string_view item = rest.substr(0, end);
      rest.remove_prefix(end);
      const std::size_t eq = item.find('=');
      if (eq == std::string_view::npos)
        return Error{"'#" + c + "': expected key=value, not '" + std::string(item) + "'"};
      const std::string_view key = item.substr(0, eq);
      const auto value = percentDecode(item.substr(eq + 1));
      if (!value)
        return Error{"'#" + c + "': bad %-escape in '" + std::string(item) + "'"};
      // A threshold in [0, 1), a confidence in (0, 1).
      auto fraction = [&](std::optional<double> &into, bool zero) -> Status {
        double v = 0;
        auto [p, ec] = std::from_chars(value->data(), value->data() + value->size(), v);
        if (ec != std::errc() || p != value->data() + value->size() ||
            !((zero ? v >= 0 : v > 0) && v < 1))
          return Error{"'#" + c + "': " + std::string(key) + " '" + *value +
                       "' is not a fraction in " + (zero ? "[0, 1)" : "(0, 1)")};
        into = v;
        return {};
      };
      if (key == "design") {
        if (!parseEnum<Design>(*value))
          return Error{"'#" + c + "': unknown design '" + *value + "'"};
        s.design = *value;
      } else if (key == "threshold") {
        if (Status st = fraction(s.threshold, true); !st)
          return Error{st.error()};
      } else if (key == "confidence") {
        if (Status st = fraction(s.confidence, false); !st)
          return Error{st.error()};
      } else if (key == "baseline") {
        s.baseline = *value;
      }
    }
    return std::optional<ExportSettings>(std::move(s));
  }
  return std::optional<ExportSettings>();
}

} // namespace alea::model
