// The engine's whitespace test (engine/text.h) against its own definition: a text needs a fix
// exactly when normalising it changes it. Checked on hand-picked texts and on 200,000 random ones,
// with the characters that matter (spaces, other whitespace, other control bytes, UTF-8 bytes) at
// every offset.
#include "engine/text.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace dq::validator::text {
namespace {

void ExpectAgrees(const std::string& s) {
  for (bool collapse : {false, true}) {
    EXPECT_EQ(NeedsWhitespaceFix(s, collapse), NormalizeWhitespace(s, collapse) != s)
        << testing::PrintToString(s) << (collapse ? " collapsing" : " trimming");
  }
}

TEST(WhitespaceTest, NeedsAFixExactlyWhenNormalisingChangesTheText) {
  for (const std::string& s :
       {"", " ", "a", " a", "a ", "a b", "a  b", "a\tb", "a\nb", "a\x01b", "Nordwind Classic Mug",
        "Nordwind Classic  Mug", "Nordwind\tClassic Mug", "1234567 89", "1234567  9",
        "12345678  ", "1234567\t9", "caf\xC3\xA9 cr\xC3\xA8me", "caf\xC3\xA9  cr\xC3\xA8me",
        "abcdefg \tabcdefg", "abcdefgh \x0b", "\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f"}) {
    ExpectAgrees(s);
  }
}

TEST(WhitespaceTest, RandomTextsOfEveryLengthAgree) {
  // Mostly letters and single spaces, as titles are; now and then a second space, a tab, another
  // control byte or a UTF-8 byte, so that each lands at every offset.
  const char rare[] = {' ', '\t', '\n', '\r', '\f', '\v', '\x01', '\x1f', '\x7f', '\x80', '\xff'};
  std::mt19937 rng(7);
  for (int n = 0; n < 200000; ++n) {
    const size_t length = rng() % 40;
    std::string s;
    for (size_t k = 0; k < length; ++k) {
      const unsigned pick = rng() % 100;
      if (pick < 80) {
        s += static_cast<char>('a' + rng() % 26);
      } else if (pick < 95) {
        s += ' ';
      } else {
        s += rare[rng() % sizeof rare];
      }
    }
    ExpectAgrees(s);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace dq::validator::text
