// The job reads: list, detail (streamed page by page), cleaned download and the issues page.
#include "dq/http/content_disposition.h"
#include "jobs_api.h"
#include "upload_request.h"

#include <algorithm>
#include <memory>

#include "dq/http/error_response.h"
#include "dq/http/json_util.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"
#include "dq/report/cleaned_file.h"
#include "dq/report/issue_json.h"
#include "dq/report/issue_query.h"
#include "dq/ingest/row_writer.h"

namespace dq::gateway {
namespace {

using nlohmann::json;
using report::CleanedFile;

Status NoSuchJob(const std::string& id) {
  return Status(ErrorCode::kNotFound, "There is no job " + id + ".");
}

// After the last read of a download: Ok while the job exists, kNotFound once it was deleted (or
// expired), the store's error when it cannot tell.
Status StillThere(JobStore& store, const Job& job) {
  auto still = store.Get(job.account_id, job.id);
  if (!still.ok()) return still.status();
  return still->has_value() ? Status::Ok() : NoSuchJob(job.id);
}

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, field + ": " + message, {{field, message}});
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

http::HttpResponse JobsApi::List(const http::HttpRequest& request, const Principal& principal) {
  JobQuery query;
  query.feed = request.Query("feed").value_or("");
  query.filename_contains = request.Query("filename").value_or("");
  if (query.feed.size() > kMaxFeedChars) {
    return http::ErrorResponse(
        Invalid("feed", "must be at most " + std::to_string(kMaxFeedChars) + " characters"));
  }
  if (query.filename_contains.size() > 255) {
    return http::ErrorResponse(Invalid("filename", "must be at most 255 characters"));
  }
  // A feed's history is its last 30 jobs; any other list pages by 20.
  auto limit = IntParam(request, "limit", 20, 1, query.feed.empty() ? 20 : 30);
  if (!limit.ok()) return http::ErrorResponse(limit.status());
  int64_t before_ms = 0;
  if (auto before = request.Query("before")) {
    auto ms = ParseIso8601Millis(*before);
    if (!ms) {
      return http::ErrorResponse(Invalid("before",
                                         "must be a created_at of a job, such as "
                                         "2026-11-22T09:05:01.042Z"));
    }
    before_ms = *ms;
  }
  query.before_ms = before_ms;
  query.limit = static_cast<int>(*limit);
  auto jobs = query.feed.empty() && query.filename_contains.empty()
                  ? store_.ListBefore(principal.account.id, before_ms, query.limit)
                  : store_.Query(principal.account.id, query);
  if (!jobs.ok()) return http::ErrorResponse(jobs.status());
  json list = json::array();
  for (const auto& j : *jobs) list.push_back(JobSummaryJson(j));
  return http::JsonResponse(200, http::DumpJson(list));
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
  if (!job->has_value()) return NoSuchJob(id);
  return std::move(**job);
}

http::HttpResponse JobsApi::Get(const http::HttpRequest& request, const Principal& principal,
                                const std::string& id) {
  const std::string issues = request.Query("issues").value_or("all");
  if (issues != "all" && issues != "none") {
    return http::ErrorResponse(Invalid("issues", "must be all or none"));
  }
  if (issues == "all") return Get(principal, id);
  auto job = Find(principal, id);
  if (!job.ok()) return http::ErrorResponse(job.status());
  return http::JsonResponse(200, http::DumpJson(JobDetailJson(*job)));
}

Status JobsApi::DownloadAdmitted() const {
  if (downloads_ != nullptr && downloads_->Full()) {
    return Status(ErrorCode::kUnavailable, http::kDownloadsFullMessage);
  }
  return Status::Ok();
}

http::HttpResponse JobsApi::Get(const Principal& principal, const std::string& id) {
  auto job = Find(principal, id);
  if (!job.ok()) return http::ErrorResponse(job.status());
  // Past one page the answer is streamed: a download, refused while downloads are full.
  if (job->issues >= options_.issues_page) {
    if (Status s = DownloadAdmitted(); !s.ok()) return http::ErrorResponse(s);
  }
  // The detail, then the issues page by page: memory is one page, whatever the job's size.
  std::string head = http::DumpJson(JobDetailJson(*job));
  head.pop_back();  // '}'
  head += ",\"issues\":[";
  auto first = store_.Issues(*job, 0, options_.issues_page);
  if (!first.ok()) return http::ErrorResponse(first.status());
  http::HttpResponse r = http::JsonResponse(200, std::move(head));
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
    if (pages->done) return http::BodyStep::kEnd;
    if (pages->items.empty()) {
      auto more = pages->store->Issues(pages->job, pages->next, pages->page);
      if (!more.ok()) {  // too late for an error status: the answer is cut off
        log::Error("job detail cut off", {{"job_id", pages->job.id},
                                          {"error", more.status().message()}});
        pages->done = true;
        return http::BodyStep::kFailed;
      }
      pages->items = std::move(*more);
    }
    if (write_page(*pages, out)) {
      pages->done = true;
      // Fewer issues than the job had stored when the answer began: deleted (or expired)
      // meanwhile. Cut off, not closed as if the list were whole.
      if (pages->next < pages->job.issues) {
        log::Error("job detail cut off", {{"job_id", pages->job.id},
                                          {"error", "the job was deleted during the answer"}});
        return http::BodyStep::kFailed;
      }
      *out += "]}";
      return http::BodyStep::kEnd;
    }
    return http::BodyStep::kMore;
  };
  return r;
}

