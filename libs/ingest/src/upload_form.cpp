#include "dq/ingest/upload_form.h"

#include "dq/ingest/utf8.h"

namespace dq::ingest {
namespace {

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

}  // namespace

Status FormCollector::OnPartBegin(const PartHeaders& headers) {
  name_ = headers.name;
  text_.clear();
  auto once = [&](bool seen) -> Status {
    if (seen) return Invalid("The form field '" + name_ + "' appears more than once.");
    return Status::Ok();
  };
  Status s;
  if (name_ == "file") {
    s = once(form_.has_file_);
    current_ = Field::kFile;
    form_.has_file_ = true;
    form_.filename_ = headers.filename.value_or("");
    form_.file_content_type_ = headers.content_type;
  } else if (name_ == "mapping") {
    s = once(form_.mapping.has_value());
    current_ = Field::kMapping;
  } else if (name_ == "check_types") {
    s = once(form_.check_types.has_value());
    current_ = Field::kCheckTypes;
  } else if (name_ == "platform") {
    s = once(form_.platform.has_value());
    current_ = Field::kPlatform;
  } else if (name_ == "source") {
    s = once(form_.source.has_value());
    current_ = Field::kSource;
  } else if (name_ == "weight_unit") {
    s = once(form_.weight_unit.has_value());
    current_ = Field::kWeightUnit;
  } else if (name_ == "feed") {
    s = once(form_.feed.has_value());
    current_ = Field::kFeed;
  } else if (name_ == "max_rows") {
    s = once(form_.max_rows.has_value());
    current_ = Field::kMaxRows;
  } else {
    return Invalid("Unknown form field '" + name_ +
                   "'; the fields are file, mapping, check_types, platform, source, "
                   "weight_unit, feed and max_rows.");
  }
  return s;
}

Status FormCollector::OnPartData(std::string_view bytes) {
  if (current_ != Field::kFile) {
    if (text_.size() + bytes.size() > limits_.max_text_part_bytes) {
      return Invalid("The form field '" + name_ + "' is longer than " +
                     std::to_string(limits_.max_text_part_bytes) + " bytes.");
    }
    text_.append(bytes);
    return Status::Ok();
  }
  file_bytes_ += bytes.size();
  if (file_bytes_ > limits_.max_file_bytes) {
    return Status(ErrorCode::kFileTooLarge,
                  "The file is larger than " + std::to_string(limits_.max_file_bytes) +
                      " bytes.");
  }
  UploadForm& f = form_;
  if (!borrow_) {
    f.owned_ = true;
    f.owned_file_.append(bytes);
  } else if (!f.owned_ && f.file_.empty()) {
    f.file_ = bytes;
  } else if (!f.owned_ && f.file_.data() + f.file_.size() == bytes.data()) {
    f.file_ = std::string_view(f.file_.data(), f.file_.size() + bytes.size());  // contiguous
  } else {
    if (!f.owned_) {
      f.owned_file_.assign(f.file_);
      f.owned_ = true;
    }
    f.owned_file_.append(bytes);
  }
  return Status::Ok();
}

Status FormCollector::OnPartEnd() {
  if (current_ != Field::kFile && current_ != Field::kNone) {
    if (FindInvalidUtf8(text_) != std::string::npos) {
      return Invalid("The form field '" + name_ + "' is not valid UTF-8.");
    }
    std::optional<std::string>* target = current_ == Field::kMapping      ? &form_.mapping
                                         : current_ == Field::kCheckTypes ? &form_.check_types
                                         : current_ == Field::kSource     ? &form_.source
                                         : current_ == Field::kWeightUnit ? &form_.weight_unit
                                         : current_ == Field::kFeed       ? &form_.feed
                                         : current_ == Field::kMaxRows    ? &form_.max_rows
                                                                          : &form_.platform;
    *target = std::move(text_);
    text_.clear();
  }
  current_ = Field::kNone;
  return Status::Ok();
}

Result<UploadForm> FormCollector::Take() {
  if (!form_.has_file_) return Invalid("The form has no 'file' field.");
  return std::move(form_);
}

Result<UploadForm> ParseUploadForm(std::string_view content_type, std::string_view body,
                                   const UploadLimits& limits) {
  Result<std::string> boundary = BoundaryFromContentType(content_type);
  if (!boundary.ok()) return boundary.status();
  FormCollector collector(limits, /*borrow_input=*/true);
  MultipartParser parser(*boundary, limits.multipart, collector);
  if (Status s = parser.Feed(body); !s.ok()) return s;
  if (Status s = parser.Finish(); !s.ok()) return s;
  return collector.Take();
}

}  // namespace dq::ingest
