// The gateway's request handling, free of any HTTP library: HttpRequest in, HttpResponse out. It
// composes one pipeline per door from the steps in pipeline/steps.h, ending at the matched
// route's handler (pipeline/routes.cpp, one table for both doors).
//
// For every /v1 request, in the order docs/api.md fixes:
//   key present (401 api_key_required) -> key valid (401 invalid_api_key) -> plan (403
//   pro_required) -> rate limit (429 too_many_requests) -> route (404, 405) -> request validity
//   (400, 413, 415) -> quota (429 quota_exceeded) -> work.
// Requests without a valid key are rate-limited per client address, so keys cannot be guessed
// fast. Every response of the API listener, errors included, carries X-RateLimit-Limit,
// -Remaining and -Reset with the limit of the endpoint's class (answers given before the
// account is known show Remaining 0; with rate limiting off, Remaining equals the limit).
// Every JSON error body carries "request_id". /healthz and /readyz are outside /v1: no key, no
// limits; /metrics is served on the ops port only.
//
// /console/api is the console's door (session cookie, docs/api.md "Console API"): route first
// (404/405), then sign-up and sign-in, which need no session; every other route needs a live
// session (401 login_required) and, when it changes state, the session's X-CSRF-Token (403
// csrf_failed). Routes both doors share (jobs, webhook) then take the account's rate limit and
// run the very handler /v1 runs: authentication is the only step that differs.
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
#include "clients/validate_pool.h"
#include "clients/validator_client.h"
#include "console/console_api.h"
#include "console/console_site.h"
#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "dq/http/http_service.h"
#include "dq/http/http_types.h"
#include "limits/quota.h"
#include "jobs/jobs_api.h"
#include "limits/rate_limiter.h"
#include "pipeline/admission.h"
#include "pipeline/pipeline.h"
#include "pipeline/routes.h"
#include "pipeline/steps.h"
#include "validate/validate_api.h"
#include "webhooks/webhook_api.h"

namespace dq::gateway {

struct GatewayOptions {
  size_t max_body_bytes = 10 * 1024 * 1024;  // POST /v1/validate
  size_t max_records = 500;
  bool rate_limiting = true;  // false only for benchmarks: no limits, no headers
  // DQ_HSTS: every answer carries Strict-Transport-Security. Without it, answers to requests a
  // trusted proxy marks X-Forwarded-Proto: https carry it (the adapter drops that header from
  // anyone else).
  bool hsts = false;
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
  // The console's door and the webhook endpoints; null where not served.
  ConsoleApi* console = nullptr;
  WebhookApi* webhooks = nullptr;
  // The web console's pages and assets under /console/; null where the console is not served.
  const ConsoleSite* console_site = nullptr;
  // Whether the request carries a valid console session (cookie dq_session); used by the edge
  // to accept large /console/api bodies before they are read. When null, the console door
  // (console) decides.
  std::function<bool(const http::HttpRequest&)> session_valid = nullptr;
  // Where POST /v1/validate waits for the validator (clients/validate_pool.h). Null: on the
  // calling thread (unit tests).
  ValidatePool* validate_pool = nullptr;
};

class Gateway final : public http::HttpService {
 public:
  Gateway(GatewayDeps deps, GatewayOptions options);

  http::HttpResponse Handle(const http::HttpRequest& request) override;
  // The edge's decision on a large body, from the headers alone (pipeline/admission.h).
  std::optional<http::HttpResponse> Admit(const http::HttpRequest& head,
                                          std::optional<size_t> body_bytes) override;
  http::HttpResponse TransportError(const http::HttpRequest& head, const Status& status) override;
  // Answers the edge gave itself go to the access log too (route "edge"); complete requests are
  // logged by Handle().
  void Record(const http::ExchangeRecord& record) override;

  // What /readyz reports (also on the ops port).
  bool Ready() const;

  // From now on /readyz answers 503 so load balancers stop sending traffic; requests still in
  // flight, and any that arrive, are served normally. Called on SIGTERM before the server stops.
  void BeginDrain() { draining_.store(true); }

 private:
  // The door's pipeline, or the operational routes, by path.
  http::HttpResponse Route(Exchange& x);
  http::HttpResponse Operational(const http::HttpRequest& request) const;
  http::HttpResponse ReadyResponse() const;
  // Strict-Transport-Security, the nominal X-RateLimit headers, X-Request-Id.
  void Finish(const http::HttpRequest& request, http::HttpResponse& response) const;

  GatewayDeps deps_;
  GatewayOptions options_;
  Authenticator auth_;
  ValidateApi validate_;  // POST /v1/validate
  RouteServices services_;
  RateLimitUse rate_;
  KeyAuthentication keys_;
  Admission admission_;
  Pipeline outer_;    // every request: ErrorMapping, then Route()
  Pipeline api_;      // /v1
  Pipeline console_;  // /console/api
  std::atomic<bool> draining_{false};
};

// The operational routes outside /v1 (no key, no limits), as "METHOD /path" like RouteList();
// other methods on them answer 405 with "Allow: GET".
std::vector<std::string> OpsRouteList();

}  // namespace dq::gateway
