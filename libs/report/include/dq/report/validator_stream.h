// One job's streaming conversation with the validator (the interface): the spec, then chunks of
// rows, each answered with the issues of its rows; after the last chunk, the batch-level issues
// and the stats. GrpcValidatorStream wraps the gRPC bidi stream; FakeValidatorStream
// (tests/testing) scripts it.
//
// Errors: kUnavailable when the validator cannot be reached or the stream broke (the job is
// retried later); kInvalidRequest / kInternal when the validator refused the work (the job fails).
// One stream is used by one thread.
#pragma once

#include <memory>

#include "dq/common/status.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::report {

class ValidatorStream {
 public:
  virtual ~ValidatorStream() = default;
  // First message: the fields, check types and platform.
  virtual Status Start(const validator::v1::BatchSpec& spec) = 0;
  virtual Status Send(const validator::v1::RowChunk& chunk) = 0;
  // The issues of the oldest chunk sent and not yet answered.
  virtual Status Receive(validator::v1::IssueChunk* out) = 0;
  // Closes the sending side. Then Tail() yields, one per call, the trailing issue chunks and at
  // last the stats; it returns false once the stream ended cleanly.
  virtual Status WritesDone() = 0;
  virtual Result<bool> Tail(validator::v1::ValidateStreamResponse* out) = 0;
  // Abandons the stream (a failed or cancelled attempt). Safe to call at any point.
  virtual void Cancel() = 0;
};

class ValidatorStreamFactory {
 public:
  virtual ~ValidatorStreamFactory() = default;
  // A new stream. Thread-safe.
  virtual std::unique_ptr<ValidatorStream> Open() = 0;
};

}  // namespace dq::report
