#include "user_store.h"

#include "dq/common/crypto.h"
#include "dq/common/log.h"

namespace dq::gateway {
namespace {

std::string EmailKey(std::string_view email) { return "dq:email:" + std::string(email); }
std::string VerifyKey(std::string_view token) { return "dq:verify:" + Sha256Hex(token); }

// Durable (DQ_REDIS_MIN_REPLICAS): a user written and answered survives a failover.
Status Write(RedisClient& redis, const User& user) {
  auto write = redis.CommandDurable({"HSET", AccountKey(user.account_id, "user"), "email",
                                     user.email, "name", user.name, "password_hash",
                                     user.password_hash, "created_at", user.created_at,
                                     "email_verified", user.verified ? "1" : "0"});
  if (!write.ok()) return write.status();
  if (!write->confirmed) return redis.NotReplicated(*write);
  return Status::Ok();
}

// KEYS: the e-mail index entry. ARGV: account id. Deletes it only if it still names the account.
const RedisScript kReleaseEmail(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
)lua");

}  // namespace

Status RedisUserStore::Create(const User& user) {
  const std::string user_key = AccountKey(user.account_id, "user");
  // Durable (DQ_REDIS_MIN_REPLICAS): a sign-up that answered 201 survives a failover. Two slots,
  // two commands; a claim not known to survive is taken back, so the 503's retry can sign up.
  if (Status s = Write(redis_, user); !s.ok()) return s;
  auto claim = redis_.CommandDurable({"SET", EmailKey(user.email), user.account_id, "NX"});
  if (!claim.ok()) return claim.status();
  if (claim->reply.is_nil()) {
    IgnoreError(redis_.Command({"DEL", user_key}),
                "best effort: a user record without its e-mail claim is never found");
    return Status(ErrorCode::kEmailTaken, "An account with this e-mail address already exists.");
  }
  if (!claim->confirmed) {
    if (auto r = redis_.Eval(kReleaseEmail, {EmailKey(user.email)}, {user.account_id}); !r.ok()) {
      // Not handled before either: the e-mail stays claimed, and a retry is told it is taken.
      log::Warn("sign-up: e-mail claim not released",
                {{"account_id", user.account_id}, {"error", r.status().message()}});
    }
    IgnoreError(redis_.Command({"DEL", user_key}),
                "best effort: a user record without its e-mail claim is never found");
    return redis_.NotReplicated(*claim);
  }
  return Status::Ok();
}

Result<std::optional<User>> RedisUserStore::Get(std::string_view account_id) {
  auto reply = redis_.Command({"HGETALL", AccountKey(account_id, "user")});
  if (!reply.ok()) return reply.status();
  if (reply->elements.empty()) return std::optional<User>();
  User u;
  u.account_id = std::string(account_id);
  for (size_t i = 0; i + 1 < reply->elements.size(); i += 2) {
    const std::string& k = reply->elements[i].str;
    const std::string& v = reply->elements[i + 1].str;
    if (k == "email") u.email = v;
    else if (k == "name") u.name = v;
    else if (k == "password_hash") u.password_hash = v;
    else if (k == "created_at") u.created_at = v;
    else if (k == "email_verified") u.verified = v != "0";
  }
  return std::optional<User>(std::move(u));
}

Result<std::optional<User>> RedisUserStore::FindByEmail(std::string_view email) {
  auto id = redis_.Command({"GET", EmailKey(email)});
  if (!id.ok()) return id.status();
  if (id->is_nil()) return std::optional<User>();
  auto user = Get(id->str);
  if (!user.ok()) return user.status();
  // An index entry whose user is gone, or that points elsewhere, finds nobody.
  if (!user->has_value() || (*user)->email != email) return std::optional<User>();
  return user;
}

Result<bool> RedisUserStore::EmailTaken(std::string_view email) {
  auto reply = redis_.Command({"EXISTS", EmailKey(email)});
  if (!reply.ok()) return reply.status();
  return reply->integer == 1;
}

Status RedisUserStore::CreateUnclaimed(const User& user) { return Write(redis_, user); }

Result<std::string> RedisUserStore::NewVerifyToken(std::string_view account_id,
                                                   std::chrono::seconds ttl) {
  const std::string token = RandomBase62(43);
  auto r = redis_.Command({"SET", VerifyKey(token), std::string(account_id), "EX",
                           std::to_string(ttl.count())});
  if (!r.ok()) return r.status();
  return token;
}

Result<std::optional<std::string>> RedisUserStore::Verify(std::string_view token) {
  auto id = redis_.Command({"GET", VerifyKey(token)});
  if (!id.ok()) return id.status();
  if (id->is_nil()) return std::optional<std::string>();
  auto user = Get(id->str);
  if (!user.ok()) return user.status();
  if (!user->has_value()) return std::optional<std::string>();
  auto mark = redis_.Command({"HSET", AccountKey(id->str, "user"), "email_verified", "1"});
  if (!mark.ok()) return mark.status();
  IgnoreError(redis_.Command({"DEL", VerifyKey(token)}), "spent; it expires anyway");
  return std::optional<std::string>(id->str);
}

}  // namespace dq::gateway
