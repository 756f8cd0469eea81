// Console users: one user per account (the one who signed up), found by e-mail at sign-in.
//
// Redis layout:
//   dq:{acct}:user            HASH email, name, password_hash, created_at, email_verified ("0"
//                             until the link in the sign-up mail is opened; absent: verified,
//                             for users made before verification existed)
//   dq:verify:<sha256 token>  STRING account id, 48 hours: an unused verification link
//   dq:email:<email>          STRING account id. A global key, one per address (lower-cased):
//                             in Redis Cluster each lands on the slot of its own name, so the
//                             index spreads over the cluster and every access is one key.
// Sign-up writes the user first and claims the e-mail last with SET NX: whoever claims it first
// owns it, and a lost race leaves nothing reachable.
#pragma once

#include <chrono>
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
  bool verified = true;  // false: the e-mail address is not verified yet
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
  // Stores a user without claiming its e-mail (a sign-up with an address someone else owns: the
  // account works, but nobody can sign in to it by that e-mail or verify it).
  virtual Status CreateUnclaimed(const User& user) = 0;
  // A new verification token for the account, valid for ttl. Errors: kUnavailable.
  virtual Result<std::string> NewVerifyToken(std::string_view account_id,
                                             std::chrono::seconds ttl) = 0;
  // Marks the user of the token's account verified and spends the token; nullopt for an unknown
  // or expired token. Errors: kUnavailable.
  virtual Result<std::optional<std::string>> Verify(std::string_view token) = 0;
};

class RedisUserStore final : public UserStore {
 public:
  explicit RedisUserStore(RedisClient& redis) : redis_(redis) {}
  Status Create(const User& user) override;
  Result<std::optional<User>> FindByEmail(std::string_view email) override;
  Result<std::optional<User>> Get(std::string_view account_id) override;
  Result<bool> EmailTaken(std::string_view email) override;
  Status CreateUnclaimed(const User& user) override;
  Result<std::string> NewVerifyToken(std::string_view account_id,
                                     std::chrono::seconds ttl) override;
  Result<std::optional<std::string>> Verify(std::string_view token) override;

 private:
  RedisClient& redis_;
};

}  // namespace dq::gateway
