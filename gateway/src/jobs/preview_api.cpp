// POST /v1/jobs/preview (JobsApi::Preview): what an upload would be read as, before a job.
#include "http/core/error_response.h"
#include "http/core/json_util.h"
#include "dq/ingest/mapping_inference.h"
#include "dq/ingest/row_reader.h"
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
  auto reader = ingest::MakeRowReader(up.file.format);
  reader->Feed(up.file.data());
  reader->Finish();
  nlohmann::json rows = nlohmann::json::array();
  while (rows.size() < kSampleRows) {
    auto state = reader->Next();
    if (!state.ok()) return ErrorResponse(state.status());
    if (*state != ingest::ReadState::kRow) break;
    nlohmann::json row = nlohmann::json::array();
    for (std::string_view cell : reader->row()) row.push_back(std::string(cell));
    rows.push_back(std::move(row));
  }
  const std::vector<std::string>& header = reader->header();
  // JSON input: the header may have grown after the first rows; pad them to its width.
  for (auto& row : rows) {
    while (row.size() < header.size()) row.push_back("");
  }
  std::vector<std::pair<std::string, std::string>> mapping;
  const bool inferred = !up.mapping.has_value();
  if (up.mapping) {
    if (Status s = CheckMappingColumns(*up.mapping, header); !s.ok()) return ErrorResponse(s);
    mapping = *up.mapping;
  } else {
    mapping = ingest::InferMapping(header);
  }
  nlohmann::json m = nlohmann::json::object();
  for (const auto& [field, column] : mapping) m[field] = column;
  nlohmann::json body = {{"format", std::string(ingest::FormatName(up.file.format))},
                         {"encoding", up.file.encoding},
                         {"columns", header},
                         {"mapping", std::move(m)},
                         {"mapping_inferred", inferred},
                         {"mapping_notes", inferred ? ingest::MappingNotes(header, mapping)
                                                    : std::vector<std::string>{}},
                         {"sample_rows", std::move(rows)}};
  return JsonResponse(200, DumpJson(body));
}

}  // namespace dq::gateway
