// The pipeline's steps (pipeline.h), each written once and used by whichever door needs it. The
// order each door runs them in is fixed by docs/api.md and composed in gateway.cpp:
//   /v1:          ErrorMapping, KeyAuthentication, PlanCheck, RateLimit, RouteCheck,
//                 QuotaRetryAfter, handler
//   /console/api: ErrorMapping, RouteCheck, RequireService, SessionAuthentication, RateLimit,
//                 QuotaRetryAfter, handler
// Every refusal is a JSON error (dq/http/error_response.h); the X-RateLimit headers of an
// answer that counted nothing are added later, by the gateway's Finish.
#pragma once

#include <string>

#include "auth/authenticator.h"
#include "console/console_api.h"
#include "dq/common/clock.h"
#include "limits/rate_limiter.h"
#include "pipeline/pipeline.h"

namespace dq::gateway {

// How the limiter is used: off only for benchmarks (no limits, no headers).
struct RateLimitUse {
  RateLimiter& limiter;
  bool enabled = true;

  // Headers for an answer that counted nothing: the class limit, Remaining 0 (or the limit when
  // rate limiting is off).
  void NominalHeaders(RateClass c, http::HttpResponse& response) const;
  // The answer when the counters cannot be read (Redis down): the class's limit and nothing
  // promised as remaining.
  http::HttpResponse Unavailable(const Status& status, RateClass c) const;
};

// Adds the three X-RateLimit headers (and Retry-After when the decision refused).
void ApplyRateLimitHeaders(const RateDecision& d, http::HttpResponse& response);
// r with the decision's headers once it is ready (none when rate limiting is off: limit 0).
http::HttpResponse WithRate(http::HttpResponse r, const RateDecision& d);

// Anything a later step or handler throws becomes 500 internal_error, logged with the request id.
class ErrorMapping final : public Step {
 public:
  http::HttpResponse Handle(Exchange& x, const Next& next) const override;
};

// 404 for no route, 405 (with Allow) for a route that takes other methods.
class RouteCheck final : public Step {
 public:
  http::HttpResponse Handle(Exchange& x, const Next& next) const override;
  // The refusal for a route that did not match; nullopt when it matched.
  static std::optional<http::HttpResponse> Refusal(const http::HttpRequest& request,
                                                   const RouteMatch& route);
};

// 404 with `message` when the door's service is not wired (unit tests of other routes).
class RequireService final : public Step {
 public:
  RequireService(bool served, std::string message)
      : served_(served), message_(std::move(message)) {}
  http::HttpResponse Handle(Exchange& x, const Next& next) const override;

 private:
  bool served_;
  std::string message_;
};

// /v1: the X-API-Key (401 api_key_required, 401 invalid_api_key). Failures are limited per
// client address (429), so keys cannot be guessed fast.
class KeyAuthentication final : public Step {
 public:
  KeyAuthentication(Authenticator& auth, RateLimitUse rate) : auth_(auth), rate_(rate) {}
  http::HttpResponse Handle(Exchange& x, const Next& next) const override;
  // The answer to a failed authentication of `request` on a route of class c.
  http::HttpResponse Refusal(const http::HttpRequest& request, RateClass c,
                             const Status& status) const;
  Authenticator& authenticator() const { return auth_; }

 private:
  Authenticator& auth_;
  RateLimitUse rate_;
};

// /console/api: the session cookie (401 login_required) for every route but the open ones; the
// X-CSRF-Token on methods other than GET and HEAD (403 csrf_failed); a verified e-mail address
// where the route asks for one.
class SessionAuthentication final : public Step {
 public:
  explicit SessionAuthentication(ConsoleApi& console) : console_(console) {}
  http::HttpResponse Handle(Exchange& x, const Next& next) const override;

 private:
  ConsoleApi& console_;
};

// /v1: 403 pro_required unless the plan includes API access (with the account's rate headers,
// read without counting).
class PlanCheck final : public Step {
 public:
  explicit PlanCheck(RateLimitUse rate) : rate_(rate) {}
  http::HttpResponse Handle(Exchange& x, const Next& next) const override;
  static Status Refusal(const Account& account);  // ok when the plan has API access

 private:
  RateLimitUse rate_;
};

// The account's budget for the route's class (429 too_many_requests); the answer carries the
// decision's headers. Reads and deletes go on uncounted when the counter cannot be written. Routes
// of Access kOpen and kSession are not limited.
class RateLimit final : public Step {
 public:
  explicit RateLimit(RateLimitUse rate) : rate_(rate) {}
  http::HttpResponse Handle(Exchange& x, const Next& next) const override;

 private:
  RateLimitUse rate_;
};

// A refused quota renews on the first day of next month (UTC): a 429 quota_exceeded says when
// in Retry-After.
class QuotaRetryAfter final : public Step {
 public:
  explicit QuotaRetryAfter(const Clock& clock) : clock_(clock) {}
  http::HttpResponse Handle(Exchange& x, const Next& next) const override;

 private:
  const Clock& clock_;
};

}  // namespace dq::gateway
