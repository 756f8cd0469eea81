#include "dq/common/account_store.h"

#include <cstdlib>
#include <map>

#include "dq/common/crypto.h"
#include "dq/common/time_format.h"

namespace dq {
namespace {

constexpr std::string_view kApiKeyPrefix = "dq_";
constexpr size_t kApiKeyRandomChars = 40;

std::string LookupKey(std::string_view sha256) { return "dq:apikey:" + std::string(sha256); }

std::map<std::string, std::string> HashToMap(const RedisReply& reply) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
    out[reply.elements[i].str] = reply.elements[i + 1].str;
  }
  return out;
}

std::string KeyHint(std::string_view key) {
  return std::string(key.substr(0, 7)) + "…" + std::string(key.substr(key.size() - 4));
}

}  // namespace

std::string_view PlanName(Plan plan) {
  switch (plan) {
    case Plan::kFree: return "free";
    case Plan::kPro: return "pro";
    case Plan::kBusiness: return "business";
    case Plan::kAgency: return "agency";
  }
  return "free";
}

std::optional<Plan> ParsePlan(std::string_view name) {
  for (Plan p : {Plan::kFree, Plan::kPro, Plan::kBusiness, Plan::kAgency}) {
    if (PlanName(p) == name) return p;
  }
  return std::nullopt;
}

std::string KeyPrefix(std::string_view api_key) { return std::string(api_key.substr(0, 7)); }

bool PlanHasApiAccess(Plan plan) { return plan != Plan::kFree; }

std::string NewApiKey() { return std::string(kApiKeyPrefix) + RandomBase62(kApiKeyRandomChars); }

bool LooksLikeApiKey(std::string_view text) {
  if (text.size() != kApiKeyPrefix.size() + kApiKeyRandomChars) return false;
  if (text.substr(0, kApiKeyPrefix.size()) != kApiKeyPrefix) return false;
  for (char c : text.substr(kApiKeyPrefix.size())) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum) return false;
  }
  return true;
}

Status RedisAccountStore::RequireAccount(std::string_view account_id) {
  auto exists = redis_.Command({"EXISTS", AccountKey(account_id, "account")});
  if (!exists.ok()) return exists.status();
  if (exists->integer == 0) {
    return Status(ErrorCode::kNotFound, "no account " + std::string(account_id));
  }
  return Status::Ok();
}

Result<Account> RedisAccountStore::CreateAccount(Plan plan, std::string_view name) {
  Account account;
  account.id = "acct_" + RandomBase62(16);
  account.name = std::string(name);
  account.plan = plan;
  account.created_at = FormatIso8601Millis(clock_.Now());
  // Two slots (the account's tag and the global set), so separate commands, never one pipeline
  // or transaction. The account first: an id in the set always names an account. All durable: a
  // sign-up or a dqctl account lost in a failover would leave its user without an account.
  auto record = redis_.CommandDurable({"HSET", AccountKey(account.id, "account"), "id", account.id,
                                       "name", account.name, "created_at", account.created_at});
  if (!record.ok()) return record.status();
  if (!record->confirmed) return redis_.NotReplicated(*record);
  // No plan record means free: the gateway's sign-up never writes one (its Redis user may not).
  if (plan != Plan::kFree) {
    auto planned =
        redis_.CommandDurable({"HSET", AccountKey(account.id, "plan"), "plan", std::string(PlanName(plan))});
    if (!planned.ok()) return planned.status();
    if (!planned->confirmed) return redis_.NotReplicated(*planned);
  }
  auto listed = redis_.CommandDurable({"SADD", "dq:accounts", account.id});
  if (!listed.ok()) return listed.status();
  if (!listed->confirmed) return redis_.NotReplicated(*listed);
  return account;
}

