// The gateway's request pipeline, free of any HTTP library: HttpRequest in, HttpResponse out.
//
// For every /v1 request, in the order decisions.md fixes:
//   key present (401 api_key_required) -> key valid (401 invalid_api_key) -> plan (403
//   pro_required) -> rate limit (429 too_many_requests) -> route (404, 405) -> request validity
//   (400, 413, 415) -> quota (429 quota_exceeded) -> work.
// Requests without a valid key are rate-limited per client address, so keys cannot be guessed
// fast. Every /v1 response, errors included, carries X-RateLimit-Limit, -Remaining and -Reset.
// /healthz, /readyz and /metrics are outside /v1: no key, no limits.
//
// Every request handled here is written to the access log and counted in the request metrics
// (observe/access_log.h), labelled with its route template.
//
// Handle() never throws: anything unexpected becomes 500 internal_error, logged with the
// request id. Thread-safe: called concurrently from every HTTP worker thread.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "auth/authenticator.h"
#include "clients/validator_client.h"
#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "http/http_types.h"
#include "limits/quota.h"
#include "jobs/jobs_api.h"
#include "limits/rate_limiter.h"

namespace dq::gateway {

struct GatewayOptions {
  size_t max_body_bytes = 10 * 1024 * 1024;  // POST /v1/validate
  size_t max_records = 500;
  bool rate_limiting = true;  // false only for benchmarks: no limits, no headers
};

struct GatewayDeps {
  AccountStore& accounts;
  RateLimiter& limiter;
  QuotaService& quota;
  ValidatorClient& validator;
  // True when the gateway's own dependencies (Redis) answer; used by /readyz.
  std::function<bool()> store_ready;
  // The job endpoints; null where jobs are not served (unit tests of other routes).
  JobsApi* jobs = nullptr;
  const Clock& clock = SystemClock::Instance();
};

class Gateway {
 public:
  Gateway(GatewayDeps deps, GatewayOptions options);

  HttpResponse Handle(const HttpRequest& request);

  // From now on /readyz answers 503 so load balancers stop sending traffic; requests still in
  // flight, and any that arrive, are served normally. Called on SIGTERM before the server stops.
  void BeginDrain() { draining_.store(true); }

 private:
  // What the access log learns while a request is handled.
  struct RequestTrace {
    std::string route = "unmatched";  // the route template, once matched
    std::string account_id;           // once the key is known
  };
  HttpResponse HandleUnsafe(const HttpRequest& request, RequestTrace& trace);
  HttpResponse HandleV1(const HttpRequest& request, RequestTrace& trace);
  HttpResponse Ready();
  HttpResponse Validate(const HttpRequest& request, const Principal& principal);
  HttpResponse Usage(const Principal& principal);
  HttpResponse Jobs(const struct RouteMatch& route, const HttpRequest& request,
                    const Principal& principal);

  GatewayDeps deps_;
  GatewayOptions options_;
  Authenticator auth_;
  std::atomic<bool> draining_{false};
};

// The operational routes outside /v1 (no key, no limits), as "METHOD /path" like RouteList();
// other methods on them answer 405 with "Allow: GET".
std::vector<std::string> OpsRouteList();

// Adds the three X-RateLimit headers (and Retry-After when the decision refused).
void ApplyRateLimitHeaders(const RateDecision& d, HttpResponse& response);

}  // namespace dq::gateway
