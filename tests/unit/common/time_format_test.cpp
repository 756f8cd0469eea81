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

}  // namespace
}  // namespace dq
