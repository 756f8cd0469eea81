#include "queue_stats.h"

#include <algorithm>
#include <charconv>

#include "dq/common/log.h"
#include "dq/common/partitions.h"
#include "redis_job_queue.h"

namespace dq::gateway {
namespace {

// KEYS[1] the queue stream (one partition), ARGV[1] the consumer group. Entries still in the
// stream are either pending (taken, not acknowledged) or not yet delivered: acknowledged entries
// are deleted (RedisJobQueue::Ack: XACK + XDEL), so waiting = XLEN - pending. The oldest waiting
// entry is the first one after the group's last-delivered id.
const RedisScript& StatsScript() {
  static const RedisScript script(R"lua(
local len = redis.call('XLEN', KEYS[1])
if len == 0 then return {0, 0, ''} end
local pending, last = 0, '0-0'
local ok, groups = pcall(redis.call, 'XINFO', 'GROUPS', KEYS[1])
if ok then
  for _, g in ipairs(groups) do
    local name, p, l
    for i = 1, #g, 2 do
      if g[i] == 'name' then name = g[i + 1]
      elseif g[i] == 'pending' then p = g[i + 1]
      elseif g[i] == 'last-delivered-id' then l = g[i + 1] end
    end
    if name == ARGV[1] then pending, last = p, l end
  end
end
local first = redis.call('XRANGE', KEYS[1], '(' .. last, '+', 'COUNT', 1)
local oldest = ''
if #first > 0 then oldest = first[1][1] end
return {len - pending, pending, oldest}
)lua");
  return script;
}

}  // namespace

Result<QueueStats> QueueStatsFromReply(const RedisReply& reply, int64_t now_ms) {
  if (reply.type != RedisReply::Type::kArray || reply.elements.size() != 3 ||
      reply.elements[0].type != RedisReply::Type::kInteger ||
      reply.elements[1].type != RedisReply::Type::kInteger) {
    return Status(ErrorCode::kInternal, "unexpected queue statistics reply");
  }
  QueueStats stats;
  stats.waiting = std::max<int64_t>(0, reply.elements[0].integer);
  stats.in_progress = std::max<int64_t>(0, reply.elements[1].integer);
  const std::string& oldest = reply.elements[2].str;
  if (stats.waiting > 0 && !oldest.empty()) {
    int64_t created_ms = 0;
    const char* end = oldest.data() + oldest.size();
    auto [ptr, ec] = std::from_chars(oldest.data(), end, created_ms);
    if (ec != std::errc() || (ptr != end && *ptr != '-')) {
      return Status(ErrorCode::kInternal, "unexpected stream id " + oldest);
    }
    stats.oldest_waiting_age_ms = std::max<int64_t>(0, now_ms - created_ms);
  }
  return stats;
}

Result<QueueStats> RedisQueueStats::Read() {
  // Summed over the partitions and the old stream; the oldest waiting job is the oldest of any.
  const int partitions = std::clamp(redis_.options().partitions, 1, kMaxPartitions);
  const int64_t now_ms = UnixMillis(clock_.Now());
  QueueStats total;
  for (int p = kLegacyPartition; p < partitions; ++p) {
    auto r = redis_.Eval(StatsScript(), {JobQueueKey(p)}, {kJobQueueGroup});
    if (!r.ok()) return r.status();
    auto one = QueueStatsFromReply(*r, now_ms);
    if (!one.ok()) return one.status();
    total = SumQueueStats(total, *one);
  }
  return total;
}

QueueStats SumQueueStats(const QueueStats& a, const QueueStats& b) {
  QueueStats sum;
  sum.waiting = a.waiting + b.waiting;
  sum.in_progress = a.in_progress + b.in_progress;
  sum.oldest_waiting_age_ms = std::max(a.oldest_waiting_age_ms, b.oldest_waiting_age_ms);
  return sum;
}

void ExportQueueStats(const QueueStats& stats, QueueMetrics& metrics) {
  metrics.depth.Set(stats.waiting);
  metrics.in_progress.Set(stats.in_progress);
  metrics.oldest_queued_age_seconds.Set(stats.oldest_waiting_age_ms / 1000);
}

bool QueueMetricsSampler::SampleOnce() {
  auto stats = source_.Read();
  if (!stats.ok()) {
    metrics_.stats_errors.Inc();
    log::Debug("queue statistics unavailable", {{"error", stats.status().message()}});
    return false;
  }
  ExportQueueStats(*stats, metrics_);
  return true;
}

void QueueMetricsSampler::Start() {
  if (interval_.count() <= 0 || thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    stop_ = false;
  }
  thread_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!stop_) {
      lock.unlock();
      SampleOnce();
      lock.lock();
      cv_.wait_for(lock, interval_, [this] { return stop_; });
    }
  });
}

void QueueMetricsSampler::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace dq::gateway
