// POST /v1/jobs/preview (JobsApi::Preview): what an upload would be read as, before a job: its
// format, source platform, mapping (with how sure inference is of each column), notes and the
// check types its columns suggest.
#include "http/core/error_response.h"
#include "http/core/json_util.h"
#include "dq/ingest/mapping_inference.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/source_scan.h"
#include "jobs_api.h"
#include "upload_request.h"

namespace dq::gateway {
namespace {

constexpr size_t kSampleRows = 5;

}  // namespace

HttpResponse JobsApi::Preview(const HttpRequest& request, const Principal& /*principal*/) {
  if (request.body.size() > options_.upload_max_bytes + 64 * 1024) {
    return ErrorResponse(Status(ErrorCode::kFileTooLarge,
                                "The upload is " + std::to_string(request.body.size()) +
                                    " bytes; files may be at most " +
                                    std::to_string(options_.upload_max_bytes) + " bytes."));
  }
  auto parsed = ParseUploadRequest(request, options_.upload_max_bytes);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
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
    if (!state.ok()) return ErrorResponse(state.status());
    if (*state != ingest::ReadState::kRow) break;
    scan.Row(reader->header(), reader->row());
    ++read;
  }
  const std::vector<std::string>& header = reader->header();
  if (up.mapping) {
    if (Status s = CheckMappingColumns(*up.mapping, header); !s.ok()) return ErrorResponse(s);
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
                         {"sample_rows", std::move(rows)}};
  return JsonResponse(200, DumpJson(body));
}

}  // namespace dq::gateway
