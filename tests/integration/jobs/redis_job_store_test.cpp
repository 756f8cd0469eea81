// RedisJobStore against a real redis-server: the upload's pieces are kept as zstd frames
// (jobs/piece_codec.h) and read back byte for byte; a done job keeps its upload beside its fixes
// (the cleaned file is written from them on download), a failed one does not; the account's
// storage ceiling counts uncompressed bytes; jobs stored raw, before compression, and cleaned
// files stored whole by an earlier version still read; a damaged piece is an error that says so.
// Fencing is by claim id, so a reissued attempt number cannot write; two uploads near the byte
// ceiling never pass it together.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "dq/common/redis_client.h"
#include "dq/testing/harness.h"
#include "jobs/piece_codec.h"
#include "jobs/redis_job_store.h"

namespace dq::testing {
namespace {

using gateway::Job;
using gateway::JobStatus;
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
    job_.status = JobStatus::kQueued;
    job_.check_types = CheckTypeList::FromText("product");
    job_.quota_month = "202611";
    job_.created_at = "2026-11-23T10:00:00.000Z";
    job_.created_ms = 1795428000000;
    pieces_ = {Csv(0, 12000), Csv(12000, 12000), Csv(24000, 10)};
    job_.file_pieces = static_cast<int64_t>(pieces_.size());
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
    auto piece = store_->FilePiece(claimed, i);
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
  end.status = JobStatus::kDone;
  end.finished_at = "2026-11-23T10:00:02.000Z";
  Job finished = claimed;
  finished.status = JobStatus::kDone;
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
    auto piece = store_->FilePiece(finished, i);
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
  stale.claim_id = "an earlier attempt";
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
  end.status = JobStatus::kDone;
  Job finished = claimed;
  finished.status = JobStatus::kDone;  // cleaned_from "": stored whole
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
  end.status = JobStatus::kFailed;
  end.error = "the validator said no";
  Job failed = claimed;
  failed.status = JobStatus::kFailed;
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

// The failover of issue 35: worker A claimed on the old master (attempts 1); the claim did not
// reach the replica that was promoted, so worker B's claim counts attempt 1 again. The two hold
// the same number but different claim ids, and only B's writes land.
TEST_F(RedisJobStoreTest, AReissuedAttemptNumberDoesNotLetTheStaleClaimWrite) {
  ASSERT_TRUE(CreateJob().ok());
  const Job a = Claim();
  ASSERT_EQ(a.attempts, 1);
  ASSERT_FALSE(a.claim_id.empty());
  // What the promoted replica holds: the job as it was before A's claim.
  const std::string job_key = gateway::JobKey(job_.account_id, job_.id);
  ASSERT_TRUE(redis_->Command({"HSET", job_key, "attempts", "0", "status", "queued"}).ok());
  ASSERT_TRUE(redis_->Command({"HDEL", job_key, "claim_id"}).ok());
  auto b = store_->ClaimJob(job_.account_id, job_.id, "2026-11-23T10:00:09.000Z");
  ASSERT_TRUE(b.ok() && b->kind == gateway::ClaimKind::kRun);
  EXPECT_EQ(b->job.attempts, a.attempts);
  EXPECT_NE(b->job.claim_id, a.claim_id);

  JobWrite stale;
  stale.issues = {R"({"row":1,"code":"from_a"})"};
  stale.rows_done = 1;
  stale.issues_stored = stale.issues_found = 1;
  EXPECT_EQ(store_->Write(a, stale).code(), ErrorCode::kAborted);
  EXPECT_EQ(store_->WriteCleanedPiece(a, "book").code(), ErrorCode::kAborted);
  EXPECT_EQ(store_->Postpone(a).code(), ErrorCode::kAborted);
  Job a_done = a;
  a_done.status = JobStatus::kDone;
  gateway::JobEnd end;
  end.status = JobStatus::kDone;
  EXPECT_EQ(store_->Finish(a_done, stale, end).code(), ErrorCode::kAborted);

  JobWrite fresh;
  fresh.issues = {R"({"row":1,"code":"from_b"})"};
  fresh.rows_done = 1;
  fresh.issues_stored = fresh.issues_found = 1;
  ASSERT_TRUE(store_->Write(b->job, fresh).ok());
  auto issues = store_->Issues(b->job, 0, -1);
  ASSERT_TRUE(issues.ok());
  EXPECT_EQ(*issues, fresh.issues);
  auto stored = store_->Get(job_.account_id, job_.id);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_EQ(gateway::JobStatusName((*stored)->status), "processing");
  EXPECT_EQ((*stored)->claim_id, b->job.claim_id);
}

// A job claimed by an earlier version has no claim id: no caller's token matches it.
TEST_F(RedisJobStoreTest, AJobWithoutAClaimIdFencesEveryWrite) {
  ASSERT_TRUE(CreateJob().ok());
  Job claimed = Claim();
  const std::string job_key = gateway::JobKey(job_.account_id, job_.id);
  ASSERT_TRUE(redis_->Command({"HDEL", job_key, "claim_id"}).ok());
  claimed.claim_id = "";
  EXPECT_EQ(store_->Write(claimed, JobWrite{}).code(), ErrorCode::kAborted);
}

// Upload A has reserved its bytes and not stored its first piece yet when upload B reserves:
// B must count A's reservation (before, B's script found neither A's job nor its upload and
// dropped A's entry, so both passed the ceiling).
TEST_F(RedisJobStoreTest, AReservationNotStoredYetStillCountsAgainstTheCeiling) {
  gateway::StoreLimits limits;
  limits.max_account_bytes = job_.file_bytes * 3 / 2;
  gateway::RedisJobStore store(*redis_, limits);
  job_.account_id = "acct_ceiling_" + std::to_string(next_id_++);
  Job b = job_;
  b.id = job_.id + "-b";
  ASSERT_TRUE(store.ReserveBytes(job_).ok());
  gateway::UploadPieces b_upload(Views(), /*helpers=*/0);
  EXPECT_EQ(store.Create(b, b_upload).code(), ErrorCode::kStorageLimitExceeded);
  gateway::UploadPieces a_upload(Views(), /*helpers=*/0);
  ASSERT_TRUE(store.StoreReserved(job_, a_upload).ok());
  auto marks = redis_->Command({"EXISTS", JobPartKey(job_.account_id, job_.id, "reserved")});
  ASSERT_TRUE(marks.ok());
  EXPECT_EQ(marks->integer, 0);  // the job hash holds the reservation now
  auto all = redis_->Command({"HGETALL", AccountKey(job_.account_id, "job_bytes")});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->elements.size(), 2u);
  EXPECT_EQ(all->elements[0].str, job_.id);
}

// The ceiling is the account's plan's, read from dqctl's dq:{acct}:plan (absent: free), and the
// refusal says it in MB.
TEST_F(RedisJobStoreTest, TheCeilingIsTheAccountsPlans) {
  gateway::StoreLimits limits;
  limits.free_bytes = job_.file_bytes * 3 / 2;
  limits.pro_bytes = job_.file_bytes * 5 / 2;
  gateway::RedisJobStore store(*redis_, limits);
  job_.account_id = "acct_plan_" + std::to_string(next_id_++);
  auto create = [&](const std::string& suffix) {
    Job j = job_;
    j.id = job_.id + suffix;
    gateway::UploadPieces upload(Views(), /*helpers=*/0);
    return store.Create(j, upload);
  };
  ASSERT_TRUE(create("-a").ok());
  Status refused = create("-b");
  EXPECT_EQ(refused.code(), ErrorCode::kStorageLimitExceeded);
  EXPECT_EQ(refused.message(),
            gateway::StorageCeilingStatus(job_.file_bytes, job_.file_bytes,
                                          limits.free_bytes, "free")
                .message());
  EXPECT_NE(refused.message().find("free plan's storage ceiling of 1.2 MB"), std::string::npos)
      << refused.message();
  // dqctl moves the account to pro: a second upload fits, a third does not.
  ASSERT_TRUE(redis_->Command({"HSET", AccountKey(job_.account_id, "plan"), "plan", "pro"}).ok());
  ASSERT_TRUE(create("-b").ok());
  Status third = create("-c");
  EXPECT_EQ(third.code(), ErrorCode::kStorageLimitExceeded);
  EXPECT_NE(third.message().find("pro plan's storage ceiling"), std::string::npos)
      << third.message();
}

// A reservation whose gateway died before storing anything is dropped once its mark expires;
// an expired job's entry is dropped too.
TEST_F(RedisJobStoreTest, ReservationsOfNothingStoredAreDroppedWhenTheirMarkExpires) {
  gateway::StoreLimits limits;
  limits.max_account_bytes = job_.file_bytes * 3 / 2;
  gateway::RedisJobStore store(*redis_, limits);
  job_.account_id = "acct_ceiling_" + std::to_string(next_id_++);
  ASSERT_TRUE(store.ReserveBytes(job_).ok());
  ASSERT_TRUE(redis_->Command({"DEL", JobPartKey(job_.account_id, job_.id, "reserved")}).ok());
  Job b = job_;
  b.id = job_.id + "-b";
  gateway::UploadPieces b_upload(Views(), /*helpers=*/0);
  ASSERT_TRUE(store.Create(b, b_upload).ok());
  // B's job expires with its pieces: a third upload gets its bytes.
  ASSERT_TRUE(redis_->Command({"DEL", gateway::JobKey(b.account_id, b.id),
                               JobPartKey(b.account_id, b.id, "file")}).ok());
  Job c = job_;
  c.id = job_.id + "-c";
  gateway::UploadPieces c_upload(Views(), /*helpers=*/0);
  EXPECT_TRUE(store.Create(c, c_upload).ok());
}

// Uploads racing for one account's ceiling, each a third of it plus one byte: at most two may be
// stored at any time, whatever the interleaving.
TEST_F(RedisJobStoreTest, ConcurrentUploadsNearTheCeilingNeverPassIt) {
  gateway::StoreLimits limits;
  limits.max_account_bytes = job_.file_bytes * 3 - 1;
  job_.account_id = "acct_ceiling_" + std::to_string(next_id_++);
  constexpr int kThreads = 6;
  constexpr int kRounds = 15;
  std::atomic<int> stored{0};
  std::atomic<int> max_stored{0};
  std::atomic<int> refused{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      RedisOptions o;
      o.port = server_->port();
      RedisClient client(o);
      gateway::RedisJobStore store(client, limits);
      for (int r = 0; r < kRounds; ++r) {
        Job j = job_;
        j.id = job_.id + "-" + std::to_string(t) + "-" + std::to_string(r);
        gateway::UploadPieces upload(Views(), /*helpers=*/0);
        Status s = store.Create(j, upload);
        if (s.code() == ErrorCode::kStorageLimitExceeded) {
          refused++;
          continue;
        }
        if (!s.ok()) {
          failed++;
          continue;
        }
        const int now = ++stored;
        int seen = max_stored.load();
        while (now > seen && !max_stored.compare_exchange_weak(seen, now)) {
        }
        // Sum what Redis holds for the account: never over the ceiling.
        auto all = client.Command({"HVALS", AccountKey(job_.account_id, "job_bytes")});
        int64_t sum = 0;
        if (all.ok()) {
          for (const auto& v : all->elements) sum += std::stoll(v.str);
        }
        EXPECT_LE(sum, limits.max_account_bytes);
        // The job expires (as if deleted by its TTL), freeing its bytes for the others.
        --stored;
        EXPECT_TRUE(client
                        .Command({"DEL", gateway::JobKey(j.account_id, j.id),
                                  JobPartKey(j.account_id, j.id, "file")})
                        .ok());
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_GT(refused.load(), 0);  // the ceiling was reached
  EXPECT_LE(max_stored.load(), 2);
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
    auto piece = store_->FilePiece(claimed, i);
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

// A piece gone from a job that still exists is a bug, not a deletion: the error names the piece
// with the house word (docs/architecture.md, "Words").
TEST_F(RedisJobStoreTest, AMissingPieceOfAnExistingJobIsAnInternalErrorNamingIt) {
  ASSERT_TRUE(CreateJob().ok());
  const Job claimed = Claim();
  ASSERT_TRUE(
      redis_->Command({"LTRIM", JobPartKey(job_.account_id, job_.id, "file"), "0", "0"}).ok());
  EXPECT_TRUE(store_->FilePiece(claimed, 0).ok());
  auto piece = store_->FilePiece(claimed, 1);
  ASSERT_FALSE(piece.ok());
  EXPECT_EQ(piece.status().code(), ErrorCode::kInternal);
  EXPECT_EQ(piece.status().message(), "piece 1 of the upload is missing");
}

TEST_F(RedisJobStoreTest, ADamagedPieceIsAnErrorThatSaysSo) {
  ASSERT_TRUE(CreateJob().ok());
  const Job claimed = Claim();
  ASSERT_TRUE(redis_->Command({"LSET", JobPartKey(job_.account_id, job_.id, "file"), "1",
                               "not a frame"})
                  .ok());
  auto piece = store_->FilePiece(claimed, 1);
  ASSERT_FALSE(piece.ok());
  EXPECT_EQ(piece.status().code(), ErrorCode::kInternal);
  EXPECT_NE(piece.status().message().find("damaged"), std::string::npos);
  EXPECT_TRUE(store_->FilePiece(claimed, 0).ok());

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

// An account keeps its two newest previews. They are ordered by when they were kept, in
// microseconds: previews in one millisecond (which a fast client makes) keep their order, and the
// one being kept is never the one dropped, even when the clocks tie. (Ordered by the millisecond
// before, ties went by the random ids: HistoryIntegrationTest saw it once.)
TEST_F(RedisJobStoreTest, AnAccountKeepsItsNewestPreviewsEvenWithinOneMillisecond) {
  auto keep = [&](const std::string& id, int64_t kept_us) {
    gateway::KeptUpload up;
    up.id = id;
    up.account_id = "acct_kept";
    up.filename = id + ".csv";
    up.content_type = "text/csv";
    up.bytes = 8;
    up.expires_ms = 1795428000000 + 15 * 60 * 1000;  // the same millisecond for all
    up.kept_us = kept_us;
    EXPECT_TRUE(store_->KeepUpload(up, "sku\nA-1\n").ok());
  };
  auto kept = [&](const std::string& id) {
    auto f = store_->KeptUploadFile("acct_kept", id);
    EXPECT_TRUE(f.ok());
    return f.ok() && f->has_value();
  };
  // Ids that sort against the order they were kept in.
  keep("ccc", 1795428000000001);
  keep("bbb", 1795428000000002);
  keep("aaa", 1795428000000003);
  EXPECT_FALSE(kept("ccc"));
  EXPECT_TRUE(kept("bbb"));
  EXPECT_TRUE(kept("aaa"));
  // Clocks that tie (two gateways): the one being kept stays, an older one goes.
  keep("000", 1795428000000003);
  EXPECT_TRUE(kept("000"));
  EXPECT_EQ(static_cast<int>(kept("aaa")) + static_cast<int>(kept("bbb")), 1);
  auto bytes = redis_->Command({"HLEN", AccountKey("acct_kept", "job_bytes")});
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->integer, 2);
}

}  // namespace
}  // namespace dq::testing
