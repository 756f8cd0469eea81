// Where jobs live: Redis, the system of record. Large values are stored in pieces (the uploaded
// file and the cleaned file as lists of ~1 MiB chunks, issues as a list of JSON objects), never
// as one string that must be rewritten. Every key expires with the job (DQ_JOB_TTL_DAYS).
//
//   dq:{acct}:job:<id>           HASH  the Job (job.h)
//   dq:{acct}:jobs               ZSET  job ids by created_ms (newest last)
//   dq:{acct}:job:<id>:file      LIST  the upload, in chunks (deleted once the job is done)
//   dq:{acct}:job:<id>:issues    LIST  one JSON issue per element, in row order
//   dq:{acct}:job:<id>:cleaned   LIST  the cleaned file, in chunks
//
// Errors (every method): kUnavailable when Redis cannot be reached. Thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/redis_client.h"
#include "dq/common/status.h"
#include "job.h"

namespace dq::gateway {

class JobStore {
 public:
  virtual ~JobStore() = default;
  // Stores the job and its file chunks. The job is not listed yet (see AddToList).
  virtual Status Create(const Job& job, const std::vector<std::string_view>& file_chunks) = 0;
  // Lists the job among the account's jobs. Called once the job is on the queue, so a gateway
  // that dies in between leaves no job in the list that nothing will ever run.
  virtual Status AddToList(const Job& job) = 0;
  // nullopt when the account has no such job (another account's job is not found either).
  virtual Result<std::optional<Job>> Get(std::string_view account_id, std::string_view id) = 0;
  // The account's newest jobs first, at most limit.
  virtual Result<std::vector<Job>> List(std::string_view account_id, int limit) = 0;
  // The newest jobs created strictly before before_ms: the console's next page.
  virtual Result<std::vector<Job>> ListBefore(std::string_view account_id, int64_t before_ms,
                                              int limit) = 0;
  // Writes every field of the job.
  virtual Status Save(const Job& job) = 0;
  virtual Result<std::string> FileChunk(const Job& job, int64_t index) = 0;
  virtual Status DeleteFile(const Job& job) = 0;
  // Drops any issues and cleaned chunks of an earlier, interrupted attempt.
  virtual Status ResetResults(const Job& job) = 0;
  virtual Status AppendIssues(const Job& job, const std::vector<std::string>& issues_json) = 0;
  virtual Status AppendCleaned(const Job& job, std::string chunk) = 0;
  virtual Result<std::vector<std::string>> Issues(const Job& job, int64_t offset,
                                                  int64_t count) = 0;
  virtual Result<std::vector<std::string>> CleanedChunks(const Job& job) = 0;
};

class RedisJobStore final : public JobStore {
 public:
  RedisJobStore(RedisClient& redis, std::chrono::seconds ttl) : redis_(redis), ttl_(ttl) {}

  Status Create(const Job& job, const std::vector<std::string_view>& file_chunks) override;
  Status AddToList(const Job& job) override;
  Result<std::optional<Job>> Get(std::string_view account_id, std::string_view id) override;
  Result<std::vector<Job>> List(std::string_view account_id, int limit) override;
  Result<std::vector<Job>> ListBefore(std::string_view account_id, int64_t before_ms,
                                      int limit) override;
  Status Save(const Job& job) override;
  Result<std::string> FileChunk(const Job& job, int64_t index) override;
  Status DeleteFile(const Job& job) override;
  Status ResetResults(const Job& job) override;
  Status AppendIssues(const Job& job, const std::vector<std::string>& issues_json) override;
  Status AppendCleaned(const Job& job, std::string chunk) override;
  Result<std::vector<std::string>> Issues(const Job& job, int64_t offset, int64_t count) override;
  Result<std::vector<std::string>> CleanedChunks(const Job& job) override;

 private:
  RedisClient& redis_;
  std::chrono::seconds ttl_;
};

// Key names (exposed for tests and the worker).
std::string JobKey(std::string_view account_id, std::string_view id);
std::string JobPartKey(std::string_view account_id, std::string_view id, std::string_view part);

}  // namespace dq::gateway
