// One fixture per bad validate request, asserting the exact error (docs/api.md, Errors).
#include "validate/validate_request.h"

#include "dq/http/json_util.h"
#include "dq/testing/gateway_fakes.h"
#include "dq/testing/validate_command_diff.h"
#include "dq/ingest/json_reader.h"
#include "dq/ingest/source_profile.h"

#include <algorithm>
#include <map>

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
  EXPECT_EQ(testing::DescribeCommandDifference(
                r, ParseValidateRequest(c.body, 3, JsonPath::kHandWritten)),
            "");
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
        BadCase{"unknown_members_in_key_order", R"({"records":[],"mapping":{},"z":1,"b":2})",
                ErrorCode::kInvalidRequest, "b"},
        BadCase{"trailing_garbage", R"({"records":[],"mapping":{}} x)", ErrorCode::kInvalidJson,
                ""},
        BadCase{"bad_json_after_a_problem", R"({"records":7,"mapping":{"sku":01}})",
                ErrorCode::kInvalidJson, ""},
        BadCase{"too_many_but_broken", R"({"records":[{},{},{},{},{"a":tru}],"mapping":{}})",
                ErrorCode::kInvalidJson, ""},
        BadCase{"number_body", "12", ErrorCode::kInvalidRequest, "body"},
        BadCase{"nested_too_deep",
                R"({"records":[{"sku":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}],"mapping":{}})",
                ErrorCode::kInvalidRequest, "body"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(JsonNestingTest, CountsBracketsOutsideStringsOnly) {
  EXPECT_TRUE(ingest::JsonNestingWithin(R"({"a":[1,{"b":[]}]})", 4));  // { [ { [
  EXPECT_FALSE(ingest::JsonNestingWithin(R"({"a":[1,{"b":[]}]})", 3));
  EXPECT_TRUE(ingest::JsonNestingWithin(R"({"a":"[[[[[[[[\"[[[["})", 1));
  EXPECT_FALSE(ingest::JsonNestingWithin(std::string(100000, '['), 64));
  EXPECT_TRUE(ingest::JsonNestingWithin("", 64));
  // A string ends at a quote after an even number of backslashes (none, or "\\\\").
  EXPECT_FALSE(ingest::JsonNestingWithin(R"({"a":"x\\\\",[[["k":1}]]])", 3));
  EXPECT_TRUE(ingest::JsonNestingWithin(R"({"a":"x\\\"[[[\\\\"}")", 1));
  EXPECT_TRUE(ingest::JsonNestingWithin(R"({"a":"not closed [[[[)", 1));
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

// Shopify records: a first row that names an option and no variant of its Handle follows is the
// product (its price is checked), as on the job path; one whose variants follow is the parent.
TEST(ValidateRequestTest, AShopifyParentWithoutVariantsIsTheProduct) {
  auto r = ParseValidateRequest(
      R"({"source":"shopify_products","mapping":{"sku":"Variant SKU","price":"Variant Price"},
          "records":[
           {"Handle":"tee","Option1 Name":"Size","Option1 Value":"","Variant SKU":""},
           {"Handle":"tee","Option1 Value":"S","Variant SKU":"T-S","Variant Price":"5"},
           {"Handle":"cap","Option1 Name":"Color","Option1 Value":"","Variant SKU":""},
           {"Handle":"cap","Image Src":"c.jpg"},
           {"Handle":"mug","Option1 Name":"Title","Option1 Value":"Default Title",
            "Variant SKU":"M","Variant Price":"9"},
           {"Handle":"hat","Option1 Name":"Color","Option1 Value":"","Variant SKU":""}]})",
      500);
  ASSERT_TRUE(r.ok()) << r.status().message();
  using K = ingest::RowKind;
  auto k = [](K kind) { return static_cast<uint8_t>(kind); };
  EXPECT_EQ(r->kinds, (std::vector<uint8_t>{k(K::kParent), k(K::kVariant), k(K::kProduct),
                                            k(K::kImage), k(K::kProduct), k(K::kProduct)}));
}

TEST(ValidateRequestTest, DefaultCheckTypeIsProduct) {
  auto r = ParseValidateRequest(R"({"records":[],"mapping":{}})", 500);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->check_types, std::vector<std::string>{"product"});
}

TEST(ValidateRequestTest, CellsKeepTheirJsonText) {
  auto r = ParseValidateRequest(
      R"({"records":[{"s":"x\u00e9","p":12.50,"g":12345678901234567890,"n":null,"b":true,)"
      R"("o":{ "k" : [1, 2] }}],"mapping":{"sku":"s","price":"p","gtin":"g","title":"n",)"
      R"("description":"b","brand":"o.k"}})",
      500);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->records, 1u);
  std::map<std::string, std::string_view> cell;
  for (size_t c = 0; c < r->columns.size(); ++c) cell[r->columns[c]] = r->cells[c];
  EXPECT_EQ(cell["s"], "x\xC3\xA9");
  EXPECT_EQ(cell["p"], "12.50");
  EXPECT_EQ(cell["g"], "12345678901234567890");
  EXPECT_EQ(cell["n"], "");
  EXPECT_EQ(cell["b"], "true");
  EXPECT_EQ(cell["o.k"], "[1,2]");  // a nested object's member, an array compacted
}

// The same record, read by the upload reader (NDJSON) and by /v1/validate, gives the same cells.
TEST(ValidateRequestTest, InlineAndUploadReadTheSameCells) {
  const std::string record =
      R"({"sku":"A-1","price":12.50,"gtin":12345678901234567890,"title":" T\t\"q\" ",)"
      R"("weight":-0.50e+3,"tags":[ "a" , {"b" : null} ],"note":null,"ok":false})";
  const std::vector<std::string> columns = {"sku", "price", "gtin", "title", "weight", "tags",
                                            "note", "ok"};
  ingest::NdjsonReader reader{ingest::ReaderLimits{}};
  const std::string file = record + "\n";
  reader.Feed(file);
  reader.Finish();
  auto state = reader.Next();
  ASSERT_TRUE(state.ok()) << state.status().message();
  ASSERT_EQ(*state, ingest::ReadState::kRow);

  const std::string body =
      R"({"records":[)" + record +
      R"(],"mapping":{"sku":"sku","price":"price","gtin":"gtin","title":"title",)"
      R"("weight":"weight","category":"tags","description":"note","brand":"ok"}})";
  auto cmd = ParseValidateRequest(body, 500);  // the command views the body
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  for (size_t c = 0; c < cmd->columns.size(); ++c) {
    const auto& header = reader.header();
    auto at = std::find(header.begin(), header.end(), cmd->columns[c]);
    ASSERT_NE(at, header.end());
    EXPECT_EQ(cmd->cells[c], reader.row()[static_cast<size_t>(at - header.begin())])
        << cmd->columns[c];
  }
}

TEST(ValidateRequestTest, ValidatorRequestCarriesMappedColumnsInOrder) {
  auto cmd = ParseValidateRequest(
      R"({"records":[{"id":"A","p":"1"},{"p":2}],"mapping":{"price":"p","sku":"id"}})", 500);
  ASSERT_TRUE(cmd.ok());
  auto req = BuildValidatorRequest(*cmd);
  ASSERT_TRUE(req.ok());
  ASSERT_EQ(req->spec().fields_size(), 2);
  EXPECT_EQ(req->spec().fields(0), "sku");
  EXPECT_EQ(req->spec().value_index_size(), 0);
  EXPECT_EQ(req->rows_size(), 0);  // the rows travel packed
  EXPECT_EQ(req->packed().width(), 2u);
  const auto rows = testing::RowsOf(req->packed());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].values(0), "A");
  EXPECT_EQ(rows[0].values(1), "1");
  EXPECT_EQ(rows[1].values(0), "");  // missing column: empty
  EXPECT_EQ(rows[1].values(1), "2");
}

TEST(ValidateRequestTest, FieldsMappedToOneColumnShareOneValue) {
  const std::string big(20000, 'x');
  const std::string body =
      R"({"records":[{"c":")" + big + R"("}],"mapping":{"sku":"c","title":"c","brand":"c"}})";
  auto cmd = ParseValidateRequest(body, 500);
  ASSERT_TRUE(cmd.ok());
  auto req = BuildValidatorRequest(*cmd);
  ASSERT_TRUE(req.ok());
  ASSERT_EQ(req->spec().fields_size(), 3);
  const auto rows = testing::RowsOf(req->packed());
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].values_size(), 1);
  EXPECT_EQ(rows[0].values(0), big);
  EXPECT_EQ(std::vector<uint32_t>(req->spec().value_index().begin(),
                                  req->spec().value_index().end()),
            (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_LT(req->ByteSizeLong(), 2 * big.size());
}

TEST(ValidateRequestTest, ARepeatedKeyCountsOnceTheLastWinning) {
  auto cmd = ParseValidateRequest(
      R"({"records":[{"id":"A","x":1,"id":"B"}],"mapping":{"sku":"id"},"mapping":{"sku":"x"}})",
      500);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  ASSERT_EQ(cmd->columns, std::vector<std::string>{"x"});
  EXPECT_EQ(cmd->cells[0], "1");
}

validator::v1::ValidateResponse OneFix(uint64_t row, const char* field, const char* fixed) {
  validator::v1::ValidateResponse result;
  auto* st = result.mutable_stats();
  st->set_rows(1);
  st->set_warnings(1);
  st->set_fixes(1);
  st->set_score(50);
  auto* issue = result.add_issues();
  issue->set_row(row);
  issue->set_severity(validator::v1::SEVERITY_WARNING);
  issue->set_field(field);
  issue->set_code("PRICE_REFORMATTED");
  issue->set_message("m \"quoted\"\n");
  issue->set_original_value("$5.00");
  issue->set_fixed_value(fixed);
  return result;
}

TEST(ValidateRequestTest, ResponsePutsFixesIntoCleanedAndKeepsEverythingElse) {
  auto cmd = ParseValidateRequest(
      R"({"records":[{"id":"A","p":"$5.00","extra":[1, 2],"n":12.50}],)"
      R"("mapping":{"sku":"id","price":"p"}})",
      500);
  ASSERT_TRUE(cmd.ok());
  const std::string text = WriteValidateResponse(*cmd, OneFix(1, "price", "5.00"));
  auto out = nlohmann::json::parse(text);
  EXPECT_EQ(out["stats"]["rows"], 1);
  EXPECT_EQ(out["stats"]["fixes"], 1);
  EXPECT_EQ(out["stats"]["score"], 50);
  EXPECT_EQ(out["issues"][0]["row"], 1);
  EXPECT_EQ(out["issues"][0]["severity"], "warning");
  EXPECT_EQ(out["issues"][0]["message"], "m \"quoted\"\n");
  EXPECT_EQ(out["issues"][0]["fixed_value"], "5.00");
  EXPECT_EQ(out["cleaned"][0]["p"], "5.00");
  EXPECT_EQ(out["cleaned"][0]["id"], "A");
  EXPECT_EQ(out["cleaned"][0]["extra"], nlohmann::json::array({1, 2}));
  // The caller's key order and number text survive.
  EXPECT_EQ(text.substr(0, text.find(']') + 1),
            R"({"cleaned":[{"id":"A","p":"5.00","extra":[1, 2])");
  EXPECT_NE(text.find(R"("n":12.50})"), std::string::npos);
}

TEST(ValidateRequestTest, AFixForAnAbsentColumnIsAddedAtTheEnd) {
  auto cmd = ParseValidateRequest(R"({"records":[{"b":1,"a":2}],"mapping":{"price":"p"}})", 500);
  ASSERT_TRUE(cmd.ok());
  const std::string text = WriteValidateResponse(*cmd, OneFix(1, "price", "0.00"));
  EXPECT_EQ(text.substr(0, text.find(']') + 1), R"({"cleaned":[{"b":1,"a":2,"p":"0.00"}])");
}

// A compact record without fixes is copied as it lies in the body; any other record is written
// member by member. Both give the same cleaned record: the compact body and the same records
// with spaces (which rule the copy out) get the same answer, repeated keys, unmapped and nested
// values, escaped keys and a fixed record included.
TEST(ValidateRequestTest, CompactAndSpacedRecordsGetTheSameCleanedText) {
  const std::string mapping = R"(],"mapping":{"sku":"id","price":"p"}})";
  const std::string compact =
      R"({"records":[{"id":"A","p":"1.00","x":[1,2],"k\"q":"v","id":"B"},)"
      R"({"id":"C","p":"2.00","n":12.50},{"id":"D","p":"$3"},{}, {"id":"E"})" + mapping;
  const std::string spaced =
      R"({"records":[{"id": "A", "p": "1.00", "x": [1,2], "k\"q": "v", "id": "B"}, )"
      R"({"id" : "C" , "p":"2.00","n": 12.50}, {"id":"D" ,"p":"$3"}, { }, {"id": "E"})" +
      mapping;
  auto a = ParseValidateRequest(compact, 500);
  auto b = ParseValidateRequest(spaced, 500);
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message();
  const auto fix = OneFix(3, "price", "3.00");
  const std::string from_compact = WriteValidateResponse(*a, fix);
  EXPECT_EQ(from_compact, WriteValidateResponse(*b, fix));
  EXPECT_EQ(from_compact.substr(0, from_compact.find("],\"issues\"") + 1),
            R"({"cleaned":[{"p":"1.00","x":[1,2],"k\"q":"v","id":"B"},)"
            R"({"id":"C","p":"2.00","n":12.50},{"id":"D","p":"3.00"},{},{"id":"E"}])");
}

// A number past a double's range is grammatical JSON, but the answer echoes it and most
// readers would then refuse the answer (found by fuzz_validate_body).
TEST(ValidateRequestTest, ANumberPastADoublesRangeIsNotJson) {
  auto r = ParseValidateRequest(R"({"records":[{"sku":"A","x":6e950}],"mapping":{"sku":"sku"}})",
                                500);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidJson);
  EXPECT_NE(r.status().message().find("number out of range"), std::string::npos)
      << r.status().message();
}

