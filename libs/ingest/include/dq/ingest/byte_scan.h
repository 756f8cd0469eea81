// Word-at-a-time byte tests (SWAR): 8 bytes per step instead of one, for loops that look for a
// few special bytes in long runs of ordinary text (the JSON parser's string scan, the CSV
// reader's field scan). A scan that stops at a byte outside ASCII (NonAscii) checks its UTF-8
// there with the rule in utf8.h.
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

}  // namespace dq::ingest::bytes