// The cleaned file of a job that kept its upload and its fixes: written now, from them
// (cleaned_file.h), a part at a time (JobsOptions::cleaned_part_bytes). The first part is written
// before answering, so a store that is down is a proper error, and a file that fits in it is sent
// whole, with its length.
http::HttpResponse JobsApi::CleanedFromFixes(const Job& job, ingest::FormulaCells formulas) {
  const size_t part = std::max<size_t>(1, options_.cleaned_part_bytes);
  struct Writing {
    JobStore* store = nullptr;
    Job job;
    std::unique_ptr<CleanedFile> file;
  };
  auto w = std::make_shared<Writing>();
  w->store = &store_;
  w->job = job;
  Writing* raw = w.get();
  w->file = std::make_unique<CleanedFile>(
      job, [raw](int64_t i) { return raw->store->FilePiece(raw->job, i); },
      [raw](int64_t i) { return raw->store->FixesPiece(raw->job, i); }, formulas);
  // Reads that end early because the job was deleted (or expired) meanwhile must not pass for
  // the end of the file: a job is deleted in one step and never comes back, so when it still
  // exists after the last read, every read saw it whole.
  http::HttpResponse r;
  auto more = w->file->Next(&r.body, part);
  if (more.ok() && !*more) {
    if (Status s = StillThere(store_, job); !s.ok()) return http::ErrorResponse(s);
  }
  if (!more.ok()) {
    return http::ErrorResponse(more.status().code() == ErrorCode::kNotFound ? NoSuchJob(job.id)
                                                                            : more.status());
  }
  r.status = 200;
  r.content_type = std::string(ingest::ContentTypeFor(job.format));
  if (*more) {
    // What the download holds while its client reads (the upload piece, up to two for CSV): for
    // the server's bound on downloads (DQ_DOWNLOAD_MEMORY_BYTES). A weak reference, so that it
    // never keeps the file alive after the producer.
    r.body_held_bytes = [weak = std::weak_ptr<Writing>(w)]() -> size_t {
      auto held = weak.lock();
      return held && held->file ? held->file->held_bytes() : 0;
    };
    r.body_producer = [w, part](std::string* out) {
      auto next = w->file->Next(out, part);
      Status s = !next.ok() ? next.status() : *next ? Status::Ok() : StillThere(*w->store, w->job);
      if (!s.ok()) {  // too late for an error status: the download is cut off
        log::Error("cleaned file cut off", {{"job_id", w->job.id}, {"error", s.message()}});
        return http::BodyStep::kFailed;
      }
      return next.ok() && *next ? http::BodyStep::kMore : http::BodyStep::kEnd;
    };
  }
  return r;
}

