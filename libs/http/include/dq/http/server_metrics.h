// The Pistache adapter's series, declared once (docs/deploy.md lists the gateway's). Each appears
// on /metrics at its first use.
#pragma once

#include "dq/common/metrics.h"

namespace dq::http {

struct HttpServerMetrics {
  explicit HttpServerMetrics(Metrics& registry)
      : edge_refusals(registry, "dq_gateway_edge_refusals_total",
                      "Requests the edge answered itself", {"code"}),
        streamed_answers(registry, "dq_gateway_streamed_answers",
                         "Streamed answers in progress (their producers held)"),
        download_held_bytes(registry, "dq_gateway_download_held_bytes",
                            "Bytes held by streamed answers in progress (their producers' "
                            "buffers and the parts not yet written)") {}
  // The process's, over Metrics::Global() (what /metrics shows).
  static HttpServerMetrics& Global() {
    static HttpServerMetrics* metrics = new HttpServerMetrics(Metrics::Global());  // never destroyed
    return *metrics;
  }

  // dq_gateway_edge_refusals_total{code}: answers the edge wrote and closed the connection after.
  CounterFamily edge_refusals;
  // dq_gateway_streamed_answers: BodyStreams alive (a producer held).
  LazyGauge streamed_answers;
  // dq_gateway_download_held_bytes: the DownloadLedger's total; on /metrics once a server has
  // started.
  LazyGauge download_held_bytes;
};

}  // namespace dq::http
