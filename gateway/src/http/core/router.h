// The route table, as data, and the matcher. Paths are matched segment by segment; ":name"
// segments capture. One trailing slash is ignored.
//
// Two doors lead to the same routes: /v1 (API key) and /console/api (session cookie). A route
// is written once, without its door's prefix, and says which doors it answers at; the handler
// behind it is the same whichever door was used.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "limits/rate_limiter.h"

namespace dq::gateway {

enum class RouteId {
  kValidate,     // POST /v1/validate
  kUsage,        // GET  /v1/usage
  kCreateJob,    // POST /v1/jobs
  kPreviewJob,   // POST /v1/jobs/preview
  kListJobs,     // GET  /v1/jobs
  kJobLimits,    // GET  /v1/jobs/limits: the upload size limit and the month's quota
  kGetJob,       // GET  /v1/jobs/:id
  kJobCleaned,   // GET  /v1/jobs/:id/cleaned
  kJobIssues,    // GET  /v1/jobs/:id/issues
  kDeleteJob,    // DELETE /v1/jobs/:id (both doors)
  kJobSummary,   // GET  /v1/jobs/:id/summary (both doors)
  kIssueCodes,   // GET  /v1/issue-codes (both doors): the issue catalogue
  // Console only.
  kSignup,       // POST   /console/api/signup
  kLogin,        // POST   /console/api/login
  kLogout,       // POST   /console/api/logout
  kMe,           // GET    /console/api/me
  kListKeys,     // GET    /console/api/keys
  kCreateKey,    // POST   /console/api/keys
  kRevokeKey,    // DELETE /console/api/keys/:key_id
  kVerifyEmail,  // POST   /console/api/verify
  // Both doors.
  kGetWebhook,         // GET  …/webhook
  kPutWebhook,         // PUT  …/webhook
  kRollWebhookSecret,  // POST …/webhook/secret
  kTestWebhook,        // POST …/webhook/test
  kListDeliveries,     // GET  …/webhook/deliveries
  kRedeliver,          // POST …/webhook/deliveries/:delivery_id/redeliver
};

enum class Door { kApi, kConsole };
inline constexpr std::string_view kApiPrefix = "/v1";
inline constexpr std::string_view kConsolePrefix = "/console/api";

struct RouteMatch {
  enum class Kind { kFound, kNotFound, kMethodNotAllowed };
  Kind kind = Kind::kNotFound;
  Door door = Door::kApi;
  RouteId id{};
  RateClass rate_class = RateClass::kGeneral;
  std::vector<std::string> params;  // captured ":name" segments, in order
  std::string allow;                // for kMethodNotAllowed: "GET, POST"
  std::string pattern;  // the matched route's pattern with its door ("/v1/jobs/:id"); empty: none
};

// path starts with kApiPrefix or kConsolePrefix; anything else is kNotFound.
RouteMatch MatchRoute(std::string_view method, std::string_view path);

// A pattern as OpenAPI writes it: "/v1/jobs/:id" -> "/v1/jobs/{id}". Used as the route label
// of logs and metrics.
std::string RouteTemplate(std::string_view pattern);

// Every route as "METHOD /pattern" (":id" segments written as "{id}", as OpenAPI does); the
// docs test checks docs/openapi.yaml describes each one.
std::vector<std::string> RouteList();

}  // namespace dq::gateway
