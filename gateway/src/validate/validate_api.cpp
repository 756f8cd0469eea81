#include "validate/validate_api.h"

#include <cctype>
#include <memory>
#include <string_view>

#include <google/protobuf/arena.h>

#include "dq/common/log.h"
#include "http/core/error_response.h"
#include "http/core/json_body.h"
#include "validate/validate_request.h"

namespace dq::gateway {
namespace {

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

}  // namespace

HttpResponse ValidateApi::Post(const HttpRequest& request, const Principal& principal) {
  if (!IsJsonContentType(request)) {
    return ErrorResponse(Status(ErrorCode::kUnsupportedMediaType,
                                "POST /v1/validate takes Content-Type: application/json."));
  }
  // A body coding the call would not undo is refused, not read as if it were plain JSON.
  if (const std::string* coding = request.Header("content-encoding");
      coding != nullptr && !IsIdentityCoding(*coding)) {
    return ErrorResponse(Status(
        ErrorCode::kUnsupportedMediaType,
        "POST /v1/validate takes an uncompressed JSON body; Content-Encoding: " +
            coding->substr(0, 40) +
            " is not undone here. Send the body uncompressed, or upload the file to POST "
            "/v1/jobs, which reads gzip."));
  }
  if (request.body.size() > limits_.max_body_bytes) {
    return ErrorResponse(Status(ErrorCode::kPayloadTooLarge,
                                "The body is " + std::to_string(request.body.size()) +
                                    " bytes; the limit is " +
                                    std::to_string(limits_.max_body_bytes) + "."));
  }
  if (pool_ == nullptr) {
    return Check(request.body, principal.account, request.request_id, std::nullopt);
  }
  auto ticket = pool_->Admit(principal.account.id);
  if (!ticket.ok()) {
    HttpResponse r = ErrorResponse(ticket.status());
    r.SetHeader("Retry-After", "1");
    return r;
  }
  HttpResponse deferred;
  deferred.deferred = [this, ticket = std::make_shared<ValidatePool::Ticket>(std::move(*ticket)),
                       body = request.body, account = principal.account,
                       request_id = request.request_id](HttpResponse::Send send) mutable {
    pool_->Run(
        std::move(*ticket),
        [this, body = std::move(body), account = std::move(account), request_id,
         send](ValidatePool::Deadline deadline) {
          HttpResponse answer;
          try {
            answer = Check(body, account, request_id, deadline);
          } catch (const std::exception& e) {
            log::Error("unhandled exception", {{"request_id", request_id}, {"what", e.what()}});
            answer = ErrorResponse(Status(ErrorCode::kInternal,
                                          "Something went wrong on our side; the request id is " +
                                              request_id + "."));
          }
          send(std::move(answer));
        },
        [send] {
          HttpResponse r = ErrorResponse(Status(
              ErrorCode::kUnavailable,
              "The validation service did not answer in time; retry shortly."));
          r.SetHeader("Retry-After", "1");
          send(std::move(r));
        });
  };
  return deferred;
}

HttpResponse ValidateApi::Check(const std::string& body, const Account& account,
                                const std::string& request_id,
                                std::optional<ValidatePool::Deadline> deadline) {
  // One command per serving thread: its buffers are reused from request to request.
  thread_local ValidateCommand command;
  struct Release {
    ValidateCommand& c;
    ~Release() { c.ReleaseIfLarge(8u << 20); }
  } release{command};
  if (Status s = ParseValidateRequestInto(body, limits_.max_records, command); !s.ok()) {
    return ErrorResponse(s);
  }

  // The request's strings live on an arena: one block, freed at once.
  google::protobuf::Arena arena;
  auto* validator_request =
      google::protobuf::Arena::CreateMessage<validator::v1::ValidateRequest>(&arena);
  if (Status s = BuildValidatorRequestInto(command, *validator_request); !s.ok()) {
    return ErrorResponse(s);
  }

  auto reservation = quota_.Reserve(account, static_cast<int64_t>(command.records));
  if (!reservation.ok()) return ErrorResponse(reservation.status());

  // The answer on the same arena: its thousand issues' strings are parsed without a malloc each.
  auto* answer = google::protobuf::Arena::CreateMessage<validator::v1::ValidateResponse>(&arena);
  Status called = deadline ? validator_.ValidateBy(*validator_request, answer, *deadline)
                           : validator_.Validate(*validator_request, answer);
  // A validator that checked another number of records (one older than the packed rows it was
  // sent, mid-deploy) must not pass for a clean answer: it fails as an unavailable validator.
  if (called.ok() && answer->stats().rows() != command.records) {
    log::Error("validator answered for another number of records",
               {{"request_id", request_id},
                {"records", std::to_string(command.records)},
                {"validator_rows", std::to_string(answer->stats().rows())}});
    called = Status(ErrorCode::kUnavailable,
                    "The validation service is unavailable; retry shortly.");
  }
  if (!called.ok()) {
    ReleaseOrReport(quota_, *reservation, {"request_id", request_id});
    if (called.code() != ErrorCode::kUnavailable) {
      log::Error("validator call failed", {{"request_id", request_id},
                                           {"error", called.message()}});
    }
    return ErrorResponse(called);
  }
  return JsonResponse(200, WriteValidateResponse(command, *answer));
}

}  // namespace dq::gateway
