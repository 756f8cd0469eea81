#include "pipeline/admission.h"

#include "dq/http/error_response.h"
#include "pipeline/router.h"

namespace dq::gateway {
namespace {

std::string SizeOf(std::optional<size_t> body_bytes) {
  return body_bytes ? std::to_string(*body_bytes) + " bytes" : "chunked";
}

bool Under(std::string_view path, std::string_view prefix) {
  return path == prefix || (path.starts_with(prefix) && path[prefix.size()] == '/');
}

}  // namespace

std::optional<http::HttpResponse> Admission::Admit(const http::HttpRequest& head,
                                                   std::optional<size_t> body_bytes) const {
  if (Under(head.path, kConsolePrefix)) {
    if (session_valid_ && session_valid_(head)) return std::nullopt;
    if (console_ != nullptr && console_->Authenticate(head).ok()) return std::nullopt;
    return http::ErrorResponse(Status(
        ErrorCode::kLoginRequired,
        "Sign in to the console before sending a body this large (" + SizeOf(body_bytes) + ")."));
  }
  if (Under(head.path, kApiPrefix)) return AdmitApi(head, body_bytes);
  return http::ErrorResponse(
      Status(ErrorCode::kNotFound, "There is no resource at " + head.path + "."));
}

std::optional<http::HttpResponse> Admission::AdmitApi(const http::HttpRequest& head,
                                                      std::optional<size_t> body_bytes) const {
  const RouteMatch route = MatchRoute(head.method, head.path);
  auto principal = keys_.authenticator().Authenticate(head);
  if (!principal.ok()) return keys_.Refusal(head, route.rate_class, principal.status());
  if (Status s = PlanCheck::Refusal(principal->account); !s.ok()) return http::ErrorResponse(s);
  if (auto refusal = RouteCheck::Refusal(head, route)) return refusal;
  // Only POST /v1/validate has a body limit of its own; an upload's is the edge's.
  if (route.pattern == "/v1/validate" && body_bytes && *body_bytes > max_validate_bytes_) {
    return http::ErrorResponse(Status(ErrorCode::kPayloadTooLarge,
                                      "The body is " + SizeOf(body_bytes) + "; the limit is " +
                                          std::to_string(max_validate_bytes_) + "."));
  }
  return std::nullopt;
}

}  // namespace dq::gateway
