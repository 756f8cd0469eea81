// The job endpoints: upload (POST /v1/jobs), list, detail, summary, cleaned download, issues page
// and delete. Called by the Gateway pipeline (and the console's door) after authentication and
// rate limiting: every handler takes an already-authenticated Principal, never raw credentials.
#pragma once

#include "auth/authenticator.h"
#include "dq/http/download_ledger.h"
#include "dq/http/http_types.h"
#include "limits/quota.h"
#include "dq/common/clock.h"
#include "dq/ingest/row_writer.h"
#include "dq/report/issue_query.h"
#include "job_queue.h"
#include "job_store.h"
#include "upload_handoff.h"

namespace dq::gateway {

struct JobsOptions {
  size_t upload_max_bytes = 50 * 1024 * 1024;
  size_t piece_bytes = 1024 * 1024;  // size of the stored upload pieces
  // Threads that compress an upload's pieces while the request's thread scans it (UploadPieces).
  size_t compress_helpers = DefaultCompressHelpers();
  // GET /v1/jobs/:id reads the issues from the store in pages of this many, writing each out
  // before the next is read.
  int64_t issues_page = 1000;
  // GET /v1/jobs/:id/cleaned writes the cleaned file and sends it in parts of about this size.
  // Each part is copied on its way out (the part, the stream's buffer, the write queue's copy),
  // so a download's memory is a few parts: 256 KiB parts keep 4 parallel 50 MB downloads at
  // +34 MiB of gateway RSS, where 1 MiB parts took +68 MiB (docs/PERFORMANCE.md, issue 34).
  size_t cleaned_part_bytes = 256 * 1024;
  // How long a repeated Idempotency-Key waits for the first request's job to be accepted.
  std::chrono::milliseconds idempotency_wait{10000};
  // A preview keeps its upload this long (the store's kept_upload_ttl), for its Start
  // (DQ_KEPT_UPLOAD_MINUTES).
  int kept_upload_minutes = kKeptUploadMinutes;
};

// The day a month's quota renews (the first of next month, UTC), as the console says it:
// {"1 December", "2026-12-01"}.
std::pair<std::string, std::string> QuotaRenewal(std::chrono::system_clock::time_point now);

// True for a job id as the API hands them out (a lower-case UUID).
bool IsJobId(std::string_view id);

class JobsApi {
 public:
  // `downloads` (optional): the HTTP server's ledger of streamed answers; while it is full, a
  // download (a cleaned file, the issues CSV, a detail past one page) is refused with 503
  // before its first part is built, as the server would refuse it after.
  JobsApi(JobStore& store, JobQueue& queue, QuotaService& quota, const Clock& clock,
          JobsOptions options, const http::DownloadLedger* downloads = nullptr)
      : store_(store),
        queue_(queue),
        quota_(quota),
        clock_(clock),
        options_(options),
        downloads_(downloads) {}

  // Where an accepted upload's raw pieces are left for this process's workers (upload_handoff.h):
  // set when this process runs workers too. Before the first request.
  void SetUploadHandoff(UploadHandoff* handoff) { handoff_ = handoff; }

