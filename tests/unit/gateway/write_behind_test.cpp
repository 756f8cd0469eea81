// WriteBehind against the in-memory store: order, the depth bound, the first failure stopping the
// rest, fencing. Threads are synchronised with latches held in the store's on_write hook, never
// with sleeps.
#include "jobs/write_behind.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "dq/testing/gate.h"
#include "dq/testing/job_fakes.h"

namespace dq::gateway {
namespace {

using testing::FaultPlan;
using testing::Gate;
using testing::InMemoryJobStore;

struct Fixture {
  explicit Fixture(FaultPlan* plan = nullptr) : store(plan) {
    job.id = "2b6f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
    job.account_id = "acct_1";
    job.status = "queued";
    job.rows_total = 100;
    job.quota_month = "202611";
    job.file_chunks = 1;
    const int saved = plan ? plan->fail_at : 0;
    if (plan) plan->fail_at = 0;
    EXPECT_TRUE(store.Create(job, {"sku\n1\n"}).ok());
    EXPECT_TRUE(store.Accept(job).ok());
    auto claim = store.ClaimJob(job.account_id, job.id, "2026-11-23T00:00:00.000Z");
    EXPECT_TRUE(claim.ok() && claim->kind == ClaimKind::kRun);
    job = claim->job;
    if (plan) {
      plan->fail_at = saved;
      plan->steps = 0;
      plan->log.clear();
    }
  }
  static JobWrite Write(int n) {
    JobWrite w;
    w.issues = {"{\"id\":" + std::to_string(n) + "}"};
    w.cleaned = "piece " + std::to_string(n) + "\n";
    w.rows_done = n * 10;
    w.issues_stored = n;
    w.issues_found = n;
    return w;
  }
  std::vector<std::string> Issues() { return *store.Issues(*store.job(job.id), 0, -1); }