TEST(ValidateRequestTest, InvalidUtf8IsNotJson) {
  auto r = ParseValidateRequest("{\"records\":[{\"a\":\"Jos\xE9\"}],\"mapping\":{}}", 500);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidJson);
}

// The parser checks UTF-8 in its string scan, and a body that stops anywhere is still named by its
// first invalid UTF-8 byte, before or after the grammar error, on both paths.
TEST(ValidateRequestTest, InvalidUtf8WinsOverAGrammarErrorWhereverItIs) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"records\":[{\"a\":\"Jos\xE9\"}],\"mapping\":{}}", "invalid UTF-8 byte 0xE9 at byte 21"},
      {"{\"records\":[{\"a\":x}],\"b\":\"Jos\xE9\"}", "invalid UTF-8 byte 0xE9 at byte 29"},
      {"{\"records\":[{\"a\":\xC3\xA9}]}", "expected a value, found byte 0xC3 at byte 17"},
      {"{\"records\":[{\"a\":\"\xED\xA0\x80\"}]}", "invalid UTF-8 byte 0xED at byte 18"},
      {"{\"records\":[{\"a\":\"caf\xC3\xA9\"}],\"mapping\":{}} \xC3",
       "invalid UTF-8 byte 0xC3 at byte 41"},
  };
  for (const auto& [body, where] : cases) {
    for (JsonPath path : {JsonPath::kFast, JsonPath::kHandWritten}) {
      auto r = ParseValidateRequest(body, 500, path);
      ASSERT_FALSE(r.ok()) << body;
      EXPECT_EQ(r.status().message(), "The request body is not valid JSON: " + where + ".") << body;
    }
  }
}

