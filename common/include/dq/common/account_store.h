// Accounts, plans, API keys, quota overrides and webhooks: the data dqctl manages and the
// gateway and notifier read.
//
// API keys look like "dq_" + 40 base62 characters. A key is shown once, at creation; only its
// SHA-256 is stored. An account may hold several active keys (rotation); revoking one takes
// effect on the next request, since nothing caches keys.
//
// Redis layout (every key tagged with its account, see AccountKey):
//   dq:{acct}:account        HASH id, name, plan, created_at, quota (override, optional)
//   dq:{acct}:keys           SET  key ids
//   dq:{acct}:key:<key_id>   HASH hash, hint, created_at, revoked_at
//   dq:{acct}:webhook        HASH url, secret
//   dq:apikey:<sha256>       STRING "<account_id> <key_id>"  (lookup; global, one key each)
//   dq:accounts              SET  account ids
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/clock.h"
#include "dq/common/redis_client.h"
#include "dq/common/status.h"

namespace dq {

enum class Plan { kFree, kPro, kBusiness, kAgency };

std::string_view PlanName(Plan plan);
std::optional<Plan> ParsePlan(std::string_view name);
// Pro, Business and Agency include API access; Free does not.
bool PlanHasApiAccess(Plan plan);

struct Account {
  std::string id;
  std::string name;
  Plan plan = Plan::kFree;
  std::optional<int64_t> quota_override;  // monthly records; unset: the plan's default
  std::string created_at;
};

struct ApiKeyInfo {
  std::string key_id;
  std::string hint;  // "dq_AbCd…wxyz": enough to recognise, useless to attack
  std::string created_at;
  std::string revoked_at;  // empty while active
};

struct CreatedKey {
  std::string key_id;
  std::string api_key;  // the only time the plaintext exists
};

// Who a presented key belongs to.
struct KeyOwner {
  std::string account_id;
  std::string key_id;
};

struct Webhook {
  std::string url;
  std::string secret;  // empty: deliveries are not signed
};

// "dq_" + 40 base62 characters.
std::string NewApiKey();
// True when text has the shape of an API key (cheap check before any lookup).
bool LooksLikeApiKey(std::string_view text);

class AccountStore {
 public:
  virtual ~AccountStore() = default;

  // Errors (all methods): kUnavailable when the store cannot be reached; kNotFound for an
  // unknown account or key. Thread-safe.
  virtual Result<Account> CreateAccount(Plan plan, std::string_view name) = 0;
  virtual Result<Account> GetAccount(std::string_view account_id) = 0;
  virtual Result<std::vector<std::string>> ListAccountIds() = 0;
  virtual Status SetPlan(std::string_view account_id, Plan plan) = 0;
  // records < 0 clears the override.
  virtual Status SetQuota(std::string_view account_id, int64_t records) = 0;

  virtual Result<CreatedKey> CreateKey(std::string_view account_id) = 0;
  virtual Status RevokeKey(std::string_view account_id, std::string_view key_id) = 0;
  virtual Result<std::vector<ApiKeyInfo>> ListKeys(std::string_view account_id) = 0;
  // The owner of an active key with this SHA-256, or nullopt (unknown or revoked).
  virtual Result<std::optional<KeyOwner>> FindKey(std::string_view key_sha256) = 0;

  virtual Status SetWebhook(std::string_view account_id, const Webhook& webhook) = 0;
  virtual Result<std::optional<Webhook>> GetWebhook(std::string_view account_id) = 0;
};

class RedisAccountStore final : public AccountStore {
 public:
  RedisAccountStore(RedisClient& redis, const Clock& clock) : redis_(redis), clock_(clock) {}

  Result<Account> CreateAccount(Plan plan, std::string_view name) override;
  Result<Account> GetAccount(std::string_view account_id) override;
  Result<std::vector<std::string>> ListAccountIds() override;
  Status SetPlan(std::string_view account_id, Plan plan) override;
  Status SetQuota(std::string_view account_id, int64_t records) override;
  Result<CreatedKey> CreateKey(std::string_view account_id) override;
  Status RevokeKey(std::string_view account_id, std::string_view key_id) override;
  Result<std::vector<ApiKeyInfo>> ListKeys(std::string_view account_id) override;
  Result<std::optional<KeyOwner>> FindKey(std::string_view key_sha256) override;
  Status SetWebhook(std::string_view account_id, const Webhook& webhook) override;
  Result<std::optional<Webhook>> GetWebhook(std::string_view account_id) override;

 private:
  Status RequireAccount(std::string_view account_id);

  RedisClient& redis_;
  const Clock& clock_;
};

}  // namespace dq
