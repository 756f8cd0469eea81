// How much work waits in the job queue, exported as Prometheus gauges so the worker role can be
// scaled on it (docs/deploy.md, "Scaling the workers"):
//
//   dq_jobs_queue_depth                 jobs queued and not yet taken by any worker
//   dq_jobs_in_progress                 jobs taken by a worker and not finished (a dead worker's
//                                       job counts here until another worker takes it over)
//   dq_jobs_oldest_queued_age_seconds   age of the oldest job not yet taken (0: none waits)
//
// Every gateway process, whatever its role, samples the shared queue on its own timer
// (DQ_QUEUE_METRICS_INTERVAL_MS), so the values are the same on every replica: aggregate them with
// max(), not sum().
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "dq/common/clock.h"
#include "dq/common/redis_client.h"
#include "dq/common/status.h"
#include "jobs/queue_metrics.h"

namespace dq::gateway {

struct QueueStats {
  int64_t waiting = 0;
  int64_t in_progress = 0;
  int64_t oldest_waiting_age_ms = 0;  // 0 when nothing waits
};

class QueueStatsSource {
 public:
  virtual ~QueueStatsSource() = default;
  // Errors: kUnavailable when the queue cannot be read.
  virtual Result<QueueStats> Read() = 0;
};

// Reads each partition of the queue (and the old single stream) and its consumer group in one
// Lua script each (one consistent snapshot per partition), and sums them.
class RedisQueueStats final : public QueueStatsSource {
 public:
  RedisQueueStats(RedisClient& redis, const Clock& clock) : redis_(redis), clock_(clock) {}
  Result<QueueStats> Read() override;

 private:
  RedisClient& redis_;
  const Clock& clock_;
};

// The script's reply {waiting, in_progress, oldest waiting entry id or ""} as QueueStats at
// now_ms (stream ids start with their creation time in ms). Errors: kInternal on another shape.
Result<QueueStats> QueueStatsFromReply(const RedisReply& reply, int64_t now_ms);

// Two partitions' statistics as one queue's: counts added, the older oldest waiting job.
QueueStats SumQueueStats(const QueueStats& a, const QueueStats& b);

// Sets the three gauges in metrics.
void ExportQueueStats(const QueueStats& stats, QueueMetrics& metrics);

// Reads the source every interval on its own thread and exports what it read. A failed read
// leaves the gauges as they were and counts dq_jobs_queue_stats_errors_total.
class QueueMetricsSampler {
 public:
  QueueMetricsSampler(QueueStatsSource& source, std::chrono::milliseconds interval,
                      QueueMetrics& metrics = QueueMetrics::Global())
      : source_(source), interval_(interval), metrics_(metrics) {}
  ~QueueMetricsSampler() { Stop(); }

  // Samples once at once, then every interval. Does nothing when interval is 0.
  void Start();
  void Stop();
  // One read and export; false when the read failed.
  bool SampleOnce();

 private:
  QueueStatsSource& source_;
  std::chrono::milliseconds interval_;
  QueueMetrics& metrics_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace dq::gateway
