// Sign-in throttling: after max_failures failed sign-ins within the window for one e-mail
// address, or from one client address, further attempts answer 429 too_many_requests until the
// window (started by the first failure) ends, whatever the password.
//
// Redis layout (global keys, one per subject, TTL = the window):
//   dq:login_failures:email:<sha256 of e-mail>   STRING count
//   dq:login_failures:ip:<client address>        STRING count
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

#include "dq/common/redis_client.h"
#include "dq/common/status.h"

namespace dq::gateway {

struct LoginThrottlePolicy {
  int64_t max_failures = 10;              // DQ_LOGIN_MAX_FAILURES
  std::chrono::seconds window{15 * 60};   // DQ_LOGIN_FAILURE_WINDOW_SECONDS
};

class LoginThrottle {
 public:
  virtual ~LoginThrottle() = default;
  // 0 when a sign-in may be tried; else the seconds until it may. Errors: kUnavailable.
  virtual Result<int64_t> Blocked(std::string_view email, std::string_view client_ip) = 0;
  virtual Status RecordFailure(std::string_view email, std::string_view client_ip) = 0;
  // A successful sign-in clears the e-mail's count (not the address's).
  virtual Status RecordSuccess(std::string_view email) = 0;
};

class RedisLoginThrottle final : public LoginThrottle {
 public:
  RedisLoginThrottle(RedisClient& redis, LoginThrottlePolicy policy)
      : redis_(redis), policy_(policy) {}
  Result<int64_t> Blocked(std::string_view email, std::string_view client_ip) override;
  Status RecordFailure(std::string_view email, std::string_view client_ip) override;
  Status RecordSuccess(std::string_view email) override;

 private:
  RedisClient& redis_;
  LoginThrottlePolicy policy_;
};

}  // namespace dq::gateway