  // POST /v1/jobs: 202 with the job summary; 200 with the first job's summary when the
  // Idempotency-Key was seen before with the same body. Errors: 400 empty_file /
  // invalid_request, 413 file_too_large, 415 unsupported_media_type, 422 idempotency_key_reused,
  // 429 quota_exceeded / storage_limit_exceeded, 503.
  http::HttpResponse Create(const http::HttpRequest& request, const Principal& principal);
  // POST /v1/jobs/preview: the same body as Create; answers 200 with {format, encoding,
  // columns, mapping, mapping_inferred, sample_rows} (the first 5 data rows). Creates no job,
  // uses no quota; the principal is the authenticated caller (any door). Errors as Create,
  // except 429 quota_exceeded. In preview_api.cpp.
  http::HttpResponse Preview(const http::HttpRequest& request, const Principal& principal);
  // GET /v1/jobs/limits: {max_file_bytes, max_file_size ("50 MB"), kept_upload_minutes, quota}
  // (quota as the preview has it). In preview_api.cpp.
  http::HttpResponse Limits(const Principal& principal);
  // GET /v1/jobs?limit=1..20[&before=][&feed=][&filename=]: with feed, limit may be 1..30 (the
  // feed's history); filename matches part of the filename in any case.
  http::HttpResponse List(const http::HttpRequest& request, const Principal& principal);
  // GET /v1/jobs/:id, with every stored issue, streamed page by page.
  http::HttpResponse Get(const Principal& principal, const std::string& id);
  // GET /v1/jobs/:id[?issues=all|none]: issues=none answers the detail without `issues`, a light
  // read for a page's header (docs/api.md).
  http::HttpResponse Get(const http::HttpRequest& request, const Principal& principal,
                         const std::string& id);
  // GET /v1/jobs/:id/summary
  http::HttpResponse Summary(const Principal& principal, const std::string& id);
  // DELETE /v1/jobs/:id: 204; a queued or running job is cancelled and sends no event.
  http::HttpResponse Delete(const Principal& principal, const std::string& id);
  // GET /v1/jobs/:id/cleaned[?formulas=keep]: the cleaned file in the upload's format and
  // column order; CSV/TSV cells that start like a formula get a leading ' unless
  // formulas=keep (docs/api.md).
  http::HttpResponse Cleaned(const http::HttpRequest& request, const Principal& principal,
                             const std::string& id);
  http::HttpResponse Cleaned(const Principal& principal, const std::string& id,
                             ingest::FormulaCells formulas = ingest::FormulaCells::kNeutralise);
  // GET /v1/jobs/:id/issues?format=json|csv&offset=&limit=&cursor=&code=&field=&severity=&sku=
  // (report/issue_query.h): a page of stored issues, filtered, with next_cursor.
  http::HttpResponse IssuesPage(const http::HttpRequest& request, const Principal& principal,
                                const std::string& id);

 private:
  // The upload a preview kept, when the request names one (upload_id): nullopt when it names
  // none. Errors: kInvalidRequest naming upload_id when that upload is no longer kept.
  Result<std::optional<std::pair<KeptUpload, std::string>>> KeptUploadOf(
      const http::HttpRequest& request, const std::string& account_id);
  // Keeps a previewed upload again for kept_upload_minutes from now, after a Start that failed
  // once the job had taken it (a retry of Start need not send the file).
  void KeepAgain(KeptUpload upload, const std::string& file);
  Result<Job> Find(const Principal& principal, const std::string& id);
  // The upload itself, once any Idempotency-Key is claimed: the job gets id and remembers the
  // key's hash (empty for none).
  http::HttpResponse CreateJob(const http::HttpRequest& request, const Principal& principal,
                               const std::string& id, const std::string& idempotency_key);
  // 429 quota_exceeded for an upload of `rows` rows, saying what is left, when it renews and
  // what the merchant can do (max_rows).
  Status QuotaExceeded(const Account& account, int64_t rows);
  // The preview's and the limits' `quota` object (null when the quota cannot be read).
  nlohmann::json QuotaJson(const Account& account);
  // A repeated Idempotency-Key: the first job's summary once it is accepted.
  http::HttpResponse Repeat(const Principal& principal, const std::string& job_id);
  // The two ways a done job keeps its cleaned file (Job::cleaned_from).
  http::HttpResponse CleanedFromFixes(const Job& job, ingest::FormulaCells formulas);
  http::HttpResponse IssuesCsvAll(const Job& job, report::IssueQuery query);
  http::HttpResponse StoredCleaned(const Job& job);
  // kUnavailable (503, Retry-After) while the downloads in progress hold their memory bound:
  // called before a streamed answer builds anything (DownloadLedger::Full).
  Status DownloadAdmitted() const;

  JobStore& store_;
  JobQueue& queue_;
  QuotaService& quota_;
  const Clock& clock_;
  JobsOptions options_;
  const http::DownloadLedger* downloads_;
  UploadHandoff* handoff_ = nullptr;
};

// 400 check_types_do_not_fit: {"error", "message", "fits": [check types the columns fit]}.
http::HttpResponse CheckTypesDoNotFit(
    const std::string& message, const std::vector<std::pair<std::string, std::string>>& mapping);

// Parses an optional non-negative integer query parameter within [min, max].
Result<int64_t> IntParam(const http::HttpRequest& request, const std::string& name,
                         int64_t fallback, int64_t min, int64_t max);

}  // namespace dq::gateway
