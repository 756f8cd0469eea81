// The request pipeline with in-memory dependencies: the order of checks, the headers on every
// /v1 response, the JSON error contract and the quota refund.
#include "gateway.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "dq/common/metrics.h"

#include "dq/testing/fake_clock.h"
#include "dq/testing/gateway_fakes.h"
#include "dq/testing/in_memory_account_store.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

validator::v1::ValidateResponse OneIssuePerRow(const validator::v1::ValidateRequest& req) {
  validator::v1::ValidateResponse resp;
  resp.mutable_stats()->set_rows(testing::RowsOf(req.packed()).size());
  resp.mutable_stats()->set_score(100);
  return resp;
}

class GatewayTest : public ::testing::Test {
 protected:
  GatewayTest()
      : clock_(std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'010))),
        limiter_(clock_, RateLimitPolicy{}),
        quota_(QuotaPolicy{}),
        validator_([this](const auto& req) {
          auto answer = OneIssuePerRow(req);
          answer.mutable_stats()->set_rows(answer.stats().rows() - lost_rows_);
          return answer;
        }),
        gateway_(GatewayDeps{store_, limiter_, quota_, validator_, [this] { return redis_up_; }},
                 GatewayOptions{1024 * 1024, 500}) {
    pro_ = *store_.CreateAccount(Plan::kPro, "pro");
    pro_key_ = store_.CreateKey(pro_.id)->api_key;
    free_ = *store_.CreateAccount(Plan::kFree, "free");
    free_key_ = store_.CreateKey(free_.id)->api_key;
  }

  http::HttpResponse Call(std::string method, std::string path, std::string key = "",
                          std::string body = "", std::string content_type = "application/json") {
    http::HttpRequest r;
    r.method = std::move(method);
    r.path = std::move(path);
    r.body = std::move(body);
    r.client_ip = "10.0.0.1";
    r.request_id = "req-1";
    if (!key.empty()) r.headers["x-api-key"] = key;
    if (!content_type.empty()) r.headers["content-type"] = content_type;
    return gateway_.Handle(r);
  }

  static std::string ErrorOf(const http::HttpResponse& r) { return json::parse(r.body)["error"]; }

  uint64_t lost_rows_ = 0;  // the fake validator answers for this many records fewer
  testing::FakeClock clock_;
  testing::InMemoryAccountStore store_;
  testing::InMemoryRateLimiter limiter_;
  testing::InMemoryQuotaService quota_;
  testing::FakeValidatorClient validator_;
  bool redis_up_ = true;
  Gateway gateway_;
  Account pro_, free_;
  std::string pro_key_, free_key_;
};

constexpr const char* kBody = R"({"records":[{"id":"A","p":"1"}],"mapping":{"sku":"id","price":"p"}})";

TEST_F(GatewayTest, ValidRequestSucceedsWithRateHeaders) {
  http::HttpResponse r = Call("POST", "/v1/validate", pro_key_, kBody);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Limit"), "60");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Remaining"), "59");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Reset"), "1800000060");
  auto body = json::parse(r.body);
  EXPECT_EQ(body["stats"]["rows"], 1);
  EXPECT_TRUE(body["issues"].is_array());
  EXPECT_EQ(body["cleaned"].size(), 1u);
  EXPECT_EQ(quota_.used(pro_.id), 1);
}

TEST_F(GatewayTest, AuthenticationOrder) {
  http::HttpResponse none = Call("POST", "/v1/validate", "", kBody);
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(ErrorOf(none), "api_key_required");
  EXPECT_NE(none.FindHeader("X-RateLimit-Limit"), nullptr);

  http::HttpResponse bad = Call("POST", "/v1/validate", NewApiKey(), kBody);
  EXPECT_EQ(bad.status, 401);
  EXPECT_EQ(ErrorOf(bad), "invalid_api_key");

  http::HttpResponse free = Call("POST", "/v1/validate", free_key_, "not json");
  EXPECT_EQ(free.status, 403);  // plan is checked before the body
  EXPECT_EQ(ErrorOf(free), "pro_required");
  EXPECT_EQ(*free.FindHeader("X-RateLimit-Remaining"), "60");  // 403 uses no budget
  EXPECT_EQ(validator_.calls(), 0);
}

TEST_F(GatewayTest, RateLimitComesBeforeRequestValidity) {
  for (int i = 0; i < 60; ++i) Call("POST", "/v1/validate", pro_key_, "not json");
  http::HttpResponse r = Call("POST", "/v1/validate", pro_key_, "not json");
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(ErrorOf(r), "too_many_requests");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Remaining"), "0");
  EXPECT_EQ(*r.FindHeader("Retry-After"), "50");
}

