#include "jobs/queue_stats.h"

#include <gtest/gtest.h>

namespace dq::gateway {
namespace {

RedisReply Int(int64_t v) {
  RedisReply r;
  r.type = RedisReply::Type::kInteger;
  r.integer = v;
  return r;
}

RedisReply Str(std::string s) {
  RedisReply r;
  r.type = RedisReply::Type::kString;
  r.str = std::move(s);
  return r;
}

RedisReply Reply(int64_t waiting, int64_t pending, std::string oldest) {
  RedisReply r;
  r.type = RedisReply::Type::kArray;
  r.elements = {Int(waiting), Int(pending), Str(std::move(oldest))};
  return r;
}

TEST(QueueStatsTest, AgeComesFromTheOldestWaitingEntrysId) {
  auto s = QueueStatsFromReply(Reply(3, 2, "1700000000000-4"), 1700000042500);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->waiting, 3);
  EXPECT_EQ(s->in_progress, 2);
  EXPECT_EQ(s->oldest_waiting_age_ms, 42500);
}

TEST(QueueStatsTest, NothingWaitingMeansAgeZero) {
  auto s = QueueStatsFromReply(Reply(0, 5, ""), 1700000042500);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->waiting, 0);
  EXPECT_EQ(s->in_progress, 5);
  EXPECT_EQ(s->oldest_waiting_age_ms, 0);
}

TEST(QueueStatsTest, ClockBehindTheEntryIsAgeZeroNotNegative) {
  auto s = QueueStatsFromReply(Reply(1, 0, "1700000000000-0"), 1699999999000);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->oldest_waiting_age_ms, 0);
}

TEST(QueueStatsTest, RejectsOtherShapes) {
  RedisReply nil;
  EXPECT_FALSE(QueueStatsFromReply(nil, 0).ok());
  RedisReply two = Reply(1, 1, "1-0");
  two.elements.pop_back();
  EXPECT_FALSE(QueueStatsFromReply(two, 0).ok());
  EXPECT_FALSE(QueueStatsFromReply(Reply(1, 0, "abc"), 0).ok());
}

class FakeSource : public QueueStatsSource {
 public:
  Result<QueueStats> Read() override {
    ++reads;
    if (fail) return Status(ErrorCode::kUnavailable, "down");
    return stats;
  }
  QueueStats stats;
  bool fail = false;
  int reads = 0;
};

TEST(QueueStatsTest, SamplerExportsTheGaugesAndKeepsThemWhenAReadFails) {
  Metrics registry;
  QueueMetrics metrics(registry);
  FakeSource source;
  source.stats = {7, 2, 65999};
  QueueMetricsSampler sampler(source, std::chrono::milliseconds(0), metrics);
  ASSERT_TRUE(sampler.SampleOnce());
  const std::string gauges =
      "# HELP dq_jobs_in_progress Jobs taken by a worker and not finished\n"
      "# TYPE dq_jobs_in_progress gauge\n"
      "dq_jobs_in_progress 2\n"
      "# HELP dq_jobs_oldest_queued_age_seconds Age of the oldest job not yet taken by a worker "
      "(0: none waits)\n"
      "# TYPE dq_jobs_oldest_queued_age_seconds gauge\n"
      "dq_jobs_oldest_queued_age_seconds 65\n"
      "# HELP dq_jobs_queue_depth Jobs queued and not yet taken by a worker\n"
      "# TYPE dq_jobs_queue_depth gauge\n"
      "dq_jobs_queue_depth 7\n";
  EXPECT_EQ(registry.Render(), gauges);  // exactly the three gauges, no error counter yet

  source.fail = true;
  EXPECT_FALSE(sampler.SampleOnce());
  EXPECT_EQ(registry.Render(),
            gauges +
                "# HELP dq_jobs_queue_stats_errors_total Failed reads of the job queue's size\n"
                "# TYPE dq_jobs_queue_stats_errors_total counter\n"
                "dq_jobs_queue_stats_errors_total 1\n");
}

TEST(QueueStatsTest, SamplerWithIntervalZeroNeverStarts) {
  FakeSource source;
  Metrics registry;
  QueueMetrics metrics(registry);
  QueueMetricsSampler sampler(source, std::chrono::milliseconds(0), metrics);
  sampler.Start();
  sampler.Stop();
  EXPECT_EQ(source.reads, 0);
}

}  // namespace
}  // namespace dq::gateway
