#include "redis_job_store.h"

#include <atomic>
#include <cstdlib>
#include <unordered_set>

#include "dq/artifact/object_key.h"
#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "job_artifacts.h"
#include "limits/quota.h"
#include "piece_codec.h"
#include "redis_job_scripts.h"

namespace dq::gateway {
namespace {

Status CheckReplies(const Result<std::vector<RedisReply>>& replies) {
  if (!replies.ok()) return replies.status();
  for (const auto& r : *replies) {
    if (r.is_error()) return Status(ErrorCode::kInternal, "Redis error: " + r.str);
  }
  return Status::Ok();
}

std::vector<std::pair<std::string, std::string>> Pairs(const RedisReply& r) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
    out.emplace_back(r.elements[i].str, r.elements[i + 1].str);
  }
  return out;
}

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

std::string QuotaKey(const Job& job) {
  return AccountKey(job.account_id, "quota:" + job.quota_month);
}

std::string IdempotencyKey(std::string_view account_id, std::string_view key) {
  return AccountKey(account_id, "idem:" + std::string(key));
}

int64_t Int(const std::string& text) { return std::strtoll(text.c_str(), nullptr, 10); }

// One object of the store, decompressed; kNotFound when it is not there.
Result<std::string> ReadPiece(artifact::ArtifactStore& store, const Result<std::string>& key) {
  if (!key.ok()) return key.status();
  auto stored = store.GetAll(*key, static_cast<int64_t>(kMaxPieceBytes));
  if (!stored.ok()) return stored.status();
  return DecompressPiece(*stored);
}

Status NoStore(const Job& job) {
  return Status(ErrorCode::kInternal, "job " + job.id +
                                          " keeps its files in the artifact store, which this "
                                          "process has not been given (DQ_ARTIFACT_STORE)");
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

}  // namespace

std::string Megabytes(int64_t bytes) {
  const int64_t tenths = (bytes * 10 + (1 << 20) / 2) / (1 << 20);  // rounded to 0.1 MB
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MB";
}

Status StorageCeilingStatus(int64_t stored, int64_t upload, int64_t ceiling,
                            std::string_view plan) {
  return Status(ErrorCode::kStorageLimitExceeded,
                "This account stores " + Megabytes(stored) + " of job data, and this upload (" +
                    Megabytes(upload) + ") would pass the " + std::string(plan) +
                    " plan's storage ceiling of " + Megabytes(ceiling) +
                    ". Delete jobs you no longer need (DELETE /v1/jobs/{id}), wait until old "
                    "jobs expire, or move to a plan with more storage.");
}

std::string JobKey(std::string_view account_id, std::string_view id) {
  return AccountKey(account_id, "job:" + std::string(id));
}

std::string JobPartKey(std::string_view account_id, std::string_view id, std::string_view part) {
  return AccountKey(account_id, "job:" + std::string(id) + ":" + std::string(part));
}

int64_t StoreLimits::CeilingOf(std::string_view plan) const {
  int64_t c = plan == "pro"        ? pro_bytes
              : plan == "business" ? business_bytes
              : plan == "agency"   ? agency_bytes
                                   : free_bytes;
  if (max_account_bytes > 0 && (c == 0 || max_account_bytes < c)) c = max_account_bytes;
  return c;
}

Result<RedisJobStore::Ceiling> RedisJobStore::StorageCeiling(const std::string& account_id) {
  // dq:{acct}:plan is written by dqctl alone (deploy/redis/users.acl); absent: the free plan.
  auto plan = redis_.Command({"HGETALL", AccountKey(account_id, "plan")});
  if (!plan.ok()) return plan.status();
  Ceiling c{"free", 0};
  for (size_t i = 0; i + 1 < plan->elements.size(); i += 2) {
    if (plan->elements[i].str == "plan") c.plan = plan->elements[i + 1].str;
  }
  c.bytes = limits_.CeilingOf(c.plan);
  return c;
}

