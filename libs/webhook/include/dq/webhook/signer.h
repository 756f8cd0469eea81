// Webhook signatures: `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the body>`.
//
// The signature covers the exact bytes that are sent, nothing else (no timestamp, no delivery
// id), as the specification defines it. Callers serialise the payload once, sign that buffer and
// send that same buffer. Pure: no I/O, thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dq::webhook {

inline constexpr std::string_view kSignatureHeader = "X-Service-Signature";
inline constexpr std::string_view kEventHeader = "X-Service-Event";
inline constexpr std::string_view kDeliveryHeader = "X-Service-Delivery";
// Standard Webhooks (https://www.standardwebhooks.com), sent when the secret is "whsec_" +
// base64: the signature covers "<id>.<timestamp>.<body>", keyed with the decoded secret.
inline constexpr std::string_view kWebhookIdHeader = "webhook-id";
inline constexpr std::string_view kWebhookTimestampHeader = "webhook-timestamp";
inline constexpr std::string_view kWebhookSignatureHeader = "webhook-signature";
inline constexpr std::string_view kStandardSecretPrefix = "whsec_";

// "sha256=" + lowercase hex HMAC-SHA256(secret, body); nullopt when secret is empty (an unsigned
// delivery carries no signature header at all).
std::optional<std::string> SignatureHeaderValue(std::string_view body, std::string_view secret);

// "v1," + base64 HMAC-SHA256(base64-decoded secret after "whsec_", id + "." + timestamp + "." +
// body); nullopt when the secret is not in that form.
std::optional<std::string> StandardSignature(std::string_view id, std::string_view timestamp,
                                             std::string_view body, std::string_view secret);

// A new Standard Webhooks secret: "whsec_" + base64 of 32 random bytes.
std::string NewStandardSecret();

// What a receiver does: recompute the value for body and compare it with header_value in
// constant time. False when secret is empty.
bool VerifySignature(std::string_view body, std::string_view secret,
                     std::string_view header_value);

}  // namespace dq::webhook
