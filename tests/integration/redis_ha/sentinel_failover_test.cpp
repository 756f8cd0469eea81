// Redis Sentinel failover under a running job (issue 35), on real processes on loopback: a master,
// two replicas and three redis-sentinel processes (down-after-milliseconds 2000), dq-validator
// and one dq-gateway (DQ_ROLE=all) that finds the master through the sentinels and waits for one
// replica on every write that must survive (DQ_REDIS_MIN_REPLICAS=1).
//
// A job runs once without faults (the reference), then again while the master is killed with
// SIGKILL. The second job must end done with the reference's issues, summary and cleaned file;
// the quota must count both jobs exactly once; the event stream must hold its job.complete;
// reads must be served again within 10 s of the kill. The times are printed (and recorded in
// docs/deploy.md). scripts/failover-check.sh runs it with the fuller scenarios
// (failover_full_test.cpp).
#include <gtest/gtest.h>

#include "failover_fixture.h"

namespace dq::testing {
namespace {

using SentinelFailoverTest = FailoverFixture;

TEST_F(SentinelFailoverTest, KillingTheMasterMidJobLosesAndDoublesNothing) {
  constexpr int kRows = 40000;
  const std::string file = Products(kRows);
  const std::string reference = Upload(file);
  ASSERT_FALSE(reference.empty());
  json ref_job = WaitEnded(reference, std::chrono::seconds(60));
  ASSERT_EQ(ref_job["status"], "done") << ref_job.dump();
  const Output expected = OutputOf(reference);
  ASSERT_FALSE(expected.issues.empty());
  EXPECT_EQ(QuotaUsed(), kRows);

  const std::string id = Upload(file);
  ASSERT_FALSE(id.empty());
  ASSERT_TRUE(WaitFor(
      [&] {
        HttpResult r = Get("/v1/jobs/" + id);
        return r.status == 200 && json::parse(r.body)["status"] != "queued";
      },
      std::chrono::seconds(20)));
  const int master = group_->MasterIndex();
  ASSERT_GE(master, 0);
  const std::string status_at_kill = json::parse(Get("/v1/jobs/" + id).body)["status"];
  const auto killed = SteadyClock::now();
  group_->node(master).Kill9();

  // Reads: the job's detail answers again (through the new master).
  ASSERT_TRUE(
      WaitFor([&] { return Get("/v1/jobs/" + id).status == 200; }, std::chrono::seconds(30)));
  const double read_after = Seconds(SteadyClock::now() - killed);
  // Writes that wait for a replica: a validation reserves quota (durable) and answers 200.
  json body = {{"records", {{{"sku", "W1"}, {"price", "1.00"}}}},
               {"mapping", {{"sku", "sku"}, {"price", "price"}}}};
  HttpResult last;
  ASSERT_TRUE(WaitFor(
      [&] {
        last = Http("POST", Url("/v1/validate"),
                    {{"X-API-Key", key_}, {"Content-Type", "application/json"}}, body.dump());
        return last.status == 200;
      },
      std::chrono::seconds(30)))
      << last.status << " " << last.body << "\n"
      << Replication();
  const double write_after = Seconds(SteadyClock::now() - killed);

  json job = WaitEnded(id, std::chrono::seconds(60));
  const double done_after = Seconds(SteadyClock::now() - killed);
  std::printf(
      "[failover] status at the kill: %s; reads served again after %.2f s, durable "
      "writes after %.2f s, the job done after %.2f s; new master: node %d\n",
      status_at_kill.c_str(), read_after, write_after, done_after, group_->MasterIndex());
  ASSERT_EQ(job["status"], "done") << job.dump() << gateway_->Log();
  const Output got = OutputOf(id);
  EXPECT_EQ(got.issues, expected.issues);
  EXPECT_EQ(got.summary, expected.summary);
  EXPECT_EQ(got.cleaned, expected.cleaned);
  EXPECT_EQ(job["rows_total"], kRows);
  EXPECT_EQ(QuotaUsed(), 2 * kRows + 1);  // both jobs once, and the one validated record
  EXPECT_GE(EventsFor(id).size(), 1u);    // duplicates, if any, carry the job id as delivery id
  EXPECT_LT(read_after, 10.0);
  const std::string log = gateway_->Log();
  EXPECT_EQ(log.find("CROSSSLOT"), std::string::npos);
  EXPECT_EQ(log.find("non local key"), std::string::npos);
  EXPECT_NE(log.find("DQ_REDIS_HOST and DQ_REDIS_PORT are ignored"), std::string::npos);
}

}  // namespace
}  // namespace dq::testing
