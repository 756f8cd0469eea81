#include "redis_job_queue.h"

namespace dq::gateway {
namespace {

// KEYS[1]: the queue. ARGV: group, consumer, entry id. Resets the entry's idle time only when
// consumer still owns it (XPENDING names the owner); a plain XCLAIM would take it from another.
const RedisScript kHeartbeatScript(R"lua(
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if #p == 0 or p[1][2] ~= ARGV[2] then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
)lua");

std::optional<QueueEntry> EntryFrom(const RedisReply& e) {
  // [id, [field, value, ...]]; a deleted entry has a nil field list.
  if (e.elements.size() < 2) return std::nullopt;
  QueueEntry q;
  q.entry_id = e.elements[0].str;
  const auto& f = e.elements[1].elements;
  for (size_t i = 0; i + 1 < f.size(); i += 2) {
    if (f[i].str == "account_id") q.account_id = f[i + 1].str;
    if (f[i].str == "job_id") q.job_id = f[i + 1].str;
  }
  return q;
}

}  // namespace

Status RedisJobQueue::EnsureGroup() {
  auto r = redis_.Command({"XGROUP", "CREATE", kJobQueueKey, kJobQueueGroup, "0", "MKSTREAM"});
  if (!r.ok() && r.status().message().find("BUSYGROUP") == std::string::npos) return r.status();
  return Status::Ok();
}

Status RedisJobQueue::Enqueue(const std::string& account_id, const std::string& job_id) {
  // Durable: an accepted job's entry must survive a failover (in Redis Cluster the queue is on
  // another master than the job). Unconfirmed, the upload answers 503 and abandons the job; a
  // worker that takes the entry finds the job gone and acknowledges it.
  auto r = redis_.CommandDurable(
      {"XADD", kJobQueueKey, "*", "account_id", account_id, "job_id", job_id});
  if (!r.ok()) return r.status();
  return r->confirmed ? Status::Ok() : redis_.NotReplicated(*r);
}

Result<std::optional<QueueEntry>> RedisJobQueue::Next(const std::string& consumer,
                                                 std::chrono::milliseconds block) {
  auto r = blocking_.Command({"XREADGROUP", "GROUP", kJobQueueGroup, consumer, "COUNT", "1",
                              "BLOCK", std::to_string(block.count()), "STREAMS", kJobQueueKey,
                              ">"});
  if (!r.ok()) {
    // The group vanishes if the stream was deleted (FLUSHALL, a fresh Redis): recreate it.
    if (r.status().message().find("NOGROUP") != std::string::npos) {
      if (Status s = EnsureGroup(); !s.ok()) return s;
      return std::optional<QueueEntry>();
    }
    return r.status();
  }
  if (r->is_nil() || r->elements.empty()) return std::optional<QueueEntry>();
  const auto& entries = r->elements[0].elements.size() > 1 ? r->elements[0].elements[1].elements
                                                           : std::vector<RedisReply>{};
  if (entries.empty()) return std::optional<QueueEntry>();
  return EntryFrom(entries[0]);
}

Result<std::vector<QueueEntry>> RedisJobQueue::Reclaim(const std::string& consumer,
                                                  std::chrono::milliseconds min_idle, int count) {
  auto r = redis_.Command({"XAUTOCLAIM", kJobQueueKey, kJobQueueGroup, consumer,
                           std::to_string(min_idle.count()), "0-0", "COUNT",
                           std::to_string(count)});
  if (!r.ok()) {
    if (r.status().message().find("NOGROUP") != std::string::npos) {
      if (Status s = EnsureGroup(); !s.ok()) return s;
      return std::vector<QueueEntry>();
    }
    return r.status();
  }
  std::vector<QueueEntry> out;
  if (r->elements.size() >= 2) {
    for (const auto& e : r->elements[1].elements) {
      if (auto q = EntryFrom(e)) out.push_back(std::move(*q));
    }
  }
  return out;
}

Result<bool> RedisJobQueue::Heartbeat(const std::string& consumer, const std::string& entry_id) {
  auto r = redis_.Eval(kHeartbeatScript, {kJobQueueKey}, {kJobQueueGroup, consumer, entry_id});
  if (!r.ok()) return r.status();
  return r->integer == 1;
}

Status RedisJobQueue::Ack(const std::string& entry_id) {
  auto r = redis_.Pipeline({{"XACK", kJobQueueKey, kJobQueueGroup, entry_id},
                            {"XDEL", kJobQueueKey, entry_id}});
  return r.ok() ? Status::Ok() : r.status();
}

}  // namespace dq::gateway