Status RedisJobStore::ReserveBytes(const Job& job) {
  const std::string& a = job.account_id;
  const std::string bytes_key = AccountKey(a, "job_bytes");
  // The jobs whose entries may be stale: a sample of at most kReserveCheckJobs (HRANDFIELD with a
  // positive count: distinct fields, all of them when there are fewer), so the script's key list
  // stays bounded and every key it touches is passed in (Redis Cluster refuses any other).
  auto listed = redis_.Command({"HRANDFIELD", bytes_key, std::to_string(kReserveCheckJobs)});
  if (!listed.ok()) return listed.status();
  auto ceiling = StorageCeiling(a);
  if (!ceiling.ok()) return ceiling.status();
  std::vector<std::string> keys = {bytes_key, JobPartKey(a, job.id, "reserved")};
  std::vector<std::string> args = {job.id,
                                   std::to_string(job.file_bytes),
                                   std::to_string(ceiling->bytes),
                                   std::to_string(limits_.ttl.count()),
                                   std::to_string(kReservationTtl.count()),
                                   std::to_string(listed->elements.size())};
  for (const auto& e : listed->elements) {
    keys.push_back(JobKey(a, e.str));
    keys.push_back(JobPartKey(a, e.str, "file"));
    keys.push_back(JobPartKey(a, e.str, "reserved"));
    args.push_back(e.str);
  }
  auto reserved = redis_.Eval(scripts::kReserveBytes, keys, args);
  if (!reserved.ok()) return reserved.status();
  if (reserved->elements.size() == 2 && reserved->elements[0].integer == 0) {
    return StorageCeilingStatus(reserved->elements[1].integer, job.file_bytes, ceiling->bytes,
                                ceiling->plan);
  }
  return Status::Ok();
}

Status RedisJobStore::Create(const Job& job, UploadPieces& file_pieces) {
  if (Status s = ReserveBytes(job); !s.ok()) return s;
  return StoreReserved(job, file_pieces);
}

Status RedisJobStore::StoreReserved(const Job& job, UploadPieces& file_pieces) {
  const std::string ttl = std::to_string(limits_.ttl.count());
  const std::string bytes_key = AccountKey(job.account_id, "job_bytes");
  const std::string mark_key = JobPartKey(job.account_id, job.id, "reserved");
  const std::string file_key = JobPartKey(job.account_id, job.id, "file");
  // The file first, then the job itself: a job that exists always has its whole file. Each piece
  // is compressed (piece_codec.h): Redis's cost is the bytes it keeps and appends to its AOF. One
  // RPUSH per piece, kPiecesPerRound pieces pipelined per round trip (so the client never buffers
  // more than that), each round with its expiry. Redis appends each round to its AOF and fsyncs
  // once for it; meanwhile UploadPieces's helpers compress the next round.
  constexpr size_t kPiecesPerRound = 8;
  Status s = Status::Ok();
  const size_t pieces = file_pieces.size();
  // With the artifact store, each piece is an object (jobs/<a>/<j>/upload/file/<n>.zst).
  // The account's ledger then counts the bytes really stored, not the upload's (issue 34).
  // Several at once (UploadPieces::StoreEach): each put waits on the disk or the network.
  std::atomic<int64_t> stored_bytes{0};
  if (artifacts_ != nullptr) {
    s = file_pieces.StoreEach(UploadPieces::kWriters, [&](size_t i, std::string piece) -> Status {
      auto key = FilePieceKey(job, static_cast<int64_t>(i));
      if (!key.ok()) return key.status();
      stored_bytes += static_cast<int64_t>(piece.size());
      return artifacts_->Put(*key, piece);
    });
  }
  for (size_t i = 0; artifacts_ == nullptr && i < pieces && s.ok(); i += kPiecesPerRound) {
    std::vector<std::vector<std::string>> round;
    for (size_t k = i; k < std::min(pieces, i + kPiecesPerRound); ++k) {
      round.push_back({"RPUSH", file_key, file_pieces.TakeCompressed(k)});
    }
    round.push_back({"EXPIRE", file_key, ttl});
    s = CheckReplies(redis_.Pipeline(round));
  }
  if (s.ok()) {
    Job stored = job;
    stored.pieces = kPiecesZstd;
    if (artifacts_ != nullptr) {
      stored.file_store = kFileInStore;
      stored.file_stored_bytes = std::max<int64_t>(1, stored_bytes.load());
    }
    std::vector<std::string> hset = {"HSET", JobKey(job.account_id, job.id)};
    for (auto& a : JobToHashArgs(stored)) hset.push_back(std::move(a));
    // Its quota is a recorded reservation (QuotaReservationKey, id = the job id): an abandon
    // gives back what that record still holds, once, whoever releases it first.
    hset.insert(hset.end(), {"quota_res", "1"});
    // The job hash now keeps the reservation: its mark goes. With the store, the reservation
    // (the upload's size, an upper bound) becomes the bytes stored.
    std::vector<std::vector<std::string>> commands = {
        std::move(hset), {"EXPIRE", JobKey(job.account_id, job.id), ttl}, {"DEL", mark_key}};
    if (artifacts_ != nullptr) {
      commands.push_back(
          {"HSET", bytes_key, job.id, std::to_string(stored.file_stored_bytes)});
    }
    s = CheckReplies(redis_.Pipeline(commands));
  }
  if (!s.ok()) {  // leave nothing behind
    IgnoreError(redis_.Pipeline({{"DEL", file_key, JobKey(job.account_id, job.id), mark_key},
                                 {"HDEL", bytes_key, job.id}}),
                "best effort: the pieces and the mark expire anyway");
    DeleteObjects(artifact::JobPrefix(job.account_id, job.id));
  }
  return s;
}

