#include "validator_service.h"

#include <string>

#include "convert.h"
#include "dq/common/metrics.h"
#include "stream_validation.h"

namespace dq::validator::rpc {
namespace {

void CountRows(const char* rpc, uint64_t rows) {
  Metrics::Global()
      .Counter("dq_validator_rows_total", "Rows evaluated", std::string("rpc=\"") + rpc + "\"")
      .Inc(rows);
}

grpc::Status NotAChunk() {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                      "only RowChunk messages may follow the BatchSpec");
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
  // Two requests: the chunk being evaluated, and the next one being read meanwhile.
  v1::ValidateStreamRequest requests[2];
  int current = 0;
  if (!stream->Read(&requests[0]) || !requests[0].has_spec()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "the first message of a stream must carry the BatchSpec");
  }
  auto call = StreamValidation::Start(ref_, requests[0].spec(), pool_);
  if (!call.ok()) return ToGrpcStatus(call.status());
  StreamValidation& v = **call;
  v1::ValidateStreamResponse response;
  bool have = stream->Read(&requests[current]);
  while (have) {
    if (context->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled");
    if (!requests[current].has_chunk()) return NotAChunk();
    if (Status s = v.Begin(requests[current].chunk()); !s.ok()) return ToGrpcStatus(s);
    // The next chunk arrives while this one is evaluated (End() must come before any return).
    have = stream->Read(&requests[1 - current]);
    response.Clear();
    v.End(response.mutable_issues());
    if (!stream->Write(response)) return grpc::Status(grpc::StatusCode::CANCELLED, "peer gone");
    current = 1 - current;
  }
  response.Clear();
  v1::ValidateStreamResponse stats;
  v.Finish(response.mutable_issues(), stats.mutable_stats());
  stream->Write(response);
  stream->Write(stats);
  CountRows("ValidateStream", v.rows());
  return grpc::Status::OK;
}

}  // namespace dq::validator::rpc
