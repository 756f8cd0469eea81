// The gRPC adapter around the rule engine: Validate calls ValidateBatch, ValidateStream runs
// RunValidateStream (stream_call.h: with several evaluation threads, one thread of the call
// reads and parses the next chunks while another evaluates and answers the current one).
// No rule logic lives here.
#pragma once

#include "engine/reference_data.h"
#include "engine/worker_pool.h"
#include "dq/validator/v1/validator.grpc.pb.h"
#include "validator_metrics.h"

namespace dq::validator::rpc {

class ValidatorService final : public v1::Validator::Service {
 public:
  // pool: threads that evaluate streamed chunks (shared by all calls); nullptr: each call's own
  // thread only. Unary Validate calls always run on their own thread: they are small and many
  // at once, so they fill the cores by themselves.
  explicit ValidatorService(const ReferenceData& ref, WorkerPool* pool = nullptr,
                            ValidatorMetrics& metrics = ValidatorMetrics::Global())
      : ref_(ref), pool_(pool), metrics_(metrics) {}

  grpc::Status Validate(grpc::ServerContext* context, const v1::ValidateRequest* request,
                        v1::ValidateResponse* response) override;

  grpc::Status ValidateStream(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<v1::ValidateStreamResponse, v1::ValidateStreamRequest>* stream)
      override;

 private:
  const ReferenceData& ref_;
  WorkerPool* pool_;
  ValidatorMetrics& metrics_;
};

}  // namespace dq::validator::rpc
