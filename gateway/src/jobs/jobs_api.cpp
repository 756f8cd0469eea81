// POST /v1/jobs: the upload itself, from the body to a queued job (Idempotency-Key handling is
// in jobs_manage_api.cpp, the reads in jobs_read_api.cpp).
#include "jobs_api.h"

#include <algorithm>
#include <numeric>

#include "http/core/error_response.h"
#include "http/core/json_util.h"
#include "../validate/validate_request.h"
#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"
#include "dq/ingest/mapping_inference.h"
#include "dq/ingest/row_writer.h"
#include "dq/ingest/check_plan.h"
#include "dq/ingest/upload_form.h"
#include "dq/report/file_check.h"
#include "dq/report/stage_timer.h"
#include "upload_request.h"

namespace dq::gateway {
namespace {

using nlohmann::json;
using report::Fixed1;
using report::StageTimer;

std::string ExtensionFor(ingest::FileFormat f) {
  switch (f) {
    case ingest::FileFormat::kCsv: return ".csv";
    case ingest::FileFormat::kTsv: return ".tsv";
    case ingest::FileFormat::kJsonArray: return ".json";
    case ingest::FileFormat::kNdjson: return ".ndjson";
    case ingest::FileFormat::kXlsx: return ".xlsx";
    case ingest::FileFormat::kXml: return ".xml";
  }
  return "";
}

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, field + ": " + message, {{field, message}});
}

}  // namespace

HttpResponse CheckTypesDoNotFit(const std::string& message,
                                const std::vector<std::pair<std::string, std::string>>& mapping) {
  // Written here, not as an ErrorCode: the answer also lists the check types that fit.
  nlohmann::ordered_json body = {{"error", "check_types_do_not_fit"},
                                 {"message", message},
                                 {"fits", ingest::FittingCheckTypes(mapping)}};
  return ErrorBodyResponse(400, std::move(body));
}

namespace {

// How many of the upload's pieces its helper threads compressed (the rest: the request's thread).
size_t PiecesByHelpers(const UploadPieces& pieces) {
  const std::vector<size_t> by = pieces.CompressedBy();
  return std::accumulate(by.begin() + 1, by.end(), size_t{0});
}

}  // namespace

Result<int64_t> IntParam(const HttpRequest& request, const std::string& name, int64_t fallback,
                         int64_t min, int64_t max) {
  auto text = request.Query(name);
  if (!text) return fallback;
  int64_t v = 0;
  bool ok = !text->empty() && text->size() <= 18;
  for (char c : *text) ok = ok && c >= '0' && c <= '9';
  if (ok) v = std::stoll(*text);
  if (!ok || v < min || v > max) {
    return Invalid(name, "must be an integer from " + std::to_string(min) + " to " +
                             std::to_string(max));
  }
  return v;
}

HttpResponse JobsApi::CreateJob(const HttpRequest& request, const Principal& principal,
                                const std::string& id, const std::string& idempotency_key) {
  if (request.body.size() > options_.upload_max_bytes + 64 * 1024) {
    return ErrorResponse(Status(ErrorCode::kFileTooLarge,
                                "The upload is " + std::to_string(request.body.size()) +
                                    " bytes; files may be at most " +
                                    std::to_string(options_.upload_max_bytes) + " bytes."));
  }
  // Where the upload's wall time goes, logged with each accepted job (as "job stages" is).
  double parse_ms = 0, scan_ms = 0, store_ms = 0, queue_ms = 0;
  StageTimer parse_timer(parse_ms);
  auto parsed = ParseUploadRequest(request, options_.upload_max_bytes);
  parse_timer.Pause();
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  UploadRequest& up = **parsed;
  const ingest::FileFormat format = up.file.format;
  const std::string_view file = up.file.data();

  // The pieces the file is stored as, compressed by helper threads from now on, while this
  // thread scans the file and then waits for the store's rounds.
  UploadPieces pieces(file, options_.chunk_bytes, options_.compress_helpers);

  // One pass over the whole file (report::PlanFile, as `dq check` reads it): every record
  // checked, rows counted (for the quota), header and dialect found, the mapping checked or
  // inferred. Bad files are refused now, not discovered by a worker later.
  StageTimer scan_timer(scan_ms);
  auto plan = report::PlanFile(up.file, report::CheckRequest{up.check_types, up.platform,
                                                               std::move(up.mapping), up.source,
                                                               up.weight_unit});
  scan_timer.Pause();
  if (!plan.ok()) return ErrorResponse(plan.status());
  // Refused before any quota is used: check types none of whose fields has a column.
  if (plan->misfit) return CheckTypesDoNotFit(*plan->misfit, plan->check.mapping);

  Job job;
  static_cast<report::FileCheck&>(job) = std::move(plan->check);

  auto reservation = quota_.Reserve(principal.account, static_cast<int64_t>(plan->data_rows));
  if (!reservation.ok()) return ErrorResponse(reservation.status());

  const auto now = clock_.Now();
  job.id = id;
  job.idempotency_key = idempotency_key;
  job.account_id = principal.account.id;
  job.filename = up.filename.empty() ? "upload" + ExtensionFor(format) : up.filename;
  job.status = "queued";
  job.file_bytes = static_cast<int64_t>(file.size());
  job.rows_total = static_cast<int64_t>(plan->data_rows);
  job.created_at = FormatIso8601Millis(now);
  job.created_ms = UnixMillis(now);
  job.quota_month = reservation->month;
  job.file_chunks = static_cast<int64_t>(pieces.size());

  // Stored, then queued, then accepted (listed). A worker runs only an accepted job, so whatever
  // point this stops at, the client has no 202 and no job runs: a job not accepted is removed
  // with its quota given back, here or (if this gateway died) by a worker after a while.
  StageTimer store_timer(store_ms);
  Status stored = store_.Create(job, pieces);
  store_timer.Pause();
  if (!stored.ok()) {
    quota_.Release(*reservation);
    if (stored.code() == ErrorCode::kStorageLimitExceeded) return ErrorResponse(stored);
    log::Error("job not stored", {{"job_id", job.id}, {"error", stored.message()}});
    return ErrorResponse(stored.code() == ErrorCode::kUnavailable
                             ? stored
                             : Status(ErrorCode::kInternal, "The job could not be stored."));
  }
  StageTimer queue_timer(queue_ms);
  stored = queue_.Enqueue(job.account_id, job.id);
  if (stored.ok()) stored = store_.Accept(job);
  queue_timer.Pause();
  if (!stored.ok()) {
    log::Error("job not accepted", {{"job_id", job.id}, {"error", stored.message()}});
    if (Status s = store_.Abandon(job); !s.ok()) {
      log::Warn("job not abandoned yet; a worker removes it", {{"job_id", job.id}});
    }
    return ErrorResponse(Status(ErrorCode::kUnavailable,
                                "The job could not be queued; nothing was charged. Try again."));
  }
  log::Info("upload stages (ms of wall time)",
            {{"job_id", job.id}, {"bytes", std::to_string(file.size())},
             {"parse", Fixed1(parse_ms)}, {"scan", Fixed1(scan_ms)}, {"store", Fixed1(store_ms)},
             {"queue", Fixed1(queue_ms)}, {"pieces", std::to_string(pieces.size())},
             {"compress_helpers", std::to_string(pieces.helpers())},
             {"compressed_by_helpers", std::to_string(PiecesByHelpers(pieces))}});
  HttpResponse r = JsonResponse(202, DumpJson(JobSummaryJson(job)));
  r.SetHeader("Location", "/v1/jobs/" + job.id);
  return r;
}

}  // namespace dq::gateway
