// The Lua scripts behind RedisJobStore. Each is one atomic step on the keys of one account (one
// hash tag), so they run unchanged on Redis Cluster. The fenced ones begin by checking that the
// job exists ('gone' otherwise) and that its `claim_id` equals the caller's token ('stale'
// otherwise), and write nothing unless both hold. The token is the random id the attempt's claim
// wrote, never the `attempts` counter: a claim lost in a failover would reissue the counter's
// number to the next claim, and two attempts would hold the same token.
#pragma once

#include "dq/common/redis_client.h"

namespace dq::gateway::scripts {

// KEYS: job, issues, cleaned (an earlier version's), summary, job_bytes, fixes.
// ARGV: started_at, job id, claim id (random; the attempt's fencing token). Counts the attempt,
// records the claim id and drops the output of earlier attempts.
// A finished job whose event is not published gets its event_published rewritten as it is (a
// write the caller's WAIT then covers, with the finish before it).
// Returns {'gone'} | {'finished', fields} | {'not_accepted', fields} | {'run', fields}.
extern const RedisScript kClaim;
// KEYS: job, issues, fixes, summary, job_bytes, quota, file.
// ARGV: token (the claim id), job id, ttl, summary, fixes piece, refund, finish ('0': not the
//       end; '1': the end, the upload and the fixes are deleted; '2': the end of a done job whose
//       cleaned file is written from them, the upload is kept as long as the job hash),
//       file_bytes, the fixes piece's bytes (what the account is charged; summed in the hash's
//       `fix_bytes`), m, m HSET arguments, n, n issues. Returns 'ok' | 'gone' | 'stale'.
extern const RedisScript kWrite;
// KEYS: job, cleaned, job_bytes. ARGV: token (the claim id), job id, ttl, piece (as stored), its
// uncompressed bytes (what the account is charged). Returns 'ok' | 'gone' | 'stale'.
extern const RedisScript kAppendCleaned;
// KEYS: job. ARGV: token (the claim id). Status back to queued. Returns 'ok' | 'gone' | 'stale'.
extern const RedisScript kPostpone;
// KEYS: job. Sets event_published unless the job is gone. Returns 1 | 0.
extern const RedisScript kMarkPublished;
// KEYS: job, list. ARGV: created_ms, prune_before_ms, ttl, job id. Returns 1, or 0 when gone.
extern const RedisScript kAccept;
// KEYS: job, list. ARGV: job id. Takes an acceptance back (its WAIT fell short, so the upload
// answers 503 and abandons the job). Returns 1, or 0 when gone.
extern const RedisScript kUnaccept;
// KEYS: job, file, issues, cleaned, summary, job_bytes, quota, list, idempotency record, fixes,
// the job's quota reservation record. ARGV: job id, mode ('delete' | 'abandon' | 'retract'),
// the job's idempotency_key (the record is deleted only if the job names it), the reservation
// record's ttl seconds. Returns 1 when removed, 0 when there was nothing (or, for abandon, the
// job was accepted meanwhile; for retract, a worker took it). An abandon or retract of a job
// whose quota is a recorded reservation gives back what the record still holds (a release may
// have come first), and leaves the record at 0 as a release does (limits/quota.h): the upload's
// own release may still be on its way. A delete removes the record.
extern const RedisScript kRemove;
// KEYS: job_bytes, the new job's reservation mark, then for each of n jobs to check: its job
// hash, its upload, its reservation mark. ARGV: job id, bytes, ceiling (0: none), ttl of
// job_bytes, ttl of the mark, n, the n job ids. An entry of job_bytes whose job is checked and has
// none of the three keys is dropped (its job expired); every other entry counts, so an entry
// added since the caller listed the candidates is counted, never dropped. The mark keeps a new
// reservation from being dropped before its job's first piece is stored.
// Returns {1, stored} when reserved, {0, stored} when over the ceiling.
extern const RedisScript kReserveBytes;
// KEYS: idempotency record. ARGV: "<body hash> <job id>", ttl seconds.
// Returns {1} when new, {0, stored value} when the key was seen before.
extern const RedisScript kClaimIdempotency;
// KEYS: idempotency record. ARGV: its expected value. Deletes it only if it still holds that.
extern const RedisScript kReleaseIdempotency;

}  // namespace dq::gateway::scripts
