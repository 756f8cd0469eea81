// The access log and the request metrics: one structured JSON line per request, and the
// request counter and latency histogram labelled by method, route template and status.
//
// What is written is fixed by AccessRecord: the request id, method, route template (never the
// raw path, which holds job ids), status, duration, bytes in and out, and the account id once
// the key is known. Never a key, a secret, a cookie, a query string or a body.
//
//   AccessRecord r{request.request_id, request.method, "/v1/jobs/{id}", 200, 0.0042, 0, 812,
//                  "acct_1"};
//   RecordRequest(r);  // the log line on stderr, and the metrics
//
// Label values are bounded: the method is one of the known HTTP methods or "OTHER", the route
// one of the router's templates or "unmatched".
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "dq/http/http_types.h"
#include "observe/access_log_metrics.h"

namespace dq::gateway {

struct AccessRecord {
  std::string_view request_id;
  std::string_view method;
  std::string_view route;  // a template such as "/v1/jobs/{id}", or "unmatched"
  int status = 0;
  double duration_seconds = 0;
  size_t bytes_in = 0;   // the request body
  size_t bytes_out = 0;  // the response body
  std::string_view account_id;  // empty before (or without) authentication
  // A streamed body that did not reach its end: the answer failed midway (kFailed), or the
  // client went away first. The status is the one already sent; the line says "cut_off":true.
  bool cut_off = false;
};

// The route label for requests that matched no route.
inline constexpr std::string_view kUnmatchedRoute = "unmatched";

// The method as a metric label and log value: GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS,
// TRACE, CONNECT, else "OTHER".
std::string_view BoundedMethod(std::string_view method);

// The access log line (a JSON object, no newline) for r, stamped with `now`. Pure.
std::string AccessLogLine(const AccessRecord& r, std::chrono::system_clock::time_point now);

// Writes the access log line (at level info, component as set by log::Init) and counts r in
// AccessLogMetrics::Global() (CountRequest).
void RecordRequest(const AccessRecord& r);

// Counts r in metrics: dq_gateway_requests_total{method,route,code},
// dq_gateway_request_seconds{method,route}, and dq_gateway_responses_cut_off_total{method,route}
// when r.cut_off.
void CountRequest(const AccessRecord& r, AccessLogMetrics& metrics);

// For an answer whose body is streamed (response.body_producer): records r when the body ends,
// not when the handler returns, so bytes_out counts every piece (response.body first) and the
// duration runs from `start` to the last piece. Exactly once: at kEnd, or at kFailed (cut_off),
// or, for a body never read to its end, when the response's last copy is destroyed (cut_off).
// r's views are copied.
//
//   if (response.body_producer) RecordWhenBodyEnds(response, r, start, RecordRequest);
void RecordWhenBodyEnds(http::HttpResponse& response, const AccessRecord& r,
                        std::chrono::steady_clock::time_point start,
                        std::function<void(const AccessRecord&)> record);

}  // namespace dq::gateway
