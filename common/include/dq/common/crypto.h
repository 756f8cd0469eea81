// Hashes, MACs and random identifiers (OpenSSL, libuuid).
#pragma once

#include <string>
#include <string_view>

namespace dq {

// Lowercase hex SHA-256 of data.
std::string Sha256Hex(std::string_view data);

// Lowercase hex HMAC-SHA256 of data keyed with key.
std::string HmacSha256Hex(std::string_view key, std::string_view data);

// Raw (32-byte) HMAC-SHA256 of data keyed with key.
std::string HmacSha256(std::string_view key, std::string_view data);

// Standard base64 with padding (RFC 4648 section 4).
std::string Base64Encode(std::string_view data);
// The inverse; false on anything that is not padded standard base64.
bool Base64Decode(std::string_view text, std::string* out);

// n bytes from a CSPRNG.
std::string RandomBytes(size_t n);

// Constant-time equality for secrets and MACs.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// n characters drawn uniformly from [0-9A-Za-z] with a CSPRNG.
std::string RandomBase62(size_t n);

// A random (version 4) UUID in canonical lowercase form.
std::string NewUuidV4();

}  // namespace dq
