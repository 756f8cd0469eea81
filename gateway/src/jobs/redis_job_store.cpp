// RedisJobStore (redis_job_store.h), its core: storing an upload as a job (Create, StoreReserved),
// accepting it, removing it (abandon, retract, delete) with its objects, and reading jobs back
// (Get, List, ListBefore, Query). The other parts are in redis_job_store_*.cpp
// (redis_job_store_internal.h lists them); the helpers they share are defined here.
#include "redis_job_store.h"

#include <atomic>
#include <cstdlib>
#include <unordered_set>

#include "dq/artifact/object_key.h"
#include "dq/common/log.h"
#include "job_artifacts.h"
#include "limits/quota.h"
#include "piece_codec.h"
#include "redis_job_scripts.h"
#include "redis_job_store_internal.h"

namespace dq::gateway {

namespace redis_store {

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

std::string QuotaKey(const Job& job) {
  return AccountKey(job.account_id, "quota:" + job.quota_month);
}

std::string IdempotencyKey(std::string_view account_id, std::string_view key) {
  return AccountKey(account_id, "idem:" + std::string(key));
}

int64_t Int(const std::string& text) { return std::strtoll(text.c_str(), nullptr, 10); }

}  // namespace redis_store

using redis_store::CheckReplies;
using redis_store::IdempotencyKey;
using redis_store::Int;
using redis_store::Pairs;
using redis_store::QuotaKey;

std::string JobKey(std::string_view account_id, std::string_view id) {
  return AccountKey(account_id, "job:" + std::string(id));
}

std::string JobPartKey(std::string_view account_id, std::string_view id, std::string_view part) {
  return AccountKey(account_id, "job:" + std::string(id) + ":" + std::string(part));
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
    for (const auto& id : fresh) {
      field_cmds.push_back({"HMGET", JobKey(account_id, id), "feed", "filename"});
    }
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

}  // namespace dq::gateway
