#include "upload_request.h"

#include <algorithm>
#include <cstdio>

#include "dq/http/json_util.h"
#include "validate/validate_request.h"
#include "dq/common/ascii.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, field + ": " + message, {{field, message}});
}

Status CheckFeed(const std::string& feed) {
  if (feed.empty() || feed.size() > kMaxFeedChars) {
    return Invalid("feed", "must be 1 to " + std::to_string(kMaxFeedChars) + " characters");
  }
  for (unsigned char c : feed) {
    if (c < 0x20 || c == 0x7f) return Invalid("feed", "must not contain control characters");
  }
  if (feed.front() == ' ' || feed.back() == ' ') {
    return Invalid("feed", "must not begin or end with a space");
  }
  return Status::Ok();
}

Result<int64_t> ParseMaxRows(const std::string& text) {
  constexpr int64_t kMax = 1000000000;
  bool ok = !text.empty() && text.size() <= 10;
  for (char c : text) ok = ok && c >= '0' && c <= '9';
  const int64_t v = ok ? std::stoll(text) : 0;
  if (!ok || v < 1 || v > kMax) {
    return Invalid("max_rows", "must be an integer from 1 to " + std::to_string(kMax));
  }
  return v;
}

}  // namespace

std::string Megabytes(uint64_t bytes) {
  const double mb = static_cast<double>(bytes) / (1024.0 * 1024.0);
  char text[32];
  if (mb < 10 && bytes % (1024 * 1024) != 0) {
    std::snprintf(text, sizeof text, "%.1f MB", mb);
  } else {
    std::snprintf(text, sizeof text, "%.0f MB", mb);
  }
  return text;
}

Status FileTooLarge(uint64_t size, uint64_t max) {
  return Status(ErrorCode::kFileTooLarge,
                "The file is " + Megabytes(size) + "; a file may be at most " + Megabytes(max) +
                    ". Split it into smaller files and upload each.");
}

Result<std::unique_ptr<UploadRequest>> ParseUploadRequest(const http::HttpRequest& request,
                                                          size_t max_file_bytes,
                                                          const KeptFile* kept) {
  auto up = std::make_unique<UploadRequest>();
  std::string_view body = request.body;
  if (kept != nullptr && !body.empty()) {
    return Invalid("upload_id", "send either a file or the upload_id of its preview, not both");
  }
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
  std::optional<std::string> mapping_text, check_types, platform, source, weight_unit, feed,
      max_rows;
  if (kept == nullptr && ascii::Lower(content_type).rfind("multipart/form-data", 0) == 0) {
    auto parsed = ingest::ParseUploadForm(content_type, body, limits);
    if (!parsed.ok()) {
      if (parsed.status().code() == ErrorCode::kFileTooLarge) {
        return FileTooLarge(body.size(), max_file_bytes);  // about the size, in MB
      }
      return parsed.status();
    }
    up->form = std::move(*parsed);
    file = up->form->file();
    up->filename = up->form->filename();
    file_content_type = up->form->file_content_type();
    mapping_text = up->form->mapping;
    check_types = up->form->check_types;
    platform = up->form->platform;
    source = up->form->source;
    weight_unit = up->form->weight_unit;
    feed = up->form->feed;
    max_rows = up->form->max_rows;
  } else {
    file = kept != nullptr ? kept->bytes : body;
    up->filename = kept != nullptr ? kept->filename : request.Query("filename").value_or("");
    file_content_type = kept != nullptr ? kept->content_type : content_type;
    mapping_text = request.Query("mapping");
    check_types = request.Query("check_types");
    platform = request.Query("platform");
    source = request.Query("source");
    weight_unit = request.Query("weight_unit");
    feed = request.Query("feed");
    max_rows = request.Query("max_rows");
  }
  if (file.size() > max_file_bytes) return FileTooLarge(file.size(), max_file_bytes);
  if (file.empty()) return Status(ErrorCode::kEmptyFile, "The uploaded file is empty.");
  up->raw_file = file;
  up->raw_content_type = file_content_type;
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
  if (feed) {
    if (Status s = CheckFeed(*feed); !s.ok()) return s;
    up->feed = *feed;
  }
  if (max_rows && !max_rows->empty()) {
    auto n = ParseMaxRows(*max_rows);
    if (!n.ok()) return n.status();
    up->max_rows = *n;
  }
  if (mapping_text && !mapping_text->empty()) {
    if (!ingest::JsonNestingWithin(*mapping_text)) {
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