Status RedisJobStore::Accept(const Job& job) {
  // Durable: the 202 that follows means the job, its pieces and its quota (all before it, on the
  // same master) would survive a failover. Unconfirmed, the acceptance is taken back, so the
  // upload's Abandon removes the job and gives its quota back, as its 503 says.
  const std::vector<std::string> keys = {JobKey(job.account_id, job.id),
                                         AccountKey(job.account_id, "jobs")};
  auto r = redis_.EvalDurable(scripts::kAccept, keys,
                              {std::to_string(job.created_ms),
                               std::to_string(job.created_ms - limits_.ttl.count() * 1000),
                               std::to_string(limits_.ttl.count()), job.id});
  if (!r.ok()) return r.status();
  if (r->reply.integer != 1) {
    return Status(ErrorCode::kInternal, "the job vanished before it was listed");
  }
  if (!r->confirmed) {
    if (auto u = redis_.Eval(scripts::kUnaccept, keys, {job.id}); !u.ok()) {
      // Then the upload's Abandon leaves the job (it is accepted), and a worker may run it
      // although its upload was answered 503.
      log::Warn("job acceptance not taken back",
                {{"job_id", job.id}, {"error", u.status().message()}});
    }
    return redis_.NotReplicated(*r);
  }
  return Status::Ok();
}

Status RedisJobStore::Remove(const Job& job, const char* mode) {
  const std::string& a = job.account_id;
  // Durable: a delete or an abandon gives quota back.
  auto r = redis_.EvalDurable(
      scripts::kRemove,
      {JobKey(a, job.id), JobPartKey(a, job.id, "file"), JobPartKey(a, job.id, "issues"),
       JobPartKey(a, job.id, "cleaned"), JobPartKey(a, job.id, "summary"),
       AccountKey(a, "job_bytes"), QuotaKey(job), AccountKey(a, "jobs"),
       IdempotencyKey(a, job.idempotency_key), JobPartKey(a, job.id, "fixes"),
       QuotaReservationKey(a, job.id)},
      {job.id, mode, job.idempotency_key, std::to_string(kReservationTtlSeconds)});
  if (!r.ok()) return r.status();
  if (r->reply.integer != 1) return Status(ErrorCode::kNotFound, "no such job");
  DeleteObjects(artifact::JobPrefix(a, job.id));
  return r->confirmed ? Status::Ok() : redis_.NotReplicated(*r);
}

Result<Job> RedisJobStore::Committed(const Job& job) {
  if (artifacts_ == nullptr || job.finished()) return job;
  auto r = redis_.Command({"HMGET", JobKey(job.account_id, job.id), "issue_pages", "fix_pieces",
                           "cleaned_pieces", "output_attempt"});
  if (!r.ok()) return r.status();
  if (r->elements.size() != 4) return job;
  Job now = job;
  now.issue_pages = Int(r->elements[0].str);
  now.fix_pieces = Int(r->elements[1].str);
  now.cleaned_pieces = Int(r->elements[2].str);
  now.output_attempt = r->elements[3].str;
  return now;
}

void RedisJobStore::DeleteObjects(const Result<std::string>& prefix) {
  if (artifacts_ == nullptr || !prefix.ok()) return;
  auto deleted = artifacts_->DeletePrefix(*prefix);
  if (!deleted.ok()) {
    log::Warn("job objects left for the sweep",
              {{"prefix", *prefix}, {"error", deleted.status().message()}});
  }
}

Status RedisJobStore::Abandon(const Job& job) {
  Status s = Remove(job, "abandon");
  return s.code() == ErrorCode::kNotFound ? Status::Ok() : s;
}

Status RedisJobStore::Retract(const Job& job) {
  Status s = Remove(job, "retract");
  return s.code() == ErrorCode::kNotFound ? Status::Ok() : s;
}

Result<bool> RedisJobStore::Delete(std::string_view account_id, std::string_view id) {
  auto job = Get(account_id, id);
  if (!job.ok()) return job.status();
  if (!job->has_value()) return false;
  Status s = Remove(**job, "delete");
  if (s.code() == ErrorCode::kNotFound) return false;
  if (!s.ok()) return s;
  return true;
}

