#include "access_log.h"

#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

#include "dq/common/log.h"
#include "dq/common/metrics.h"
#include "dq/common/time_format.h"

namespace dq::gateway {

std::string_view BoundedMethod(std::string_view method) {
  static constexpr std::array<std::string_view, 9> kKnown = {
      "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"};
  for (std::string_view m : kKnown) {
    if (m == method) return m;
  }
  return "OTHER";
}

std::string AccessLogLine(const AccessRecord& r, std::chrono::system_clock::time_point now) {
  const double ms = std::round(r.duration_seconds * 1e6) / 1e3;  // microsecond precision
  nlohmann::ordered_json line = {
      {"ts", FormatIso8601Millis(now)},
      {"level", "info"},
      {"component", std::string(log::Component())},
      {"msg", "access"},
      {"request_id", std::string(r.request_id)},
      {"method", std::string(BoundedMethod(r.method))},
      {"route", std::string(r.route)},
      {"status", r.status},
      {"duration_ms", ms},
      {"bytes_in", r.bytes_in},
      {"bytes_out", r.bytes_out},
  };
  line["account_id"] = r.account_id.empty() ? nlohmann::ordered_json(nullptr)
                                            : nlohmann::ordered_json(std::string(r.account_id));
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void RecordRequest(const AccessRecord& r) {
  if (log::Enabled(log::Level::kInfo)) log::WriteLine(AccessLogLine(r, std::chrono::system_clock::now()));
  std::string labels = "method=\"";
  labels += BoundedMethod(r.method);
  labels += "\",route=\"";
  labels += r.route;
  labels += '"';
  auto& metrics = Metrics::Global();
  metrics
      .Counter("dq_gateway_requests_total", "HTTP requests by method, route template and status",
               labels + ",code=\"" + std::to_string(r.status) + "\"")
      .Inc();
  metrics
      .Histogram("dq_gateway_request_seconds", "HTTP request latency by method and route template",
                 labels)
      .Observe(r.duration_seconds);
}

}  // namespace dq::gateway
