// The rule of a well-formed UTF-8 sequence (RFC 3629) for what common/ and the validator meet:
// the JSON escaper, and the validator's listing scan. Inline: both are byte loops on the hot path
// of every answer. libs/ingest's readers keep their own definition beside their search for the
// first bad byte (dq/ingest/utf8.h): a body's walk through the gateway stays in that file (the
// validate walk's count, docs/architecture.md), and both are held to the same reference by
// their tests.
#pragma once

#include <cstddef>
#include <string_view>

namespace dq {

// The length (2 to 4) of the well-formed UTF-8 sequence that starts at s[i], a byte at or above
// 0x80; 0 when none starts there (no overlongs, no surrogates, nothing above U+10FFFF, and a
// sequence cut off by the end of s is not well-formed).
inline size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
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
    return 0;
  }
  if (i + len > s.size()) return 0;
  const auto second = static_cast<unsigned char>(s[i + 1]);
  if (second < lo || second > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;  // a continuation byte
  }
  return len;
}

}  // namespace dq
