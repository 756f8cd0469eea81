// RedisJobStore against a real redis-server: the upload's and the cleaned file's pieces are kept
// as zstd frames (jobs/piece_codec.h) and read back byte for byte; the account's storage ceiling
// counts their uncompressed bytes; jobs stored raw, before compression, still read and write
// raw; a damaged piece is an error that says so.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "dq/common/redis_client.h"
#include "dq/testing/harness.h"
#include "jobs/piece_codec.h"
#include "jobs/redis_job_store.h"

namespace dq::testing {
namespace {

using gateway::Job;
using gateway::JobPartKey;
using gateway::JobWrite;

constexpr std::string_view kZstdMagic = "\x28\xb5\x2f\xfd";

std::string Csv(int first, int rows) {
  std::string csv;
  for (int r = first; r < first + rows; ++r) {
    csv += "SKU-" + std::to_string(r) + ",Blue mug no. " + std::to_string(r % 97) + "," +
           std::to_string(r % 500) + ".99,EUR\n";
  }
  return csv;
}

class RedisJobStoreTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new RedisServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    RedisOptions o;
    o.port = server_->port();
    redis_ = std::make_unique<RedisClient>(o);
    store_ = std::make_unique<gateway::RedisJobStore>(*redis_, gateway::StoreLimits{});
    job_.id = "9d3c1f0e-4b5a-4c6d-8e7f-" + std::to_string(100000000000 + next_id_++);
    job_.account_id = "acct_store";
    job_.status = "queued";
    job_.check_types = "product";
    job_.quota_month = "202611";
    job_.created_at = "2026-11-23T10:00:00.000Z";
    job_.created_ms = 1795428000000;
    pieces_ = {Csv(0, 12000), Csv(12000, 12000), Csv(24000, 10)};
    job_.file_chunks = static_cast<int64_t>(pieces_.size());
    for (const auto& p : pieces_) job_.file_bytes += static_cast<int64_t>(p.size());
  }
  std::vector<std::string_view> Views() const {
    return {pieces_.begin(), pieces_.end()};
  }
  // The raw bytes Redis holds at `key`, element i.
  std::string Stored(const std::string& part, int i) {
    auto r = redis_->Command({"LINDEX", JobPartKey(job_.account_id, job_.id, part),
                              std::to_string(i)});
    EXPECT_TRUE(r.ok());
    return r.ok() ? r->str : "";
  }
  int64_t AccountBytes() {
    auto r = redis_->Command({"HGET", AccountKey(job_.account_id, "job_bytes"), job_.id});
    EXPECT_TRUE(r.ok());
    return r.ok() && !r->is_nil() ? std::stoll(r->str) : -1;
  }
  // Claims the job as a worker would and gives back the claimed Job (with its fencing token).
  Job Claim() {
    EXPECT_TRUE(store_->Accept(job_).ok());
    auto c = store_->ClaimJob(job_.account_id, job_.id, "2026-11-23T10:00:01.000Z");
    EXPECT_TRUE(c.ok() && c->kind == gateway::ClaimKind::kRun);
    return c.ok() ? c->job : Job{};
  }

  static RedisServer* server_;
  static int next_id_;
  std::unique_ptr<RedisClient> redis_;
  std::unique_ptr<gateway::RedisJobStore> store_;
  Job job_;
  std::vector<std::string> pieces_;
};
RedisServer* RedisJobStoreTest::server_ = nullptr;
int RedisJobStoreTest::next_id_ = 0;

