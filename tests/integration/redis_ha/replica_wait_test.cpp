// Writes that must survive a failover wait for a replica (DQ_REDIS_MIN_REPLICAS, issue 35): on a
// real master with a real replica (redis-server --replicaof), paused with SIGSTOP, every such
// write answers 503 service_unavailable with Retry-After, and its work is given back or left to
// be retried; none answers "ok". Resumed, the same calls succeed.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>

#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "dq/common/time_format.h"
#include "jobs/redis_job_store.h"
#include "limits/quota.h"
#include "redis_group.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

// The replica stopped (as a lagging or partitioned replica is) for the scope's life.
class Paused {
 public:
  explicit Paused(pid_t pid) : pid_(pid) { kill(pid_, SIGSTOP); }
  ~Paused() { kill(pid_, SIGCONT); }

 private:
  pid_t pid_;
};

std::string Csv(int rows) {
  std::string csv = "sku,title,price\n";
  for (int r = 0; r < rows; ++r) {
    csv += "SKU-" + std::to_string(r) + ",Mug " + std::to_string(r) + ",9.99\n";
  }
  return csv;
}

class ReplicaWaitTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1,
                                    false,
                                    {{"DQ_REDIS_MIN_REPLICAS", "1"},
                                     {"DQ_REDIS_WAIT_TIMEOUT_MS", "200"},
                                     {"DQ_RATE_LIMIT_ANONYMOUS", "100000"}}});
    replica_ = new RedisNodeProcess(stack_->redis().port());
    const bool synced = WaitFor(
        [] {
          return stack_->redis().Cli({"INFO", "replication"}).find("state=online") !=
                 std::string::npos;
        },
        std::chrono::seconds(20));
    if (!synced) throw std::runtime_error("the replica did not sync");
  }
  static void TearDownTestSuite() {
    delete replica_;
    delete stack_;
  }
  void SetUp() override { std::tie(account_, key_) = stack_->NewAccount(); }

  HttpResult Validate() {
    json body = {
        {"records", {{{"SKU", "A1"}, {"Price", "19.99"}}, {{"SKU", "A2"}, {"Price", "x"}}}},
        {"mapping", {{"sku", "SKU"}, {"price", "Price"}}}};
    return Http("POST", stack_->GatewayUrl() + "/v1/validate",
                {{"X-API-Key", key_}, {"Content-Type", "application/json"}}, body.dump());
  }
  int64_t QuotaUsed() {
    const std::string v = stack_->redis().Cli(
        {"GET", AccountKey(account_, "quota:" + FormatYearMonth(SystemClock::Instance().Now()))});
    return v.empty() ? 0 : std::stoll(v);
  }

  static Stack* stack_;
  static RedisNodeProcess* replica_;
  std::string account_;
  std::string key_;
};
Stack* ReplicaWaitTest::stack_ = nullptr;
RedisNodeProcess* ReplicaWaitTest::replica_ = nullptr;

TEST_F(ReplicaWaitTest, AQuotaReservationWithoutItsReplicaIsA503AndIsGivenBack) {
  HttpResult ok = Validate();
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(QuotaUsed(), 2);
  {
    Paused paused(replica_->pid());
    HttpResult r = Validate();
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(json::parse(r.body)["error"], "service_unavailable");
    EXPECT_EQ(json::parse(r.body)["message"],
              "Redis did not confirm the write: it reached 0 of the 1 replicas it waits for "
              "within 200 ms");
    EXPECT_EQ(r.Header("retry-after"), "1");
    EXPECT_EQ(QuotaUsed(), 2);  // the reservation was given back before the answer
  }
  HttpResult again = Validate();
  EXPECT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(QuotaUsed(), 4);
}

TEST_F(ReplicaWaitTest, AnUploadWithoutItsReplicaIsA503AndCreatesNoJob) {
  const std::string file = Csv(20);
  {
    Paused paused(replica_->pid());
    HttpResult r = Http("POST", stack_->GatewayUrl() + "/v1/jobs?check_types=product",
                        {{"X-API-Key", key_}, {"Content-Type", "text/csv"}}, file);
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(json::parse(r.body)["error"], "service_unavailable");
    EXPECT_EQ(QuotaUsed(), 0);
  }
  HttpResult list = Http("GET", stack_->GatewayUrl() + "/v1/jobs", {{"X-API-Key", key_}});
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_EQ(json::parse(list.body).size(), 0u) << list.body;
}

