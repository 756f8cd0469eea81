// POST /v1/jobs/preview (JobsApi::Preview): what an upload would be read as, before a job: its
// format, source platform, mapping (with how sure inference is of each column), notes and the
// check types its columns suggest.
#include "dq/http/error_response.h"
#include "dq/http/json_util.h"
#include "dq/ingest/mapping_inference.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/source_scan.h"
#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"
#include "jobs_api.h"
#include "upload_request.h"

namespace dq::gateway {
namespace {

constexpr size_t kSampleRows = 5;

}  // namespace

nlohmann::json JobsApi::QuotaJson(const Account& account) {
  auto usage = quota_.Usage(account);
  if (!usage.ok()) return nullptr;
  const auto [renews, renews_on] = QuotaRenewal(clock_.Now());
  return {{"month", usage->month.substr(0, 4) + "-" + usage->month.substr(4)},
          {"used", usage->used},
          {"limit", usage->quota},
          {"remaining", std::max<int64_t>(0, usage->quota - usage->used)},
          {"renews_on", renews_on},
          {"renews", renews}};
}

http::HttpResponse JobsApi::Limits(const Principal& principal) {
  nlohmann::json body = {{"max_file_bytes", options_.upload_max_bytes},
                         {"max_file_size", Megabytes(options_.upload_max_bytes)},
                         {"kept_upload_minutes", options_.kept_upload_minutes},
                         {"quota", QuotaJson(principal.account)}};
  return http::JsonResponse(200, http::DumpJson(body));
}

http::HttpResponse JobsApi::Preview(const http::HttpRequest& request, const Principal& principal) {
  if (request.body.size() > options_.upload_max_bytes + 64 * 1024) {
    return http::ErrorResponse(FileTooLarge(request.body.size(), options_.upload_max_bytes));
  }
  auto parsed = ParseUploadRequest(request, options_.upload_max_bytes);
  if (!parsed.ok()) return http::ErrorResponse(parsed.status());
  UploadRequest& up = **parsed;

  // Only the first rows are read: a preview does not check the whole file (the upload does).
  // They are enough for the source and the inferred mapping, which the upload decides from the
  // same rows (ingest/source_scan.h).
  auto reader = ingest::MakeRowReader(up.file.format);
  reader->Feed(up.file.data());
  reader->Finish();
  ingest::SourceScan scan({up.source, up.mapping});
  scan.Reading(*reader);
  size_t read = 0;
  while (read < ingest::SourceScan::kSampleRows) {
    auto state = reader->Next();
    if (!state.ok()) return http::ErrorResponse(state.status());
    if (*state != ingest::ReadState::kRow) break;
    scan.Row(reader->header(), reader->row());
    ++read;
  }
  // The rest of the rows are counted, not kept: what the upload would use of the quota. The
  // scan sees them too (it keeps none once decided), so the notes that count over the whole
  // file (an empty column, zeros read as no value) say what the upload's will.
  uint64_t rows_in_file = read;
  while (true) {
    auto state = reader->Next();
    if (!state.ok()) return http::ErrorResponse(state.status());
    if (*state != ingest::ReadState::kRow) break;
    scan.Row(reader->header(), reader->row());
    ++rows_in_file;
  }
  const std::vector<std::string>& header = reader->header();
  if (up.mapping) {
    if (Status s = CheckMappingColumns(*up.mapping, header); !s.ok()) return http::ErrorResponse(s);
  }
  scan.Finish(header);
  // JSON input: the header may have grown after the first rows; the sample is padded to it.
  nlohmann::json rows = nlohmann::json::array();
  for (size_t r = 0; r < scan.sample().size() && r < kSampleRows; ++r) {
    rows.push_back(scan.sample()[r]);
  }
  const bool inferred = !up.mapping.has_value();
  Job plan;
  plan.mapping = scan.mapping();
  report::ApplyScan(scan, up.check_types, up.weight_unit, plan);
  nlohmann::json m = nlohmann::json::object();
  for (const auto& [field, column] : plan.mapping) m[field] = column;
  nlohmann::json confidence = nlohmann::json::object();
  for (const auto& c : scan.inferred()) {
    confidence[c.field] = {{"confidence", c.confidence}, {"found_by", c.how}};
  }
  std::vector<std::string> mapping_notes =
      inferred ? ingest::MappingNotes(header, plan.mapping) : std::vector<std::string>{};
  if (!plan.unit_note.empty()) mapping_notes.push_back(plan.unit_note);
  std::vector<std::string> notes = plan.notes;
  if (auto misfit = ingest::CheckTypesMisfit(up.check_types, plan.mapping)) {
    notes.push_back(*misfit + " An upload with these check types is refused.");
  }
  nlohmann::json body = {{"format", std::string(ingest::FormatName(up.file.format))},
                         {"encoding", up.file.encoding},
                         {"columns", header},
                         {"source", plan.source},
                         {"source_reason", plan.source_reason},
                         {"mapping", std::move(m)},
                         {"mapping_inferred", inferred},
                         {"mapping_confidence", std::move(confidence)},
                         {"mapping_notes", std::move(mapping_notes)},
                         {"notes", std::move(notes)},
                         {"suggested_check_types", ingest::SuggestCheckTypes(plan.mapping)},
                         {"sample_rows", std::move(rows)},
                         {"rows", rows_in_file},
                         {"max_file_bytes", options_.upload_max_bytes}};
  // What the upload would use of this month's quota, and when it renews.
  body["quota"] = QuotaJson(principal.account);
  body["within_quota"] = body["quota"].is_object()
                             ? nlohmann::json(static_cast<int64_t>(rows_in_file) <=
                                              body["quota"]["remaining"].get<int64_t>())
                             : nlohmann::json(nullptr);
  // The file is kept for a while, so that starting the job does not send it again.
  KeptUpload kept;
  kept.id = NewUuidV4();
  kept.account_id = principal.account.id;
  kept.filename = up.filename;
  kept.content_type = up.raw_content_type;
  kept.bytes = static_cast<int64_t>(up.raw_file.size());
  const auto now = clock_.Now();
  const auto expires = now + std::chrono::minutes(options_.kept_upload_minutes);
  kept.expires_ms = UnixMillis(expires);
  kept.kept_us = UnixMicros(now);
  if (Status s = store_.KeepUpload(kept, up.raw_file); s.ok()) {
    body["upload_id"] = kept.id;
    body["upload_expires_at"] = FormatIso8601Millis(expires);
  } else {
    // Not kept (the account's storage is full, or the store is down): Start sends the file.
    log::Warn("preview upload not kept", {{"error", s.message()}});
    body["upload_id"] = nullptr;
    body["upload_expires_at"] = nullptr;
  }
  return http::JsonResponse(200, http::DumpJson(body));
}

}  // namespace dq::gateway
