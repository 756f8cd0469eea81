// The fixed-window arithmetic and the in-memory limiter (same algorithm as the Redis script,
// which the integration tests cover) under a fake clock.
#include "limits/rate_limiter.h"

#include <gtest/gtest.h>

#include "dq/testing/fake_clock.h"
#include "dq/testing/gateway_fakes.h"

namespace dq::gateway {
namespace {

using std::chrono::seconds;

TEST(FixedWindowTest, WindowStartsOnTheMinute) {
  EXPECT_EQ(FixedWindow::Start(1'800'000'059, 60), 1'800'000'000);
  EXPECT_EQ(FixedWindow::Start(120, 60), 120);
  EXPECT_EQ(FixedWindow::Start(179, 60), 120);
}

TEST(FixedWindowTest, DecisionFillsTheHeaders) {
  RateDecision d = FixedWindow::Decide(true, 1, 60, 120, 60, 130);
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.limit, 60);
  EXPECT_EQ(d.remaining, 59);
  EXPECT_EQ(d.reset_unix, 180);
  EXPECT_EQ(d.retry_after, 0);
  RateDecision refused = FixedWindow::Decide(false, 60, 60, 120, 60, 130);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.retry_after, 50);
  // Never tell a client to retry after 0 seconds.
  EXPECT_EQ(FixedWindow::Decide(false, 60, 60, 120, 60, 180).retry_after, 1);
}

class LimiterTest : public ::testing::Test {
 protected:
  testing::FakeClock clock{std::chrono::system_clock::time_point(seconds(1'800'000'040))};
  testing::InMemoryRateLimiter limiter{clock, RateLimitPolicy{}};
};

TEST_F(LimiterTest, AdmitsExactlyTheLimitPerWindowAndRejectionsCostNothing) {
  for (int i = 0; i < 10; ++i) {
    auto d = limiter.Acquire("acct_a", RateClass::kUpload);
    ASSERT_TRUE(d->allowed) << i;
    EXPECT_EQ(d->remaining, 9 - i);
  }
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(limiter.Acquire("acct_a", RateClass::kUpload)->allowed);
  // The general class and other accounts are separate budgets.
  EXPECT_TRUE(limiter.Acquire("acct_a", RateClass::kGeneral)->allowed);
  EXPECT_TRUE(limiter.Acquire("acct_b", RateClass::kUpload)->allowed);
  // Next window: the full budget again, although 5 requests were refused.
  clock.Advance(seconds(20));
  auto d = limiter.Acquire("acct_a", RateClass::kUpload);
  EXPECT_TRUE(d->allowed);
  EXPECT_EQ(d->remaining, 9);
}

TEST_F(LimiterTest, PeekDoesNotCount) {
  ASSERT_TRUE(limiter.Acquire("acct_a", RateClass::kGeneral).ok());
  auto p = limiter.Peek("acct_a", RateClass::kGeneral);
  EXPECT_EQ(p->remaining, 59);
  EXPECT_EQ(limiter.Peek("acct_a", RateClass::kGeneral)->remaining, 59);
}

// A full Redis must not lock users out of their data: reads and deletes go on uncounted when the
// counter cannot be written; anything that creates data does not.
TEST(PassesUncountedTest, ReadsAndDeletesOnly) {
  for (const char* m : {"GET", "HEAD", "DELETE"}) EXPECT_TRUE(PassesUncounted(m)) << m;
  for (const char* m : {"POST", "PUT", "PATCH", "OPTIONS", "get", ""}) {
    EXPECT_FALSE(PassesUncounted(m)) << m;
  }
}

TEST_F(LimiterTest, AcquireOrPassLetsReadsAndDeletesThroughUncountedWhenTheLimiterIsDown) {
  Metrics registry;
  RateLimitMetrics metrics(registry);
  limiter.SetUnavailable(true);
  for (const char* m : {"GET", "DELETE"}) {
    auto d = AcquireOrPass(limiter, "acct_a", RateClass::kGeneral, m, "req-1", metrics);
    ASSERT_TRUE(d.ok()) << m;
    EXPECT_TRUE(d->allowed);
    EXPECT_EQ(d->limit, 60);
    EXPECT_EQ(d->remaining, 0);  // nothing promised
    EXPECT_EQ(d->reset_unix, 1'800'000'060);  // the window's end
  }
  auto post = AcquireOrPass(limiter, "acct_a", RateClass::kUpload, "POST", "req-2", metrics);
  ASSERT_FALSE(post.ok());
  EXPECT_EQ(post.status().code(), ErrorCode::kUnavailable);
  // The two passes are counted; the refused POST is not.
  EXPECT_EQ(registry.Render(),
            "# HELP dq_rate_limit_uncounted_total Reads and deletes let through uncounted because "
            "the rate-limit counter could not be written (Redis full or unreachable)\n"
            "# TYPE dq_rate_limit_uncounted_total counter\n"
            "dq_rate_limit_uncounted_total 2\n");
  // Up again: counted as before, and the passes above used no budget.
  limiter.SetUnavailable(false);
  auto d = AcquireOrPass(limiter, "acct_a", RateClass::kGeneral, "GET", "req-3", metrics);
  EXPECT_EQ(d->remaining, 59);
  EXPECT_EQ(metrics.uncounted.Get().value(), 2u);
}

}  // namespace
}  // namespace dq::gateway