TEST_F(GatewayTest, UnauthenticatedRequestsAreLimitedPerAddress) {
  for (int i = 0; i < 60; ++i) EXPECT_EQ(Call("GET", "/v1/jobs", NewApiKey()).status, 401);
  http::HttpResponse r = Call("GET", "/v1/jobs", NewApiKey());
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(ErrorOf(r), "too_many_requests");
  // A valid key from the same address is not affected.
  EXPECT_EQ(Call("POST", "/v1/validate", pro_key_, kBody).status, 200);
}

TEST_F(GatewayTest, BadRequestsGetJsonErrors) {
  EXPECT_EQ(ErrorOf(Call("POST", "/v1/validate", pro_key_, "{")), "invalid_json");
  EXPECT_EQ(ErrorOf(Call("POST", "/v1/validate", pro_key_, kBody, "text/csv")),
            "unsupported_media_type");
  EXPECT_EQ(Call("POST", "/v1/validate", pro_key_, kBody, "text/csv").status, 415);
  std::string big(2 * 1024 * 1024, ' ');
  http::HttpResponse large = Call("POST", "/v1/validate", pro_key_, big);
  EXPECT_EQ(large.status, 413);
  EXPECT_EQ(ErrorOf(large), "payload_too_large");
  EXPECT_EQ(validator_.calls(), 0);
  EXPECT_EQ(quota_.used(pro_.id), 0);
}

TEST_F(GatewayTest, ContentTypeWithCharsetAndNoContentTypeAreAccepted) {
  EXPECT_EQ(Call("POST", "/v1/validate", pro_key_, kBody, "application/json; charset=utf-8").status,
            200);
  EXPECT_EQ(Call("POST", "/v1/validate", pro_key_, kBody, "").status, 200);
}

TEST_F(GatewayTest, UnknownRoutesAndMethods) {
  http::HttpResponse missing = Call("GET", "/v1/nothing", pro_key_);
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(ErrorOf(missing), "not_found");
  EXPECT_NE(missing.FindHeader("X-RateLimit-Limit"), nullptr);
  http::HttpResponse method = Call("GET", "/v1/validate", pro_key_);
  EXPECT_EQ(method.status, 405);
  EXPECT_EQ(ErrorOf(method), "method_not_allowed");
  EXPECT_EQ(*method.FindHeader("Allow"), "POST");
  http::HttpResponse outside = Call("GET", "/favicon.ico");
  EXPECT_EQ(outside.status, 404);
  EXPECT_EQ(ErrorOf(outside), "not_found");
}

TEST_F(GatewayTest, ValidatorDownGives503AndRefundsTheQuota) {
  testing::FakeValidatorClient down([](const auto&) -> Result<validator::v1::ValidateResponse> {
    return Status(ErrorCode::kUnavailable, "The validation service is unavailable.");
  });
  Gateway g(GatewayDeps{store_, limiter_, quota_, down, [] { return true; }}, GatewayOptions{});
  http::HttpRequest r;
  r.method = "POST";
  r.path = "/v1/validate";
  r.body = kBody;
  r.headers["x-api-key"] = pro_key_;
  http::HttpResponse resp = g.Handle(r);
  EXPECT_EQ(resp.status, 503);
  EXPECT_EQ(ErrorOf(resp), "service_unavailable");
  EXPECT_EQ(*resp.FindHeader("Retry-After"), "1");
  EXPECT_NE(resp.FindHeader("X-RateLimit-Limit"), nullptr);
  EXPECT_EQ(quota_.used(pro_.id), 0);
}

TEST_F(GatewayTest, AnExceptionInAHandlerIs500InternalErrorWithTheRequestId) {
  testing::FakeValidatorClient throws([](const auto&) -> Result<validator::v1::ValidateResponse> {
    throw std::runtime_error("boom");
  });
  Gateway g(GatewayDeps{store_, limiter_, quota_, throws, [] { return true; }}, GatewayOptions{});
  http::HttpRequest r;
  r.method = "POST";
  r.path = "/v1/validate";
  r.body = kBody;
  r.request_id = "req-42";
  r.headers["x-api-key"] = pro_key_;
  http::HttpResponse resp = g.Handle(r);
  EXPECT_EQ(resp.status, 500);
  EXPECT_EQ(ErrorOf(resp), "internal_error");
  EXPECT_NE(resp.body.find("req-42"), std::string::npos);
  EXPECT_EQ(resp.body.find("boom"), std::string::npos);  // internals are not leaked
}

