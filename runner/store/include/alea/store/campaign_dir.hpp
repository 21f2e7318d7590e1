// The fixed names of a campaign directory (`alea run --dir`): its store,
// `campaign.db`, and the content-addressed snapshots of its build artifacts,
// `objects/<sha256>`. One definition, read by the campaign loop, the builder,
// the targets that stage builds, the report and `alea import`/`export`.
#pragma once

#include <string>

namespace alea::runner {

// The store's file name inside a campaign directory.
inline constexpr const char *kStoreFileName = "campaign.db";

// The store of the campaign directory `dir`.
std::string storePath(const std::string &dir);

// A store argument of `alea import`, `export` or `report`: a campaign
// directory names its store, anything else is the store file itself.
std::string resolveStorePath(const std::string &argument);

// Path of an artifact's snapshot.
std::string objectPath(const std::string &campaignDir, const std::string &hash);

} // namespace alea::runner
