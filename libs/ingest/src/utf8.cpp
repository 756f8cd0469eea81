#include "dq/ingest/utf8.h"

#include <simdjson.h>

#include <cstdint>
#include <cstring>

namespace dq::ingest {
namespace {

// The position of the first bad byte, one byte at a time (ASCII eight at a time). Only called on
// text already known to be invalid, to say where.
size_t FirstInvalidByte(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    // ASCII fast path, eight bytes at a time: product files are mostly ASCII.
    while (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, s + i, 8);
      if (word & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= n) break;
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // no overlongs
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // no overlongs
      if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (size_t k = 2; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
    }
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace

size_t FindInvalidUtf8(std::string_view text) {
  // simdjson's validator checks the same rules (RFC 3629) 32-64 bytes a step; nearly every text
  // is valid, so the byte-wise walk runs only to find where a bad one goes wrong.
  if (simdjson::validate_utf8(text.data(), text.size())) return std::string_view::npos;
  return FirstInvalidByte(text);
}

}  // namespace dq::ingest
