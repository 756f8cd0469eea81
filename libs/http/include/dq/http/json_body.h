// Reading small JSON request bodies (the console API, webhook settings): the content type, the
// size, the syntax and each field, every failure as the JSON error contract's Status.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "dq/common/status.h"
#include "dq/http/http_types.h"

namespace dq::http {

// True when the request declares JSON (application/json or +json), or declares nothing.
bool IsJsonContentType(const HttpRequest& r);

// Bodies of these endpoints are small; larger is 413 payload_too_large.
inline constexpr size_t kMaxSmallJsonBody = 64 * 1024;

// The body as a JSON object. Errors: 415 unsupported_media_type, 413 payload_too_large,
// 400 invalid_json (syntax, nesting), 400 invalid_request (not an object). An empty body is {}
// when allow_empty.
Result<nlohmann::json> ParseJsonObjectBody(const HttpRequest& r, bool allow_empty = false);

// A string member: missing (when required) or another type is invalid_request naming the field;
// more than max_chars Unicode characters too. nullopt when absent and not required.
Result<std::optional<std::string>> StringField(const nlohmann::json& body, const std::string& name,
                                               bool required, size_t max_chars);
// A boolean member; nullopt when absent.
Result<std::optional<bool>> BoolField(const nlohmann::json& body, const std::string& name);

// Unicode characters in UTF-8 text (continuation bytes are not counted).
size_t Utf8Length(std::string_view s);

}  // namespace dq::http