// ---- The two readers ---------------------------------------------------------------------------
// The route reads a body of the usual shape with simdjson finding the tokens and the upload
// parser reading them, and everything else with the upload parser alone. Both must give the same
// command or the same error, to the byte.

std::string Diff(std::string_view body, size_t max_records = 3) {
  return testing::DescribeCommandDifference(ParseValidateRequest(body, max_records, JsonPath::kFast),
                                            ParseValidateRequest(body, max_records,
                                                                 JsonPath::kHandWritten));
}

// True when the command's first cell points into the padded copy simdjson read (the fast path),
// not into the body (the upload parser alone).
bool ReadByTheFastPath(const ValidateCommand& cmd) {
  const std::string_view copy = cmd.reader.fast_text();
  for (const auto& m : cmd.members) {
    if (m.raw_value.data() >= copy.data() && m.raw_value.data() < copy.data() + copy.size()) {
      return true;
    }
  }
  return false;
}

TEST(ValidateRequestReadersTest, TheUsualShapesTakeTheFastPath) {
  const std::string bodies[] = {
      R"({"records":[{"id":"A","p":12.50,"g":12345678901234567890}],"mapping":{"sku":"id"}})",
      // escapes in keys and values, decoded by the upload parser's code
      R"({"records":[{"i\u0064":"x\u00e9\"\\\/\b\f\n\r\t\ud83d\ude00"}],"mapping":{"sku":"id"}})",
      // nested values, compacted; null, booleans, negative and exponent numbers; spaces
      " \r\n{ \"records\" : [ { \"o\" : { \"k\" : [ 1 , 2 ] } , \"n\" : null , \"b\" : false ,"
      " \"e\" : -0.5E+3 } ] , \"mapping\" : { \"sku\" : \"o\" } , \"check_types\" : null ,"
      " \"platform\" : \"marketplace2\" } \t",
      "\xEF\xBB\xBF{\"records\":[{\"a\":\"1\"}],\"mapping\":{\"sku\":\"a\"},"
      "\"check_types\":\"product, price\"}",
      R"({"records":[{"id":"A","id":"B"},{"id":"C"}],"mapping":{"sku":"id","sku":"id"}})",
  };
  for (const std::string& body : bodies) {
    auto cmd = ParseValidateRequest(body, 3);
    ASSERT_TRUE(cmd.ok()) << body << ": " << cmd.status().message();
    EXPECT_TRUE(ReadByTheFastPath(*cmd)) << body;
    EXPECT_EQ(Diff(body), "") << body;
  }
  // Anything else goes to the upload parser alone, which words the problem.
  auto cmd = ParseValidateRequest(R"({"records":[{"a":"1"}],"mapping":{},"extra":1})", 3);
  ASSERT_FALSE(cmd.ok());
  EXPECT_EQ(cmd.status().details()[0].field, "extra");
  // So does a body past kFastPathMaxBodyBytes (simdjson's buffers would take ~6x its size).
  const std::string big = R"({"records":[{"a":")" + std::string(kFastPathMaxBodyBytes, 'x') +
                          R"("}],"mapping":{"sku":"a"}})";
  auto large = ParseValidateRequest(big, 3);
  ASSERT_TRUE(large.ok()) << large.status().message();
  EXPECT_FALSE(ReadByTheFastPath(*large));
  EXPECT_EQ(large->cells[0].size(), kFastPathMaxBodyBytes);
}