// The cleaned file of a job finished by an earlier version, stored whole in pieces: sent piece
// by piece, as the issues are, so memory is a piece or two whatever the file's size. The first
// two pieces are read before answering, so a store that is down or a damaged first piece is a
// proper error, and a file of one piece is sent whole, with its length.
http::HttpResponse JobsApi::StoredCleaned(const Job& job) {
  auto first = store_.CleanedPiece(job, 0);
  if (!first.ok()) return http::ErrorResponse(first.status());
  auto second = first->has_value() ? store_.CleanedPiece(job, 1)
                                   : Result<std::optional<std::string>>(std::nullopt);
  if (!second.ok()) return http::ErrorResponse(second.status());
  // Fewer than two pieces: a file of one piece, unless the job was deleted meanwhile. No piece
  // at all is never a cleaned file (it has at least its header, or is a workbook).
  if (!second->has_value()) {
    if (Status s = StillThere(store_, job); !s.ok()) return http::ErrorResponse(s);
    if (!first->has_value()) {
      return http::ErrorResponse(
          Status(ErrorCode::kInternal, "The cleaned file of job " + job.id + " is missing."));
    }
  }
  http::HttpResponse r;
  r.status = 200;
  r.content_type = std::string(ingest::ContentTypeFor(job.format));
  if (first->has_value()) r.body = std::move(**first);
  if (second->has_value()) {
    struct Pieces {
      JobStore* store = nullptr;
      Job job;
      int64_t next = 2;
      std::optional<std::string> held;  // read, not yet sent
    };
    auto pieces = std::make_shared<Pieces>();
    pieces->store = &store_;
    pieces->job = job;
    pieces->held = std::move(*second);
    r.body_held_bytes = [weak = std::weak_ptr<Pieces>(pieces)]() -> size_t {
      auto p = weak.lock();
      return p && p->held ? p->held->capacity() : 0;
    };
    r.body_producer = [pieces](std::string* out) {
      if (!pieces->held) return http::BodyStep::kEnd;
      *out += *pieces->held;
      auto next = pieces->store->CleanedPiece(pieces->job, pieces->next++);
      if (!next.ok()) {  // too late for an error status: the download is cut off
        log::Error("cleaned file cut off", {{"job_id", pieces->job.id},
                                            {"error", next.status().message()}});
        return http::BodyStep::kFailed;
      }
      pieces->held = std::move(*next);
      if (pieces->held) return http::BodyStep::kMore;
      // No piece there: the end of the file, unless the job was deleted (or expired) meanwhile,
      // which took its pieces with it and must not pass for the end.
      if (Status s = StillThere(*pieces->store, pieces->job); !s.ok()) {
        log::Error("cleaned file cut off", {{"job_id", pieces->job.id}, {"error", s.message()}});
        return http::BodyStep::kFailed;
      }
      return http::BodyStep::kEnd;
    };
  }
  return r;
}

http::HttpResponse JobsApi::Cleaned(const http::HttpRequest& request, const Principal& principal,
                                    const std::string& id) {
  const std::string formulas = request.Query("formulas").value_or("neutralise");
  if (formulas != "neutralise" && formulas != "keep") {
    return http::ErrorResponse(Invalid("formulas", "must be neutralise or keep"));
  }
  return Cleaned(principal, id,
                 formulas == "keep" ? ingest::FormulaCells::kKeep
                                    : ingest::FormulaCells::kNeutralise);
}

http::HttpResponse JobsApi::Cleaned(const Principal& principal, const std::string& id,
                                    ingest::FormulaCells formulas) {
  auto job = Find(principal, id);
  if (!job.ok()) return http::ErrorResponse(job.status());
  if (job->status != JobStatus::kDone) {
    return http::ErrorResponse(Status(
        ErrorCode::kJobNotDone, "Job " + id + " is " + std::string(JobStatusName(job->status)) +
                                    "; its cleaned file exists once it "
                                    "is done."));
  }
  if (Status s = DownloadAdmitted(); !s.ok()) return http::ErrorResponse(s);
  http::HttpResponse r = job->cleaned_from == kCleanedFromFixes ? CleanedFromFixes(*job, formulas)
                                                                : StoredCleaned(*job);
  if (r.status != 200) return r;
  r.SetHeader("Content-Disposition", http::AttachmentDisposition("cleaned-" + job->filename));
  return r;
}

