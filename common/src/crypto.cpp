#include "dq/common/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <uuid/uuid.h>

#include <cstdlib>

namespace dq {
namespace {

std::string ToHex(const unsigned char* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(n * 2, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[data[i] >> 4];
    out[2 * i + 1] = kDigits[data[i] & 0xf];
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr) != 1) std::abort();
  return ToHex(md, len);
}

std::string HmacSha256Hex(std::string_view key, std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  // HMAC() one-shot is not deprecated in OpenSSL 3 (HMAC_CTX is).
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), md, &len) == nullptr) {
    std::abort();
  }
  return ToHex(md, len);
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string RandomBase62(size_t n) {
  static constexpr char kAlphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string out;
  out.reserve(n);
  unsigned char buf[64];
  while (out.size() < n) {
    if (RAND_bytes(buf, sizeof buf) != 1) std::abort();  // no entropy: nothing safe to do
    for (unsigned char b : buf) {
      // Rejection sampling keeps the distribution uniform: 248 = 4 * 62.
      if (b < 248 && out.size() < n) out.push_back(kAlphabet[b % 62]);
    }
  }
  return out;
}

std::string NewUuidV4() {
  uuid_t id;
  uuid_generate_random(id);
  char text[37];
  uuid_unparse_lower(id, text);
  return text;
}

}  // namespace dq
