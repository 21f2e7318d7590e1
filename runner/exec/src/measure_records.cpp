// The Records source (see measure.hpp and docs/measure.md): decoding the
// fixed-size little-endian records that <alea/iter.h> writes, one write(2) per
// record, to the pipe named by ALEA_ITER_FD. A record is smaller than PIPE_BUF,
// so concurrent writers never interleave inside one; a program killed in the
// middle of a write leaves a short tail, reported as "truncated record".
#include "alea/exec/measure.hpp"

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

void RecordDecoder::feed(std::string_view bytes) {
  using namespace iter;
  if (!error_.empty())
    return;
  auto failAt = [&](std::string what) { error_ = what + " at byte " + std::to_string(offset_); };
  // Complete the record begun in an earlier chunk, then decode in place.
  std::string joined;
  if (!partial_.empty()) {
    std::size_t need = kRecordSize - partial_.size();
    if (bytes.size() < need) {
      partial_.append(bytes);
      return;
    }
    joined = partial_;
    joined.append(bytes.substr(0, need));
    bytes.remove_prefix(need);
    partial_.clear();
  }
  auto decode = [&](std::string_view rec) {
    if (loadLE(rec, 0, 4) != kMagic)
      return failAt("bad record magic (not an <alea/iter.h> record)");
    const auto version = loadLE(rec, 4, 2);
    if (version != kVersion)
      return failAt("unsupported record version " + std::to_string(version));
    const auto kind = loadLE(rec, 6, 2);
    const std::uint64_t index = loadLE(rec, 8, 8);
    const std::uint64_t ns = loadLE(rec, 16, 8);
    switch (static_cast<Kind>(kind)) {
    case Kind::Begin:
      if (!open_.emplace(index, ns).second)
        return failAt("iteration " + std::to_string(index) + " began twice");
      break;
    case Kind::End: {
      auto it = open_.find(index);
      if (it == open_.end())
        return failAt("iteration " + std::to_string(index) + " ended without beginning");
      if (ns <= it->second)
        return failAt("iteration " + std::to_string(index) + " has a non-positive duration");
      values_.push_back(static_cast<double>(ns - it->second) * 1e-9);
      open_.erase(it);
      break;
    }
    case Kind::Duration:
      if (ns == 0)
        return failAt("iteration " + std::to_string(index) + " has a zero duration");
      values_.push_back(static_cast<double>(ns) * 1e-9);
      break;
    case Kind::Barrier: // the duet's (duet.hpp): not a measurement
      break;
    default:
      return failAt("unknown record kind " + std::to_string(kind));
    }
    offset_ += kRecordSize;
  };
  if (!joined.empty())
    decode(joined);
  while (error_.empty() && bytes.size() >= kRecordSize) {
    decode(bytes.substr(0, kRecordSize));
    bytes.remove_prefix(kRecordSize);
  }
  if (error_.empty())
    partial_.assign(bytes);
}

Extraction RecordDecoder::finish() {
  if (!error_.empty())
    return {{}, error_};
  if (!partial_.empty())
    return {{},
            "truncated record (" + std::to_string(partial_.size()) + " of " +
                std::to_string(iter::kRecordSize) + " bytes) at byte " + std::to_string(offset_)};
  if (!open_.empty())
    return {{}, "iteration " + std::to_string(open_.begin()->first) + " began but never ended"};
  if (values_.empty())
    return {{},
            "no iteration matched: the program wrote no <alea/iter.h> "
            "record (is ALEA_ITER_FD passed through?)"};
  return {values_, {}};
}

Extraction parseRecords(std::string_view bytes) {
  RecordDecoder decoder;
  decoder.feed(bytes);
  return decoder.finish();
}

} // namespace alea::runner
