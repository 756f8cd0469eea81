#include "dq/artifact/artifact_store.h"

namespace dq::artifact {

Result<std::string> ArtifactStore::GetAll(std::string_view key, int64_t max_bytes) {
  std::string out;
  Status s = Get(key, ByteRange::All(), [&](std::string_view bytes) {
    if (static_cast<int64_t>(out.size() + bytes.size()) > max_bytes) {
      return Status(ErrorCode::kInternal, "object " + std::string(key) + " is larger than " +
                                              std::to_string(max_bytes) + " bytes");
    }
    out.append(bytes);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Result<std::vector<ObjectInfo>> ArtifactStore::ListAll(std::string_view prefix) {
  std::vector<ObjectInfo> all;
  std::string after;
  for (;;) {
    auto page = List(prefix, after, 1000);
    if (!page.ok()) return page.status();
    for (auto& object : page->objects) all.push_back(std::move(object));
    if (!page->truncated || all.empty()) break;
    after = all.back().key;
  }
  return all;
}

}  // namespace dq::artifact
