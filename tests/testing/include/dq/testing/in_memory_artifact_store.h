// InMemoryArtifactStore: the ArtifactStore fake, with the same contract as the fs and S3 stores
// (tests/unit/artifact/store_contract.h runs one suite against all three): keys checked by
// ValidateKey, objects visible whole at Put or Commit, ranges cut at the end, listings in byte
// order, DeletePrefix only on a prefix ending with '/'.
//
// Fault injection: every operation counts as one step of the shared FaultPlan (job_fakes.h's
// fakes count theirs in the same plan), named "artifact.put", "artifact.write",
// "artifact.commit", "artifact.get", "artifact.stat", "artifact.delete" and "artifact.list".
// Failing before means nothing happened; failing after means it happened and only the answer
// was lost (a Get has then delivered its bytes to the sink before it fails).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "dq/artifact/artifact_store.h"
#include "dq/testing/fault_plan.h"

namespace dq::testing {

class InMemoryArtifactStore final : public artifact::ArtifactStore {
 public:
  explicit InMemoryArtifactStore(FaultPlan* faults = nullptr) : faults_(faults) {}

  Status Put(std::string_view key, std::string_view bytes) override;
  Result<std::unique_ptr<artifact::ObjectWriter>> OpenWriter(std::string_view key) override;
  Status Get(std::string_view key, artifact::ByteRange range,
             const artifact::Sink& sink) override;
  Result<artifact::ObjectInfo> Stat(std::string_view key) override;
  Result<int64_t> DeletePrefix(std::string_view prefix) override;
  Result<artifact::ListPage> List(std::string_view prefix, std::string_view after,
                                  int limit) override;

  // Test access.
  void set_down(bool down);            // every call fails with kUnavailable while down
  std::map<std::string, std::string> objects();  // a copy of every object, by key
  int64_t bytes_stored();              // the sum of the objects' sizes
  int open_writers();                  // writers neither committed nor aborted
  // Objects written from now on get this time as `modified` (0, the default: the real clock).
  void set_now(int64_t unix_seconds);

 private:
  friend class InMemoryObjectWriter;
  // kUnavailable now (down, or the plan fails this step before it acts); *after says the plan
  // fails it after it acts. Call with mu_ held.
  bool FailBefore(const std::string& step, bool* after);

  FaultPlan* faults_;
  std::mutex mu_;
  bool down_ = false;
  int open_writers_ = 0;
  struct Object {
    std::shared_ptr<const std::string> bytes;
    int64_t modified = 0;
  };
  int64_t Now() const;
  int64_t now_ = 0;
  std::map<std::string, Object> objects_;
};

}  // namespace dq::testing
