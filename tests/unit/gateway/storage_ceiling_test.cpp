// Storage ceilings per plan (issue 34, point 4): the plan's ceiling, capped by
// DQ_ACCOUNT_MAX_STORED_BYTES, and the message of the 429, in MB with what the user can do.
#include <gtest/gtest.h>

#include "jobs/redis_job_store.h"

namespace dq::gateway {
namespace {

TEST(StorageCeilingTest, EachPlanHasItsCeilingCappedByTheAccountMaximum) {
  StoreLimits l;
  l.free_bytes = 50 << 20;
  l.pro_bytes = 2000;
  l.business_bytes = 3000;
  l.agency_bytes = 0;  // none
  EXPECT_EQ(l.CeilingOf("free"), 50 << 20);
  EXPECT_EQ(l.CeilingOf("pro"), 2000);
  EXPECT_EQ(l.CeilingOf("business"), 3000);
  EXPECT_EQ(l.CeilingOf("agency"), 0);
  EXPECT_EQ(l.CeilingOf("platinum"), 50 << 20);  // unknown: the free plan's
  EXPECT_EQ(l.CeilingOf(""), 50 << 20);
  l.max_account_bytes = 2500;
  EXPECT_EQ(l.CeilingOf("pro"), 2000);
  EXPECT_EQ(l.CeilingOf("business"), 2500);
  EXPECT_EQ(l.CeilingOf("agency"), 2500);  // a cap applies to "no ceiling" too
}

TEST(StorageCeilingTest, MegabytesRoundToATenth) {
  EXPECT_EQ(Megabytes(0), "0.0 MB");
  EXPECT_EQ(Megabytes(50 << 20), "50.0 MB");
  EXPECT_EQ(Megabytes((50 << 20) - 1), "50.0 MB");
  EXPECT_EQ(Megabytes(1572864), "1.5 MB");
  EXPECT_EQ(Megabytes(52000), "0.0 MB");
  EXPECT_EQ(Megabytes(53000), "0.1 MB");
  EXPECT_EQ(Megabytes(int64_t{2} << 30), "2048.0 MB");
}

TEST(StorageCeilingTest, TheMessageSaysTheCeilingInMbAndWhatToDo) {
  Status s = StorageCeilingStatus(48 << 20, 5 << 20, 50 << 20, "free");
  EXPECT_EQ(s.code(), ErrorCode::kStorageLimitExceeded);
  EXPECT_EQ(s.message(),
            "This account stores 48.0 MB of job data, and this upload (5.0 MB) would pass the "
            "free plan's storage ceiling of 50.0 MB. Delete jobs you no longer need (DELETE "
            "/v1/jobs/{id}), wait until old jobs expire, or move to a plan with more storage.");
}

}  // namespace
}  // namespace dq::gateway
