// SHA-256 (FIPS 180-4) for content-addressed build artifacts: the campaign
// directory keeps each artifact once, under objects/<hex digest>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace alea::runner {

class Sha256 {
public:
  Sha256();
  void update(const void *data, std::size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  std::string hexDigest(); // finishes the hash

private:
  void block(const unsigned char *p);
  std::uint32_t h_[8];
  unsigned char buf_[64];
  std::size_t bufLen_ = 0;
  std::uint64_t total_ = 0;
};

std::string sha256Hex(std::string_view data);
// The digest of a file's content, or nullopt when it cannot be read.
std::optional<std::string> sha256File(const std::string &path);

} // namespace alea::runner