TEST_F(GatewayTest, QuotaIsCheckedAfterValidityAndRefusedWhole) {
  ASSERT_TRUE(store_.SetQuota(pro_.id, 2).ok());
  const std::string three =
      R"({"records":[{},{},{}],"mapping":{"sku":"id"}})";
  http::HttpResponse r = Call("POST", "/v1/validate", pro_key_, three);
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(ErrorOf(r), "quota_exceeded");
  // Retry-After: until the quota renews, 00:00 UTC on the first of next month.
  ASSERT_NE(r.FindHeader("Retry-After"), nullptr);
  EXPECT_EQ(std::stoll(*r.FindHeader("Retry-After")),
            SecondsUntilNextMonth(std::chrono::system_clock::now()));
  EXPECT_EQ(quota_.used(pro_.id), 0);
  EXPECT_EQ(Call("POST", "/v1/validate", pro_key_, "{").status, 400);  // validity first
}

TEST_F(GatewayTest, HealthAndReadiness) {
  EXPECT_EQ(Call("GET", "/healthz").status, 200);
  EXPECT_EQ(Call("GET", "/readyz").status, 200);
  redis_up_ = false;
  http::HttpResponse r = Call("GET", "/readyz");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(json::parse(r.body)["checks"]["redis"], "unavailable");
  validator_.SetHealthy(false);
  redis_up_ = true;
  EXPECT_EQ(json::parse(Call("GET", "/readyz").body)["checks"]["validator"], "unavailable");
}

// Every request leaves one access log line (route template, account, sizes) and is counted with
// bounded method and route labels; the key and the body never reach the log.
TEST_F(GatewayTest, AccessLogLineAndMetricLabelsPerRequest) {
  ::testing::internal::CaptureStderr();
  Call("POST", "/v1/validate", pro_key_, kBody);
  Call("GET", "/v1/jobs/secret-looking-id/issues", pro_key_);
  Call("GET", "/nowhere/42");
  const std::string err = ::testing::internal::GetCapturedStderr();
  std::vector<json> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    if (j["msg"] == "access") lines.push_back(j);
  }
  ASSERT_EQ(lines.size(), 3u) << err;
  EXPECT_EQ(lines[0]["route"], "/v1/validate");
  EXPECT_EQ(lines[0]["method"], "POST");
  EXPECT_EQ(lines[0]["status"], 200);
  EXPECT_EQ(lines[0]["account_id"], pro_.id);
  EXPECT_EQ(lines[0]["request_id"], "req-1");
  EXPECT_EQ(lines[0]["bytes_in"], std::string(kBody).size());
  EXPECT_GT(lines[0]["bytes_out"].get<int>(), 0);
  EXPECT_TRUE(lines[0]["duration_ms"].is_number());
  EXPECT_EQ(lines[1]["route"], "/v1/jobs/{id}/issues");
  EXPECT_EQ(lines[2]["route"], "unmatched");
  EXPECT_TRUE(lines[2]["account_id"].is_null());
  EXPECT_EQ(err.find(pro_key_), std::string::npos);
  EXPECT_EQ(err.find("secret-looking-id"), std::string::npos);
  EXPECT_EQ(err.find("records"), std::string::npos);

  const std::string metrics = Metrics::Global().Render();
  EXPECT_NE(metrics.find(R"(dq_gateway_requests_total{method="POST",route="/v1/validate",code="200"})"),
            std::string::npos);
  EXPECT_NE(metrics.find(R"(method="GET",route="unmatched",code="404")"), std::string::npos);
  EXPECT_EQ(metrics.find("nowhere"), std::string::npos);
}

// The operational paths serve GET only; another method is 405 with Allow, as on /v1.
// (/metrics is on the ops port only: 404 here.)
TEST_F(GatewayTest, OpsPathsAnswer405ToOtherMethods) {
  for (const char* path : {"/healthz", "/readyz"}) {
    http::HttpResponse r = Call("POST", path);
    EXPECT_EQ(r.status, 405) << path;
    EXPECT_EQ(ErrorOf(r), "method_not_allowed") << path;
    ASSERT_NE(r.FindHeader("Allow"), nullptr) << path;
    EXPECT_EQ(*r.FindHeader("Allow"), "GET") << path;
  }
  EXPECT_EQ(Call("POST", "/nowhere").status, 404);
}