Result<Account> RedisAccountStore::GetAccount(std::string_view account_id) {
  auto replies = redis_.Pipeline({{"HGETALL", AccountKey(account_id, "account")},
                                  {"HGETALL", AccountKey(account_id, "plan")}});
  if (!replies.ok()) return replies.status();
  for (const auto& r : *replies) {
    if (r.is_error()) return Status(ErrorCode::kUnavailable, "Redis error: " + r.str);
  }
  auto fields = HashToMap((*replies)[0]);
  if (fields.empty()) return Status(ErrorCode::kNotFound, "no account " + std::string(account_id));
  auto plan = HashToMap((*replies)[1]);
  Account account;
  account.id = fields["id"];
  account.name = fields["name"];
  // Only the plan record counts (a "plan" or "quota" left in the account hash by an earlier
  // version is ignored: `dqctl account migrate-plans` moves it).
  account.plan = ParsePlan(plan["plan"]).value_or(Plan::kFree);
  account.created_at = fields["created_at"];
  if (auto it = plan.find("quota"); it != plan.end() && !it->second.empty()) {
    char* end = nullptr;
    const long long q = std::strtoll(it->second.c_str(), &end, 10);
    if (end != nullptr && *end == '\0') account.quota_override = q;
  }
  return account;
}

Result<std::vector<std::string>> RedisAccountStore::ListAccountIds() {
  auto reply = redis_.Command({"SMEMBERS", "dq:accounts"});
  if (!reply.ok()) return reply.status();
  std::vector<std::string> ids;
  for (const auto& e : reply->elements) ids.push_back(e.str);
  return ids;
}

Status RedisAccountStore::SetPlan(std::string_view account_id, Plan plan) {
  if (auto s = RequireAccount(account_id); !s.ok()) return s;
  auto reply = redis_.Command(
      {"HSET", AccountKey(account_id, "plan"), "plan", std::string(PlanName(plan))});
  return reply.ok() ? Status::Ok() : reply.status();
}

Status RedisAccountStore::SetQuota(std::string_view account_id, int64_t records) {
  if (auto s = RequireAccount(account_id); !s.ok()) return s;
  auto reply = records < 0 ? redis_.Command({"HDEL", AccountKey(account_id, "plan"), "quota"})
                           : redis_.Command({"HSET", AccountKey(account_id, "plan"), "quota",
                                             std::to_string(records)});
  return reply.ok() ? Status::Ok() : reply.status();
}

Result<int> RedisAccountStore::MigratePlans() {
  auto ids = ListAccountIds();
  if (!ids.ok()) return ids.status();
  int moved = 0;
  for (const auto& id : *ids) {
    auto r = redis_.Pipeline({{"HMGET", AccountKey(id, "account"), "plan", "quota"},
                              {"EXISTS", AccountKey(id, "plan")}});
    if (!r.ok()) return r.status();
    if ((*r)[0].is_error() || (*r)[1].is_error()) {
      return Status(ErrorCode::kUnavailable, "Redis error while reading account " + id);
    }
    if ((*r)[1].integer == 1 || (*r)[0].elements.size() < 2) continue;
    const RedisReply& plan = (*r)[0].elements[0];
    const RedisReply& quota = (*r)[0].elements[1];
    std::vector<std::string> hset = {"HSET", AccountKey(id, "plan")};
    if (!plan.is_nil() && ParsePlan(plan.str) && *ParsePlan(plan.str) != Plan::kFree) {
      hset.insert(hset.end(), {"plan", plan.str});
    }
    if (!quota.is_nil() && !quota.str.empty()) hset.insert(hset.end(), {"quota", quota.str});
    if (hset.size() == 2) continue;  // free, no override: nothing to keep
    auto w = redis_.Command(hset);
    if (!w.ok()) return w.status();
    ++moved;
  }
  return moved;
}

