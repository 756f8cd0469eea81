// POST /v1/validate's logic without a server: what it refuses before reserving anything, what it
// charges, and what it gives back when the validator fails.
#include "validate/validate_api.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dq/testing/gateway_fakes.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

constexpr const char* kTwoRecords =
    R"({"records":[{"id":"A","p":"1"},{"id":"B","p":"x"}],"mapping":{"sku":"id","price":"p"}})";

class ValidateApiTest : public ::testing::Test {
 protected:
  ValidateApiTest()
      : quota_(QuotaPolicy{}),
        validator_([this](const validator::v1::ValidateRequest& req)
                       -> Result<validator::v1::ValidateResponse> {
          if (!validator_status_.ok()) return validator_status_;
          validator::v1::ValidateResponse resp;
          resp.mutable_stats()->set_rows(testing::RowsOf(req.packed()).size() - lost_rows_);
          resp.mutable_stats()->set_score(100);
          return resp;
        }),
        api_(quota_, validator_, nullptr, ValidateLimits{256, 500}) {
    principal_.account.id = "acct_1";
    principal_.account.plan = Plan::kPro;
  }

  http::HttpResponse Post(std::string body, std::string content_type = "application/json",
                          std::string content_encoding = "") {
    http::HttpRequest r;
    r.method = "POST";
    r.path = "/v1/validate";
    r.body = std::move(body);
    r.request_id = "req-1";
    if (!content_type.empty()) r.headers["content-type"] = content_type;
    if (!content_encoding.empty()) r.headers["content-encoding"] = content_encoding;
    return api_.Post(r, principal_);
  }

  static std::string ErrorOf(const http::HttpResponse& r) { return json::parse(r.body)["error"]; }

  Status validator_status_ = Status::Ok();
  uint64_t lost_rows_ = 0;
  testing::InMemoryQuotaService quota_;
  testing::FakeValidatorClient validator_;
  ValidateApi api_;
  Principal principal_;
};

TEST_F(ValidateApiTest, ChargesTheRecordsAndSendsThemToTheValidator) {
  http::HttpResponse r = Post(kTwoRecords);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(validator_.calls(), 1);
  EXPECT_EQ(testing::RowsOf(validator_.last().packed()).size(), 2u);
  EXPECT_EQ(quota_.used("acct_1"), 2);
  EXPECT_EQ(json::parse(r.body)["stats"]["rows"], 2);
}

TEST_F(ValidateApiTest, RefusesBeforeReservingAnything) {
  EXPECT_EQ(Post(kTwoRecords, "text/csv").status, 415);
  EXPECT_EQ(Post(std::string(300, ' ')).status, 413);  // over the 256-byte limit
  http::HttpResponse bad = Post(R"({"records":[{"id":"A"}],"mapping":{"sku":"id","nope":"id"}})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(ErrorOf(bad), "invalid_request");
  EXPECT_EQ(validator_.calls(), 0);
  EXPECT_EQ(quota_.used("acct_1"), 0);
}

// A Content-Encoding the call does not undo is refused, never read as plain JSON (a gzip header
// on a plain body used to pass); "identity" is the body as it is.
TEST_F(ValidateApiTest, ABodyCodingItDoesNotUndoIs415) {
  for (const char* coding : {"gzip", "bogus", "br, identity"}) {
    http::HttpResponse r = Post(kTwoRecords, "application/json", coding);
    EXPECT_EQ(r.status, 415) << coding;
    EXPECT_EQ(ErrorOf(r), "unsupported_media_type");
    EXPECT_NE(json::parse(r.body)["message"].get<std::string>().find(coding), std::string::npos);
  }
  EXPECT_EQ(validator_.calls(), 0);
  EXPECT_EQ(quota_.used("acct_1"), 0);
  EXPECT_EQ(Post(kTwoRecords, "application/json", " Identity ").status, 200);
}

TEST_F(ValidateApiTest, AValidatorOutageGivesTheRecordsBack) {
  validator_status_ = Status(ErrorCode::kUnavailable, "The validation service is unavailable.");
  http::HttpResponse r = Post(kTwoRecords);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(ErrorOf(r), "service_unavailable");
  EXPECT_EQ(validator_.calls(), 1);
  EXPECT_EQ(quota_.used("acct_1"), 0);
}

TEST_F(ValidateApiTest, AnAnswerForAnotherNumberOfRecordsIsAnOutageNotACleanResult) {
  lost_rows_ = 1;
  http::HttpResponse r = Post(kTwoRecords);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(quota_.used("acct_1"), 0);
}

}  // namespace
}  // namespace dq::gateway