TEST(ValidateRequestReadersTest, BothReadersAgreeOnGoodAndBadBodies) {
  const std::string bodies[] = {
      // good
      R"({"records":[],"mapping":{}})",
      R"({"mapping":{"price":"p"},"records":[{"p":"1"},{},{"p":[]}],"platform":null})",
      R"({"records":[{"k":""},{"":"v"}],"mapping":{"sku":""}})",
      R"({"records":[{"a":1e308,"b":1e-400,"c":-0,"d":0.0}],"mapping":{"sku":"a"}})",
      R"({"records":[{"deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}],"mapping":{}})",
      // bad, each in a different way
      R"({"records":[{"deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}],"mapping":{}})",
      "{\"records\":[{\"a\":\"tab\tinside\"}],\"mapping\":{}}",
      "{\"records\":[{\"a\":\"Jos\xE9\"}],\"mapping\":{}}",
      R"({"records":[{"a":"\ud83d"}],"mapping":{}})",
      R"({"records":[{"a":"\udc00"}],"mapping":{}})",
      R"({"records":[{"a":"\x"}],"mapping":{}})",
      R"({"records":[{"a":"\u12"}],"mapping":{}})",
      R"({"records":[{"a\q":1}],"mapping":{}})",
      R"({"records":[{"a":01}],"mapping":{}})",
      R"({"records":[{"a":1.}],"mapping":{}})",
      R"({"records":[{"a":-}],"mapping":{}})",
      R"({"records":[{"a":12x}],"mapping":{}})",
      R"({"records":[{"a":6e950}],"mapping":{}})",
      R"({"records":[{"a":truex}],"mapping":{}})",
      R"({"records":[{"a":nul}],"mapping":{}})",
      R"({"records":[{"a":[1,]}],"mapping":{}})",
      R"({"records":[{"a":{"b" 1}}],"mapping":{}})",
      R"({"records":[{"a":1,}],"mapping":{}})",
      R"({"records":[{"a":1 "b":2}],"mapping":{}})",
      R"({"records":[{"a" 1}],"mapping":{}})",
      R"({"records":[{"a":1}]"mapping":{}})",
      R"({"records":[{"a":1}],"mapping":{}})",
      R"({"records":[{"a":1}],"mapping":{}}})",
      R"({"records":[{"a":1}],"mapping":{}} [])",
      R"({"records":[{"a":1}],"mapping":{})",
      R"({"records":[{"a":"1}],"mapping":{}})",
      // a string followed by ':' (simdjson's skipping takes it for a key; fuzz_validate_body)
      R"({"records":[],"mapping":{"sku":"x":"y"},"check_types":"a"}})",
      R"({"records":[{"a":"x":"y"},"b":1}],"mapping":{}})",
      R"({"records":[],"mapping":{"sku":"x":"y","title":"z"}})",
      R"({"records":[{"a":1:2}],"mapping":{}})",
      R"({"records":[],"mapping":{},"platform":"marketplace2":"x"})",
      R"({"records":[{"a":[1]:2}],"mapping":{}})",
      R"({"records":[{},{},{},{}],"mapping":{}})",
      R"({"records":[{},7],"mapping":{}})",
      R"({"records":{},"mapping":{}})",
      R"({"records":[],"records":[{"a":1}],"mapping":{}})",
      R"({"records":[],"mapping":{"colour":"c","sku":3}})",
      R"({"records":[],"mapping":{"sku":{"a":1}}})",
      R"({"records":[],"mapping":{},"check_types":["product"]})",
      R"({"records":[],"mapping":{},"check_types":"product,tax"})",
      R"({"records":[],"mapping":{},"platform":1})",
      R"({"records":[],"mapping":{},"platform":"ebay","platform":"marketplace2"})",
      R"({"records":[],"mapping":{},"z":1,"b":2})",
      R"({"re\u0063ords":[],"mapping":{}})",
      "",
      "   ",
      "[]",
      "12",
      "\"records\"",
      "{",
      "{}",
      "\xEF\xBB\xBF",
  };
  for (const std::string& body : bodies) EXPECT_EQ(Diff(body), "") << body;
}


