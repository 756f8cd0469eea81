// The gateway's view of the validator: one call per inline batch. Implemented over gRPC
// (grpc_validator_client.h); tests substitute their own.
#pragma once

#include "dq/common/status.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::gateway {

class ValidatorClient {
 public:
  virtual ~ValidatorClient() = default;
  // Errors: kUnavailable when the validator is down or misses the deadline; kInvalidRequest
  // when it rejects the batch; kInternal otherwise. Thread-safe.
  virtual Result<validator::v1::ValidateResponse> Validate(
      const validator::v1::ValidateRequest& request) = 0;
  // True when the validator's health service answers SERVING.
  virtual bool Healthy() = 0;
};

}  // namespace dq::gateway
