// RedisJobStore (redis_job_store.h): a running attempt's writes, each fenced by its claim (a
// deleted job or a newer attempt refuses them): a batch of issues and fixes (Write), the last
// one (Finish), a cleaned file's piece (WriteCleanedPiece), Postpone and MarkPublished. With an
// artifact store the batch's whole issue pages and its fixes piece are objects, put first and
// committed by the script with the batch (PutObjects).
#include <atomic>
#include <functional>

#include "dq/artifact/object_key.h"
#include "job_artifacts.h"
#include "limits/quota.h"
#include "piece_codec.h"
#include "redis_job_scripts.h"
#include "redis_job_store.h"
#include "redis_job_store_internal.h"

namespace dq::gateway {

using redis_store::CheckReplies;
using redis_store::Int;
using redis_store::QuotaKey;

namespace {

// What a fenced script answered.
Status FenceStatus(const Result<RedisReply>& r, const std::string& job_id) {
  if (!r.ok()) return r.status();
  if (r->str == "gone") return Status(ErrorCode::kNotFound, "job " + job_id + " was deleted");
  if (r->str == "stale") {
    return Status(ErrorCode::kAborted, "a newer attempt owns job " + job_id);
  }
  return Status::Ok();
}

// The same for a durable write: a write that did not reach its replicas in time is kUnavailable
// (the runner retries the job; nothing is published or acknowledged meanwhile).
Status FenceStatus(RedisClient& redis, const Result<DurableReply>& r, const std::string& job_id) {
  if (!r.ok()) return r.status();
  Status s = FenceStatus(Result<RedisReply>(r->reply), job_id);
  if (s.ok() && !r->confirmed) return redis.NotReplicated(*r);
  return s;
}


// The job hash's fields a write sets (HSET's field, value pairs): its counts, and at the end the
// job's own fields but those the attempt does not own, which stay as the store has them.
std::vector<std::string> WriteHashArgs(const Job& job, const JobWrite& w, bool end) {
  std::vector<std::string> hset = {"rows_done", std::to_string(w.rows_done),
                                   "issues", std::to_string(w.issues_stored),
                                   "issues_found", std::to_string(w.issues_found)};
  if (!end) return hset;
  for (auto& v : JobToHashArgs(job)) hset.push_back(std::move(v));
  for (size_t i = 0; i + 1 < hset.size(); i += 2) {
    if (hset[i] == "attempts" || hset[i] == "postponed" || hset[i] == "accepted" ||
        hset[i] == "event_published" || hset[i] == "refunded" || hset[i] == "idempotency_key" ||
        hset[i] == "pieces" || hset[i] == "file_store" || hset[i] == "output_attempt" ||
        hset[i] == "issue_pages" || hset[i] == "fix_pieces" || hset[i] == "cleaned_pieces") {
      hset.erase(hset.begin() + static_cast<ptrdiff_t>(i),
                 hset.begin() + static_cast<ptrdiff_t>(i) + 2);
      i -= 2;
    }
  }
  return hset;
}

// What the kWrite script gets besides the job's fields: the issue records for the :issues list,
// the fixes kept in Redis, and what the write's objects (with an artifact store) add.
struct WriteBatch {
  const JobWrite& w;
  std::string fixes_in_redis;  // the fixes, unless they went to the store as a piece
  int64_t fix_bytes = 0;       // the fixes' bytes as stored (compressed in the store)
  // The account's bytes count what is really stored (issue 34, point 4): records in the Redis
  // list at their size, pages and pieces in the store at their compressed size. paged_bytes is
  // the change the pages make: their bytes, less those of the records that leave the list.
  int64_t paged_bytes = 0;
  // true: the :issues list is replaced by `records` (the records left over from whole pages);
  // false: w.issues are appended to it.
  bool replace_tail = false;
  std::vector<std::string> records;
  std::vector<std::string> committed;  // the hash's object counts the script commits

