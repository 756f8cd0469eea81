// A job: one uploaded file, validated asynchronously. Status goes queued -> processing -> done
// or failed (with `error`); a job whose worker dies goes back to queued and is taken again.
// Every claim writes a random `claim_id`, the fencing token: every write of an attempt is refused
// once a newer attempt exists (docs/architecture.md, "The job flow"). `attempts` only counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dq/ingest/file_format.h"
#include "dq/ingest/row_reader.h"
#include "dq/report/file_check.h"

namespace dq::gateway {

inline constexpr const char* kCleanedFromFixes = "fixes";

// Where a job is in its life. The names are the API's `status` values and what the store keeps in
// the job's hash (and what its Lua scripts compare): JobStatusName and ParseJobStatus are the one
// place that maps between the two.
enum class JobStatus {
  kQueued,      // "queued": accepted (or back from a lost worker), waiting for a worker
  kProcessing,  // "processing": claimed by a worker
  kDone,        // "done"
  kFailed,      // "failed" (with Job::error)
};
std::string_view JobStatusName(JobStatus status);
// nullopt for any other text.
std::optional<JobStatus> ParseJobStatus(std::string_view name);

// The file's check (what is read and checked: dq/report/file_check.h) and its life as a job.
struct Job : report::FileCheck {
  std::string id;  // UUIDv4
  std::string account_id;
  std::string filename;
  JobStatus status = JobStatus::kQueued;
  std::string error;   // set when failed
  int64_t file_bytes = 0;
  // The feed (docs/api.md, "Feeds"): the caller's `feed`, or DefaultFeed(filename, check types).
  // Jobs of one feed are compared: previous_job_id is the newest done job of the feed created
  // before this one, and changes (dq/report/job_changes.h, a JSON object) what changed since it. Both are
  // set by the worker that finishes the job ("" before, or when the feed had no earlier job).
  std::string feed;
  std::string previous_job_id;
  std::string changes;
  // `max_rows` of the upload (0: none): only the first max_rows data rows are checked, and
  // rows_total says how many were. rows_in_file is the file's data rows, whatever max_rows is.
  int64_t max_rows = 0;
  int64_t rows_in_file = 0;
  // How the store keeps the upload's pieces (and those of a cleaned file stored whole by an
  // earlier version): "zstd", or "" (raw) for jobs stored before compression
  // (jobs/piece_codec.h). Set by the store, not by the API.
  std::string pieces;
  // Where a done job's cleaned file comes from: kCleanedFromFixes, its kept upload and its fixes
  // (dq/report/cleaned_file.h), written on download; or "" for jobs finished by an earlier version,
  // which stored the cleaned file itself in pieces. Set by the worker that finishes the job.
  std::string cleaned_from;
  // Where the job's files are (job_artifacts.h). All empty or 0 for jobs stored before the
  // artifact store, whose files are all in Redis. Set by the store, not by the API.
  std::string file_store;      // kFileInStore: the upload's pieces are objects; "": in Redis
  std::string output_attempt;  // the attempt whose issue pages and fix pieces are committed
  int64_t issue_pages = 0;     // committed issue pages (the records after them are in Redis)
  int64_t file_stored_bytes = 0;  // the upload's objects' bytes (compressed); 0: file_bytes
  int64_t fix_pieces = 0;      // committed fix pieces (those after them are in Redis)
  int64_t cleaned_pieces = 0;  // committed pieces of a cleaned file kept whole
  int64_t rows_total = 0;
  int64_t rows_error = 0;
  int64_t rows_warning = 0;
  int64_t rows_fixed = 0;
  int64_t errors = 0;    // issues of severity error
  int64_t warnings = 0;  // issues of severity warning
  int64_t fixes = 0;     // values fixed
  int64_t issues = 0;    // issues stored (at most the per-job cap)
  int64_t issues_found = 0;  // issues found, exact even when the stored ones are capped
  int64_t rows_done = 0;     // rows whose results are stored (for a cancelled job's refund)
  int64_t health_score = 0;  // 0 until done
  std::string channels;      // with a platform: ChannelsJson of the final stats, once done
  int64_t attempts = 0;      // times a worker started it (a count, not a token)
  // The current attempt's fencing token: random, written by each claim (never by the API). A
  // counter is not unique across a Redis failover (a claim lost with the old master reissues its
  // number); a random id is.
  std::string claim_id;
  // Attempts that stopped because a dependency (validator, Redis) was down, and said so. They
  // do not count against max_attempts: a validator restart must not fail the jobs it interrupts.
  int64_t postponed = 0;
  bool accepted = false;     // queued and listed: the client got its 202
  bool event_published = false;  // job.complete appended to dq:events
  bool refunded = false;         // the quota of a failed or cancelled job was given back
  std::string created_at;    // ISO 8601 UTC, milliseconds
  int64_t created_ms = 0;
  std::string started_at;
  std::string finished_at;
  std::string quota_month;  // where its records were reserved ("202611")
  std::string idempotency_key;  // Redis key of the upload's Idempotency-Key record, if any

  bool finished() const { return status == JobStatus::kDone || status == JobStatus::kFailed; }
};

// The feed of an upload that names none: the filename and the check types, sorted, as
// "products.csv (price, product)".
std::string DefaultFeed(const std::string& filename, const CheckTypeList& check_types);

// The job summary of GET /v1/jobs (and the 202 of an upload).
nlohmann::json JobSummaryJson(const Job& job);
// The job detail of GET /v1/jobs/:id, without the issues array (the caller adds it).
nlohmann::json JobDetailJson(const Job& job);

// The job's `changes` as JSON (null when none were computed).
nlohmann::json JobChangesJson(const Job& job);

// The Redis hash fields of a job, and back.
std::vector<std::string> JobToHashArgs(const Job& job);
Job JobFromHash(const std::vector<std::pair<std::string, std::string>>& fields);

std::string MappingJson(const std::vector<std::pair<std::string, std::string>>& mapping);

}  // namespace dq::gateway
