// The gateway's view of the validator: one call per inline batch. Implemented over gRPC
// (grpc_validator_client.h); tests substitute their own.
#pragma once

#include <chrono>

#include "dq/common/status.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::gateway {

class ValidatorClient {
 public:
  virtual ~ValidatorClient() = default;
  // Fills *response (which may live on the caller's arena, so that the answer's thousands of
  // strings are parsed without a malloc each). Errors: kUnavailable when the validator is down
  // or misses the deadline; kInvalidRequest when it rejects the batch; kInternal otherwise.
  // Thread-safe.
  virtual Status Validate(const validator::v1::ValidateRequest& request,
                          validator::v1::ValidateResponse* response) = 0;
  // The same, ending by `deadline` at the latest (the call's own deadline may be shorter).
  // The default ignores the deadline.
  virtual Status ValidateBy(const validator::v1::ValidateRequest& request,
                            validator::v1::ValidateResponse* response,
                            std::chrono::steady_clock::time_point deadline) {
    (void)deadline;
    return Validate(request, response);
  }
  // True when the validator's health service answers SERVING.
  virtual bool Healthy() = 0;
};

}  // namespace dq::gateway