TEST_F(RedisJobStoreTest, PiecesAreStoredCompressedAndReadBackByteForByte) {
  ASSERT_TRUE(store_->Create(job_, Views()).ok());
  for (int i = 0; i < 3; ++i) {
    const std::string stored = Stored("file", i);
    EXPECT_EQ(stored.substr(0, 4), kZstdMagic) << "piece " << i;
    if (i < 2) {
      EXPECT_LT(stored.size() * 3, pieces_[i].size()) << "piece " << i;
    }
  }
  const Job claimed = Claim();
  EXPECT_EQ(claimed.pieces, "zstd");
  for (int i = 0; i < 3; ++i) {
    auto piece = store_->FileChunk(claimed, i);
    ASSERT_TRUE(piece.ok()) << piece.status().message();
    EXPECT_EQ(*piece, pieces_[i]);
  }

  // The cleaned file: two writes, then the end.
  const std::string a = Csv(0, 12000), b = Csv(12000, 5);
  JobWrite w1;
  w1.cleaned = a;
  w1.rows_done = 12000;
  ASSERT_TRUE(store_->Write(claimed, w1).ok());
  JobWrite w2;
  w2.cleaned = b;
  w2.rows_done = 12005;
  gateway::JobEnd end;
  end.status = "done";
  end.finished_at = "2026-11-23T10:00:02.000Z";
  Job finished = claimed;
  finished.status = "done";
  ASSERT_TRUE(store_->Finish(finished, w2, end).ok());
  EXPECT_EQ(Stored("cleaned", 0).substr(0, 4), kZstdMagic);
  EXPECT_LT(Stored("cleaned", 0).size() * 3, a.size());
  EXPECT_EQ(Stored("cleaned", 1).substr(0, 4), kZstdMagic);
  for (int i = 0; i < 2; ++i) {
    auto piece = store_->CleanedPiece(finished, i);
    ASSERT_TRUE(piece.ok() && piece->has_value()) << i;
    EXPECT_EQ(**piece, i == 0 ? a : b);
  }
  auto past = store_->CleanedPiece(finished, 2);
  ASSERT_TRUE(past.ok());
  EXPECT_FALSE(past->has_value());

  // The ceiling counts what the account sent and gets back, not what Redis happens to hold: the
  // upload is gone with the end, the cleaned file stays, uncompressed.
  EXPECT_EQ(AccountBytes(), static_cast<int64_t>(a.size() + b.size()));
  auto again = store_->Get(job_.account_id, job_.id);
  ASSERT_TRUE(again.ok() && again->has_value());
  EXPECT_EQ((*again)->pieces, "zstd");
}

TEST_F(RedisJobStoreTest, JobsStoredRawBeforeCompressionStillReadAndWriteRaw) {
  // A job as an earlier version stored it: raw pieces, no `pieces` field.
  ASSERT_TRUE(store_->Create(job_, Views()).ok());
  const std::string file_key = JobPartKey(job_.account_id, job_.id, "file");
  const std::string job_key = gateway::JobKey(job_.account_id, job_.id);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(redis_->Command({"LSET", file_key, std::to_string(i), pieces_[i]}).ok());
  }
  ASSERT_TRUE(redis_->Command({"HDEL", job_key, "pieces"}).ok());

  const Job claimed = Claim();
  EXPECT_EQ(claimed.pieces, "");
  for (int i = 0; i < 3; ++i) {
    auto piece = store_->FileChunk(claimed, i);
    ASSERT_TRUE(piece.ok());
    EXPECT_EQ(*piece, pieces_[i]);
  }
  JobWrite w;
  w.cleaned = "sku\nA1\n";
  ASSERT_TRUE(store_->Write(claimed, w).ok());
  EXPECT_EQ(Stored("cleaned", 0), "sku\nA1\n");
  auto cleaned = store_->CleanedPiece(claimed, 0);
  ASSERT_TRUE(cleaned.ok() && cleaned->has_value());
  EXPECT_EQ(**cleaned, "sku\nA1\n");
}

TEST_F(RedisJobStoreTest, ADamagedPieceIsAnErrorThatSaysSo) {
  ASSERT_TRUE(store_->Create(job_, Views()).ok());
  const Job claimed = Claim();
  ASSERT_TRUE(redis_->Command({"LSET", JobPartKey(job_.account_id, job_.id, "file"), "1",
                               "not a frame"})
                  .ok());
  auto piece = store_->FileChunk(claimed, 1);
  ASSERT_FALSE(piece.ok());
  EXPECT_EQ(piece.status().code(), ErrorCode::kInternal);
  EXPECT_NE(piece.status().message().find("damaged"), std::string::npos);
  EXPECT_TRUE(store_->FileChunk(claimed, 0).ok());

  // The same for the cleaned file's download.
  JobWrite w;
  w.cleaned = Csv(0, 100);
  ASSERT_TRUE(store_->Write(claimed, w).ok());
  ASSERT_TRUE(store_->Write(claimed, w).ok());
  ASSERT_TRUE(store_->CleanedPiece(claimed, 1).ok());
  const std::string first = Stored("cleaned", 0);
  ASSERT_TRUE(redis_->Command({"LSET", JobPartKey(job_.account_id, job_.id, "cleaned"), "1",
                               first.substr(0, first.size() / 2)})
                  .ok());
  EXPECT_TRUE(store_->CleanedPiece(claimed, 0).ok());
  auto cleaned = store_->CleanedPiece(claimed, 1);
  ASSERT_FALSE(cleaned.ok());
  EXPECT_NE(cleaned.status().message().find("damaged"), std::string::npos);
}

}  // namespace
}  // namespace dq::testing
