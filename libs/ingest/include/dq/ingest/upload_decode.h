// From the bytes a client sent to bytes a RowReader can read: gzip undone, the format decided,
// text converted to UTF-8. Used by the upload and preview routes. See docs/ingest.md.
//
//   auto body = DecodeContentEncoding(request_header, request.body, max);   // Content-Encoding
//   ... multipart parsing of *body ...
//   auto file = PrepareFile(part_content_type, filename, part_bytes, max);
//   ScanFile(file->format, file->data());
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "dq/common/status.h"
#include "dq/ingest/file_format.h"

namespace dq::ingest {

// The request body after its Content-Encoding: nullopt when there is none ("" or identity: use
// the body as is), else the gunzipped body (gzip, x-gzip), at most max_bytes.
// Errors: kUnsupportedMediaType for another coding (deflate, br, ...), and Gunzip's errors
// (kFileTooLarge for a bomb, kInvalidRequest for corrupt data).
Result<std::optional<std::string>> DecodeContentEncoding(std::string_view content_encoding,
                                                         std::string_view body, size_t max_bytes);

class PreparedFile {
 public:
  FileFormat format = FileFormat::kCsv;
  std::string encoding = "utf-8";  // see text_encoding.h; "utf-8" for XLSX
  bool gzipped = false;            // the file itself was a gzip file

  // What the reader reads: a view of the original file, or of the converted copy held here.
  std::string_view data() const { return owned_ ? std::string_view(converted_) : original_; }

 private:
  friend Result<PreparedFile> PrepareFile(std::string_view, std::string_view, std::string_view,
                                          size_t);
  std::string_view original_;
  std::string converted_;
  bool owned_ = false;
};

// Decides the format and encoding of an uploaded file and converts it.
//   content_type: the declared media type of the file (its charset= parameter is read);
//   filename:     the client's name for it ("" when none); a trailing .gz is looked through;
//   file:         its bytes (must outlive the result when nothing had to be converted);
//   max_bytes:    the upload limit, applied to the decompressed and to the converted size.
// A gzip file (magic 1F 8B) is decompressed first, whatever its name.
// Errors: DetectFormat's, DecodeText's, Gunzip's; kFileTooLarge when the converted text passes
// max_bytes; kEmptyFile when a gzip file holds nothing.
Result<PreparedFile> PrepareFile(std::string_view content_type, std::string_view filename,
                                 std::string_view file, size_t max_bytes);

}  // namespace dq::ingest
