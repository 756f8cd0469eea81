// Internal to RedisJobStore: the small helpers its files share. RedisJobStore (redis_job_store.h)
// is one class defined across several files, each holding one part of the job's life:
//
//   redis_job_store.cpp          storing an upload as a job, accepting, removing, deleting, and
//                                reading jobs back (Get, List, Query); the helpers below
//   redis_job_store_ceiling.cpp  the account's storage ceiling and byte reservations
//   redis_job_store_kept.cpp     previewed uploads kept for their Start (KeepUpload, ...)
//   redis_job_store_claims.cpp   Idempotency-Key records and a worker's claim of a job
//   redis_job_store_pieces.cpp   reading a job's files: the upload's pieces, issues, fixes,
//                                the cleaned file, the summary
//   redis_job_store_write.cpp    a running attempt's fenced writes: batches, the finish, cleaned
//                                pieces, postpone
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/common/redis_client.h"
#include "job.h"

namespace dq::gateway::redis_store {

// kInternal naming the first error reply of a pipeline, or the pipeline's own error.
Status CheckReplies(const Result<std::vector<RedisReply>>& replies);
// A HGETALL reply as (field, value) pairs.
std::vector<std::pair<std::string, std::string>> Pairs(const RedisReply& r);
// dq:{acct}:quota:<month> of the job's quota month.
std::string QuotaKey(const Job& job);
// dq:{acct}:idem:<key> of an Idempotency-Key.
std::string IdempotencyKey(std::string_view account_id, std::string_view key);
// A decimal field of a hash (0 when absent or not a number).
int64_t Int(const std::string& text);

}  // namespace dq::gateway::redis_store
