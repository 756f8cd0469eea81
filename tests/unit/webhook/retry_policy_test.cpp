#include "dq/webhook/retry_policy.h"

#include <gtest/gtest.h>

namespace dq::webhook {
namespace {

class FixedRandom final : public RandomSource {
 public:
  explicit FixedRandom(double v) : v_(v) {}
  double Uniform01() override { return v_; }
  double v_;
};

constexpr int64_t kSec = 1000;
constexpr int64_t kHour = 3600 * kSec;
constexpr int64_t kDay = 24 * kHour;

TEST(RetryPolicyTest, NominalDelaysDoubleUpToTheCap) {
  FixedRandom r(0.5);
  RetryPolicy p(RetrySchedule{30 * kSec, 6 * kHour, 3 * kDay}, r);
  struct Row {
    int failures;
    int64_t nominal;
  };
  const Row rows[] = {{1, 30 * kSec},  {2, 60 * kSec},    {3, 120 * kSec}, {4, 240 * kSec},
                      {10, 15360 * kSec}, {11, 6 * kHour}, {20, 6 * kHour}, {1000, 6 * kHour}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.failures);
    EXPECT_EQ(p.NominalDelayMs(row.failures), row.nominal);
  }
}

TEST(RetryPolicyTest, JitterStaysBetweenHalfAndTheNominalDelay) {
  const RetrySchedule s{1000, 100'000, kDay};
  struct Row {
    const char* name;
    double u;
    int64_t delay;
  };
  const Row rows[] = {{"lowest", 0.0, 2000}, {"middle", 0.5, 3000}, {"highest", 0.999999, 3999}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    FixedRandom r(row.u);
    RetryPolicy p(s, r);
    auto next = p.NextAttemptMs(3, 0, 10'000);  // nominal 4000
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(*next, 10'000 + row.delay);
  }
}

TEST(RetryPolicyTest, OutOfRangeRandomIsClamped) {
  FixedRandom r(7.0);
  RetryPolicy p(RetrySchedule{1000, 100'000, kDay}, r);
  EXPECT_EQ(*p.NextAttemptMs(1, 0, 0), 1000);
}

TEST(RetryPolicyTest, DeadLetterWhenTheNextAttemptFallsPastTheSchedule) {
  FixedRandom r(1.0);
  RetryPolicy p(RetrySchedule{100, 400, 1000}, r);
  EXPECT_EQ(*p.NextAttemptMs(1, 0, 0), 100);
  EXPECT_EQ(*p.NextAttemptMs(3, 0, 600), 1000);  // exactly at the end: still allowed
  EXPECT_FALSE(p.NextAttemptMs(3, 0, 601).has_value());
  EXPECT_FALSE(p.NextAttemptMs(1, 0, 5000).has_value());
}

// The production schedule walked with a seeded random source: every attempt within 3 days of
// the first, about 20 of them, then a dead letter.
TEST(RetryPolicyTest, ProductionScheduleSpansThreeDaysThenDeadLetters) {
  for (double u : {0.0, 0.5, 0.999}) {
    SCOPED_TRACE(u);
    FixedRandom r(u);
    RetryPolicy p(RetrySchedule{}, r);
    const int64_t first = 1'800'000'000'000;
    int64_t now = first;
    int attempts = 1;
    while (auto next = p.NextAttemptMs(attempts, first, now)) {
      EXPECT_GT(*next, now);
      now = *next;
      ++attempts;
      ASSERT_LT(attempts, 100);
    }
    EXPECT_LE(now - first, 3 * kDay);
    EXPECT_GT(now - first, 3 * kDay - 6 * kHour);  // the schedule is used, not cut short
    EXPECT_GE(attempts, 15);
    EXPECT_LE(attempts, 35);
  }
}

TEST(RetryPolicyTest, SeededSourceIsDeterministic) {
  MtRandomSource a(42), b(42);
  for (int i = 0; i < 10; ++i) {
    const double x = a.Uniform01();
    EXPECT_EQ(x, b.Uniform01());
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
  }
}

}  // namespace
}  // namespace dq::webhook
