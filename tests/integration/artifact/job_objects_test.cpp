// RedisJobStore with an artifact store (the fs store in a temporary directory) against a real
// redis-server: the upload's pieces, the issue pages, the fixes and a workbook are objects, each
// committed in the job's hash by the fenced script of its batch; jobs stored the old way (all in
// Redis) still read; a fenced-out attempt's objects are never read; delete and the sweep leave
// no orphan; and a 100,000-issue job leaves at most 64 KB in Redis.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "dq/artifact/fs_artifact_store.h"
#include "dq/common/redis_client.h"
#include "dq/testing/harness.h"
#include "jobs/job_artifacts.h"
#include "jobs/redis_job_store.h"

namespace dq::testing {
namespace {

using gateway::Job;
using gateway::JobStatus;
using gateway::JobEnd;
using gateway::JobPartKey;
using gateway::JobWrite;

std::string Csv(int first, int rows) {
  std::string csv;
  for (int r = first; r < first + rows; ++r) {
    csv += "SKU-" + std::to_string(r) + ",Blue mug no. " + std::to_string(r % 97) + "," +
           std::to_string(r % 500) + ".99,EUR\n";
  }
  return csv;
}

// An issue record about as large as a real one (~230 bytes).
std::string Issue(int64_t i) {
  return "{\"id\":" + std::to_string(i) + ",\"issue_row\":" + std::to_string(i + 2) +
         ",\"severity\":\"error\",\"field\":\"price\",\"code\":\"price_not_positive\","
         "\"message\":\"The price must be greater than zero.\",\"original_value\":\"-" +
         std::to_string(i % 1000) + ".00\",\"fixed_value\":null,\"sku\":\"SKU-" +
         std::to_string(i) + "\"}";
}

class JobObjectsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new RedisServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    char tmpl[] = "/tmp/dq-job-objects-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    auto fs = artifact::FsArtifactStore::Open(dir_ + "/store");
    ASSERT_TRUE(fs.ok()) << fs.status().message();
    objects_ = std::move(*fs);
    RedisOptions o;
    o.port = server_->port();
    redis_ = std::make_unique<RedisClient>(o);
    store_ = std::make_unique<gateway::RedisJobStore>(*redis_, gateway::StoreLimits{},
                                                      objects_.get());
    old_store_ = std::make_unique<gateway::RedisJobStore>(*redis_, gateway::StoreLimits{});
    job_.id = "7e3c1f0e-4b5a-4c6d-8e7f-" + std::to_string(100000000000 + next_id_++);
    job_.account_id = "acct_objects";
    job_.status = JobStatus::kQueued;
    job_.check_types = CheckTypeList::FromText("product");
    job_.quota_month = "202611";
    job_.created_at = "2026-11-23T10:00:00.000Z";
    job_.created_ms = 1795428000000;
    pieces_ = {Csv(0, 12000), Csv(12000, 12000), Csv(24000, 10)};
    job_.file_pieces = static_cast<int64_t>(pieces_.size());
    for (const auto& p : pieces_) job_.file_bytes += static_cast<int64_t>(p.size());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Status CreateJob(gateway::RedisJobStore& store) {
    std::vector<std::string_view> views(pieces_.begin(), pieces_.end());
    gateway::UploadPieces upload(views, /*helpers=*/1);
    return store.Create(job_, upload);
  }
  Job Claim(gateway::RedisJobStore& store) {
    EXPECT_TRUE(store.Accept(job_).ok());
    auto c = store.ClaimJob(job_.account_id, job_.id, "2026-11-23T10:00:01.000Z");
    EXPECT_TRUE(c.ok() && c->kind == gateway::ClaimKind::kRun);
    return c.ok() ? c->job : Job{};
  }
  Job Stored() {
    auto j = store_->Get(job_.account_id, job_.id);
    EXPECT_TRUE(j.ok() && j->has_value());
    return j.ok() && j->has_value() ? **j : Job{};
  }
  std::vector<std::string> Keys() {
    std::vector<std::string> keys;
    auto all = objects_->ListAll("");
    EXPECT_TRUE(all.ok());
    for (const auto& o : *all) keys.push_back(o.key);
    return keys;
  }
  int64_t ListLength(const std::string& part) {
    auto r = redis_->Command({"LLEN", JobPartKey(job_.account_id, job_.id, part)});
    return r.ok() ? r->integer : -1;
  }
  // Redis's own count of the memory each of the job's keys takes.
  int64_t RedisBytes() {
    int64_t total = 0;
    for (const std::string& key :
         {gateway::JobKey(job_.account_id, job_.id), JobPartKey(job_.account_id, job_.id, "file"),
          JobPartKey(job_.account_id, job_.id, "issues"),
          JobPartKey(job_.account_id, job_.id, "fixes"),
          JobPartKey(job_.account_id, job_.id, "cleaned"),
          JobPartKey(job_.account_id, job_.id, "summary")}) {
      auto r = redis_->Command({"MEMORY", "USAGE", key, "SAMPLES", "0"});
      if (r.ok() && !r->is_nil()) total += r->integer;
    }
    return total;
  }
  std::string Prefix() { return "jobs/" + job_.account_id + "/" + job_.id + "/"; }
  // The bytes of the job's objects in the store (what they really take, compressed), those
  // whose key holds `part` ("/issues/", "/upload/"; "" for all).
  int64_t ObjectBytes(const std::string& part = "") {
    int64_t total = 0;
    auto all = objects_->ListAll(Prefix());
    EXPECT_TRUE(all.ok());
    for (const auto& o : *all) total += o.key.find(part) != std::string::npos ? o.size : 0;
    return total;
  }
  // The bytes of the records still in the job's :issues list.
  int64_t ListBytes(const std::string& part) {
    auto r = redis_->Command({"LRANGE", JobPartKey(job_.account_id, job_.id, part), "0", "-1"});
    int64_t total = 0;
    if (r.ok()) {
      for (const auto& e : r->elements) total += static_cast<int64_t>(e.str.size());
    }
    return total;
  }
  // The account's count of the job's bytes (job_bytes), which its storage ceiling holds.
  int64_t Ledger() {
    auto bytes = redis_->Command({"HGET", AccountKey(job_.account_id, "job_bytes"), job_.id});
    EXPECT_TRUE(bytes.ok() && !bytes->is_nil());
    return bytes.ok() && !bytes->is_nil() ? std::stoll(bytes->str) : -1;
  }

