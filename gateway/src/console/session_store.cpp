#include "session_store.h"

#include <algorithm>

#include "dq/common/crypto.h"
#include "dq/common/time_format.h"

namespace dq::gateway {
namespace {

constexpr size_t kSessionIdChars = 43;  // ~256 bits

std::string SessionKey(std::string_view id) { return "dq:session:" + Sha256Hex(id); }

}  // namespace

bool LooksLikeSessionId(std::string_view text) {
  if (text.size() != kSessionIdChars) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  });
}

Result<Session> RedisSessionStore::Create(std::string_view account_id) {
  Session s;
  s.id = RandomBase62(kSessionIdChars);
  s.account_id = std::string(account_id);
  s.csrf_token = RandomBase62(43);
  const int64_t now_ms = UnixMillis(clock_.Now());
  s.ends_ms = now_ms + policy_.absolute.count() * 1000;
  const int64_t ttl_ms = std::min(policy_.idle.count(), policy_.absolute.count()) * 1000;
  const std::string key = SessionKey(s.id);
  auto replies = redis_.Pipeline({
      {"HSET", key, "account_id", s.account_id, "csrf_token", s.csrf_token, "created_ms",
       std::to_string(now_ms), "ends_ms", std::to_string(s.ends_ms)},
      {"PEXPIRE", key, std::to_string(ttl_ms)},
  });
  if (!replies.ok()) return replies.status();
  for (const auto& r : *replies) {
    if (r.is_error()) return Status(ErrorCode::kInternal, "Redis error: " + r.str);
  }
  return s;
}

Result<std::optional<Session>> RedisSessionStore::Find(std::string_view id) {
  if (!LooksLikeSessionId(id)) return std::optional<Session>();
  const std::string key = SessionKey(id);
  auto reply = redis_.Command({"HGETALL", key});
  if (!reply.ok()) return reply.status();
  if (reply->elements.empty()) return std::optional<Session>();
  Session s;
  s.id = std::string(id);
  for (size_t i = 0; i + 1 < reply->elements.size(); i += 2) {
    const std::string& k = reply->elements[i].str;
    const std::string& v = reply->elements[i + 1].str;
    if (k == "account_id") s.account_id = v;
    else if (k == "csrf_token") s.csrf_token = v;
    else if (k == "ends_ms") s.ends_ms = std::strtoll(v.c_str(), nullptr, 10);
  }
  const int64_t now_ms = UnixMillis(clock_.Now());
  if (s.account_id.empty() || now_ms >= s.ends_ms) {
    IgnoreError(redis_.Command({"DEL", key}), "best effort: an ended session's key expires anyway");
    return std::optional<Session>();
  }
  const int64_t ttl_ms = std::min<int64_t>(policy_.idle.count() * 1000, s.ends_ms - now_ms);
  auto touch = redis_.Command({"PEXPIRE", key, std::to_string(ttl_ms)});
  if (!touch.ok()) return touch.status();
  return std::optional<Session>(std::move(s));
}

Status RedisSessionStore::Delete(std::string_view id) {
  if (!LooksLikeSessionId(id)) return Status::Ok();
  auto reply = redis_.Command({"DEL", SessionKey(id)});
  return reply.ok() ? Status::Ok() : reply.status();
}

}  // namespace dq::gateway
