// dq/common/ascii.h: IsZeroNumber, the one rule for "a zero as a source writes it" that the
// ingest scan's count (SourceScan::zero_rows) and the engine's zero_is_empty reading share.
#include "dq/common/ascii.h"

#include <gtest/gtest.h>

namespace dq::ascii {
namespace {

TEST(AsciiTest, ZeroNumbers) {
  for (const char* zero : {"0", "00", "0.0", "0.00", "0,0", " 0 ", "0.", "\t0.0\r"}) {
    EXPECT_TRUE(IsZeroNumber(zero)) << zero;
  }
  for (const char* other : {"", " ", "-0", ".0", "0.5", "0 g", "0kg", "1", "10", "O", "0.0.0",
                            "0,0,0", "+0"}) {
    EXPECT_FALSE(IsZeroNumber(other)) << other;
  }
}

}  // namespace
}  // namespace dq::ascii
