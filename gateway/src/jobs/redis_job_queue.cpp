#include "redis_job_queue.h"

#include <algorithm>
#include <cstdlib>

#include "dq/common/partitions.h"

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

std::optional<QueueEntry> EntryFrom(int partition, const RedisReply& e) {
  // [id, [field, value, ...]]; a deleted entry has a nil field list.
  if (e.elements.size() < 2) return std::nullopt;
  QueueEntry q;
  q.entry_id = PartitionedId(partition, e.elements[0].str);
  const auto& f = e.elements[1].elements;
  for (size_t i = 0; i + 1 < f.size(); i += 2) {
    if (f[i].str == "account_id") q.account_id = f[i + 1].str;
    if (f[i].str == "job_id") q.job_id = f[i + 1].str;
  }
  return q;
}

bool NoGroup(const Status& s) { return s.message().find("NOGROUP") != std::string::npos; }

// The worker index a consumer's name ends with ("host-pid-3": 3), or -1.
int WorkerIndex(const std::string& consumer) {
  const size_t dash = consumer.rfind('-');
  if (dash == std::string::npos || dash + 1 == consumer.size()) return -1;
  const std::string digits = consumer.substr(dash + 1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      digits.size() > 6) {
    return -1;
  }
  return std::atoi(digits.c_str());
}

}  // namespace

std::string JobQueueKey(int partition) { return PartitionKey(kJobQueueKey, partition); }

RedisJobQueue::RedisJobQueue(RedisClient& redis, RedisClient& blocking, int partitions,
                             int workers)
    : redis_(redis),
      blocking_(blocking),
      partitions_(std::clamp(partitions > 0 ? partitions : redis.options().partitions, 1,
                             kMaxPartitions)),
      workers_(std::max(0, workers)) {}

std::vector<int> RedisJobQueue::ShareOf(const std::string& consumer) const {
  const int index = WorkerIndex(consumer);
  std::vector<int> share;
  if (workers_ == 0 || index < 0) {
    for (int p = 0; p < partitions_; ++p) share.push_back(p);
    share.push_back(kLegacyPartition);
    return share;
  }
  share = PartitionShare(index, workers_, partitions_);
  if (index % workers_ == 0) share.push_back(kLegacyPartition);
  return share;
}

Status RedisJobQueue::EnsureGroupOn(int partition) {
  auto r = redis_.Command(
      {"XGROUP", "CREATE", JobQueueKey(partition), kJobQueueGroup, "0", "MKSTREAM"});
  if (!r.ok() && r.status().message().find("BUSYGROUP") == std::string::npos) return r.status();
  return Status::Ok();
}

Status RedisJobQueue::EnsureGroup() {
  for (int p = kLegacyPartition; p < partitions_; ++p) {
    if (Status s = EnsureGroupOn(p); !s.ok()) return s;
  }
  return Status::Ok();
}

Status RedisJobQueue::Enqueue(const std::string& account_id, const std::string& job_id) {
  // Durable: an accepted job's entry must survive a failover (in Redis Cluster the queue is on
  // another master than the job). Unconfirmed, the upload answers 503 and abandons the job; a
  // worker that takes the entry finds the job gone and acknowledges it.
  auto r = redis_.CommandDurable({"XADD", JobQueueKey(PartitionOf(account_id, partitions_)), "*",
                                  "account_id", account_id, "job_id", job_id});
  if (!r.ok()) return r.status();
  return r->confirmed ? Status::Ok() : redis_.NotReplicated(*r);
}

Result<std::optional<QueueEntry>> RedisJobQueue::ReadOne(int partition,
                                                         const std::string& consumer,
                                                         std::chrono::milliseconds block) {
  std::vector<std::string> argv = {"XREADGROUP", "GROUP", kJobQueueGroup, consumer, "COUNT", "1"};
  if (block.count() > 0) argv.insert(argv.end(), {"BLOCK", std::to_string(block.count())});
  argv.insert(argv.end(), {"STREAMS", JobQueueKey(partition), ">"});
  auto r = (block.count() > 0 ? blocking_ : redis_).Command(argv);
  if (!r.ok()) {
    // The group vanishes if the stream was deleted (FLUSHALL, a fresh Redis): recreate it.
    if (NoGroup(r.status())) {
      if (Status s = EnsureGroupOn(partition); !s.ok()) return s;
      return std::optional<QueueEntry>();
    }
    return r.status();
  }
  if (r->is_nil() || r->elements.empty()) return std::optional<QueueEntry>();
  const auto& entries = r->elements[0].elements.size() > 1 ? r->elements[0].elements[1].elements
                                                           : std::vector<RedisReply>{};
  if (entries.empty()) return std::optional<QueueEntry>();
  return EntryFrom(partition, entries[0]);
}

