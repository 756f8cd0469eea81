// Console users: one user per account (the one who signed up), found by e-mail at sign-in.
//
// Redis layout:
//   dq:{acct}:user            HASH email, name, password_hash, created_at
//   dq:email:<email>          STRING account id. A global key, one per address (lower-cased):
//                             in Redis Cluster each lands on the slot of its own name, so the
//                             index spreads over the cluster and every access is one key.
// Sign-up writes the user first and claims the e-mail last with SET NX: whoever claims it first
// owns it, and a lost race leaves nothing reachable.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "dq/common/redis_client.h"
#include "dq/common/status.h"

namespace dq::gateway {

struct User {
  std::string account_id;
  std::string email;  // lower-cased
  std::string name;
  std::string password_hash;
  std::string created_at;
};

class UserStore {
 public:
  virtual ~UserStore() = default;
  // Stores user and claims its e-mail. Errors: kEmailTaken, kUnavailable.
  virtual Status Create(const User& user) = 0;
  // nullopt when no user has that (lower-cased) e-mail. Errors: kUnavailable.
  virtual Result<std::optional<User>> FindByEmail(std::string_view email) = 0;
  virtual Result<std::optional<User>> Get(std::string_view account_id) = 0;
  // True when the e-mail is claimed. Errors: kUnavailable.
  virtual Result<bool> EmailTaken(std::string_view email) = 0;
};

class RedisUserStore final : public UserStore {
 public:
  explicit RedisUserStore(RedisClient& redis) : redis_(redis) {}
  Status Create(const User& user) override;
  Result<std::optional<User>> FindByEmail(std::string_view email) override;
  Result<std::optional<User>> Get(std::string_view account_id) override;
  Result<bool> EmailTaken(std::string_view email) override;

 private:
  RedisClient& redis_;
};

}  // namespace dq::gateway
