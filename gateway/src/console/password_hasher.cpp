#include "password_hasher.h"

#include <argon2.h>

#include "dq/common/crypto.h"

namespace dq::gateway {
namespace {

constexpr uint32_t kSaltBytes = 16;
constexpr uint32_t kHashBytes = 32;

}  // namespace

Argon2PasswordHasher::Argon2PasswordHasher(Argon2Params params) : params_(params) {
  auto dummy = Hash(RandomBase62(24));
  if (dummy.ok()) dummy_ = std::move(*dummy);
}

Result<std::string> Argon2PasswordHasher::Hash(std::string_view password) const {
  const std::string salt = RandomBytes(kSaltBytes);
  std::string encoded(argon2_encodedlen(params_.time_cost, params_.memory_kib,
                                        params_.parallelism, kSaltBytes, kHashBytes,
                                        Argon2_id),
                      '\0');
  const int rc = argon2id_hash_encoded(params_.time_cost, params_.memory_kib, params_.parallelism,
                                       password.data(), password.size(), salt.data(), salt.size(),
                                       kHashBytes, encoded.data(), encoded.size());
  if (rc != ARGON2_OK) {
    return Status(ErrorCode::kInternal,
                  std::string("password hashing failed: ") + argon2_error_message(rc));
  }
  encoded.resize(encoded.find('\0'));
  return encoded;
}

bool Argon2PasswordHasher::Verify(std::string_view encoded, std::string_view password) const {
  if (encoded.empty()) return false;
  const std::string z(encoded);  // argon2 wants a NUL-terminated string
  return argon2id_verify(z.c_str(), password.data(), password.size()) == ARGON2_OK;
}

bool Argon2PasswordHasher::VerifyDummy(std::string_view password) const {
  Verify(dummy_, password);
  return false;
}

}  // namespace dq::gateway
