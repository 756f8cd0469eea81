// ArtifactStore in a directory: DQ_ARTIFACT_STORE=fs, the default for ./dev up, compose and a
// single node (a volume in compose and Kubernetes). It needs nothing but a file system.
//
// Layout: the object "jobs/a/j/c/issues/000001.zst" is the file
// <root>/jobs/a/j/c/issues/000001.zst. Objects are written to <root>/.tmp/<random> (no key can
// start with '.', so no key meets it), fsynced, then renamed into place and the directory
// fsynced: a reader sees the old object, none, or the whole new one, and an acknowledged put
// survives a crash. A reader keeps its open file while it reads, so a delete or a replace
// during a download does not cut the bytes it is sending.
//
// Several processes may share the directory (a gateway and its workers on one host). Not for
// several hosts: Kubernetes with more than one node uses the s3 store (docs/deploy.md).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "dq/artifact/artifact_store.h"

namespace dq::artifact {

class FsArtifactStore final : public ArtifactStore {
 public:
  // Creates root and root/.tmp when missing. kInternal (naming the path and the reason) when
  // they cannot be created or written.
  static Result<std::unique_ptr<FsArtifactStore>> Open(const std::string& root);

  Status Put(std::string_view key, std::string_view bytes) override;
  Result<std::unique_ptr<ObjectWriter>> OpenWriter(std::string_view key) override;
  Status Get(std::string_view key, ByteRange range, const Sink& sink) override;
  Result<ObjectInfo> Stat(std::string_view key) override;
  Result<int64_t> DeletePrefix(std::string_view prefix) override;
  Result<ListPage> List(std::string_view prefix, std::string_view after, int limit) override;

  // Removes temporary files older than `age` (left by a process that died while writing).
  // Answers how many. Younger ones may belong to a writer still at work.
  Result<int64_t> RemoveTemporaries(std::chrono::seconds age);

  const std::string& root() const { return root_; }

 private:
  friend class FsObjectWriter;
  explicit FsArtifactStore(std::string root) : root_(std::move(root)) {}
  std::string Path(std::string_view key) const { return root_ + "/" + std::string(key); }
  // A new temporary file, open for writing.
  Result<int> CreateTemporary(std::string* path);
  // fsyncs and closes fd, then renames the temporary file to key's path (creating directories).
  // On failure the temporary file is removed.
  Status Publish(int fd, const std::string& temp_path, std::string_view key);

  std::string root_;
};

}  // namespace dq::artifact
