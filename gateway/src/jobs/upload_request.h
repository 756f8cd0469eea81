// The parts of an upload request (POST /v1/jobs and POST /v1/jobs/preview share them): the body
// after its Content-Encoding, the multipart form or raw body with query parameters, the file
// decoded to a readable format and UTF-8 (ingest/upload_decode.h), and the checked options.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dq/http/http_types.h"
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
  // The file as sent (before decoding) and its part's content type: what a preview keeps.
  std::string_view raw_file;
  std::string raw_content_type;
  std::string feed;      // the caller's feed ("" for none: DefaultFeed)
  int64_t max_rows = 0;  // check only the first max_rows data rows (0: all)

  // Storage the views above point into (the gunzipped body, the parsed form).
  std::string decoded_body;
  std::optional<ingest::UploadForm> form;
};

// A file sent before (a preview's kept upload, jobs/job_store.h): the upload's options then
// come from the query string, and the body must be empty.
struct KeptFile {
  std::string_view bytes;
  std::string filename;
  std::string content_type;
};

// Errors: 400 invalid_request / empty_file, 413 file_too_large, 415 unsupported_media_type, as
// the JSON error contract says. The request (and `kept`) must outlive the result.
Result<std::unique_ptr<UploadRequest>> ParseUploadRequest(const http::HttpRequest& request,
                                                          size_t max_file_bytes,
                                                          const KeptFile* kept = nullptr);

// Sizes as the merchant reads them: "50 MB" (MB of 1,048,576 bytes), one decimal below 10 MB.
std::string Megabytes(uint64_t bytes);
// 413 file_too_large: "The file is 60 MB; a file may be at most 50 MB. ..."
Status FileTooLarge(uint64_t size, uint64_t max);
// The longest feed name.
inline constexpr size_t kMaxFeedChars = 200;

// dq/report/check_options.h: the mapping's columns that are not in the file's header.
using report::CheckMappingColumns;

}  // namespace dq::gateway