Result<std::optional<Job>> RedisJobStore::Get(std::string_view account_id, std::string_view id) {
  auto reply = redis_.Command({"HGETALL", JobKey(account_id, id)});
  if (!reply.ok()) return reply.status();
  if (reply->elements.empty()) return std::optional<Job>();
  Job job = JobFromHash(Pairs(*reply));
  if (job.account_id != account_id) return std::optional<Job>();
  return std::optional<Job>(std::move(job));
}

Result<std::vector<Job>> RedisJobStore::List(std::string_view account_id, int limit) {
  return ListBefore(account_id, 0, limit);
}

Result<std::vector<Job>> RedisJobStore::ListBefore(std::string_view account_id, int64_t before_ms,
                                                   int limit) {
  // before_ms > 0: the scores are creation times, so "(before_ms" is the exclusive bound.
  auto ids = before_ms > 0
                 ? redis_.Command({"ZREVRANGEBYSCORE", AccountKey(account_id, "jobs"),
                                   "(" + std::to_string(before_ms), "-inf", "LIMIT", "0",
                                   std::to_string(limit)})
                 : redis_.Command({"ZREVRANGE", AccountKey(account_id, "jobs"), "0",
                                   std::to_string(limit - 1)});
  if (!ids.ok()) return ids.status();
  std::vector<std::vector<std::string>> cmds;
  for (const auto& id : ids->elements) cmds.push_back({"HGETALL", JobKey(account_id, id.str)});
  std::vector<Job> jobs;
  if (cmds.empty()) return jobs;
  auto replies = redis_.Pipeline(cmds);
  if (!replies.ok()) return replies.status();
  for (const auto& r : *replies) {
    if (r.is_error() || r.elements.empty()) continue;  // expired between the two reads
    jobs.push_back(JobFromHash(Pairs(r)));
  }
  return jobs;
}

Result<std::vector<Job>> RedisJobStore::Query(std::string_view account_id, const JobQuery& q) {
  // The newest jobs in rounds of kRound: their feed and filename first, then the whole hash of
  // those that match. At most kJobQueryScan are looked at. Each round starts at the last one's
  // creation time, inclusive (jobs may share a millisecond); ids already seen are skipped.
  constexpr int kRound = 200;
  std::vector<Job> jobs;
  std::unordered_set<std::string> seen;
  std::string upper = q.before_ms > 0 ? "(" + std::to_string(q.before_ms) : "+inf";
  int scanned = 0;
  while (scanned < kJobQueryScan && static_cast<int>(jobs.size()) < q.limit) {
    auto ids = redis_.Command({"ZREVRANGEBYSCORE", AccountKey(account_id, "jobs"), upper, "-inf",
                               "WITHSCORES", "LIMIT", "0", std::to_string(kRound)});
    if (!ids.ok()) return ids.status();
    const size_t n = ids->elements.size() / 2;
    std::vector<std::string> fresh;
    for (size_t i = 0; i < n; ++i) {
      if (seen.insert(ids->elements[2 * i].str).second) fresh.push_back(ids->elements[2 * i].str);
    }
    if (fresh.empty()) break;
    std::vector<std::vector<std::string>> field_cmds;
    for (const auto& id : fresh) field_cmds.push_back({"HMGET", JobKey(account_id, id), "feed", "filename"});
    auto fields = redis_.Pipeline(field_cmds);
    if (!fields.ok()) return fields.status();
    std::vector<std::vector<std::string>> gets;
    for (size_t i = 0; i < fresh.size(); ++i) {
      const RedisReply& r = (*fields)[i];
      if (r.is_error() || r.elements.size() != 2) continue;
      if (JobMatches(q, r.elements[0].str, r.elements[1].str)) {
        gets.push_back({"HGETALL", JobKey(account_id, fresh[i])});
      }
    }
    if (!gets.empty()) {
      auto replies = redis_.Pipeline(gets);
      if (!replies.ok()) return replies.status();
      for (const auto& r : *replies) {
        if (r.is_error() || r.elements.empty()) continue;  // expired between the reads
        if (static_cast<int>(jobs.size()) < q.limit) jobs.push_back(JobFromHash(Pairs(r)));
      }
    }
    scanned += static_cast<int>(fresh.size());
    if (n < static_cast<size_t>(kRound)) break;
    upper = ids->elements[2 * n - 1].str;
  }
  return jobs;
}

