// The orphan sweeper's series, declared once (docs/deploy.md lists the worker's).
#pragma once

#include "dq/common/metrics.h"

namespace dq::gateway {

struct SweepMetrics {
  explicit SweepMetrics(Metrics& registry)
      : errors(registry, "dq_artifact_sweep_errors_total",
               "Sweeps of orphaned job objects that stopped on an error"),
        objects_deleted(registry, "dq_artifact_sweep_objects_deleted_total",
                        "Orphaned job objects deleted by the sweep") {}
  // The process's, over Metrics::Global() (what /metrics shows).
  static SweepMetrics& Global() {
    static SweepMetrics* metrics = new SweepMetrics(Metrics::Global());  // never destroyed
    return *metrics;
  }

  // dq_artifact_sweep_errors_total: on /metrics from the first round (at 0 until one fails).
  LazyCounter errors;
  // dq_artifact_sweep_objects_deleted_total: on /metrics from the first round that swept.
  LazyCounter objects_deleted;
};

}  // namespace dq::gateway
