// ValidatorStream over the validator's gRPC ValidateStream call, with a deadline per stream.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>

#include "dq/validator/v1/validator.grpc.pb.h"
#include "dq/report/validator_stream.h"

namespace dq::gateway {

using report::ValidatorStream;
using report::ValidatorStreamFactory;

class GrpcValidatorStreamFactory final : public ValidatorStreamFactory {
 public:
  GrpcValidatorStreamFactory(std::shared_ptr<grpc::Channel> channel,
                             std::chrono::milliseconds deadline);
  std::unique_ptr<ValidatorStream> Open() override;

 private:
  std::unique_ptr<validator::v1::Validator::Stub> stub_;
  std::chrono::milliseconds deadline_;
};

}  // namespace dq::gateway