Status RedisJobStore::KeepUpload(const KeptUpload& up, std::string_view file) {
  const std::string& a = up.account_id;
  Job pseudo;  // the bytes are reserved as a job's are, under the upload's id
  pseudo.id = up.id;
  pseudo.account_id = a;
  pseudo.file_bytes = up.bytes;
  if (Status s = ReserveBytes(pseudo); !s.ok()) return s;
  const std::string ttl = std::to_string(limits_.kept_upload_ttl.count());
  const std::string file_key = JobPartKey(a, up.id, "file");
  const std::string kept_key = JobPartKey(a, up.id, "kept");
  const std::string list_key = AccountKey(a, "kept");
  constexpr size_t kPiece = 1 << 20;
  std::vector<std::vector<std::string>> keep_cmds;
  for (size_t at = 0; at < file.size(); at += kPiece) {
    keep_cmds.push_back({"RPUSH", file_key, CompressPiece(file.substr(at, kPiece))});
  }
  // The account's list is ordered by when each was kept, in microseconds; one kept before
  // now - ttl has expired (an entry an earlier version scored in milliseconds counts as expired:
  // its keys still expire with their ttl).
  const int64_t ttl_us = limits_.kept_upload_ttl.count() * 1'000'000;
  const int64_t kept_us =
      up.kept_us > 0 ? up.kept_us : up.expires_ms * 1000 - ttl_us;
  keep_cmds.push_back({"EXPIRE", file_key, ttl});
  keep_cmds.push_back({"HSET", kept_key, "filename", up.filename, "content_type", up.content_type,
                  "bytes", std::to_string(up.bytes), "expires_ms", std::to_string(up.expires_ms)});
  keep_cmds.push_back({"EXPIRE", kept_key, ttl});
  keep_cmds.push_back({"DEL", JobPartKey(a, up.id, "reserved")});
  keep_cmds.push_back({"ZREMRANGEBYSCORE", list_key, "-inf",
                       "(" + std::to_string(kept_us - ttl_us)});
  keep_cmds.push_back({"ZADD", list_key, std::to_string(kept_us), up.id});
  keep_cmds.push_back({"EXPIRE", list_key, ttl});
  keep_cmds.push_back({"ZRANGE", list_key, "0", "-1"});
  auto replies = redis_.Pipeline(keep_cmds);
  if (Status s = CheckReplies(replies); !s.ok()) {
    IgnoreError(DropKeptUpload(a, up.id), "best effort: what is left expires with kept_upload_ttl");
    return s;
  }
  // Past the account's limit, the oldest go; this one is the newest whatever the clocks say (two
  // gateways' clocks may differ by more than the time between two previews).
  const RedisReply& all = replies->back();
  int extra = static_cast<int>(all.elements.size()) - limits_.max_kept_uploads;
  for (size_t i = 0; i < all.elements.size() && extra > 0; ++i) {
    if (all.elements[i].str == up.id) continue;
    // Best effort: one left behind expires with kept_upload_ttl.
    IgnoreError(DropKeptUpload(a, all.elements[i].str), "it expires with kept_upload_ttl");
    --extra;
  }
  return Status::Ok();
}

Result<std::optional<std::pair<KeptUpload, std::string>>> RedisJobStore::KeptUploadFile(
    std::string_view account_id, std::string_view id) {
  using Found = std::optional<std::pair<KeptUpload, std::string>>;
  auto replies = redis_.Pipeline({{"HGETALL", JobPartKey(account_id, id, "kept")},
                                  {"LRANGE", JobPartKey(account_id, id, "file"), "0", "-1"}});
  if (Status s = CheckReplies(replies); !s.ok()) return s;
  if ((*replies)[0].elements.empty() || (*replies)[1].elements.empty()) return Found();
  KeptUpload up;
  up.id = id;
  up.account_id = account_id;
  for (const auto& [k, v] : Pairs((*replies)[0])) {
    if (k == "filename") up.filename = v;
    else if (k == "content_type") up.content_type = v;
    else if (k == "bytes") up.bytes = Int(v);
    else if (k == "expires_ms") up.expires_ms = Int(v);
  }
  std::string file;
  file.reserve(static_cast<size_t>(up.bytes));
  for (auto& e : (*replies)[1].elements) {
    auto piece = DecompressPiece(e.str);
    if (!piece.ok()) return piece.status();
    file += *piece;
  }
  if (static_cast<int64_t>(file.size()) != up.bytes) return Found();  // partly expired
  return Found(std::make_pair(std::move(up), std::move(file)));
}

