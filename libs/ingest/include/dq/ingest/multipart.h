// A streaming multipart/form-data parser (RFC 7578 on RFC 2046 multipart syntax). Pistache has
// none. Bytes go in as chunks of any size; part headers and body bytes come out through a
// handler as soon as they are known, so memory is bounded by one part's header block plus a
// boundary's length, however large the parts are. Fed a whole body in one call, a part's bytes
// come out as one view into that body.
//
//   Result<std::string> boundary = BoundaryFromContentType(request_content_type);
//   MultipartParser parser(*boundary, MultipartLimits{}, handler);
//   for (chunk : body) if (Status s = parser.Feed(chunk); !s.ok()) return s;
//   if (Status s = parser.Finish(); !s.ok()) return s;
//
// Syntax accepted: an optional preamble, then "--boundary" lines ending in CRLF (transport
// padding of spaces and tabs allowed before the CRLF), each part's header lines ending in CRLF, an
// empty line, the body, CRLF before the next boundary, "--boundary--" and an ignored epilogue.
// Every part must have a Content-Disposition: form-data header with a name.
//
// Errors (all kInvalidRequest, except what the handler returns): no boundary line anywhere,
// malformed boundary line, part header block too long, malformed header line, missing or bad
// Content-Disposition, too many parts, body ends before the closing boundary.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq::ingest {

struct MultipartLimits {
  size_t max_parts = 16;
  size_t max_header_bytes = 8 * 1024;  // one part's header block
};

struct PartHeaders {
  std::string name;                     // Content-Disposition name
  std::optional<std::string> filename;  // Content-Disposition filename (or filename*)
  std::string content_type;             // "" when absent
};

// Receives parser events. A non-OK Status stops the parser and is returned from Feed/Finish.
class MultipartHandler {
 public:
  virtual ~MultipartHandler() = default;
  virtual Status OnPartBegin(const PartHeaders& headers) = 0;
  // A piece of the current part's body; `bytes` is valid only during the call.
  virtual Status OnPartData(std::string_view bytes) = 0;
  virtual Status OnPartEnd() = 0;
};

// The boundary parameter of a multipart/form-data Content-Type (quoted or not). Errors
// (kInvalidRequest): not multipart/form-data, no boundary, boundary empty, over 70 characters or
// with characters RFC 2046 does not allow.
Result<std::string> BoundaryFromContentType(std::string_view content_type);

class MultipartParser {
 public:
  // `handler` must outlive the parser.
  MultipartParser(std::string boundary, const MultipartLimits& limits, MultipartHandler& handler);

  Status Feed(std::string_view bytes);
  // The input has ended: an error unless the closing boundary was seen.
  Status Finish();

  size_t parts() const { return parts_; }

 private:
  enum class State { kPreamble, kAfterDelimiter, kPadding, kAfterPaddingCr, kCloseDash,
                     kHeaders, kBody, kEpilogue, kFailed };
  // Scans for the delimiter in carry_ + bytes; emits (in kBody) what precedes it. Returns the
  // number of bytes of `bytes` consumed; sets found when the delimiter ended.
  Status ScanForDelimiter(std::string_view bytes, size_t& used, bool& found);
  Status Emit(std::string_view bytes);
  Status OnHeaderBlock();
  Status Fail(Status status);

  std::string delimiter_;  // "\r\n--" + boundary
  MultipartLimits limits_;
  MultipartHandler& handler_;
  State state_ = State::kPreamble;
  std::string carry_;  // held-back bytes that may begin a delimiter
  std::string headers_;
  size_t parts_ = 0;
  Status error_;
};

}  // namespace dq::ingest
