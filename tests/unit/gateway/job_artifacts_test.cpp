// A job's files in the artifact store (jobs/job_artifacts.h): how issues are cut into pages,
// the page format, reading across pages and the records still in Redis, and the orphan sweep,
// all over the fake store.
#include "jobs/job_artifacts.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "dq/testing/in_memory_artifact_store.h"

namespace dq::gateway {
namespace {

std::vector<std::string> Records(int from, int n) {
  std::vector<std::string> out;
  for (int i = from; i < from + n; ++i) out.push_back("{\"id\":" + std::to_string(i) + "}");
  return out;
}

TEST(JobArtifactsTest, PagesAreCutFromTheFrontAndTheEndTakesTheRest) {
  struct Case {
    size_t tail, fresh;
    bool end;
    int64_t pages;
    size_t paged;
    bool replace;
  };
  const Case cases[] = {
      {0, 999, false, 0, 0, false},       // not a page yet: appended
      {999, 1, false, 1, 1000, true},     // the tail fills a page
      {300, 2500, false, 2, 2000, true},  // two pages, 800 left
      {300, 2500, true, 3, 2800, true},   // the end: the last page is short
      {0, 0, true, 0, 0, false},          // a job without issues
      {0, 2000, true, 2, 2000, true},     // the end on a page boundary
  };
  for (const auto& c : cases) {
    const PageCut cut = CutPages(c.tail, c.fresh, c.end);
    EXPECT_EQ(cut.pages, c.pages) << c.tail << "+" << c.fresh;
    EXPECT_EQ(cut.paged_records, c.paged) << c.tail << "+" << c.fresh;
    EXPECT_EQ(cut.replace_tail, c.replace) << c.tail << "+" << c.fresh;
  }
}

TEST(JobArtifactsTest, RunAllRunsEveryTaskOnceSeveralAtATime) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<int> runs(12, 0);
  int running = 0, most = 0;
  bool first_waits = true, one_waited = false;
  std::vector<std::function<Status()>> tasks;
  for (size_t i = 0; i < runs.size(); ++i) {
    tasks.push_back([&, i] {
      std::unique_lock lock(mu);
      ++runs[i];
      most = std::max(most, ++running);
      cv.notify_all();
      // The first task to start waits, as a put waits on an fsync, until another runs beside
      // it: on several threads that comes at once; run one after another, it never would. Not
      // task 0 by index: its thread can take it and be descheduled while the others run every
      // other task one by one under the lock (they never overlap each other), and task 0 then
      // waited alone (failed once under load).
      if (first_waits && !one_waited) {
        one_waited = true;
        cv.wait_for(lock, std::chrono::seconds(30), [&] { return most > 1; });
      }
      --running;
      return Status::Ok();
    });
  }
  ASSERT_TRUE(RunAll(tasks, 4).ok());
  EXPECT_EQ(runs, std::vector<int>(12, 1));
  EXPECT_GT(most, 1) << "the tasks never overlapped";
  EXPECT_LE(most, 4);
  most = 0;
  first_waits = false;
  runs.assign(12, 0);
  ASSERT_TRUE(RunAll(tasks, 1).ok());
  EXPECT_EQ(runs, std::vector<int>(12, 1));
  EXPECT_EQ(most, 1);
  EXPECT_TRUE(RunAll({}, 4).ok());
}

TEST(JobArtifactsTest, RunAllStopsStartingTasksAfterTheFirstErrorAndReturnsIt) {
  std::atomic<int> ran{0};
  std::vector<std::function<Status()>> tasks;
  for (int i = 0; i < 200; ++i) {
    tasks.push_back([&ran, i] {
      ++ran;
      return i == 3 ? Status(ErrorCode::kUnavailable, "no disk for page 3") : Status::Ok();
    });
  }
  Status s = RunAll(tasks, 4);
  EXPECT_EQ(s.code(), ErrorCode::kUnavailable);
  EXPECT_EQ(s.message(), "no disk for page 3");
  // How many of the others start before the failure is seen depends on the scheduler (the
  // thread running task 3 may be descheduled while the rest run); on one thread it is exact.
  ran = 0;
  s = RunAll(tasks, 1);
  EXPECT_EQ(s.message(), "no disk for page 3");
  EXPECT_EQ(ran.load(), 4);
}

TEST(JobArtifactsTest, APageIsOneFrameOfLinesAndDamageIsAnError) {
  const auto records = Records(0, 1000);
  const std::string page = EncodeIssuePage(records, 10, 5);
  EXPECT_EQ(page.substr(0, 4), "\x28\xb5\x2f\xfd");  // a zstd frame
  auto back = DecodeIssuePage(page);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, Records(10, 5));
  auto damaged = DecodeIssuePage(page.substr(0, page.size() - 3));
  EXPECT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.status().code(), ErrorCode::kInternal);
}

class ReadIssuesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    job_.account_id = "acct_1";
    job_.id = "job-1";
    job_.attempts = 2;
    job_.output_attempt = AttemptName(job_);
    const auto all = Records(0, 2345);
    // Two whole pages committed, 345 records still in Redis.
    for (int p = 0; p < 2; ++p) {
      ASSERT_TRUE(store_.Put(*IssuePageKey(job_, job_.output_attempt, p + 1),
                             EncodeIssuePage(all, static_cast<size_t>(p) * 1000, 1000))
                      .ok());
    }
    job_.issue_pages = 2;
    tail_ = Records(2000, 345);
  }
  std::vector<std::string> Read(int64_t offset, int64_t count) {
    auto got = ReadIssues(store_, job_, offset, count, [&](int64_t off, int64_t n) {
      ++tail_reads_;
      std::vector<std::string> out;
      for (int64_t i = off; i < static_cast<int64_t>(tail_.size()) && (n < 0 || i < off + n); ++i) {
        out.push_back(tail_[static_cast<size_t>(i)]);
      }
      return Result<std::vector<std::string>>(out);
    });
    EXPECT_TRUE(got.ok()) << got.status().message();
    return got.ok() ? *got : std::vector<std::string>{};
  }
  testing::InMemoryArtifactStore store_;
  Job job_;
  std::vector<std::string> tail_;
  int tail_reads_ = 0;
};