Result<CreatedKey> RedisAccountStore::CreateKey(std::string_view account_id,
                                                std::string_view label) {
  if (auto s = RequireAccount(account_id); !s.ok()) return s;
  CreatedKey created;
  created.key_id = "key_" + RandomBase62(12);
  created.api_key = NewApiKey();
  created.created_at = FormatIso8601Millis(clock_.Now());
  const std::string hash = Sha256Hex(created.api_key);
  // The key record first, the lookup entry last: a crash in between leaves an unusable record,
  // never a usable key without a record.
  // Both steps are durable (they wait for DQ_REDIS_MIN_REPLICAS): a key shown to its owner must
  // not vanish in a failover. The record is one slot (the account's tag), the lookup another.
  DurableReply recorded;
  auto record = redis_.PipelineDurable(
      {
          {"HSET", AccountKey(account_id, "key:" + created.key_id), "hash", hash, "hint",
           KeyHint(created.api_key), "prefix", KeyPrefix(created.api_key), "label",
           std::string(label), "created_at", created.created_at},
          {"SADD", AccountKey(account_id, "keys"), created.key_id},
      },
      &recorded);
  if (!record.ok()) return record.status();
  if (!recorded.confirmed) return redis_.NotReplicated(recorded);
  const std::string owner = std::string(account_id) + " " + created.key_id;
  auto lookup = redis_.CommandDurable({"SET", LookupKey(hash), owner, "NX"});
  if (!lookup.ok()) return lookup.status();
  if (lookup->reply.is_nil()) return Status(ErrorCode::kInternal, "API key collision; try again");
  if (!lookup->confirmed) {
    // Never shown, so never usable: the lookup goes again (the record stays, unusable, as after
    // a crash between the two steps).
    IgnoreError(redis_.Command({"DEL", LookupKey(hash)}),
                "best effort: the key was never shown, so a lookup left behind never matches");
    return redis_.NotReplicated(*lookup);
  }
  return created;
}

Status RedisAccountStore::RevokeKey(std::string_view account_id, std::string_view key_id) {
  const std::string record_key = AccountKey(account_id, "key:" + std::string(key_id));
  auto hash = redis_.Command({"HGET", record_key, "hash"});
  if (!hash.ok()) return hash.status();
  if (hash->is_nil()) {
    return Status(ErrorCode::kNotFound,
                  "no key " + std::string(key_id) + " on account " + std::string(account_id));
  }
  // The lookup entry goes first: from this moment the key authenticates nothing. Durable: a
  // revocation rolled back by a failover would enable the key again; unconfirmed, it is a 503
  // and the caller revokes again (which is harmless).
  auto del = redis_.CommandDurable({"DEL", LookupKey(hash->str)});
  if (!del.ok()) return del.status();
  if (!del->confirmed) return redis_.NotReplicated(*del);
  // A second revocation keeps the first time.
  auto mark = redis_.CommandDurable(
      {"HSETNX", record_key, "revoked_at", FormatIso8601Millis(clock_.Now())});
  if (!mark.ok()) return mark.status();
  return mark->confirmed ? Status::Ok() : redis_.NotReplicated(*mark);
}

Result<std::vector<ApiKeyInfo>> RedisAccountStore::ListKeys(std::string_view account_id) {
  if (auto s = RequireAccount(account_id); !s.ok()) return s;
  auto ids = redis_.Command({"SMEMBERS", AccountKey(account_id, "keys")});
  if (!ids.ok()) return ids.status();
  std::vector<ApiKeyInfo> keys;
  for (const auto& id : ids->elements) {
    auto rec = redis_.Command({"HGETALL", AccountKey(account_id, "key:" + id.str)});
    if (!rec.ok()) return rec.status();
    auto f = HashToMap(*rec);
    std::string prefix = f["prefix"];
    if (prefix.empty()) prefix = f["hint"].substr(0, 7);  // keys made before prefixes were kept
    keys.push_back({id.str, f["hint"], f["created_at"], f["revoked_at"], f["label"], prefix,
                    f["last_used_at"]});
  }
  return keys;
}

