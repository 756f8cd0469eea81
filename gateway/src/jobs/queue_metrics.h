// The job queue's size as series, declared once (queue_stats.h says what each means;
// docs/deploy.md, "Scaling the workers"). Each appears on /metrics at its first use: the gauges
// at the first sample that read the queue, the error counter at the first that failed.
#pragma once

#include "dq/common/metrics.h"

namespace dq::gateway {

struct QueueMetrics {
  explicit QueueMetrics(Metrics& registry)
      : depth(registry, "dq_jobs_queue_depth", "Jobs queued and not yet taken by a worker"),
        in_progress(registry, "dq_jobs_in_progress", "Jobs taken by a worker and not finished"),
        oldest_queued_age_seconds(
            registry, "dq_jobs_oldest_queued_age_seconds",
            "Age of the oldest job not yet taken by a worker (0: none waits)"),
        stats_errors(registry, "dq_jobs_queue_stats_errors_total",
                     "Failed reads of the job queue's size") {}
  // The process's, over Metrics::Global() (what /metrics shows).
  static QueueMetrics& Global() {
    static QueueMetrics* metrics = new QueueMetrics(Metrics::Global());  // never destroyed
    return *metrics;
  }

  LazyGauge depth;                      // dq_jobs_queue_depth
  LazyGauge in_progress;                // dq_jobs_in_progress
  LazyGauge oldest_queued_age_seconds;  // dq_jobs_oldest_queued_age_seconds
  LazyCounter stats_errors;             // dq_jobs_queue_stats_errors_total
};

}  // namespace dq::gateway
