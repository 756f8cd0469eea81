#include "redis_job_scripts.h"

namespace dq::gateway::scripts {
namespace {

// The fence every attempt-side write begins with. ARGV[1] is the attempt's claim id; a job with
// none (claimed by an earlier version) matches no caller, as HGET gives false, never a string.
constexpr const char* kFence = R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
if redis.call('HGET', KEYS[1], 'claim_id') ~= ARGV[1] then return 'stale' end
)lua";

std::string Fenced(const char* body) { return std::string(kFence) + body; }

}  // namespace

const RedisScript kClaim(R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
local st = redis.call('HGET', KEYS[1], 'status')
if st == 'done' or st == 'failed' then
  -- Rewritten as it is: a write, so the caller's WAIT covers the finish before it publishes.
  if redis.call('HGET', KEYS[1], 'event_published') ~= '1' then
    redis.call('HSET', KEYS[1], 'event_published', '0')
  end
  return {'finished', redis.call('HGETALL', KEYS[1])}
end
if redis.call('HGET', KEYS[1], 'accepted') == '0' then
  return {'not_accepted', redis.call('HGETALL', KEYS[1])}
end
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('HSET', KEYS[1], 'status', 'processing', 'started_at', ARGV[1], 'rows_done', '0',
           'issues', '0', 'issues_found', '0', 'fix_bytes', '0', 'issue_pages', '0',
           'fix_pieces', '0', 'cleaned_pieces', '0', 'output_attempt', '', 'claim_id', ARGV[3])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[6])
-- The upload's bytes as stored: its objects' (compressed) when in the artifact store.
local file_bytes = redis.call('HGET', KEYS[1], 'file_stored_bytes')
if not file_bytes or file_bytes == '0' then file_bytes = redis.call('HGET', KEYS[1], 'file_bytes') or '0' end
if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('HSET', KEYS[5], ARGV[2], file_bytes) end
return {'run', redis.call('HGETALL', KEYS[1])}
)lua");

const RedisScript kWrite(Fenced(R"lua(
local ttl = ARGV[3]
local bytes = 0
local m = tonumber(ARGV[10])
local n = tonumber(ARGV[11 + m])
local first = 12 + m
local last = first + n - 1
-- Issues moved into pages in the artifact store: the list is replaced by what is left
-- (ARGV[last + 1] == '1'), and ARGV[last + 2] counts the bytes of the new issues the list does
-- not get (they are in the pages), so the account's bytes stay exact.
if ARGV[last + 1] == '1' then redis.call('DEL', KEYS[2]) end
bytes = bytes + tonumber(ARGV[last + 2] or '0')
for i = first, last, 1000 do
  local upto = math.min(i + 999, last)
  for k = i, upto do bytes = bytes + #ARGV[k] end
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, upto))
end
if n > 0 then redis.call('EXPIRE', KEYS[2], ttl) end
if #ARGV[5] > 0 then
  redis.call('RPUSH', KEYS[3], ARGV[5])
  redis.call('EXPIRE', KEYS[3], ttl)
end
-- ARGV[9]: the fixes' bytes, in Redis (ARGV[5]) or in a committed object of the store.
if tonumber(ARGV[9]) > 0 then
  bytes = bytes + tonumber(ARGV[9])
  redis.call('HINCRBY', KEYS[1], 'fix_bytes', tonumber(ARGV[9]))
end
if #ARGV[4] > 0 then redis.call('SET', KEYS[4], ARGV[4], 'EX', ttl) end
if m > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, 11, 10 + m)) end
if ARGV[7] == '2' then
  -- The upload stays as long as the job hash, not longer: past it, nothing can reach it. The
  -- same instant, not the same TTL: a relative PEXPIRE counts from the clock as it is then,
  -- which may be a millisecond past the script's PTTL (Redis 7.0 moves it within a script).
  local at = redis.call('PEXPIRETIME', KEYS[1])
  if at > 0 then redis.call('PEXPIREAT', KEYS[7], at) end
elseif ARGV[7] == '1' then
  -- No cleaned file will be written from the upload and the fixes: both go.
  redis.call('DEL', KEYS[7], KEYS[3])
  bytes = bytes - tonumber(ARGV[8]) - tonumber(redis.call('HGET', KEYS[1], 'fix_bytes') or '0')
  redis.call('HSET', KEYS[1], 'fix_bytes', '0')
