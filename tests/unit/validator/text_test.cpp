// The engine's whitespace test (engine/text.h) against its own definition: a text needs a fix
// exactly when normalising it changes it. Checked on hand-picked texts and on 200,000 random ones,
// with the characters that matter (spaces, other whitespace, other control bytes, UTF-8 bytes) at
// every offset.
#include "engine/text.h"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cstdint>
#include <optional>
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
  for (const char* s :
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


// ParsePlainDecimal divides the digits by a power of ten when both are exact doubles, and leaves
// longer numbers to from_chars: it must give from_chars's double, bit for bit, and refuse what
// IsPlainDecimal refuses.
std::optional<double> Reference(std::string_view s) {
  if (!IsPlainDecimal(s)) return std::nullopt;
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::fixed);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

void ExpectSameDecimal(const std::string& s) {
  const std::optional<double> got = ParsePlainDecimal(s);
  const std::optional<double> want = Reference(s);
  ASSERT_EQ(got.has_value(), want.has_value()) << testing::PrintToString(s);
  if (got) {
    EXPECT_EQ(std::bit_cast<uint64_t>(*got), std::bit_cast<uint64_t>(*want))
        << testing::PrintToString(s) << " " << *got << " " << *want;
  }
}

TEST(PlainDecimalTest, GivesFromCharsDoubleBitForBit) {
  for (const char* s :
       {"", ".", "5", "5.", ".5", "0", "00", "0.0", "12.50", "0012.50", "19.99", "-1", "+1", "1e5",
        " 1", "1 ", "1.2.3", "9007199254740992", "9007199254740993", "9007199254740991.5",
        "900719925474099.1", "0.1", "0.3", "0.0000000000000000000001", "0.00000000000000000000001",
        "1.2345678901234567890", "123456789012345678901234567890", "4.35", "2.675", "1.005"}) {
    ExpectSameDecimal(s);
  }
  // Random digit strings around the limits: 1-25 digits before and after the point.
  std::mt19937_64 rng(11);
  for (int n = 0; n < 300000; ++n) {
    std::string s;
    const size_t int_digits = rng() % 20, frac_digits = rng() % 26;
    for (size_t k = 0; k < int_digits; ++k) s += static_cast<char>('0' + rng() % 10);
    if (frac_digits > 0 || rng() % 8 == 0) s += '.';
    for (size_t k = 0; k < frac_digits; ++k) s += static_cast<char>('0' + rng() % 10);
    ExpectSameDecimal(s);
    if (HasFatalFailure()) return;
  }
}

// A weight with its unit, in parts: the number as a plain decimal, the unit as written, its
// symbol and the grams; nothing for a unit it does not know, a bare number or a bare unit.
TEST(UnitWeightTest, ReadsTheNumberTheUnitAndItsSymbol) {
  struct Case {
    const char* in;
    const char* number;
    const char* unit;
    const char* symbol;
    double grams;
  };
  for (const Case& c : {Case{"2 lbs", "2", "lbs", "lb", 907.18474},
                        Case{" 1.25KGS ", "1.25", "KGS", "kg", 1250},
                        Case{"500 Grams", "500", "Grams", "g", 500},
                        Case{"3,5 oz", "3.5", "oz", "oz", 99.2233309375},
                        Case{"1,299.5 g", "1299.5", "g", "g", 1299.5},
                        Case{"2 Pounds", "2", "Pounds", "lb", 907.18474}}) {
    const auto w = ReadUnitWeight(c.in);
    ASSERT_TRUE(w.has_value()) << c.in;
    EXPECT_EQ(w->number, c.number) << c.in;
    EXPECT_EQ(w->unit, c.unit) << c.in;
    EXPECT_EQ(w->symbol, c.symbol) << c.in;
    EXPECT_NEAR(w->grams, c.grams, 1e-9) << c.in;
    EXPECT_EQ(WeightWithUnitInGrams(c.in), w->grams) << c.in;
  }
  for (const char* in : {"3 stone", "300", "kg", "", "12,500 g", "abc kg", "2 kilogramsss"}) {
    EXPECT_FALSE(ReadUnitWeight(in).has_value()) << in;
    EXPECT_FALSE(WeightWithUnitInGrams(in).has_value()) << in;
  }
}

// A prefix for a message never ends inside a character: "é" is two bytes, "€" three, "𝄞" four.
TEST(Utf8PrefixTest, CutsWhereACharacterStarts) {
  EXPECT_EQ(Utf8Prefix("abc", 5), "abc");
  EXPECT_EQ(Utf8Prefix("abc", 2), "ab");
  EXPECT_EQ(Utf8Prefix("a\xC3\xA9", 2), "a");           // 'a', half of é
  EXPECT_EQ(Utf8Prefix("a\xC3\xA9", 3), "a\xC3\xA9");  // whole
  EXPECT_EQ(Utf8Prefix("\xE2\x82\xAC\xE2\x82\xAC", 5), "\xE2\x82\xAC");
  EXPECT_EQ(Utf8Prefix("\xF0\x9D\x84\x9Ex", 3), "");
  EXPECT_EQ(Utf8Prefix("\xF0\x9D\x84\x9Ex", 4), "\xF0\x9D\x84\x9E");
}

}  // namespace
}  // namespace dq::validator::text
