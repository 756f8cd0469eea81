#include "login_throttle.h"

#include <algorithm>

#include "dq/common/crypto.h"
#include "dq/common/log.h"

namespace dq::gateway {
namespace {

constexpr std::string_view kFailures = "dq:login_failures:";

std::string EmailKey(std::string_view email) {
  return std::string(kFailures) + "email:" + Sha256Hex(email);
}
std::string IpKey(std::string_view ip) { return std::string(kFailures) + "ip:" + std::string(ip); }
std::string DeviceFailuresKey(std::string_view token) {
  return std::string(kFailures) + "device:" + Sha256Hex(token);
}
std::string DeviceKey(std::string_view token) { return "dq:login_device:" + Sha256Hex(token); }

// One counter, one key: INCR; a new count starts the window; {count, seconds left}.
const RedisScript& CountScript() {
  static const RedisScript script(R"lua(
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('TTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
)lua");
  return script;
}

// Takes one attempt back from a counter that still exists (a window that ended stays ended).
const RedisScript& TakeBackScript() {
  static const RedisScript script(R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return 0
)lua");
  return script;
}

Status Unrecorded(const Status& why) {
  log::Warn("a sign-in could not be counted; refused", {{"error", why.message()}});
  return Status(ErrorCode::kUnavailable,
                "Sign-in is unavailable right now; retry in a moment.");
}

}  // namespace

Result<LoginAttempt> RedisLoginThrottle::Begin(std::string_view email, std::string_view client_ip,
                                               std::string_view device_token) {
  LoginAttempt attempt;
  if (!device_token.empty()) {
    auto owner = redis_.Command({"GET", DeviceKey(device_token)});
    if (!owner.ok()) return Unrecorded(owner.status());
    attempt.trusted_device = owner->type == RedisReply::Type::kString &&
                             ConstantTimeEquals(owner->str, Sha256Hex(email));
  }
  const std::string subject =
      attempt.trusted_device ? DeviceFailuresKey(device_token) : EmailKey(email);
  const std::string window = std::to_string(policy_.window.count());
  for (const std::string& key : {subject, IpKey(client_ip)}) {
    auto r = redis_.Eval(CountScript(), {key}, {window});
    if (!r.ok()) return Unrecorded(r.status());
    if (r->elements.size() != 2 || r->elements[0].type != RedisReply::Type::kInteger) {
      return Unrecorded(Status(ErrorCode::kInternal, "unexpected reply from the count script"));
    }
    attempt.counted.push_back(key);
    if (r->elements[0].integer > policy_.max_failures) {
      attempt.retry_after = std::max<int64_t>(
          attempt.retry_after, std::max<int64_t>(1, r->elements[1].integer));
    }
  }
  return attempt;
}

Status RedisLoginThrottle::Succeeded(std::string_view email, const LoginAttempt& attempt) {
  (void)email;
  // The subject's count is cleared; the address's keeps its other attempts.
  for (size_t i = 0; i < attempt.counted.size(); ++i) {
    if (i == 0) {
      auto r = redis_.Command({"DEL", attempt.counted[i]});
      if (!r.ok()) return Status(ErrorCode::kUnavailable, r.status().message());
    } else {
      auto r = redis_.Eval(TakeBackScript(), {attempt.counted[i]}, {});
      if (!r.ok()) return Status(ErrorCode::kUnavailable, r.status().message());
    }
  }
  return Status::Ok();
}

Result<int64_t> RedisLoginThrottle::CountSignup(std::string_view client_ip) {
  auto r = redis_.Eval(CountScript(), {std::string(kFailures) + "signup:" + std::string(client_ip)},
                       {std::to_string(policy_.signup_window.count())});
  if (!r.ok()) return Unrecorded(r.status());
  if (r->elements.size() != 2 || r->elements[0].type != RedisReply::Type::kInteger) {
    return Unrecorded(Status(ErrorCode::kInternal, "unexpected reply from the count script"));
  }
  if (r->elements[0].integer <= policy_.max_signups) return int64_t{0};
  return std::max<int64_t>(1, r->elements[1].integer);
}

Result<std::string> RedisLoginThrottle::IssueDevice(std::string_view email) {
  const std::string token = RandomBase62(43);
  auto r = redis_.Command({"SET", DeviceKey(token), Sha256Hex(email), "EX",
                           std::to_string(policy_.device_lifetime.count())});
  if (!r.ok()) return Status(ErrorCode::kUnavailable, r.status().message());
  return token;
}

}  // namespace dq::gateway
