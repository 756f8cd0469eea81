// The Lua scripts behind RedisJobStore. Each is one atomic step on the keys of one account (one
// hash tag), so they run unchanged on Redis Cluster. The fenced ones begin by checking that the
// job exists ('gone' otherwise) and that its `attempts` equals the caller's token ('stale'
// otherwise), and write nothing unless both hold.
#pragma once

#include "dq/common/redis_client.h"

namespace dq::gateway::scripts {

// KEYS: job, issues, cleaned (an earlier version's), summary, job_bytes, fixes.
// ARGV: started_at, job id. Drops the output of earlier attempts.
// Returns {'gone'} | {'finished', fields} | {'not_accepted', fields} | {'run', fields}.
extern const RedisScript kClaim;
// KEYS: job, issues, fixes, summary, job_bytes, quota, file.
// ARGV: token, job id, ttl, summary, fixes piece, refund, finish ('0': not the end; '1': the
//       end, the upload and the fixes are deleted; '2': the end of a done job whose cleaned file
//       is written from them, the upload is kept as long as the job hash), file_bytes, the fixes
//       piece's bytes (what the account is charged; summed in the hash's `fix_bytes`), m,
//       m HSET arguments, n, n issues. Returns 'ok' | 'gone' | 'stale'.
extern const RedisScript kWrite;
// KEYS: job, cleaned, job_bytes. ARGV: token, job id, ttl, piece (as stored), its uncompressed
// bytes (what the account is charged). Returns 'ok' | 'gone' | 'stale'.
extern const RedisScript kAppendCleaned;
// KEYS: job. ARGV: token. Status back to queued. Returns 'ok' | 'gone' | 'stale'.
extern const RedisScript kPostpone;
// KEYS: job. Sets event_published unless the job is gone. Returns 1 | 0.
extern const RedisScript kMarkPublished;
// KEYS: job, list. ARGV: created_ms, prune_before_ms, ttl, job id. Returns 1, or 0 when gone.
extern const RedisScript kAccept;
// KEYS: job, file, issues, cleaned, summary, job_bytes, quota, list, idempotency record, fixes.
// ARGV: job id, mode ('delete' | 'abandon'), the job's idempotency_key (the record is deleted
// only if the job names it). Returns 1 when removed, 0 when there was nothing
// (or, for abandon, the job was accepted meanwhile).
extern const RedisScript kRemove;
// KEYS: job_bytes. ARGV: job id, bytes, ceiling (0: none), job key prefix, ttl.
// Returns {1, stored} when reserved, {0, stored} when over the ceiling.
extern const RedisScript kReserveBytes;
// KEYS: idempotency record. ARGV: "<body hash> <job id>", ttl seconds.
// Returns {1} when new, {0, stored value} when the key was seen before.
extern const RedisScript kClaimIdempotency;
// KEYS: idempotency record. ARGV: its expected value. Deletes it only if it still holds that.
extern const RedisScript kReleaseIdempotency;

}  // namespace dq::gateway::scripts
