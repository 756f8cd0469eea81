#include "pipeline/steps.h"

#include "dq/common/log.h"
#include "dq/http/error_response.h"
#include "limits/quota.h"

namespace dq::gateway {
namespace {

// Whether the route counts against the account's rate limit: every unmatched /v1 request (it
// is refused after counting) and every route an account's credential reaches.
bool Limited(const RouteMatch& route) {
  if (!route.Found()) return true;
  return route.route->access == Access::kAccount ||
         route.route->access == Access::kVerifiedAccount;
}

bool ChangesState(const http::HttpRequest& request) {
  return request.method != "GET" && request.method != "HEAD";
}

}  // namespace

void ApplyRateLimitHeaders(const RateDecision& d, http::HttpResponse& response) {
  response.SetHeader("X-RateLimit-Limit", std::to_string(d.limit));
  response.SetHeader("X-RateLimit-Remaining", std::to_string(d.remaining));
  response.SetHeader("X-RateLimit-Reset", std::to_string(d.reset_unix));
  if (!d.allowed) response.SetHeader("Retry-After", std::to_string(d.retry_after));
}

http::HttpResponse WithRate(http::HttpResponse r, const RateDecision& d) {
  if (d.limit > 0) r.Then([d](http::HttpResponse& answer) { ApplyRateLimitHeaders(d, answer); });
  return r;
}

void RateLimitUse::NominalHeaders(RateClass c, http::HttpResponse& response) const {
  RateDecision d = limiter.Unknown(c);
  if (!enabled) d.remaining = d.limit;
  d.allowed = true;
  ApplyRateLimitHeaders(d, response);
}

http::HttpResponse RateLimitUse::Unavailable(const Status& status, RateClass c) const {
  http::HttpResponse r = http::ErrorResponse(status);
  if (enabled) ApplyRateLimitHeaders(limiter.Unknown(c), r);
  return r;
}

http::HttpResponse ErrorMapping::Handle(Exchange& x, const Next& next) const {
  const std::string& id = x.request.request_id;
  try {
    return next(x);
  } catch (const std::exception& e) {
    log::Error("unhandled exception", {{"request_id", id}, {"what", e.what()}});
    return http::ErrorResponse(Status(
        ErrorCode::kInternal, "Something went wrong on our side; the request id is " + id + "."));
  } catch (...) {
    log::Error("unhandled exception", {{"request_id", id}});
    return http::ErrorResponse(Status(ErrorCode::kInternal, "Something went wrong on our side."));
  }
}

std::optional<http::HttpResponse> RouteCheck::Refusal(const http::HttpRequest& request,
                                                      const RouteMatch& route) {
  switch (route.kind) {
    case RouteMatch::Kind::kFound: return std::nullopt;
    case RouteMatch::Kind::kNotFound:
      return http::ErrorResponse(
          Status(ErrorCode::kNotFound,
                 "There is no endpoint " + request.method + " " + request.path + "."));
    case RouteMatch::Kind::kMethodNotAllowed: break;
  }
  http::HttpResponse r = http::ErrorResponse(
      Status(ErrorCode::kMethodNotAllowed,
             request.method + " is not allowed on " + request.path + "; use " + route.allow + "."));
  r.SetHeader("Allow", route.allow);
  return r;
}

http::HttpResponse RouteCheck::Handle(Exchange& x, const Next& next) const {
  if (auto refusal = Refusal(x.request, x.route)) return std::move(*refusal);
  return next(x);
}

http::HttpResponse RequireService::Handle(Exchange& x, const Next& next) const {
  if (!served_) return http::ErrorResponse(Status(ErrorCode::kNotFound, message_));
  return next(x);
}

http::HttpResponse KeyAuthentication::Refusal(const http::HttpRequest& request, RateClass c,
                                              const Status& status) const {
  if (status.code() != ErrorCode::kUnavailable && rate_.enabled) {
    auto d = rate_.limiter.Acquire("ip_" + request.client_ip, RateClass::kAnonymous);
    if (d.ok() && !d->allowed) {
      http::HttpResponse r =
          http::ErrorResponse(Status(ErrorCode::kTooManyRequests,
                                     "Too many requests without a valid API key from "
                                     "this address; retry after the window resets."));
      ApplyRateLimitHeaders(*d, r);
      return r;
    }
    if (!d.ok()) {
      http::HttpResponse r = http::ErrorResponse(d.status());
      rate_.NominalHeaders(c, r);
      return r;
    }
  }
  http::HttpResponse r = http::ErrorResponse(status);
  rate_.NominalHeaders(c, r);
  return r;
}

http::HttpResponse KeyAuthentication::Handle(Exchange& x, const Next& next) const {
  auto principal = auth_.Authenticate(x.request);
  if (!principal.ok()) return Refusal(x.request, x.route.rate_class, principal.status());
  x.principal = std::move(*principal);
  return next(x);
}

http::HttpResponse SessionAuthentication::Handle(Exchange& x, const Next& next) const {
  const Access access = x.route.route->access;
  if (access == Access::kOpen) return next(x);
  auto who = console_.Authenticate(x.request);
  if (!who.ok()) return http::ErrorResponse(who.status());
  x.principal = who->principal;
  x.session = std::move(*who);
  if (ChangesState(x.request)) {
    if (Status s = ConsoleApi::CheckCsrf(x.request, x.session->session); !s.ok()) {
      return http::ErrorResponse(s);
    }
  }
  if (access == Access::kVerifiedAccount) {
    if (Status s = console_.RequireVerified(*x.session); !s.ok()) return http::ErrorResponse(s);
  }
  return next(x);
}

Status PlanCheck::Refusal(const Account& account) {
  if (PlanHasApiAccess(account.plan)) return Status::Ok();
  return Status(ErrorCode::kProRequired,
                "API access needs the Pro, Business or Agency plan; this account is on " +
                    std::string(PlanName(account.plan)) + ".");
}

http::HttpResponse PlanCheck::Handle(Exchange& x, const Next& next) const {
  Status refused = Refusal(x.principal->account);
  if (refused.ok()) return next(x);
  const RateClass c = x.route.rate_class;
  if (!rate_.enabled) return http::ErrorResponse(refused);
  auto d = rate_.limiter.Peek(x.principal->account.id, c);
  if (!d.ok()) return rate_.Unavailable(d.status(), c);
  return WithRate(http::ErrorResponse(refused), *d);
}

http::HttpResponse RateLimit::Handle(Exchange& x, const Next& next) const {
  if (!Limited(x.route)) return next(x);
  if (!rate_.enabled) return next(x);
  const RateClass c = x.route.rate_class;
  auto d = AcquireOrPass(rate_.limiter, x.principal->account.id, c, x.request.method,
                         x.request.request_id);
  if (!d.ok()) return rate_.Unavailable(d.status(), c);
  if (!d->allowed) {
    return WithRate(http::ErrorResponse(Status(ErrorCode::kTooManyRequests,
                                               "Rate limit of " + std::to_string(d->limit) + " " +
                                                   std::string(RateClassName(c)) +
                                                   " requests per minute reached; retry after " +
                                                   std::to_string(d->retry_after) + " s.")),
                    *d);
  }
  return WithRate(next(x), *d);
}

http::HttpResponse QuotaRetryAfter::Handle(Exchange& x, const Next& next) const {
  http::HttpResponse response = next(x);
  if (!Limited(x.route)) return response;
  response.Then([this](http::HttpResponse& r) {
    if (r.status == 429 && r.FindHeader("Retry-After") == nullptr &&
        r.body.find("\"quota_exceeded\"") != std::string::npos) {
      r.SetHeader("Retry-After", std::to_string(SecondsUntilNextMonth(clock_.Now())));
    }
  });
  return response;
}

}  // namespace dq::gateway
