// The real dq-validator on one and on two evaluation threads (DQ_VALIDATOR_EVAL_THREADS) answers
// one ValidateStream byte for byte the same: duplicates reaching back across chunks, price
// outliers, the date order a later chunk shows. Chunks are sent as the gateway's job runner
// sends them: the next one before the answer to the previous one is read.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dq/testing/harness.h"
#include "dq/validator/v1/validator.grpc.pb.h"

namespace dq::testing {
namespace {

namespace v1 = dq::validator::v1;

struct Validator {
  explicit Validator(int threads)
      : port(FreePort()),
        process(DQ_VALIDATOR_BIN, {{"DQ_VALIDATOR_BIND", "127.0.0.1"},
                                   {"DQ_VALIDATOR_PORT", std::to_string(port)},
                                   {"DQ_VALIDATOR_OPS_PORT", "0"},
                                   {"DQ_VALIDATOR_EVAL_THREADS", std::to_string(threads)}}) {
    if (!WaitFor([&] { return TcpConnects(port); }, std::chrono::seconds(15))) {
      ADD_FAILURE() << "validator did not start: " << process.Log();
    }
  }
  int port;
  ChildProcess process;
};

std::vector<v1::ValidateStreamRequest> Requests(size_t rows, size_t per_chunk) {
  std::mt19937_64 rng(42);
  auto pick = [&](size_t k) { return static_cast<size_t>(rng() % k); };
  std::vector<v1::ValidateStreamRequest> out(1);
  v1::BatchSpec* spec = out[0].mutable_spec();
  for (const char* f : {"sku", "price", "category", "email", "phone", "expiry_date"}) {
    spec->add_fields(f);
  }
  for (const char* c : {"product", "price", "customer", "inventory"}) spec->add_check_types(c);
  for (size_t i = 0; i < rows; ++i) {
    if (i % per_chunk == 0) out.emplace_back();
    v1::Row* row = out.back().mutable_chunk()->add_rows();
    row->add_values("SKU-" + std::to_string(pick(8) ? i : pick(i + 1)));
    row->add_values(pick(60) ? std::to_string(10 + pick(20)) + ".50" : "7999");
    row->add_values(pick(2) ? "Mugs" : "Lamps");
    std::string email;
    if (pick(3)) email.append("u").append(std::to_string(pick(rows))).append("@gmail.com");
    row->add_values(email);
    row->add_values(pick(2) ? "+49 30 9018" + std::to_string(10 + pick(80)) : "");
    std::string expiry;
    if (pick(4) == 0) expiry = i > rows / 2 && pick(2) ? "25/04/2027" : "03/04/2027";
    row->add_values(expiry);
  }
  return out;
}

// Every response of the stream, serialized. window: chunks sent before the first answer is
// read (1: each answer is awaited before the next chunk goes out, as a strict client does).
std::vector<std::string> Stream(int port, const std::vector<v1::ValidateStreamRequest>& requests,
                                size_t window = 2) {
  auto stub = v1::Validator::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto stream = stub->ValidateStream(&context);
  std::vector<std::string> out;
  v1::ValidateStreamResponse response;
  EXPECT_TRUE(stream->Write(requests[0]));
  for (size_t k = 1; k < requests.size(); ++k) {
    EXPECT_TRUE(stream->Write(requests[k]));
    if (k >= window) {
      EXPECT_TRUE(stream->Read(&response));
      out.push_back(response.SerializeAsString());
    }
  }
  stream->WritesDone();
  while (stream->Read(&response)) out.push_back(response.SerializeAsString());
  const grpc::Status status = stream->Finish();
  EXPECT_TRUE(status.ok()) << status.error_message();
  return out;
}

TEST(ValidatorStreamIntegration, OneAndTwoEvaluationThreadsAnswerTheSame) {
  Validator one(1), two(2);
  const auto requests = Requests(40000, 4096);
  const auto a = Stream(one.port, requests);
  const auto b = Stream(two.port, requests);
  // One answer per chunk, the batch-level issues, the stats.
  ASSERT_EQ(a.size(), requests.size() - 1 + 2);
  v1::ValidateStreamResponse last_chunk, tail, stats;
  ASSERT_TRUE(last_chunk.ParseFromString(a[a.size() - 3]));
  ASSERT_TRUE(tail.ParseFromString(a[a.size() - 2]));
  ASSERT_TRUE(stats.ParseFromString(a.back()));
  EXPECT_GT(last_chunk.issues().issues_size(), 500);  // duplicates of earlier chunks
  EXPECT_GT(tail.issues().issues_size(), 100);        // price outliers
  EXPECT_EQ(stats.stats().rows(), 40000u);
  EXPECT_EQ(a, b);
  EXPECT_NE(two.process.Log().find("\"eval_threads\":\"2\""), std::string::npos)
      << two.process.Log();
  // Clients that await every answer before sending on, or keep many chunks in flight.
  EXPECT_EQ(Stream(two.port, requests, 1), a);
  EXPECT_EQ(Stream(two.port, requests, 8), a);
  EXPECT_EQ(Stream(one.port, requests, 1), a);
}

TEST(ValidatorStreamIntegration, ABadChunkEndsTheStreamWithTheRowNamed) {
  Validator v(2);
  auto requests = Requests(9000, 4096);
  requests[3].mutable_chunk()->mutable_rows(2)->add_values("extra");  // row 8195
  auto stub = v1::Validator::NewStub(grpc::CreateChannel("127.0.0.1:" + std::to_string(v.port),
                                                         grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto stream = stub->ValidateStream(&context);
  for (const auto& r : requests) stream->Write(r);
  stream->WritesDone();
  v1::ValidateStreamResponse response;
  int answers = 0;
  while (stream->Read(&response)) ++answers;
  const grpc::Status status = stream->Finish();
  EXPECT_EQ(answers, 2);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "row 8195 has 7 values for 6 fields");
  EXPECT_TRUE(v.process.Running());
}

}  // namespace
}  // namespace dq::testing