Result<std::optional<QueueEntry>> RedisJobQueue::Next(const std::string& consumer,
                                                      std::chrono::milliseconds block) {
  std::vector<int> share;
  size_t start = 0;
  {
    std::lock_guard lock(mu_);
    Cursor& c = cursors_[consumer];
    if (c.share.empty()) c.share = ShareOf(consumer);
    share = c.share;
    start = c.next;
  }
  const size_t n = share.size();
  auto advance = [&](size_t to) {
    std::lock_guard lock(mu_);
    cursors_[consumer].next = to % n;
  };
  // Every partition of the share once, without blocking, from where the last call stopped: a
  // busy partition cannot starve the others.
  Status failed = Status::Ok();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (start + k) % n;
    auto got = ReadOne(share[i], consumer, std::chrono::milliseconds(0));
    if (!got.ok()) {
      failed = got.status();
      continue;
    }
    if (got->has_value()) {
      advance(i + 1);
      return got;
    }
  }
  if (!failed.ok()) return failed;
  // Nothing anywhere: wait on one partition (in turn) for a share of the block time. Never on
  // the old stream: no release writes it any more, and a wait there would hold up a job queued
  // on the partition (with one partition, the wait is always on it: no delay at all).
  std::vector<size_t> waitable;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (start + k) % n;
    if (share[i] != kLegacyPartition) waitable.push_back(i);
  }
  if (waitable.empty() || block.count() <= 0) {
    advance(start + 1);
    return std::optional<QueueEntry>();
  }
  const auto wait = std::max(std::chrono::milliseconds(50),
                             block / static_cast<int64_t>(waitable.size()));
  const size_t i = waitable.front();
  advance(i + 1);
  return ReadOne(share[i], consumer, wait);
}

Result<std::vector<QueueEntry>> RedisJobQueue::ReclaimOn(int partition,
                                                         const std::string& consumer,
                                                         std::chrono::milliseconds min_idle,
                                                         int count) {
  auto r = redis_.Command({"XAUTOCLAIM", JobQueueKey(partition), kJobQueueGroup, consumer,
                           std::to_string(min_idle.count()), "0-0", "COUNT",
                           std::to_string(count)});
  if (!r.ok()) {
    if (NoGroup(r.status())) {
      if (Status s = EnsureGroupOn(partition); !s.ok()) return s;
      return std::vector<QueueEntry>();
    }
    return r.status();
  }
  std::vector<QueueEntry> out;
  if (r->elements.size() >= 2) {
    for (const auto& e : r->elements[1].elements) {
      if (auto q = EntryFrom(partition, e)) out.push_back(std::move(*q));
    }
  }
  return out;
}

Result<std::vector<QueueEntry>> RedisJobQueue::Reclaim(const std::string& consumer,
                                                       std::chrono::milliseconds min_idle,
                                                       int count) {
  // Every partition and the old stream: a dead process's entries may be in any of them.
  std::vector<QueueEntry> out;
  Status failed = Status::Ok();
  for (int p = kLegacyPartition; p < partitions_ && static_cast<int>(out.size()) < count; ++p) {
    auto got = ReclaimOn(p, consumer, min_idle, count - static_cast<int>(out.size()));
    if (!got.ok()) {
      failed = got.status();
      continue;
    }
    for (auto& e : *got) out.push_back(std::move(e));
  }
  if (out.empty() && !failed.ok()) return failed;
  return out;
}

Result<bool> RedisJobQueue::Heartbeat(const std::string& consumer, const std::string& entry_id) {
  auto id = ParsePartitionedId(entry_id);
  if (!id) return Status(ErrorCode::kInvalidRequest, "not a queue entry id: " + entry_id);
  auto r = redis_.Eval(kHeartbeatScript, {JobQueueKey(id->first)},
                       {kJobQueueGroup, consumer, id->second});
  if (!r.ok()) return r.status();
  return r->integer == 1;
}

Status RedisJobQueue::Ack(const std::string& entry_id) {
  auto id = ParsePartitionedId(entry_id);
  if (!id) return Status(ErrorCode::kInvalidRequest, "not a queue entry id: " + entry_id);
  const std::string key = JobQueueKey(id->first);
  auto r = redis_.Pipeline({{"XACK", key, kJobQueueGroup, id->second}, {"XDEL", key, id->second}});
  return r.ok() ? Status::Ok() : r.status();
}

}  // namespace dq::gateway
