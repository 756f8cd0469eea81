#include "validator_service.h"

#include <algorithm>
#include <vector>

#include "../engine/session.h"
#include "convert.h"
#include "dq/common/log.h"
#include "dq/common/metrics.h"

namespace dq::validator::rpc {
namespace {

// Runs rows through the session, checking each has exactly one value per field, or, with a
// value_index, at least one value past the highest index.
template <typename Rows>
Status AddRows(Session& session, const v1::BatchSpec& spec, const Rows& rows,
               std::vector<Issue>& issues) {
  std::vector<std::string_view> values;
  const size_t width = session.spec().columns.size();
  const auto& index = spec.value_index();
  size_t needed = width;
  if (!index.empty()) {
    needed = 0;
    for (uint32_t k : index) needed = std::max<size_t>(needed, size_t{k} + 1);
  }
  auto fits = [&](const auto& row) {
    return index.empty() ? static_cast<size_t>(row.values_size()) == width
                         : static_cast<size_t>(row.values_size()) >= needed;
  };
  auto fill = [&](const auto& row) {
    if (index.empty()) {
      values.assign(row.values().begin(), row.values().end());
    } else {
      values.clear();
      for (uint32_t k : index) values.emplace_back(row.values(static_cast<int>(k)));
    }
  };
  // Column-wide conventions first (a later row may show the day/month order of a date column).
  for (const auto& row : rows) {
    if (!fits(row)) break;  // reported below
    fill(row);
    session.Observe(values);
  }
  for (const auto& row : rows) {
    if (!fits(row)) {
      return Status(ErrorCode::kInvalidRequest,
                    "row " + std::to_string(session.rows() + 1) + " has " +
                        std::to_string(row.values_size()) + " values for " +
                        std::to_string(index.empty() ? width : needed) +
                        (index.empty() ? " fields" : " indexed values"));
    }
    fill(row);
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
  if (Status s = AddRows(session, request->spec(), request->rows(), issues); !s.ok()) return ToGrpcStatus(s);
  session.Finish(issues);
  // Batch-level issues come last; the response is ordered by row.
  std::stable_sort(issues.begin(), issues.end(),
                   [](const Issue& a, const Issue& b) { return a.row < b.row; });
  // The answer is bounded before it is built: values of tens of KB mapped to many fields make
  // an issue list far larger than the request (the gateway's channel takes at most 64 MiB).
  size_t answer_bytes = 0;
  for (const Issue& i : issues) {
    answer_bytes += i.original.size() + (i.fixed ? i.fixed->size() : 0) + i.Message().size() + 64;
  }
  if (answer_bytes > kMaxAnswerBytes) {
    return grpc::Status(grpc::StatusCode::OUT_OF_RANGE,
                        "the answer would be about " + std::to_string(answer_bytes >> 20) +
                            " MiB, over the " + std::to_string(kMaxAnswerBytes >> 20) +
                            " MiB an answer may carry");
  }
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
  const v1::BatchSpec batch_spec = request.spec();
  auto spec = FromProto(batch_spec);
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
    if (Status s = AddRows(session, batch_spec, request.chunk().rows(), issues); !s.ok()) {
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