TEST_F(GatewayTest, StoreOutageIs503WithRateHeadersStill) {
  store_.SetUnavailable(true);
  http::HttpResponse r = Call("POST", "/v1/validate", pro_key_, kBody);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(ErrorOf(r), "service_unavailable");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Limit"), "60");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Remaining"), "0");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Reset"), "1800000060");
  store_.SetUnavailable(false);
  limiter_.SetUnavailable(true);
  http::HttpResponse upload = Call("POST", "/v1/jobs", pro_key_, "sku\nA\n", "text/csv");
  EXPECT_EQ(upload.status, 503);
  EXPECT_EQ(*upload.FindHeader("X-RateLimit-Limit"), "10");
}

// Reads go on uncounted when the rate-limit counter cannot be written (a full Redis); writes are
// refused with 503 and Retry-After.
TEST_F(GatewayTest, ReadsPassUncountedWhileTheLimiterCannotCount) {
  limiter_.SetUnavailable(true);
  http::HttpResponse usage = Call("GET", "/v1/usage", pro_key_);
  EXPECT_EQ(usage.status, 200) << usage.body;
  EXPECT_EQ(*usage.FindHeader("X-RateLimit-Limit"), "60");
  EXPECT_EQ(*usage.FindHeader("X-RateLimit-Remaining"), "0");
  http::HttpResponse write = Call("POST", "/v1/validate", pro_key_, kBody);
  EXPECT_EQ(write.status, 503);
  EXPECT_EQ(*write.FindHeader("Retry-After"), "1");
  EXPECT_EQ(quota_.used(pro_.id), 0);
}

TEST(QuotaRenewalTest, SecondsUntilNextMonthIsUtcCalendarBased) {
  using namespace std::chrono;
  // 2026-11-30T23:59:59Z -> 1 s; 2026-12-31T00:00:00Z -> 1 day; 2028-02-01 -> 29 days (leap).
  EXPECT_EQ(SecondsUntilNextMonth(system_clock::time_point(seconds(1796083199))), 1);
  EXPECT_EQ(SecondsUntilNextMonth(sys_days(year{2026} / 12 / 31)), 86400);
  EXPECT_EQ(SecondsUntilNextMonth(sys_days(year{2028} / 2 / 1)), 29 * 86400);
}

// A validator that checked fewer records than it was sent (one too old for packed rows, during a
// deploy) must not pass for a clean answer; the records are not charged.
TEST_F(GatewayTest, AnAnswerForFewerRecordsIs503AndNotCharged) {
  lost_rows_ = 1;
  http::HttpResponse r = Call("POST", "/v1/validate", pro_key_, kBody);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(ErrorOf(r), "service_unavailable");
  lost_rows_ = 0;
  EXPECT_EQ(json::parse(Call("GET", "/v1/usage", pro_key_).body)["records_used"], 0);
}

// Records that map no column are still records: counted, answered, charged.
TEST_F(GatewayTest, RecordsWithNothingMappedAreCounted) {
  http::HttpResponse r =
      Call("POST", "/v1/validate", pro_key_, R"({"records":[{"a":1},{"b":2}],"mapping":{}})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["stats"]["rows"], 2);
  EXPECT_EQ(testing::RowsOf(validator_.last().packed()).size(), 2u);
}

TEST_F(GatewayTest, UsageReportsPlanMonthAndRecords) {
  Call("POST", "/v1/validate", pro_key_, kBody);
  http::HttpResponse r = Call("GET", "/v1/usage", pro_key_);
  ASSERT_EQ(r.status, 200);
  auto body = json::parse(r.body);
  EXPECT_EQ(body["plan"], "pro");
  EXPECT_EQ(body["records_used"], 1);
  EXPECT_EQ(body["records_quota"], 100000);
}

}  // namespace
}  // namespace dq::gateway

