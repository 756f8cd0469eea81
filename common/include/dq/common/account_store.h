// Accounts, plans, API keys, quota overrides and webhooks: the data dqctl manages and the
// gateway and notifier read.
//
// API keys look like "dq_" + 40 base62 characters. A key is shown once, at creation; only its
// SHA-256 is stored. An account may hold several active keys (rotation); revoking one takes
// effect on the next request, since nothing caches keys.
//
// Redis layout (every key tagged with its account, see AccountKey):
//   dq:{acct}:account        HASH id, name, created_at
//   dq:{acct}:plan           HASH plan, quota (override, optional); absent: free, the plan's
//                                 quota. Only dqctl's Redis user may write it (deploy/redis/
//                                 users.acl): the gateway, which creates free accounts at
//                                 sign-up, can read it and nothing more.
//   dq:{acct}:keys           SET  key ids
//   dq:{acct}:key:<key_id>   HASH hash, hint, prefix, label, created_at, last_used_at,
//                                 revoked_at
//   dq:{acct}:webhook        HASH url, secret, enabled ("0" or "1"; missing: enabled)
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
  std::string label;
  std::string prefix;        // "dq_AbCd": the key's first 7 characters
  std::string last_used_at;  // empty: never used (written at most once a minute per gateway)
};

struct CreatedKey {
  std::string key_id;
  std::string api_key;  // the only time the plaintext exists
  std::string created_at;
};

// Who a presented key belongs to.
struct KeyOwner {
  std::string account_id;
  std::string key_id;
};

struct Webhook {
  std::string url;
  std::string secret;  // empty: deliveries are not signed
  bool enabled = true;  // false: events are logged as skipped, nothing is sent
  // After a roll, the secret it replaced keeps signing beside the new one until this time
  // (Unix ms; docs/notifier.md, "Rolling the secret"). Empty / 0: no overlap.
  std::string previous_secret = {};
  int64_t previous_until_ms = 0;
};

// The secrets that sign a delivery at now_ms, newest first: the secret, then the previous one
// while its overlap lasts. Empty when the webhook has no secret.
std::vector<std::string> SigningSecrets(const Webhook& hook, int64_t now_ms);

// The first characters of a key shown in lists: "dq_" and 4 more.
std::string KeyPrefix(std::string_view api_key);

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
  // Accounts stored by an earlier version kept plan and quota in the account hash; this copies
  // them into the plan record where none exists yet. Returns the number of accounts moved.
  virtual Result<int> MigratePlans() { return 0; }

  virtual Result<CreatedKey> CreateKey(std::string_view account_id,
                                       std::string_view label = {}) = 0;
  virtual Status RevokeKey(std::string_view account_id, std::string_view key_id) = 0;
  virtual Result<std::vector<ApiKeyInfo>> ListKeys(std::string_view account_id) = 0;
  // The owner of an active key with this SHA-256, or nullopt (unknown or revoked).
  virtual Result<std::optional<KeyOwner>> FindKey(std::string_view key_sha256) = 0;
  // Records when a key was last used (ISO 8601). Errors: kUnavailable.
  virtual Status TouchKey(std::string_view account_id, std::string_view key_id,
                          std::string_view at) = 0;

  virtual Status SetWebhook(std::string_view account_id, const Webhook& webhook) = 0;
  // The stored webhook, also when only a secret is set (url empty); nullopt when nothing is.
  virtual Result<std::optional<Webhook>> GetWebhook(std::string_view account_id) = 0;
  // Sets url and enabled, keeping the secret. Sets the secret, keeping the rest.
  virtual Status SetWebhookTarget(std::string_view account_id, std::string_view url,
                                  bool enabled) = 0;
  // Sets the secret with no overlap (the previous one, if any, stops signing).
  virtual Status SetWebhookSecret(std::string_view account_id, std::string_view secret) = 0;
  // Makes secret the current one; the one it replaces keeps signing until previous_until_ms
  // (none when there was no secret, or previous_until_ms is 0).
  virtual Status RollWebhookSecret(std::string_view account_id, std::string_view secret,
                                   int64_t previous_until_ms) = 0;
};

class RedisAccountStore final : public AccountStore {
 public:
  RedisAccountStore(RedisClient& redis, const Clock& clock) : redis_(redis), clock_(clock) {}

  Result<Account> CreateAccount(Plan plan, std::string_view name) override;
  Result<Account> GetAccount(std::string_view account_id) override;
  Result<std::vector<std::string>> ListAccountIds() override;
  Status SetPlan(std::string_view account_id, Plan plan) override;
  Status SetQuota(std::string_view account_id, int64_t records) override;
  Result<int> MigratePlans() override;
  Result<CreatedKey> CreateKey(std::string_view account_id, std::string_view label = {}) override;
  Status RevokeKey(std::string_view account_id, std::string_view key_id) override;
  Result<std::vector<ApiKeyInfo>> ListKeys(std::string_view account_id) override;
  Result<std::optional<KeyOwner>> FindKey(std::string_view key_sha256) override;
  Status TouchKey(std::string_view account_id, std::string_view key_id,
                  std::string_view at) override;
  Status SetWebhook(std::string_view account_id, const Webhook& webhook) override;
  Result<std::optional<Webhook>> GetWebhook(std::string_view account_id) override;
  Status SetWebhookTarget(std::string_view account_id, std::string_view url,
                          bool enabled) override;
  Status SetWebhookSecret(std::string_view account_id, std::string_view secret) override;
  Status RollWebhookSecret(std::string_view account_id, std::string_view secret,
                           int64_t previous_until_ms) override;

 private:
  Status RequireAccount(std::string_view account_id);

  RedisClient& redis_;
  const Clock& clock_;
};

}  // namespace dq
