#include "validator_service.h"

#include <google/protobuf/arena.h>
#include <grpc/slice.h>
#include <grpcpp/support/method_handler.h>

#include "convert.h"
#include "stream_call.h"
#include "stream_validation.h"

namespace dq::validator::rpc {

ValidatorService::ValidatorService(const ReferenceData& ref, WorkerPool* pool,
                                   ValidatorMetrics& metrics)
    : ref_(ref), pool_(pool), metrics_(metrics) {
  // Validate (method 0 of the service) is served in gRPC's "streamed unary" form, as the
  // generated WithStreamedUnaryMethod_Validate would, but with the answer as bytes: one read,
  // one write, on the synchronous server's threads (so its thread limit, deadlines and
  // behaviour under load are those of any other call) and the same messages on the wire.
  MarkMethodStreamed(
      0, new grpc::internal::StreamedUnaryHandler<v1::ValidateRequest, grpc::ByteBuffer>(
             [this](grpc::ServerContext*, UnaryCall* call) { return ServeValidate(call); }));
}

grpc::Status ValidatorService::ServeValidate(UnaryCall* call) {
  // The request is parsed onto an arena; the answer is encoded from the engine's issues
  // (AnswerWire) instead of being built as a message of thousands of strings.
  google::protobuf::Arena arena;
  auto* request = google::protobuf::Arena::CreateMessage<v1::ValidateRequest>(&arena);
  if (!call->Read(request)) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "could not read the request");
  }
  grpc::ByteBuffer answer;
  if (grpc::Status s = Answer(*request, &answer); !s.ok()) return s;
  call->Write(answer, grpc::WriteOptions().set_last_message());  // sent with the status
  return grpc::Status::OK;
}

grpc::Status ValidatorService::Answer(const v1::ValidateRequest& request,
                                      grpc::ByteBuffer* answer) {
  BatchAnswer checked;
  if (Status s = CheckBatch(ref_, request, &checked); !s.ok()) return ToGrpcStatus(s);
  metrics_.rows_validate.Inc(checked.stats.rows);
  const AnswerWire wire(checked);
  // Written into the slice gRPC sends: no copy of the answer.
  grpc_slice bytes = grpc_slice_malloc(wire.Size());
  wire.WriteTo(reinterpret_cast<char*>(GRPC_SLICE_START_PTR(bytes)));
  grpc::Slice slice(bytes, grpc::Slice::STEAL_REF);
  *answer = grpc::ByteBuffer(&slice, 1);
  return grpc::Status::OK;
}

grpc::Status ValidatorService::ValidateStream(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<v1::ValidateStreamResponse, v1::ValidateStreamRequest>* stream) {
  uint64_t rows = 0;
  const grpc::Status status = RunValidateStream(
      ref_, pool_, stream, [context] { return context->IsCancelled(); }, &rows);
  metrics_.rows_validate_stream.Inc(rows);
  return status;
}

}  // namespace dq::validator::rpc
