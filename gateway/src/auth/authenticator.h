// Who is calling: the presented API key, checked against the account store.
//
// The key is read from X-API-Key, or else from "Authorization: Bearer <key>" (scheme
// case-insensitive). No key: kApiKeyRequired. A key that is malformed, unknown or revoked:
// kInvalidApiKey. A key whose account's plan has no API access: kProRequired, with the account
// still returned so the caller can show that account's rate-limit headers.
#pragma once

#include <optional>
#include <string>

#include "http/core/http_types.h"
#include "dq/common/account_store.h"

namespace dq::gateway {

// The key the request presents, or nullopt.
std::optional<std::string> ExtractApiKey(const HttpRequest& request);

struct Principal {
  Account account;
  std::string key_id;
};

class Authenticator {
 public:
  explicit Authenticator(AccountStore& store) : store_(store) {}

  // Errors: kApiKeyRequired, kInvalidApiKey, kUnavailable. The plan is not checked here (see
  // HasApiAccess) so that the caller can order the checks as decisions.md says.
  Result<Principal> Authenticate(const HttpRequest& request);

 private:
  AccountStore& store_;
};

}  // namespace dq::gateway
