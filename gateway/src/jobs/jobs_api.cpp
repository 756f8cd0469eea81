// POST /v1/jobs: the upload itself, from the body to a queued job (Idempotency-Key handling is
// in jobs_manage_api.cpp, the reads in jobs_read_api.cpp).
#include "jobs_api.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

#include "dq/http/error_response.h"
#include "dq/http/json_util.h"
#include "validate/validate_request.h"
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

http::HttpResponse CheckTypesDoNotFit(
    const std::string& message, const std::vector<std::pair<std::string, std::string>>& mapping) {
  // Written here, not as an ErrorCode: the answer also lists the check types that fit.
  nlohmann::ordered_json body = {{"error", "check_types_do_not_fit"},
                                 {"message", message},
                                 {"fits", ingest::FittingCheckTypes(mapping)}};
  return http::ErrorBodyResponse(400, std::move(body));
}

namespace {

// How many of the upload's pieces its helper threads compressed (the rest: the request's thread).
size_t PiecesByHelpers(const UploadPieces& pieces) {
  const std::vector<size_t> by = pieces.CompressedBy();
  return std::accumulate(by.begin() + 1, by.end(), size_t{0});
}

// Where an upload's wall time went, logged with each accepted job (as "job stages" is).
struct UploadStages {
  double parse_ms = 0, scan_ms = 0, store_ms = 0, queue_ms = 0;
};

void LogUploadStages(const std::string& job_id, size_t bytes, const UploadStages& t,
                     const UploadPieces& pieces) {
  log::Info("upload stages (ms of wall time)",
            {{"job_id", job_id}, {"bytes", std::to_string(bytes)},
             {"parse", Fixed1(t.parse_ms)}, {"scan", Fixed1(t.scan_ms)},
             {"store", Fixed1(t.store_ms)}, {"queue", Fixed1(t.queue_ms)},
             {"pieces", std::to_string(pieces.size())},
             {"compress_helpers", std::to_string(pieces.helpers())},
             {"compressed_by_helpers", std::to_string(PiecesByHelpers(pieces))}});
}

}  // namespace

