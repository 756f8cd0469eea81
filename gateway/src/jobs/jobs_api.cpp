#include "jobs_api.h"

#include "http/core/error_response.h"
#include "http/core/json_util.h"
#include "../validate/validate_request.h"
#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"
#include "ingest/mapping_inference.h"
#include "ingest/row_writer.h"
#include "ingest/upload_form.h"
#include "upload_request.h"

namespace dq::gateway {
namespace {

using nlohmann::json;


std::string ExtensionFor(ingest::FileFormat f) {
  switch (f) {
    case ingest::FileFormat::kCsv: return ".csv";
    case ingest::FileFormat::kTsv: return ".tsv";
    case ingest::FileFormat::kJsonArray: return ".json";
    case ingest::FileFormat::kNdjson: return ".ndjson";
    case ingest::FileFormat::kXlsx: return ".xlsx";
  }
  return "";
}

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, field + ": " + message, {{field, message}});
}

std::string CsvCell(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += "\"\"";
    else out.push_back(c);
  }
  out += "\"";
  return out;
}

// Closes `object_json` (a serialised object) with `"key": [items...]}`, splicing in items that are
// JSON already, so stored issues are never parsed just to be printed again.
std::string WithArray(std::string object_json, std::string_view key,
                      const std::vector<std::string>& items) {
  object_json.pop_back();  // '}'
  object_json += ",\"";
  object_json += key;
  object_json += "\":[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) object_json.push_back(',');
    object_json += items[i];
  }
  object_json += "]}";
  return object_json;
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
  auto parsed = ParseUploadRequest(request, options_.upload_max_bytes);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  UploadRequest& up = **parsed;
  const ingest::FileFormat format = up.file.format;
  const std::string_view file = up.file.data();
  const std::vector<std::string>& check_types = up.check_types;
  const std::string& platform = up.platform;
  std::optional<std::vector<std::pair<std::string, std::string>>>& mapping = up.mapping;

  // One pass over the whole file: every record checked, rows counted (for the quota), header
  // and dialect found. Bad files are refused now, not discovered by a worker later.
  auto summary = ingest::ScanFile(format, file);
  if (!summary.ok()) return ErrorResponse(summary.status());

  Job job;
  job.mapping_inferred = !mapping.has_value();
  if (mapping) {
    if (Status s = CheckMappingColumns(*mapping, summary->header); !s.ok()) {
      return ErrorResponse(s);
    }
    job.mapping = std::move(*mapping);
  } else {
    job.mapping = ingest::InferMapping(summary->header);
    if (job.mapping.empty()) {
      return ErrorResponse(Invalid(
          "mapping", "none of the file's columns could be matched to a standard field; send a "
                     "mapping"));
    }
  }

  auto reservation = quota_.Reserve(principal.account, static_cast<int64_t>(summary->data_rows));
  if (!reservation.ok()) return ErrorResponse(reservation.status());

  const auto now = clock_.Now();
  job.id = id;
  job.idempotency_key = idempotency_key;
  job.account_id = principal.account.id;
  job.filename = up.filename.empty() ? "upload" + ExtensionFor(format) : up.filename;
  job.status = "queued";
  for (size_t i = 0; i < check_types.size(); ++i) {
    job.check_types += (i ? "," : "") + check_types[i];
  }
  job.platform = platform;
  job.format = format;
  job.encoding = up.file.encoding;
  job.dialect = summary->dialect;
  job.header = summary->header;
  job.file_bytes = static_cast<int64_t>(file.size());
  job.rows_total = static_cast<int64_t>(summary->data_rows);
  job.created_at = FormatIso8601Millis(now);
  job.created_ms = UnixMillis(now);
  job.quota_month = reservation->month;
  std::vector<std::string_view> chunks;
  for (size_t off = 0; off < file.size(); off += options_.chunk_bytes) {
    chunks.push_back(file.substr(off, options_.chunk_bytes));
  }
  job.file_chunks = static_cast<int64_t>(chunks.size());

  // Stored, then queued, then accepted (listed). A worker runs only an accepted job, so whatever
  // point this stops at, the client has no 202 and no job runs: a job not accepted is removed
  // with its quota given back, here or (if this gateway died) by a worker after a while.
  Status stored = store_.Create(job, chunks);
  if (!stored.ok()) {
    quota_.Release(*reservation);
    if (stored.code() == ErrorCode::kStorageLimitExceeded) return ErrorResponse(stored);
    log::Error("job not stored", {{"job_id", job.id}, {"error", stored.message()}});
    return ErrorResponse(stored.code() == ErrorCode::kUnavailable
                             ? stored
                             : Status(ErrorCode::kInternal, "The job could not be stored."));
  }
  stored = queue_.Enqueue(job.account_id, job.id);
  if (stored.ok()) stored = store_.Accept(job);
  if (!stored.ok()) {
    log::Error("job not accepted", {{"job_id", job.id}, {"error", stored.message()}});
    if (Status s = store_.Abandon(job); !s.ok()) {
      log::Warn("job not abandoned yet; a worker removes it", {{"job_id", job.id}});
    }
    return ErrorResponse(Status(ErrorCode::kUnavailable,
                                "The job could not be queued; nothing was charged. Try again."));
  }
  HttpResponse r = JsonResponse(202, DumpJson(JobSummaryJson(job)));
  r.SetHeader("Location", "/v1/jobs/" + job.id);
  return r;
}

