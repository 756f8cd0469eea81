// The parts of an upload request (POST /v1/jobs and POST /v1/jobs/preview share them): the body
// after its Content-Encoding, the multipart form or raw body with query parameters, the file
// decoded to a readable format and UTF-8 (ingest/upload_decode.h), and the checked options.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "http/core/http_types.h"
#include "dq/common/status.h"
#include "dq/ingest/upload_decode.h"
#include "dq/ingest/upload_form.h"
#include "dq/report/check_options.h"

namespace dq::gateway {

struct UploadRequest {
  std::string filename;  // as sent ("" when none)
  ingest::PreparedFile file;
  std::vector<std::string> check_types;  // default {"product"}
  std::string platform;
  std::string source;       // the caller's source platform ("" for none: detected)
  std::string weight_unit;  // the caller's unit of bare weights ("" for none)
  // The mapping sent, checked against the standard fields (not yet against the file's columns).
  std::optional<std::vector<std::pair<std::string, std::string>>> mapping;

  // Storage the views above point into (the gunzipped body, the parsed form).
  std::string decoded_body;
  std::optional<ingest::UploadForm> form;
};

// Errors: 400 invalid_request / empty_file, 413 file_too_large, 415 unsupported_media_type, as
// the JSON error contract says. The request must outlive the result.
Result<std::unique_ptr<UploadRequest>> ParseUploadRequest(const HttpRequest& request,
                                                          size_t max_file_bytes);

// dq/report/check_options.h: the mapping's columns that are not in the file's header.
using report::CheckMappingColumns;

}  // namespace dq::gateway
