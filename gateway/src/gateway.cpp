#include "gateway.h"

#include <chrono>

#include "dq/common/log.h"
#include "dq/common/metrics.h"
#include "http/error_response.h"
#include "http/json_util.h"
#include "http/router.h"
#include "observe/access_log.h"
#include "validate/validate_request.h"

#include <google/protobuf/arena.h>

namespace dq::gateway {
namespace {

using nlohmann::json;

bool IsJsonContentType(const HttpRequest& r) {
  const std::string* ct = r.Header("content-type");
  if (ct == nullptr) return true;  // no declared type: try JSON
  std::string_view v = *ct;
  v = v.substr(0, v.find(';'));
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  std::string lower(v);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "application/json" || (lower.size() > 5 && lower.ends_with("+json"));
}

HttpResponse WithRate(HttpResponse r, const RateDecision& d) {
  if (d.limit > 0) ApplyRateLimitHeaders(d, r);  // limit 0: rate limiting is switched off
  return r;
}

// What the pipeline sees when rate limiting is switched off (benchmarks).
Result<RateDecision> Unlimited() { return RateDecision{true, 0, 0, 0, 0}; }

}  // namespace

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
    : deps_(std::move(deps)), options_(options), auth_(deps_.accounts) {}

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
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordRequest({request.request_id, request.method, trace.route, response.status, seconds,
                 request.body.size(), response.body.size(), trace.account_id});
  return response;
}

HttpResponse Gateway::HandleUnsafe(const HttpRequest& request, RequestTrace& trace) {
  const std::string_view path = request.path;
  if (path == "/v1" || path.starts_with("/v1/")) return HandleV1(request, trace);
  const bool ops = path == "/healthz" || path == "/readyz" || path == "/metrics";
  if (ops) trace.route = std::string(path);
  if (ops && request.method != "GET") {
    HttpResponse r = ErrorResponse(Status(ErrorCode::kMethodNotAllowed,
                                          request.method + " is not allowed on " +
                                              std::string(path) + "; use GET."));
    r.SetHeader("Allow", "GET");
    return r;
  }
  if (path == "/healthz") return JsonResponse(200, R"({"status":"ok"})");
  if (path == "/readyz") return Ready();
  if (path == "/metrics") {
    HttpResponse r;
    r.content_type = "text/plain; version=0.0.4";
    r.body = Metrics::Global().Render();
    return r;
  }
  return ErrorResponse(Status(ErrorCode::kNotFound, "There is no resource at " +
                                                        std::string(path) + "."));
}

HttpResponse Gateway::Ready() {
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
  if (!principal.ok()) {
    if (principal.status().code() == ErrorCode::kUnavailable) {
      return unavailable(principal.status(), route.rate_class);
    }
    auto d = options_.rate_limiting
                 ? deps_.limiter.Acquire("ip_" + request.client_ip, RateClass::kAnonymous)
                 : Unlimited();
    if (!d.ok()) return unavailable(d.status(), RateClass::kAnonymous);
    if (!d->allowed) {
      return WithRate(ErrorResponse(Status(ErrorCode::kTooManyRequests,
                                           "Too many requests without a valid API key from "
                                           "this address; retry after the window resets.")),
                      *d);
    }
    return WithRate(ErrorResponse(principal.status()), *d);
  }
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

  // 4. Rate limit for the route's class.
  auto d = options_.rate_limiting ? deps_.limiter.Acquire(account.id, route.rate_class)
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
    case RouteMatch::Kind::kFound:
      switch (route.id) {
        case RouteId::kValidate: response = Validate(request, *principal); break;
        case RouteId::kUsage: response = Usage(*principal); break;
        default: response = Jobs(route, request, *principal);
      }
  }
  // A refused quota renews on the first day of next month (UTC): say when.
  if (response.status == 429 && response.FindHeader("Retry-After") == nullptr &&
      response.body.find("\"quota_exceeded\"") != std::string::npos) {
    response.SetHeader("Retry-After",
                       std::to_string(SecondsUntilNextMonth(deps_.clock.Now())));
  }
  return WithRate(std::move(response), *d);
}

HttpResponse Gateway::Validate(const HttpRequest& request, const Principal& principal) {
  if (!IsJsonContentType(request)) {
    return ErrorResponse(Status(ErrorCode::kUnsupportedMediaType,
                                "POST /v1/validate takes Content-Type: application/json."));
  }
  if (request.body.size() > options_.max_body_bytes) {
    return ErrorResponse(Status(ErrorCode::kPayloadTooLarge,
                                "The body is " + std::to_string(request.body.size()) +
                                    " bytes; the limit is " +
                                    std::to_string(options_.max_body_bytes) + "."));
  }
  // One command per serving thread: its buffers are reused from request to request.
  thread_local ValidateCommand reused;
  struct Release {
    ValidateCommand& c;
    ~Release() { c.ReleaseIfLarge(8u << 20); }
  } release{reused};
  ValidateCommand* command = &reused;
  if (Status s = ParseValidateRequestInto(request.body, options_.max_records, reused); !s.ok()) {
    return ErrorResponse(s);
  }

  // The request's strings live on an arena: one block, freed at once.
  google::protobuf::Arena arena;
  auto* validator_request =
      google::protobuf::Arena::CreateMessage<validator::v1::ValidateRequest>(&arena);
  if (Status s = BuildValidatorRequestInto(*command, *validator_request); !s.ok()) {
    return ErrorResponse(s);
  }

  const auto records = static_cast<int64_t>(command->records);
  auto reservation = deps_.quota.Reserve(principal.account, records);
  if (!reservation.ok()) return ErrorResponse(reservation.status());

  auto result = deps_.validator.Validate(*validator_request);
  if (!result.ok()) {
    if (Status s = deps_.quota.Release(*reservation); !s.ok()) {
      log::Warn("quota release failed", {{"request_id", request.request_id},
                                         {"error", s.message()}});
    }
    if (result.status().code() != ErrorCode::kUnavailable) {
      log::Error("validator call failed", {{"request_id", request.request_id},
                                           {"error", result.status().message()}});
    }
    return ErrorResponse(result.status());
  }
  return JsonResponse(200, WriteValidateResponse(*command, *result));
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
    case RouteId::kGetJob: return jobs.Get(principal, route.params[0]);
    case RouteId::kDeleteJob: return jobs.Delete(principal, route.params[0]);
    case RouteId::kJobSummary: return jobs.Summary(principal, route.params[0]);
    case RouteId::kJobCleaned: return jobs.Cleaned(principal, route.params[0]);
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
