#include "validator_service.h"

#include <string>

#include "convert.h"
#include "dq/common/metrics.h"
#include "stream_call.h"
#include "stream_validation.h"

namespace dq::validator::rpc {
namespace {

void CountRows(const char* rpc, uint64_t rows) {
  Metrics::Global()
      .Counter("dq_validator_rows_total", "Rows evaluated", std::string("rpc=\"") + rpc + "\"")
      .Inc(rows);
}

}  // namespace

grpc::Status ValidatorService::Validate(grpc::ServerContext*, const v1::ValidateRequest* request,
                                        v1::ValidateResponse* response) {
  if (Status s = ValidateBatch(ref_, *request, response); !s.ok()) return ToGrpcStatus(s);
  CountRows("Validate", response->stats().rows());
  return grpc::Status::OK;
}

grpc::Status ValidatorService::ValidateStream(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<v1::ValidateStreamResponse, v1::ValidateStreamRequest>* stream) {
  uint64_t rows = 0;
  const grpc::Status status = RunValidateStream(
      ref_, pool_, stream, [context] { return context->IsCancelled(); }, &rows);
  CountRows("ValidateStream", rows);
  return status;
}

}  // namespace dq::validator::rpc
