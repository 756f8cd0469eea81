// The Pistache adapter's series: declared once, with the names, labels and help of /metrics.
#include "dq/http/server_metrics.h"

#include <gtest/gtest.h>

namespace dq::http {
namespace {

TEST(HttpServerMetricsTest, DeclaresTheEdgesSeries) {
  Metrics registry;
  HttpServerMetrics metrics(registry);
  EXPECT_EQ(registry.Render(), "");  // each appears at its first use
  metrics.edge_refusals.With({"431"}).Inc();
  metrics.edge_refusals.With({"408"}).Inc();
  metrics.edge_refusals.With({"431"}).Inc();
  metrics.streamed_answers.Add(1);
  metrics.streamed_answers.Add(1);
  metrics.streamed_answers.Add(-1);
  metrics.download_held_bytes.Set(4096);
  EXPECT_EQ(registry.Render(),
            "# HELP dq_gateway_download_held_bytes Bytes held by streamed answers in progress "
            "(their producers' buffers and the parts not yet written)\n"
            "# TYPE dq_gateway_download_held_bytes gauge\n"
            "dq_gateway_download_held_bytes 4096\n"
            "# HELP dq_gateway_edge_refusals_total Requests the edge answered itself\n"
            "# TYPE dq_gateway_edge_refusals_total counter\n"
            "dq_gateway_edge_refusals_total{code=\"408\"} 1\n"
            "dq_gateway_edge_refusals_total{code=\"431\"} 2\n"
            "# HELP dq_gateway_streamed_answers Streamed answers in progress (their producers "
            "held)\n"
            "# TYPE dq_gateway_streamed_answers gauge\n"
            "dq_gateway_streamed_answers 1\n");
}

}  // namespace
}  // namespace dq::http
