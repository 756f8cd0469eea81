// Hashes, MACs and random identifiers (OpenSSL, libuuid).
#pragma once

#include <string>
#include <string_view>

namespace dq {

// Lowercase hex SHA-256 of data.
std::string Sha256Hex(std::string_view data);

// Lowercase hex HMAC-SHA256 of data keyed with key.
std::string HmacSha256Hex(std::string_view key, std::string_view data);

// Constant-time equality for secrets and MACs.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// n characters drawn uniformly from [0-9A-Za-z] with a CSPRNG.
std::string RandomBase62(size_t n);

// A random (version 4) UUID in canonical lowercase form.
std::string NewUuidV4();

}  // namespace dq
