#include "error_response.h"

#include "json_util.h"

namespace dq::gateway {

int HttpStatusFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return 200;
    case ErrorCode::kApiKeyRequired:
    case ErrorCode::kInvalidApiKey: return 401;
    case ErrorCode::kProRequired: return 403;
    case ErrorCode::kQuotaExceeded:
    case ErrorCode::kTooManyRequests: return 429;
    case ErrorCode::kEmptyFile:
    case ErrorCode::kInvalidJson:
    case ErrorCode::kInvalidRequest:
    case ErrorCode::kTooManyRecords: return 400;
    case ErrorCode::kNotFound: return 404;
    case ErrorCode::kPayloadTooLarge:
    case ErrorCode::kFileTooLarge: return 413;
    case ErrorCode::kUnsupportedMediaType: return 415;
    case ErrorCode::kMethodNotAllowed: return 405;
    case ErrorCode::kJobNotDone: return 409;
    case ErrorCode::kInternal: return 500;
    case ErrorCode::kUnavailable: return 503;
    case ErrorCode::kIdempotencyKeyReused: return 422;
    case ErrorCode::kStorageLimitExceeded: return 429;
    case ErrorCode::kAborted: return 409;
  }
  return 500;
}

HttpResponse ErrorResponse(const Status& status) {
  nlohmann::json body = {{"error", std::string(ErrorCodeName(status.code()))},
                         {"message", status.message()}};
  if (!status.details().empty()) {
    auto& details = body["details"] = nlohmann::json::array();
    for (const auto& d : status.details()) {
      details.push_back({{"field", d.field}, {"message", d.message}});
    }
  }
  HttpResponse r = JsonResponse(HttpStatusFor(status.code()), DumpJson(body));
  if (status.code() == ErrorCode::kUnavailable) r.SetHeader("Retry-After", "1");
  return r;
}

HttpResponse JsonResponse(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.content_type = "application/json";
  r.body = std::move(body);
  return r;
}

}  // namespace dq::gateway
