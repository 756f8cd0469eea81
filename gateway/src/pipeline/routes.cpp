// The gateway's routes: one line each. A route is written once, without its door's prefix; the
// doors it answers at share its handler. The upload endpoint is the only one in the upload class
// (10/min); every other endpoint is general (60/min).
#include "pipeline/routes.h"

#include <algorithm>

#include "dq/catalog/issue_catalog.h"
#include "dq/http/error_response.h"
#include "dq/http/json_util.h"

namespace dq::gateway {
namespace {

using nlohmann::json;
using C = const RouteCall&;

// Calls f with the service, or answers 404 "<what> are not served here." when it is not wired.
template <typename Service, typename F>
http::HttpResponse With(Service* service, const char* what, F f) {
  if (service == nullptr) {
    return http::ErrorResponse(
        Status(ErrorCode::kNotFound, std::string(what) + " not served here."));
  }
  return f(*service);
}
template <typename F>
http::HttpResponse Jobs(C c, F f) {
  return With(c.services.jobs, "Jobs are", f);
}
template <typename F>
http::HttpResponse Hooks(C c, F f) {
  return With(c.services.webhooks, "Webhooks are", f);
}
template <typename F>
http::HttpResponse Console(C c, F f) {
  return With(c.services.console, "The console is", f);
}
template <typename F>
http::HttpResponse Validate(C c, F f) {
  return With(c.services.validate, "Validation is", f);
}
template <typename F>
http::HttpResponse Quota(C c, F f) {
  return With(c.services.quota, "Usage is", f);
}

constexpr auto kGeneral = RateClass::kGeneral;
constexpr auto kUpload = RateClass::kUpload;
constexpr auto kApi = kApiDoor;
constexpr auto kConsole = kConsoleDoor;
constexpr auto kBoth = kBothDoors;
constexpr auto kOpen = Access::kOpen;
constexpr auto kSession = Access::kSession;
constexpr auto kAccount = Access::kAccount;
constexpr auto kVerified = Access::kVerifiedAccount;

// clang-format off
constexpr Route kRoutes[] = {
  {"POST", "/validate", kGeneral, kApi, kAccount,
   [](C c) { return Validate(c, [&](ValidateApi& v) {
       return v.Post(c.request, *c.principal); }); }},
  {"GET", "/usage", kGeneral, kApi, kAccount,
   [](C c) { return Quota(c, [&](QuotaService& q) { return UsageResponse(q, *c.principal); }); }},
  {"POST", "/jobs", kUpload, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) { return j.Create(c.request, *c.principal); }); }},
  {"GET", "/jobs", kGeneral, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) { return j.List(c.request, *c.principal); }); }},
  {"POST", "/jobs/preview", kGeneral, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) { return j.Preview(c.request, *c.principal); }); }},
  {"GET", "/jobs/limits", kGeneral, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) { return j.Limits(*c.principal); }); }},
  {"GET", "/jobs/:id", kGeneral, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) {
       return j.Get(c.request, *c.principal, c.Param(0)); }); }},
  {"DELETE", "/jobs/:id", kGeneral, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) { return j.Delete(*c.principal, c.Param(0)); }); }},
  {"GET", "/jobs/:id/summary", kGeneral, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) { return j.Summary(*c.principal, c.Param(0)); }); }},
  {"GET", "/jobs/:id/cleaned", kGeneral, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) {
       return j.Cleaned(c.request, *c.principal, c.Param(0)); }); }},
  {"GET", "/jobs/:id/issues", kGeneral, kBoth, kAccount,
   [](C c) { return Jobs(c, [&](JobsApi& j) {
       return j.IssuesPage(c.request, *c.principal, c.Param(0)); }); }},
  {"GET", "/issue-codes", kGeneral, kBoth, kAccount,
   [](C) { return http::JsonResponse(200, catalog::IssueCodesJson()); }},
  {"POST", "/signup", kGeneral, kConsole, kOpen,
   [](C c) { return Console(c, [&](ConsoleApi& a) { return a.Signup(c.request); }); }},
  {"POST", "/login", kGeneral, kConsole, kOpen,
   [](C c) { return Console(c, [&](ConsoleApi& a) { return a.Login(c.request); }); }},
  {"POST", "/verify", kGeneral, kConsole, kOpen,
   [](C c) { return Console(c, [&](ConsoleApi& a) { return a.VerifyEmail(c.request); }); }},
  {"POST", "/logout", kGeneral, kConsole, kSession,
   [](C c) { return Console(c, [&](ConsoleApi& a) { return a.Logout(*c.session); }); }},
  {"GET", "/me", kGeneral, kConsole, kSession,
   [](C c) { return Console(c, [&](ConsoleApi& a) { return a.Me(*c.session); }); }},
  {"GET", "/keys", kGeneral, kConsole, kSession,
   [](C c) { return Console(c, [&](ConsoleApi& a) { return a.ListKeys(*c.session); }); }},
  {"POST", "/keys", kGeneral, kConsole, kSession,
   [](C c) { return Console(c, [&](ConsoleApi& a) {
       return a.CreateKey(c.request, *c.session); }); }},
  {"DELETE", "/keys/:key_id", kGeneral, kConsole, kSession,
   [](C c) { return Console(c, [&](ConsoleApi& a) {
       return a.RevokeKey(*c.session, c.Param(0)); }); }},
  {"GET", "/webhook", kGeneral, kBoth, kAccount,
   [](C c) { return Hooks(c, [&](WebhookApi& w) { return w.Get(*c.principal); }); }},
  {"PUT", "/webhook", kGeneral, kBoth, kVerified,
   [](C c) { return Hooks(c, [&](WebhookApi& w) { return w.Put(c.request, *c.principal); }); }},
  {"POST", "/webhook/secret", kGeneral, kBoth, kAccount,
   [](C c) { return Hooks(c, [&](WebhookApi& w) { return w.RollSecret(*c.principal); }); }},
  {"POST", "/webhook/test", kGeneral, kBoth, kAccount,
   [](C c) { return Hooks(c, [&](WebhookApi& w) { return w.Test(*c.principal); }); }},
  {"GET", "/webhook/deliveries", kGeneral, kBoth, kAccount,
   [](C c) { return Hooks(c, [&](WebhookApi& w) {
       return w.Deliveries(c.request, *c.principal); }); }},
  {"POST", "/webhook/deliveries/:delivery_id/redeliver", kGeneral, kBoth, kAccount,
   [](C c) { return Hooks(c, [&](WebhookApi& w) {
       return w.Redeliver(*c.principal, c.Param(0)); }); }},
};
// clang-format on

}  // namespace

std::span<const Route> RouteTable() { return kRoutes; }

http::HttpResponse InvokeRoute(const RouteMatch& route, const http::HttpRequest& request,
                               const RouteServices& services, const Principal* principal,
                               const ConsolePrincipal* session) {
  return route.route->handler(RouteCall{request, services, route.params, principal, session});
}

http::HttpResponse UsageResponse(QuotaService& quota, const Principal& principal) {
  auto usage = quota.Usage(principal.account);
  if (!usage.ok()) return http::ErrorResponse(usage.status());
  json body = {{"account_id", principal.account.id},
               {"plan", std::string(PlanName(principal.account.plan))},
               {"month", usage->month.substr(0, 4) + "-" + usage->month.substr(4)},
               {"records_used", usage->used},
               {"records_quota", usage->quota},
               {"records_remaining", std::max<int64_t>(0, usage->quota - usage->used)}};
  return http::JsonResponse(200, http::DumpJson(body));
}

}  // namespace dq::gateway
