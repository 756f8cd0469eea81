// Word-at-a-time byte tests (SWAR): 8 bytes per step instead of one, for loops that look for a
// few special bytes in long runs of ordinary text (the JSON parser's string scan, the CSV
// reader's field scan). And the one rule of a well-formed UTF-8 sequence, for a scan that stops
// at a byte outside ASCII (NonAscii) and checks it there, and for FindInvalidUtf8 (utf8.h).
//
// Each test sets the high bit of every byte it looks for. It may also set it in a byte above a
// true match (a borrow carries upward), never in one below. So whether any bit is set is exact,
// and so is the position of the lowest one (FirstFlagged), whatever the other bytes are, UTF-8
// included.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace dq::ingest::bytes {

inline constexpr uint64_t kOnes = 0x0101010101010101ull;
inline constexpr uint64_t kHighs = 0x8080808080808080ull;

// The 8 bytes at p, the first in the lowest bits whatever the machine's byte order.
inline uint64_t Load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

// Flags the bytes of v equal to c.
inline uint64_t Equal(uint64_t v, char c) {
  const uint64_t x = v ^ (kOnes * static_cast<unsigned char>(c));
  return (x - kOnes) & ~x & kHighs;
}

// Flags the bytes of v below n (n at most 0x80).
inline uint64_t Below(uint64_t v, unsigned char n) { return (v - kOnes * n) & ~v & kHighs; }

// Flags the bytes of v at or above 0x80: the bytes of a multi-byte UTF-8 sequence.
inline uint64_t NonAscii(uint64_t v) { return v & kHighs; }

// The position (0-7) of the first flagged byte; mask must not be 0.
inline size_t FirstFlagged(uint64_t mask) { return static_cast<size_t>(std::countr_zero(mask)) / 8; }

// The length (2 to 4) of the well-formed UTF-8 sequence that starts at s[i], a byte at or above
// 0x80; 0 when none starts there (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF,
// and a sequence cut off by the end of s is not well-formed).
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
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  return len;
}

}  // namespace dq::ingest::bytes
