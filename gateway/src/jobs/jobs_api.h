// The job endpoints: upload (POST /v1/jobs), list, detail, cleaned download and issues page.
// Called by the Gateway pipeline after authentication and rate limiting.
#pragma once

#include "../auth/authenticator.h"
#include "../http/http_types.h"
#include "../limits/quota.h"
#include "dq/common/clock.h"
#include "job_queue.h"
#include "job_store.h"

namespace dq::gateway {

struct JobsOptions {
  size_t upload_max_bytes = 50 * 1024 * 1024;
  size_t chunk_bytes = 1024 * 1024;  // size of the stored upload pieces
};

class JobsApi {
 public:
  JobsApi(JobStore& store, JobQueue& queue, QuotaService& quota, const Clock& clock,
          JobsOptions options)
      : store_(store), queue_(queue), quota_(quota), clock_(clock), options_(options) {}

  // POST /v1/jobs: 202 with the job summary. Errors: 400 empty_file / invalid_request, 413
  // file_too_large, 415 unsupported_media_type, 429 quota_exceeded, 503.
  HttpResponse Create(const HttpRequest& request, const Principal& principal);
  // POST /v1/jobs/preview: the same body as Create; answers 200 with {format, encoding,
  // columns, mapping, mapping_inferred, sample_rows} (the first 5 data rows). Creates no job,
  // uses no quota; the principal is the authenticated caller (any door). Errors as Create,
  // except 429 quota_exceeded. In preview_api.cpp.
  HttpResponse Preview(const HttpRequest& request, const Principal& principal);
  // GET /v1/jobs?limit=1..20
  HttpResponse List(const HttpRequest& request, const Principal& principal);
  // GET /v1/jobs/:id, with every issue.
  HttpResponse Get(const Principal& principal, const std::string& id);
  // GET /v1/jobs/:id/cleaned: the cleaned file in the upload's format and column order.
  HttpResponse Cleaned(const Principal& principal, const std::string& id);
  // GET /v1/jobs/:id/issues?format=json|csv&offset=&limit=
  HttpResponse IssuesPage(const HttpRequest& request, const Principal& principal,
                          const std::string& id);

 private:
  Result<Job> Find(const Principal& principal, const std::string& id);

  JobStore& store_;
  JobQueue& queue_;
  QuotaService& quota_;
  const Clock& clock_;
  JobsOptions options_;
};

// Parses an optional non-negative integer query parameter within [min, max].
Result<int64_t> IntParam(const HttpRequest& request, const std::string& name, int64_t fallback,
                         int64_t min, int64_t max);

}  // namespace dq::gateway