  InMemoryJobStore store;
  Job job;
};

TEST(WriteBehindTest, WritesAreStoredInTheOrderSubmitted) {
  for (size_t depth : {0u, 1u, 2u, 5u}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    Fixture f;
    {
      WriteBehind writes(f.store, f.job, depth);
      for (int n = 1; n <= 8; ++n) ASSERT_TRUE(writes.Submit(Fixture::Write(n)).ok());
      ASSERT_TRUE(writes.Drain().ok());
      // Drained: everything is stored before the destructor runs.
      EXPECT_EQ(f.store.job(f.job.id)->rows_done, 80);
    }
    std::vector<std::string> expected;
    for (int n = 1; n <= 8; ++n) expected.push_back("{\"id\":" + std::to_string(n) + "}");
    EXPECT_EQ(f.Issues(), expected);
    std::string cleaned;
    for (int64_t i = 0;; ++i) {
      auto piece = f.store.CleanedPiece(*f.store.job(f.job.id), i);
      if (!piece->has_value()) break;
      cleaned += **piece;
    }
    EXPECT_EQ(cleaned, "piece 1\npiece 2\npiece 3\npiece 4\npiece 5\npiece 6\npiece 7\npiece 8\n");
  }
}

// Submit returns while the store still holds the first write, and blocks only once `depth`
// writes are pending: the caller goes on working while Redis takes a write.
TEST(WriteBehindTest, SubmitReturnsWhileAWriteIsUnderWayUpToTheDepth) {
  Fixture f;
  Gate gate;
  f.store.on_write = [&](const JobWrite& w) {
    if (w.rows_done == 10) gate.Arrive();
  };
  WriteBehind writes(f.store, f.job, 2);
  ASSERT_TRUE(writes.Submit(Fixture::Write(1)).ok());
  ASSERT_TRUE(gate.WaitForArrivals(1));
  // Write 1 is held in the store; write 2 fits in the depth.
  ASSERT_TRUE(writes.Submit(Fixture::Write(2)).ok());
  EXPECT_EQ(f.store.job(f.job.id)->rows_done, 0);
  EXPECT_TRUE(f.Issues().empty());
  // Write 3 would be a third pending write: Submit waits for room, on another thread.
  std::mutex mu;
  bool third_returned = false;
  std::thread third([&] {
    EXPECT_TRUE(writes.Submit(Fixture::Write(3)).ok());
    std::lock_guard lock(mu);
    third_returned = true;
  });
  {
    std::lock_guard lock(mu);
    EXPECT_FALSE(third_returned);  // write 1 is still held, so there is no room yet
  }
  gate.Open();
  third.join();
  ASSERT_TRUE(writes.Drain().ok());
  EXPECT_EQ(f.store.job(f.job.id)->rows_done, 30);
  EXPECT_EQ(f.Issues().size(), 3u);
}

// The second write fails: nothing after it is stored, and Submit and Drain report its error.
TEST(WriteBehindTest, TheFirstFailureStopsTheRestAndIsReported) {
  for (size_t depth : {0u, 1u, 2u}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    FaultPlan plan;
    plan.fail_at = 2;
    Fixture f(&plan);
    WriteBehind writes(f.store, f.job, depth);
    Status first_error = Status::Ok();
    for (int n = 1; n <= 6 && first_error.ok(); ++n) first_error = writes.Submit(Fixture::Write(n));
    Status drained = writes.Drain();
    ASSERT_FALSE(drained.ok());
    EXPECT_EQ(drained.code(), ErrorCode::kUnavailable);
    EXPECT_EQ(writes.Submit(Fixture::Write(7)).code(), ErrorCode::kUnavailable);
    EXPECT_EQ(f.Issues(), std::vector<std::string>{"{\"id\":1}"});
    EXPECT_EQ(f.store.job(f.job.id)->rows_done, 10);
    EXPECT_EQ(std::count(plan.log.begin(), plan.log.end(), "store.write"), 2);
  }
}

// A newer claim fences this attempt out: its writes stop with kAborted and write nothing.
TEST(WriteBehindTest, AFencedOutAttemptWritesNothingMore) {
  Fixture f;
  WriteBehind writes(f.store, f.job, 2);
  ASSERT_TRUE(writes.Submit(Fixture::Write(1)).ok());
  ASSERT_TRUE(writes.Drain().ok());
  auto newer = f.store.ClaimJob(f.job.account_id, f.job.id, "2026-11-23T00:00:01.000Z");
  ASSERT_TRUE(newer.ok() && newer->kind == ClaimKind::kRun);
  Status s = writes.Submit(Fixture::Write(2));
  if (s.ok()) s = writes.Drain();
  EXPECT_EQ(s.code(), ErrorCode::kAborted);
  EXPECT_TRUE(f.Issues().empty());  // the newer claim dropped write 1; write 2 never landed
  EXPECT_EQ(f.store.job(f.job.id)->rows_done, 0);
}

// The destructor drops what is queued behind the write under way, and waits for that one.
TEST(WriteBehindTest, DestroyingDropsQueuedWritesAndWaitsForTheOneUnderWay) {
  Fixture f;
  Gate gate;
  f.store.on_write = [&](const JobWrite& w) {
    if (w.rows_done == 10) gate.Arrive();
  };
  auto writes = std::make_unique<WriteBehind>(f.store, f.job, 3);
  ASSERT_TRUE(writes->Submit(Fixture::Write(1)).ok());
  ASSERT_TRUE(gate.WaitForArrivals(1));
  ASSERT_TRUE(writes->Submit(Fixture::Write(2)).ok());
  ASSERT_TRUE(writes->Submit(Fixture::Write(3)).ok());
  std::thread destroy([&] { writes.reset(); });
  // The destructor cannot return while write 1 is held; open the gate so it can.
  gate.Open();
  destroy.join();
  // Write 1 was under way and landed whole; 2 and 3 were dropped, or landed in order if the
  // writer took them before the destructor ran: never a gap.
  const auto issues = f.Issues();
  ASSERT_GE(issues.size(), 1u);
  for (size_t i = 0; i < issues.size(); ++i) {
    EXPECT_EQ(issues[i], "{\"id\":" + std::to_string(i + 1) + "}");
  }
  EXPECT_EQ(f.store.job(f.job.id)->rows_done, static_cast<int64_t>(issues.size()) * 10);
}

}  // namespace
}  // namespace dq::gateway