Result<int64_t> IntParam(const http::HttpRequest& request, const std::string& name,
                         int64_t fallback, int64_t min, int64_t max) {
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

std::pair<std::string, std::string> QuotaRenewal(std::chrono::system_clock::time_point now) {
  static const char* kMonths[] = {"January", "February", "March",     "April",   "May",
                                  "June",    "July",     "August",    "September", "October",
                                  "November", "December"};
  const std::chrono::year_month_day today{std::chrono::floor<std::chrono::days>(now)};
  const std::chrono::year_month next = std::chrono::year_month(today.year(), today.month()) +
                                       std::chrono::months(1);
  const unsigned m = static_cast<unsigned>(next.month());
  char iso[16];
  std::snprintf(iso, sizeof iso, "%04d-%02u-01", static_cast<int>(next.year()), m);
  return {std::string("1 ") + kMonths[m - 1], iso};
}

namespace {

// 1200 -> "1,200", as the console writes numbers.
std::string Thousands(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
  return n < 0 ? "-" + digits : digits;
}

}  // namespace

Status JobsApi::QuotaExceeded(const Account& account, int64_t rows) {
  auto usage = quota_.Usage(account);
  const std::string when = QuotaRenewal(clock_.Now()).first;
  if (!usage.ok()) {
    return Status(ErrorCode::kQuotaExceeded,
                  "This file has more rows than are left of this month's quota; it renews on " +
                      when + ".");
  }
  const int64_t left = std::max<int64_t>(0, usage->quota - usage->used);
  std::string message = "This file has " + Thousands(rows) + " rows to check, and " +
                        Thousands(left) + " of this month's " + Thousands(usage->quota) +
                        " rows are left.";
  message += left > 0 ? " Check the first " + Thousands(left) +
                            " rows now (max_rows), or wait until the quota renews on " + when +
                            "."
                      : " The quota renews on " + when + ".";
  return Status(ErrorCode::kQuotaExceeded, message);
}

void JobsApi::KeepAgain(KeptUpload upload, const std::string& file) {
  const auto now = clock_.Now();
  upload.expires_ms = UnixMillis(now + std::chrono::minutes(options_.kept_upload_minutes));
  upload.kept_us = UnixMicros(now);
  if (Status s = store_.KeepUpload(upload, file); !s.ok()) {
    log::Warn("kept upload not kept again", {{"upload_id", upload.id}, {"error", s.message()}});
  }
}

Result<std::optional<std::pair<KeptUpload, std::string>>> JobsApi::KeptUploadOf(
    const http::HttpRequest& request, const std::string& account_id) {
  using Kept = std::optional<std::pair<KeptUpload, std::string>>;
  const std::optional<std::string> upload_id = request.Query("upload_id");
  if (!upload_id) return Kept();
  auto found = IsJobId(*upload_id) ? store_.KeptUploadFile(account_id, *upload_id)
                                   : Result<Kept>(Kept());
  if (!found.ok()) return found.status();
  if (!found->has_value()) {
    return Status(ErrorCode::kInvalidRequest,
                  "upload_id: the previewed file is no longer kept (it is kept " +
                      std::to_string(options_.kept_upload_minutes) +
                      " minutes); choose the file again",
                  {{"upload_id", "the previewed file is no longer kept"}});
  }
  return found;
}

http::HttpResponse JobsApi::CreateJob(const http::HttpRequest& request, const Principal& principal,
                                      const std::string& id, const std::string& idempotency_key) {
  if (request.body.size() > options_.upload_max_bytes + 64 * 1024) {
    return http::ErrorResponse(FileTooLarge(request.body.size(), options_.upload_max_bytes));
  }
  // Started from a preview: the file it kept (not sent again), with this request's options.
  auto found = KeptUploadOf(request, principal.account.id);
  if (!found.ok()) return http::ErrorResponse(found.status());
  std::optional<std::pair<KeptUpload, std::string>> kept = std::move(*found);
  KeptFile kept_file;
  if (kept) kept_file = KeptFile{kept->second, kept->first.filename, kept->first.content_type};
  UploadStages stages;
  StageTimer parse_timer(stages.parse_ms);
  auto parsed = ParseUploadRequest(request, options_.upload_max_bytes, kept ? &kept_file : nullptr);
  parse_timer.Pause();
  if (!parsed.ok()) return http::ErrorResponse(parsed.status());
  UploadRequest& up = **parsed;
  const ingest::FileFormat format = up.file.format;
  const std::string_view file = up.file.data();

  // The pieces the file is stored as, compressed by helper threads from now on, while this
  // thread scans the file and then waits for the store's rounds.
  UploadPieces pieces(file, options_.piece_bytes, options_.compress_helpers);
  // Left raw for this process's workers too (upload_handoff.h), copied as each piece is stored.
  if (handoff_ != nullptr && file.size() <= handoff_->max_bytes()) pieces.KeepRawCopies();

  // One pass over the whole file (report::PlanFile, as `dq check` reads it): every record
  // checked, rows counted (for the quota), header and dialect found, the mapping checked or
  // inferred. Bad files are refused now, not discovered by a worker later.
  StageTimer scan_timer(stages.scan_ms);
  auto plan = report::PlanFile(up.file, report::CheckRequest{up.check_types, up.platform,
                                                               std::move(up.mapping), up.source,
                                                               up.weight_unit});
  scan_timer.Pause();
  if (!plan.ok()) return http::ErrorResponse(plan.status());
  // Refused before any quota is used: check types none of whose fields has a column.
  if (plan->misfit) return CheckTypesDoNotFit(*plan->misfit, plan->check.mapping);

  Job job;
  static_cast<report::FileCheck&>(job) = std::move(plan->check);

  // With max_rows, only the first rows are checked, and only they use quota.
  const int64_t rows_in_file = static_cast<int64_t>(plan->data_rows);
  const int64_t rows = up.max_rows > 0 ? std::min(rows_in_file, up.max_rows) : rows_in_file;
  // The reservation is named by the job id: the job's abandon and the quota's release give it
  // back once between them, whichever runs first and on whichever master survives.
  auto reservation = quota_.Reserve(principal.account, rows, id);
  if (!reservation.ok()) {
    if (reservation.status().code() == ErrorCode::kQuotaExceeded) {
      return http::ErrorResponse(QuotaExceeded(principal.account, rows));
    }
    return http::ErrorResponse(reservation.status());
  }
  // The kept upload becomes the job's: its bytes stop counting (the job's own count from here).
  // Ignored on failure: it expires with its short TTL, and its bytes with it. A Start that fails
  // after this point (a 503 while storing or queueing; the quota is given back) keeps the upload
  // again, for DQ_KEPT_UPLOAD_MINUTES from now, so a retry of Start need not send the file.
  if (kept) {
    IgnoreError(store_.DropKeptUpload(principal.account.id, kept->first.id),
                "it expires with its short TTL, and its bytes with it");
  }
  auto keep_again = [&] {
    if (kept) KeepAgain(kept->first, kept->second);
  };
  const auto now = clock_.Now();
  job.id = id;
  job.idempotency_key = idempotency_key;
  job.account_id = principal.account.id;
  job.filename = up.filename.empty() ? "upload" + ExtensionFor(format) : up.filename;
  job.status = JobStatus::kQueued;
  job.file_bytes = static_cast<int64_t>(file.size());
  job.rows_total = rows;
  job.rows_in_file = rows_in_file;
  job.max_rows = up.max_rows > 0 && up.max_rows < rows_in_file ? up.max_rows : 0;  // a cut
  job.feed = up.feed.empty() ? DefaultFeed(job.filename, job.check_types) : up.feed;
  job.created_at = FormatIso8601Millis(now);
  job.created_ms = UnixMillis(now);
  job.quota_month = reservation->month;
  job.file_pieces = static_cast<int64_t>(pieces.size());

  // Stored, then queued, then accepted (listed). A worker runs only an accepted job, so whatever
  // point this stops at, the client has no 202 and no job runs: a job not accepted is removed
  // with its quota given back, here or (if this gateway died) by a worker after a while.
  StageTimer store_timer(stages.store_ms);
  Status stored = store_.Create(job, pieces);
  store_timer.Pause();
  if (!stored.ok()) {
    ReleaseOrReport(quota_, *reservation, {"job_id", job.id});
    keep_again();
    if (stored.code() == ErrorCode::kStorageLimitExceeded) return http::ErrorResponse(stored);
    log::Error("job not stored", {{"job_id", job.id}, {"error", stored.message()}});
    return http::ErrorResponse(stored.code() == ErrorCode::kUnavailable
                                   ? stored
                                   : Status(ErrorCode::kInternal, "The job could not be stored."));
  }
  // Before it is queued: a worker of this process may claim it at once.
  if (handoff_ != nullptr) handoff_->Keep(job.account_id, job.id, pieces.TakeRawCopies());
  StageTimer queue_timer(stages.queue_ms);
  stored = queue_.Enqueue(job.account_id, job.id);
  if (stored.ok()) stored = store_.Accept(job);
  queue_timer.Pause();
  if (!stored.ok()) {
    log::Error("job not accepted", {{"job_id", job.id}, {"error", stored.message()}});
    if (Status s = store_.Retract(job); !s.ok()) {
      log::Warn("job not abandoned yet; a worker removes it", {{"job_id", job.id}});
    }
    // Given back until the replicas confirm it, even when the job's removal fell short.
    ReleaseOrReport(quota_, *reservation, {"job_id", job.id});
    keep_again();
    return http::ErrorResponse(Status(
        ErrorCode::kUnavailable, "The job could not be queued; nothing was charged. Try again."));
  }
  LogUploadStages(job.id, file.size(), stages, pieces);
  http::HttpResponse r = http::JsonResponse(202, http::DumpJson(JobSummaryJson(job)));
  r.SetHeader("Location", "/v1/jobs/" + job.id);
  return r;
}

}  // namespace dq::gateway
