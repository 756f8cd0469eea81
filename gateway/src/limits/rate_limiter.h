// Request rate limits: a fixed window on the UTC minute, per subject (an account, or a client
// address for requests without a valid key) and per class.
//
// Exactness: each decision is one atomic Redis step (a Lua script), so any number of gateway
// replicas sharing one Redis admit exactly `limit` requests per window. A rejected request uses
// no budget. The window comes from the gateway's clock; a replica whose clock lags never reopens
// a window another replica has moved past (the script keeps the newest window).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dq/common/clock.h"
#include "dq/common/redis_client.h"
#include "dq/common/status.h"
#include "limits/rate_limit_metrics.h"

namespace dq::gateway {

enum class RateClass { kGeneral, kUpload, kAnonymous };
std::string_view RateClassName(RateClass c);

struct RateLimitPolicy {
  int64_t general = 60;
  int64_t upload = 10;
  int64_t anonymous = 60;
  int64_t window_seconds = 60;
  int64_t Limit(RateClass c) const;
};

// What a decision means for the response headers.
struct RateDecision {
  bool allowed = true;
  int64_t limit = 0;         // X-RateLimit-Limit
  int64_t remaining = 0;     // X-RateLimit-Remaining, after this request
  int64_t reset_unix = 0;    // X-RateLimit-Reset: Unix seconds when the window ends
  int64_t retry_after = 0;   // Retry-After seconds, when not allowed
};

// The fixed-window arithmetic, pure so it can be tested with any clock.
struct FixedWindow {
  // Start of the window holding now_unix.
  static int64_t Start(int64_t now_unix, int64_t window_seconds);
  // The decision for a window that holds `count` admitted requests (this one included when
  // allowed) and started at window_start.
  static RateDecision Decide(bool allowed, int64_t count, int64_t limit, int64_t window_start,
                             int64_t window_seconds, int64_t now_unix);
};

class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // Counts one request of class c for subject if budget is left. Errors: kUnavailable.
  virtual Result<RateDecision> Acquire(std::string_view subject, RateClass c) = 0;
  // The current state without counting anything. Errors: kUnavailable.
  virtual Result<RateDecision> Peek(std::string_view subject, RateClass c) = 0;
  // Headers for a response given while the counters cannot be read (Redis down): the class's
  // limit, the current window's end from the clock, and 0 remaining. Never fails.
  virtual RateDecision Unknown(RateClass c) const = 0;
};

class RedisRateLimiter final : public RateLimiter {
 public:
  RedisRateLimiter(RedisClient& redis, const Clock& clock, RateLimitPolicy policy);
  Result<RateDecision> Acquire(std::string_view subject, RateClass c) override;
  Result<RateDecision> Peek(std::string_view subject, RateClass c) override;
  RateDecision Unknown(RateClass c) const override;

 private:
  Result<RateDecision> Run(std::string_view subject, RateClass c, bool consume);
  RedisClient& redis_;
  const Clock& clock_;
  RateLimitPolicy policy_;
};

// When a request's counter cannot be written (Redis full, or unreachable), reads (GET, HEAD) and
// DELETE go on uncounted: a full Redis must not lock users out of their data, nor out of freeing
// room. Anything else is refused with the limiter's error (503).
bool PassesUncounted(std::string_view method);

// Acquire, except that a request PassesUncounted lets through when the limiter is unavailable:
// then the answer is limiter.Unknown(c) (allowed, nothing promised as remaining), the
// pass is counted in dq_rate_limit_uncounted_total and logged (at most once a second per
// process, with the request id and the limiter's error).
Result<RateDecision> AcquireOrPass(RateLimiter& limiter, std::string_view subject, RateClass c,
                                   std::string_view method, std::string_view request_id,
                                   RateLimitMetrics& metrics = RateLimitMetrics::Global());

}  // namespace dq::gateway
