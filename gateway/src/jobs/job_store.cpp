#include "job_store.h"

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

}  // namespace

std::string JobKey(std::string_view account_id, std::string_view id) {
  return AccountKey(account_id, "job:" + std::string(id));
}

std::string JobPartKey(std::string_view account_id, std::string_view id, std::string_view part) {
  return AccountKey(account_id, "job:" + std::string(id) + ":" + std::string(part));
}

Status RedisJobStore::Create(const Job& job, const std::vector<std::string_view>& file_chunks) {
  const std::string ttl = std::to_string(ttl_.count());
  const std::string file_key = JobPartKey(job.account_id, job.id, "file");
  // The file first, a few pieces per round trip (so the client never buffers more than that),
  // then the job itself: a job that exists always has its whole file.
  constexpr size_t kPiecesPerPush = 4;
  for (size_t i = 0; i < file_chunks.size(); i += kPiecesPerPush) {
    std::vector<std::string> push = {"RPUSH", file_key};
    for (size_t k = i; k < std::min(file_chunks.size(), i + kPiecesPerPush); ++k) {
      push.emplace_back(file_chunks[k]);
    }
    auto reply = redis_.Command(push);
    if (!reply.ok()) return reply.status();
  }
  std::vector<std::vector<std::string>> cmds;
  cmds.push_back({"EXPIRE", file_key, ttl});
  std::vector<std::string> hset = {"HSET", JobKey(job.account_id, job.id)};
  for (auto& a : JobToHashArgs(job)) hset.push_back(std::move(a));
  cmds.push_back(std::move(hset));
  cmds.push_back({"EXPIRE", JobKey(job.account_id, job.id), ttl});
  return CheckReplies(redis_.Pipeline(cmds));
}

Status RedisJobStore::AddToList(const Job& job) {
  const std::string list_key = AccountKey(job.account_id, "jobs");
  return CheckReplies(redis_.Pipeline({
      {"ZADD", list_key, std::to_string(job.created_ms), job.id},
      // Forget list entries of jobs that have expired.
      {"ZREMRANGEBYSCORE", list_key, "-inf",
       std::to_string(job.created_ms - ttl_.count() * 1000)},
      {"EXPIRE", list_key, std::to_string(ttl_.count())},
  }));
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

Status RedisJobStore::Save(const Job& job) {
  std::vector<std::string> hset = {"HSET", JobKey(job.account_id, job.id)};
  for (auto& a : JobToHashArgs(job)) hset.push_back(std::move(a));
  auto reply = redis_.Command(hset);
  return reply.ok() ? Status::Ok() : reply.status();
}

Result<std::string> RedisJobStore::FileChunk(const Job& job, int64_t index) {
  auto reply =
      redis_.Command({"LINDEX", JobPartKey(job.account_id, job.id, "file"), std::to_string(index)});
  if (!reply.ok()) return reply.status();
  if (reply->is_nil()) {
    return Status(ErrorCode::kInternal, "chunk " + std::to_string(index) + " of the upload is missing");
  }
  return std::move(reply->str);
}

Status RedisJobStore::DeleteFile(const Job& job) {
  auto reply = redis_.Command({"DEL", JobPartKey(job.account_id, job.id, "file")});
  return reply.ok() ? Status::Ok() : reply.status();
}

Status RedisJobStore::ResetResults(const Job& job) {
  auto reply = redis_.Command({"DEL", JobPartKey(job.account_id, job.id, "issues"),
                               JobPartKey(job.account_id, job.id, "cleaned")});
  return reply.ok() ? Status::Ok() : reply.status();
}

Status RedisJobStore::AppendIssues(const Job& job, const std::vector<std::string>& issues_json) {
  if (issues_json.empty()) return Status::Ok();
  const std::string key = JobPartKey(job.account_id, job.id, "issues");
  std::vector<std::string> push = {"RPUSH", key};
  push.insert(push.end(), issues_json.begin(), issues_json.end());
  return CheckReplies(redis_.Pipeline({push, {"EXPIRE", key, std::to_string(ttl_.count())}}));
}

Status RedisJobStore::AppendCleaned(const Job& job, std::string chunk) {
  const std::string key = JobPartKey(job.account_id, job.id, "cleaned");
  return CheckReplies(redis_.Pipeline(
      {{"RPUSH", key, std::move(chunk)}, {"EXPIRE", key, std::to_string(ttl_.count())}}));
}

Result<std::vector<std::string>> RedisJobStore::Issues(const Job& job, int64_t offset,
                                                       int64_t count) {
  const int64_t stop = count < 0 ? -1 : offset + count - 1;
  auto reply = redis_.Command({"LRANGE", JobPartKey(job.account_id, job.id, "issues"),
                               std::to_string(offset), std::to_string(stop)});
  if (!reply.ok()) return reply.status();
  std::vector<std::string> out;
  out.reserve(reply->elements.size());
  for (auto& e : reply->elements) out.push_back(std::move(e.str));
  return out;
}

Result<std::vector<std::string>> RedisJobStore::CleanedChunks(const Job& job) {
  auto reply =
      redis_.Command({"LRANGE", JobPartKey(job.account_id, job.id, "cleaned"), "0", "-1"});
  if (!reply.ok()) return reply.status();
  std::vector<std::string> out;
  for (auto& e : reply->elements) out.push_back(std::move(e.str));
  return out;
}

}  // namespace dq::gateway
