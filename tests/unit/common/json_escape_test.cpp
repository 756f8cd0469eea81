// The one JSON escaper: nlohmann's escaping, byte for byte, on UTF-8 text, and U+FFFD for bytes
// that start no well-formed sequence, so every answer written with it parses, whatever bytes it
// was given.
#include "dq/common/json_escape.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace dq {
namespace {

// AppendJsonString's bytes, checked against WriteJsonString's (the same bytes, within its bound)
// for every text these tests escape.
std::string Escaped(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  std::vector<char> buf(JsonStringBound(s.size()));
  const char* end = WriteJsonString(buf.data(), s);
  EXPECT_LE(static_cast<size_t>(end - buf.data()), buf.size());
  EXPECT_EQ(std::string(buf.data(), static_cast<size_t>(end - buf.data())), out)
      << "WriteJsonString differs";
  return out;
}

std::string Nlohmann(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

TEST(JsonEscapeTest, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(Escaped("a\"b\\c\n\r\t\b\f\x01\x1f\x7f"),
            "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u001f\x7f\"");
  EXPECT_EQ(Escaped("Caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "\"Caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");  // UTF-8 as it is
}

TEST(JsonEscapeTest, InvalidUtf8BecomesTheReplacementCharacter) {
  EXPECT_EQ(Escaped("fixed\x01\"\xC3"), "\"fixed\\u0001\\\"\xEF\xBF\xBD\"");  // cut sequence
  EXPECT_EQ(Escaped("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");              // overlong
  EXPECT_EQ(Escaped("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
  EXPECT_TRUE(nlohmann::json::accept(Escaped("\xff\xfe")));
}

// Valid UTF-8 is escaped exactly as nlohmann escapes it; any bytes at all give valid JSON.
TEST(JsonEscapeTest, SameAsNlohmannOnValidTextAndValidJsonOnAnyBytes) {
  std::mt19937 rng(11);
  const std::vector<std::string> valid = {"a", "b", "\"", "\\", "\n", std::string(1, '\x01'),
                                          "\x7f", "\xC3\xA9", "\xE2\x82\xAC",
                                          "\xF0\x9F\x98\x80", " "};
  const std::string bytes = std::string("ab\"\\\n\x01\x7f", 7) + "\xC3\xA9\xE2\x82\xAC\xF0\x9F" +
                            "\x98\x80\xC0\xED\xA0\xFF";
  for (int n = 0; n < 20000; ++n) {
    std::string text, any;
    for (size_t i = 0, len = rng() % 12; i < len; ++i) text += valid[rng() % valid.size()];
    for (size_t i = 0, len = rng() % 12; i < len; ++i) any.push_back(bytes[rng() % bytes.size()]);
    ASSERT_EQ(Escaped(text), Nlohmann(text)) << testing::PrintToString(text);
    ASSERT_TRUE(nlohmann::json::accept(Escaped(any))) << testing::PrintToString(any);
  }
}

// Plain text is skipped 8 bytes at a time: every byte value, at every place in a longer run of
// plain text (in the first, a middle or the last block, or in the tail after the blocks), is
// escaped as it is on its own.
TEST(JsonEscapeTest, EveryByteIsSeenAtEveryPlaceInALongRun) {
  for (size_t len : {8u, 9u, 16u, 23u, 24u}) {
    for (size_t at = 0; at < len; ++at) {
      for (int b = 0; b < 256; ++b) {
        std::string text(len, 'x');
        text[at] = static_cast<char>(b);
        const std::string alone = Escaped(std::string(1, static_cast<char>(b)));
        const std::string expected = "\"" + std::string(at, 'x') +
                                     alone.substr(1, alone.size() - 2) +
                                     std::string(len - at - 1, 'x') + "\"";
        ASSERT_EQ(Escaped(text), expected) << "byte " << b << " at " << at << " of " << len;
      }
    }
  }
  // A well-formed sequence across a block's end is kept whole.
  const std::string euro = std::string(6, 'x') + "\xE2\x82\xAC" + std::string(7, 'y');
  EXPECT_EQ(Escaped(euro), "\"" + euro + "\"");
}

}  // namespace
}  // namespace dq
