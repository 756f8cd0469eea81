// Console sessions: an opaque random id in the dq_session cookie, a CSRF token bound to it.
//
// Redis layout:
//   dq:session:<sha256 of id>  HASH account_id, csrf_token, created_ms, ends_ms
// Only the id's digest is stored, so a copy of the data opens no session. The key's TTL is the
// idle limit, renewed on every use but never past ends_ms (the absolute limit). A global key per
// session, like the API key lookup: each lands on the slot of its own name in Redis Cluster.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dq/common/clock.h"
#include "dq/common/redis_client.h"
#include "dq/common/status.h"

namespace dq::gateway {

struct Session {
  std::string id;  // the cookie value; only known right after Create
  std::string account_id;
  std::string csrf_token;
  int64_t ends_ms = 0;
};

struct SessionPolicy {
  std::chrono::seconds idle{12 * 3600};          // DQ_SESSION_IDLE_SECONDS
  std::chrono::seconds absolute{7 * 24 * 3600};  // DQ_SESSION_MAX_SECONDS
};

class SessionStore {
 public:
  virtual ~SessionStore() = default;
  // A new session for account_id. Errors: kUnavailable.
  virtual Result<Session> Create(std::string_view account_id) = 0;
  // The live session with this id (its idle expiry renewed), or nullopt. Errors: kUnavailable.
  virtual Result<std::optional<Session>> Find(std::string_view id) = 0;
  virtual Status Delete(std::string_view id) = 0;
};

class RedisSessionStore final : public SessionStore {
 public:
  RedisSessionStore(RedisClient& redis, const Clock& clock, SessionPolicy policy)
      : redis_(redis), clock_(clock), policy_(policy) {}
  Result<Session> Create(std::string_view account_id) override;
  Result<std::optional<Session>> Find(std::string_view id) override;
  Status Delete(std::string_view id) override;

 private:
  RedisClient& redis_;
  const Clock& clock_;
  SessionPolicy policy_;
};

// True when text has the shape of a session id (43 base62 characters): a cheap check before any
// lookup.
bool LooksLikeSessionId(std::string_view text);

}  // namespace dq::gateway
