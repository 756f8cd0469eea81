#include "gateway.h"

#include <chrono>

#include "dq/catalog/issue_catalog.h"
#include "dq/common/log.h"
#include "dq/common/metrics.h"
#include "http/core/error_response.h"
#include "http/core/json_util.h"
#include "http/core/router.h"
#include "observe/access_log.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

HttpResponse WithRate(HttpResponse r, const RateDecision& d) {
  // limit 0: rate limiting is switched off
  if (d.limit > 0) r.Then([d](HttpResponse& answer) { ApplyRateLimitHeaders(d, answer); });
  return r;
}

// What the pipeline sees when rate limiting is switched off (benchmarks).
Result<RateDecision> Unlimited() { return RateDecision{true, 0, 0, 0, 0}; }

}  // namespace

// The operational routes of the gateway process: /healthz and /readyz on both ports, /metrics on
// the ops port only.
std::vector<std::string> OpsRouteList() {
  return {"GET /healthz", "GET /readyz", "GET /metrics"};
}

void ApplyRateLimitHeaders(const RateDecision& d, HttpResponse& response) {
  response.SetHeader("X-RateLimit-Limit", std::to_string(d.limit));
  response.SetHeader("X-RateLimit-Remaining", std::to_string(d.remaining));
  response.SetHeader("X-RateLimit-Reset", std::to_string(d.reset_unix));
  if (!d.allowed) response.SetHeader("Retry-After", std::to_string(d.retry_after));
}

Gateway::Gateway(GatewayDeps deps, GatewayOptions options)
    : deps_(std::move(deps)),
      options_(options),
      auth_(deps_.accounts, deps_.clock),
      validate_(deps_.quota, deps_.validator, deps_.validate_pool,
                ValidateLimits{options_.max_body_bytes, options_.max_records}) {}

HttpResponse Gateway::Handle(const HttpRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  RequestTrace trace;
  HttpResponse response;
  try {
    response = HandleUnsafe(request, trace);
  } catch (const std::exception& e) {
    log::Error("unhandled exception", {{"request_id", request.request_id}, {"what", e.what()}});
    response = ErrorResponse(Status(ErrorCode::kInternal,
                                    "Something went wrong on our side; the request id is " +
                                        request.request_id + "."));
  } catch (...) {
    log::Error("unhandled exception", {{"request_id", request.request_id}});
    response = ErrorResponse(Status(ErrorCode::kInternal, "Something went wrong on our side."));
  }
  // A deferred answer (POST /v1/validate on the pool) is finished and logged when it is ready.
  HttpRequest head;
  head.method = request.method;
  head.path = request.path;
  head.request_id = request.request_id;
  if (const std::string* proto = request.Header("x-forwarded-proto")) {
    head.headers["x-forwarded-proto"] = *proto;
  }
  response.Then([this, head = std::move(head), trace, start,
                 bytes_in = request.body.size()](HttpResponse& answer) {
    Finish(head, answer);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const AccessRecord record{head.request_id, head.method, trace.route, answer.status,
                              seconds, bytes_in, answer.body.size(), trace.account_id};
    if (answer.body_producer) {
      RecordWhenBodyEnds(answer, record, start, RecordRequest);  // every piece counted
    } else {
      RecordRequest(record);
    }
  });
  return response;
}

HttpResponse Gateway::HandleUnsafe(const HttpRequest& request, RequestTrace& trace) {
  const std::string_view path = request.path;
  if (path == "/v1" || path.starts_with("/v1/")) return HandleV1(request, trace);
  if (deps_.console_site != nullptr && ConsoleSite::Owns(path)) {
    return deps_.console_site->Serve(request);
  }
  if (path == kConsolePrefix || path.starts_with(std::string(kConsolePrefix) + "/")) {
    HttpResponse r = HandleConsole(request, trace);
    // The console's data is the user's own: never sniffed into another type, never cached.
    r.Then([](HttpResponse& answer) {
      answer.SetHeader("X-Content-Type-Options", "nosniff");
      if (answer.FindHeader("Cache-Control") == nullptr) answer.SetHeader("Cache-Control", "no-store");
    });
    return r;
  }
  // /metrics is on the ops port only (DQ_GATEWAY_OPS_PORT): never public.
  const bool ops = path == "/healthz" || path == "/readyz";
  if (ops) trace.route = std::string(path);
  if (ops && request.method != "GET" && request.method != "HEAD") {
    HttpResponse r = ErrorResponse(Status(ErrorCode::kMethodNotAllowed,
                                          request.method + " is not allowed on " +
                                              std::string(path) + "; use GET."));
    r.SetHeader("Allow", "GET");
    return r;
  }
  if (path == "/healthz") return JsonResponse(200, R"({"status":"ok"})");
  if (path == "/readyz") return ReadyResponse();
  return ErrorResponse(Status(ErrorCode::kNotFound, "There is no resource at " +
                                                        std::string(path) + "."));
}

