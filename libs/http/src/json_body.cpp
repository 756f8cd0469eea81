#include "dq/http/json_body.h"

#include "dq/http/json_util.h"
#include "dq/common/ascii.h"

namespace dq::http {
namespace {

Status FieldError(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, field + ": " + message, {{field, message}});
}

}  // namespace

bool IsJsonContentType(const HttpRequest& r) {
  const std::string* ct = r.Header("content-type");
  if (ct == nullptr) return true;  // no declared type: try JSON
  std::string_view v = *ct;
  v = v.substr(0, v.find(';'));
  const std::string lower = ascii::LowerTrim(v);
  return lower == "application/json" || (lower.size() > 5 && lower.ends_with("+json"));
}

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

Result<nlohmann::json> ParseJsonObjectBody(const HttpRequest& r, bool allow_empty) {
  if (allow_empty && r.body.find_first_not_of(" \t\r\n") == std::string::npos) {
    return nlohmann::json::object();
  }
  if (!IsJsonContentType(r)) {
    return Status(ErrorCode::kUnsupportedMediaType,
                  "This endpoint takes Content-Type: application/json.");
  }
  if (r.body.size() > kMaxSmallJsonBody) {
    return Status(ErrorCode::kPayloadTooLarge, "The body is " + std::to_string(r.body.size()) +
                                                   " bytes; the limit is " +
                                                   std::to_string(kMaxSmallJsonBody) + ".");
  }
  if (!JsonNestingWithin(r.body)) {
    return Status(ErrorCode::kInvalidJson, "The body nests JSON too deeply.");
  }
  nlohmann::json body = nlohmann::json::parse(r.body, nullptr, false);
  if (body.is_discarded()) {
    return Status(ErrorCode::kInvalidJson, "The body is not valid JSON.");
  }
  if (!body.is_object()) {
    return Status(ErrorCode::kInvalidRequest, "The body must be a JSON object.");
  }
  return body;
}

Result<std::optional<std::string>> StringField(const nlohmann::json& body, const std::string& name,
                                               bool required, size_t max_chars) {
  auto it = body.find(name);
  if (it == body.end() || it->is_null()) {
    if (required) return FieldError(name, "is required");
    return std::optional<std::string>();
  }
  if (!it->is_string()) return FieldError(name, "must be a string");
  const std::string& v = it->get_ref<const std::string&>();
  if (Utf8Length(v) > max_chars) {
    return FieldError(name, "must be at most " + std::to_string(max_chars) + " characters");
  }
  return std::optional<std::string>(v);
}

Result<std::optional<bool>> BoolField(const nlohmann::json& body, const std::string& name) {
  auto it = body.find(name);
  if (it == body.end() || it->is_null()) return std::optional<bool>();
  if (!it->is_boolean()) return FieldError(name, "must be true or false");
  return std::optional<bool>(it->get<bool>());
}

}  // namespace dq::http
