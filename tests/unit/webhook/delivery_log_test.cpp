#include "dq/common/delivery_log.h"

#include <gtest/gtest.h>

namespace dq::webhook {
namespace {

TEST(DeliveryLogTest, AttemptJsonRoundTrip) {
  DeliveryAttempt a{"2026-01-02T03:04:05.678Z", "d-1", "https://example.com/h", 503, 12,
                    "HTTP 503", "retry", 2, "job.complete", R"({"x":"\u00e9"})"};
  const std::string j = AttemptToJson(a);
  EXPECT_NE(j.find(R"("http_status":503)"), std::string::npos);
  auto back = AttemptFromJson(j);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, a);
}

TEST(DeliveryLogTest, AttemptKeepsTestFlagAndResponseHead) {
  DeliveryAttempt a;
  a.delivery_id = "d-2";
  a.outcome = "failed";
  a.test = true;
  a.response = "{\"error\":\"nope\"}";
  a.response_truncated = true;
  auto back = AttemptFromJson(AttemptToJson(a));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, a);
  // Entries written before these fields existed read as not a test, with no response.
  auto old = AttemptFromJson(R"({"delivery_id":"d-3","outcome":"delivered"})");
  ASSERT_TRUE(old.ok());
  EXPECT_FALSE(old->test);
  EXPECT_EQ(old->response, "");
}

TEST(DeliveryLogTest, DeadLetterJsonRoundTrip) {
  DeadLetter d;
  d.event.type = "job.complete";
  d.event.account_id = "acct_9";
  d.event.delivery_id = "d-9";
  d.event.payload = R"({"event":"job.complete"})";
  d.event.created_ms = 5;
  d.event.attempts = 21;
  d.event.first_attempt_ms = 5;
  d.url = "https://example.com/h";
  d.last_error = "timeout";
  d.time = "2026-01-05T00:00:00.000Z";
  auto back = DeadLetterFromJson(DeadLetterToJson(d));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, d);
}

TEST(DeliveryLogTest, MalformedEntriesAreErrors) {
  EXPECT_EQ(AttemptFromJson("[]").status().message(), "delivery log entry is not a JSON object");
  EXPECT_EQ(AttemptFromJson(R"({"url":"x"})").status().message(),
            "delivery log entry has a field of the wrong type");
  EXPECT_EQ(DeadLetterFromJson("{}").status().message(), "dead letter is not a JSON object");
}

}  // namespace
}  // namespace dq::webhook