  static RedisServer* server_;
  static int next_id_;
  std::string dir_;
  std::unique_ptr<artifact::FsArtifactStore> objects_;
  std::unique_ptr<RedisClient> redis_;
  std::unique_ptr<gateway::RedisJobStore> store_;
  std::unique_ptr<gateway::RedisJobStore> old_store_;
  Job job_;
  std::vector<std::string> pieces_;
};
RedisServer* JobObjectsTest::server_ = nullptr;
int JobObjectsTest::next_id_ = 0;

TEST_F(JobObjectsTest, TheUploadsPiecesAreObjectsReadBackByteForByte) {
  ASSERT_TRUE(CreateJob(*store_).ok());
  EXPECT_EQ(ListLength("file"), 0);
  EXPECT_EQ(Keys(), (std::vector<std::string>{Prefix() + "upload/file/000000.zst",
                                              Prefix() + "upload/file/000001.zst",
                                              Prefix() + "upload/file/000002.zst"}));
  const Job claimed = Claim(*store_);
  EXPECT_EQ(claimed.file_store, gateway::kFileInStore);
  for (int i = 0; i < 3; ++i) {
    auto piece = store_->FilePiece(claimed, i);
    ASSERT_TRUE(piece.ok()) << piece.status().message();
    EXPECT_TRUE(*piece == pieces_[static_cast<size_t>(i)]) << i;
  }
}

TEST_F(JobObjectsTest, IssuesGoIntoPagesCommittedWithTheirBatch) {
  ASSERT_TRUE(CreateJob(*store_).ok());
  const Job claimed = Claim(*store_);
  std::vector<std::string> all;
  int64_t n = 0;
  for (int batch = 0; batch < 3; ++batch) {
    JobWrite w;
    for (int i = 0; i < 800; ++i) w.issues.push_back(Issue(n++));
    all.insert(all.end(), w.issues.begin(), w.issues.end());
    w.issues_stored = w.issues_found = n;
    ASSERT_TRUE(store_->Write(claimed, w).ok());
    const Job now = Stored();
    EXPECT_EQ(now.issue_pages, n / 1000) << "after " << n;
    EXPECT_EQ(ListLength("issues"), n % 1000) << "after " << n;
    EXPECT_EQ(now.output_attempt, "a1-" + claimed.claim_id);  // the claim's own name
    // Counted as really stored: the pages compressed, the records still in the list raw.
    EXPECT_EQ(Ledger(), ObjectBytes() + ListBytes("issues")) << "after " << n;
  }
  // Readers see every stored issue while the job runs: pages, then the list.
  auto running = store_->Issues(Stored(), 0, -1);
  ASSERT_TRUE(running.ok());
  EXPECT_EQ(*running, all);
  JobWrite last;
  for (int i = 0; i < 150; ++i) last.issues.push_back(Issue(n++));
  all.insert(all.end(), last.issues.begin(), last.issues.end());
  last.issues_stored = last.issues_found = n;
  Job done = claimed;
  done.status = JobStatus::kDone;
  done.cleaned_from = gateway::kCleanedFromFixes;
  ASSERT_TRUE(store_->Finish(done, last, JobEnd{JobStatus::kDone, "", "2026-11-23T10:01:00.000Z", 0}).ok());
  const Job finished = Stored();
  EXPECT_EQ(finished.issue_pages, 3);  // 2,550: two whole pages and one of 550
  EXPECT_EQ(ListLength("issues"), 0);
  auto page = store_->Issues(finished, 1000, 1000);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(*page, std::vector<std::string>(all.begin() + 1000, all.begin() + 2000));
  auto end = store_->Issues(finished, 2500, 1000);
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, std::vector<std::string>(all.begin() + 2500, all.end()));
  // The account's bytes count every issue once, wherever it is kept, as its page really takes
  // (compressed), and the upload as its objects take, not at its size.
  int64_t issue_bytes = 0;
  for (const auto& r : all) issue_bytes += static_cast<int64_t>(r.size());
  const int64_t page_bytes = ObjectBytes("/issues/");
  EXPECT_LT(page_bytes, issue_bytes / 4);  // similar JSON records: zstd takes most of them
  int64_t upload_bytes = 0;
  auto uploads = objects_->ListAll("jobs/" + job_.account_id + "/" + job_.id + "/upload/");
  ASSERT_TRUE(uploads.ok());
  for (const auto& o : *uploads) upload_bytes += o.size;
  ASSERT_EQ(uploads->size(), pieces_.size());
  EXPECT_LT(upload_bytes, job_.file_bytes / 3);  // repetitive CSV: zstd takes most of it
  EXPECT_EQ(finished.file_stored_bytes, upload_bytes);
  EXPECT_EQ(Ledger(), upload_bytes + page_bytes);
}