// ---- Nested objects: read as the upload reader reads them (docs/ingest.md, "JSON details") ----

std::vector<std::string> KeysOf(const ValidateCommand& cmd) {
  std::vector<std::string> keys;
  for (const auto& m : cmd.members) keys.emplace_back(m.key);
  return keys;
}

TEST(ValidateNestedTest, ANestedObjectsMembersAreMembersNamedByTheirPath) {
  const std::string body =
      R"({"records":[{"id":"A","meta":{"barcode":"4006381333931","qr":null,"e":{}},)"
      R"("dimensions":{"width":12.50,"d":{"x":true}},"tags":["a",{"b":1}],"n":7},)"
      R"({"meta":{"barcode":"1\"2"}}],)"
      R"("mapping":{"sku":"id","gtin":"meta.barcode","weight":"dimensions.width"}})";
  auto cmd = ParseValidateRequest(body, 500);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_TRUE(cmd->nested);
  EXPECT_EQ(KeysOf(*cmd),
            (std::vector<std::string>{"id", "meta.barcode", "meta.qr", "meta.e", "dimensions.width",
                                      "dimensions.d.x", "tags", "n", "meta.barcode"}));
  EXPECT_EQ(cmd->record_begin, (std::vector<uint32_t>{0, 8, 9}));
  EXPECT_EQ(cmd->columns, (std::vector<std::string>{"id", "meta.barcode", "dimensions.width"}));
  ASSERT_EQ(cmd->cells.size(), 6u);
  EXPECT_EQ(cmd->cells[0], "A");
  EXPECT_EQ(cmd->cells[1], "4006381333931");
  EXPECT_EQ(cmd->cells[2], "12.50");  // a number keeps its text
  EXPECT_EQ(cmd->cells[3], "");
  EXPECT_EQ(cmd->cells[4], "1\"2");
  EXPECT_EQ(cmd->cells[5], "");
  EXPECT_EQ(cmd->members[2].raw_value, "null");
  EXPECT_EQ(cmd->members[3].value, "{}");  // an empty object stays a cell
  EXPECT_EQ(cmd->members[5].raw_value, "true");
  EXPECT_EQ(cmd->members[6].value, R"(["a",{"b":1}])");  // arrays stay cells
  EXPECT_EQ(cmd->members[8].raw_value, R"("1\"2")");
  EXPECT_EQ(cmd->paths[cmd->member_path[5]], (std::vector<std::string>{"dimensions", "d", "x"}));
  EXPECT_EQ(Diff(body), "");  // both readers agree
  // Flat records are left as they were sent.
  auto flat = ParseValidateRequest(R"({"records":[{"a":{}}],"mapping":{"sku":"a"}})", 500);
  ASSERT_TRUE(flat.ok());
  EXPECT_FALSE(flat->nested);
  EXPECT_TRUE(flat->member_path.empty());
}

