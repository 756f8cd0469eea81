// The rate limiter's series, declared once (docs/deploy.md lists the gateway's). Each appears on
// /metrics at its first use.
#pragma once

#include "dq/common/metrics.h"

namespace dq::gateway {

struct RateLimitMetrics {
  explicit RateLimitMetrics(Metrics& registry)
      : uncounted(registry, "dq_rate_limit_uncounted_total",
                  "Reads and deletes let through uncounted because the rate-limit counter could "
                  "not be written (Redis full or unreachable)") {}
  // The process's, over Metrics::Global() (what /metrics shows).
  static RateLimitMetrics& Global() {
    static RateLimitMetrics* metrics = new RateLimitMetrics(Metrics::Global());  // never destroyed
    return *metrics;
  }

  LazyCounter uncounted;  // dq_rate_limit_uncounted_total: AcquireOrPass's passes
};

}  // namespace dq::gateway
