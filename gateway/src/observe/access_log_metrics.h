// The request metrics of the access log, declared once: RecordRequest counts every request in
// them. Label values come from the AccessRecord (method bounded by BoundedMethod, route a
// template), so the families stay small.
#pragma once

#include "dq/common/metrics.h"

namespace dq::gateway {

struct AccessLogMetrics {
  explicit AccessLogMetrics(Metrics& registry)
      : requests(registry, "dq_gateway_requests_total",
                 "HTTP requests by method, route template and status", {"method", "route", "code"}),
        request_seconds(registry, "dq_gateway_request_seconds",
                        "HTTP request latency by method and route template", {"method", "route"}),
        responses_cut_off(
            registry, "dq_gateway_responses_cut_off_total",
            "Streamed answers whose body did not reach its end, by method and route template",
            {"method", "route"}) {}
  // The process's, over Metrics::Global() (what /metrics shows).
  static AccessLogMetrics& Global() {
    static AccessLogMetrics* metrics = new AccessLogMetrics(Metrics::Global());  // never destroyed
    return *metrics;
  }

  CounterFamily requests;            // dq_gateway_requests_total{method,route,code}
  HistogramFamily request_seconds;   // dq_gateway_request_seconds{method,route}
  CounterFamily responses_cut_off;   // dq_gateway_responses_cut_off_total{method,route}
};

}  // namespace dq::gateway
