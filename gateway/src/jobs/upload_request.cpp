#include "upload_request.h"

#include <algorithm>

#include "http/core/json_util.h"
#include "../validate/validate_request.h"
#include "dq/common/ascii.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, field + ": " + message, {{field, message}});
}

Status TooLarge(size_t size, size_t max) {
  return Status(ErrorCode::kFileTooLarge, "The file is " + std::to_string(size) +
                                              " bytes; files may be at most " +
                                              std::to_string(max) + " bytes.");
}

}  // namespace

Result<std::unique_ptr<UploadRequest>> ParseUploadRequest(const HttpRequest& request,
                                                          size_t max_file_bytes) {
  auto up = std::make_unique<UploadRequest>();
  std::string_view body = request.body;
  if (const std::string* coding = request.Header("content-encoding")) {
    // The limit for the whole decoded body: the file plus room for the form around it.
    auto decoded = ingest::DecodeContentEncoding(*coding, body, max_file_bytes + 64 * 1024);
    if (!decoded.ok()) return decoded.status();
    if (decoded->has_value()) {
      up->decoded_body = std::move(**decoded);
      body = up->decoded_body;
    }
  }
  const std::string* ct_header = request.Header("content-type");
  const std::string content_type = ct_header ? *ct_header : "";
  ingest::UploadLimits limits;
  limits.max_file_bytes = max_file_bytes;
  std::string_view file;
  std::string file_content_type;
  std::optional<std::string> mapping_text, check_types, platform, source, weight_unit;
  if (ascii::Lower(content_type).rfind("multipart/form-data", 0) == 0) {
    auto parsed = ingest::ParseUploadForm(content_type, body, limits);
    if (!parsed.ok()) return parsed.status();
    up->form = std::move(*parsed);
    file = up->form->file();
    up->filename = up->form->filename();
    file_content_type = up->form->file_content_type();
    mapping_text = up->form->mapping;
    check_types = up->form->check_types;
    platform = up->form->platform;
    source = up->form->source;
    weight_unit = up->form->weight_unit;
  } else {
    file = body;
    up->filename = request.Query("filename").value_or("");
    file_content_type = content_type;
    mapping_text = request.Query("mapping");
    check_types = request.Query("check_types");
    platform = request.Query("platform");
    source = request.Query("source");
    weight_unit = request.Query("weight_unit");
  }
  if (file.size() > max_file_bytes) return TooLarge(file.size(), max_file_bytes);
  if (file.empty()) return Status(ErrorCode::kEmptyFile, "The uploaded file is empty.");
  auto prepared = ingest::PrepareFile(file_content_type, up->filename, file, max_file_bytes);
  if (!prepared.ok()) return prepared.status();
  up->file = std::move(*prepared);

  up->check_types = {"product"};
  if (check_types && !check_types->empty()) {
    auto parsed = ParseCheckTypes(*check_types);
    if (!parsed.ok()) return parsed.status();
    up->check_types = std::move(*parsed);
  }
  up->platform = platform.value_or("");
  if (!up->platform.empty()) {
    if (Status s = CheckPlatform(up->platform); !s.ok()) return s;
  }
  up->source = source.value_or("");
  if (!up->source.empty()) {
    if (Status s = CheckSource(up->source); !s.ok()) return s;
  }
  up->weight_unit = weight_unit.value_or("");
  if (!up->weight_unit.empty()) {
    if (Status s = CheckWeightUnit(up->weight_unit); !s.ok()) return s;
  }
  if (mapping_text && !mapping_text->empty()) {
    if (!JsonNestingWithin(*mapping_text)) {
      return Invalid("mapping", "nests too deeply; send a flat JSON object");
    }
    json m = json::parse(*mapping_text, nullptr, false);
    if (m.is_discarded()) {
      return Invalid("mapping",
                     "is not valid JSON; send a JSON object such as {\"sku\": \"Variant SKU\"}");
    }
    auto parsed = ParseMapping(m);
    if (!parsed.ok()) return parsed.status();
    up->mapping = std::move(*parsed);
  }
  return up;
}

}  // namespace dq::gateway
