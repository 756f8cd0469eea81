#include "dq/testing/in_memory_account_store.h"

#include "dq/common/crypto.h"

namespace dq::testing {
namespace {
Status Down() { return Status(ErrorCode::kUnavailable, "store down"); }
Status NoAccount(std::string_view id) {
  return Status(ErrorCode::kNotFound, "no account " + std::string(id));
}
}  // namespace

Result<Account> InMemoryAccountStore::CreateAccount(Plan plan, std::string_view name) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  Account a{"acct_" + RandomBase62(16), std::string(name), plan, std::nullopt, "now"};
  accounts_[a.id] = a;
  return a;
}

Result<Account> InMemoryAccountStore::GetAccount(std::string_view id) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  auto it = accounts_.find(id);
  if (it == accounts_.end()) return NoAccount(id);
  return it->second;
}

Result<std::vector<std::string>> InMemoryAccountStore::ListAccountIds() {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  std::vector<std::string> ids;
  for (const auto& [id, a] : accounts_) ids.push_back(id);
  return ids;
}

Status InMemoryAccountStore::SetPlan(std::string_view id, Plan plan) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  auto it = accounts_.find(id);
  if (it == accounts_.end()) return NoAccount(id);
  it->second.plan = plan;
  return Status::Ok();
}

Status InMemoryAccountStore::SetQuota(std::string_view id, int64_t records) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  auto it = accounts_.find(id);
  if (it == accounts_.end()) return NoAccount(id);
  it->second.quota_override = records < 0 ? std::nullopt : std::optional<int64_t>(records);
  return Status::Ok();
}

Result<CreatedKey> InMemoryAccountStore::CreateKey(std::string_view id, std::string_view label) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  if (!accounts_.count(id)) return NoAccount(id);
  CreatedKey k{"key_" + RandomBase62(12), NewApiKey(), "2026-01-01T00:00:00.000Z"};
  keys_[k.key_id] = KeyRecord{std::string(id), k.key_id, Sha256Hex(k.api_key), false,
                              std::string(label), KeyPrefix(k.api_key), ""};
  return k;
}

Status InMemoryAccountStore::RevokeKey(std::string_view id, std::string_view key_id) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  auto it = keys_.find(key_id);
  if (it == keys_.end() || it->second.account_id != id) {
    return Status(ErrorCode::kNotFound, "no key");
  }
  it->second.revoked = true;
  return Status::Ok();
}

Result<std::vector<ApiKeyInfo>> InMemoryAccountStore::ListKeys(std::string_view id) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  std::vector<ApiKeyInfo> out;
  for (const auto& [kid, k] : keys_) {
    if (k.account_id == id) {
      out.push_back({kid, "", "2026-01-01T00:00:00.000Z", k.revoked ? "revoked" : "", k.label,
                     k.prefix, k.last_used_at});
    }
  }
  return out;
}

Result<std::optional<KeyOwner>> InMemoryAccountStore::FindKey(std::string_view hash) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  for (const auto& [kid, k] : keys_) {
    if (k.hash == hash && !k.revoked) return std::optional<KeyOwner>(KeyOwner{k.account_id, kid});
  }
  return std::optional<KeyOwner>();
}

Status InMemoryAccountStore::SetWebhook(std::string_view id, const Webhook& webhook) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  if (!accounts_.count(id)) return NoAccount(id);
  webhooks_[std::string(id)] = webhook;
  return Status::Ok();
}

Status InMemoryAccountStore::TouchKey(std::string_view, std::string_view key_id,
                                      std::string_view at) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  if (auto it = keys_.find(key_id); it != keys_.end()) it->second.last_used_at = std::string(at);
  return Status::Ok();
}

Status InMemoryAccountStore::SetWebhookTarget(std::string_view id, std::string_view url,
                                              bool enabled) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  if (!accounts_.count(id)) return NoAccount(id);
  auto& hook = webhooks_[std::string(id)];
  hook.url = std::string(url);
  hook.enabled = enabled;
  return Status::Ok();
}

Status InMemoryAccountStore::SetWebhookSecret(std::string_view id, std::string_view secret) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  if (!accounts_.count(id)) return NoAccount(id);
  auto& hook = webhooks_[std::string(id)];
  hook.secret = std::string(secret);
  hook.previous_secret.clear();
  hook.previous_until_ms = 0;
  return Status::Ok();
}

Status InMemoryAccountStore::RollWebhookSecret(std::string_view id, std::string_view secret,
                                               int64_t previous_until_ms) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  if (!accounts_.count(id)) return NoAccount(id);
  auto& hook = webhooks_[std::string(id)];
  const bool overlap = !hook.secret.empty() && previous_until_ms > 0;
  hook.previous_secret = overlap ? hook.secret : "";
  hook.previous_until_ms = overlap ? previous_until_ms : 0;
  hook.secret = std::string(secret);
  return Status::Ok();
}

Result<std::optional<Webhook>> InMemoryAccountStore::GetWebhook(std::string_view id) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  auto it = webhooks_.find(id);
  if (it == webhooks_.end()) return std::optional<Webhook>();
  return std::optional<Webhook>(it->second);
}

}  // namespace dq::testing
