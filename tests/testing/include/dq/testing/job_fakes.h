// In-memory stand-ins for the job path's interfaces: InMemoryJobStore, InMemoryJobQueue,
// FakeValidatorStreamFactory and RecordingEventPublisher, with the same contracts (fencing,
// atomic steps, refunds) as the Redis and gRPC implementations.
//
// Fault injection: every operation of every fake sharing one FaultPlan counts as one step. With
// fail_at = N, step N fails with kUnavailable, either before it takes effect or after it (the
// reply was lost), so a test can run a job once per N and cover every step.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "dq/testing/fault_plan.h"
#include "jobs/event_publisher.h"
#include "jobs/job_queue.h"
#include "jobs/job_store.h"
#include "dq/report/validator_stream.h"

namespace dq::testing {

class InMemoryJobStore final : public gateway::JobStore {
 public:
  explicit InMemoryJobStore(FaultPlan* faults = nullptr) : faults_(faults) {}

  Status Create(const gateway::Job& job, gateway::UploadPieces& pieces) override;
  Status Accept(const gateway::Job& job) override;
  Status Abandon(const gateway::Job& job) override;
  Result<std::optional<gateway::Job>> Get(std::string_view account_id,
                                          std::string_view id) override;
  Result<std::vector<gateway::Job>> List(std::string_view account_id, int limit) override;
  Result<std::vector<gateway::Job>> ListBefore(std::string_view account_id, int64_t before_ms,
                                               int limit) override;
  Result<std::vector<gateway::Job>> Query(std::string_view account_id,
                                          const gateway::JobQuery& query) override;
  Status KeepUpload(const gateway::KeptUpload& upload, std::string_view file) override;
  Result<std::optional<std::pair<gateway::KeptUpload, std::string>>> KeptUploadFile(
      std::string_view account_id, std::string_view id) override;
  Status DropKeptUpload(std::string_view account_id, std::string_view id) override;
  Result<bool> Delete(std::string_view account_id, std::string_view id) override;
  Result<std::vector<std::string>> Issues(const gateway::Job& job, int64_t offset,
                                          int64_t count) override;
  Result<std::optional<std::string>> FixesPiece(const gateway::Job& job, int64_t index) override;
  Result<std::optional<std::string>> CleanedPiece(const gateway::Job& job, int64_t index) override;
  Result<std::string> Summary(const gateway::Job& job) override;
  Result<gateway::IdempotencyRecord> ClaimIdempotencyKey(std::string_view account_id,
                                                         std::string_view key,
                                                         std::string_view body_hash,
                                                         std::string_view job_id) override;
  Status ReleaseIdempotencyKey(std::string_view account_id, std::string_view key,
                               std::string_view body_hash, std::string_view job_id) override;
  Result<gateway::Claim> ClaimJob(std::string_view account_id, std::string_view id,
                                  std::string_view started_at) override;
  Result<std::string> FilePiece(const gateway::Job& job, int64_t index) override;
  Status Write(const gateway::Job& job, const gateway::JobWrite& write) override;
  Status WriteCleanedPiece(const gateway::Job& job, std::string_view piece) override;
  Status Finish(const gateway::Job& job, const gateway::JobWrite& write,
                const gateway::JobEnd& end) override;
  Status Postpone(const gateway::Job& job) override;
  Status MarkPublished(const gateway::Job& job) override;

  // Test access.
  std::optional<gateway::Job> job(const std::string& id);
  int64_t refunded_records() { return refunded_; }  // quota given back, all jobs
  size_t keys_of(const std::string& id);           // stored parts of the job (0 when deleted)
  void set_down(bool down) { down_ = down; }
  // A Redis failover that lost the job's last claim (replication is asynchronous): `attempts`
  // and `claim_id` go back to what they were before it. The next claim then counts the same
  // attempt number again, with a new claim id.
  void LoseLastClaim(const std::string& id);
  // Makes the job one finished by an earlier version (cleaned_from ""), whose cleaned file is
  // stored whole, and appends a piece of that file.
  void add_stored_cleaned_piece(const std::string& id, std::string piece);