TEST_F(JobObjectsTest, FixesAndAWorkbookAreObjects) {
  ASSERT_TRUE(CreateJob(*store_).ok());
  const Job claimed = Claim(*store_);
  JobWrite w1, w2;
  w1.fixes = std::string(5000, '\x01');
  w2.fixes = "second piece";
  ASSERT_TRUE(store_->Write(claimed, w1).ok());
  ASSERT_TRUE(store_->Write(claimed, w2).ok());
  EXPECT_EQ(ListLength("fixes"), 0);
  // The fixes count as their pieces really take (compressed), like the upload.
  const int64_t upload_bytes = ObjectBytes("/upload/");
  const int64_t fix_bytes = ObjectBytes("/fixes/");
  EXPECT_LT(fix_bytes, static_cast<int64_t>(w1.fixes.size()));
  EXPECT_EQ(Ledger(), upload_bytes + fix_bytes);
  const Job now = Stored();
  EXPECT_EQ(now.fix_pieces, 2);
  EXPECT_EQ(**store_->FixesPiece(now, 0), w1.fixes);
  EXPECT_EQ(**store_->FixesPiece(now, 1), w2.fixes);
  EXPECT_FALSE(store_->FixesPiece(now, 2)->has_value());
  ASSERT_TRUE(store_->WriteCleanedPiece(claimed, "PK workbook part 1").ok());
  ASSERT_TRUE(store_->WriteCleanedPiece(claimed, "part 2").ok());
  const Job with_workbook = Stored();
  EXPECT_EQ(with_workbook.cleaned_pieces, 2);
  EXPECT_EQ(**store_->CleanedPiece(with_workbook, 0), "PK workbook part 1");
  EXPECT_EQ(**store_->CleanedPiece(with_workbook, 1), "part 2");
  EXPECT_FALSE(store_->CleanedPiece(with_workbook, 2)->has_value());
  EXPECT_EQ(Ledger(), ObjectBytes());  // the workbook's pieces too, as stored
  // An XLSX job ends without its upload and fixes: their objects go with them.
  Job done = claimed;
  done.status = JobStatus::kDone;
  ASSERT_TRUE(store_->Finish(done, {}, JobEnd{JobStatus::kDone, "", "2026-11-23T10:01:00.000Z", 0}).ok());
  for (const auto& key : Keys()) {
    EXPECT_EQ(key.find("/upload/"), std::string::npos) << key;
    EXPECT_EQ(key.find("/fixes/"), std::string::npos) << key;
  }
  EXPECT_EQ(**store_->CleanedPiece(Stored(), 1), "part 2");
  EXPECT_EQ(Ledger(), ObjectBytes("/cleaned/"));  // what remains: the workbook, as stored
}

