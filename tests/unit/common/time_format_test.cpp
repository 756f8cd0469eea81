#include "dq/common/time_format.h"

#include <gtest/gtest.h>

namespace dq {
namespace {

TEST(TimeFormatTest, Iso8601WithMillisecondsInUtc) {
  const auto t = std::chrono::system_clock::time_point(std::chrono::milliseconds(1795308861042));
  EXPECT_EQ(FormatIso8601Millis(t), "2026-11-22T00:54:21.042Z");
  EXPECT_EQ(FormatIso8601Millis(std::chrono::system_clock::time_point()),
            "1970-01-01T00:00:00.000Z");
}

TEST(TimeFormatTest, YearMonthIsUtc) {
  // 2026-11-30T23:59:59Z is still November in UTC whatever the local zone.
  const auto t = std::chrono::system_clock::time_point(std::chrono::seconds(1796083199));
  EXPECT_EQ(FormatYearMonth(t), "202611");
  EXPECT_EQ(FormatYearMonth(t + std::chrono::seconds(1)), "202612");
}

TEST(TimeFormatTest, ParseIsTheInverseOfFormat) {
  for (int64_t ms : {int64_t{0}, int64_t{1795308861042}, int64_t{951782400999}}) {
    const auto t = std::chrono::system_clock::time_point(std::chrono::milliseconds(ms));
    EXPECT_EQ(ParseIso8601Millis(FormatIso8601Millis(t)), ms);
  }
  for (const char* bad : {"", "2026-11-22", "2026-11-22T00:54:21Z", "2026-13-22T00:54:21.042Z",
                          "2026-02-30T00:54:21.042Z", "2026-11-22T24:00:00.000Z",
                          "2026-11-22 00:54:21.042Z", "2026-11-22T00:54:21.04xZ"}) {
    EXPECT_FALSE(ParseIso8601Millis(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace dq