http::HttpResponse JobsApi::IssuesPage(const http::HttpRequest& request, const Principal& principal,
                                       const std::string& id) {
  const std::string format = request.Query("format").value_or("json");
  if (format != "json" && format != "csv") {
    return http::ErrorResponse(Invalid("format", "must be json or csv"));
  }
  // limit=all: the CSV of every matching issue, streamed (IssuesCsvAll). The JSON form pages.
  auto params = request.query;
  bool all = false;
  for (auto it = params.begin(); it != params.end();) {
    if (it->first == "limit" && it->second == "all") {
      all = true;
      it = params.erase(it);
    } else {
      ++it;
    }
  }
  if (all && format != "csv") {
    return http::ErrorResponse(Invalid("limit",
                                       "all is only for format=csv; the JSON form pages with "
                                       "next_cursor, at most 10000 issues a page"));
  }
  auto query = report::ParseIssueQuery(params, 1000, 10000);
  if (!query.ok()) return http::ErrorResponse(query.status());
  if (all && query->cursor) {
    return http::ErrorResponse(
        Invalid("cursor", "limit=all starts at the first issue (or at offset)"));
  }
  auto job = Find(principal, id);
  if (!job.ok()) return http::ErrorResponse(job.status());
  if (all) return IssuesCsvAll(*job, *query);
  const Job& found = *job;
  auto page = report::CollectIssues(
      *query, found.issues,
      [this, &found](int64_t offset, int64_t count) { return store_.Issues(found, offset, count); },
      options_.issues_page);
  if (!page.ok()) return http::ErrorResponse(page.status());
  const json next = page->next ? json(report::EncodeCursor(*page->next)) : json(nullptr);
  if (format == "json") {
    return http::JsonResponse(
        200, WithArray(http::DumpJson(json{{"job_id", job->id},
                                           {"status", std::string(JobStatusName(job->status))},
                                           {"total", job->issues},
                                           {"offset", query->offset},
                                           {"limit", query->limit},
                                           {"next_cursor", next}}),
                       "issues", page->issues));
  }
  http::HttpResponse r;
  r.content_type = "text/csv; charset=utf-8";
  r.body = report::IssuesCsvHeader();  // the issues as `dq check --format csv` writes them
  for (const auto& text : page->issues) report::AppendIssueCsvRow(r.body, text);
  r.SetHeader("X-Total-Count", std::to_string(job->issues));
  if (page->next) r.SetHeader("X-Next-Cursor", report::EncodeCursor(*page->next));
  return r;
}

// Every issue matching `query` as CSV (GET /v1/jobs/:id/issues?format=csv&limit=all): the
// first page is read before answering, so a store that is down is a proper error; then a page of
// matches at a time is read and written while the answer is sent, so memory is one page, whatever
// the job's size. A job deleted meanwhile cuts the answer off rather than ending it short.
http::HttpResponse JobsApi::IssuesCsvAll(const Job& job, report::IssueQuery query) {
  if (Status s = DownloadAdmitted(); !s.ok()) return http::ErrorResponse(s);
  struct Scan {
    JobStore* store = nullptr;
    Job job;
    report::IssueQuery query;
    int64_t batch = 0;
    bool done = false;
  };
  auto scan = std::make_shared<Scan>();
  scan->store = &store_;
  scan->job = job;
  scan->query = std::move(query);
  scan->query.limit = std::max<int64_t>(1, options_.issues_page);
  scan->batch = std::max<int64_t>(1, options_.issues_page);
  // Writes the next page of matches to `out`; false once the scan is over.
  auto next_page = [](Scan& s, std::string* out) -> Result<bool> {
    Scan* raw = &s;
    auto page = report::CollectIssues(
        s.query, s.job.issues,
        [raw](int64_t offset, int64_t count) { return raw->store->Issues(raw->job, offset, count); },
        s.batch);
    if (!page.ok()) return page.status();
    for (const auto& text : page->issues) report::AppendIssueCsvRow(*out, text);
    if (!page->next) return false;
    s.query.offset = 0;  // the offset was spent on the first page; the cursor goes on from here
    s.query.cursor = page->next;
    return true;
  };
  http::HttpResponse r;
  r.content_type = "text/csv; charset=utf-8";
  r.body = report::IssuesCsvHeader();
  auto more = next_page(*scan, &r.body);
  if (!more.ok()) return http::ErrorResponse(more.status());
  r.SetHeader("X-Total-Count", std::to_string(job.issues));
  if (!*more) {
    if (Status s = StillThere(store_, job); !s.ok()) return http::ErrorResponse(s);
    return r;
  }
  r.body_producer = [scan, next_page](std::string* out) {
    if (scan->done) return http::BodyStep::kEnd;
    auto again = next_page(*scan, out);
    Status s = !again.ok() ? again.status() : *again ? Status::Ok() : StillThere(*scan->store, scan->job);
    if (!s.ok()) {  // too late for an error status: the download is cut off
      log::Error("issues CSV cut off", {{"job_id", scan->job.id}, {"error", s.message()}});
      scan->done = true;
      return http::BodyStep::kFailed;
    }
    if (*again) return http::BodyStep::kMore;
    scan->done = true;
    return http::BodyStep::kEnd;
  };
  return r;
}

}  // namespace dq::gateway