TEST_F(JobObjectsTest, AFencedOutAttemptsObjectsAreNeverRead) {
  ASSERT_TRUE(CreateJob(*store_).ok());
  const Job first = Claim(*store_);
  JobWrite w;
  for (int i = 0; i < 1500; ++i) w.issues.push_back(Issue(i));
  w.issues_stored = 1500;
  ASSERT_TRUE(store_->Write(first, w).ok());
  auto again = store_->ClaimJob(job_.account_id, job_.id, "2026-11-23T10:00:05.000Z");
  ASSERT_TRUE(again.ok() && again->kind == gateway::ClaimKind::kRun);
  // The claim dropped the first attempt's page; its late write is refused, though its page
  // object is written before the script says no: an orphan, never read.
  EXPECT_EQ(store_->Write(first, w).code(), ErrorCode::kAborted);
  JobWrite mine;
  mine.issues = {Issue(42)};
  mine.issues_stored = 1;
  Job done = again->job;
  done.status = JobStatus::kDone;
  done.cleaned_from = gateway::kCleanedFromFixes;
  ASSERT_TRUE(store_->Finish(done, mine, JobEnd{JobStatus::kDone, "", "2026-11-23T10:01:00.000Z", 0}).ok());
  auto issues = store_->Issues(Stored(), 0, -1);
  ASSERT_TRUE(issues.ok());
  EXPECT_EQ(*issues, std::vector<std::string>{Issue(42)});
  // The sweep takes the orphan (an attempt the job does not name).
  auto lookup = [&](const std::string& a, const std::string& id) { return store_->Get(a, id); };
  auto swept = gateway::SweepOrphans(*objects_, lookup, std::time(nullptr) + 10, 0);
  ASSERT_TRUE(swept.ok()) << swept.status().message();
  EXPECT_EQ(swept->objects_deleted, 1);  // a1's page, written again by its refused write
  for (const auto& key : Keys()) EXPECT_EQ(key.find("/a1-"), std::string::npos) << key;
  EXPECT_EQ(*store_->Issues(Stored(), 0, -1), std::vector<std::string>{Issue(42)});
}

