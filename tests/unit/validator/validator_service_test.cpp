// The gRPC adapter counts the rows each RPC evaluated in its ValidatorMetrics, under the names,
// labels and help of /metrics. Called directly, without a server.
#include "rpc/validator_service.h"

#include <gtest/gtest.h>

namespace dq::validator::rpc {
namespace {

v1::ValidateRequest TwoRows() {
  v1::ValidateRequest request;
  request.mutable_spec()->add_fields("sku");
  request.mutable_spec()->add_fields("price");
  request.mutable_spec()->add_check_types("product");
  for (const char* sku : {"A1", "A2"}) {
    v1::Row* row = request.add_rows();
    row->add_values(sku);
    row->add_values("9.99");
  }
  return request;
}

TEST(ValidatorServiceTest, ValidateCountsTheRowsItEvaluated) {
  Metrics registry;
  ValidatorMetrics metrics(registry);
  ValidatorService service(ReferenceData::Default(), nullptr, metrics);
  grpc::ServerContext context;
  v1::ValidateRequest request = TwoRows();
  v1::ValidateResponse response;
  ASSERT_TRUE(service.Validate(&context, &request, &response).ok());
  EXPECT_EQ(response.stats().rows(), 2u);
  EXPECT_EQ(registry.Render(),
            "# HELP dq_validator_rows_total Rows evaluated\n"
            "# TYPE dq_validator_rows_total counter\n"
            "dq_validator_rows_total{rpc=\"Validate\"} 2\n");
  // A refused request evaluates nothing and counts nothing.
  request.mutable_rows(0)->add_values("one too many");
  response.Clear();
  EXPECT_FALSE(service.Validate(&context, &request, &response).ok());
  EXPECT_EQ(metrics.rows_validate.Get().value(), 2u);
}

TEST(ValidatorMetricsTest, DeclaresOneSeriesPerRpc) {
  Metrics registry;
  ValidatorMetrics metrics(registry);
  EXPECT_EQ(registry.Render(), "");  // each appears at its first use
  metrics.rows_validate.Inc(3);
  metrics.rows_validate_stream.Inc(5);
  EXPECT_EQ(registry.Render(),
            "# HELP dq_validator_rows_total Rows evaluated\n"
            "# TYPE dq_validator_rows_total counter\n"
            "dq_validator_rows_total{rpc=\"Validate\"} 3\n"
            "dq_validator_rows_total{rpc=\"ValidateStream\"} 5\n");
}

}  // namespace
}  // namespace dq::validator::rpc