TEST(ValidateNestedTest, ARepeatedKeyCountsOnceItsLastOccurrence) {
  auto cmd = ParseValidateRequest(
      R"({"records":[{"meta":{"x":1},"id":"A","meta":{"barcode":"9"}}],)"
      R"("mapping":{"gtin":"meta.barcode","sku":"meta.x"}})",
      500);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_EQ(KeysOf(*cmd), (std::vector<std::string>{"id", "meta.barcode"}));
  EXPECT_EQ(cmd->cells, (std::vector<std::string_view>{"", "9"}));  // sku (meta.x), gtin
}

// The job reader's message for the same records, without its "row n (byte b): " prefix.
std::string JobError(const std::string& ndjson) {
  ingest::NdjsonReader reader{ingest::ReaderLimits{}};
  reader.Feed(ndjson);
  reader.Finish();
  while (true) {
    auto state = reader.Next();
    if (!state.ok()) {
      const std::string m = state.status().message();
      return m.substr(m.find("): ") + 3);
    }
    if (*state == ingest::ReadState::kEnd) return "";
  }
}

TEST(ValidateNestedTest, TheUploadsLimitsGiveTheSameErrors) {
  std::string deep = "1";
  for (int k = 0; k < 10; ++k) deep = R"({"a":)" + deep + "}";  // 9 objects inside the record
  std::string wide = "{";
  for (int k = 0; k < 1025; ++k) wide += (k ? "," : "") + ("\"k" + std::to_string(k) + "\":1");
  wide += "}";
  struct Case {
    std::string records;  // the records, comma-separated
    std::string field;
    std::string message;
  };
  const Case cases[] = {
      {deep, "records[0]",
       "the member \"a.a.a.a.a.a.a.a.a\" nests objects more than 8 levels deep; dq reads a nested "
       "object's members as columns down to 8 levels"},
      {R"({"a.b":1},{"a":{"b":2}})", "records[1]",
       "the key \"a.b\" and the member path a.b of a nested object would both be the column "
       "\"a.b\"; rename the key"},
      {R"({"m":{"x":1,"x":2}})", "records[0]", "the member path m.x appears twice"},
      {R"({"o":)" + wide + "}", "records[0]",
       "more than 1024 distinct keys (each member of a nested object counts as one)"},
  };
  for (const Case& c : cases) {
    const std::string body = R"({"records":[)" + c.records + R"(],"mapping":{"sku":"a"}})";
    auto r = ParseValidateRequest(body, 500);
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidRequest);
    ASSERT_EQ(r.status().details().size(), 1u);
    EXPECT_EQ(r.status().details()[0].field, c.field);
    EXPECT_EQ(r.status().details()[0].message, c.message);
    EXPECT_EQ(r.status().message(), c.field + ": " + c.message);
    std::string ndjson = c.records;
    for (size_t at = ndjson.find("},{"); at != std::string::npos; at = ndjson.find("},{", at)) {
      ndjson.replace(at, 3, "}\n{");
    }
    EXPECT_EQ(JobError(ndjson + "\n"), c.message);  // the job's words
    EXPECT_EQ(Diff(body, 500), "") << c.message;
  }
  std::string eight = "1";
  for (int k = 0; k < 9; ++k) eight = R"({"a":)" + eight + "}";  // 8 objects inside it
  auto ok = ParseValidateRequest(R"({"records":[)" + eight + R"(],"mapping":{"sku":"a"}})", 500);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(KeysOf(*ok), (std::vector<std::string>{"a.a.a.a.a.a.a.a.a"}));
}