TEST_F(JobObjectsTest, AJobStoredTheOldWayStillReads) {
  // Written by a store without the artifact store (as every job before it was)...
  ASSERT_TRUE(CreateJob(*old_store_).ok());
  const Job claimed = Claim(*old_store_);
  JobWrite w;
  for (int i = 0; i < 1200; ++i) w.issues.push_back(Issue(i));
  w.issues_stored = 1200;
  w.fixes = "old fixes";
  Job done = claimed;
  done.status = JobStatus::kDone;
  done.cleaned_from = gateway::kCleanedFromFixes;
  ASSERT_TRUE(old_store_->Finish(done, w, JobEnd{JobStatus::kDone, "", "2026-11-23T10:01:00.000Z", 0}).ok());
  EXPECT_TRUE(Keys().empty());
  // ...and read by one with it.
  const Job stored = Stored();
  EXPECT_EQ(stored.issue_pages, 0);
  EXPECT_EQ(stored.file_store, "");
  auto issues = store_->Issues(stored, 1000, 1000);
  ASSERT_TRUE(issues.ok());
  EXPECT_EQ(*issues, std::vector<std::string>(w.issues.begin() + 1000, w.issues.end()));
  EXPECT_EQ(**store_->FixesPiece(stored, 0), "old fixes");
  for (int i = 0; i < 3; ++i) {
    auto piece = store_->FilePiece(stored, i);
    ASSERT_TRUE(piece.ok());
    EXPECT_TRUE(*piece == pieces_[static_cast<size_t>(i)]);
  }
  // Deleting it works the same.
  EXPECT_TRUE(*store_->Delete(job_.account_id, job_.id));
  EXPECT_EQ(ListLength("issues"), 0);
}

TEST_F(JobObjectsTest, DeleteAndAnAbandonedUploadLeaveNoObject) {
  ASSERT_TRUE(CreateJob(*store_).ok());
  const Job claimed = Claim(*store_);
  JobWrite w;
  for (int i = 0; i < 1000; ++i) w.issues.push_back(Issue(i));
  w.fixes = "f";
  ASSERT_TRUE(store_->Write(claimed, w).ok());
  EXPECT_EQ(Keys().size(), 5u);  // 3 pieces, a page, a fix piece
  EXPECT_TRUE(*store_->Delete(job_.account_id, job_.id));
  EXPECT_TRUE(Keys().empty());
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/store/" + Prefix()));
  // A running attempt's next write finds the job gone.
  EXPECT_EQ(store_->Write(claimed, w).code(), ErrorCode::kNotFound);

  job_.id += "-b";
  ASSERT_TRUE(CreateJob(*store_).ok());
  ASSERT_TRUE(store_->Abandon(job_).ok());
  EXPECT_TRUE(Keys().size() <= 2u);  // at most the refused write's page and fix piece (orphans)
  for (const auto& key : Keys()) EXPECT_EQ(key.find(job_.id), std::string::npos) << key;
}

// Issue 34's goal: a 100,000-issue job keeps at most 64 KB in Redis (it was 28.9 MiB).
TEST_F(JobObjectsTest, ADirtyJobKeepsAtMost64KBInRedis) {
  auto run = [&](gateway::RedisJobStore& store) {
    EXPECT_TRUE(CreateJob(store).ok());
    const Job claimed = Claim(store);
    int64_t n = 0;
    for (int batch = 0; batch < 13; ++batch) {
      JobWrite w;
      for (int i = 0; i < 8000 && n < 100'000; ++i) w.issues.push_back(Issue(n++));
      w.issues_stored = w.issues_found = n;
      w.fixes = std::string(9000, '\x02');
      w.summary_json = "{\"by_code\":{\"price_not_positive\":" + std::to_string(n) + "}}";
      if (batch < 12) { EXPECT_TRUE(store.Write(claimed, w).ok()); }
      if (batch == 12) {
        Job done = claimed;
        done.status = JobStatus::kDone;
        done.cleaned_from = gateway::kCleanedFromFixes;
        EXPECT_TRUE(store.Finish(done, w, JobEnd{JobStatus::kDone, "", "2026-11-23T10:01:00.000Z", 0}).ok());
      }
    }
    EXPECT_EQ(n, 100'000);
    return RedisBytes();
  };
  const int64_t before = run(*old_store_);
  job_.id += "-new";
  const int64_t after = run(*store_);
  std::cout << "Redis bytes of a 100,000-issue job: " << before << " without the artifact store, "
            << after << " with it\n";
  RecordProperty("redis_bytes_without_store", std::to_string(before));
  RecordProperty("redis_bytes_with_store", std::to_string(after));
  EXPECT_LE(after, 64 * 1024);
  EXPECT_GT(before, 20 * 1024 * 1024);  // what it saves: the issues alone were ~22 MiB
  EXPECT_EQ(Stored().issue_pages, 100);
}

}  // namespace
}  // namespace dq::testing
