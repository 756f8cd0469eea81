#include "dq/webhook/delivery.h"

#include "dq/common/account_store.h"
#include "dq/webhook/signer.h"

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

// During a roll's overlap: X-Service-Signature keeps the specification's one-value form, keyed
// with the old secret; webhook-signature lists both, newest first, one space apart.
TEST(DeliveryTest, DuringAnOverlapBothSecretsSign) {
  const Event e = SampleEvent();
  const std::string fresh = "whsec_bmV3LXNlY3JldA==", old = "whsec_b2xkLXNlY3JldA==";
  const HttpPost p = BuildDelivery(e, "https://example.com/h", {fresh, old}, 1700000000);
  EXPECT_EQ(Header(p, "X-Service-Signature"), *SignatureHeaderValue(e.payload, old));
  EXPECT_TRUE(VerifySignature(e.payload, old, Header(p, "X-Service-Signature")));
  EXPECT_FALSE(VerifySignature(e.payload, fresh, Header(p, "X-Service-Signature")));
  const std::string sig_new = *StandardSignature("d-1", "1700000000", e.payload, fresh);
  const std::string sig_old = *StandardSignature("d-1", "1700000000", e.payload, old);
  EXPECT_NE(sig_new, sig_old);
  EXPECT_EQ(Header(p, "webhook-signature"), sig_new + " " + sig_old);
  EXPECT_EQ(Header(p, "webhook-timestamp"), "1700000000");

  // One secret: exactly the single-secret request.
  const HttpPost one = BuildDelivery(e, "https://example.com/h", {fresh}, 1700000000);
  const HttpPost legacy = BuildDelivery(e, "https://example.com/h", fresh, 1700000000);
  EXPECT_EQ(one.headers, legacy.headers);
  EXPECT_EQ(Header(one, "webhook-signature"), sig_new);
  EXPECT_EQ(Header(one, "X-Service-Signature"), *SignatureHeaderValue(e.payload, fresh));

  // An old secret that is not in the whsec_ form signs X-Service-Signature only.
  const HttpPost mixed = BuildDelivery(e, "https://example.com/h", {fresh, "plain"}, 1700000000);
  EXPECT_EQ(Header(mixed, "X-Service-Signature"), *SignatureHeaderValue(e.payload, "plain"));
  EXPECT_EQ(Header(mixed, "webhook-signature"), sig_new);
}

TEST(DeliveryTest, SigningSecretsEndWithTheOverlap) {
  Webhook hook{"https://example.com/h", "new"};
  EXPECT_EQ(SigningSecrets(hook, 5), (std::vector<std::string>{"new"}));
  hook.previous_secret = "old";
  hook.previous_until_ms = 1000;
  EXPECT_EQ(SigningSecrets(hook, 999), (std::vector<std::string>{"new", "old"}));
  EXPECT_EQ(SigningSecrets(hook, 1000), (std::vector<std::string>{"new"}));
  hook.secret = "";
  EXPECT_TRUE(SigningSecrets(hook, 5).empty());
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
