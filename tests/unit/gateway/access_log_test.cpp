// The access log line and the bounded metric labels.
#include "observe/access_log.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dq::gateway {
namespace {

using nlohmann::json;

TEST(AccessLogTest, LineHasEveryFieldTyped) {
  const auto now = std::chrono::system_clock::time_point(std::chrono::milliseconds(1'763'802'301'042));
  const std::string line = AccessLogLine({"req-7", "POST", "/v1/jobs/{id}", 201, 0.0123456, 512,
                                          2048, "acct_1"},
                                         now);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  json j = json::parse(line);
  EXPECT_EQ(j["ts"], "2025-11-22T09:05:01.042Z");
  EXPECT_EQ(j["msg"], "access");
  EXPECT_EQ(j["level"], "info");
  EXPECT_EQ(j["request_id"], "req-7");
  EXPECT_EQ(j["method"], "POST");
  EXPECT_EQ(j["route"], "/v1/jobs/{id}");
  EXPECT_EQ(j["status"], 201);
  EXPECT_DOUBLE_EQ(j["duration_ms"].get<double>(), 12.346);
  EXPECT_EQ(j["bytes_in"], 512);
  EXPECT_EQ(j["bytes_out"], 2048);
  EXPECT_EQ(j["account_id"], "acct_1");
  EXPECT_EQ(j.size(), 12u);  // nothing else: no path, query, headers or body
  EXPECT_FALSE(j.contains("cut_off"));
}

// A body cut off midway says so in its line; the status is the one that was sent.
TEST(AccessLogTest, ACutOffBodySaysSo) {
  AccessRecord r{"req-8", "GET", "/v1/jobs/{id}/cleaned", 200, 0.5, 0, 1048576, "acct_1"};
  r.cut_off = true;
  json j = json::parse(AccessLogLine(r, std::chrono::system_clock::now()));
  EXPECT_EQ(j["cut_off"], true);
  EXPECT_EQ(j["status"], 200);
  EXPECT_EQ(j["bytes_out"], 1048576);
  EXPECT_EQ(j.size(), 13u);
}

TEST(AccessLogTest, AnonymousRequestHasNullAccountAndEscapedValues) {
  json j = json::parse(AccessLogLine({"a\"b\\c\x01", "BREW", "unmatched", 404, 0, 0, 10, ""},
                                     std::chrono::system_clock::now()));
  EXPECT_TRUE(j["account_id"].is_null());
  EXPECT_EQ(j["request_id"], "a\"b\\c\x01");
  EXPECT_EQ(j["method"], "OTHER");  // bounded, as in the metrics
}

TEST(AccessLogTest, MethodsAreBounded) {
  for (const char* m : {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"}) {
    EXPECT_EQ(BoundedMethod(m), m);
  }
  EXPECT_EQ(BoundedMethod("get"), "OTHER");
  EXPECT_EQ(BoundedMethod("X-RANDOM-123"), "OTHER");
  EXPECT_EQ(BoundedMethod(""), "OTHER");
}

// A streamed answer: "ab" first, then "cde" and "f". Recorded once, at the end, with every byte.
http::HttpResponse Streamed(http::BodyStep last) {
  http::HttpResponse response;
  response.body = "ab";
  auto n = std::make_shared<int>(0);
  response.body_producer = [n, last](std::string* out) {
    ++*n;
    if (*n == 1) {
      out->append("cde");
      return http::BodyStep::kMore;
    }
    out->append("f");
    return last;
  };
  return response;
}

TEST(AccessLogTest, AStreamedAnswerIsRecordedOnceWhenItsBodyEnds) {
  for (http::BodyStep last : {http::BodyStep::kEnd, http::BodyStep::kFailed}) {
    std::vector<AccessRecord> seen;
    std::vector<std::string> owned;  // the views of a record die with it
    http::HttpResponse response = Streamed(last);
    {
      std::string id = "req-1", route = "/v1/jobs/{id}/cleaned", account = "acct_1";
      const AccessRecord r{id, "GET", route, 200, 0.001, 0, response.body.size(), account};
      RecordWhenBodyEnds(response, r, std::chrono::steady_clock::now(),
                         [&](const AccessRecord& rec) {
                           seen.push_back(rec);
                           owned = {std::string(rec.request_id), std::string(rec.route),
                                    std::string(rec.account_id)};
                         });
      id = route = account = "overwritten";  // the record keeps its own copies
    }
    EXPECT_TRUE(seen.empty());  // not when the handler returns
    std::string piece;
    ASSERT_EQ(response.body_producer(&piece), http::BodyStep::kMore);
    EXPECT_TRUE(seen.empty());
    piece.clear();
    ASSERT_EQ(response.body_producer(&piece), last);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].bytes_out, 6u);  // "ab" + "cde" + "f", not only the first piece
    EXPECT_EQ(seen[0].status, 200);
    EXPECT_EQ(seen[0].cut_off, last == http::BodyStep::kFailed);
    EXPECT_EQ(owned, (std::vector<std::string>{"req-1", "/v1/jobs/{id}/cleaned", "acct_1"}));
    response = http::HttpResponse();  // the last copy goes: no second record
    EXPECT_EQ(seen.size(), 1u);
  }
}

