// RedisJobStore against a real redis-server: the upload's pieces are kept as zstd frames
// (jobs/piece_codec.h) and read back byte for byte; a done job keeps its upload beside its fixes
// (the cleaned file is written from them on download), a failed one does not; the account's
// storage ceiling counts uncompressed bytes; jobs stored raw, before compression, and cleaned
// files stored whole by an earlier version still read; a damaged piece is an error that says so.
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
  // Stores job_ with pieces_, one helper compressing them as an upload's would.
  Status CreateJob() {
    gateway::UploadPieces upload(Views(), /*helpers=*/1);
    return store_->Create(job_, upload);
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
  ASSERT_TRUE(CreateJob().ok());
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

  // The fixes: two writes, then the end of a done job.
  const std::string a(3000, 'a'), b = "bb";
  JobWrite w1;
  w1.fixes = a;
  w1.rows_done = 12000;
  ASSERT_TRUE(store_->Write(claimed, w1).ok());
  JobWrite w2;
  w2.fixes = b;
  w2.rows_done = 24010;
  gateway::JobEnd end;
  end.status = "done";
  end.finished_at = "2026-11-23T10:00:02.000Z";
  Job finished = claimed;
  finished.status = "done";
  finished.cleaned_from = gateway::kCleanedFromFixes;
  ASSERT_TRUE(store_->Finish(finished, w2, end).ok());
  for (int i = 0; i < 2; ++i) {
    auto piece = store_->FixesPiece(finished, i);
    ASSERT_TRUE(piece.ok() && piece->has_value()) << i;
    EXPECT_EQ(**piece, i == 0 ? a : b);
  }
  auto past = store_->FixesPiece(finished, 2);
  ASSERT_TRUE(past.ok());
  EXPECT_FALSE(past->has_value());
  // The upload stays, as long as the rest of the job: the cleaned file is written from it.
  for (int i = 0; i < 3; ++i) {
    auto piece = store_->FileChunk(finished, i);
    ASSERT_TRUE(piece.ok()) << piece.status().message();
    EXPECT_EQ(*piece, pieces_[i]);
  }
  // As long as the job hash, not past it (nothing could reach it then): the same instant. Read
  // as absolute times, which no clock tick between two reads can move.
  auto at = [&](const std::string& key) {
    auto r = redis_->Command({"PEXPIRETIME", key});
    EXPECT_TRUE(r.ok());
    return r.ok() ? r->integer : -3;
  };
  const int64_t file_at = at(JobPartKey(job_.account_id, job_.id, "file"));
  EXPECT_GT(file_at, 0);
  EXPECT_EQ(file_at, at(gateway::JobKey(job_.account_id, job_.id)));

  // The ceiling counts what the account sent and what it keeps, not what Redis happens to hold:
  // the upload uncompressed, and the fixes.
  EXPECT_EQ(AccountBytes(), job_.file_bytes + static_cast<int64_t>(a.size() + b.size()));
  auto again = store_->Get(job_.account_id, job_.id);
  ASSERT_TRUE(again.ok() && again->has_value());
  EXPECT_EQ((*again)->pieces, "zstd");
  EXPECT_EQ((*again)->cleaned_from, gateway::kCleanedFromFixes);

  // Deleted: every part goes, the fixes too.
  ASSERT_TRUE(*store_->Delete(job_.account_id, job_.id));
  for (const char* part : {"file", "fixes", "issues", "summary"}) {
    auto exists = redis_->Command({"EXISTS", JobPartKey(job_.account_id, job_.id, part)});
    ASSERT_TRUE(exists.ok());
    EXPECT_EQ(exists->integer, 0) << part;
  }
}

// An XLSX job keeps its workbook whole: its pieces are stored compressed, fenced and counted,
// and a done job whose cleaned file is stored whole drops its upload with the finish.
TEST_F(RedisJobStoreTest, AWorkbookIsStoredWholeAndTheUploadGoes) {
  ASSERT_TRUE(CreateJob().ok());
  const Job claimed = Claim();
  Job stale = claimed;
  stale.attempts -= 1;
  EXPECT_EQ(store_->WriteCleanedPiece(stale, "late").code(), ErrorCode::kAborted);
  ASSERT_TRUE(store_->WriteCleanedPiece(claimed, pieces_[0]).ok());
  ASSERT_TRUE(store_->WriteCleanedPiece(claimed, pieces_[2]).ok());
  EXPECT_EQ(Stored("cleaned", 0).substr(0, 4), kZstdMagic);
  for (int i = 0; i < 2; ++i) {
    auto piece = store_->CleanedPiece(claimed, i);
    ASSERT_TRUE(piece.ok() && piece->has_value()) << i;
    EXPECT_EQ(**piece, pieces_[i == 0 ? 0 : 2]);
  }
  const auto book_bytes = static_cast<int64_t>(pieces_[0].size() + pieces_[2].size());
  EXPECT_EQ(AccountBytes(), job_.file_bytes + book_bytes);

  gateway::JobEnd end;
  end.status = "done";
  Job finished = claimed;
  finished.status = "done";  // cleaned_from "": stored whole
  ASSERT_TRUE(store_->Finish(finished, JobWrite{}, end).ok());
  auto exists = redis_->Command({"EXISTS", JobPartKey(job_.account_id, job_.id, "file")});
  ASSERT_TRUE(exists.ok());
  EXPECT_EQ(exists->integer, 0);
  EXPECT_EQ(AccountBytes(), book_bytes);
}

