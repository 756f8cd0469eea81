// Where jobs live (the interface). RedisJobStore (redis_job_store.h) is the system of record;
// InMemoryJobStore (tests/testing) is its fake.
//
// Two kinds of callers:
// - the API (upload, list, detail, summary, delete), which never races a worker's writes: a
//   delete removes the job in one atomic step, and the worker's next write finds it gone;
// - one attempt of a worker, which claims the job and then writes with its fencing token
//   (`job.claim_id` after the claim: random, so unique even when a failover loses a claim). Every attempt-side write checks, atomically with the write,
//   that the job still exists and that no newer attempt claimed it; otherwise it writes nothing
//   and fails with kAborted. So two workers on one job can never both write.
//
// Errors (every method): kUnavailable when the store cannot be reached. Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/status.h"
#include "dq/report/job_output.h"
#include "job.h"
#include "upload_pieces.h"

namespace dq::gateway {

// What a claim found.
enum class ClaimKind {
  kRun,          // claimed: job.claim_id is the new token; results of earlier attempts dropped
  kFinished,     // done or failed already (publish its event if job.event_published is false)
  kGone,         // no such job (deleted, expired, or its upload was abandoned)
  kNotAccepted,  // stored and queued but not yet listed (its upload may still be answering)
};

struct Claim {
  ClaimKind kind = ClaimKind::kGone;
  Job job;
};

// One step of an attempt's output (dq/report/job_output.h), written atomically.
using report::JobWrite;

// How an attempt ends a job.
struct JobEnd {
  JobStatus status = JobStatus::kDone;  // kDone or kFailed
  std::string error;   // for failed
  std::string finished_at;
  int64_t refund = 0;  // records to give back to the job's quota month (failed jobs)
};

// An upload's Idempotency-Key, as remembered for the account.
struct IdempotencyRecord {
  bool fresh = false;     // this call claimed the key; the others see the first claim
  std::string body_hash;  // of the first upload
  std::string job_id;     // of the first upload
};

// Which of the account's jobs a list shows (GET /v1/jobs?feed=&filename=).
struct JobQuery {
  std::string feed;               // the feed, exactly ("" for any)
  std::string filename_contains;  // part of the filename, any case ("" for any)
  int64_t before_ms = 0;          // created strictly before (0: no bound)
  int limit = 20;
};
// At most this many of the account's newest jobs (before before_ms) are looked at by a query.
inline constexpr int kJobQueryScan = 1000;
// Whether a job with this feed and filename is one the query asks for (before_ms aside).
bool JobMatches(const JobQuery& query, std::string_view feed, std::string_view filename);

// How long a previewed upload is kept for its Start (the default of both the store's limit and
// the API's messages).
inline constexpr int kKeptUploadMinutes = 15;

// An upload kept after its preview, so that starting the job does not send the file again
// (docs/api.md, "Preview"). It lives a short time, counts against the account's
// stored bytes, and an account keeps only a few.
struct KeptUpload {
  std::string id;  // a UUID, the preview's upload_id
  std::string account_id;
  std::string filename;
  std::string content_type;  // of the file part, as sent
  int64_t bytes = 0;
  int64_t expires_ms = 0;
  // When it was kept, in microseconds since the epoch: an account's kept uploads are ordered by
  // it (two previews in one millisecond are still told apart). 0: from expires_ms.
  int64_t kept_us = 0;
};

class JobStore {
 public:
  virtual ~JobStore() = default;

