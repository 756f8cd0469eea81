#include "dq/testing/console_fakes.h"

#include "dq/common/clock.h"

namespace dq::testing {
namespace {

Status Down() { return Status(ErrorCode::kUnavailable, "session store down"); }

}  // namespace

Result<gateway::Session> InMemorySessionStore::Create(std::string_view account_id) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  const std::string n = std::to_string(++next_);
  gateway::Session s;
  s.id = "session-" + n;
  s.account_id = std::string(account_id);
  s.csrf_token = "csrf-" + n;
  s.ends_ms = UnixMillis(clock_.Now()) + policy_.absolute.count() * 1000;
  sessions_[s.id] = s;
  return s;
}

Result<std::optional<gateway::Session>> InMemorySessionStore::Find(std::string_view id) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return std::optional<gateway::Session>();
  if (UnixMillis(clock_.Now()) >= it->second.ends_ms) {
    sessions_.erase(it);
    return std::optional<gateway::Session>();
  }
  return std::optional<gateway::Session>(it->second);
}

Status InMemorySessionStore::Delete(std::string_view id) {
  std::lock_guard lock(mu_);
  if (down_) return Down();
  if (auto it = sessions_.find(id); it != sessions_.end()) sessions_.erase(it);
  return Status::Ok();
}

Status InMemoryUserStore::Create(const gateway::User& user) {
  std::lock_guard lock(mu_);
  if (emails_.count(user.email) != 0) {
    return Status(ErrorCode::kEmailTaken, "e-mail taken");
  }
  emails_[user.email] = user.account_id;
  users_[user.account_id] = user;
  return Status::Ok();
}

Result<std::optional<gateway::User>> InMemoryUserStore::FindByEmail(std::string_view email) {
  std::lock_guard lock(mu_);
  auto e = emails_.find(email);
  if (e == emails_.end()) return std::optional<gateway::User>();
  return std::optional<gateway::User>(users_.at(e->second));
}

Result<std::optional<gateway::User>> InMemoryUserStore::Get(std::string_view account_id) {
  std::lock_guard lock(mu_);
  auto it = users_.find(account_id);
  if (it == users_.end()) return std::optional<gateway::User>();
  return std::optional<gateway::User>(it->second);
}

Result<bool> InMemoryUserStore::EmailTaken(std::string_view email) {
  std::lock_guard lock(mu_);
  return emails_.find(email) != emails_.end();
}

Status InMemoryUserStore::CreateUnclaimed(const gateway::User& user) {
  std::lock_guard lock(mu_);
  users_[user.account_id] = user;
  return Status::Ok();
}

Result<std::string> InMemoryUserStore::NewVerifyToken(std::string_view account_id,
                                                      std::chrono::seconds) {
  std::lock_guard lock(mu_);
  std::string token = "verify-" + std::to_string(tokens_.size() + 1);
  tokens_[token] = std::string(account_id);
  return token;
}

Result<std::optional<std::string>> InMemoryUserStore::Verify(std::string_view token) {
  std::lock_guard lock(mu_);
  auto it = tokens_.find(token);
  if (it == tokens_.end()) return std::optional<std::string>();
  std::string account_id = it->second;
  tokens_.erase(it);
  if (auto u = users_.find(account_id); u != users_.end()) u->second.verified = true;
  return std::optional<std::string>(account_id);
}

}  // namespace dq::testing
