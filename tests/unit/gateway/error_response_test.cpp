#include "dq/http/error_response.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace dq::http {
namespace {

struct Case {
  ErrorCode code;
  int http;
  const char* name;
};

TEST(ErrorResponseTest, EveryCodeHasItsStatusAndName) {
  const Case cases[] = {
      {ErrorCode::kApiKeyRequired, 401, "api_key_required"},
      {ErrorCode::kInvalidApiKey, 401, "invalid_api_key"},
      {ErrorCode::kProRequired, 403, "pro_required"},
      {ErrorCode::kQuotaExceeded, 429, "quota_exceeded"},
      {ErrorCode::kTooManyRequests, 429, "too_many_requests"},
      {ErrorCode::kEmptyFile, 400, "empty_file"},
      {ErrorCode::kNotFound, 404, "not_found"},
      {ErrorCode::kInvalidJson, 400, "invalid_json"},
      {ErrorCode::kInvalidRequest, 400, "invalid_request"},
      {ErrorCode::kTooManyRecords, 400, "too_many_records"},
      {ErrorCode::kPayloadTooLarge, 413, "payload_too_large"},
      {ErrorCode::kFileTooLarge, 413, "file_too_large"},
      {ErrorCode::kUnsupportedMediaType, 415, "unsupported_media_type"},
      {ErrorCode::kMethodNotAllowed, 405, "method_not_allowed"},
      {ErrorCode::kJobNotDone, 409, "job_not_done"},
      {ErrorCode::kInternal, 500, "internal_error"},
      {ErrorCode::kUnavailable, 503, "service_unavailable"},
  };
  for (const Case& c : cases) {
    HttpResponse r = ErrorResponse(Status(c.code, "because"));
    EXPECT_EQ(r.status, c.http) << c.name;
    EXPECT_EQ(r.content_type, "application/json");
    auto body = nlohmann::json::parse(r.body);
    EXPECT_EQ(body["error"], c.name);
    EXPECT_EQ(body["message"], "because");
    EXPECT_FALSE(body.contains("details"));
  }
}

TEST(ErrorResponseTest, DetailsAreListed) {
  HttpResponse r = ErrorResponse(Status(ErrorCode::kInvalidRequest, "bad",
                                        {{"records[3].price", "must be a string"}}));
  auto body = nlohmann::json::parse(r.body);
  ASSERT_EQ(body["details"].size(), 1u);
  EXPECT_EQ(body["details"][0]["field"], "records[3].price");
  EXPECT_EQ(body["details"][0]["message"], "must be a string");
}

TEST(ErrorResponseTest, UnavailableCarriesRetryAfter) {
  HttpResponse r = ErrorResponse(Status(ErrorCode::kUnavailable, "down"));
  ASSERT_NE(r.FindHeader("Retry-After"), nullptr);
  EXPECT_EQ(*r.FindHeader("Retry-After"), "1");
}

TEST(ErrorResponseTest, InvalidUtf8InAMessageDoesNotThrow) {
  HttpResponse r = ErrorResponse(Status(ErrorCode::kInvalidRequest, "bad \xff value"));
  EXPECT_EQ(r.status, 400);
  EXPECT_NO_THROW(nlohmann::json::parse(r.body));
}

}  // namespace
}  // namespace dq::http

namespace dq::http {
namespace {

TEST(ErrorResponseCapTest, DetailsAreCappedAndClipped) {
  std::vector<ErrorDetail> many;
  for (int i = 0; i < 1000; ++i) many.push_back({std::string(5000, 'k') + std::to_string(i), "unknown"});
  HttpResponse r = ErrorResponse(Status(ErrorCode::kInvalidRequest, "Bad.", many));
  auto body = nlohmann::json::parse(r.body);
  EXPECT_EQ(body["details"].size(), kMaxErrorDetails);
  EXPECT_LE(body["details"][0]["field"].get<std::string>().size(), kMaxDetailChars + 3);
  EXPECT_NE(body["message"].get<std::string>().find("1000 problems"), std::string::npos);
  EXPECT_LT(r.body.size(), 20000u);
}

}  // namespace
}  // namespace dq::http

namespace dq::http {
namespace {

TEST(RequestIdTest, IsAMemberOfEveryErrorObjectWithDetailsToo) {
  HttpResponse r = ErrorResponse(Status(ErrorCode::kInvalidRequest, "limit: must be an integer",
                                        {{"limit", "must be an integer"}}));
  AddRequestId(r, "req-1");
  // The members in the documented order; the id last.
  EXPECT_EQ(r.body,
            R"({"error":"invalid_request","message":"limit: must be an integer",)"
            R"("details":[{"field":"limit","message":"must be an integer"}],"request_id":"req-1"})");
  AddRequestId(r, "req-2");  // set once
  EXPECT_EQ(nlohmann::json::parse(r.body)["request_id"], "req-1");
}

TEST(RequestIdTest, IsAddedToAnErrorBodyOfItsOwnShape) {
  HttpResponse r = ErrorBodyResponse(
      400, {{"error", "check_types_do_not_fit"}, {"message", "No."}, {"fits", {"customer"}}});
  AddRequestId(r, "req-3");
  EXPECT_EQ(r.body, R"({"error":"check_types_do_not_fit","message":"No.","fits":["customer"],)"
                    R"("request_id":"req-3"})");
}

TEST(RequestIdTest, FollowsABodyChangedAfterItsObjectAndSkipsOtherAnswers) {
  HttpResponse changed = ErrorResponse(Status(ErrorCode::kNotFound, "old"));
  changed.body = R"({"message":"new","error":"not_found"})";
  AddRequestId(changed, "req-4");
  EXPECT_EQ(changed.body, R"({"message":"new","error":"not_found","request_id":"req-4"})");

  HttpResponse ok = JsonResponse(200, R"({"error":"not an error answer"})");
  AddRequestId(ok, "req-5");
  EXPECT_EQ(ok.body, R"({"error":"not an error answer"})");
  HttpResponse text = JsonResponse(404, "not json");
  AddRequestId(text, "req-6");
  EXPECT_EQ(text.body, "not json");
  HttpResponse no_code = JsonResponse(400, R"({"status":"bad"})");
  AddRequestId(no_code, "req-7");
  EXPECT_EQ(no_code.body, R"({"status":"bad"})");
}

TEST(ErrorResponseTest, JsonOrErrorResponseAnswersTheBodyOrTheError) {
  HttpResponse ok = JsonOrErrorResponse(std::string(R"({"a":1})"));
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.content_type, "application/json");
  EXPECT_EQ(ok.body, R"({"a":1})");
  EXPECT_EQ(ok.error, nullptr);

  const Status failed(ErrorCode::kUnavailable, "retry shortly");
  HttpResponse error = JsonOrErrorResponse(failed);
  HttpResponse expected = ErrorResponse(failed);
  EXPECT_EQ(error.status, 503);
  EXPECT_EQ(error.body, expected.body);
  ASSERT_NE(error.FindHeader("Retry-After"), nullptr);
  EXPECT_EQ(*error.FindHeader("Retry-After"), "1");
}

}  // namespace
}  // namespace dq::http