  // --- The API side ---------------------------------------------------------------------------
  // Stores the job and its file pieces. The job is not accepted yet (see Accept). Errors:
  // kStorageLimitExceeded when the account's stored job bytes would pass its ceiling. A failed
  // Create leaves nothing behind. The pieces are stored in order, each once: raw, or as
  // TakeCompressed gives it (Job::pieces says which).
  virtual Status Create(const Job& job, UploadPieces& file_pieces) = 0;
  // Lists the job among the account's jobs and marks it accepted, in one step. Called once the
  // job is on the queue. A worker runs only accepted jobs.
  virtual Status Accept(const Job& job) = 0;
  // Removes a job that was never accepted (its upload failed after Create), giving back its
  // quota reservation exactly once. Idempotent.
  virtual Status Abandon(const Job& job) = 0;
  // The upload's own undo after its 503: as Abandon, and also a job accepted meanwhile (its
  // acceptance reached a replica whose answer came too late) while no worker has taken it.
  virtual Status Retract(const Job& job) { return Abandon(job); }
  // nullopt when the account has no such job (another account's job is not found either).
  virtual Result<std::optional<Job>> Get(std::string_view account_id, std::string_view id) = 0;
  // The account's newest jobs first, at most limit.
  virtual Result<std::vector<Job>> List(std::string_view account_id, int limit) = 0;
  // The newest jobs created strictly before before_ms: the console's next page.
  virtual Result<std::vector<Job>> ListBefore(std::string_view account_id, int64_t before_ms,
                                              int limit) = 0;
  // The account's newest jobs that match the query, newest first, at most query.limit, among
  // the kJobQueryScan newest created before query.before_ms.
  virtual Result<std::vector<Job>> Query(std::string_view account_id, const JobQuery& query) = 0;
  // Keeps a previewed upload (the file as sent) for the store's kept-upload time. Drops the
  // account's oldest kept uploads past its limit. Errors: kStorageLimitExceeded as Create.
  virtual Status KeepUpload(const KeptUpload& upload, std::string_view file) = 0;
  // A kept upload and its file; nullopt when there is none (expired, used, or never kept).
  virtual Result<std::optional<std::pair<KeptUpload, std::string>>> KeptUploadFile(
      std::string_view account_id, std::string_view id) = 0;
  // Forgets a kept upload (its job was created). Idempotent.
  virtual Status DropKeptUpload(std::string_view account_id, std::string_view id) = 0;
  // Deletes every key of the job in one step and gives back the quota of rows not processed
  // (a queued or running job). False when there was no such job.
  virtual Result<bool> Delete(std::string_view account_id, std::string_view id) = 0;
  virtual Result<std::vector<std::string>> Issues(const Job& job, int64_t offset,
                                                  int64_t count) = 0;
  // Piece `index` (from 0) of the fixes of a done job (cleaned_file.h); nullopt past the last
  // one. With the kept upload (FilePiece), they are its cleaned file.
  virtual Result<std::optional<std::string>> FixesPiece(const Job& job, int64_t index) = 0;
  // Piece `index` (from 0) of a cleaned file stored whole (a job whose cleaned_from is "": an
  // XLSX job, or one finished by an earlier version); nullopt past the last one.
  virtual Result<std::optional<std::string>> CleanedPiece(const Job& job, int64_t index) = 0;
  // The summary JSON the worker keeps up to date ("" before the first results).
  virtual Result<std::string> Summary(const Job& job) = 0;
  // Claims `key` (already hashed) for an upload with body_hash that will create job_id; or, when
  // the account used the key before (within its memory), the first claim's record.
  virtual Result<IdempotencyRecord> ClaimIdempotencyKey(std::string_view account_id,
                                                        std::string_view key,
                                                        std::string_view body_hash,
                                                        std::string_view job_id) = 0;
  // Forgets a claim whose upload failed, if the key still holds it.
  virtual Status ReleaseIdempotencyKey(std::string_view account_id, std::string_view key,
                                       std::string_view body_hash, std::string_view job_id) = 0;

  // --- One attempt of a worker (fenced by job.claim_id) ---------------------------------------
  // Claims the job for a new attempt: increments `attempts`, writes a new random `claim_id` (the
  // token), sets processing and started_at and drops any output of earlier attempts, atomically.
  virtual Result<Claim> ClaimJob(std::string_view account_id, std::string_view id,
                                 std::string_view started_at) = 0;
  // Piece `index` of the upload: while the job runs, and after it is done (the cleaned file is
  // written from it). kNotFound when the job was deleted.
  virtual Result<std::string> FilePiece(const Job& job, int64_t index) = 0;
  // Appends one step of output. kAborted: a newer attempt exists, or the job was deleted.
  virtual Status Write(const Job& job, const JobWrite& write) = 0;
  // Appends a piece of a cleaned file kept whole (an XLSX job's workbook, see
  // JobRunner::StoreWorkbook), counted against the account's bytes. kAborted as Write.
  virtual Status WriteCleanedPiece(const Job& job, std::string_view piece) = 0;
  // The last output plus the end state, the counters in `job`, the refund, and the upload's
  // deletion, all in one step. A done job whose cleaned file comes from its fixes
  // (job.cleaned_from) keeps its upload until it expires. kAborted as Write.
  virtual Status Finish(const Job& job, const JobWrite& write, const JobEnd& end) = 0;
  // Puts a job whose attempt could not go on (a dependency down) back to `queued`. kAborted as
  // Write.
  virtual Status Postpone(const Job& job) = 0;
  // Records that job.complete was appended. Never recreates a deleted job.
  virtual Status MarkPublished(const Job& job) = 0;
};

}  // namespace dq::gateway