TEST(ValidateNestedTest, CleanedRecordsKeepEachValueInsideItsObject) {
  const std::string body =
      R"({"records":[{"id":"A","meta":{"barcode":"123","in":{"c":1},"n":1.50},"e":{"f":"\u00e9\""},)"
      R"("g":[1, 2]},{"meta":{"barcode":"9"},"p":"$5.00"}],)"
      R"("mapping":{"sku":"id","gtin":"meta.barcode","price":"p"}})";
  auto cmd = ParseValidateRequest(body, 500);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  validator::v1::ValidateResponse fixes = OneFix(1, "gtin", "0000000000123");
  auto* second = fixes.add_issues();
  second->CopyFrom(fixes.issues(0));
  second->set_row(2);
  second->set_field("price");
  second->set_fixed_value("5.00");
  const std::string text = WriteValidateResponse(*cmd, fixes);
  EXPECT_EQ(text.substr(0, text.find("],\"issues\"") + 1),
            R"({"cleaned":[{"id":"A","meta":{"barcode":"0000000000123","in":{"c":1},"n":1.50},)"
            "\"e\":{\"f\":\"\xC3\xA9\\\"\"},\"g\":[1, 2]},"
            R"({"meta":{"barcode":"9"},"p":"5.00"}])");
  // Without fixes the records come back as they were sent (compacted).
  const std::string plain = WriteValidateResponse(*cmd, validator::v1::ValidateResponse());
  EXPECT_EQ(plain.substr(0, plain.find("],\"issues\"") + 1),
            R"({"cleaned":[{"id":"A","meta":{"barcode":"123","in":{"c":1},"n":1.50},)"
            "\"e\":{\"f\":\"\xC3\xA9\\\"\"},\"g\":[1, 2]},"
            R"({"meta":{"barcode":"9"},"p":"$5.00"}])");
  EXPECT_EQ(nlohmann::json::parse(text)["issues"][0]["field"], "gtin");
}

