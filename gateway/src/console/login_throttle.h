// Sign-in throttling that holds under load and faults.
//
// Every sign-in attempt is counted as a failure *before* its password is checked, atomically
// (one Lua step per counter: INCR, and EXPIRE when it starts the window), and only attempts whose
// counts are within max_failures have their password checked. So however many guesses arrive at
// once, at most max_failures passwords are checked per window and subject (40 parallel guesses
// checked 15 when the count was read first and incremented after). A success takes its own
// count back. When a count cannot be recorded (Redis down, out of memory, a refused write), the
// attempt is refused (kUnavailable, 503) and no password is checked: the throttle never
// silently switches off.
//
// Subjects, each with its own window started by its first failure:
//   - the client address: every attempt from it;
//   - the e-mail address, unless the browser shows a device cookie that this e-mail signed in
//     with before; then the device instead. This is OWASP's "device cookie" defence against
//     lockout: an attacker guessing one user's password from elsewhere locks out only browsers
//     that never signed in as that user, never the owner's own browser (which has its cookie).
//     A device that fails max_failures times is locked out like an e-mail would be.
//
// Redis layout (global keys, one per subject; in Redis Cluster each lands on its own slot and
// every step touches one key):
//   dq:login_failures:email:<sha256 of e-mail>    STRING count, TTL = the window
//   dq:login_failures:ip:<client address>         STRING count, TTL = the window
//   dq:login_failures:device:<sha256 of token>    STRING count, TTL = the window
//   dq:login_device:<sha256 of token>             STRING sha256 of the e-mail it signed in as,
//                                                 TTL = device_lifetime
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/redis_client.h"
#include "dq/common/status.h"

namespace dq::gateway {

struct LoginThrottlePolicy {
  int64_t max_failures = 10;              // DQ_LOGIN_MAX_FAILURES
  std::chrono::seconds window{15 * 60};   // DQ_LOGIN_FAILURE_WINDOW_SECONDS
  std::chrono::seconds device_lifetime{90 * 24 * 3600};
  int64_t max_signups = 10;                   // DQ_SIGNUPS_PER_ADDRESS
  std::chrono::seconds signup_window{3600};   // DQ_SIGNUP_WINDOW_SECONDS
};

// One attempt, counted before its password is checked.
struct LoginAttempt {
  int64_t retry_after = 0;  // > 0: refused; the password must not be checked
  bool trusted_device = false;  // the device cookie is this e-mail's: the e-mail is not counted
  std::vector<std::string> counted;  // the counters this attempt incremented (for Succeeded)
};

class LoginThrottle {
 public:
  virtual ~LoginThrottle() = default;
  // Counts the attempt (device_token: the browser's device cookie, or empty). Errors:
  // kUnavailable when a count could not be recorded; the sign-in must then be refused.
  virtual Result<LoginAttempt> Begin(std::string_view email, std::string_view client_ip,
                                     std::string_view device_token) = 0;
  // The password was right: clears the e-mail's (or device's) count and takes this attempt
  // back from the address's. Errors: kUnavailable (the counts stay; nothing else is lost).
  virtual Status Succeeded(std::string_view email, const LoginAttempt& attempt) = 0;
  // A new device cookie value for a browser that just signed in as email. Errors: kUnavailable.
  virtual Result<std::string> IssueDevice(std::string_view email) = 0;
  // Counts a sign-up from client_ip (dq:login_failures:signup:<address>): 0 when it may go on,
  // else the seconds until the address's window ends. Errors: kUnavailable (refuse it).
  virtual Result<int64_t> CountSignup(std::string_view client_ip) = 0;
};

class RedisLoginThrottle final : public LoginThrottle {
 public:
  RedisLoginThrottle(RedisClient& redis, LoginThrottlePolicy policy)
      : redis_(redis), policy_(policy) {}
  Result<LoginAttempt> Begin(std::string_view email, std::string_view client_ip,
                             std::string_view device_token) override;
  Status Succeeded(std::string_view email, const LoginAttempt& attempt) override;
  Result<std::string> IssueDevice(std::string_view email) override;
  Result<int64_t> CountSignup(std::string_view client_ip) override;

 private:
  RedisClient& redis_;
  LoginThrottlePolicy policy_;
};

}  // namespace dq::gateway
