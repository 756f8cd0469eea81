// One error vocabulary for every layer of dq.
//
// Recoverable failures (bad input, missing records, a dependency that is down) travel as a
// Status or a Result<T>; they are converted to HTTP or gRPC only at the edges, each by one tested
// function. Exceptions never cross a component boundary. A broken invariant is a bug, not a
// Status: it aborts.
//
//   Result<Account> account = store.FindAccount(id);
//   if (!account.ok()) return account.status();
//   Use(*account);
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace dq {

// The codes are the API's error codes (docs/api.md): the HTTP edge writes ErrorCodeName() into
// the "error" member of the JSON body.
enum class ErrorCode {
  kOk,
  kApiKeyRequired,        // 401
  kInvalidApiKey,         // 401
  kProRequired,           // 403
  kQuotaExceeded,         // 429
  kTooManyRequests,       // 429
  kEmptyFile,             // 400
  kNotFound,              // 404
  kInvalidJson,           // 400
  kInvalidRequest,        // 400
  kTooManyRecords,        // 400
  kPayloadTooLarge,       // 413
  kFileTooLarge,          // 413
  kUnsupportedMediaType,  // 415
  kMethodNotAllowed,      // 405
  kJobNotDone,            // 409: the job has no result of that kind yet (or failed)
  kInternal,              // 500
  kUnavailable,           // 503: a dependency (Redis, the validator) is down, or overload
  kHeadersTooLarge,       // 431
  kRequestTimeout,        // 408
  kIdempotencyKeyReused,  // 422: an Idempotency-Key seen before with a different body
  kStorageLimitExceeded,  // 429: the account's stored job data is at its ceiling
  kAborted,               // 409: a fenced write refused (a newer attempt or a deleted job)
  // Self-service (the console's API and /v1/webhook).
  kEmailTaken,            // 409
  kInvalidCredentials,    // 401
  kLoginRequired,         // 401
  kCsrfFailed,            // 403
  kInvalidWebhookUrl,     // 400
  kEmailUnverified,       // 403: the console user has not verified their e-mail address
};

// "api_key_required", "invalid_request", ... ("ok" for kOk).
std::string_view ErrorCodeName(ErrorCode code);

// One problem with one part of a request, e.g. {"records[3].price", "must be a string"}.
struct ErrorDetail {
  std::string field;
  std::string message;
  bool operator==(const ErrorDetail&) const = default;
};

// [[nodiscard]]: a Status that nobody reads is a failure that nobody handles. Where ignoring one is
// right, say why with IgnoreError(status, "why") (below); docs/contributing.md has the rule.
class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(ErrorCode code, std::string message, std::vector<ErrorDetail> details = {})
      : code_(code), message_(std::move(message)), details_(std::move(details)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const std::vector<ErrorDetail>& details() const { return details_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  std::vector<ErrorDetail> details_;
};

// A value or the Status that explains why there is none. Reading value() of a failed Result is a
// bug and aborts.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    if (std::get<Status>(v_).ok()) std::abort();  // an OK Status carries no value
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

// Drops a Status on purpose. `why` says why losing the failure is right at that call site (for
// example "best effort: the job is deleted anyway"); it is never read at run time, it is there for
// the reader and for grep. Prefer handling: log it, count it, retry it or return it.
inline void IgnoreError(const Status& status, const char* why) {
  (void)status;
  (void)why;
}
template <typename T>
inline void IgnoreError(const Result<T>& result, const char* why) {
  (void)result;
  (void)why;
}

}  // namespace dq