// The job store and the account store on the same master, with their own client: a claim, a
// finish, a key's creation and revocation and a quota refund each answer kUnavailable, never OK,
// while the replica is paused; the job is left for a later claim, which finishes it.
TEST_F(ReplicaWaitTest, TheStoresAnswerUnavailableNotOkWithoutTheirReplica) {
  RedisOptions o;
  o.port = stack_->redis().port();
  o.min_replicas = 1;
  o.wait_timeout = std::chrono::milliseconds(200);
  RedisClient redis(o);
  gateway::RedisJobStore store(redis, gateway::StoreLimits{});
  RedisAccountStore accounts(redis, SystemClock::Instance());
  gateway::QuotaPolicy policy;
  gateway::RedisQuotaService quota(redis, SystemClock::Instance(), policy);

  gateway::Job job;
  job.id = "6f1d2c3b-4a5e-4f60-8172-93a4b5c6d7e8";
  job.account_id = account_;
  job.status = gateway::JobStatus::kQueued;
  job.check_types = CheckTypeList::FromText("product");
  job.quota_month = "202611";
  job.created_ms = 1795428000000;
  const std::string file = Csv(5);
  job.file_bytes = static_cast<int64_t>(file.size());
  job.file_pieces = 1;
  gateway::UploadPieces upload(std::vector<std::string_view>{file}, 0);
  ASSERT_TRUE(store.Create(job, upload).ok());
  ASSERT_TRUE(store.Accept(job).ok());
  auto account = accounts.GetAccount(account_);
  ASSERT_TRUE(account.ok());
  {
    Paused paused(replica_->pid());
    auto claim = store.ClaimJob(account_, job.id, "2026-11-23T10:00:01.000Z");
    EXPECT_EQ(claim.status().code(), ErrorCode::kUnavailable);
    EXPECT_EQ(accounts.CreateKey(account_, "ci").status().code(), ErrorCode::kUnavailable);
    EXPECT_EQ(quota.Reserve(*account, 3).status().code(), ErrorCode::kUnavailable);
    EXPECT_EQ(quota.Release({"r1", account_, "202611", 1}).code(), ErrorCode::kUnavailable);
  }
  // Resumed: the job is claimed again (a new claim id), finished, and the finish is confirmed.
  auto claim = store.ClaimJob(account_, job.id, "2026-11-23T10:00:02.000Z");
  ASSERT_TRUE(claim.ok()) << claim.status().message();
  ASSERT_EQ(claim->kind, gateway::ClaimKind::kRun);
  EXPECT_EQ(claim->job.attempts, 2);
  gateway::Job done = claim->job;
  done.status = gateway::JobStatus::kDone;
  gateway::JobEnd end;
  end.status = gateway::JobStatus::kDone;
  {
    Paused paused(replica_->pid());
    EXPECT_EQ(store.Finish(done, gateway::JobWrite{}, end).code(), ErrorCode::kUnavailable);
    // The finish did run on the master; a later claim finds it finished and unpublished, and
    // waits for the replica again before it lets the event out.
    auto later = store.ClaimJob(account_, job.id, "2026-11-23T10:00:03.000Z");
    EXPECT_EQ(later.status().code(), ErrorCode::kUnavailable);
  }
  auto later = store.ClaimJob(account_, job.id, "2026-11-23T10:00:04.000Z");
  ASSERT_TRUE(later.ok()) << later.status().message();
  EXPECT_EQ(later->kind, gateway::ClaimKind::kFinished);
  EXPECT_FALSE(later->job.event_published);
  auto key = accounts.CreateKey(account_, "ci");
  ASSERT_TRUE(key.ok()) << key.status().message();
  {
    Paused paused(replica_->pid());
    EXPECT_EQ(accounts.RevokeKey(account_, key->key_id).code(), ErrorCode::kUnavailable);
  }
  EXPECT_TRUE(accounts.RevokeKey(account_, key->key_id).ok());
}

// A reservation whose WAIT fell short may survive on the next master (a replica can hold it
// unacknowledged) or be lost with the old one, so its release gives back only what the
// reservation's record holds, once, and is retried until the replica has it.
TEST_F(ReplicaWaitTest, AQuotaReleaseIsIdempotentAndRetriedUntilTheReplicaHasIt) {
  RedisOptions o;
  o.port = stack_->redis().port();
  o.min_replicas = 1;
  o.wait_timeout = std::chrono::milliseconds(200);
  RedisClient redis(o);
  RedisAccountStore accounts(redis, SystemClock::Instance());
  gateway::RedisQuotaService quota(redis, SystemClock::Instance(), gateway::QuotaPolicy{},
                                   std::chrono::milliseconds(20));
  auto account = accounts.GetAccount(account_);
  ASSERT_TRUE(account.ok());
  const int64_t before = quota.Usage(*account)->used;
  {
    Paused paused(replica_->pid());
    EXPECT_EQ(quota.Reserve(*account, 7).status().code(), ErrorCode::kUnavailable);
    // Given back on the master, not yet confirmed: the release is still pending.
    EXPECT_EQ(quota.PendingReleases(), 1u);
  }
  ASSERT_TRUE(quota.WaitReleased(std::chrono::seconds(20)));
  EXPECT_EQ(quota.Usage(*account)->used, before);
  EXPECT_EQ(replica_->Cli({"GET", AccountKey(account_, "quota:" + quota.Usage(*account)->month)}),
            std::to_string(before));

  // Released twice (a retry after a lost answer): given back once.
  auto reserved = quota.Reserve(*account, 5);
  ASSERT_TRUE(reserved.ok()) << reserved.status().message();
  EXPECT_EQ(quota.Usage(*account)->used, before + 5);
  EXPECT_TRUE(quota.Release(*reserved).ok());
  EXPECT_TRUE(quota.Release(*reserved).ok());
  EXPECT_EQ(quota.Usage(*account)->used, before);

  // A reservation the master lost (no record of it here): its release gives nothing back.
  gateway::QuotaReservation lost{"lost-in-a-failover", account_, quota.Usage(*account)->month, 9};
  EXPECT_TRUE(quota.Release(lost).ok());
  EXPECT_EQ(quota.Usage(*account)->used, before);

  // A reservation whose script runs only after its caller timed out and released it (the
  // release found no record): it takes nothing, and says why to anyone still listening.
  gateway::QuotaReservation late{"late-reserve", account_, quota.Usage(*account)->month, 4};
  EXPECT_TRUE(quota.Release(late).ok());
  auto ran_late = quota.Reserve(*account, 4, "late-reserve");
  EXPECT_EQ(ran_late.status().code(), ErrorCode::kInternal);
  EXPECT_EQ(ran_late.status().message(), "quota reservation late-reserve was already released");
  EXPECT_EQ(quota.Usage(*account)->used, before);
}

}  // namespace
}  // namespace dq::testing
