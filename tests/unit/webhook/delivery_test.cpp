#include "dq/webhook/delivery.h"

#include <gtest/gtest.h>

namespace dq::webhook {
namespace {

class FixedRandom final : public RandomSource {
 public:
  double Uniform01() override { return 1.0; }
};

Event SampleEvent() {
  Event e;
  e.type = "job.complete";
  e.account_id = "acct_1";
  e.delivery_id = "d-1";
  e.payload = R"({"event":"job.complete"})";
  e.created_ms = 1000;
  e.first_attempt_ms = 1000;
  return e;
}

std::string Header(const HttpPost& p, std::string_view name) {
  for (const auto& [n, v] : p.headers) {
    if (n == name) return v;
  }
  return "<absent>";
}

TEST(DeliveryTest, BuildsSignedRequest) {
  const HttpPost p = BuildDelivery(SampleEvent(), "https://example.com/h", "sec");
  EXPECT_EQ(p.url, "https://example.com/h");
  EXPECT_EQ(p.body, R"({"event":"job.complete"})");
  EXPECT_EQ(Header(p, "Content-Type"), "application/json");
  EXPECT_EQ(Header(p, "X-Service-Event"), "job.complete");
  EXPECT_EQ(Header(p, "X-Service-Delivery"), "d-1");
  EXPECT_EQ(Header(p, "X-Service-Signature").rfind("sha256=", 0), 0u);
}

TEST(DeliveryTest, NoSecretNoSignatureHeader) {
  const HttpPost p = BuildDelivery(SampleEvent(), "https://example.com/h", "");
  EXPECT_EQ(Header(p, "X-Service-Signature"), "<absent>");
  EXPECT_EQ(p.headers.size(), 3u);
}

TEST(DeliveryTest, DecidesByResult) {
  FixedRandom r;
  RetryPolicy policy(RetrySchedule{100, 1000, 10'000}, r);
  struct Row {
    const char* name;
    HttpResult result;
    int prior_failures;
    int64_t now;
    Outcome outcome;
    int64_t next;
  };
  const Row rows[] = {
      {"200", {200, 5, ""}, 0, 2000, Outcome::kDelivered, 0},
      {"204", {204, 5, ""}, 4, 2000, Outcome::kDelivered, 0},
      {"299", {299, 5, ""}, 0, 2000, Outcome::kDelivered, 0},
      {"301 is not followed", {301, 5, ""}, 0, 2000, Outcome::kRetry, 2100},
      {"404", {404, 5, ""}, 0, 2000, Outcome::kRetry, 2100},
      {"500 second failure", {500, 5, ""}, 1, 2000, Outcome::kRetry, 2200},
      {"timeout", {0, 10000, "timeout"}, 0, 2000, Outcome::kRetry, 2100},
      {"refused", {0, 0, "refused address 127.0.0.1 (loopback)"}, 0, 2000, Outcome::kRetry, 2100},
      {"past the schedule", {500, 5, ""}, 9, 10'500, Outcome::kDeadLetter, 0},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    Event e = SampleEvent();
    e.attempts = row.prior_failures;
    const Decision d = Decide(e, row.result, policy, row.now);
    EXPECT_EQ(d.outcome, row.outcome);
    EXPECT_EQ(d.next_attempt_ms, row.next);
  }
}

TEST(DeliveryTest, DescribesFailures) {
  EXPECT_EQ(DescribeFailure({200, 1, ""}), "");
  EXPECT_EQ(DescribeFailure({503, 1, ""}), "HTTP 503");
  EXPECT_EQ(DescribeFailure({0, 1, "timeout"}), "timeout");
  EXPECT_EQ(OutcomeName(Outcome::kDeadLetter), "dead_letter");
}

}  // namespace
}  // namespace dq::webhook
