// The route table, as data, and the matcher. Paths are matched segment by segment; ":name"
// segments capture. One trailing slash is ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "../limits/rate_limiter.h"

namespace dq::gateway {

enum class RouteId {
  kValidate,     // POST /v1/validate
  kUsage,        // GET  /v1/usage
  kCreateJob,    // POST /v1/jobs
  kPreviewJob,   // POST /v1/jobs/preview
  kListJobs,     // GET  /v1/jobs
  kGetJob,       // GET  /v1/jobs/:id
  kJobCleaned,   // GET  /v1/jobs/:id/cleaned
  kJobIssues,    // GET  /v1/jobs/:id/issues
  kDeleteJob,    // DELETE /v1/jobs/:id
  kJobSummary,   // GET  /v1/jobs/:id/summary
};

struct RouteMatch {
  enum class Kind { kFound, kNotFound, kMethodNotAllowed };
  Kind kind = Kind::kNotFound;
  RouteId id{};
  RateClass rate_class = RateClass::kGeneral;
  std::vector<std::string> params;  // captured ":name" segments, in order
  std::string allow;                // for kMethodNotAllowed: "GET, POST"
  std::string_view pattern;         // the matched route's pattern ("/v1/jobs/:id"); empty: none
};

RouteMatch MatchRoute(std::string_view method, std::string_view path);

// A pattern as OpenAPI writes it: "/v1/jobs/:id" -> "/v1/jobs/{id}". Used as the route label
// of logs and metrics.
std::string RouteTemplate(std::string_view pattern);

// Every route as "METHOD /pattern" (":id" segments written as "{id}", as OpenAPI does); the
// docs test checks docs/openapi.yaml describes each one.
std::vector<std::string> RouteList();

}  // namespace dq::gateway
