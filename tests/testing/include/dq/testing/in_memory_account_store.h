// AccountStore in memory, for tests of code that only needs the interface.
#pragma once

#include <map>
#include <mutex>

#include "dq/common/account_store.h"

namespace dq::testing {

class InMemoryAccountStore final : public AccountStore {
 public:
  Result<Account> CreateAccount(Plan plan, std::string_view name) override;
  Result<Account> GetAccount(std::string_view account_id) override;
  Result<std::vector<std::string>> ListAccountIds() override;
  Status SetPlan(std::string_view account_id, Plan plan) override;
  Status SetQuota(std::string_view account_id, int64_t records) override;
  Result<CreatedKey> CreateKey(std::string_view account_id, std::string_view label = {}) override;
  Status RevokeKey(std::string_view account_id, std::string_view key_id) override;
  Result<std::vector<ApiKeyInfo>> ListKeys(std::string_view account_id) override;
  Result<std::optional<KeyOwner>> FindKey(std::string_view key_sha256) override;
  Status SetWebhook(std::string_view account_id, const Webhook& webhook) override;
  Result<std::optional<Webhook>> GetWebhook(std::string_view account_id) override;
  Status TouchKey(std::string_view account_id, std::string_view key_id,
                  std::string_view at) override;
  Status SetWebhookTarget(std::string_view account_id, std::string_view url,
                          bool enabled) override;
  Status SetWebhookSecret(std::string_view account_id, std::string_view secret) override;
  Status RollWebhookSecret(std::string_view account_id, std::string_view secret,
                           int64_t previous_until_ms) override;

  // When set, every call fails with kUnavailable (a store outage).
  void SetUnavailable(bool down) { down_ = down; }

 private:
  struct KeyRecord {
    std::string account_id;
    std::string key_id;
    std::string hash;
    bool revoked = false;
    std::string label;
    std::string prefix;
    std::string last_used_at;
  };
  std::mutex mu_;
  bool down_ = false;
  std::map<std::string, Account, std::less<>> accounts_;
  std::map<std::string, KeyRecord, std::less<>> keys_;  // by key id
  std::map<std::string, Webhook, std::less<>> webhooks_;
};

}  // namespace dq::testing
