#include "dq/http/error_response.h"

#include "dq/http/json_util.h"

namespace dq::http {

int HttpStatusFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return 200;
    case ErrorCode::kApiKeyRequired:
    case ErrorCode::kInvalidApiKey:
    case ErrorCode::kInvalidCredentials:
    case ErrorCode::kLoginRequired: return 401;
    case ErrorCode::kProRequired:
    case ErrorCode::kCsrfFailed: return 403;
    case ErrorCode::kEmailTaken: return 409;
    case ErrorCode::kQuotaExceeded:
    case ErrorCode::kTooManyRequests: return 429;
    case ErrorCode::kEmptyFile:
    case ErrorCode::kInvalidJson:
    case ErrorCode::kInvalidRequest:
    case ErrorCode::kTooManyRecords:
    case ErrorCode::kInvalidWebhookUrl: return 400;
    case ErrorCode::kEmailUnverified: return 403;
    case ErrorCode::kNotFound: return 404;
    case ErrorCode::kPayloadTooLarge:
    case ErrorCode::kFileTooLarge: return 413;
    case ErrorCode::kUnsupportedMediaType: return 415;
    case ErrorCode::kMethodNotAllowed: return 405;
    case ErrorCode::kJobNotDone: return 409;
    case ErrorCode::kInternal: return 500;
    case ErrorCode::kUnavailable: return 503;
    case ErrorCode::kHeadersTooLarge: return 431;
    case ErrorCode::kRequestTimeout: return 408;
    case ErrorCode::kIdempotencyKeyReused: return 422;
    case ErrorCode::kStorageLimitExceeded: return 429;
    case ErrorCode::kAborted: return 409;
  }
  return 500;
}

namespace {

std::string Clip(const std::string& s, size_t most) {
  if (s.size() <= most) return s;
  size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
  return s.substr(0, cut) + "...";
}

}  // namespace

HttpResponse ErrorResponse(const Status& status) {
  std::string message = status.message();
  const auto& all = status.details();
  if (all.size() > kMaxErrorDetails) {
    message += " (" + std::to_string(all.size()) + " problems; the first " +
               std::to_string(kMaxErrorDetails) + " are listed.)";
  }
  nlohmann::ordered_json body = {{"error", std::string(ErrorCodeName(status.code()))},
                                 {"message", message}};
  if (!all.empty()) {
    auto& details = body["details"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < all.size() && i < kMaxErrorDetails; ++i) {
      details.push_back({{"field", Clip(all[i].field, kMaxDetailChars)},
                         {"message", Clip(all[i].message, kMaxDetailChars)}});
    }
  }
  HttpResponse r = ErrorBodyResponse(HttpStatusFor(status.code()), std::move(body));
  if (status.code() == ErrorCode::kUnavailable) r.SetHeader("Retry-After", "1");
  return r;
}

HttpResponse ErrorBodyResponse(int status, nlohmann::ordered_json object) {
  HttpResponse r = JsonResponse(status, DumpJson(object));
  r.error = std::make_shared<const nlohmann::ordered_json>(std::move(object));
  return r;
}

void AddRequestId(HttpResponse& response, const std::string& request_id) {
  if (response.status < 400 || response.body_producer ||
      !response.content_type.starts_with("application/json")) {
    return;
  }
  nlohmann::ordered_json object;
  if (response.error != nullptr && DumpJson(*response.error) == response.body) {
    object = *response.error;
  } else {  // no object, or the body was changed after it was made
    // An error body written by hand: its object, if it is one.
    object = nlohmann::ordered_json::parse(response.body, nullptr, false);
    if (!object.is_object()) return;
    auto code = object.find("error");
    if (code == object.end() || !code->is_string()) return;
  }
  if (object.contains("request_id")) return;
  object["request_id"] = request_id;
  response.body = DumpJson(object);
  response.error = std::make_shared<const nlohmann::ordered_json>(std::move(object));
}

HttpResponse JsonResponse(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.content_type = "application/json";
  r.body = std::move(body);
  return r;
}

HttpResponse JsonOrErrorResponse(Result<std::string> body) {
  if (!body.ok()) return ErrorResponse(body.status());
  return JsonResponse(200, std::move(*body));
}

}  // namespace dq::http
