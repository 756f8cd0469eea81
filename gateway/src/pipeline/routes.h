// What a route's handler is given, and the services the handlers call. The route table, one line
// per route, is routes.cpp; the matcher is pipeline/router.h.
//
// Adding a route: one line in kRoutes (method, pattern, rate class, doors, access, handler) and
// its handler, usually a method of the service's logic object (JobsApi, WebhookApi, ...).
#pragma once

#include <string>
#include <vector>

#include "auth/authenticator.h"
#include "console/console_api.h"
#include "dq/http/http_types.h"
#include "pipeline/router.h"
#include "jobs/jobs_api.h"
#include "limits/quota.h"
#include "validate/validate_api.h"
#include "webhooks/webhook_api.h"

namespace dq::gateway {

// The logic objects behind the routes. Null: not served by this process (unit tests of other
// routes), and its routes answer 404.
struct RouteServices {
  ValidateApi* validate = nullptr;
  QuotaService* quota = nullptr;
  JobsApi* jobs = nullptr;
  WebhookApi* webhooks = nullptr;
  ConsoleApi* console = nullptr;
};

struct RouteCall {
  const http::HttpRequest& request;
  const RouteServices& services;
  const std::vector<std::string>& params;  // the route's ":name" segments, in order
  // The caller, once authenticated: null for Access::kOpen routes.
  const Principal* principal;
  // The console session: set for Access::kSession routes (and for others at the console door).
  const ConsolePrincipal* session;

  const std::string& Param(size_t i) const { return params[i]; }
};

// Runs the matched route's handler. route.Found() and the pipeline's checks passed.
http::HttpResponse InvokeRoute(const RouteMatch& route, const http::HttpRequest& request,
                               const RouteServices& services, const Principal* principal,
                               const ConsolePrincipal* session);

// GET /v1/usage: the plan, the month, and the records used and left of its quota.
http::HttpResponse UsageResponse(QuotaService& quota, const Principal& principal);

}  // namespace dq::gateway
