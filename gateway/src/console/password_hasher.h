// Password hashing for console users: argon2id through Debian's libargon2, in its encoded form
// ("$argon2id$v=19$m=...,t=...,p=...$salt$hash"), so each stored hash carries its own
// parameters and old hashes keep verifying after the settings change.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq::gateway {

struct Argon2Params {
  uint32_t time_cost = 2;         // DQ_ARGON2_TIME_COST
  uint32_t memory_kib = 19456;    // DQ_ARGON2_MEMORY_KIB
  uint32_t parallelism = 1;       // DQ_ARGON2_PARALLELISM
};

class PasswordHasher {
 public:
  virtual ~PasswordHasher() = default;
  // The encoded hash of password with a fresh random salt. Errors: kInternal.
  virtual Result<std::string> Hash(std::string_view password) const = 0;
  // True when password matches encoded. A malformed encoded hash is false.
  virtual bool Verify(std::string_view encoded, std::string_view password) const = 0;
  // Verifies against a hash of a random password made once, with the current parameters, so an
  // unknown e-mail costs as much time as a wrong password. Always false.
  virtual bool VerifyDummy(std::string_view password) const = 0;
};

class Argon2PasswordHasher final : public PasswordHasher {
 public:
  explicit Argon2PasswordHasher(Argon2Params params);
  Result<std::string> Hash(std::string_view password) const override;
  bool Verify(std::string_view encoded, std::string_view password) const override;
  bool VerifyDummy(std::string_view password) const override;

 private:
  Argon2Params params_;
  std::string dummy_;
};

}  // namespace dq::gateway
