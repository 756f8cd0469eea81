#include "dq/common/status.h"

namespace dq {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kApiKeyRequired: return "api_key_required";
    case ErrorCode::kInvalidApiKey: return "invalid_api_key";
    case ErrorCode::kProRequired: return "pro_required";
    case ErrorCode::kQuotaExceeded: return "quota_exceeded";
    case ErrorCode::kTooManyRequests: return "too_many_requests";
    case ErrorCode::kEmptyFile: return "empty_file";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kInvalidJson: return "invalid_json";
    case ErrorCode::kInvalidRequest: return "invalid_request";
    case ErrorCode::kTooManyRecords: return "too_many_records";
    case ErrorCode::kPayloadTooLarge: return "payload_too_large";
    case ErrorCode::kFileTooLarge: return "file_too_large";
    case ErrorCode::kUnsupportedMediaType: return "unsupported_media_type";
    case ErrorCode::kMethodNotAllowed: return "method_not_allowed";
    case ErrorCode::kJobNotDone: return "job_not_done";
    case ErrorCode::kInternal: return "internal_error";
    case ErrorCode::kUnavailable: return "service_unavailable";
    case ErrorCode::kHeadersTooLarge: return "headers_too_large";
    case ErrorCode::kRequestTimeout: return "request_timeout";
    case ErrorCode::kIdempotencyKeyReused: return "idempotency_key_reused";
    case ErrorCode::kStorageLimitExceeded: return "storage_limit_exceeded";
    case ErrorCode::kAborted: return "conflict";
    case ErrorCode::kEmailTaken: return "email_taken";
    case ErrorCode::kInvalidCredentials: return "invalid_credentials";
    case ErrorCode::kLoginRequired: return "login_required";
    case ErrorCode::kCsrfFailed: return "csrf_failed";
    case ErrorCode::kInvalidWebhookUrl: return "invalid_webhook_url";
    case ErrorCode::kEmailUnverified: return "email_unverified";
  }
  return "internal_error";
}

}  // namespace dq