bool Gateway::Ready() const {
  if (draining_.load()) return false;
  const bool store = deps_.store_ready ? deps_.store_ready() : true;
  return store && deps_.validator.Healthy();
}

void Gateway::NominalRateHeaders(RateClass c, HttpResponse& response) const {
  RateDecision d = deps_.limiter.Unknown(c);
  if (!options_.rate_limiting) d.remaining = d.limit;
  d.allowed = true;
  ApplyRateLimitHeaders(d, response);
}

void Gateway::Finish(const HttpRequest& request, HttpResponse& response) const {
  const std::string* proto = request.Header("x-forwarded-proto");
  if (options_.hsts || (proto != nullptr && *proto == "https")) {
    response.SetHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  if (response.FindHeader("X-RateLimit-Limit") == nullptr) {
    NominalRateHeaders(MatchRoute(request.method, request.path).rate_class, response);
  }
  AddRequestId(response, request.request_id);
}

void Gateway::Record(const ExchangeRecord& r) {
  if (!r.refused_at_edge || r.request == nullptr || r.response == nullptr) return;
  RecordRequest({r.request->request_id, r.request->method, "edge", r.response->status,
                 std::chrono::duration<double>(r.duration).count(), r.bytes_in,
                 r.response->body.size(), ""});
}

HttpResponse Gateway::TransportError(const HttpRequest& head, const Status& status) {
  HttpResponse response = ErrorResponse(status);
  if (status.code() == ErrorCode::kPayloadTooLarge && !head.path.empty() &&
      MatchRoute(head.method, head.path).id == RouteId::kCreateJob &&
      MatchRoute(head.method, head.path).kind == RouteMatch::Kind::kFound) {
    response = ErrorResponse(Status(ErrorCode::kFileTooLarge, status.message()));
  }
  Finish(head, response);
  return response;
}

std::optional<HttpResponse> Gateway::Admit(const HttpRequest& head,
                                           std::optional<size_t> body_bytes) {
  HttpResponse response;
  try {
    const std::string_view path = head.path;
    const std::string size = body_bytes ? std::to_string(*body_bytes) + " bytes" : "chunked";
    if (path == "/console/api" || path.starts_with("/console/api/")) {
      if (deps_.session_valid && deps_.session_valid(head)) return std::nullopt;
      if (deps_.console != nullptr && deps_.console->Authenticate(head).ok()) return std::nullopt;
      response = ErrorResponse(Status(ErrorCode::kLoginRequired,
                                      "Sign in to the console before sending a body this large (" +
                                          size + ")."));
    } else if (path == "/v1" || path.starts_with("/v1/")) {
      const RouteMatch route = MatchRoute(head.method, head.path);
      auto principal = auth_.Authenticate(head);
      if (!principal.ok()) {
        response = AuthFailure(head, route, principal.status());
      } else if (!PlanHasApiAccess(principal->account.plan)) {
        response = ErrorResponse(Status(ErrorCode::kProRequired,
                                        "API access needs the Pro, Business or Agency plan; "
                                        "this account is on " +
                                            std::string(PlanName(principal->account.plan)) + "."));
      } else if (route.kind == RouteMatch::Kind::kNotFound) {
        response = ErrorResponse(Status(ErrorCode::kNotFound, "There is no endpoint " +
                                                                  head.method + " " + head.path +
                                                                  "."));
      } else if (route.kind == RouteMatch::Kind::kMethodNotAllowed) {
        response = ErrorResponse(Status(ErrorCode::kMethodNotAllowed,
                                        head.method + " is not allowed on " + head.path +
                                            "; use " + route.allow + "."));
        response.SetHeader("Allow", route.allow);
      } else if (route.id == RouteId::kValidate && body_bytes &&
                 *body_bytes > options_.max_body_bytes) {
        response = ErrorResponse(Status(ErrorCode::kPayloadTooLarge,
                                        "The body is " + size + "; the limit is " +
                                            std::to_string(options_.max_body_bytes) + "."));
      } else {
        return std::nullopt;
      }
    } else {
      response = ErrorResponse(Status(ErrorCode::kNotFound, "There is no resource at " +
                                                                std::string(path) + "."));
    }
  } catch (const std::exception& e) {
    log::Error("admission failed", {{"request_id", head.request_id}, {"what", e.what()}});
    response = ErrorResponse(Status(ErrorCode::kInternal, "Something went wrong on our side."));
  }
  Finish(head, response);
  return response;
}

HttpResponse Gateway::AuthFailure(const HttpRequest& request, const RouteMatch& route,
                                  const Status& status) {
  if (status.code() == ErrorCode::kUnavailable) {
    HttpResponse r = ErrorResponse(status);
    NominalRateHeaders(route.rate_class, r);
    return r;
  }
  // Failures are limited per client address, so keys cannot be guessed fast; the headers show
  // the endpoint's class limit, and nothing promised as remaining.
  if (options_.rate_limiting) {
    auto d = deps_.limiter.Acquire("ip_" + request.client_ip, RateClass::kAnonymous);
    if (!d.ok()) {
      HttpResponse r = ErrorResponse(d.status());
      NominalRateHeaders(route.rate_class, r);
      return r;
    }
    if (!d->allowed) {
      HttpResponse r = ErrorResponse(Status(ErrorCode::kTooManyRequests,
                                            "Too many requests without a valid API key from "
                                            "this address; retry after the window resets."));
      ApplyRateLimitHeaders(*d, r);
      return r;
    }
  }
  HttpResponse r = ErrorResponse(status);
  NominalRateHeaders(route.rate_class, r);
  return r;
}

HttpResponse Gateway::ReadyResponse() const {
  if (draining_.load()) {
    HttpResponse r = JsonResponse(503, R"({"status":"draining"})");
    r.SetHeader("Retry-After", "1");
    return r;
  }
  const bool store = deps_.store_ready ? deps_.store_ready() : true;
  const bool validator = deps_.validator.Healthy();
  json body = {{"status", store && validator ? "ready" : "not_ready"},
               {"checks", {{"redis", store ? "ok" : "unavailable"},
                           {"validator", validator ? "ok" : "unavailable"}}}};
  HttpResponse r = JsonResponse(store && validator ? 200 : 503, DumpJson(body));
  if (r.status == 503) r.SetHeader("Retry-After", "1");
  return r;
}

HttpResponse Gateway::HandleV1(const HttpRequest& request, RequestTrace& trace) {
  const RouteMatch route = MatchRoute(request.method, request.path);
  if (!route.pattern.empty()) trace.route = RouteTemplate(route.pattern);

  // When Redis cannot be reached nothing can be counted: the 503 still carries the headers, with
  // the class's limit and nothing promised as remaining.
  auto unavailable = [&](const Status& s, RateClass c) {
    HttpResponse r = ErrorResponse(s);
    if (options_.rate_limiting) ApplyRateLimitHeaders(deps_.limiter.Unknown(c), r);
    return r;
  };

  // 1-2. Who is calling. Failures are limited per client address.
  auto principal = auth_.Authenticate(request);
  if (!principal.ok()) return AuthFailure(request, route, principal.status());
  const Account& account = principal->account;
  trace.account_id = account.id;

  // 3. Plan.
  if (!PlanHasApiAccess(account.plan)) {
    auto d = options_.rate_limiting ? deps_.limiter.Peek(account.id, route.rate_class)
                                    : Unlimited();
    if (!d.ok()) return unavailable(d.status(), route.rate_class);
    return WithRate(ErrorResponse(Status(ErrorCode::kProRequired,
                                         "API access needs the Pro, Business or Agency plan; "
                                         "this account is on " +
                                             std::string(PlanName(account.plan)) + ".")),
                    *d);
  }

  // 4. Rate limit for the route's class (reads and deletes go on uncounted when the counter
  // cannot be written: a full Redis must not lock users out of their data).
  auto d = options_.rate_limiting ? AcquireOrPass(deps_.limiter, account.id, route.rate_class,
                                                  request.method, request.request_id)
                                  : Unlimited();
  if (!d.ok()) return unavailable(d.status(), route.rate_class);
  if (!d->allowed) {
    const int64_t limit = d->limit;
    return WithRate(
        ErrorResponse(Status(ErrorCode::kTooManyRequests,
                             "Rate limit of " + std::to_string(limit) + " " +
                                 std::string(RateClassName(route.rate_class)) +
                                 " requests per minute reached; retry after " +
                                 std::to_string(d->retry_after) + " s.")),
        *d);
  }

  // 5. Route.
  HttpResponse response;
  switch (route.kind) {
    case RouteMatch::Kind::kNotFound:
      response = ErrorResponse(Status(ErrorCode::kNotFound,
                                      "There is no endpoint " + request.method + " " +
                                          request.path + "."));
      break;
    case RouteMatch::Kind::kMethodNotAllowed:
      response = ErrorResponse(Status(ErrorCode::kMethodNotAllowed,
                                      request.method + " is not allowed on " + request.path +
                                          "; use " + route.allow + "."));
      response.SetHeader("Allow", route.allow);
      break;
    case RouteMatch::Kind::kFound: response = Dispatch(route, request, *principal); break;
  }
  // A refused quota renews on the first day of next month (UTC): say when.
  response.Then([this](HttpResponse& r) {
    if (r.status == 429 && r.FindHeader("Retry-After") == nullptr &&
        r.body.find("\"quota_exceeded\"") != std::string::npos) {
      r.SetHeader("Retry-After", std::to_string(SecondsUntilNextMonth(deps_.clock.Now())));
    }
  });
  return WithRate(std::move(response), *d);
}

HttpResponse Gateway::Dispatch(const RouteMatch& route, const HttpRequest& request,
                               const Principal& principal) {
  switch (route.id) {
    case RouteId::kValidate: return validate_.Post(request, principal);
    case RouteId::kUsage: return Usage(principal);
    case RouteId::kIssueCodes: return JsonResponse(200, catalog::IssueCodesJson());
    case RouteId::kGetWebhook:
    case RouteId::kPutWebhook:
    case RouteId::kRollWebhookSecret:
    case RouteId::kTestWebhook:
    case RouteId::kListDeliveries:
    case RouteId::kRedeliver: return Webhooks(route, request, principal);
    default: return Jobs(route, request, principal);
  }
}

HttpResponse Gateway::Webhooks(const RouteMatch& route, const HttpRequest& request,
                               const Principal& principal) {
  if (deps_.webhooks == nullptr) {
    return ErrorResponse(Status(ErrorCode::kNotFound, "Webhooks are not served here."));
  }
  WebhookApi& api = *deps_.webhooks;
  switch (route.id) {
    case RouteId::kGetWebhook: return api.Get(principal);
    case RouteId::kPutWebhook: return api.Put(request, principal);
    case RouteId::kRollWebhookSecret: return api.RollSecret(principal);
    case RouteId::kTestWebhook: return api.Test(principal);
    case RouteId::kListDeliveries: return api.Deliveries(request, principal);
    case RouteId::kRedeliver: return api.Redeliver(principal, route.params[0]);
    default: return ErrorResponse(Status(ErrorCode::kNotFound, "No such endpoint."));
  }
}

HttpResponse Gateway::HandleConsole(const HttpRequest& request, RequestTrace& trace) {
  const RouteMatch route = MatchRoute(request.method, request.path);
  if (!route.pattern.empty()) trace.route = RouteTemplate(route.pattern);
  if (route.kind == RouteMatch::Kind::kNotFound) {
    return ErrorResponse(Status(ErrorCode::kNotFound, "There is no endpoint " + request.method +
                                                          " " + request.path + "."));
  }
  if (route.kind == RouteMatch::Kind::kMethodNotAllowed) {
    HttpResponse r = ErrorResponse(Status(ErrorCode::kMethodNotAllowed,
                                          request.method + " is not allowed on " + request.path +
                                              "; use " + route.allow + "."));
    r.SetHeader("Allow", route.allow);
    return r;
  }
  if (deps_.console == nullptr) {
    return ErrorResponse(Status(ErrorCode::kNotFound, "The console is not served here."));
  }
  ConsoleApi& console = *deps_.console;
  if (route.id == RouteId::kSignup) return console.Signup(request);
  if (route.id == RouteId::kLogin) return console.Login(request);
  if (route.id == RouteId::kVerifyEmail) return console.VerifyEmail(request);

  auto who = console.Authenticate(request);
  if (!who.ok()) return ErrorResponse(who.status());
  trace.account_id = who->principal.account.id;
  if (request.method != "GET" && request.method != "HEAD") {
    if (Status s = ConsoleApi::CheckCsrf(request, who->session); !s.ok()) {
      return ErrorResponse(s);
    }
  }
  // Setting a webhook waits for a verified e-mail address (docs/api.md, "Sign-up").
  if (route.id == RouteId::kPutWebhook) {
    if (Status s = console.RequireVerified(*who); !s.ok()) return ErrorResponse(s);
  }
  switch (route.id) {
    case RouteId::kLogout: return console.Logout(*who);
    case RouteId::kMe: return console.Me(*who);
    case RouteId::kListKeys: return console.ListKeys(*who);
    case RouteId::kCreateKey: return console.CreateKey(request, *who);
    case RouteId::kRevokeKey: return console.RevokeKey(*who, route.params[0]);
    default: break;
  }
  // A route both doors share: the account's rate limit, whichever door, then the shared handler.
  const Account& account = who->principal.account;
  auto d = options_.rate_limiting ? AcquireOrPass(deps_.limiter, account.id, route.rate_class,
                                                  request.method, request.request_id)
                                  : Unlimited();
  if (!d.ok()) {
    HttpResponse r = ErrorResponse(d.status());
    if (options_.rate_limiting) ApplyRateLimitHeaders(deps_.limiter.Unknown(route.rate_class), r);
    return r;
  }
  if (!d->allowed) {
    return WithRate(ErrorResponse(Status(ErrorCode::kTooManyRequests,
                                         "Rate limit of " + std::to_string(d->limit) + " " +
                                             std::string(RateClassName(route.rate_class)) +
                                             " requests per minute reached; retry after " +
                                             std::to_string(d->retry_after) + " s.")),
                    *d);
  }
  HttpResponse response = Dispatch(route, request, who->principal);
  if (response.status == 429 && response.FindHeader("Retry-After") == nullptr) {
    response.SetHeader("Retry-After", std::to_string(SecondsUntilNextMonth(deps_.clock.Now())));
  }
  return WithRate(std::move(response), *d);
}

HttpResponse Gateway::Jobs(const RouteMatch& route, const HttpRequest& request,
                           const Principal& principal) {
  if (deps_.jobs == nullptr) {
    return ErrorResponse(Status(ErrorCode::kNotFound, "Jobs are not served here."));
  }
  JobsApi& jobs = *deps_.jobs;
  switch (route.id) {
    case RouteId::kCreateJob: return jobs.Create(request, principal);
    case RouteId::kListJobs: return jobs.List(request, principal);
    case RouteId::kPreviewJob: return jobs.Preview(request, principal);
    case RouteId::kJobLimits: return jobs.Limits(principal);
    case RouteId::kGetJob: return jobs.Get(request, principal, route.params[0]);
    case RouteId::kDeleteJob: return jobs.Delete(principal, route.params[0]);
    case RouteId::kJobSummary: return jobs.Summary(principal, route.params[0]);
    case RouteId::kJobCleaned: return jobs.Cleaned(request, principal, route.params[0]);
    case RouteId::kJobIssues: return jobs.IssuesPage(request, principal, route.params[0]);
    default: return ErrorResponse(Status(ErrorCode::kNotFound, "No such endpoint."));
  }
}

HttpResponse Gateway::Usage(const Principal& principal) {
  auto usage = deps_.quota.Usage(principal.account);
  if (!usage.ok()) return ErrorResponse(usage.status());
  json body = {{"account_id", principal.account.id},
               {"plan", std::string(PlanName(principal.account.plan))},
               {"month", usage->month.substr(0, 4) + "-" + usage->month.substr(4)},
               {"records_used", usage->used},
               {"records_quota", usage->quota},
               {"records_remaining", std::max<int64_t>(0, usage->quota - usage->used)}};
  return JsonResponse(200, DumpJson(body));
}

}  // namespace dq::gateway
