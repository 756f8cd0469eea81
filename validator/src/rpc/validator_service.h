// The gRPC adapter around the rule engine: Validate checks the batch (CheckBatch) and sends its
// answer encoded straight from the engine's issues (AnswerWire); ValidateStream runs
// RunValidateStream (stream_call.h: with several evaluation threads, one thread of the call
// reads and parses the next chunks while another evaluates and answers the current one).
// No rule logic lives here.
#pragma once

#include <grpcpp/support/byte_buffer.h>

#include "engine/reference_data.h"
#include "engine/worker_pool.h"
#include "dq/validator/v1/validator.grpc.pb.h"
#include "validator_metrics.h"

namespace dq::validator::rpc {

class ValidatorService final : public v1::Validator::Service {
 public:
  // pool: threads that evaluate streamed chunks (shared by all calls); nullptr: each call's own
  // thread only. Unary Validate calls always run on their own thread (of the synchronous
  // server's, as any call): they are small and many at once, so they fill the cores by
  // themselves.
  explicit ValidatorService(const ReferenceData& ref, WorkerPool* pool = nullptr,
                            ValidatorMetrics& metrics = ValidatorMetrics::Global());

  // The unary Validate call's work without its transport: the answer to `request` as the wire
  // bytes of a v1::ValidateResponse, or the gRPC error (ToGrpcStatus). Counts the rows in
  // dq_validator_rows_total{rpc="Validate"}.
  grpc::Status Answer(const v1::ValidateRequest& request, grpc::ByteBuffer* answer);

  grpc::Status ValidateStream(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<v1::ValidateStreamResponse, v1::ValidateStreamRequest>* stream)
      override;

 private:
  using UnaryCall = grpc::ServerUnaryStreamer<v1::ValidateRequest, grpc::ByteBuffer>;
  grpc::Status ServeValidate(UnaryCall* call);

  const ReferenceData& ref_;
  WorkerPool* pool_;
  ValidatorMetrics& metrics_;
};

}  // namespace dq::validator::rpc
