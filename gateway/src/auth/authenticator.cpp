#include "authenticator.h"

#include <algorithm>

#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"
#include "dq/common/ascii.h"

namespace dq::gateway {
std::optional<std::string> ExtractApiKey(const http::HttpRequest& request) {
  if (const std::string* key = request.Header("x-api-key")) {
    std::string_view v = ascii::Trim(*key);
    if (!v.empty()) return std::string(v);
  }
  if (const std::string* auth = request.Header("authorization")) {
    std::string_view v = ascii::Trim(*auth);
    if (ascii::StartsWithIgnoreCase(v, "bearer ")) {
      v = ascii::Trim(v.substr(7));
      if (!v.empty()) return std::string(v);
    }
  }
  return std::nullopt;
}

Result<Principal> Authenticator::Authenticate(const http::HttpRequest& request) {
  auto key = ExtractApiKey(request);
  if (!key) {
    return Status(ErrorCode::kApiKeyRequired,
                  "Send your API key in the X-API-Key header or as 'Authorization: Bearer <key>'.");
  }
  const Status invalid(ErrorCode::kInvalidApiKey,
                       "The API key is not valid or has been revoked.");
  if (!LooksLikeApiKey(*key)) return invalid;
  auto owner = store_.FindKey(Sha256Hex(*key));
  if (!owner.ok()) return owner.status();
  if (!owner->has_value()) return invalid;
  auto account = store_.GetAccount((*owner)->account_id);
  if (!account.ok()) {
    return account.status().code() == ErrorCode::kNotFound ? invalid : account.status();
  }
  Principal principal{std::move(*account), (*owner)->key_id};
  Touch(principal);
  return principal;
}

void Authenticator::Touch(const Principal& principal) {
  const auto now = clock_.Now();
  {
    std::lock_guard lock(mu_);
    auto [it, fresh] = touched_.try_emplace(principal.key_id, now);
    if (!fresh && now - it->second < kTouchInterval) return;
    it->second = now;
    if (touched_.size() > 100000) touched_.clear();  // bounded: forgetting costs one write each
  }
  // Bookkeeping only: a failed write must not fail the request.
  if (Status s = store_.TouchKey(principal.account.id, principal.key_id, FormatIso8601Millis(now));
      !s.ok()) {
    log::Warn("last_used_at not written", {{"key_id", principal.key_id}, {"error", s.message()}});
  }
}

}  // namespace dq::gateway
