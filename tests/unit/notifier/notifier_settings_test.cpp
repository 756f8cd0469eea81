#include "notifier_settings.h"

#include <gtest/gtest.h>

namespace dq::notifier {
namespace {

TEST(NotifierSettingsTest, Defaults) {
  auto s = LoadNotifierSettings({});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->port, 9091);
  EXPECT_FALSE(s->allow_http);
  EXPECT_FALSE(s->allow_private);
  EXPECT_EQ(s->timeout_ms, 10'000);
  EXPECT_EQ(s->schedule.base_ms, 30'000);
  EXPECT_EQ(s->schedule.max_delay_ms, 6 * 3'600'000LL);
  EXPECT_EQ(s->schedule.total_ms, 3 * 86'400'000LL);
  EXPECT_EQ(s->workers, 8);
}

TEST(NotifierSettingsTest, CompressedScheduleAndSharedSettings) {
  auto s = LoadNotifierSettings({{"DQ_WEBHOOK_RETRY_BASE_MS", "50"},
                                 {"DQ_WEBHOOK_RETRY_MAX_DELAY_MS", "200"},
                                 {"DQ_WEBHOOK_RETRY_TOTAL_MS", "1000"},
                                 {"DQ_WEBHOOK_TIMEOUT_MS", "300"},
                                 {"DQ_WEBHOOK_ALLOW_HTTP", "1"},
                                 {"DQ_WEBHOOK_ALLOW_PRIVATE", "1"},
                                 {"DQ_NOTIFIER_PORT", "0"},
                                 {"DQ_REDIS_PORT", "7001"}});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->schedule.base_ms, 50);
  EXPECT_EQ(s->schedule.max_delay_ms, 200);
  EXPECT_EQ(s->schedule.total_ms, 1000);
  EXPECT_EQ(s->timeout_ms, 300);
  EXPECT_TRUE(s->allow_http);
  EXPECT_TRUE(s->allow_private);
  EXPECT_EQ(s->port, 0);
  EXPECT_EQ(s->redis.port, 7001);
}

TEST(NotifierSettingsTest, BadValuesNameTheVariable) {
  EXPECT_EQ(LoadNotifierSettings({{"DQ_NOTIFIER_WORKERS", "0"}}).status().message(),
            "DQ_NOTIFIER_WORKERS=0 is not an integer in [1, 256]");
  EXPECT_EQ(LoadNotifierSettings({{"DQ_WEBHOOK_TIMEOUT_MS", "ten"}}).status().message(),
            "DQ_WEBHOOK_TIMEOUT_MS=ten is not an integer in [50, 120000]");
  auto unknown = LoadNotifierSettings({{"DQ_NOTIFIER_TYPO", "1"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("DQ_NOTIFIER_TYPO"), std::string::npos);
}

}  // namespace
}  // namespace dq::notifier
