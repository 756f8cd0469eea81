#include "validator_service.h"

#include <vector>

#include "../engine/session.h"
#include "convert.h"
#include "dq/common/log.h"
#include "dq/common/metrics.h"

namespace dq::validator::rpc {
namespace {

// Runs rows through the session, checking each has exactly one value per field.
template <typename Rows>
Status AddRows(Session& session, const Rows& rows, std::vector<Issue>& issues) {
  std::vector<std::string_view> values;
  const size_t width = session.spec().columns.size();
  // Column-wide conventions first (a later row may show the day/month order of a date column).
  for (const auto& row : rows) {
    if (static_cast<size_t>(row.values_size()) != width) break;  // reported below
    values.assign(row.values().begin(), row.values().end());
    session.Observe(values);
  }
  for (const auto& row : rows) {
    if (static_cast<size_t>(row.values_size()) != width) {
      return Status(ErrorCode::kInvalidRequest,
                    "row " + std::to_string(session.rows() + 1) + " has " +
                        std::to_string(row.values_size()) + " values for " +
                        std::to_string(width) + " fields");
    }
    values.assign(row.values().begin(), row.values().end());
    session.AddRow(values, issues);
  }
  return Status::Ok();
}

void CountRows(const char* rpc, uint64_t rows) {
  Metrics::Global()
      .Counter("dq_validator_rows_total", "Rows evaluated", std::string("rpc=\"") + rpc + "\"")
      .Inc(rows);
}

}  // namespace

grpc::Status ValidatorService::Validate(grpc::ServerContext*, const v1::ValidateRequest* request,
                                        v1::ValidateResponse* response) {
  auto spec = FromProto(request->spec());
  if (!spec.ok()) return ToGrpcStatus(spec.status());
  Session session(ref_, std::move(*spec));
  std::vector<Issue> issues;
  if (Status s = AddRows(session, request->rows(), issues); !s.ok()) return ToGrpcStatus(s);
  session.Finish(issues);
  // Batch-level issues come last; the response is ordered by row.
  std::stable_sort(issues.begin(), issues.end(),
                   [](const Issue& a, const Issue& b) { return a.row < b.row; });
  response->mutable_issues()->Reserve(static_cast<int>(issues.size()));
  for (const Issue& i : issues) ToProto(i, response->add_issues());
  ToProto(session.stats(), response->mutable_stats());
  CountRows("Validate", session.rows());
  return grpc::Status::OK;
}

grpc::Status ValidatorService::ValidateStream(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<v1::ValidateStreamResponse, v1::ValidateStreamRequest>* stream) {
  v1::ValidateStreamRequest request;
  if (!stream->Read(&request) || !request.has_spec()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "the first message of a stream must carry the BatchSpec");
  }
  auto spec = FromProto(request.spec());
  if (!spec.ok()) return ToGrpcStatus(spec.status());
  Session session(ref_, std::move(*spec));
  std::vector<Issue> issues;
  v1::ValidateStreamResponse response;
  while (stream->Read(&request)) {
    if (context->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled");
    if (!request.has_chunk()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "only RowChunk messages may follow the BatchSpec");
    }
    issues.clear();
    if (Status s = AddRows(session, request.chunk().rows(), issues); !s.ok()) {
      return ToGrpcStatus(s);
    }
    response.Clear();
    auto* chunk = response.mutable_issues();
    for (const Issue& i : issues) ToProto(i, chunk->add_issues());
    chunk->set_rows_done(session.rows());
    if (!stream->Write(response)) return grpc::Status(grpc::StatusCode::CANCELLED, "peer gone");
  }
  issues.clear();
  session.Finish(issues);
  response.Clear();
  for (const Issue& i : issues) ToProto(i, response.mutable_issues()->add_issues());
  response.mutable_issues()->set_rows_done(session.rows());
  stream->Write(response);
  response.Clear();
  ToProto(session.stats(), response.mutable_stats());
  stream->Write(response);
  CountRows("ValidateStream", session.rows());
  return grpc::Status::OK;
}

}  // namespace dq::validator::rpc
