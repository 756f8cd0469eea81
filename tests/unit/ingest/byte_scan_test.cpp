// The word-at-a-time byte tests against a byte-at-a-time reference, on random words and on every
// position of every byte value: whether a byte is flagged must be exact, and so must the first.
#include "dq/ingest/byte_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace dq::ingest::bytes {
namespace {

// The reference: the first of the 8 bytes at p that pred accepts, or 8.
template <class Pred>
size_t FirstByByte(const char* p, Pred pred) {
  for (size_t k = 0; k < 8; ++k) {
    if (pred(static_cast<unsigned char>(p[k]))) return k;
  }
  return 8;
}

size_t FirstByWord(uint64_t mask) { return mask == 0 ? 8 : FirstFlagged(mask); }

TEST(ByteScan, EqualAndBelowFindTheFirstMatchLikeAByteLoop) {
  std::mt19937_64 rng(20261123);
  // Random words, biased towards the bytes that borrow: 0x00, 0x01, the targets and their
  // neighbours.
  const unsigned char interesting[] = {0x00, 0x01, 0x1F, 0x20, 0x21, '"', '"' + 1, '\\',
                                       '\\' + 1, ',', ',' + 1, 0x7F, 0x80, 0xC3, 0xFF};
  for (int n = 0; n < 200000; ++n) {
    char w[8];
    for (char& c : w) {
      c = static_cast<char>(rng() % 2 ? interesting[rng() % sizeof interesting] : rng() % 256);
    }
    const uint64_t v = Load8(w);
    for (char target : {'"', '\\', ',', '\n', '\0'}) {
      ASSERT_EQ(FirstByWord(Equal(v, target)),
                FirstByByte(w, [&](unsigned char c) { return c == static_cast<unsigned char>(target); }))
          << "target " << int(target);
    }
    for (unsigned char limit : {0x01, 0x20, 0x80}) {
      ASSERT_EQ(FirstByWord(Below(v, limit)),
                FirstByByte(w, [&](unsigned char c) { return c < limit; }))
          << "below " << int(limit);
    }
  }
}

TEST(ByteScan, EveryByteValueAtEveryPosition) {
  for (int b = 0; b < 256; ++b) {
    for (size_t at = 0; at < 8; ++at) {
      std::string w(8, 'a');
      w[at] = static_cast<char>(b);
      const uint64_t v = Load8(w.data());
      EXPECT_EQ(FirstByWord(Equal(v, static_cast<char>(b))), b == 'a' ? 0u : at) << b;
      EXPECT_EQ(FirstByWord(Below(v, 0x20)), b < 0x20 ? at : 8u) << b;
    }
  }
}

}  // namespace
}  // namespace dq::ingest::bytes
