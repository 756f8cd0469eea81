// The console's sign-up and sign-in bodies, checked: pure functions, no I/O.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq::gateway {

inline constexpr size_t kMaxEmailChars = 254;     // RFC 5321 path limit
inline constexpr size_t kMinPasswordChars = 12;
inline constexpr size_t kMaxPasswordChars = 256;  // argon2 takes more; nobody types more
inline constexpr size_t kMaxNameChars = 200;

struct SignupForm {
  std::string email;  // lower-cased
  std::string password;
  std::string name;
};

struct LoginForm {
  std::string email;  // lower-cased
  std::string password;
};

// Errors (invalid_request with a detail naming the field): email missing, not a string, longer
// than 254 characters or not an address (one "@", something on each side, no spaces); password
// missing, not a string, shorter than 12 or longer than 256 characters; name not a string or
// longer than 200 characters (name is optional).
Result<SignupForm> ParseSignup(const nlohmann::json& body);
// The same type and length checks; the address's shape is not judged (a wrong one is simply
// unknown, 401 invalid_credentials, like any other).
Result<LoginForm> ParseLogin(const nlohmann::json& body);

// ASCII lower-casing: the form the e-mail index uses.
std::string NormaliseEmail(std::string_view email);
bool LooksLikeEmail(std::string_view email);

}  // namespace dq::gateway
