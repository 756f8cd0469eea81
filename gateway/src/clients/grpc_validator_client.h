// ValidatorClient over gRPC. Every call carries a deadline; with the validator down a call fails
// fast (UNAVAILABLE) instead of waiting for it to come back.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

#include "dq/validator/v1/validator.grpc.pb.h"
#include "validator_client.h"

namespace dq::gateway {

class GrpcValidatorClient final : public ValidatorClient {
 public:
  GrpcValidatorClient(const std::string& target, std::chrono::milliseconds deadline);

  Status Validate(const validator::v1::ValidateRequest& request,
                  validator::v1::ValidateResponse* response) override;
  Status ValidateBy(const validator::v1::ValidateRequest& request,
                    validator::v1::ValidateResponse* response,
                    std::chrono::steady_clock::time_point deadline) override;
  bool Healthy() override;

  // The channel, for streaming callers (the job worker).
  std::shared_ptr<grpc::Channel> channel() const { return channel_; }

 private:
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<validator::v1::Validator::Stub> stub_;
  std::chrono::milliseconds deadline_;
};

// UNAVAILABLE and DEADLINE_EXCEEDED -> kUnavailable; INVALID_ARGUMENT -> kInvalidRequest; else
// kInternal.
Status FromGrpcStatus(const grpc::Status& status);

}  // namespace dq::gateway
