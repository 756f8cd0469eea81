// FindInvalidUtf8 (ingest/utf8.h) against a plain decoder written from RFC 3629's table: the same
// verdict and the same first bad byte on every tricky sequence and on random text, short and
// long (long text goes through the SIMD validator's blocks and their edges).
#include "dq/ingest/utf8.h"

#include "dq/ingest/json_text.h"
#include "dq/common/utf8_sequence.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace dq::ingest {
namespace {

// RFC 3629, section 4: the well-formed byte sequences, one code point at a time.
size_t Reference(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t i = 0;
  while (i < text.size()) {
    const unsigned c = s[i];
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c <= 0x7F) {
      len = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c == 0xE0) {
      len = 3, lo = 0xA0;
    } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
      len = 3;
    } else if (c == 0xED) {
      len = 3, hi = 0x9F;
    } else if (c == 0xF0) {
      len = 4, lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3) {
      len = 4;
    } else if (c == 0xF4) {
      len = 4, hi = 0x8F;
    } else {
      return i;
    }
    if (i + len > text.size()) return i;
    for (size_t k = 1; k < len; ++k) {
      const unsigned b = s[i + k];
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return i;
    }
    i += len;
  }
  return std::string_view::npos;
}

TEST(Utf8Test, TrickySequencesGetTheReferenceVerdictAndPosition) {
  const std::vector<std::string> cases = {
      "", "plain ascii", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
      "\xC0\xAF",          // overlong '/'
      "\xC1\xBF",          // overlong
      "\xE0\x80\xAF",      // overlong, three bytes
      "\xF0\x80\x80\xAF",  // overlong, four bytes
      "\xED\xA0\x80",      // a surrogate
      "\xF4\x90\x80\x80",  // above U+10FFFF
      "\xF5\x80\x80\x80", "\xFF", "\x80", "ab\xBF", "\xC3", "abc\xE2\x82", "\xF0\x9F\x98",
      "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF", "\xE9t\xE9",  // Latin-1 bytes, as a CSV saved wrongly
  };
  for (const std::string& text : cases) {
    EXPECT_EQ(FindInvalidUtf8(text), Reference(text)) << testing::PrintToString(text);
    // The same after a long valid prefix, so the SIMD validator meets it past its first block.
    const std::string prefixed = std::string(100, 'x') + "\xC3\xA9" + text;
    EXPECT_EQ(FindInvalidUtf8(prefixed), Reference(prefixed)) << testing::PrintToString(text);
  }
}

TEST(Utf8Test, RandomTextGetsTheReferenceVerdictAndPosition) {
  // Bytes drawn mostly from the places where the rules change, among valid sequences and ASCII.
  const std::vector<std::string> parts = {
      "a", "Z", " ", ",", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x80", "\xBF", "\xC0",
      "\xC1", "\xC2", "\xDF", "\xE0", "\xED", "\xEF", "\xF0", "\xF4", "\xF5", "\xFF", "\x9F",
      "\xA0", "\x8F", "\x90"};
  std::mt19937 rng(20261123);
  size_t invalid = 0;
  for (int n = 0; n < 40000; ++n) {
    std::string text;
    // Mostly short texts, some long enough for several 64-byte blocks.
    const size_t pieces = n % 10 == 0 ? 40 + rng() % 120 : rng() % 12;
    for (size_t k = 0; k < pieces; ++k) {
      // Two thirds valid sequences and ASCII, so that many texts are valid or fail late.
      const size_t pick = rng() % 3 == 0 ? rng() % parts.size() : rng() % 7;
      text += parts[pick];
    }
    const size_t want = Reference(text);
    invalid += want != std::string_view::npos;
    ASSERT_EQ(FindInvalidUtf8(text), want) << testing::PrintToString(text);
  }
  // Both verdicts were exercised many times.
  EXPECT_GT(invalid, 5000u);
  EXPECT_LT(invalid, 35000u);
}

// Long text goes through FindInvalidUtf8's 4 KiB blocks: a bad byte, or a sequence cut by a
// block's end, anywhere around the blocks' edges is found where the reference finds it.
TEST(Utf8Test, LongTextAroundTheBlockEdgesGetsTheReferencePosition) {
  const std::vector<std::string> fillers = {"a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"};
  const std::vector<std::string> bad = {"\xFF", "\x80", "\xC3", "\xE2\x82", "\xF0\x9F\x98",
                                        "\xED\xA0\x80"};
  size_t checked = 0;
  for (const std::string& filler : fillers) {
    for (const size_t edge : {size_t{4096}, size_t{8192}}) {
      for (size_t at = edge - 6; at <= edge + 6; ++at) {
        for (const std::string& b : bad) {
          std::string text;
          while (text.size() < at) text += filler;  // a whole number of sequences, near `at`
          text += b;
          text += std::string(5000, 'z');
          const size_t want = Reference(text);
          ASSERT_NE(want, std::string_view::npos);
          ASSERT_EQ(FindInvalidUtf8(text), want) << filler.size() << " " << at << " " << b.size();
          ++checked;
        }
        // And valid text whose sequences straddle the edge is valid.
        std::string valid;
        while (valid.size() < at + 8) valid += filler;
        ASSERT_EQ(FindInvalidUtf8(valid), std::string_view::npos);
      }
    }
  }
  EXPECT_EQ(checked, 4u * 2 * 13 * 6);
}