Status RedisJobStore::DropKeptUpload(std::string_view account_id, std::string_view id) {
  auto r = redis_.Pipeline(
      {{"DEL", JobPartKey(account_id, id, "file"), JobPartKey(account_id, id, "kept")},
       {"HDEL", AccountKey(account_id, "job_bytes"), std::string(id)},
       {"ZREM", AccountKey(account_id, "kept"), std::string(id)}});
  return CheckReplies(r);
}

Result<std::vector<std::string>> RedisJobStore::Issues(const Job& snapshot, int64_t offset,
                                                       int64_t count) {
  auto committed = Committed(snapshot);
  if (!committed.ok()) return committed.status();
  const Job& job = *committed;
  // The records in the :issues list: every issue of a job stored before the artifact store, or
  // those not yet in a whole page.
  auto list = [&](int64_t from, int64_t n) -> Result<std::vector<std::string>> {
    const int64_t stop = n < 0 ? -1 : from + n - 1;
    auto reply = redis_.Command({"LRANGE", JobPartKey(job.account_id, job.id, "issues"),
                                 std::to_string(from), std::to_string(stop)});
    if (!reply.ok()) return reply.status();
    std::vector<std::string> out;
    out.reserve(reply->elements.size());
    for (auto& e : reply->elements) out.push_back(std::move(e.str));
    return out;
  };
  if (job.issue_pages == 0) return list(offset, count);
  if (artifacts_ == nullptr) return NoStore(job);
  return ReadIssues(*artifacts_, job, offset, count, list);
}

Result<std::optional<std::string>> RedisJobStore::FixesPiece(const Job& snapshot, int64_t index) {
  auto committed = Committed(snapshot);
  if (!committed.ok()) return committed.status();
  const Job& job = *committed;
  if (index < job.fix_pieces) {
    if (artifacts_ == nullptr) return NoStore(job);
    auto piece = ReadPiece(*artifacts_, FixPieceKey(job, job.output_attempt, index));
    if (!piece.ok()) return piece.status();
    return std::optional<std::string>(std::move(*piece));
  }
  auto reply = redis_.Command({"LINDEX", JobPartKey(job.account_id, job.id, "fixes"),
                               std::to_string(index - job.fix_pieces)});
  if (!reply.ok()) return reply.status();
  if (reply->is_nil()) return std::optional<std::string>();
  return std::optional<std::string>(std::move(reply->str));
}

Result<std::optional<std::string>> RedisJobStore::CleanedPiece(const Job& snapshot,
                                                               int64_t index) {
  auto committed = Committed(snapshot);
  if (!committed.ok()) return committed.status();
  const Job& job = *committed;
  if (index < job.cleaned_pieces) {
    if (artifacts_ == nullptr) return NoStore(job);
    auto piece = ReadPiece(*artifacts_, CleanedPieceKey(job, job.output_attempt, index));
    if (!piece.ok()) return piece.status();
    return std::optional<std::string>(std::move(*piece));
  }
  auto reply = redis_.Command({"LINDEX", JobPartKey(job.account_id, job.id, "cleaned"),
                               std::to_string(index - job.cleaned_pieces)});
  if (!reply.ok()) return reply.status();
  if (reply->is_nil()) return std::optional<std::string>();
  auto piece = DecodePiece(job.pieces, std::move(reply->str));
  if (!piece.ok()) return piece.status();
  return std::optional<std::string>(std::move(*piece));
}

Result<std::string> RedisJobStore::Summary(const Job& job) {
  auto reply = redis_.Command({"GET", JobPartKey(job.account_id, job.id, "summary")});
  if (!reply.ok()) return reply.status();
  return reply->is_nil() ? std::string() : std::move(reply->str);
}

Result<IdempotencyRecord> RedisJobStore::ClaimIdempotencyKey(std::string_view account_id,
                                                             std::string_view key,
                                                             std::string_view body_hash,
                                                             std::string_view job_id) {
  auto r = redis_.Eval(scripts::kClaimIdempotency, {IdempotencyKey(account_id, key)},
                       {std::string(body_hash) + " " + std::string(job_id),
                        std::to_string(limits_.idempotency_ttl.count())});
  if (!r.ok()) return r.status();
  IdempotencyRecord rec;
  if (!r->elements.empty() && r->elements[0].integer == 1) {
    rec.fresh = true;
    rec.body_hash = body_hash;
    rec.job_id = job_id;
    return rec;
  }
  const std::string stored = r->elements.size() > 1 ? r->elements[1].str : "";
  const size_t space = stored.find(' ');
  rec.body_hash = stored.substr(0, space);
  rec.job_id = space == std::string::npos ? "" : stored.substr(space + 1);
  return rec;
}