TEST(AccessLogTest, AStreamedAnswerNeverReadToItsEndIsRecordedWhenDropped) {
  int records = 0;
  size_t bytes = 0;
  bool cut_off = false;
  {
    http::HttpResponse response = Streamed(http::BodyStep::kEnd);
    const AccessRecord r{"req-2", "GET", "/v1/jobs/{id}", 200, 0, 0, 2, "acct_1"};
    RecordWhenBodyEnds(response, r, std::chrono::steady_clock::now(),
                       [&](const AccessRecord& rec) {
                         ++records;
                         bytes = rec.bytes_out;
                         cut_off = rec.cut_off;
                       });
    std::string piece;
    ASSERT_EQ(response.body_producer(&piece), http::BodyStep::kMore);
    http::HttpResponse copy = response;  // copies share the one record
    EXPECT_EQ(records, 0);
  }
  EXPECT_EQ(records, 1);
  EXPECT_EQ(bytes, 5u);  // "ab" + "cde": what was made
  EXPECT_TRUE(cut_off);  // the client went away before the end
}

// The histogram lines of one observation of 0 s (every bucket holds it) under `labels`.
std::string OneObservation(const std::string& name, const std::string& labels) {
  std::string out;
  for (const char* le : {"0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1",
                         "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"}) {
    out += name + "_bucket{" + labels + ",le=\"" + le + "\"} 1\n";
  }
  out += name + "_sum{" + labels + "} 0.000000\n";
  out += name + "_count{" + labels + "} 1\n";
  return out;
}

// CountRequest registers exactly the request series, with the names, labels and help text that
// /metrics has always shown; a cut-off answer adds its own series.
TEST(AccessLogMetricsTest, CountRequestRegistersTheRequestSeries) {
  Metrics registry;
  AccessLogMetrics metrics(registry);
  EXPECT_EQ(registry.Render(), "");  // nothing before the first request
  CountRequest({"req-1", "PROPFIND", "/v1/jobs/{id}", 404, 0, 0, 0, ""}, metrics);
  AccessRecord cut{"req-2", "GET", "/v1/jobs/{id}/cleaned", 200, 0, 0, 0, "acct_1"};
  cut.cut_off = true;
  CountRequest(cut, metrics);
  const std::string other = "method=\"OTHER\",route=\"/v1/jobs/{id}\"";
  const std::string get = "method=\"GET\",route=\"/v1/jobs/{id}/cleaned\"";
  EXPECT_EQ(registry.Render(),
            "# HELP dq_gateway_request_seconds HTTP request latency by method and route template\n"
            "# TYPE dq_gateway_request_seconds histogram\n" +
                OneObservation("dq_gateway_request_seconds", get) +
                OneObservation("dq_gateway_request_seconds", other) +
                "# HELP dq_gateway_requests_total HTTP requests by method, route template and "
                "status\n"
                "# TYPE dq_gateway_requests_total counter\n"
                "dq_gateway_requests_total{" + get + ",code=\"200\"} 1\n"
                "dq_gateway_requests_total{" + other + ",code=\"404\"} 1\n"
                "# HELP dq_gateway_responses_cut_off_total Streamed answers whose body did not "
                "reach its end, by method and route template\n"
                "# TYPE dq_gateway_responses_cut_off_total counter\n"
                "dq_gateway_responses_cut_off_total{" + get + "} 1\n");
  CountRequest({"req-3", "GET", "/v1/jobs/{id}/cleaned", 200, 0, 0, 0, "acct_1"}, metrics);
  EXPECT_EQ(metrics.requests.With({"GET", "/v1/jobs/{id}/cleaned", "200"}).value(), 2u);
  EXPECT_EQ(metrics.responses_cut_off.With({"GET", "/v1/jobs/{id}/cleaned"}).value(), 1u);
}

}  // namespace
}  // namespace dq::gateway