// A fix for a column the record did not have goes inside its object (issue 31: it was written
// as the key "meta.barcode"): at the end of the object when the record has it, in a new object
// at the end of the record when it has not; the other keys keep their order.
TEST(ValidateNestedTest, AFixForAMissingNestedColumnGoesInsideItsObject) {
  const std::string body =
      R"({"records":[{"id":"A","meta":{"barcode":"1","deep":{"x":"1"}}},)"
      R"({"id":"B","meta":{"qr":"q"},"n":1},)"
      R"({"id":"C","n":2},)"
      R"({"id":"D","meta":{"deep":{"y":"2"}}},)"
      R"({"id":"E","meta":"none"}],)"
      R"("mapping":{"sku":"id","gtin":"meta.barcode","mpn":"meta.deep.x"}})";
  auto cmd = ParseValidateRequest(body, 500);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  validator::v1::ValidateResponse fixes;
  auto add = [&](int row, const std::string& field, const std::string& value) {
    auto* i = fixes.add_issues();
    i->set_code("WHITESPACE_TRIMMED");
    i->set_severity(validator::v1::SEVERITY_WARNING);
    i->set_row(row);
    i->set_field(field);
    i->set_fixed_value(value);
  };
  add(2, "gtin", "G2");
  add(3, "gtin", "G3");
  add(3, "mpn", "M3");
  add(4, "gtin", "G4");
  add(4, "mpn", "M4");
  add(5, "gtin", "G5");
  const std::string text = WriteValidateResponse(*cmd, fixes);
  EXPECT_EQ(text.substr(0, text.find("],\"issues\"") + 1),
            R"({"cleaned":[{"id":"A","meta":{"barcode":"1","deep":{"x":"1"}}},)"
            R"({"id":"B","meta":{"qr":"q","barcode":"G2"},"n":1},)"
            R"({"id":"C","n":2,"meta":{"barcode":"G3","deep":{"x":"M3"}}},)"
            R"({"id":"D","meta":{"deep":{"y":"2","x":"M4"},"barcode":"G4"}},)"
            // "meta" is a value here: no object to put the barcode in.
            R"({"id":"E","meta":"none","meta.barcode":"G5"}])");
  // Each cleaned record reads back with the values in their objects.
  const auto json = nlohmann::json::parse(text);
  EXPECT_EQ(json["cleaned"][2]["meta"]["deep"]["x"], "M3");
  EXPECT_EQ(json["cleaned"][3]["meta"]["barcode"], "G4");
}

}  // namespace
}  // namespace dq::gateway