namespace dq::gateway {
namespace {

TEST_F(GatewayTest, EveryAnswerCarriesTheEndpointClassLimitAndErrorsTheRequestId) {
  http::HttpResponse upload = Call("POST", "/v1/jobs");  // no key
  EXPECT_EQ(upload.status, 401);
  EXPECT_EQ(*upload.FindHeader("X-RateLimit-Limit"), "10");  // the upload class, not anonymous
  EXPECT_EQ(json::parse(upload.body)["request_id"], "req-1");
  http::HttpResponse unknown = Call("GET", "/nowhere");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(*unknown.FindHeader("X-RateLimit-Limit"), "60");
  EXPECT_NE(unknown.FindHeader("X-RateLimit-Reset"), nullptr);
  EXPECT_EQ(json::parse(unknown.body)["request_id"], "req-1");
  http::HttpResponse health = Call("GET", "/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_NE(health.FindHeader("X-RateLimit-Limit"), nullptr);
  EXPECT_FALSE(json::parse(health.body).contains("request_id"));
}

TEST_F(GatewayTest, MetricsAreNotServedOnTheApiPort) {
  EXPECT_EQ(Call("GET", "/metrics").status, 404);
}

TEST_F(GatewayTest, WithRateLimitingOffTheHeadersShowTheLimitAsRemaining) {
  GatewayOptions off{1024 * 1024, 500};
  off.rate_limiting = false;
  Gateway g(GatewayDeps{store_, limiter_, quota_, validator_, [] { return true; }}, off);
  http::HttpRequest r;
  r.method = "POST";
  r.path = "/v1/validate";
  r.body = kBody;
  r.headers["x-api-key"] = pro_key_;
  r.request_id = "q";
  http::HttpResponse ok = g.Handle(r);
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(*ok.FindHeader("X-RateLimit-Limit"), "60");
  EXPECT_EQ(*ok.FindHeader("X-RateLimit-Remaining"), "60");
}

TEST_F(GatewayTest, AdmissionDecidesFromTheHeadersAlone) {
  http::HttpRequest head;
  head.method = "POST";
  head.path = "/v1/jobs";
  head.client_ip = "10.0.0.9";
  head.request_id = "adm";
  auto refused = gateway_.Admit(head, 10 * 1024 * 1024);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->status, 401);
  EXPECT_EQ(*refused->FindHeader("X-RateLimit-Limit"), "10");
  EXPECT_EQ(json::parse(refused->body)["request_id"], "adm");
  head.headers["x-api-key"] = pro_key_;
  EXPECT_FALSE(gateway_.Admit(head, 10 * 1024 * 1024).has_value());
  head.headers["x-api-key"] = free_key_;
  EXPECT_EQ(gateway_.Admit(head, 10 * 1024 * 1024)->status, 403);
  head.headers["x-api-key"] = pro_key_;
  head.path = "/v1/nope";
  EXPECT_EQ(gateway_.Admit(head, 10 * 1024 * 1024)->status, 404);
  head.path = "/healthz";
  EXPECT_EQ(gateway_.Admit(head, 10 * 1024 * 1024)->status, 404);
  head.path = "/console/api/uploads";
  EXPECT_EQ(gateway_.Admit(head, 10 * 1024 * 1024)->status, 401);  // no session check wired
  EXPECT_EQ(quota_.used(pro_.id), 0);
}

TEST_F(GatewayTest, ASessionCheckAdmitsConsoleUploads) {
  GatewayDeps deps{store_, limiter_, quota_, validator_, [] { return true; }};
  deps.session_valid = [](const http::HttpRequest& r) {
    const std::string* cookie = r.Header("cookie");
    return cookie != nullptr && *cookie == "dq_session=ok";
  };
  Gateway g(deps, GatewayOptions{});
  http::HttpRequest head;
  head.method = "POST";
  head.path = "/console/api/jobs";
  head.headers["cookie"] = "dq_session=ok";
  EXPECT_FALSE(g.Admit(head, 1 << 20).has_value());
  head.headers["cookie"] = "dq_session=bad";
  EXPECT_EQ(g.Admit(head, 1 << 20)->status, 401);
}

TEST_F(GatewayTest, EdgeErrorsCarryTheHeadersEveryAnswerCarries) {
  http::HttpRequest head;
  head.request_id = "e1";
  http::HttpResponse r = gateway_.TransportError(
      head, Status(ErrorCode::kHeadersTooLarge, "The request line and headers are too large."));
  EXPECT_EQ(r.status, 431);
  auto body = json::parse(r.body);
  EXPECT_EQ(body["error"], "headers_too_large");
  EXPECT_EQ(body["request_id"], "e1");
  EXPECT_NE(r.FindHeader("X-RateLimit-Limit"), nullptr);
  http::HttpResponse busy = gateway_.TransportError(head, Status(ErrorCode::kUnavailable, "Busy."));
  EXPECT_EQ(busy.status, 503);
  EXPECT_NE(busy.FindHeader("Retry-After"), nullptr);
}

}  // namespace
}  // namespace dq::gateway
