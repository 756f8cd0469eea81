// JobStore on Redis, the system of record. Large values are stored in pieces (the upload and a
// cleaned file kept whole as lists of ~1 MiB chunks, each compressed as one zstd frame
// (piece_codec.h); issues as a list of JSON objects; fixes as a list of pieces, cleaned_file.h),
// never as one string that must be rewritten. Every key expires with the job (DQ_JOB_TTL_DAYS);
// the upload's pieces get their expiry with the first piece written. Every multi-key step is one
// Lua script over one account's keys (redis_job_scripts.h).
//
//   dq:{acct}:job:<id>           HASH   the Job (job.h)
//   dq:{acct}:jobs               ZSET   accepted job ids by created_ms (newest last)
//   dq:{acct}:job:<id>:file      LIST   the upload, in chunks (kept while the job is done and its
//                                       cleaned file is written from it; else deleted at its end)
//   dq:{acct}:job:<id>:issues    LIST   one JSON issue per element, in row order (capped)
//   dq:{acct}:job:<id>:fixes     LIST   the fixes, a piece per write (cleaned_file.h)
//   dq:{acct}:job:<id>:cleaned   LIST   a cleaned file kept whole, in chunks (XLSX workbooks,
//                                       and jobs finished by an earlier version)
//   dq:{acct}:job:<id>:summary   STRING the summary's by_field / by_code JSON
//   dq:{acct}:job_bytes          HASH   job id -> bytes stored for it (the account's ceiling):
//                                       with an artifact store, as really stored (objects at
//                                       their compressed size, Redis elements at theirs);
//                                       without, uncompressed
//   dq:{acct}:job:<id>:reserved  STRING a reservation in job_bytes whose job is not stored yet
//                                       (ten minutes at most)
//   dq:{acct}:idem:<sha256>      STRING "<body sha256> <job id>" for an Idempotency-Key, 24 h
//   dq:{acct}:job:<uid>:kept     HASH   a previewed upload kept for its Start (KeptUpload); its
//                                       file is in dq:{acct}:job:<uid>:file, its bytes in
//                                       job_bytes under <uid>; both expire after
//                                       kept_upload_ttl
//   dq:{acct}:kept               ZSET   the kept uploads' ids by the time they were kept
//
// With an artifact store (the constructor's `artifacts`), the job's files go there instead
// (job_artifacts.h): the upload's pieces, the issues in pages of 1,000 (only the records not yet
// in a full page stay in the :issues list while the job runs), the fixes and a workbook kept
// whole. Each object is written first and committed after, in the job's hash, by the same fenced
// script that commits the batch. Jobs stored without it keep reading from Redis.
#pragma once

#include <chrono>

#include "dq/artifact/artifact_store.h"
#include "dq/common/redis_client.h"
#include "job_store.h"

namespace dq::gateway {

// "12.3 MB" (MB: 1,048,576 bytes, rounded to a tenth), for messages.
std::string Megabytes(int64_t bytes);
// The 429 storage_limit_exceeded of an upload of `upload` bytes to an account that stores `stored`
// bytes under its plan's `ceiling`: the sizes in MB, and what the user can do.
Status StorageCeilingStatus(int64_t stored, int64_t upload, int64_t ceiling,
                            std::string_view plan);

struct StoreLimits {
  std::chrono::seconds ttl{30 * 24 * 3600};
  // Stored job bytes per account, by plan (DQ_STORAGE_*_BYTES), each capped by
  // max_account_bytes (DQ_ACCOUNT_MAX_STORED_BYTES); 0: no ceiling.
  int64_t max_account_bytes = 0;
  int64_t free_bytes = 0;
  int64_t pro_bytes = 0;
  int64_t business_bytes = 0;
  int64_t agency_bytes = 0;
  // The ceiling of a plan by name ("free", "pro", "business", "agency"; unknown: free's).
  int64_t CeilingOf(std::string_view plan) const;
  std::chrono::seconds idempotency_ttl{24 * 3600};
  // A previewed upload is kept this long for its Start, and an account keeps at most
  // max_kept_uploads of them (the oldest go first): DQ_KEPT_UPLOAD_MINUTES,
  // DQ_KEPT_UPLOADS_PER_ACCOUNT.
  std::chrono::seconds kept_upload_ttl{kKeptUploadMinutes * 60};
  int max_kept_uploads = 2;
};

class RedisJobStore final : public JobStore {
 public:
  // artifacts: where job files go (nullptr: all in Redis, as before the artifact store).
  RedisJobStore(RedisClient& redis, StoreLimits limits,
                artifact::ArtifactStore* artifacts = nullptr)
      : redis_(redis), limits_(limits), artifacts_(artifacts) {}

