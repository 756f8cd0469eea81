// POST /v1/validate's logic, as JobsApi is the job path's: check the request, reserve the quota,
// call the validator, answer. Called by the Gateway pipeline after authentication, plan and rate
// limit, with an already-authenticated Principal.
//
// The validator may be slow or hung, so with a ValidatePool the call waits on the pool, never on
// the HTTP thread: Post() then answers a deferred response that the pool completes (or answers
// 503 when the deadline passes first). Without a pool (unit tests) it answers on the caller's
// thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "auth/authenticator.h"
#include "clients/validate_pool.h"
#include "clients/validator_client.h"
#include "dq/http/http_types.h"
#include "dq/validator/v1/validator.pb.h"
#include "limits/quota.h"

namespace dq::gateway {

struct ValidateLimits {
  size_t max_body_bytes = 10 * 1024 * 1024;  // DQ_MAX_BODY_BYTES
  size_t max_records = 500;                  // DQ_MAX_RECORDS
};

class ValidateApi {
 public:
  // pool may be null: the call then runs on the caller's thread.
  ValidateApi(QuotaService& quota, ValidatorClient& validator, ValidatePool* pool,
              ValidateLimits limits)
      : quota_(quota), validator_(validator), pool_(pool), limits_(limits) {}

  // 415 without a JSON content type, 413 over the body limit, 429/503 when the pool refuses;
  // otherwise the answer of Check(), deferred when a pool is set.
  http::HttpResponse Post(const http::HttpRequest& request, const Principal& principal);

  // Run(), with an exception turned into 500 internal_error. Any thread.
  Result<std::string> Check(Result<std::string_view> body, const Account& account,
                            const std::string& request_id,
                            std::optional<ValidatePool::Deadline> deadline);

  // The request's whole way, in order, from its body (or the refusal of its form, which is then
  // the answer): parse the body, reserve its records, call the validator (by the deadline, if
  // any), encode the answer.
  Result<std::string> Run(Result<std::string_view> body, const Account& account,
                          const std::string& request_id,
                          std::optional<ValidatePool::Deadline> deadline);

 private:
  // Post() on the pool: 429/503 when it refuses, else a deferred answer the pool completes.
  http::HttpResponse OnPool(const http::HttpRequest& request, const Principal& principal);
  // The one answer: what Check() gives, the body's refusal included (JsonOrErrorResponse).
  http::HttpResponse Answer(Result<std::string_view> body, const Account& account,
                            const std::string& request_id,
                            std::optional<ValidatePool::Deadline> deadline);
  // The validator's answer for the reservation's records, or the failure (kUnavailable when it
  // answered for another number of records). A failure ends here, in one place: logged with the
  // request id (a validator merely unavailable is not) and the reserved records given back.
  Status Call(const validator::v1::ValidateRequest& request, const QuotaReservation& reservation,
              const std::string& request_id, std::optional<ValidatePool::Deadline> deadline,
              validator::v1::ValidateResponse& answer);

  QuotaService& quota_;
  ValidatorClient& validator_;
  ValidatePool* pool_;
  ValidateLimits limits_;
};

}  // namespace dq::gateway
