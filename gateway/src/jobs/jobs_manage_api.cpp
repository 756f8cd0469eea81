// The job endpoints beyond the specification's: idempotent uploads, the summary and delete
// (docs/api.md, "Jobs").
#include "dq/http/error_response.h"
#include "dq/http/json_util.h"
#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "jobs_api.h"

#include <thread>

namespace dq::gateway {
namespace {

using nlohmann::json;

constexpr size_t kMaxIdempotencyKeyBytes = 255;

// What makes two uploads "the same body": the bytes, their type and the query.
std::string BodyHash(const http::HttpRequest& request) {
  std::string material = request.method + "\n" + request.path + "\n";
  if (const std::string* ct = request.Header("content-type")) material += *ct;
  material += "\n";
  for (const auto& [k, v] : request.query) material += k + "=" + v + "&";
  material += "\n";
  return Sha256Hex(material + Sha256Hex(request.body));
}

}  // namespace

http::HttpResponse JobsApi::Create(const http::HttpRequest& request, const Principal& principal) {
  const std::string* key = request.Header("idempotency-key");
  if (key == nullptr) return CreateJob(request, principal, NewUuidV4(), "");
  if (key->empty() || key->size() > kMaxIdempotencyKeyBytes) {
    return http::ErrorResponse(Status(ErrorCode::kInvalidRequest,
                                      "Idempotency-Key: must be 1 to 255 characters",
                                      {{"Idempotency-Key", "must be 1 to 255 characters"}}));
  }
  const std::string key_hash = Sha256Hex(*key);
  const std::string body_hash = BodyHash(request);
  const std::string& account = principal.account.id;
  // Two tries: a first request that failed releases the key, and this one may then take it.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const std::string id = NewUuidV4();
    auto record = store_.ClaimIdempotencyKey(account, key_hash, body_hash, id);
    if (!record.ok()) return http::ErrorResponse(record.status());
    if (record->fresh) {
      http::HttpResponse r = CreateJob(request, principal, id, key_hash);
      if (r.status != 202) {
        // Kept, the key answers a retry with this upload "still being processed" until it
        // expires: said in the log, so that the 503s can be explained.
        if (Status s = store_.ReleaseIdempotencyKey(account, key_hash, body_hash, id); !s.ok()) {
          log::Warn("Idempotency-Key not released after a failed upload",
                    {{"account_id", account}, {"job_id", id}, {"error", s.message()}});
        }
      }
      return r;
    }
    if (record->body_hash != body_hash) {
      return http::ErrorResponse(Status(ErrorCode::kIdempotencyKeyReused,
                                        "This Idempotency-Key was used in the last 24 hours for a "
                                        "different upload; use a new key for a new upload."));
    }
    http::HttpResponse r = Repeat(principal, record->job_id);
    if (r.status != 404) return r;  // 404: the first request failed; try to take the key
  }
  return http::ErrorResponse(Status(ErrorCode::kUnavailable,
                                    "The first request with this Idempotency-Key is still being "
                                    "answered; retry shortly."));
}

http::HttpResponse JobsApi::Repeat(const Principal& principal, const std::string& job_id) {
  const auto deadline = std::chrono::steady_clock::now() + options_.idempotency_wait;
  // The first request may still be storing its job: wait for it to be accepted.
  while (true) {
    auto job = store_.Get(principal.account.id, job_id);
    if (!job.ok()) return http::ErrorResponse(job.status());
    if (job->has_value() && (*job)->accepted) {
      http::HttpResponse r = http::JsonResponse(200, http::DumpJson(JobSummaryJson(**job)));
      r.SetHeader("Location", "/v1/jobs/" + job_id);
      r.SetHeader("Idempotent-Replayed", "true");
      return r;
    }
    if (std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return http::ErrorResponse(Status(ErrorCode::kNotFound, "the first job is not there"));
}

http::HttpResponse JobsApi::Summary(const Principal& principal, const std::string& id) {
  auto job = Find(principal, id);
  if (!job.ok()) return http::ErrorResponse(job.status());
  auto summary = store_.Summary(*job);
  if (!summary.ok()) return http::ErrorResponse(summary.status());
  std::string body = http::DumpJson(
      json{{"id", job->id},
           {"status", std::string(JobStatusName(job->status))},
           {"rows_total", job->rows_total},
           {"issues_total", std::max(job->issues, job->issues_found)},
           {"issues_truncated", job->issues_found > job->issues},
           {"feed", job->feed.empty() ? json(nullptr) : json(job->feed)},
           {"previous_job_id",
            job->previous_job_id.empty() ? json(nullptr) : json(job->previous_job_id)},
           {"changes", JobChangesJson(*job)},
           {"max_rows", job->max_rows > 0 ? json(job->max_rows) : json(nullptr)},
           {"rows_in_file", job->rows_in_file > 0 ? job->rows_in_file : job->rows_total}});
  body.pop_back();  // '}'
  const std::string& parts = summary->empty() ? R"({"by_field":[],"by_code":[]})" : *summary;
  body += ',';
  body.append(parts, 1);  // the stored object's members, after its '{'
  return http::JsonResponse(200, std::move(body));
}

http::HttpResponse JobsApi::Delete(const Principal& principal, const std::string& id) {
  if (!IsJobId(id)) {
    return http::ErrorResponse(Status(ErrorCode::kNotFound, "There is no job " + id + "."));
  }
  auto deleted = store_.Delete(principal.account.id, id);
  if (!deleted.ok()) return http::ErrorResponse(deleted.status());
  if (!*deleted)
    return http::ErrorResponse(Status(ErrorCode::kNotFound, "There is no job " + id + "."));
  log::Info("job deleted", {{"job_id", id}});
  http::HttpResponse r;
  r.status = 204;
  r.content_type = "";
  return r;
}

}  // namespace dq::gateway
