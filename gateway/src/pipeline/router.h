// The route matcher. Paths are matched segment by segment; ":name" segments capture. One
// trailing slash is ignored.
//
// Two doors lead to the same routes: /v1 (API key) and /console/api (session cookie). A route
// is written once, without its door's prefix, and says which doors it answers at, what it needs
// (Access) and which handler serves it; the handler is the same whichever door was used. The
// table itself, one line per route, is pipeline/routes.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/http/http_types.h"
#include "limits/rate_limiter.h"

namespace dq::gateway {

enum class Door { kApi, kConsole };
inline constexpr std::string_view kApiPrefix = "/v1";
inline constexpr std::string_view kConsolePrefix = "/console/api";

// Which doors a route answers at (bits).
inline constexpr uint8_t kApiDoor = 1;
inline constexpr uint8_t kConsoleDoor = 2;
inline constexpr uint8_t kBothDoors = kApiDoor | kConsoleDoor;

// What a route needs before its handler runs.
enum class Access : uint8_t {
  kOpen,     // nothing: the console's sign-up, sign-in and e-mail verification
  kSession,  // a console session (and its CSRF token when it changes state); not rate limited
  kAccount,  // an account by either door's credential; rate limited by the route's class
  // kAccount, and at the console door the user's verified e-mail address (docs/api.md, "Sign-up")
  kVerifiedAccount,
};

struct RouteCall;  // pipeline/routes.h: what a handler is given
using RouteHandler = http::HttpResponse (*)(const RouteCall& call);

struct Route {
  std::string_view method;
  std::string_view pattern;  // without the door's prefix
  RateClass rate_class;
  uint8_t doors;
  Access access;
  RouteHandler handler;
};

// The gateway's routes (pipeline/routes.cpp).
std::span<const Route> RouteTable();

struct RouteMatch {
  enum class Kind { kFound, kNotFound, kMethodNotAllowed };
  Kind kind = Kind::kNotFound;
  Door door = Door::kApi;
  const Route* route = nullptr;  // kFound: the matched route
  RateClass rate_class = RateClass::kGeneral;
  std::vector<std::string> params;  // captured ":name" segments, in order
  std::string allow;                // for kMethodNotAllowed: "GET, POST"
  std::string pattern;  // the matched route's pattern with its door ("/v1/jobs/:id"); empty: none

  bool Found() const { return kind == Kind::kFound; }
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