end
if ARGV[7] ~= '0' then
  local refund = tonumber(ARGV[6])
  if refund > 0 and redis.call('HGET', KEYS[1], 'refunded') ~= '1' then
    if redis.call('EXISTS', KEYS[6]) == 1 then redis.call('DECRBY', KEYS[6], refund) end
    redis.call('HSET', KEYS[1], 'refunded', '1')
  end
end
if bytes ~= 0 and redis.call('HEXISTS', KEYS[5], ARGV[2]) == 1 then
  redis.call('HINCRBY', KEYS[5], ARGV[2], bytes)
end
return 'ok'
)lua"));

const RedisScript kAppendCleaned(Fenced(R"lua(
if #ARGV[4] > 0 then
  redis.call('RPUSH', KEYS[2], ARGV[4])
  redis.call('EXPIRE', KEYS[2], ARGV[3])
end
-- A piece stored in the artifact store: commit it (ARGV[6] pieces of attempt ARGV[7]).
if ARGV[6] then redis.call('HSET', KEYS[1], 'cleaned_pieces', ARGV[6], 'output_attempt', ARGV[7]) end
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then
  redis.call('HINCRBY', KEYS[3], ARGV[2], tonumber(ARGV[5]))
end
return 'ok'
)lua"));

const RedisScript kPostpone(Fenced(R"lua(
local st = redis.call('HGET', KEYS[1], 'status')
if st == 'done' or st == 'failed' then return 'ok' end
redis.call('HSET', KEYS[1], 'status', 'queued')
redis.call('HINCRBY', KEYS[1], 'postponed', 1)
return 'ok'
)lua"));

const RedisScript kMarkPublished(R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'event_published', '1')
return 1
)lua");

const RedisScript kAccept(R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'accepted', '1')
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
)lua");

const RedisScript kUnaccept(R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'accepted', '0')
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
)lua");

const RedisScript kRemove(R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local j = redis.call('HMGET', KEYS[1], 'status', 'accepted', 'refunded', 'rows_total',
                    'rows_done', 'idempotency_key')
local status, accepted, refunded = j[1], j[2], j[3]
local rows_total, rows_done = tonumber(j[4] or '0'), tonumber(j[5] or '0')
local undo = ARGV[2] == 'abandon' or ARGV[2] == 'retract'
if ARGV[2] == 'abandon' and accepted ~= '0' then return 0 end
if ARGV[2] == 'retract' and accepted ~= '0' and status ~= 'queued' then return 0 end
local refund = 0
if undo and redis.call('HGET', KEYS[1], 'quota_res') == '1' then
  refund = tonumber(redis.call('GET', KEYS[11]) or '0')
elseif refunded ~= '1' then
  if undo then refund = rows_total
  elseif status == 'queued' or status == 'processing' then refund = rows_total - rows_done end
end
if refund > 0 and redis.call('EXISTS', KEYS[7]) == 1 then
  redis.call('DECRBY', KEYS[7], refund)
end
if undo and redis.call('HGET', KEYS[1], 'quota_res') == '1' then
  redis.call('SET', KEYS[11], '0', 'EX', tonumber(ARGV[4]))
else
  redis.call('DEL', KEYS[11])
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[10])
redis.call('HDEL', KEYS[6], ARGV[1])
redis.call('ZREM', KEYS[8], ARGV[1])
if j[6] and j[6] ~= '' and j[6] == ARGV[3] then redis.call('DEL', KEYS[9]) end
return 1
)lua");

const RedisScript kReserveBytes(R"lua(
local n = tonumber(ARGV[6])
local checked = {}
for i = 1, n do checked[ARGV[6 + i]] = 3 * i end
local all = redis.call('HGETALL', KEYS[1])
local stored = 0
for i = 1, #all, 2 do
  local k = checked[all[i]]
  if k and redis.call('EXISTS', KEYS[k], KEYS[k + 1], KEYS[k + 2]) == 0 then
    redis.call('HDEL', KEYS[1], all[i])
  else
    stored = stored + tonumber(all[i + 1])
  end
end
local ceiling = tonumber(ARGV[3])
if ceiling > 0 and stored + tonumber(ARGV[2]) > ceiling then return {0, stored} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('SET', KEYS[2], '1', 'EX', ARGV[5])
return {1, stored}
)lua");

const RedisScript kClaimIdempotency(R"lua(
local old = redis.call('GET', KEYS[1])
if old then return {0, old} end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return {1}
)lua");

const RedisScript kReleaseIdempotency(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
)lua");

}  // namespace dq::gateway::scripts
