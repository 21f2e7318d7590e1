// The Records source (see measure.hpp and docs/measure.md): decoding the
// fixed-size little-endian records that <alea/iter.h> writes, one write(2) per
// record, to the pipe named by ALEA_ITER_FD. A record is smaller than PIPE_BUF,
// so concurrent writers never interleave inside one; a program killed in the
// middle of a write leaves a short tail, reported as "truncated record".
#include "alea/runner/measure.hpp"

#include <map>

namespace alea::runner {

namespace {

std::uint64_t loadLE(std::string_view bytes, std::size_t offset, int width) {
  std::uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(bytes[offset + i]);
  return v;
}

void storeLE(std::string &out, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

} // namespace

std::string iter::encode(const Record &record) {
  std::string out;
  out.reserve(kRecordSize);
  storeLE(out, kMagic, 4);
  storeLE(out, kVersion, 2);
  storeLE(out, static_cast<std::uint16_t>(record.kind), 2);
  storeLE(out, record.index, 8);
  storeLE(out, record.nanoseconds, 8);
  return out;
}

Extraction parseRecords(std::string_view bytes) {
  using namespace iter;
  Extraction ex;
  std::map<std::uint64_t, std::uint64_t> open; // iteration index -> begin ns
  auto failAt = [&](std::size_t offset, std::string what) {
    return Extraction{{}, what + " at byte " + std::to_string(offset)};
  };
  std::size_t offset = 0;
  for (; offset + kRecordSize <= bytes.size(); offset += kRecordSize) {
    if (loadLE(bytes, offset, 4) != kMagic)
      return failAt(offset, "bad record magic (not an <alea/iter.h> record)");
    const auto version = loadLE(bytes, offset + 4, 2);
    if (version != kVersion)
      return failAt(offset,
                    "unsupported record version " + std::to_string(version));
    const auto kind = loadLE(bytes, offset + 6, 2);
    const std::uint64_t index = loadLE(bytes, offset + 8, 8);
    const std::uint64_t ns = loadLE(bytes, offset + 16, 8);
    switch (static_cast<Kind>(kind)) {
    case Kind::Begin:
      if (!open.emplace(index, ns).second)
        return failAt(offset,
                      "iteration " + std::to_string(index) + " began twice");
      break;
    case Kind::End: {
      auto it = open.find(index);
      if (it == open.end())
        return failAt(offset, "iteration " + std::to_string(index) +
                                  " ended without beginning");
      if (ns <= it->second)
        return failAt(offset, "iteration " + std::to_string(index) +
                                  " has a non-positive duration");
      ex.values.push_back(static_cast<double>(ns - it->second) * 1e-9);
      open.erase(it);
      break;
    }
    case Kind::Duration:
      if (ns == 0)
        return failAt(offset, "iteration " + std::to_string(index) +
                                  " has a zero duration");
      ex.values.push_back(static_cast<double>(ns) * 1e-9);
      break;
    default:
      return failAt(offset, "unknown record kind " + std::to_string(kind));
    }
  }
  if (offset != bytes.size())
    return failAt(offset, "truncated record (" +
                              std::to_string(bytes.size() - offset) + " of " +
                              std::to_string(kRecordSize) + " bytes)");
  if (!open.empty())
    return {{},
            "iteration " + std::to_string(open.begin()->first) +
                " began but never ended"};
  if (ex.values.empty())
    return {{},
            "no iteration matched: the program wrote no <alea/iter.h> "
            "record (is ALEA_ITER_FD passed through?)"};
  return ex;
}

} // namespace alea::runner
