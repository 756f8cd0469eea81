#include "job.h"

#include "job_store.h"

#include "dq/ingest/mapping_inference.h"

#include <algorithm>

namespace dq::gateway {
namespace {

using nlohmann::json;

int64_t ToInt(const std::string& s) {
  try {
    return s.empty() ? 0 : std::stoll(s);
  } catch (const std::exception&) {
    return 0;
  }
}

ingest::FileFormat FormatFromName(const std::string& name) {
  for (auto f : {ingest::FileFormat::kCsv, ingest::FileFormat::kTsv, ingest::FileFormat::kJsonArray,
                 ingest::FileFormat::kNdjson, ingest::FileFormat::kXlsx,
                 ingest::FileFormat::kXml}) {
    if (ingest::FormatName(f) == name) return f;
  }
  return ingest::FileFormat::kCsv;
}

json MappingObject(const std::vector<std::pair<std::string, std::string>>& mapping) {
  json m = json::object();
  for (const auto& [field, column] : mapping) m[field] = column;
  return m;
}

}  // namespace

std::string_view JobStatusName(JobStatus status) {
  switch (status) {
    case JobStatus::kQueued: return "queued";
    case JobStatus::kProcessing: return "processing";
    case JobStatus::kDone: return "done";
    case JobStatus::kFailed: return "failed";
  }
  return "queued";
}

std::optional<JobStatus> ParseJobStatus(std::string_view name) {
  for (auto s : {JobStatus::kQueued, JobStatus::kProcessing, JobStatus::kDone, JobStatus::kFailed}) {
    if (JobStatusName(s) == name) return s;
  }
  return std::nullopt;
}

json JobChangesJson(const Job& j) {
  if (j.changes.empty()) return nullptr;
  json c = json::parse(j.changes, nullptr, false);
  return c.is_object() ? c : json(nullptr);
}

std::string MappingJson(const std::vector<std::pair<std::string, std::string>>& mapping) {
  return MappingObject(mapping).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string DefaultFeed(const std::string& filename, const CheckTypeList& types) {
  std::vector<std::string> check_types = types.Names();
  std::sort(check_types.begin(), check_types.end());
  std::string feed = filename + " (";
  for (size_t i = 0; i < check_types.size(); ++i) feed += (i ? ", " : "") + check_types[i];
  return feed + ")";
}

bool JobMatches(const JobQuery& query, std::string_view feed, std::string_view filename) {
  if (!query.feed.empty() && feed != query.feed) return false;
  if (query.filename_contains.empty()) return true;
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  };
  return lower(filename).find(lower(query.filename_contains)) != std::string::npos;
}

json JobSummaryJson(const Job& j) {
  return {{"id", j.id},
          {"filename", j.filename},
          {"status", std::string(JobStatusName(j.status))},
          {"check_types", j.check_types.Text()},
          {"source", j.source.empty() ? json(nullptr) : json(j.source)},
          {"feed", j.feed.empty() ? json(nullptr) : json(j.feed)},
          {"previous_job_id", j.previous_job_id.empty() ? json(nullptr) : json(j.previous_job_id)},
          {"max_rows", j.max_rows > 0 ? json(j.max_rows) : json(nullptr)},
          {"rows_in_file", j.rows_in_file > 0 ? j.rows_in_file : j.rows_total},
          {"rows_total", j.rows_total},
          {"rows_error", j.rows_error},
          {"rows_warning", j.rows_warning},
          {"rows_fixed", j.rows_fixed},
          {"health_score", j.health_score},
          {"created_at", j.created_at}};
}

json JobDetailJson(const Job& j) {
  json d = JobSummaryJson(j);
  d.update(report::FileCheckJson(j));  // how the file was read and checked, as `dq check` says
  d["stats"] = {{"rows", j.rows_total},
                {"errors", j.errors},
                {"warnings", j.warnings},
                {"fixes", j.fixes},
                {"score", j.health_score}};
  if (!j.channels.empty()) {  // readiness per platform template (docs/api.md)
    json channels = json::parse(j.channels, nullptr, false);
    if (channels.is_object()) d["channels"] = std::move(channels);
  }
  d["issues_total"] = std::max(j.issues, j.issues_found);
  d["issues_truncated"] = j.issues_found > j.issues;
  d["started_at"] = j.started_at.empty() ? json(nullptr) : json(j.started_at);
  d["finished_at"] = j.finished_at.empty() ? json(nullptr) : json(j.finished_at);
  if (j.status == JobStatus::kFailed) d["error"] = j.error;
  d["changes"] = JobChangesJson(j);
  return d;
}

std::vector<std::string> JobToHashArgs(const Job& j) {
  json header = j.header;
  return {"id", j.id,
          "account_id", j.account_id,
          "filename", j.filename,
          "status", std::string(JobStatusName(j.status)),
          "error", j.error,
          "check_types", j.check_types.Text(),
          "platform", j.platform,
          "mapping", MappingJson(j.mapping),
          "mapping_inferred", j.mapping_inferred ? "1" : "0",
          "format", std::string(ingest::FormatName(j.format)),
          "encoding", j.encoding,
          "expiry_date_order", j.expiry_date_order,
          "source", j.source,
          "source_reason", j.source_reason,
          "notes", json(j.notes).dump(-1, ' ', false, json::error_handler_t::replace),
          "unit_note", j.unit_note,
          "planned", j.planned ? "1" : "0",
          "weight_unit", j.weight_unit,
          "conventions", j.conventions,
          "gtin_padding_evidence", j.gtin_padding_evidence ? "1" : "0",
          "delimiter", std::string(1, j.dialect.delimiter),
          "crlf", j.dialect.crlf ? "1" : "0",
          "bom", j.dialect.bom ? "1" : "0",
          "header", header.dump(-1, ' ', false, json::error_handler_t::replace),
          "file_bytes", std::to_string(j.file_bytes),
          "feed", j.feed,
          "previous_job_id", j.previous_job_id,
          "changes", j.changes,
          "max_rows", std::to_string(j.max_rows),
          "rows_in_file", std::to_string(j.rows_in_file),
          "file_stored_bytes", std::to_string(j.file_stored_bytes),
          "file_chunks", std::to_string(j.file_pieces),
          "pieces", j.pieces,
          "cleaned_from", j.cleaned_from,
          "file_store", j.file_store,
          "output_attempt", j.output_attempt,
          "issue_pages", std::to_string(j.issue_pages),
          "fix_pieces", std::to_string(j.fix_pieces),
          "cleaned_pieces", std::to_string(j.cleaned_pieces),
          "rows_total", std::to_string(j.rows_total),
          "rows_error", std::to_string(j.rows_error),
          "rows_warning", std::to_string(j.rows_warning),
          "rows_fixed", std::to_string(j.rows_fixed),
          "errors", std::to_string(j.errors),
          "warnings", std::to_string(j.warnings),
          "fixes", std::to_string(j.fixes),
          "issues", std::to_string(j.issues),
          "issues_found", std::to_string(j.issues_found),
          "rows_done", std::to_string(j.rows_done),
          "accepted", j.accepted ? "1" : "0",
          "event_published", j.event_published ? "1" : "0",
          "refunded", j.refunded ? "1" : "0",
          "idempotency_key", j.idempotency_key,
          "health_score", std::to_string(j.health_score),
          "channels", j.channels,
          "attempts", std::to_string(j.attempts),
          "postponed", std::to_string(j.postponed),
          "created_at", j.created_at,
          "created_ms", std::to_string(j.created_ms),
          "started_at", j.started_at,
          "finished_at", j.finished_at,
          "quota_month", j.quota_month};
}

Job JobFromHash(const std::vector<std::pair<std::string, std::string>>& fields) {
  Job j;
  for (const auto& [k, v] : fields) {
    if (k == "id") j.id = v;
    else if (k == "account_id") j.account_id = v;
    else if (k == "filename") j.filename = v;
    else if (k == "status") j.status = ParseJobStatus(v).value_or(JobStatus::kQueued);
    else if (k == "error") j.error = v;
    else if (k == "check_types") j.check_types = CheckTypeList::FromText(v);
    else if (k == "platform") j.platform = v;
    else if (k == "mapping") {
      json m = json::parse(v, nullptr, false);
      if (m.is_object()) {
        for (const auto& [field, column] : m.items()) {
          if (column.is_string()) j.mapping.emplace_back(field, column.get<std::string>());
        }
      }
    } else if (k == "mapping_inferred") j.mapping_inferred = v == "1";
    else if (k == "format") j.format = FormatFromName(v);
    else if (k == "encoding") j.encoding = v.empty() ? "utf-8" : v;
    else if (k == "expiry_date_order") j.expiry_date_order = v;
    else if (k == "source") j.source = v;
    else if (k == "source_reason") j.source_reason = v;
    else if (k == "notes") {
      json n = json::parse(v, nullptr, false);
      if (n.is_array()) {
        for (const auto& s : n) {
          if (s.is_string()) j.notes.push_back(s.get<std::string>());
        }
      }
    } else if (k == "unit_note") j.unit_note = v;
    else if (k == "planned") j.planned = v == "1";
    else if (k == "weight_unit") j.weight_unit = v;
    else if (k == "conventions") j.conventions = v;
    else if (k == "gtin_padding_evidence") j.gtin_padding_evidence = v == "1";
    else if (k == "delimiter") j.dialect.delimiter = v.empty() ? ',' : v[0];
    else if (k == "crlf") j.dialect.crlf = v == "1";
    else if (k == "bom") j.dialect.bom = v == "1";
    else if (k == "header") {
      json h = json::parse(v, nullptr, false);
      if (h.is_array()) {
        for (const auto& c : h) j.header.push_back(c.is_string() ? c.get<std::string>() : "");
      }
    } else if (k == "file_bytes") j.file_bytes = ToInt(v);
    else if (k == "feed") j.feed = v;
    else if (k == "previous_job_id") j.previous_job_id = v;
    else if (k == "changes") j.changes = v;
    else if (k == "max_rows") j.max_rows = ToInt(v);
    else if (k == "rows_in_file") j.rows_in_file = ToInt(v);
    else if (k == "file_stored_bytes") j.file_stored_bytes = ToInt(v);
    else if (k == "file_chunks") j.file_pieces = ToInt(v);
    else if (k == "pieces") j.pieces = v;
    else if (k == "cleaned_from") j.cleaned_from = v;
    else if (k == "file_store") j.file_store = v;
    else if (k == "output_attempt") j.output_attempt = v;
    else if (k == "issue_pages") j.issue_pages = ToInt(v);
    else if (k == "fix_pieces") j.fix_pieces = ToInt(v);
    else if (k == "cleaned_pieces") j.cleaned_pieces = ToInt(v);
    else if (k == "rows_total") j.rows_total = ToInt(v);
    else if (k == "rows_error") j.rows_error = ToInt(v);
    else if (k == "rows_warning") j.rows_warning = ToInt(v);
    else if (k == "rows_fixed") j.rows_fixed = ToInt(v);
    else if (k == "errors") j.errors = ToInt(v);
    else if (k == "warnings") j.warnings = ToInt(v);
    else if (k == "fixes") j.fixes = ToInt(v);
    else if (k == "issues") j.issues = ToInt(v);
    else if (k == "issues_found") j.issues_found = ToInt(v);
    else if (k == "rows_done") j.rows_done = ToInt(v);
    else if (k == "accepted") j.accepted = v == "1";
    else if (k == "event_published") j.event_published = v == "1";
    else if (k == "refunded") j.refunded = v == "1";
    else if (k == "idempotency_key") j.idempotency_key = v;
    else if (k == "health_score") j.health_score = ToInt(v);
    else if (k == "channels") j.channels = v;
    else if (k == "attempts") j.attempts = ToInt(v);
    else if (k == "claim_id") j.claim_id = v;
    else if (k == "postponed") j.postponed = ToInt(v);
    else if (k == "created_at") j.created_at = v;
    else if (k == "created_ms") j.created_ms = ToInt(v);
    else if (k == "started_at") j.started_at = v;
    else if (k == "finished_at") j.finished_at = v;
    else if (k == "quota_month") j.quota_month = v;
  }
  // Mapping order follows the standard fields, as everywhere else.
  return j;
}

}  // namespace dq::gateway