TEST_F(ReadIssuesTest, AnAlignedPageIsOneObjectAndNoRedisRead) {
  EXPECT_EQ(Read(1000, 1000), Records(1000, 1000));
  EXPECT_EQ(tail_reads_, 0);
}

TEST_F(ReadIssuesTest, ReadsSpanPagesAndTheRecordsInRedis) {
  EXPECT_EQ(Read(0, 10), Records(0, 10));
  EXPECT_EQ(Read(990, 20), Records(990, 20));
  EXPECT_EQ(Read(1990, 30), Records(1990, 30));
  EXPECT_EQ(Read(2100, 1000), Records(2100, 245));
  EXPECT_EQ(Read(0, -1), Records(0, 2345));
  EXPECT_EQ(Read(5000, 10), std::vector<std::string>{});
}

TEST_F(ReadIssuesTest, AFinishedJobsShortLastPageEndsTheList) {
  ASSERT_TRUE(store_.Put(*IssuePageKey(job_, job_.output_attempt, 3),
                         EncodeIssuePage(tail_, 0, tail_.size()))
                  .ok());
  job_.issue_pages = 3;
  tail_.clear();
  EXPECT_EQ(Read(1500, 1000), Records(1500, 845));
  EXPECT_EQ(Read(2300, 1000), Records(2300, 45));
  EXPECT_EQ(tail_reads_, 0);
}

TEST_F(ReadIssuesTest, AMissingPageIsNotFound) {
  job_.output_attempt = "a9";  // pages of an attempt that wrote none
  auto got = ReadIssues(store_, job_, 0, 10,
                        [](int64_t, int64_t) { return Result<std::vector<std::string>>(std::vector<std::string>{}); });
  EXPECT_EQ(got.status().code(), ErrorCode::kNotFound);
}

TEST(SweepTest, OrphansGoWhatIsNamedOrYoungStays) {
  testing::InMemoryArtifactStore store;
  store.set_now(1000);
  auto put = [&](const char* key) { ASSERT_TRUE(store.Put(key, "x").ok()); };
  put("jobs/acct_1/live/upload/file/000000.zst");
  put("jobs/acct_1/live/a1/issues/000001.zst");  // an attempt fenced out
  put("jobs/acct_1/live/a2/issues/000001.zst");  // the committed one
  put("jobs/acct_1/live/a3-c3/issues/000001.zst");  // the one running now (claim c3)
  put("jobs/acct_1/gone/upload/file/000000.zst");
  put("jobs/acct_1/gone/a1/issues/000001.zst");
  put("other/not-a-job");
  store.set_now(1900);
  put("jobs/acct_2/young/upload/file/000000.zst");  // an upload still being stored
  Job live;
  live.account_id = "acct_1";
  live.id = "live";
  live.attempts = 3;
  live.claim_id = "c3";
  live.output_attempt = "a2";
  std::vector<std::string> looked_up;
  auto lookup = [&](const std::string& account, const std::string& id) {
    looked_up.push_back(account + "/" + id);
    if (id == "live") return Result<std::optional<Job>>(std::optional<Job>(live));
    return Result<std::optional<Job>>(std::optional<Job>());
  };
  auto stats = SweepOrphans(store, lookup, /*now=*/2000, /*grace=*/600);
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  EXPECT_EQ(looked_up, (std::vector<std::string>{"acct_1/gone", "acct_1/live", "acct_2/young"}));
  EXPECT_EQ(stats->jobs_seen, 3);
  EXPECT_EQ(stats->prefixes_deleted, 3);  // gone/upload, gone/a1, live/a1
  EXPECT_EQ(stats->objects_deleted, 3);
  std::vector<std::string> left;
  for (const auto& [key, bytes] : store.objects()) left.push_back(key);
  EXPECT_EQ(left, (std::vector<std::string>{"jobs/acct_1/live/a2/issues/000001.zst",
                                            "jobs/acct_1/live/a3-c3/issues/000001.zst",
                                            "jobs/acct_1/live/upload/file/000000.zst",
                                            "jobs/acct_2/young/upload/file/000000.zst",
                                            "other/not-a-job"}));
  // Later, the young upload's job never appeared: it goes too.
  auto later = SweepOrphans(store, lookup, 3000, 600);
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->objects_deleted, 1);
}

TEST(SweepTest, AStoreOrLookupFailureStopsTheSweepWithIt) {
  testing::InMemoryArtifactStore store;
  store.set_now(1);
  ASSERT_TRUE(store.Put("jobs/a/j/upload/file/000000.zst", "x").ok());
  auto failing = [](const std::string&, const std::string&) {
    return Result<std::optional<Job>>(Status(ErrorCode::kUnavailable, "redis down"));
  };
  auto s = SweepOrphans(store, failing, 10'000, 60);
  EXPECT_EQ(s.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(store.objects().size(), 1u);  // nothing deleted on a guess
}

}  // namespace
}  // namespace dq::gateway