 private:
  struct Stored {
    gateway::Job job;
    std::vector<std::string> file, issues, fixes, cleaned;
    std::string summary;
  };
  // kUnavailable when down, or when this is the step the plan fails (before it acts).
  bool FailBefore(const std::string& step);
  // The plan's "applied, answer lost" failure.
  Status After(Status s);
  Status Fence(const gateway::Job& job, Stored** out);
  Status Apply(const gateway::Job& job, const gateway::JobWrite& w, const gateway::JobEnd* end);

  FaultPlan* faults_;
  bool down_ = false;
  bool fail_after_ = false;
  std::mutex mu_;
  std::map<std::string, Stored> jobs_;
  std::map<std::string, std::string> idempotency_;
  std::map<std::string, std::pair<gateway::KeptUpload, std::string>> kept_;  // by account/id
  int64_t refunded_ = 0;
  int64_t claims_ = 0;
  std::map<std::string, std::string> previous_claim_;  // job key -> claim id before the last
};

class InMemoryJobQueue final : public gateway::JobQueue {
 public:
  explicit InMemoryJobQueue(FaultPlan* faults = nullptr) : faults_(faults) {}
  Status EnsureGroup() override { return Status::Ok(); }
  Status Enqueue(const std::string& account_id, const std::string& job_id) override;
  Result<std::optional<gateway::QueueEntry>> Next(const std::string& consumer,
                                                  std::chrono::milliseconds block) override;
  Result<std::vector<gateway::QueueEntry>> Reclaim(const std::string& consumer,
                                                   std::chrono::milliseconds min_idle,
                                                   int count) override;
  Result<bool> Heartbeat(const std::string& consumer, const std::string& entry_id) override;
  Status Ack(const std::string& entry_id) override;

  // Test access: pending entries and their owners; takes an entry over as if it went idle.
  size_t pending() const { return pending_.size(); }
  size_t waiting() const { return waiting_.size(); }
  void TakeOver(const std::string& entry_id, const std::string& consumer) {
    pending_[entry_id].first = consumer;
  }
  int heartbeats() const { return heartbeats_; }

 private:
  bool Fail(const std::string& step) { return faults_ != nullptr && faults_->Step(step); }
  FaultPlan* faults_;
  int next_id_ = 0;
  int heartbeats_ = 0;
  std::deque<gateway::QueueEntry> waiting_;
  std::map<std::string, std::pair<std::string, gateway::QueueEntry>> pending_;  // id -> owner
};

// The validator's side of a stream, scripted: each chunk's issues come from `issues_for`
// (row numbers are the file's), and the tail is `tail_issues` then the stats.
class FakeValidatorStreamFactory final : public report::ValidatorStreamFactory {
 public:
  using IssuesFor = std::function<std::vector<validator::v1::Issue>(
      uint64_t row, const validator::v1::Row& values)>;
  FakeValidatorStreamFactory(IssuesFor issues_for, FaultPlan* faults = nullptr)
      : issues_for_(std::move(issues_for)), faults_(faults) {}
  std::unique_ptr<report::ValidatorStream> Open() override;

  std::vector<validator::v1::Issue> tail_issues;
  bool refuse = false;  // the validator answers INVALID_ARGUMENT-like errors (kInvalidRequest)
  bool down = false;    // every stream fails at its start as unreachable (kUnavailable)
  uint64_t lose_rows = 0;  // the stats count this many rows fewer than were sent
  int opened = 0;
  int cancelled = 0;

 private:
  friend class FakeValidatorStream;
  IssuesFor issues_for_;
  FaultPlan* faults_;
};

class RecordingEventPublisher final : public gateway::EventPublisher {
 public:
  explicit RecordingEventPublisher(FaultPlan* faults = nullptr) : faults_(faults) {}
  Status Publish(const events::StreamRecord& record) override;
  std::vector<events::StreamRecord> records;

 private:
  FaultPlan* faults_;
};

}  // namespace dq::testing