  // ReserveBytes, then StoreReserved.
  Status Create(const Job& job, UploadPieces& file_pieces) override;
  // The two steps of Create, apart for tests that run another upload between them. ReserveBytes
  // counts the job's bytes against the account's ceiling and marks the reservation (the mark,
  // `:reserved`, lives kReservationTtl, so a gateway that dies before storing frees the bytes
  // then); StoreReserved stores the pieces and the job, and drops the mark.
  Status ReserveBytes(const Job& job);
  Status StoreReserved(const Job& job, UploadPieces& file_pieces);

  // How long a reservation's mark keeps it while nothing of its job is stored yet.
  static constexpr std::chrono::seconds kReservationTtl{600};
  // At most this many of the account's jobs are checked for expiry per reservation.
  static constexpr int kReserveCheckJobs = 1000;
  Status Accept(const Job& job) override;
  Status Abandon(const Job& job) override;
  Result<std::optional<Job>> Get(std::string_view account_id, std::string_view id) override;
  Result<std::vector<Job>> List(std::string_view account_id, int limit) override;
  Result<std::vector<Job>> ListBefore(std::string_view account_id, int64_t before_ms,
                                      int limit) override;
  Result<std::vector<Job>> Query(std::string_view account_id, const JobQuery& query) override;
  Status KeepUpload(const KeptUpload& upload, std::string_view file) override;
  Result<std::optional<std::pair<KeptUpload, std::string>>> KeptUploadFile(
      std::string_view account_id, std::string_view id) override;
  Status DropKeptUpload(std::string_view account_id, std::string_view id) override;
  Result<bool> Delete(std::string_view account_id, std::string_view id) override;
  Result<std::vector<std::string>> Issues(const Job& job, int64_t offset, int64_t count) override;
  Result<std::optional<std::string>> FixesPiece(const Job& job, int64_t index) override;
  Result<std::optional<std::string>> CleanedPiece(const Job& job, int64_t index) override;
  Result<std::string> Summary(const Job& job) override;
  Result<IdempotencyRecord> ClaimIdempotencyKey(std::string_view account_id, std::string_view key,
                                                std::string_view body_hash,
                                                std::string_view job_id) override;
  Status ReleaseIdempotencyKey(std::string_view account_id, std::string_view key,
                               std::string_view body_hash, std::string_view job_id) override;

  Result<Claim> ClaimJob(std::string_view account_id, std::string_view id,
                         std::string_view started_at) override;
  Result<std::string> FileChunk(const Job& job, int64_t index) override;
  Status Write(const Job& job, const JobWrite& write) override;
  Status WriteCleanedPiece(const Job& job, std::string_view piece) override;
  Status Finish(const Job& job, const JobWrite& write, const JobEnd& end) override;
  Status Postpone(const Job& job) override;
  Status MarkPublished(const Job& job) override;

 private:
  struct Ceiling {
    std::string plan;
    int64_t bytes = 0;  // 0: none
  };
  // The account's plan (dq:{acct}:plan) and its storage ceiling.
  Result<Ceiling> StorageCeiling(const std::string& account_id);
  Status RunWrite(const Job& job, const JobWrite& write, const JobEnd* end);
  Status Remove(const Job& job, const char* mode);
  // `job` with the committed object counts as the hash has them now: a running attempt's own
  // snapshot (its claim) does not know what it committed since. Finished jobs' are final.
  Result<Job> Committed(const Job& job);
  // Best effort: objects left behind are the sweep's (SweepOrphans).
  void DeleteObjects(const Result<std::string>& prefix);

  RedisClient& redis_;
  StoreLimits limits_;
  artifact::ArtifactStore* artifacts_;
};

// Key names (exposed for tests and the worker).
std::string JobKey(std::string_view account_id, std::string_view id);
std::string JobPartKey(std::string_view account_id, std::string_view id, std::string_view part);

}  // namespace dq::gateway
