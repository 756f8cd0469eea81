#include "dq/webhook/signer.h"

#include "dq/common/crypto.h"

namespace dq::webhook {

std::optional<std::string> SignatureHeaderValue(std::string_view body, std::string_view secret) {
  if (secret.empty()) return std::nullopt;
  return "sha256=" + HmacSha256Hex(secret, body);
}

std::optional<std::string> StandardSignature(std::string_view id, std::string_view timestamp,
                                             std::string_view body, std::string_view secret) {
  if (!secret.starts_with(kStandardSecretPrefix)) return std::nullopt;
  std::string key;
  if (!Base64Decode(secret.substr(kStandardSecretPrefix.size()), &key) || key.empty()) {
    return std::nullopt;
  }
  std::string signed_content;
  signed_content.reserve(id.size() + timestamp.size() + body.size() + 2);
  signed_content.append(id).append(".").append(timestamp).append(".").append(body);
  return "v1," + Base64Encode(HmacSha256(key, signed_content));
}

std::string NewStandardSecret() {
  return std::string(kStandardSecretPrefix) + Base64Encode(RandomBytes(32));
}

bool VerifySignature(std::string_view body, std::string_view secret,
                     std::string_view header_value) {
  const auto expected = SignatureHeaderValue(body, secret);
  if (!expected) return false;
  return ConstantTimeEquals(*expected, header_value);
}

}  // namespace dq::webhook
