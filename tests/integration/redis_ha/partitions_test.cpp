// The job queue's partitions (issue 35, point 4; DQ_QUEUE_PARTITIONS), on a real Redis:
// - worker threads share the partitions, and one busy partition does not starve the others;
// - the queue's statistics are summed over the partitions;
// - after an upgrade, a job an older release queued on the single dq:jobs:queue still runs, through
//   the real binaries (an API-only gateway queues, a worker process started later runs).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <future>
#include <regex>
#include <set>

#include "dq/common/clock.h"
#include "dq/common/partitions.h"
#include "dq/common/redis_client.h"
#include "dq/testing/harness.h"
#include "jobs/queue_stats.h"
#include "jobs/redis_job_queue.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

// An account id whose partition (of 16) is p.
std::string AccountIn(int p, int skip = 0) {
  for (int i = 0;; ++i) {
    std::string a = "acct_" + std::to_string(i);
    if (PartitionOf(a, 16) == p && skip-- == 0) return a;
  }
}

class QueuePartitionsTest : public ::testing::Test {
 protected:
  QueuePartitionsTest() : client_(Options()), queue_(client_, client_, 16, 2) {}
  RedisOptions Options() {
    RedisOptions o;
    o.port = server_.port();
    o.partitions = 16;  // as under Redis Cluster: the queue statistics sum all of them
    return o;
  }
  RedisServer server_;
  RedisClient client_;
  gateway::RedisJobQueue queue_;
};

TEST_F(QueuePartitionsTest, AnAccountsJobsGoToItsPartitionAndWorkersShareThePartitions) {
  ASSERT_TRUE(queue_.EnsureGroup().ok());
  for (int p = 0; p < 4; ++p) {
    ASSERT_TRUE(queue_.Enqueue(AccountIn(p), "job-" + std::to_string(p)).ok());
  }
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(server_.Cli({"XLEN", "{dq:jobs:queue:" + std::to_string(p) + "}"}), "1") << p;
  }
  // Worker 0 of 2 reads the even partitions (and the old stream), worker 1 the odd ones.
  std::set<std::string> zero, one;
  for (int i = 0; i < 4; ++i) {
    auto a = queue_.Next("host-1-0", std::chrono::milliseconds(0));
    ASSERT_TRUE(a.ok()) << a.status().message();
    if (a->has_value()) zero.insert((*a)->job_id);
    auto b = queue_.Next("host-1-1", std::chrono::milliseconds(0));
    ASSERT_TRUE(b.ok()) << b.status().message();
    if (b->has_value()) one.insert((*b)->job_id);
  }
  EXPECT_EQ(zero, (std::set<std::string>{"job-0", "job-2"}));
  EXPECT_EQ(one, (std::set<std::string>{"job-1", "job-3"}));
}

TEST_F(QueuePartitionsTest, ABusyPartitionDoesNotStarveTheOthers) {
  ASSERT_TRUE(queue_.EnsureGroup().ok());
  // Partition 0 has ten jobs, partitions 2 and 4 one each, all worker 0's.
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(queue_.Enqueue(AccountIn(0), "busy-" + std::to_string(i)).ok());
  }
  ASSERT_TRUE(queue_.Enqueue(AccountIn(2), "quiet-2").ok());
  ASSERT_TRUE(queue_.Enqueue(AccountIn(4), "quiet-4").ok());
  std::vector<std::string> order;
  for (int i = 0; i < 3; ++i) {
    auto e = queue_.Next("host-1-0", std::chrono::milliseconds(0));
    ASSERT_TRUE(e.ok() && e->has_value());
    order.push_back((*e)->job_id);
    ASSERT_TRUE(queue_.Ack((*e)->entry_id).ok());
  }
  // One from each partition in turn, not three from the busy one.
  EXPECT_EQ(order, (std::vector<std::string>{"busy-0", "quiet-2", "quiet-4"}));
}

TEST_F(QueuePartitionsTest, EntriesOfTheOldStreamAreTakenAcknowledgedAndCounted) {
  ASSERT_TRUE(queue_.EnsureGroup().ok());
  // What a release before partitions wrote.
  server_.Cli({"XADD", "dq:jobs:queue", "*", "account_id", AccountIn(5), "job_id", "old-1"});
  ASSERT_TRUE(queue_.Enqueue(AccountIn(3), "new-1").ok());
  gateway::RedisQueueStats stats(client_, SystemClock::Instance());
  auto s = stats.Read();
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->waiting, 2);
  EXPECT_EQ(s->in_progress, 0);

  auto old = queue_.Next("host-1-0", std::chrono::milliseconds(0));
  ASSERT_TRUE(old.ok() && old->has_value());
  EXPECT_EQ((*old)->job_id, "old-1");
  EXPECT_EQ((*old)->entry_id.rfind("-1/", 0), 0u) << (*old)->entry_id;
  auto held = queue_.Heartbeat("host-1-0", (*old)->entry_id);
  ASSERT_TRUE(held.ok());
  EXPECT_TRUE(*held);
  s = stats.Read();
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->waiting, 1);
  EXPECT_EQ(s->in_progress, 1);
  ASSERT_TRUE(queue_.Ack((*old)->entry_id).ok());
  EXPECT_EQ(server_.Cli({"XLEN", "dq:jobs:queue"}), "0");
  // A dead worker's entry, in any partition, is reclaimed by another.
  auto taken = queue_.Next("host-1-1", std::chrono::milliseconds(0));
  ASSERT_TRUE(taken.ok() && taken->has_value());
  auto reclaimed = queue_.Reclaim("host-2-0", std::chrono::milliseconds(0), 5);
  ASSERT_TRUE(reclaimed.ok());
  ASSERT_EQ(reclaimed->size(), 1u);
  EXPECT_EQ((*reclaimed)[0].job_id, "new-1");
}

