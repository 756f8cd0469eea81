#include "user_store.h"

namespace dq::gateway {
namespace {

std::string EmailKey(std::string_view email) { return "dq:email:" + std::string(email); }

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
  auto write = redis_.CommandDurable({"HSET", user_key, "email", user.email, "name", user.name,
                                      "password_hash", user.password_hash, "created_at",
                                      user.created_at});
  if (!write.ok()) return write.status();
  if (!write->confirmed) return redis_.NotReplicated(*write);
  auto claim = redis_.CommandDurable({"SET", EmailKey(user.email), user.account_id, "NX"});
  if (!claim.ok()) return claim.status();
  if (claim->reply.is_nil()) {
    redis_.Command({"DEL", user_key});
    return Status(ErrorCode::kEmailTaken, "An account with this e-mail address already exists.");
  }
  if (!claim->confirmed) {
    redis_.Eval(kReleaseEmail, {EmailKey(user.email)}, {user.account_id});
    redis_.Command({"DEL", user_key});
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

}  // namespace dq::gateway
