#include "signer.h"

#include "dq/common/crypto.h"

namespace dq::notifier {

std::optional<std::string> SignatureHeaderValue(std::string_view body, std::string_view secret) {
  if (secret.empty()) return std::nullopt;
  return "sha256=" + HmacSha256Hex(secret, body);
}

bool VerifySignature(std::string_view body, std::string_view secret,
                     std::string_view header_value) {
  const auto expected = SignatureHeaderValue(body, secret);
  if (!expected) return false;
  return ConstantTimeEquals(*expected, header_value);
}

}  // namespace dq::notifier