HttpResponse JobsApi::List(const HttpRequest& request, const Principal& principal) {
  auto limit = IntParam(request, "limit", 20, 1, 20);
  if (!limit.ok()) return ErrorResponse(limit.status());
  int64_t before_ms = 0;
  if (auto before = request.Query("before")) {
    auto ms = ParseIso8601Millis(*before);
    if (!ms) {
      return ErrorResponse(Invalid("before", "must be a created_at of a job, such as "
                                             "2026-11-22T09:05:01.042Z"));
    }
    before_ms = *ms;
  }
  auto jobs = store_.ListBefore(principal.account.id, before_ms, static_cast<int>(*limit));
  if (!jobs.ok()) return ErrorResponse(jobs.status());
  json list = json::array();
  for (const auto& j : *jobs) list.push_back(JobSummaryJson(j));
  return JsonResponse(200, DumpJson(list));
}

bool IsJobId(std::string_view id) {
  if (id.size() != 36) return false;
  for (size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

Result<Job> JobsApi::Find(const Principal& principal, const std::string& id) {
  // Job ids are UUIDs: anything else names no job, and never reaches Redis (where a crafted id
  // such as "<id>:issues" would name another key).
  if (!IsJobId(id)) return Status(ErrorCode::kNotFound, "There is no job with that id.");
  auto job = store_.Get(principal.account.id, id);
  if (!job.ok()) return job.status();
  if (!job->has_value()) return Status(ErrorCode::kNotFound, "There is no job " + id + ".");
  return std::move(**job);
}

HttpResponse JobsApi::Get(const Principal& principal, const std::string& id) {
  auto job = Find(principal, id);
  if (!job.ok()) return ErrorResponse(job.status());
  // The detail, then the issues page by page: memory is one page, whatever the job's size.
  std::string head = DumpJson(JobDetailJson(*job));
  head.pop_back();  // '}'
  head += ",\"issues\":[";
  auto first = store_.Issues(*job, 0, options_.issues_page);
  if (!first.ok()) return ErrorResponse(first.status());
  HttpResponse r = JsonResponse(200, std::move(head));
  struct Pages {
    JobStore* store = nullptr;
    Job job;
    int64_t page = 0;
    int64_t next = 0;
    bool done = false;
    std::vector<std::string> items;
  };
  auto pages = std::make_shared<Pages>();
  pages->store = &store_;
  pages->job = *job;
  pages->page = options_.issues_page;
  const bool small = first->size() < static_cast<size_t>(options_.issues_page);
  pages->items = std::move(*first);
  auto write_page = [](Pages& p, std::string* out) {
    for (size_t i = 0; i < p.items.size(); ++i) {
      if (p.next + static_cast<int64_t>(i) > 0) out->push_back(',');
      *out += p.items[i];
    }
    p.next += static_cast<int64_t>(p.items.size());
    const bool last = static_cast<int64_t>(p.items.size()) < p.page;
    p.items.clear();
    return last;
  };
  if (small) {  // one page holds them all: one body
    write_page(*pages, &r.body);
    r.body += "]}";
    return r;
  }
  r.body_producer = [pages, write_page](std::string* out) {
    if (pages->done) return false;
    if (pages->items.empty()) {
      auto more = pages->store->Issues(pages->job, pages->next, pages->page);
      if (!more.ok()) {  // too late for an error status: end the body early
        pages->done = true;
        return false;
      }
      pages->items = std::move(*more);
    }
    if (write_page(*pages, out)) {
      *out += "]}";
      pages->done = true;
      return false;
    }
    return true;
  };
  return r;
}

HttpResponse JobsApi::Cleaned(const Principal& principal, const std::string& id) {
  auto job = Find(principal, id);
  if (!job.ok()) return ErrorResponse(job.status());
  if (job->status != "done") {
    return ErrorResponse(Status(ErrorCode::kJobNotDone, "Job " + id + " is " + job->status +
                                                          "; its cleaned file exists once it "
                                                          "is done."));
  }
  auto chunks = store_.CleanedChunks(*job);
  if (!chunks.ok()) return ErrorResponse(chunks.status());
  HttpResponse r;
  r.status = 200;
  r.content_type = std::string(ingest::ContentTypeFor(job->format));
  size_t total = 0;
  for (const auto& c : *chunks) total += c.size();
  r.body.reserve(total);
  for (const auto& c : *chunks) r.body += c;
  std::string name = job->filename;
  for (char& c : name) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
  }
  r.SetHeader("Content-Disposition", "attachment; filename=\"cleaned-" + name + "\"");
  return r;
}

HttpResponse JobsApi::IssuesPage(const HttpRequest& request, const Principal& principal,
                                 const std::string& id) {
  const std::string format = request.Query("format").value_or("json");
  if (format != "json" && format != "csv") {
    return ErrorResponse(Invalid("format", "must be json or csv"));
  }
  auto offset = IntParam(request, "offset", 0, 0, INT64_MAX / 2);
  if (!offset.ok()) return ErrorResponse(offset.status());
  auto limit = IntParam(request, "limit", 1000, 1, 10000);
  if (!limit.ok()) return ErrorResponse(limit.status());
  auto job = Find(principal, id);
  if (!job.ok()) return ErrorResponse(job.status());
  auto issues = store_.Issues(*job, *offset, *limit);
  if (!issues.ok()) return ErrorResponse(issues.status());
  if (format == "json") {
    return JsonResponse(200, WithArray(DumpJson(json{{"job_id", job->id},
                                                     {"status", job->status},
                                                     {"total", job->issues},
                                                     {"offset", *offset},
                                                     {"limit", *limit}}),
                                       "issues", *issues));
  }
  HttpResponse r;
  r.content_type = "text/csv; charset=utf-8";
  r.body = "id,issue_row,severity,field,code,message,original_value,fixed_value\r\n";
  for (const auto& text : *issues) {
    json i = json::parse(text, nullptr, false);
    if (!i.is_object()) continue;
    auto str = [&](const char* k) {
      return i[k].is_string() ? i[k].get<std::string>() : std::string();
    };
    r.body += std::to_string(i["id"].get<int64_t>()) + "," +
              std::to_string(i["issue_row"].get<int64_t>()) + "," + str("severity") + "," +
              CsvCell(str("field")) + "," + str("code") + "," + CsvCell(str("message")) + "," +
              CsvCell(str("original_value")) + "," + CsvCell(str("fixed_value")) + "\r\n";
  }
  r.SetHeader("X-Total-Count", std::to_string(job->issues));
  return r;
}

}  // namespace dq::gateway