Status RedisJobStore::ReleaseIdempotencyKey(std::string_view account_id, std::string_view key,
                                            std::string_view body_hash, std::string_view job_id) {
  auto r = redis_.Eval(scripts::kReleaseIdempotency, {IdempotencyKey(account_id, key)},
                       {std::string(body_hash) + " " + std::string(job_id)});
  return r.ok() ? Status::Ok() : r.status();
}

Result<Claim> RedisJobStore::ClaimJob(std::string_view account_id, std::string_view id,
                                      std::string_view started_at) {
  // Durable: the attempt starts only once its claim would survive a failover (a claim lost with
  // the master would leave this attempt's work to be refused and its count lost).
  auto d = redis_.EvalDurable(
      scripts::kClaim,
      {JobKey(account_id, id), JobPartKey(account_id, id, "issues"),
       JobPartKey(account_id, id, "cleaned"), JobPartKey(account_id, id, "summary"),
       AccountKey(account_id, "job_bytes"), JobPartKey(account_id, id, "fixes")},
      {std::string(started_at), std::string(id), RandomBase62(22)});
  if (!d.ok()) return d.status();
  const RedisReply* r = &d->reply;
  Claim c;
  const std::string kind = r->elements.empty() ? "gone" : r->elements[0].str;
  if (kind == "gone" || r->elements.size() < 2) return c;
  // A claim, or a finished job's unpublished event (the finish must be replicated before its
  // event goes out): both wrote, and wait for their replicas.
  if ((kind == "run" || kind == "finished") && !d->confirmed) return redis_.NotReplicated(*d);
  c.job = JobFromHash(Pairs(r->elements[1]));
  if (c.job.account_id != account_id) return Claim{};
  c.kind = kind == "finished"       ? ClaimKind::kFinished
           : kind == "not_accepted" ? ClaimKind::kNotAccepted
                                    : ClaimKind::kRun;
  if (c.kind == ClaimKind::kRun && artifacts_ != nullptr) {
    // The objects of earlier attempts are no longer named by the job: drop them now rather than
    // wait for the sweep (best effort; a fenced-out attempt may still add some, the sweep's).
    auto prefix = artifact::JobPrefix(account_id, id);
    auto objects = prefix.ok() ? artifacts_->ListAll(*prefix) : Result<std::vector<artifact::ObjectInfo>>(prefix.status());
    std::string last;
    for (const auto& o : objects.ok() ? *objects : std::vector<artifact::ObjectInfo>{}) {
      auto name = artifact::ParseObjectKey(o.key);
      if (!name || name->attempt == artifact::kUploadAttempt || name->attempt == AttemptName(c.job) ||
          name->attempt == last) {
        continue;
      }
      last = name->attempt;
      DeleteObjects(artifact::AttemptPrefix(account_id, id, name->attempt));
    }
  }
  return c;
}

Result<std::string> RedisJobStore::FilePiece(const Job& job, int64_t index) {
  if (job.file_store == kFileInStore) {
    if (artifacts_ == nullptr) return NoStore(job);
    auto key = FilePieceKey(job, index);
    if (!key.ok()) return key.status();
    auto stored = artifacts_->GetAll(*key, static_cast<int64_t>(kMaxPieceBytes));
    if (stored.ok()) return DecodePiece(job.pieces, std::move(*stored));
    if (stored.status().code() != ErrorCode::kNotFound) return stored.status();
    auto exists = redis_.Command({"EXISTS", JobKey(job.account_id, job.id)});
    if (exists.ok() && exists->integer == 0) {
      return Status(ErrorCode::kNotFound, "job " + job.id + " was deleted");
    }
    return Status(ErrorCode::kInternal,
                  "piece " + std::to_string(index) + " of the upload is missing");
  }
  auto reply =
      redis_.Command({"LINDEX", JobPartKey(job.account_id, job.id, "file"), std::to_string(index)});
  if (!reply.ok()) return reply.status();
  if (reply->is_nil()) {
    // Deleted with the job, or (a bug) lost: either way this attempt cannot go on.
    auto exists = redis_.Command({"EXISTS", JobKey(job.account_id, job.id)});
    if (exists.ok() && exists->integer == 0) {
      return Status(ErrorCode::kNotFound, "job " + job.id + " was deleted");
    }
    return Status(ErrorCode::kInternal,
                  "piece " + std::to_string(index) + " of the upload is missing");
  }
  return DecodePiece(job.pieces, std::move(reply->str));
}

