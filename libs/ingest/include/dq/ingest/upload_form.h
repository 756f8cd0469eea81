// The POST /v1/jobs multipart form (docs/api.md, Jobs): a `file` part and optional text parts
// `mapping` (JSON object text), `check_types`, `platform`, `source`, `weight_unit`, `feed` and
// `max_rows`. Built on
// MultipartParser for a body held in memory (Pistache buffers whole requests), without copying
// the file: file() views the body. For a body that arrives in chunks, use FormCollector with
// MultipartParser directly.
//
//   Result<UploadForm> form = ParseUploadForm(request.contentType, request.body, limits);
//   if (!form.ok()) return form.status();
//   Result<FileFormat> format = DetectFormat(form->file_content_type(), form->filename(),
//                                            form->file());
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "dq/common/status.h"
#include "dq/ingest/multipart.h"

namespace dq::ingest {

struct UploadLimits {
  size_t max_file_bytes = 50 * 1024 * 1024;  // 50 MiB, docs/api.md
  size_t max_text_part_bytes = 64 * 1024;    // mapping, check_types, platform
  MultipartLimits multipart;
};

class UploadForm {
 public:
  // The file's bytes: a view into the request body, or into this object when the parser had to
  // copy (chunked input). Valid while both this object and the body are.
  std::string_view file() const { return owned_ ? std::string_view(owned_file_) : file_; }
  const std::string& filename() const { return filename_; }                  // "" if none
  const std::string& file_content_type() const { return file_content_type_; }  // "" if none

  std::optional<std::string> mapping;      // raw text of the `mapping` part (JSON object)
  std::optional<std::string> check_types;  // "product,price"
  std::optional<std::string> platform;
  std::optional<std::string> source;       // the source platform (source_profile.h)
  std::optional<std::string> weight_unit;  // the unit of bare weights: g, kg, lb or oz
  std::optional<std::string> feed;         // the feed the upload belongs to
  std::optional<std::string> max_rows;     // check only the first N data rows

 private:
  friend class FormCollector;
  std::string_view file_;
  std::string owned_file_;
  bool owned_ = false;
  bool has_file_ = false;
  std::string filename_;
  std::string file_content_type_;
};

// A MultipartHandler that fills an UploadForm, enforcing: only the eight known part names, each
// at most once; file size <= max_file_bytes (kFileTooLarge); text parts <= max_text_part_bytes
// and UTF-8 (kInvalidRequest).
class FormCollector final : public MultipartHandler {
 public:
  // borrow_input: the bytes the parser is fed stay valid and unchanged as long as the form is
  // used (a whole body in memory), so the file may be a view into them. Otherwise the file is
  // copied.
  explicit FormCollector(const UploadLimits& limits, bool borrow_input = false)
      : limits_(limits), borrow_(borrow_input) {}

  Status OnPartBegin(const PartHeaders& headers) override;
  Status OnPartData(std::string_view bytes) override;
  Status OnPartEnd() override;

  // Checks the form is complete (has a file part) and hands it over.
  Result<UploadForm> Take();

 private:
  enum class Field { kNone, kFile, kMapping, kCheckTypes, kPlatform, kSource, kWeightUnit, kFeed,
                     kMaxRows };
  UploadLimits limits_;
  bool borrow_;
  UploadForm form_;
  Field current_ = Field::kNone;
  std::string name_;
  std::string text_;
  size_t file_bytes_ = 0;
};

// Errors: BoundaryFromContentType's, MultipartParser's, FormCollector's; kInvalidRequest when
// there is no `file` part.
Result<UploadForm> ParseUploadForm(std::string_view content_type, std::string_view body,
                                   const UploadLimits& limits = {});

}  // namespace dq::ingest
