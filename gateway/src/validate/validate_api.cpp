#include "validate/validate_api.h"

#include <cctype>
#include <memory>
#include <string_view>

#include <google/protobuf/arena.h>

#include "dq/common/log.h"
#include "dq/http/error_response.h"
#include "dq/http/json_body.h"
#include "validate/validate_request.h"

namespace dq::gateway {
namespace {

// A serving thread keeps its last answer's messages for the next call up to this many issues
// (about 8 MB as messages); a larger answer's are freed after its call.
constexpr int kKeptAnswerIssues = 20'000;

// "identity" (or nothing but spaces), in any case: the body as it is.
bool IsIdentityCoding(std::string_view coding) {
  while (!coding.empty() && (coding.front() == ' ' || coding.front() == '\t')) coding.remove_prefix(1);
  while (!coding.empty() && (coding.back() == ' ' || coding.back() == '\t')) coding.remove_suffix(1);
  if (coding.empty()) return true;
  if (coding.size() != 8) return false;
  for (size_t i = 0; i < 8; ++i) {
    if (std::tolower(static_cast<unsigned char>(coding[i])) != "identity"[i]) return false;
  }
  return true;
}

// The body, when it is JSON the call can read as it is: else 415, or 413 over the body limit.
Result<std::string_view> CheckedBody(const http::HttpRequest& request, size_t max_body_bytes) {
  if (!http::IsJsonContentType(request)) {
    return Status(ErrorCode::kUnsupportedMediaType,
                  "POST /v1/validate takes Content-Type: application/json.");
  }
  // A body coding the call would not undo is refused, not read as if it were plain JSON.
  if (const std::string* coding = request.Header("content-encoding");
      coding != nullptr && !IsIdentityCoding(*coding)) {
    return Status(ErrorCode::kUnsupportedMediaType,
                  "POST /v1/validate takes an uncompressed JSON body; Content-Encoding: " +
                      coding->substr(0, 40) +
                      " is not undone here. Send the body uncompressed, or upload the file to "
                      "POST /v1/jobs, which reads gzip.");
  }
  if (request.body.size() > max_body_bytes) {
    return Status(ErrorCode::kPayloadTooLarge,
                  "The body is " + std::to_string(request.body.size()) +
                      " bytes; the limit is " + std::to_string(max_body_bytes) + ".");
  }
  return std::string_view(request.body);
}

}  // namespace

// The request's way, top to bottom: its body's form (415, 413) before anything is admitted;
// then, on the pool when there is one, Answer(): Check() parses, reserves, calls and encodes, and
// one function, JsonOrErrorResponse(), makes every answer, an error or the report.
http::HttpResponse ValidateApi::Post(const http::HttpRequest& request, const Principal& principal) {
  Result<std::string_view> body = CheckedBody(request, limits_.max_body_bytes);
  if (!body.ok() || pool_ == nullptr) {
    return Answer(std::move(body), principal.account, request.request_id, {});
  }
  return OnPool(request, principal);
}

http::HttpResponse ValidateApi::OnPool(const http::HttpRequest& request,
                                       const Principal& principal) {
  auto ticket = pool_->Admit(principal.account.id);
  if (!ticket.ok()) {
    http::HttpResponse r = http::JsonOrErrorResponse(ticket.status());
    r.SetHeader("Retry-After", "1");
    return r;
  }
  http::HttpResponse deferred;
  deferred.deferred = [this, ticket = std::make_shared<ValidatePool::Ticket>(std::move(*ticket)),
                       body = request.body, account = principal.account,
                       request_id = request.request_id](http::HttpResponse::Send send) mutable {
    pool_->Run(
        std::move(*ticket),
        [this, body = std::move(body), account = std::move(account), request_id,
         send](ValidatePool::Deadline deadline) {
          send(Answer(std::string_view(body), account, request_id, deadline));
        },
        [send] {
          send(http::JsonOrErrorResponse(
              Status(ErrorCode::kUnavailable,
                     "The validation service did not answer in time; retry shortly.")));
        });
  };
  return deferred;
}

http::HttpResponse ValidateApi::Answer(Result<std::string_view> body, const Account& account,
                                       const std::string& request_id,
                                       std::optional<ValidatePool::Deadline> deadline) {
  Result<std::string> answer = Check(std::move(body), account, request_id, deadline);
  return http::JsonOrErrorResponse(std::move(answer));
}

Result<std::string> ValidateApi::Check(Result<std::string_view> body, const Account& account,
                                       const std::string& request_id,
                                       std::optional<ValidatePool::Deadline> deadline) {
  try {
    return Run(std::move(body), account, request_id, deadline);
  } catch (const std::exception& e) {
    log::Error("unhandled exception", {{"request_id", request_id}, {"what", e.what()}});
    return Status(ErrorCode::kInternal,
                  "Something went wrong on our side; the request id is " + request_id + ".");
  }
}

Result<std::string> ValidateApi::Run(Result<std::string_view> body, const Account& account,
                                     const std::string& request_id,
                                     std::optional<ValidatePool::Deadline> deadline) {
  // 0. A body refused for its form is the answer.
  if (!body.ok()) return body.status();
  // One command per serving thread: its buffers are reused from request to request.
  thread_local ValidateCommand command;
  struct Release {
    ValidateCommand& c;
    ~Release() { c.ReleaseIfLarge(8u << 20); }
  } release{command};
  // The answer in one message per serving thread too: parsed again into it, its issues and
  // their strings are reused, where an arena allocates them anew each call (a platform=all
  // answer of 2,690 issues: 0.43 -> 0.20 ms, BM_ValidateParseAnswer/0 and /1). One that held
  // more than kKeptAnswerIssues issues is let go after its call.
  thread_local validator::v1::ValidateResponse answer;
  struct ReleaseAnswer {
    validator::v1::ValidateResponse& a;
    ~ReleaseAnswer() {
      if (a.issues_size() > kKeptAnswerIssues) a = validator::v1::ValidateResponse();
    }
  } release_answer{answer};
  // 1. Parse the body into the command; the validator's request on an arena: one block, freed
  // at once.
  if (Status s = ParseValidateRequestInto(*body, limits_.max_records, command); !s.ok()) return s;
  google::protobuf::Arena arena;
  auto* request = google::protobuf::Arena::CreateMessage<validator::v1::ValidateRequest>(&arena);
  if (Status s = BuildValidatorRequestInto(command, *request); !s.ok()) return s;
  // 2. Reserve the records of the month's quota.
  auto reservation = quota_.Reserve(account, static_cast<int64_t>(command.records));
  if (!reservation.ok()) return reservation.status();
  // 3. Call the validator; a failed call is logged and gives the records back (Call).
  if (Status s = Call(*request, *reservation, request_id, deadline, answer); !s.ok()) return s;
  // 4. Encode the answer.
  return WriteValidateResponse(command, answer);
}

Status ValidateApi::Call(const validator::v1::ValidateRequest& request,
                         const QuotaReservation& reservation, const std::string& request_id,
                         std::optional<ValidatePool::Deadline> deadline,
                         validator::v1::ValidateResponse& answer) {
  Status called = deadline ? validator_.ValidateBy(request, &answer, *deadline)
                           : validator_.Validate(request, &answer);
  const auto records = static_cast<size_t>(reservation.records);
  // A validator that checked another number of records (one older than the packed rows it was
  // sent, mid-deploy) must not pass for a clean answer: it fails as an unavailable validator.
  if (called.ok() && answer.stats().rows() != records) {
    log::Error("validator answered for another number of records",
               {{"request_id", request_id},
                {"records", std::to_string(records)},
                {"validator_rows", std::to_string(answer.stats().rows())}});
    called =
        Status(ErrorCode::kUnavailable, "The validation service is unavailable; retry shortly.");
  } else if (!called.ok() && called.code() != ErrorCode::kUnavailable) {
    log::Error("validator call failed", {{"request_id", request_id}, {"error", called.message()}});
  }
  // The one place a failed call ends: its records are given back (a failed release is logged).
  if (!called.ok()) ReleaseOrReport(quota_, reservation, {"request_id", request_id});
  return called;
}

}  // namespace dq::gateway