TEST(Utf8Test, SequenceLengthFollowsTheReference) {
  for (unsigned lead = 0x80; lead <= 0xFF; ++lead) {
    for (unsigned second = 0; second <= 0xFF; ++second) {
      const std::string text = {static_cast<char>(lead), static_cast<char>(second), '\x80', '\x80'};
      // The reference's verdict on the first sequence alone: valid when it stops later, or never.
      const size_t len = Utf8SequenceLength(text, 0);
      const size_t bad = Reference(text);
      if (len == 0) {
        EXPECT_EQ(bad, 0u) << lead << " " << second;
      } else {
        EXPECT_TRUE(bad == std::string_view::npos || bad >= len) << lead << " " << second;
      }
    }
  }
  EXPECT_EQ(Utf8SequenceLength("\xE2\x82", 0), 0u);  // cut off by the end
  EXPECT_EQ(Utf8SequenceLength("x\xE2\x82\xAC", 1), 3u);
}

// common/'s copy of the rule (the JSON escaper's and the validator's) answers as this one on
// every lead and second byte, with each kind of third and fourth byte, and cut short.
TEST(Utf8Test, CommonsRuleIsTheSame) {
  for (unsigned lead = 0x80; lead <= 0xFF; ++lead) {
    for (unsigned second = 0; second <= 0xFF; ++second) {
      for (const char rest : {'\x80', '\xBF', 'a', '\xC0'}) {
        const std::string text = {static_cast<char>(lead), static_cast<char>(second), rest, rest};
        for (size_t n = 1; n <= text.size(); ++n) {
          const std::string_view cut(text.data(), n);
          ASSERT_EQ(dq::Utf8SequenceLength(cut, 0), Utf8SequenceLength(cut, 0))
              << lead << " " << second << " " << int(rest) << " " << n;
        }
      }
    }
  }
}

TEST(Utf8Test, InvalidUtf8WordsNameTheByte) {
  EXPECT_EQ(InvalidUtf8Words("caf\xE9", 3), "invalid UTF-8 byte 0xE9");
  EXPECT_EQ(InvalidUtf8Words("\x80", 0), "invalid UTF-8 byte 0x80");
  EXPECT_EQ(InvalidUtf8Words("ab\xFF", 2), "invalid UTF-8 byte 0xFF");
}

// The JSON parser checks UTF-8 in its string scan (utf8.h's rule): a string is refused
// exactly when the reference finds a bad byte in it, at that byte, past the scan's 8-byte steps.
TEST(Utf8Test, TheJsonStringScanGivesTheReferenceVerdict) {
  const std::vector<std::string> parts = {
      "a",    " ",    "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
      "\x80", "\xBF", "\xC0",     "\xC2",         "\xE0",
      "\xED", "\xF0", "\xF4",     "\xF5",         "\xFF",
      "\x9F", "\xA0", "\x8F",     "\x90",         "abcdefgh"};
  std::mt19937 rng(20261126);
  size_t invalid = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    const size_t pieces = rng() % 16;
    for (size_t k = 0; k < pieces; ++k)
      text += parts[rng() % 3 == 0 ? rng() % parts.size() : rng() % 5];
    const size_t want = Reference(text);
    invalid += want != std::string_view::npos;
    const std::string json = "{\"k\":\"" + text + "\"}";
    internal::JsonObjectParser parser(64);
    const std::optional<internal::JsonError> e = parser.Parse(json);
    if (want == std::string_view::npos) {
      ASSERT_FALSE(e) << testing::PrintToString(text) << ": " << e->message;
      ASSERT_EQ(parser.fields().at(0).value, text);
    } else {
      ASSERT_TRUE(e) << testing::PrintToString(text);
      ASSERT_EQ(e->offset, 6 + want) << testing::PrintToString(text);
      ASSERT_EQ(e->message, internal::InvalidUtf8At(json, 6 + want).message);
    }
  }
  EXPECT_GT(invalid, 2000u);
  EXPECT_LT(invalid, 18000u);
}

}  // namespace
}  // namespace dq::ingest
