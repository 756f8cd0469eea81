// The gRPC adapter counts the rows each RPC evaluated in its ValidatorMetrics, under the names,
// labels and help of /metrics (called directly, without a server); and, served on a loopback
// port, its Validate (answered as bytes, AnswerWire) gives the generated client the very
// message ValidateBatch builds, and the same errors.
#include "rpc/validator_service.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "rpc/stream_validation.h"

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
  v1::ValidateRequest request = TwoRows();
  grpc::ByteBuffer answer;
  ASSERT_TRUE(service.Answer(request, &answer).ok());
  v1::ValidateResponse response;
  ASSERT_TRUE(grpc::SerializationTraits<v1::ValidateResponse>::Deserialize(&answer, &response).ok());
  EXPECT_EQ(response.stats().rows(), 2u);
  EXPECT_EQ(registry.Render(),
            "# HELP dq_validator_rows_total Rows evaluated\n"
            "# TYPE dq_validator_rows_total counter\n"
            "dq_validator_rows_total{rpc=\"Validate\"} 2\n");
  // A refused request evaluates nothing and counts nothing.
  request.mutable_rows(0)->add_values("one too many");
  const grpc::Status refused = service.Answer(request, &answer);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(metrics.rows_validate.Get().value(), 2u);
}

// The service on a loopback port (port 0: a free one), as ValidatorServer builds it.
struct Served {
  explicit Served(int max_receive = 64 << 20) : metrics(registry) {
    service = std::make_unique<ValidatorService>(ReferenceData::Default(), nullptr, metrics);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(service.get());
    builder.SetMaxReceiveMessageSize(max_receive);
    server = builder.BuildAndStart();
    stub = v1::Validator::NewStub(grpc::CreateChannel("127.0.0.1:" + std::to_string(port),
                                                      grpc::InsecureChannelCredentials()));
  }
  ~Served() { server->Shutdown(); }
  grpc::Status Validate(const v1::ValidateRequest& request, v1::ValidateResponse* response) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    return stub->Validate(&context, request, response);
  }

  Metrics registry;
  ValidatorMetrics metrics;
  std::unique_ptr<ValidatorService> service;
  int port = 0;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<v1::Validator::Stub> stub;
};

TEST(ValidatorServiceTest, ServedValidateAnswersTheMessageValidateBatchBuilds) {
  Served served;
  ASSERT_NE(served.port, 0);
  v1::ValidateRequest request = TwoRows();
  request.mutable_spec()->add_fields("title");
  request.mutable_spec()->set_platform("all");
  for (int i = 0; i < 20; ++i) {
    v1::Row* row = request.add_rows();
    row->add_values(i % 3 ? "B" + std::to_string(i) : "");
    row->add_values(i % 2 ? "-1" : "12.50");
    row->add_values(i % 4 ? "FREE SHIPPING!!!" : "Blue mug");
  }
  for (v1::Row& row : *request.mutable_rows()) {
    if (row.values_size() == 2) row.add_values("Mug");
  }
  for (bool bits : {false, true}) {
    request.mutable_spec()->set_channel_bits(bits);
    v1::ValidateResponse served_answer, built;
    ASSERT_TRUE(served.Validate(request, &served_answer).ok());
    ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), request, &built).ok());
    EXPECT_GT(built.issues_size(), 20);
    EXPECT_EQ(served_answer.SerializeAsString(), built.SerializeAsString());
  }
  EXPECT_EQ(served.metrics.rows_validate.Get().value(), 44u);
}

TEST(ValidatorServiceTest, ServedValidateRefusesAsBefore) {
  Served served(4096);
  v1::ValidateRequest request = TwoRows();
  request.mutable_rows(1)->add_values("one too many");
  v1::ValidateResponse response;
  grpc::Status status = served.Validate(request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::ValidateResponse built;
  EXPECT_EQ(status.error_message(),
            ValidateBatch(ReferenceData::Default(), request, &built).message());
  // A request over the server's limit is refused by gRPC before the service sees it.
  request = TwoRows();
  request.mutable_rows(0)->set_values(1, std::string(8000, '9'));
  status = served.Validate(request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(served.metrics.rows_validate.Get().value(), 0u);
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
