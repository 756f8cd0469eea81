// A preview's kept upload and Start (docs/api.md, "A Start that fails keeps the file for its
// retry"): JobsApi with in-memory fakes, the queue failing on demand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dq/testing/fake_clock.h"
#include "dq/testing/fault_plan.h"
#include "dq/testing/gateway_fakes.h"
#include "dq/testing/job_fakes.h"
#include "jobs/jobs_api.h"

namespace dq::gateway {
namespace {

constexpr const char* kUploadId = "0b6f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
constexpr const char* kCsv = "sku,title,price\nA-1,Mug,9.99\nA-2,Cup,abc\n";

class KeptUploadTest : public ::testing::Test {
 protected:
  KeptUploadTest()
      : queue_(&faults_), quota_(QuotaPolicy{}), api_(store_, queue_, quota_, clock_, JobsOptions{}) {
    principal_.account.id = "acct_kept";
    principal_.account.plan = Plan::kPro;
    KeptUpload kept{kUploadId, "acct_kept", "mugs.csv", "text/csv",
                    static_cast<int64_t>(std::string(kCsv).size()),
                    UnixMillis(clock_.Now() + std::chrono::minutes(15))};
    EXPECT_TRUE(store_.KeepUpload(kept, kCsv).ok());
  }

  http::HttpResponse Start() {
    http::HttpRequest r;
    r.method = "POST";
    r.path = "/v1/jobs";
    r.query = {{"upload_id", kUploadId}, {"check_types", "product"}};
    r.request_id = "req-1";
    return api_.Create(r, principal_);
  }

  bool Kept() {
    auto found = store_.KeptUploadFile("acct_kept", kUploadId);
    return found.ok() && found->has_value();
  }

  testing::FakeClock clock_;
  testing::FaultPlan faults_;
  testing::InMemoryJobStore store_;
  testing::InMemoryJobQueue queue_;
  testing::InMemoryQuotaService quota_;
  JobsApi api_;
  Principal principal_;
};

TEST_F(KeptUploadTest, AStartThatFailsAfterTheQuotaWasReservedKeepsTheFileForItsRetry) {
  // The queue refuses the job after its quota was reserved (Abandon gives it back; the fakes do
  // not model that part).
  faults_.fail_at = 1;
  http::HttpResponse failed = Start();
  ASSERT_EQ(failed.status, 503) << failed.body;
  EXPECT_TRUE(Kept()) << "the retry of Start needs the previewed file";

  faults_.fail_at = 0;
  http::HttpResponse started = Start();
  ASSERT_EQ(started.status, 202) << started.body;
  EXPECT_EQ(nlohmann::json::parse(started.body)["filename"], "mugs.csv");
  EXPECT_FALSE(Kept()) << "a Start that made a job uses the file up";

  http::HttpResponse again = Start();
  EXPECT_EQ(again.status, 400);
  EXPECT_NE(again.body.find("upload_id: the previewed file is no longer kept (it is kept 15 "
                            "minutes); choose the file again"),
            std::string::npos)
      << again.body;
}

TEST_F(KeptUploadTest, AStartRefusedOverTheQuotaLeavesTheFileKept) {
  principal_.account.plan = Plan::kFree;
  testing::InMemoryQuotaService small(QuotaPolicy{1, 1, 1, 1});  // one row a month
  JobsApi api(store_, queue_, small, clock_, JobsOptions{});
  http::HttpRequest r;
  r.method = "POST";
  r.path = "/v1/jobs";
  r.query = {{"upload_id", kUploadId}, {"check_types", "product"}};
  http::HttpResponse refused = api.Create(r, principal_);
  ASSERT_EQ(refused.status, 429) << refused.body;
  EXPECT_TRUE(Kept());
}

}  // namespace
}  // namespace dq::gateway
