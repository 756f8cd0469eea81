#include "gateway.h"

#include <chrono>

#include "dq/common/log.h"
#include "dq/common/metrics.h"
#include "dq/http/error_response.h"
#include "dq/http/json_util.h"
#include "pipeline/router.h"
#include "observe/access_log.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

bool Under(std::string_view path, std::string_view prefix) {
  return path == prefix || (path.starts_with(prefix) && path[prefix.size()] == '/');
}

// The route's handler, with what the door's steps learned.
Pipeline::Terminal Invoke(const RouteServices& services) {
  return [&services](Exchange& x) {
    const Principal* principal = x.principal ? &*x.principal : nullptr;
    const ConsolePrincipal* session = x.session ? &*x.session : nullptr;
    return InvokeRoute(x.route, x.request, services, principal, session);
  };
}

}  // namespace

// The operational routes of the gateway process: /healthz and /readyz on both ports, /metrics on
// the ops port only.
std::vector<std::string> OpsRouteList() {
  return {"GET /healthz", "GET /readyz", "GET /metrics"};
}

Gateway::Gateway(GatewayDeps deps, GatewayOptions options)
    : deps_(std::move(deps)),
      options_(options),
      auth_(deps_.accounts, deps_.clock),
      validate_(deps_.quota, deps_.validator, deps_.validate_pool,
                ValidateLimits{options_.max_body_bytes, options_.max_records}),
      services_{&validate_, &deps_.quota, deps_.jobs, deps_.webhooks, deps_.console},
      rate_{deps_.limiter, options_.rate_limiting},
      keys_(auth_, rate_),
      admission_(keys_, deps_.console, deps_.session_valid, options_.max_body_bytes),
      outer_([this](Exchange& x) { return Route(x); }),
      api_(Invoke(services_)),
      console_(Invoke(services_)) {
  outer_.Then<ErrorMapping>();
  // docs/api.md fixes the order: key, plan, rate limit, route, then the handler's own checks.
  api_.Then<KeyAuthentication>(auth_, rate_)
      .Then<PlanCheck>(rate_)
      .Then<RateLimit>(rate_)
      .Then<RouteCheck>()
      .Then<QuotaRetryAfter>(deps_.clock);
  // Route first; sign-up and sign-in need no session; routes both doors share are then limited
  // as at /v1.
  console_.Then<RouteCheck>().Then<RequireService>(deps_.console != nullptr,
                                                   "The console is not served here.");
  if (deps_.console != nullptr) {
    console_.Then<SessionAuthentication>(*deps_.console)
        .Then<RateLimit>(rate_)
        .Then<QuotaRetryAfter>(deps_.clock);
  }
}

http::HttpResponse Gateway::Handle(const http::HttpRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  Exchange x(request);
  http::HttpResponse response = outer_.Run(x);
  // What the access log learned while the request was handled.
  std::string route = "unmatched";
  if (!x.route.pattern.empty()) route = RouteTemplate(x.route.pattern);
  if (request.path == "/healthz" || request.path == "/readyz") route = request.path;
  std::string account_id = x.principal ? x.principal->account.id : "";
  // A deferred answer (POST /v1/validate on the pool) is finished and logged when it is ready.
  http::HttpRequest head;
  head.method = request.method;
  head.path = request.path;
  head.request_id = request.request_id;
  if (const std::string* proto = request.Header("x-forwarded-proto")) {
    head.headers["x-forwarded-proto"] = *proto;
  }
  response.Then([this, head = std::move(head), route = std::move(route),
                 account_id = std::move(account_id), start,
                 bytes_in = request.body.size()](http::HttpResponse& answer) {
    Finish(head, answer);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const AccessRecord record{head.request_id, head.method, route, answer.status,
                              seconds, bytes_in, answer.body.size(), account_id};
    if (answer.body_producer) {
      RecordWhenBodyEnds(answer, record, start, RecordRequest);  // every piece counted
    } else {
      RecordRequest(record);
    }
  });
  return response;
}

