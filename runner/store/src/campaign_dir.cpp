// The fixed names of a campaign directory (see campaign_dir.hpp).
#include "alea/store/campaign_dir.hpp"

#include <filesystem>

namespace fs = std::filesystem;

namespace alea::runner {

std::string storePath(const std::string &dir) { return (fs::path(dir) / kStoreFileName).string(); }

std::string resolveStorePath(const std::string &argument) {
  std::error_code ec;
  if (fs::is_directory(argument, ec))
    return storePath(argument);
  return argument;
}

std::string objectPath(const std::string &campaignDir, const std::string &hash) {
  return (fs::path(campaignDir) / "objects" / hash).string();
}

} // namespace alea::runner
