// How the validator's gRPC failures reach a caller: our own codes and words, never gRPC's text.
#include <gtest/gtest.h>

#include "clients/grpc_validator_client.h"

namespace dq::gateway {
namespace {

TEST(FromGrpcStatusTest, TransientFailuresAre503WithOurMessage) {
  for (grpc::StatusCode code : {grpc::StatusCode::UNAVAILABLE, grpc::StatusCode::DEADLINE_EXCEEDED,
                                grpc::StatusCode::CANCELLED, grpc::StatusCode::RESOURCE_EXHAUSTED}) {
    Status s = FromGrpcStatus(grpc::Status(code, "ipv4:10.0.0.7:50051: connection refused"));
    EXPECT_EQ(s.code(), ErrorCode::kUnavailable) << code;
    EXPECT_EQ(s.message().find("10.0.0.7"), std::string::npos) << s.message();
  }
}

TEST(FromGrpcStatusTest, AnAnswerOverTheMessageLimitIs413NotRetry) {
  Status s = FromGrpcStatus(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                         "Received message larger than max (80290436 vs. 67108864)"));
  EXPECT_EQ(s.code(), ErrorCode::kPayloadTooLarge);
  EXPECT_NE(s.message().find("64 MiB"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("80290436"), std::string::npos) << s.message();
  // The validator's own bound on its answer says the same.
  EXPECT_EQ(FromGrpcStatus(grpc::Status(grpc::StatusCode::OUT_OF_RANGE, "about 80 MiB")).code(),
            ErrorCode::kPayloadTooLarge);
}

TEST(FromGrpcStatusTest, OtherFailuresAre500WithOurMessage) {
  Status s = FromGrpcStatus(grpc::Status(grpc::StatusCode::INTERNAL, "stack trace here"));
  EXPECT_EQ(s.code(), ErrorCode::kInternal);
  EXPECT_EQ(s.message().find("stack trace"), std::string::npos);
}

}  // namespace
}  // namespace dq::gateway
