#include "rate_limiter.h"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "dq/common/log.h"

namespace dq::gateway {
namespace {

// KEYS[1]: the subject's counter hash {w: window start, n: admitted count}
// ARGV: limit, window seconds, now (Unix seconds), consume (1) or peek (0)
// Returns {allowed, count, window start}.
const RedisScript kFixedWindowScript(R"lua(
local limit = tonumber(ARGV[1])
local len = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local window = now - (now % len)
local stored = redis.call('HMGET', KEYS[1], 'w', 'n')
local n = 0
local w = tonumber(stored[1])
if w ~= nil and w >= window then
  window = w
  n = tonumber(stored[2]) or 0
end
if ARGV[4] ~= '1' then
  return {1, n, window}
end
if n >= limit then
  return {0, n, window}
end
n = n + 1
redis.call('HSET', KEYS[1], 'w', window, 'n', n)
redis.call('EXPIRE', KEYS[1], math.max(1, window + len - now) + 1)
return {1, n, window}
)lua");

}  // namespace

std::string_view RateClassName(RateClass c) {
  switch (c) {
    case RateClass::kGeneral: return "general";
    case RateClass::kUpload: return "upload";
    case RateClass::kAnonymous: return "anonymous";
  }
  return "general";
}

int64_t RateLimitPolicy::Limit(RateClass c) const {
  switch (c) {
    case RateClass::kGeneral: return general;
    case RateClass::kUpload: return upload;
    case RateClass::kAnonymous: return anonymous;
  }
  return general;
}

int64_t FixedWindow::Start(int64_t now_unix, int64_t window_seconds) {
  return now_unix - (now_unix % window_seconds);
}

RateDecision FixedWindow::Decide(bool allowed, int64_t count, int64_t limit, int64_t window_start,
                                 int64_t window_seconds, int64_t now_unix) {
  RateDecision d;
  d.allowed = allowed;
  d.limit = limit;
  d.remaining = std::max<int64_t>(0, limit - count);
  d.reset_unix = window_start + window_seconds;
  d.retry_after = allowed ? 0 : std::max<int64_t>(1, d.reset_unix - now_unix);
  return d;
}

RedisRateLimiter::RedisRateLimiter(RedisClient& redis, const Clock& clock, RateLimitPolicy policy)
    : redis_(redis), clock_(clock), policy_(policy) {}

Result<RateDecision> RedisRateLimiter::Acquire(std::string_view subject, RateClass c) {
  return Run(subject, c, true);
}

Result<RateDecision> RedisRateLimiter::Peek(std::string_view subject, RateClass c) {
  return Run(subject, c, false);
}

RateDecision RedisRateLimiter::Unknown(RateClass c) const {
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          clock_.Now().time_since_epoch())
                          .count();
  const int64_t limit = policy_.Limit(c);
  RateDecision d = FixedWindow::Decide(true, limit, limit,
                                       FixedWindow::Start(now, policy_.window_seconds),
                                       policy_.window_seconds, now);
  return d;
}

Result<RateDecision> RedisRateLimiter::Run(std::string_view subject, RateClass c, bool consume) {
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          clock_.Now().time_since_epoch())
                          .count();
  const int64_t limit = policy_.Limit(c);
  auto reply = redis_.Eval(kFixedWindowScript,
                           {AccountKey(subject, "rl:" + std::string(RateClassName(c)))},
                           {std::to_string(limit), std::to_string(policy_.window_seconds),
                            std::to_string(now), consume ? "1" : "0"});
  if (!reply.ok()) return reply.status();
  if (reply->elements.size() != 3) {
    return Status(ErrorCode::kInternal, "unexpected rate-limit script reply");
  }
  return FixedWindow::Decide(reply->elements[0].integer == 1, reply->elements[1].integer, limit,
                             reply->elements[2].integer, policy_.window_seconds, now);
}

bool PassesUncounted(std::string_view method) {
  return method == "GET" || method == "HEAD" || method == "DELETE";
}

Result<RateDecision> AcquireOrPass(RateLimiter& limiter, std::string_view subject, RateClass c,
                                   std::string_view method, std::string_view request_id,
                                   RateLimitMetrics& metrics) {
  auto d = limiter.Acquire(subject, c);
  if (d.ok() || d.status().code() != ErrorCode::kUnavailable || !PassesUncounted(method)) {
    return d;
  }
  metrics.uncounted.Inc();
  static std::atomic<int64_t> last_log_ms{0};
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  int64_t last = last_log_ms.load(std::memory_order_relaxed);
  if (now - last >= 1000 && last_log_ms.compare_exchange_strong(last, now)) {
    log::Warn("request let through without counting its rate limit",
              {{"request_id", std::string(request_id)},
               {"method", std::string(method)},
               {"class", std::string(RateClassName(c))},
               {"error", d.status().message()}});
  }
  return limiter.Unknown(c);
}

}  // namespace dq::gateway
