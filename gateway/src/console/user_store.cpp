#include "user_store.h"

namespace dq::gateway {
namespace {

std::string EmailKey(std::string_view email) { return "dq:email:" + std::string(email); }

}  // namespace

Status RedisUserStore::Create(const User& user) {
  const std::string user_key = AccountKey(user.account_id, "user");
  auto write = redis_.Command({"HSET", user_key, "email", user.email, "name", user.name,
                               "password_hash", user.password_hash, "created_at",
                               user.created_at});
  if (!write.ok()) return write.status();
  auto claim = redis_.Command({"SET", EmailKey(user.email), user.account_id, "NX"});
  if (!claim.ok()) return claim.status();
  if (claim->is_nil()) {
    redis_.Command({"DEL", user_key});
    return Status(ErrorCode::kEmailTaken, "An account with this e-mail address already exists.");
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