Status RedisJobStore::RunWrite(const Job& job, const JobWrite& w, const JobEnd* end) {
  const std::string& a = job.account_id;
  // With the artifact store, the write's whole issue pages and its fixes piece are objects,
  // written first; the script below commits them (the counts in `committed`) with the batch.
  const std::vector<std::string>* pushed = &w.issues;  // what the :issues list gets
  std::vector<std::string> records;
  bool replace_tail = false;
  // The account's bytes count what is really stored (issue 34, point 4): records in the Redis
  // list at their size, pages and pieces in the store at their compressed size. paged_bytes is
  // the change the pages make: their bytes, less those of the records that leave the list.
  int64_t paged_bytes = 0;
  std::string fixes_in_redis = w.fixes;
  int64_t fix_bytes = static_cast<int64_t>(w.fixes.size());
  std::vector<std::string> committed;
  if (artifacts_ != nullptr) {
    const std::string attempt = AttemptName(job);
    auto state = redis_.Pipeline({{"HMGET", JobKey(a, job.id), "issue_pages", "fix_pieces"},
                                  {"LRANGE", JobPartKey(a, job.id, "issues"), "0", "-1"}});
    if (Status s = CheckReplies(state); !s.ok()) return s;
    const RedisReply& counts = (*state)[0];
    const int64_t pages = counts.elements.size() > 0 ? Int(counts.elements[0].str) : 0;
    int64_t fix_pieces = counts.elements.size() > 1 ? Int(counts.elements[1].str) : 0;
    for (auto& e : (*state)[1].elements) records.push_back(std::move(e.str));
    const size_t tail = records.size();
    records.insert(records.end(), w.issues.begin(), w.issues.end());
    const PageCut cut = CutPages(tail, w.issues.size(), end != nullptr);
    // Each page and the fixes piece encoded and put by a task of its own, several at once
    // (RunAll): the puts wait on the disk or the network.
    std::vector<std::function<Status()>> puts;
    std::atomic<int64_t> page_bytes{0};
    for (int64_t p = 0; p < cut.pages; ++p) {
      const size_t from = static_cast<size_t>(p * kIssuesPerPage);
      const size_t n = std::min(static_cast<size_t>(kIssuesPerPage), cut.paged_records - from);
      auto key = IssuePageKey(job, attempt, pages + p + 1);
      if (!key.ok()) return key.status();
      puts.push_back([this, &records, &page_bytes, from, n, key = std::move(*key)] {
        const std::string page = EncodeIssuePage(records, from, n);
        page_bytes += static_cast<int64_t>(page.size());
        return artifacts_->Put(key, page);
      });
    }
    if (!w.fixes.empty()) {
      auto key = FixPieceKey(job, attempt, fix_pieces);
      if (!key.ok()) return key.status();
      puts.push_back([this, &w, &fix_bytes, key = std::move(*key)] {
        const std::string piece = CompressPiece(w.fixes);
        fix_bytes = static_cast<int64_t>(piece.size());  // only this task writes it
        return artifacts_->Put(key, piece);
      });
      ++fix_pieces;
      fixes_in_redis.clear();
    }
    if (Status s = RunAll(puts, kPutThreads); !s.ok()) return s;
    paged_bytes += page_bytes.load();
    if (cut.replace_tail) {  // after the puts, which read the records
      // The list is replaced: the records it held (counted when they were pushed) leave it.
      for (size_t i = 0; i < tail; ++i) paged_bytes -= static_cast<int64_t>(records[i].size());
      records.erase(records.begin(), records.begin() + static_cast<ptrdiff_t>(cut.paged_records));
      pushed = &records;
      replace_tail = true;
    }
    committed = {"issue_pages", std::to_string(pages + cut.pages),
                 "fix_pieces", std::to_string(fix_pieces),
                 "output_attempt", attempt};
  }
  std::vector<std::string> hset = WriteHashArgs(job, w, end != nullptr);
  hset.insert(hset.end(), committed.begin(), committed.end());
  std::vector<std::string> args = {job.claim_id,
                                   job.id,
                                   std::to_string(limits_.ttl.count()),
                                   w.summary_json,
                                   fixes_in_redis,
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
                                   std::to_string(fix_bytes),
                                   std::to_string(hset.size())};
  args.reserve(args.size() + hset.size() + 3 + pushed->size());
  for (auto& v : hset) args.push_back(std::move(v));
  args.push_back(std::to_string(pushed->size()));
  args.insert(args.end(), pushed->begin(), pushed->end());
  args.push_back(replace_tail ? "1" : "0");
  args.push_back(std::to_string(paged_bytes));
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
