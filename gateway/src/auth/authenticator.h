// Who is calling: the presented API key, checked against the account store.
//
// The key is read from X-API-Key, or else from "Authorization: Bearer <key>" (scheme
// case-insensitive). No key: kApiKeyRequired. A key that is malformed, unknown or revoked:
// kInvalidApiKey. A key whose account's plan has no API access: kProRequired, with the account
// still returned so the caller can show that account's rate-limit headers.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "dq/http/http_types.h"
#include "dq/common/account_store.h"
#include "dq/common/clock.h"

namespace dq::gateway {

// The key the request presents, or nullopt.
std::optional<std::string> ExtractApiKey(const http::HttpRequest& request);

struct Principal {
  Account account;
  std::string key_id;
};

class Authenticator {
 public:
  explicit Authenticator(AccountStore& store, const Clock& clock = SystemClock::Instance())
      : store_(store), clock_(clock) {}

  // Errors: kApiKeyRequired, kInvalidApiKey, kUnavailable. The plan is not checked here (see
  // HasApiAccess) so that the caller can order the checks as docs/api.md says. A key's
  // last_used_at is written at most once a minute per process (kTouchInterval), so using a key
  // costs no Redis write per request.
  Result<Principal> Authenticate(const http::HttpRequest& request);

  static constexpr std::chrono::seconds kTouchInterval{60};

 private:
  void Touch(const Principal& principal);

  AccountStore& store_;
  const Clock& clock_;
  std::mutex mu_;
  std::unordered_map<std::string, std::chrono::system_clock::time_point> touched_;
};

}  // namespace dq::gateway
