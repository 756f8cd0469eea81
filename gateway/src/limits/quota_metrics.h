// The quota's series, declared once (docs/deploy.md lists the gateway's). Each appears on
// /metrics at its first use.
#pragma once

#include "dq/common/metrics.h"

namespace dq::gateway {

struct QuotaMetrics {
  explicit QuotaMetrics(Metrics& registry)
      : release_errors(registry, "dq_quota_release_errors_total",
                       "Quota reservations of failed work that could not be given back") {}
  // The process's, over Metrics::Global() (what /metrics shows).
  static QuotaMetrics& Global() {
    static QuotaMetrics* metrics = new QuotaMetrics(Metrics::Global());  // never destroyed
    return *metrics;
  }

  LazyCounter release_errors;  // dq_quota_release_errors_total: ReleaseOrReport's failures
};

}  // namespace dq::gateway
