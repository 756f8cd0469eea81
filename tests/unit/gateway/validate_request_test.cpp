// One fixture per bad validate request, asserting the exact error (decisions.md, Errors).
#include "validate/validate_request.h"

#include "http/core/json_util.h"

#include <gtest/gtest.h>

namespace dq::gateway {
namespace {

struct BadCase {
  const char* name;
  const char* body;
  ErrorCode code;
  const char* first_detail_field;  // "" when no details
};

class BadValidateRequestTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadValidateRequestTest, IsRejectedWithTheRightCode) {
  const BadCase& c = GetParam();
  auto r = ParseValidateRequest(c.body, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), c.code) << r.status().message();
  if (std::string(c.first_detail_field).empty()) {
    EXPECT_TRUE(r.status().details().empty());
  } else {
    ASSERT_FALSE(r.status().details().empty());
    EXPECT_EQ(r.status().details()[0].field, c.first_detail_field);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadValidateRequestTest,
    ::testing::Values(
        BadCase{"not_json", "{records:", ErrorCode::kInvalidJson, ""},
        BadCase{"empty_body", "", ErrorCode::kInvalidJson, ""},
        BadCase{"array_body", "[]", ErrorCode::kInvalidRequest, "body"},
        BadCase{"missing_records", R"({"mapping":{}})", ErrorCode::kInvalidRequest, "records"},
        BadCase{"records_not_array", R"({"records":{},"mapping":{}})", ErrorCode::kInvalidRequest,
                "records"},
        BadCase{"record_not_object", R"({"records":[{},7],"mapping":{}})",
                ErrorCode::kInvalidRequest, "records[1]"},
        BadCase{"too_many", R"({"records":[{},{},{},{}],"mapping":{}})",
                ErrorCode::kTooManyRecords, ""},
        BadCase{"missing_mapping", R"({"records":[]})", ErrorCode::kInvalidRequest, "mapping"},
        BadCase{"mapping_not_object", R"({"records":[],"mapping":["sku"]})",
                ErrorCode::kInvalidRequest, "mapping"},
        BadCase{"unknown_mapping_key", R"({"records":[],"mapping":{"colour":"c"}})",
                ErrorCode::kInvalidRequest, "mapping.colour"},
        BadCase{"mapping_value_not_string", R"({"records":[],"mapping":{"sku":3}})",
                ErrorCode::kInvalidRequest, "mapping.sku"},
        BadCase{"mapping_value_empty", R"({"records":[],"mapping":{"sku":""}})",
                ErrorCode::kInvalidRequest, "mapping.sku"},
        BadCase{"check_types_not_string",
                R"({"records":[],"mapping":{},"check_types":["product"]})",
                ErrorCode::kInvalidRequest, "check_types"},
        BadCase{"unknown_check_type", R"({"records":[],"mapping":{},"check_types":"product,tax"})",
                ErrorCode::kInvalidRequest, "check_types"},
        BadCase{"empty_check_type", R"({"records":[],"mapping":{},"check_types":""})",
                ErrorCode::kInvalidRequest, "check_types"},
        BadCase{"unknown_platform", R"({"records":[],"mapping":{},"platform":"ebay"})",
                ErrorCode::kInvalidRequest, "platform"},
        BadCase{"platform_not_string", R"({"records":[],"mapping":{},"platform":1})",
                ErrorCode::kInvalidRequest, "platform"},
        BadCase{"unknown_member", R"({"records":[],"mapping":{},"options":{}})",
                ErrorCode::kInvalidRequest, "options"},
        BadCase{"nested_too_deep",
                R"({"records":[{"sku":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}],"mapping":{}})",
                ErrorCode::kInvalidRequest, "body"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(JsonNestingTest, CountsBracketsOutsideStringsOnly) {
  EXPECT_TRUE(JsonNestingWithin(R"({"a":[1,{"b":[]}]})", 4));  // { [ { [
  EXPECT_FALSE(JsonNestingWithin(R"({"a":[1,{"b":[]}]})", 3));
  EXPECT_TRUE(JsonNestingWithin(R"({"a":"[[[[[[[[\"[[[["})", 1));
  EXPECT_FALSE(JsonNestingWithin(std::string(100000, '['), 64));
  EXPECT_TRUE(JsonNestingWithin("", 64));
}

TEST(ValidateRequestTest, AcceptsAFullRequest) {
  auto r = ParseValidateRequest(
      R"({"records":[{"id":"A","p":12.5,"n":null}],"mapping":{"price":"p","sku":"id"},
          "check_types":" product , price ","platform":"marketplace2"})",
      500);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // Mapping comes back in standard-field order whatever the JSON order.
  ASSERT_EQ(r->mapping.size(), 2u);
  EXPECT_EQ(r->mapping[0].first, "sku");
  EXPECT_EQ(r->mapping[1].first, "price");
  EXPECT_EQ(r->check_types, (std::vector<std::string>{"product", "price"}));
  EXPECT_EQ(r->platform, "marketplace2");
}

TEST(ValidateRequestTest, DefaultCheckTypeIsProduct) {
  auto r = ParseValidateRequest(R"({"records":[],"mapping":{}})", 500);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->check_types, std::vector<std::string>{"product"});
}

TEST(ValidateRequestTest, CellsBecomeText) {
  EXPECT_EQ(CellText(nlohmann::json("x")), "x");
  EXPECT_EQ(CellText(nlohmann::json(12.5)), "12.5");
  EXPECT_EQ(CellText(nlohmann::json(7)), "7");
  EXPECT_EQ(CellText(nlohmann::json(nullptr)), "");
  EXPECT_EQ(CellText(nlohmann::json(true)), "true");
}

TEST(ValidateRequestTest, ValidatorRequestCarriesMappedColumnsInOrder) {
  auto cmd = ParseValidateRequest(
      R"({"records":[{"id":"A","p":"1"},{"p":2}],"mapping":{"price":"p","sku":"id"}})", 500);
  ASSERT_TRUE(cmd.ok());
  auto req = BuildValidatorRequest(*cmd);
  ASSERT_EQ(req.spec().fields_size(), 2);
  EXPECT_EQ(req.spec().fields(0), "sku");
  ASSERT_EQ(req.rows_size(), 2);
  EXPECT_EQ(req.rows(0).values(0), "A");
  EXPECT_EQ(req.rows(1).values(0), "");  // missing column: empty
  EXPECT_EQ(req.rows(1).values(1), "2");
}

TEST(ValidateRequestTest, ResponsePutsFixesIntoCleanedAndKeepsEverythingElse) {
  auto cmd = ParseValidateRequest(
      R"({"records":[{"id":"A","p":"$5.00","extra":[1,2]}],"mapping":{"sku":"id","price":"p"}})",
      500);
  ASSERT_TRUE(cmd.ok());
  validator::v1::ValidateResponse result;
  auto* st = result.mutable_stats();
  st->set_rows(1);
  st->set_warnings(1);
  st->set_fixes(1);
  st->set_score(50);
  auto* issue = result.add_issues();
  issue->set_row(1);
  issue->set_severity(validator::v1::SEVERITY_WARNING);
  issue->set_field("price");
  issue->set_code("PRICE_REFORMATTED");
  issue->set_message("m");
  issue->set_original_value("$5.00");
  issue->set_fixed_value("5.00");
  auto out = BuildValidateResponse(*cmd, result);
  EXPECT_EQ(out["stats"]["rows"], 1);
  EXPECT_EQ(out["stats"]["fixes"], 1);
  EXPECT_EQ(out["stats"]["score"], 50);
  EXPECT_EQ(out["issues"][0]["row"], 1);
  EXPECT_EQ(out["issues"][0]["severity"], "warning");
  EXPECT_EQ(out["issues"][0]["fixed_value"], "5.00");
  EXPECT_EQ(out["cleaned"][0]["p"], "5.00");
  EXPECT_EQ(out["cleaned"][0]["id"], "A");
  EXPECT_EQ(out["cleaned"][0]["extra"], nlohmann::json::array({1, 2}));
}

}  // namespace
}  // namespace dq::gateway
