#include "validator_service.h"

#include "convert.h"
#include "stream_call.h"
#include "stream_validation.h"

namespace dq::validator::rpc {

grpc::Status ValidatorService::Validate(grpc::ServerContext*, const v1::ValidateRequest* request,
                                        v1::ValidateResponse* response) {
  if (Status s = ValidateBatch(ref_, *request, response); !s.ok()) return ToGrpcStatus(s);
  metrics_.rows_validate.Inc(response->stats().rows());
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
