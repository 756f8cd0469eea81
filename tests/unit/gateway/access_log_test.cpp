// The access log line and the bounded metric labels.
#include "observe/access_log.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

}  // namespace
}  // namespace dq::gateway
