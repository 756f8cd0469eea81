// The scheduled sweep's round (issue 34): only the holder of the lease sweeps, a lease that
// cannot be taken sweeps nothing, and a round deletes orphans and never a committed object.
#include "jobs/orphan_sweeper.h"

#include <gtest/gtest.h>

#include "dq/testing/fake_clock.h"
#include "dq/testing/in_memory_artifact_store.h"

namespace dq::gateway {
namespace {

class FakeLease final : public SweepLease {
 public:
  Result<bool> TryTake(std::chrono::milliseconds ttl) override {
    ttls.push_back(ttl);
    if (down) return Status(ErrorCode::kUnavailable, "lease down");
    if (held) return false;
    held = true;
    return true;
  }
  bool held = false;
  bool down = false;
  std::vector<std::chrono::milliseconds> ttls;
};

class OrphanSweeperTest : public ::testing::Test {
 protected:
  OrphanSweeperTest() {
    live_.account_id = "acct_1";
    live_.id = "live";
    live_.attempts = 2;
    live_.claim_id = "c2";
    live_.output_attempt = "a2-c2";
    store_.set_now(1000);
    for (const char* key : {"jobs/acct_1/live/upload/file/000000.zst",
                            "jobs/acct_1/live/a2-c2/issues/000001.zst",
                            "jobs/acct_1/live/a1-c1/issues/000001.zst",  // the killed attempt
                            "jobs/acct_1/expired/upload/file/000000.zst"}) {
      EXPECT_TRUE(store_.Put(key, "x").ok());
    }
  }
  OrphanSweeper Sweeper() {
    return OrphanSweeper(
        store_,
        [this](const std::string&, const std::string& id) {
          if (id == live_.id) return Result<std::optional<Job>>(std::optional<Job>(live_));
          return Result<std::optional<Job>>(std::optional<Job>());
        },
        lease_, clock_, SweepOptions{std::chrono::seconds(100), std::chrono::seconds(60)},
        metrics_);
  }
  std::vector<std::string> Left() {
    std::vector<std::string> keys;
    for (const auto& [key, bytes] : store_.objects()) keys.push_back(key);
    return keys;
  }

  Job live_;
  testing::InMemoryArtifactStore store_;
  testing::FakeClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(2000))};
  FakeLease lease_;
  Metrics registry_;  // the sweeper's own, so that a test reads only its counts
  SweepMetrics metrics_{registry_};
};

TEST_F(OrphanSweeperTest, TheLeaseHolderDeletesOrphansAndKeepsCommittedObjects) {
  OrphanSweeper sweeper = Sweeper();
  auto round = sweeper.RunOnce();
  ASSERT_TRUE(round.ok()) << round.status().message();
  ASSERT_TRUE(round->has_value());
  EXPECT_EQ((*round)->objects_deleted, 2);
  EXPECT_EQ(Left(), (std::vector<std::string>{"jobs/acct_1/live/a2-c2/issues/000001.zst",
                                              "jobs/acct_1/live/upload/file/000000.zst"}));
  EXPECT_EQ(lease_.ttls, std::vector<std::chrono::milliseconds>{std::chrono::milliseconds(90000)});
  EXPECT_EQ(metrics_.objects_deleted.Get().value(), 2u);
  EXPECT_EQ(metrics_.errors.Get().value(), 0u);
}

TEST_F(OrphanSweeperTest, AnotherHoldersLeaseMeansNoSweep) {
  lease_.held = true;
  OrphanSweeper sweeper = Sweeper();
  auto round = sweeper.RunOnce();
  ASSERT_TRUE(round.ok());
  EXPECT_FALSE(round->has_value());
  EXPECT_EQ(Left().size(), 4u);
  // The errors counter is shown from the first round on; nothing was deleted, so no deletions.
  EXPECT_EQ(registry_.Render(),
            "# HELP dq_artifact_sweep_errors_total Sweeps of orphaned job objects that stopped on "
            "an error\n"
            "# TYPE dq_artifact_sweep_errors_total counter\n"
            "dq_artifact_sweep_errors_total 0\n");
}

TEST_F(OrphanSweeperTest, ALeaseThatCannotBeTakenSweepsNothing) {
  lease_.down = true;
  OrphanSweeper sweeper = Sweeper();
  EXPECT_EQ(sweeper.RunOnce().status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(Left().size(), 4u);
  EXPECT_EQ(metrics_.errors.Get().value(), 1u);
}

// The struct registers exactly the sweeper's two series, with the names and help of /metrics.
TEST(SweepMetricsTest, DeclaresTheSweepersSeries) {
  Metrics registry;
  SweepMetrics metrics(registry);
  EXPECT_EQ(registry.Render(), "");  // nothing before its first use
  metrics.errors.Inc();
  metrics.objects_deleted.Inc(3);
  EXPECT_EQ(registry.Render(),
            "# HELP dq_artifact_sweep_errors_total Sweeps of orphaned job objects that stopped on "
            "an error\n"
            "# TYPE dq_artifact_sweep_errors_total counter\n"
            "dq_artifact_sweep_errors_total 1\n"
            "# HELP dq_artifact_sweep_objects_deleted_total Orphaned job objects deleted by the "
            "sweep\n"
            "# TYPE dq_artifact_sweep_objects_deleted_total counter\n"
            "dq_artifact_sweep_objects_deleted_total 3\n");
}

TEST_F(OrphanSweeperTest, ObjectsYoungerThanTheGraceStay) {
  clock_.Advance(std::chrono::seconds(-970));  // now 1030: every object is 30 s old
  OrphanSweeper sweeper = Sweeper();
  auto round = sweeper.RunOnce();
  ASSERT_TRUE(round.ok());
  EXPECT_EQ((*round)->objects_deleted, 0);
  EXPECT_EQ(Left().size(), 4u);
}

}  // namespace
}  // namespace dq::gateway