// A failed job has no cleaned file: its upload and fixes go with the end, and so do their bytes.
TEST_F(RedisJobStoreTest, AFailedJobDropsItsUpload) {
  ASSERT_TRUE(CreateJob().ok());
  const Job claimed = Claim();
  JobWrite w;
  w.fixes = "fff";
  gateway::JobEnd end;
  end.status = "failed";
  end.error = "the validator said no";
  Job failed = claimed;
  failed.status = "failed";
  JobWrite earlier;
  earlier.fixes = "ffff";
  ASSERT_TRUE(store_->Write(claimed, earlier).ok());
  EXPECT_EQ(AccountBytes(), job_.file_bytes + 4);
  ASSERT_TRUE(store_->Finish(failed, w, end).ok());
  for (const char* part : {"file", "fixes"}) {
    auto exists = redis_->Command({"EXISTS", JobPartKey(job_.account_id, job_.id, part)});
    ASSERT_TRUE(exists.ok());
    EXPECT_EQ(exists->integer, 0) << part;
  }
  EXPECT_EQ(AccountBytes(), 0);
}

// A new attempt starts from nothing: the fixes of the one before are dropped with its issues.
TEST_F(RedisJobStoreTest, AClaimDropsTheFixesOfTheAttemptBefore) {
  ASSERT_TRUE(CreateJob().ok());
  const Job first = Claim();
  JobWrite w;
  w.fixes = "first attempt";
  ASSERT_TRUE(store_->Write(first, w).ok());
  auto again = store_->ClaimJob(job_.account_id, job_.id, "2026-11-23T10:00:05.000Z");
  ASSERT_TRUE(again.ok() && again->kind == gateway::ClaimKind::kRun);
  auto piece = store_->FixesPiece(again->job, 0);
  ASSERT_TRUE(piece.ok());
  EXPECT_FALSE(piece->has_value());
  EXPECT_EQ(AccountBytes(), job_.file_bytes);
  // The first attempt's late write is fenced off.
  EXPECT_EQ(store_->Write(first, w).code(), ErrorCode::kAborted);
}

TEST_F(RedisJobStoreTest, JobsStoredRawBeforeCompressionStillReadAndWriteRaw) {
  // A job as an earlier version stored it: raw pieces, no `pieces` field.
  ASSERT_TRUE(CreateJob().ok());
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
}

// A job finished by an earlier version stored its cleaned file whole, raw or compressed as its
// `pieces` says; the download reads those pieces until the job expires.
TEST_F(RedisJobStoreTest, ACleanedFileStoredWholeByAnEarlierVersionStillReads) {
  ASSERT_TRUE(CreateJob().ok());
  const Job claimed = Claim();
  const std::string cleaned_key = JobPartKey(job_.account_id, job_.id, "cleaned");
  ASSERT_TRUE(redis_->Command({"RPUSH", cleaned_key, gateway::CompressPiece(pieces_[0]),
                               gateway::CompressPiece(pieces_[2])})
                  .ok());
  for (int i = 0; i < 2; ++i) {
    auto piece = store_->CleanedPiece(claimed, i);
    ASSERT_TRUE(piece.ok() && piece->has_value()) << i;
    EXPECT_EQ(**piece, pieces_[i == 0 ? 0 : 2]);
  }
  auto past = store_->CleanedPiece(claimed, 2);
  ASSERT_TRUE(past.ok());
  EXPECT_FALSE(past->has_value());

  Job raw = claimed;
  raw.pieces = "";
  ASSERT_TRUE(redis_->Command({"DEL", cleaned_key}).ok());
  ASSERT_TRUE(redis_->Command({"RPUSH", cleaned_key, "sku\nA1\n"}).ok());
  auto piece = store_->CleanedPiece(raw, 0);
  ASSERT_TRUE(piece.ok() && piece->has_value());
  EXPECT_EQ(**piece, "sku\nA1\n");
}

TEST_F(RedisJobStoreTest, ADamagedPieceIsAnErrorThatSaysSo) {
  ASSERT_TRUE(CreateJob().ok());
  const Job claimed = Claim();
  ASSERT_TRUE(redis_->Command({"LSET", JobPartKey(job_.account_id, job_.id, "file"), "1",
                               "not a frame"})
                  .ok());
  auto piece = store_->FileChunk(claimed, 1);
  ASSERT_FALSE(piece.ok());
  EXPECT_EQ(piece.status().code(), ErrorCode::kInternal);
  EXPECT_NE(piece.status().message().find("damaged"), std::string::npos);
  EXPECT_TRUE(store_->FileChunk(claimed, 0).ok());

  // The same for a cleaned file stored whole by an earlier version.
  const std::string cleaned_key = JobPartKey(job_.account_id, job_.id, "cleaned");
  const std::string frame = gateway::CompressPiece(Csv(0, 100));
  ASSERT_TRUE(redis_->Command({"RPUSH", cleaned_key, frame, frame.substr(0, frame.size() / 2)})
                  .ok());
  EXPECT_TRUE(store_->CleanedPiece(claimed, 0).ok());
  auto cleaned = store_->CleanedPiece(claimed, 1);
  ASSERT_FALSE(cleaned.ok());
  EXPECT_NE(cleaned.status().message().find("damaged"), std::string::npos);
}

}  // namespace
}  // namespace dq::testing