http::HttpResponse Gateway::Route(Exchange& x) {
  const std::string_view path = x.request.path;
  if (Under(path, kApiPrefix)) {
    x.route = MatchRoute(x.request.method, path);
    return api_.Run(x);
  }
  if (deps_.console_site != nullptr && ConsoleSite::Owns(path)) {
    return deps_.console_site->Serve(x.request);
  }
  if (Under(path, kConsolePrefix)) {
    x.route = MatchRoute(x.request.method, path);
    http::HttpResponse r = console_.Run(x);
    // The console's data is the user's own: never sniffed into another type, never cached.
    r.Then([](http::HttpResponse& answer) {
      answer.SetHeader("X-Content-Type-Options", "nosniff");
      if (answer.FindHeader("Cache-Control") == nullptr)
        answer.SetHeader("Cache-Control", "no-store");
    });
    return r;
  }
  return Operational(x.request);
}

http::HttpResponse Gateway::Operational(const http::HttpRequest& request) const {
  const std::string& path = request.path;
  // /metrics is on the ops port only (DQ_GATEWAY_OPS_PORT): never public.
  const bool ops = path == "/healthz" || path == "/readyz";
  if (ops && request.method != "GET" && request.method != "HEAD") {
    http::HttpResponse r =
        http::ErrorResponse(Status(ErrorCode::kMethodNotAllowed,
                                   request.method + " is not allowed on " + path + "; use GET."));
    r.SetHeader("Allow", "GET");
    return r;
  }
  if (path == "/healthz") return http::JsonResponse(200, R"({"status":"ok"})");
  if (path == "/readyz") return ReadyResponse();
  return http::ErrorResponse(Status(ErrorCode::kNotFound, "There is no resource at " + path + "."));
}

bool Gateway::Ready() const {
  if (draining_.load()) return false;
  const bool store = deps_.store_ready ? deps_.store_ready() : true;
  return store && deps_.validator.Healthy();
}

void Gateway::Finish(const http::HttpRequest& request, http::HttpResponse& response) const {
  const std::string* proto = request.Header("x-forwarded-proto");
  if (options_.hsts || (proto != nullptr && *proto == "https")) {
    response.SetHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  if (response.FindHeader("X-RateLimit-Limit") == nullptr) {
    rate_.NominalHeaders(MatchRoute(request.method, request.path).rate_class, response);
  }
  http::AddRequestId(response, request.request_id);
}

void Gateway::Record(const http::ExchangeRecord& r) {
  if (!r.refused_at_edge || r.request == nullptr || r.response == nullptr) return;
  RecordRequest({r.request->request_id, r.request->method, "edge", r.response->status,
                 std::chrono::duration<double>(r.duration).count(), r.bytes_in,
                 r.response->body.size(), ""});
}

http::HttpResponse Gateway::TransportError(const http::HttpRequest& head, const Status& status) {
  http::HttpResponse response = http::ErrorResponse(status);
  if (status.code() == ErrorCode::kPayloadTooLarge && !head.path.empty()) {
    // The upload route names the file, not the body.
    const RouteMatch m = MatchRoute(head.method, head.path);
    if (m.Found() && m.route->method == "POST" && m.route->pattern == "/jobs") {
      response = http::ErrorResponse(Status(ErrorCode::kFileTooLarge, status.message()));
    }
  }
  Finish(head, response);
  return response;
}

std::optional<http::HttpResponse> Gateway::Admit(const http::HttpRequest& head,
                                                 std::optional<size_t> body_bytes) {
  std::optional<http::HttpResponse> response;
  try {
    response = admission_.Admit(head, body_bytes);
    if (!response) return std::nullopt;
  } catch (const std::exception& e) {
    log::Error("admission failed", {{"request_id", head.request_id}, {"what", e.what()}});
    response =
        http::ErrorResponse(Status(ErrorCode::kInternal, "Something went wrong on our side."));
  }
  Finish(head, *response);
  return response;
}

http::HttpResponse Gateway::ReadyResponse() const {
  if (draining_.load()) {
    http::HttpResponse r = http::JsonResponse(503, R"({"status":"draining"})");
    r.SetHeader("Retry-After", "1");
    return r;
  }
  const bool store = deps_.store_ready ? deps_.store_ready() : true;
  const bool validator = deps_.validator.Healthy();
  json body = {{"status", store && validator ? "ready" : "not_ready"},
               {"checks", {{"redis", store ? "ok" : "unavailable"},
                           {"validator", validator ? "ok" : "unavailable"}}}};
  http::HttpResponse r = http::JsonResponse(store && validator ? 200 : 503, http::DumpJson(body));
  if (r.status == 503) r.SetHeader("Retry-After", "1");
  return r;
}

}  // namespace dq::gateway