Result<std::optional<KeyOwner>> RedisAccountStore::FindKey(std::string_view key_sha256) {
  auto reply = redis_.Command({"GET", LookupKey(key_sha256)});
  if (!reply.ok()) return reply.status();
  if (reply->is_nil()) return std::optional<KeyOwner>();
  const auto space = reply->str.find(' ');
  if (space == std::string::npos) return std::optional<KeyOwner>();
  return std::optional<KeyOwner>(KeyOwner{reply->str.substr(0, space), reply->str.substr(space + 1)});
}

Status RedisAccountStore::TouchKey(std::string_view account_id, std::string_view key_id,
                                   std::string_view at) {
  auto reply = redis_.Command({"HSET", AccountKey(account_id, "key:" + std::string(key_id)),
                               "last_used_at", std::string(at)});
  return reply.ok() ? Status::Ok() : reply.status();
}

Status RedisAccountStore::SetWebhook(std::string_view account_id, const Webhook& webhook) {
  if (auto s = RequireAccount(account_id); !s.ok()) return s;
  auto reply = redis_.Command({"HSET", AccountKey(account_id, "webhook"), "url", webhook.url,
                               "secret", webhook.secret, "enabled", webhook.enabled ? "1" : "0",
                               "previous_secret", webhook.previous_secret, "previous_until_ms",
                               std::to_string(webhook.previous_until_ms)});
  return reply.ok() ? Status::Ok() : reply.status();
}

Status RedisAccountStore::SetWebhookTarget(std::string_view account_id, std::string_view url,
                                           bool enabled) {
  if (auto s = RequireAccount(account_id); !s.ok()) return s;
  auto reply = redis_.Command({"HSET", AccountKey(account_id, "webhook"), "url",
                               std::string(url), "enabled", enabled ? "1" : "0"});
  return reply.ok() ? Status::Ok() : reply.status();
}

Status RedisAccountStore::SetWebhookSecret(std::string_view account_id, std::string_view secret) {
  if (auto s = RequireAccount(account_id); !s.ok()) return s;
  auto reply = redis_.Command({"HSET", AccountKey(account_id, "webhook"), "secret",
                               std::string(secret), "previous_secret", "", "previous_until_ms",
                               "0"});
  return reply.ok() ? Status::Ok() : reply.status();
}

Status RedisAccountStore::RollWebhookSecret(std::string_view account_id, std::string_view secret,
                                            int64_t previous_until_ms) {
  if (auto s = RequireAccount(account_id); !s.ok()) return s;
  auto current = GetWebhook(account_id);
  if (!current.ok()) return current.status();
  const std::string old = current->has_value() ? (*current)->secret : "";
  const bool overlap = !old.empty() && previous_until_ms > 0;
  auto reply = redis_.Command({"HSET", AccountKey(account_id, "webhook"), "secret",
                               std::string(secret), "previous_secret", overlap ? old : "",
                               "previous_until_ms",
                               std::to_string(overlap ? previous_until_ms : 0)});
  return reply.ok() ? Status::Ok() : reply.status();
}

std::vector<std::string> SigningSecrets(const Webhook& hook, int64_t now_ms) {
  std::vector<std::string> out;
  if (hook.secret.empty()) return out;
  out.push_back(hook.secret);
  if (!hook.previous_secret.empty() && hook.previous_secret != hook.secret &&
      now_ms < hook.previous_until_ms) {
    out.push_back(hook.previous_secret);
  }
  return out;
}

Result<std::optional<Webhook>> RedisAccountStore::GetWebhook(std::string_view account_id) {
  auto reply = redis_.Command({"HGETALL", AccountKey(account_id, "webhook")});
  if (!reply.ok()) return reply.status();
  auto f = HashToMap(*reply);
  if (f["url"].empty() && f["secret"].empty()) return std::optional<Webhook>();
  Webhook hook{f["url"], f["secret"], f["enabled"] != "0"};
  hook.previous_secret = f["previous_secret"];
  hook.previous_until_ms = std::strtoll(f["previous_until_ms"].c_str(), nullptr, 10);
  return std::optional<Webhook>(std::move(hook));
}

}  // namespace dq
