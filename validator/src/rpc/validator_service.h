// The gRPC adapter around the rule engine: decodes requests, runs a Session, encodes results.
// No rule logic lives here.
#pragma once

#include "../engine/reference_data.h"
#include "dq/validator/v1/validator.grpc.pb.h"

namespace dq::validator::rpc {

// The most a Validate answer may carry (estimated before it is built); more is OUT_OF_RANGE, so
// neither side ever holds a message over its gRPC limit (64 MiB).
inline constexpr size_t kMaxAnswerBytes = 60u << 20;

class ValidatorService final : public v1::Validator::Service {
 public:
  explicit ValidatorService(const ReferenceData& ref) : ref_(ref) {}

  grpc::Status Validate(grpc::ServerContext* context, const v1::ValidateRequest* request,
                        v1::ValidateResponse* response) override;

  grpc::Status ValidateStream(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<v1::ValidateStreamResponse, v1::ValidateStreamRequest>* stream)
      override;

 private:
  const ReferenceData& ref_;
};

}  // namespace dq::validator::rpc
