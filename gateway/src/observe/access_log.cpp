#include "access_log.h"

#include <array>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "dq/common/log.h"
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
  if (r.cut_off) line["cut_off"] = true;  // only then: every other line keeps its fields
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void RecordRequest(const AccessRecord& r) {
  if (log::Enabled(log::Level::kInfo)) log::WriteLine(AccessLogLine(r, std::chrono::system_clock::now()));
  CountRequest(r, AccessLogMetrics::Global());
}

void CountRequest(const AccessRecord& r, AccessLogMetrics& metrics) {
  const std::string_view method = BoundedMethod(r.method);
  metrics.requests.With({method, r.route, std::to_string(r.status)}).Inc();
  metrics.request_seconds.With({method, r.route}).Observe(r.duration_seconds);
  if (r.cut_off) metrics.responses_cut_off.With({method, r.route}).Inc();
}

namespace {

// The record of a streamed answer until its body ends; owns what the record's views point at.
class PendingRecord {
 public:
  PendingRecord(const AccessRecord& r, std::chrono::steady_clock::time_point start,
                std::function<void(const AccessRecord&)> record)
      : request_id_(r.request_id), method_(r.method), route_(r.route),
        account_id_(r.account_id), r_(r), start_(start), record_(std::move(record)) {
    r_.request_id = request_id_;
    r_.method = method_;
    r_.route = route_;
    r_.account_id = account_id_;
  }
  PendingRecord(const PendingRecord&) = delete;
  PendingRecord& operator=(const PendingRecord&) = delete;
  ~PendingRecord() {
    try {
      Done(/*cut_off=*/true);  // never read to its end
    } catch (...) {  // a log line must not end the process
    }
  }

  void Add(size_t bytes) { r_.bytes_out += bytes; }
  void Done(bool cut_off) {
    if (done_) return;
    done_ = true;
    r_.cut_off = cut_off;
    r_.duration_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    record_(r_);
  }

 private:
  std::string request_id_, method_, route_, account_id_;
  AccessRecord r_;
  std::chrono::steady_clock::time_point start_;
  std::function<void(const AccessRecord&)> record_;
  bool done_ = false;
};

}  // namespace

void RecordWhenBodyEnds(http::HttpResponse& response, const AccessRecord& r,
                        std::chrono::steady_clock::time_point start,
                        std::function<void(const AccessRecord&)> record) {
  AccessRecord first = r;
  first.bytes_out = response.body.size();
  auto pending = std::make_shared<PendingRecord>(first, start, std::move(record));
  response.body_producer = [inner = std::move(response.body_producer),
                            pending](std::string* piece) {
    const size_t before = piece->size();
    const http::BodyStep step = inner(piece);
    pending->Add(piece->size() - before);
    if (step != http::BodyStep::kMore) pending->Done(/*cut_off=*/step == http::BodyStep::kFailed);
    return step;
  };
}

}  // namespace dq::gateway