// One partition (the default on one node): a worker thread waits on it, never on the old
// single stream, so a job queued while it waits is taken at once. (Waiting on each of its share
// in turn, it waited on the old stream every other call, and a job queued then waited for that
// wait to end.)
TEST(QueueWaitTest, AWorkerWaitsOnItsPartitionNeverOnTheOldStream) {
  RedisServer server;
  RedisOptions o;
  o.port = server.port();
  o.timeout = std::chrono::seconds(30);  // longer than the wait
  RedisClient client(o);
  gateway::RedisJobQueue queue(client, client, /*partitions=*/1, /*workers=*/1);
  ASSERT_TRUE(queue.EnsureGroup().ok());
  ASSERT_EQ(queue.ShareOf("host-1-0"), (std::vector<int>{0, kLegacyPartition}));
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    auto next = std::async(std::launch::async, [&] {
      return queue.Next("host-1-0", std::chrono::milliseconds(20000));
    });
    // Redis lists a client blocked in XREADGROUP with flag b: queue the job only then.
    ASSERT_TRUE(WaitFor(
        [&] { return server.Cli({"CLIENT", "LIST"}).find("flags=b ") != std::string::npos; },
        std::chrono::seconds(10)));
    const std::string job = "job-" + std::to_string(round);
    server.Cli({"XADD", "{dq:jobs:queue:0}", "*", "account_id", "acct_1", "job_id", job});
    auto got = next.get();
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_TRUE(got->has_value()) << "the wait was not on the partition";
    EXPECT_EQ((*got)->job_id, job);
    ASSERT_TRUE(queue.Ack((*got)->entry_id).ok());
  }
}

int64_t Gauge(const std::string& metrics, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(metrics, m, std::regex("(^|\\n)" + name + " (-?[0-9]+)"))) return -1;
  return std::stoll(m[2]);
}

// An upgrade: a job queued by an older release on dq:jobs:queue, beside one on its partition;
// a worker of this release runs both, and the queue's depth counts both meanwhile.
TEST(QueueUpgradeTest, AJobQueuedOnTheOldSingleStreamStillRuns) {
  StackOptions options;
  options.gateway_env = {{"DQ_ROLE", "api"}, {"DQ_QUEUE_METRICS_INTERVAL_MS", "50"}};
  options.worker_env = {{"DQ_QUEUE_METRICS_INTERVAL_MS", "50"},
                        {"DQ_GATEWAY_PORT", std::to_string(FreePort())}};
  Stack stack(options);
  auto [account, key] = stack.NewAccount();
  std::vector<std::string> ids;
  for (int i = 0; i < 2; ++i) {
    HttpResult up = Http("POST", stack.GatewayUrl() + "/v1/jobs",
                         {{"X-API-Key", key}, {"Content-Type", "text/csv"}}, "sku,price\nA,1\n");
    ASSERT_EQ(up.status, 202) << up.body;
    ids.push_back(json::parse(up.body)["id"]);
  }
  // The second job's entry moves to the old stream, as an older release would have queued it.
  const std::string partition =
      PartitionKey("dq:jobs:queue", PartitionOf(account, DefaultPartitions(/*cluster=*/false)));
  RedisOptions o;
  o.port = stack.redis().port();
  RedisClient redis(o);
  auto entries = redis.Command({"XRANGE", partition, "-", "+"});
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->elements.size(), 2u);
  const std::string moved_id = entries->elements[1].elements[0].str;
  ASSERT_TRUE(redis.Command({"XADD", "dq:jobs:queue", "*", "account_id", account, "job_id",
                             ids[1]}).ok());
  ASSERT_TRUE(redis.Command({"XDEL", partition, moved_id}).ok());
  std::string metrics;
  ASSERT_TRUE(WaitFor(
      [&] {
        metrics = Http("GET", stack.GatewayOpsUrl() + "/metrics").body;
        return Gauge(metrics, "dq_jobs_queue_depth") == 2;
      },
      std::chrono::seconds(10)))
      << metrics;

  stack.StartWorker(0);
  for (const auto& id : ids) {
    json job;
    ASSERT_TRUE(WaitFor(
        [&] {
          job = json::parse(
              Http("GET", stack.GatewayUrl() + "/v1/jobs/" + id, {{"X-API-Key", key}}).body);
          return job["status"] == "done";
        },
        std::chrono::seconds(30)))
        << id << ": " << job.dump();
  }
  EXPECT_EQ(stack.redis().Cli({"XLEN", "dq:jobs:queue"}), "0");
  EXPECT_EQ(stack.redis().Cli({"XLEN", partition}), "0");
  ASSERT_TRUE(WaitFor(
      [&] { return Gauge(Http("GET", stack.GatewayOpsUrl() + "/metrics").body,
                         "dq_jobs_queue_depth") == 0; },
      std::chrono::seconds(10)));
}

}  // namespace
}  // namespace dq::testing
