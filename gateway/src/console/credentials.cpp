#include "credentials.h"

#include "dq/http/json_body.h"
#include "dq/common/ascii.h"

namespace dq::gateway {
namespace {

Status FieldError(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, field + ": " + message, {{field, message}});
}

}  // namespace

std::string NormaliseEmail(std::string_view email) {
  return ascii::Lower(email);
}

bool LooksLikeEmail(std::string_view email) {
  const size_t at = email.find('@');
  if (at == std::string_view::npos || at == 0 || at + 1 >= email.size()) return false;
  if (email.find('@', at + 1) != std::string_view::npos) return false;
  for (unsigned char c : email) {
    if (c <= ' ' || c == 0x7f) return false;
  }
  const std::string_view domain = email.substr(at + 1);
  return domain.front() != '.' && domain.back() != '.';
}

Result<SignupForm> ParseSignup(const nlohmann::json& body) {
  auto email = http::StringField(body, "email", true, kMaxEmailChars);
  if (!email.ok()) return email.status();
  if (!LooksLikeEmail(**email)) return FieldError("email", "is not an e-mail address");
  auto password = http::StringField(body, "password", true, kMaxPasswordChars);
  if (!password.ok()) return password.status();
  if (http::Utf8Length(**password) < kMinPasswordChars) {
    return FieldError("password",
                      "must be at least " + std::to_string(kMinPasswordChars) + " characters");
  }
  auto name = http::StringField(body, "name", false, kMaxNameChars);
  if (!name.ok()) return name.status();
  return SignupForm{NormaliseEmail(**email), std::move(**password), name->value_or("")};
}

Result<LoginForm> ParseLogin(const nlohmann::json& body) {
  auto email = http::StringField(body, "email", true, kMaxEmailChars);
  if (!email.ok()) return email.status();
  auto password = http::StringField(body, "password", true, kMaxPasswordChars);
  if (!password.ok()) return password.status();
  return LoginForm{NormaliseEmail(**email), std::move(**password)};
}

}  // namespace dq::gateway