  const std::vector<std::string>& Pushed() const { return replace_tail ? records : w.issues; }
};

// With the artifact store: puts the write's whole issue pages and its fixes piece as objects,
// before the script commits them (their counts in b.committed) with the batch.
Status PutObjects(RedisClient& redis, artifact::ArtifactStore& artifacts, const Job& job,
                  bool end, WriteBatch& b) {
  const std::string& a = job.account_id;
  const JobWrite& w = b.w;
  const std::string attempt = AttemptName(job);
  auto state = redis.Pipeline({{"HMGET", JobKey(a, job.id), "issue_pages", "fix_pieces"},
                               {"LRANGE", JobPartKey(a, job.id, "issues"), "0", "-1"}});
  if (Status s = CheckReplies(state); !s.ok()) return s;
  const RedisReply& counts = (*state)[0];
  const int64_t pages = counts.elements.size() > 0 ? Int(counts.elements[0].str) : 0;
  int64_t fix_pieces = counts.elements.size() > 1 ? Int(counts.elements[1].str) : 0;
  std::vector<std::string>& records = b.records;
  for (auto& e : (*state)[1].elements) records.push_back(std::move(e.str));
  const size_t tail = records.size();
  records.insert(records.end(), w.issues.begin(), w.issues.end());
  const PageCut cut = CutPages(tail, w.issues.size(), end);
  // Each page and the fixes piece encoded and put by a task of its own, several at once
  // (RunAll): the puts wait on the disk or the network.
  std::vector<std::function<Status()>> puts;
  std::atomic<int64_t> page_bytes{0};
  for (int64_t p = 0; p < cut.pages; ++p) {
    const size_t from = static_cast<size_t>(p * kIssuesPerPage);
    const size_t n = std::min(static_cast<size_t>(kIssuesPerPage), cut.paged_records - from);
    auto key = IssuePageKey(job, attempt, pages + p + 1);
    if (!key.ok()) return key.status();
    puts.push_back([&artifacts, &records, &page_bytes, from, n, key = std::move(*key)] {
      const std::string page = EncodeIssuePage(records, from, n);
      page_bytes += static_cast<int64_t>(page.size());
      return artifacts.Put(key, page);
    });
  }
  if (!w.fixes.empty()) {
    auto key = FixPieceKey(job, attempt, fix_pieces);
    if (!key.ok()) return key.status();
    puts.push_back([&artifacts, &w, &b, key = std::move(*key)] {
      const std::string piece = CompressPiece(w.fixes);
      b.fix_bytes = static_cast<int64_t>(piece.size());  // only this task writes it
      return artifacts.Put(key, piece);
    });
    ++fix_pieces;
    b.fixes_in_redis.clear();
  }
  if (Status s = RunAll(puts, kPutThreads); !s.ok()) return s;
  b.paged_bytes += page_bytes.load();
  if (cut.replace_tail) {  // after the puts, which read the records
    // The list is replaced: the records it held (counted when they were pushed) leave it.
    for (size_t i = 0; i < tail; ++i) b.paged_bytes -= static_cast<int64_t>(records[i].size());
    records.erase(records.begin(), records.begin() + static_cast<ptrdiff_t>(cut.paged_records));
    b.replace_tail = true;
  }
  b.committed = {"issue_pages", std::to_string(pages + cut.pages),
                 "fix_pieces", std::to_string(fix_pieces),
                 "output_attempt", attempt};
  return Status::Ok();
}

// kWrite's arguments (redis_job_scripts.h), in its order.
std::vector<std::string> WriteArgs(const Job& job, const JobEnd* end, int64_t ttl_seconds,
                                   const WriteBatch& b) {
  std::vector<std::string> hset = WriteHashArgs(job, b.w, end != nullptr);
  hset.insert(hset.end(), b.committed.begin(), b.committed.end());
  const std::vector<std::string>& pushed = b.Pushed();
  std::vector<std::string> args = {job.claim_id,
                                   job.id,
                                   std::to_string(ttl_seconds),
                                   b.w.summary_json,
                                   b.fixes_in_redis,
                                   std::to_string(end ? end->refund : 0),
                                   // 0: not the end; 1: the end, the upload goes; 2: the end,
                                   // done, the upload stays: the cleaned file comes from it
                                   !end                        ? "0"
                                   : end->status == JobStatus::kDone &&
                                           job.cleaned_from == kCleanedFromFixes
                                       ? "2"
                                       : "1",
                                   std::to_string(job.file_stored_bytes > 0
                                                      ? job.file_stored_bytes
                                                      : job.file_bytes),
                                   std::to_string(b.fix_bytes),
                                   std::to_string(hset.size())};
  args.reserve(args.size() + hset.size() + 3 + pushed.size());
  for (auto& v : hset) args.push_back(std::move(v));
  args.push_back(std::to_string(pushed.size()));
  args.insert(args.end(), pushed.begin(), pushed.end());
  args.push_back(b.replace_tail ? "1" : "0");
  args.push_back(std::to_string(b.paged_bytes));
  return args;
}

}  // namespace

Status RedisJobStore::RunWrite(const Job& job, const JobWrite& w, const JobEnd* end) {
  const std::string& a = job.account_id;
  WriteBatch b{
      .w = w, .fixes_in_redis = w.fixes, .fix_bytes = static_cast<int64_t>(w.fixes.size())};
  if (artifacts_ != nullptr) {
    if (Status s = PutObjects(redis_, *artifacts_, job, end != nullptr, b); !s.ok()) return s;
  }
  const std::vector<std::string> args = WriteArgs(job, end, limits_.ttl.count(), b);
  const std::vector<std::string> keys = {
      JobKey(a, job.id),          JobPartKey(a, job.id, "issues"), JobPartKey(a, job.id, "fixes"),
      JobPartKey(a, job.id, "summary"), AccountKey(a, "job_bytes"), QuotaKey(job),
      JobPartKey(a, job.id, "file")};
  // The finish is durable: its event is published only once replicas have it.
  Status s = end != nullptr
                 ? FenceStatus(redis_, redis_.EvalDurable(scripts::kWrite, keys, args), job.id)
                 : FenceStatus(redis_.Eval(scripts::kWrite, keys, args), job.id);
  // Objects go only after a confirmed finish: one that a failover could undo would find them
  // gone when the job runs again (unconfirmed, they are left to the sweep).
  if (s.ok() && end != nullptr && artifacts_ != nullptr &&
      !(end->status == JobStatus::kDone && job.cleaned_from == kCleanedFromFixes)) {
    // The script dropped the upload and the fixes (no cleaned file will be written from them):
    // their objects go too.
    if (job.file_store == kFileInStore) {
      DeleteObjects(artifact::AttemptPrefix(a, job.id, artifact::kUploadAttempt));
    }
    auto attempt = artifact::AttemptPrefix(a, job.id, AttemptName(job));
    if (attempt.ok()) DeleteObjects(*attempt + "fixes/");
  }
  return s;
}

Status RedisJobStore::Write(const Job& job, const JobWrite& w) { return RunWrite(job, w, nullptr); }

Status RedisJobStore::WriteCleanedPiece(const Job& job, std::string_view piece) {
  const std::string& a = job.account_id;
  if (artifacts_ != nullptr) {
    auto count = redis_.Command({"HGET", JobKey(a, job.id), "cleaned_pieces"});
    if (!count.ok()) return count.status();
    const int64_t n = Int(count->str);
    auto key = CleanedPieceKey(job, AttemptName(job), n);
    if (!key.ok()) return key.status();
    const std::string stored = CompressPiece(piece);
    if (Status s = artifacts_->Put(*key, stored); !s.ok()) return s;
    auto r = redis_.Eval(
        scripts::kAppendCleaned,
        {JobKey(a, job.id), JobPartKey(a, job.id, "cleaned"), AccountKey(a, "job_bytes")},
        {job.claim_id, job.id, std::to_string(limits_.ttl.count()), "",
         std::to_string(stored.size()), std::to_string(n + 1), AttemptName(job)});
    return FenceStatus(r, job.id);
  }
  auto r = redis_.Eval(
      scripts::kAppendCleaned,
      {JobKey(a, job.id), JobPartKey(a, job.id, "cleaned"), AccountKey(a, "job_bytes")},
      {job.claim_id, job.id, std::to_string(limits_.ttl.count()),
       job.pieces == kPiecesZstd ? CompressPiece(piece) : std::string(piece),
       std::to_string(piece.size())});
  return FenceStatus(r, job.id);
}

Status RedisJobStore::Finish(const Job& job, const JobWrite& w, const JobEnd& end) {
  return RunWrite(job, w, &end);
}

Status RedisJobStore::Postpone(const Job& job) {
  auto r = redis_.Eval(scripts::kPostpone, {JobKey(job.account_id, job.id)}, {job.claim_id});
  return FenceStatus(r, job.id);
}

Status RedisJobStore::MarkPublished(const Job& job) {
  auto r = redis_.Eval(scripts::kMarkPublished, {JobKey(job.account_id, job.id)}, {});
  return r.ok() ? Status::Ok() : r.status();
}

}  // namespace dq::gateway
