#include "login_throttle.h"

#include <algorithm>

#include "dq/common/crypto.h"

namespace dq::gateway {
namespace {

std::string EmailKey(std::string_view email) {
  return "dq:login_failures:email:" + Sha256Hex(email);
}
std::string IpKey(std::string_view ip) { return "dq:login_failures:ip:" + std::string(ip); }

}  // namespace

Result<int64_t> RedisLoginThrottle::Blocked(std::string_view email, std::string_view client_ip) {
  const std::string keys[] = {EmailKey(email), IpKey(client_ip)};
  int64_t wait = 0;
  for (const auto& key : keys) {
    auto replies = redis_.Pipeline({{"GET", key}, {"TTL", key}});
    if (!replies.ok()) return replies.status();
    const auto& count = (*replies)[0];
    if (count.is_nil() || count.is_error()) continue;
    if (std::strtoll(count.str.c_str(), nullptr, 10) >= policy_.max_failures) {
      wait = std::max<int64_t>(wait, std::max<int64_t>(1, (*replies)[1].integer));
    }
  }
  return wait;
}

Status RedisLoginThrottle::RecordFailure(std::string_view email, std::string_view client_ip) {
  const std::string window = std::to_string(policy_.window.count());
  // One pipeline per key: the two keys are in different slots (Redis Cluster).
  for (const std::string& key : {EmailKey(email), IpKey(client_ip)}) {
    auto replies = redis_.Pipeline({{"INCR", key},
                                    // the first failure starts the window
                                    {"EXPIRE", key, window, "NX"}});
    if (!replies.ok()) return replies.status();
  }
  return Status::Ok();
}

Status RedisLoginThrottle::RecordSuccess(std::string_view email) {
  auto reply = redis_.Command({"DEL", EmailKey(email)});
  return reply.ok() ? Status::Ok() : reply.status();
}

}  // namespace dq::gateway
