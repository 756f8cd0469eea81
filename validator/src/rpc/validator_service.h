// The gRPC adapter around the rule engine: decodes requests, runs a Session, encodes results.
// No rule logic lives here.
#pragma once

#include "../engine/reference_data.h"
#include "dq/validator/v1/validator.grpc.pb.h"

namespace dq::validator::rpc {

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
