// The failover tests' stack (issue 35): a master, replicas and three sentinels
// (redis_group.h), dq-validator and one dq-gateway (DQ_ROLE=all) that finds the master through
// the sentinels and waits for one replica on every write that must survive
// (DQ_REDIS_MIN_REPLICAS=1), with an account and a key; and what the tests compare (a job's
// output, the quota, the event stream).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "dq/common/partitions.h"
#include "dq/common/time_format.h"
#include "redis_group.h"

namespace dq::testing {

using json = nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

inline double Seconds(SteadyClock::duration d) { return std::chrono::duration<double>(d).count(); }

// Products with an error every 7th row and a fix every 5th.
inline std::string Products(int rows) {
  std::string csv = "sku,title,price,currency\n";
  for (int r = 1; r <= rows; ++r) {
    csv += (r % 7 == 0 ? std::string() : "SKU-" + std::to_string(r)) + ",Blue mug " +
           std::to_string(r) + "," + (r % 5 == 0 ? " 12.50 " : "12.50") + ",EUR\n";
  }
  return csv;
}

class FailoverFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    group_ = std::make_unique<RedisGroup>(replicas_, /*sentinels=*/true);
    validator_port_ = FreePort();
    validator_ = std::make_unique<ChildProcess>(
        DQ_VALIDATOR_BIN,
        std::map<std::string, std::string>{{"DQ_VALIDATOR_BIND", "127.0.0.1"},
                                           {"DQ_VALIDATOR_PORT", std::to_string(validator_port_)},
                                           {"DQ_VALIDATOR_OPS_PORT", std::to_string(FreePort())}});
    ASSERT_TRUE(WaitFor([&] { return TcpConnects(validator_port_); }, std::chrono::seconds(15)));
    gateway_port_ = FreePort();
    gateway_ = std::make_unique<ChildProcess>(
        DQ_GATEWAY_BIN, std::map<std::string, std::string>{
                            {"DQ_GATEWAY_BIND", "127.0.0.1"},
                            {"DQ_GATEWAY_PORT", std::to_string(gateway_port_)},
                            {"DQ_GATEWAY_OPS_PORT", std::to_string(FreePort())},
                            // Ignored with sentinels set: an address nothing answers on.
                            {"DQ_REDIS_HOST", "127.0.0.1"},
                            {"DQ_REDIS_PORT", "1"},
                            {"DQ_REDIS_SENTINELS", group_->SentinelList()},
                            {"DQ_REDIS_MIN_REPLICAS", std::to_string(min_replicas_)},
                            {"DQ_REDIS_WAIT_TIMEOUT_MS", "500"},
                            {"DQ_REDIS_TIMEOUT_MS", "500"},
                            {"DQ_VALIDATOR_ADDR", "127.0.0.1:" + std::to_string(validator_port_)},
                            {"DQ_JOB_CLAIM_IDLE_MS", "2000"},
                            {"DQ_RATE_LIMIT_GENERAL", "1000000"},
                            {"DQ_RATE_LIMIT_UPLOAD", "1000000"},
            {"DQ_QUOTA_PRO", "100000000"},
                            {"DQ_WORKERS", "2"},
                            {"DQ_SHUTDOWN_GRACE_MS", "0"}});
    ASSERT_TRUE(WaitFor([&] { return Http("GET", Url("/readyz")).status == 200; },
                        std::chrono::seconds(20)))
        << gateway_->Log();
    redis_ = std::make_unique<RedisClient>(group_->ClientOptions(1));
    RedisAccountStore accounts(*redis_, SystemClock::Instance());
    auto account = accounts.CreateAccount(Plan::kPro, "failover");
    ASSERT_TRUE(account.ok()) << account.status().message();
    account_ = account->id;
    auto key = accounts.CreateKey(account_);
    ASSERT_TRUE(key.ok()) << key.status().message();
    key_ = key->api_key;
  }

  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(gateway_port_) + path;
  }
  HttpResult Get(const std::string& path) { return Http("GET", Url(path), {{"X-API-Key", key_}}); }
  std::string Upload(const std::string& file) {
    HttpResult r = Http("POST", Url("/v1/jobs?filename=shop.csv"),
                        {{"X-API-Key", key_}, {"Content-Type", "text/csv"}}, file);
    EXPECT_EQ(r.status, 202) << r.body;
    return r.status == 202 ? json::parse(r.body)["id"].get<std::string>() : "";
  }
  // The job's detail once it has ended (done or failed), or the last answer.
  json WaitEnded(const std::string& id, std::chrono::seconds timeout) {
    json job;
    WaitFor(
        [&] {
          HttpResult r = Get("/v1/jobs/" + id);
          if (r.status != 200) {
            job = {{"http_status", r.status}, {"body", r.body.substr(0, 300)}};
            return false;
          }
          job = json::parse(r.body);
          return job["status"] == "done" || job["status"] == "failed";
        },
        timeout);
    return job;
  }
  struct Output {
    json issues, summary;
    std::string cleaned;
  };
  Output OutputOf(const std::string& id) {
    Output o;
    json detail = json::parse(Get("/v1/jobs/" + id).body);
    o.issues = detail["issues"];
    o.summary = json::parse(Get("/v1/jobs/" + id + "/summary").body);
    o.summary.erase("id");
    // A later job of the same file is compared with the earlier one (its feed's previous job):
    // what is compared here is the check's own output.
    o.summary.erase("previous_job_id");
    o.summary.erase("changes");
    o.cleaned = Get("/v1/jobs/" + id + "/cleaned").body;
    return o;
  }
  // A command of the test's own client, asked again while its first tries meet the failover
  // (a read: sending it again is harmless).
  Result<RedisReply> Read(const std::vector<std::string>& argv) {
    Result<RedisReply> r = Status(ErrorCode::kUnavailable, "not asked");
    WaitFor([&] { return (r = redis_->Command(argv)).ok(); }, std::chrono::seconds(15));
    return r;
  }
  int64_t QuotaUsed() {
    auto r = Read(
        {"GET", AccountKey(account_, "quota:" + FormatYearMonth(SystemClock::Instance().Now()))});
    return r.ok() && !r->is_nil() ? std::stoll(r->str) : -1;
  }
  // job.complete entries of the event stream for job_id, and their delivery ids.
  std::vector<std::string> EventsFor(const std::string& job_id) {
    std::vector<std::string> ids;
    auto r = Read({"XRANGE", PartitionKey("dq:events", PartitionOf(account_, DefaultPartitions(/*cluster=*/false))),
                   "-", "+"});
    if (!r.ok()) return ids;
    for (const auto& entry : r->elements) {
      if (entry.elements.size() < 2) continue;
      const auto& f = entry.elements[1].elements;
      std::string text;
      for (const auto& v : f) text += v.str + " ";
      if (text.find(job_id) != std::string::npos) ids.push_back(job_id);
    }
    return ids;
  }

  // What each node says of its replication, for failure messages.
  std::string Replication() {
    std::string out;
    for (int i = 0; i < group_->nodes(); ++i) {
      out +=
          "node " + std::to_string(i) + ": " + group_->node(i).Cli({"INFO", "replication"}) + "\n";
    }
    return out;
  }

  int replicas_ = 2;      // a test may change these in its constructor
  int min_replicas_ = 1;  // DQ_REDIS_MIN_REPLICAS of the gateway
  std::unique_ptr<RedisGroup> group_;
  int validator_port_ = 0;
  int gateway_port_ = 0;
  std::unique_ptr<ChildProcess> validator_;
  std::unique_ptr<ChildProcess> gateway_;
  std::unique_ptr<RedisClient> redis_;
  std::string account_;
  std::string key_;
};

}  // namespace dq::testing
