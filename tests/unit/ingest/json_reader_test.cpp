#include "dq/ingest/json_reader.h"

#include "dq/ingest/json_fast.h"
#include <gtest/gtest.h>

#include "ingest_test_util.h"

namespace dq::ingest {
namespace {

using testing::ReadAll;
using testing::ReadOutcome;
using testing::Rows;
constexpr CellKind S = CellKind::kString, N = CellKind::kNumber, B = CellKind::kBool,
                   Z = CellKind::kNull, J = CellKind::kJson, M = CellKind::kMissing;

struct JsonCase {
  const char* name;
  FileFormat format;
  std::string input;
  std::vector<std::string> header;
  Rows rows;
  std::vector<std::vector<CellKind>> kinds;
};

class JsonReadTest : public ::testing::TestWithParam<JsonCase> {};

TEST_P(JsonReadTest, ReadsTheSameInEveryChunking) {
  const JsonCase& c = GetParam();
  for (size_t chunk : {0, 1, 2, 3, 7, 64}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    ReadOutcome out = ReadAll(c.format, c.input, chunk);
    EXPECT_EQ(out.code, ErrorCode::kOk) << out.message;
    EXPECT_EQ(out.header, c.header);
    EXPECT_EQ(out.rows, c.rows);
    EXPECT_EQ(out.kinds, c.kinds);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Formats, JsonReadTest,
    ::testing::Values(
        JsonCase{"array_basic", FileFormat::kJsonArray,
                 R"([{"sku":"A1","price":12.50},{"sku":"A2","price":3}])",
                 {"sku", "price"}, {{"A1", "12.50"}, {"A2", "3"}}, {{S, N}, {S, N}}},
        JsonCase{"array_union_of_keys_first_seen", FileFormat::kJsonArray,
                 "[\n {\"a\": 1},\n {\"b\": true, \"a\": null}\n]\n", {"a", "b"},
                 {{"1"}, {"", "true"}}, {{N}, {Z, B}}},
        JsonCase{"array_missing_key", FileFormat::kJsonArray, R"([{"a":"x","b":"y"},{"b":"z"}])",
                 {"a", "b"}, {{"x", "y"}, {"", "z"}}, {{S, S}, {M, S}}},
        JsonCase{"array_nested_values_compacted", FileFormat::kJsonArray,
                 R"([{"tags": [ "a", 1 , {"k" : null} ], "o": {}}])", {"tags", "o"},
                 {{R"(["a",1,{"k":null}])", "{}"}}, {{J, J}}},
        JsonCase{"array_escapes_decoded", FileFormat::kJsonArray,
                 R"([{"t":"a\"b\\c\n\u00e9\ud83d\ude00\/"}])", {"t"},
                 {{"a\"b\\c\n\xC3\xA9\xF0\x9F\x98\x80/"}}, {{S}}},
        JsonCase{"array_with_bom_and_whitespace", FileFormat::kJsonArray,
                 "\xEF\xBB\xBF \r\n[ {\"a\":\"1\"} , {\"a\":\"2\"} ] \n", {"a"}, {{"1"}, {"2"}},
                 {{S}, {S}}},
        JsonCase{"array_numbers_kept_verbatim", FileFormat::kJsonArray,
                 R"([{"n":-0.50e+3,"m":1E2,"z":0}])", {"n", "m", "z"}, {{"-0.50e+3", "1E2", "0"}},
                 {{N, N, N}}},
        JsonCase{"array_numbers_at_a_doubles_edges_kept", FileFormat::kJsonArray,
                 R"([{"big":1.7e308,"tiny":1e-400,"long":12345678901234567890123}])",
                 {"big", "tiny", "long"}, {{"1.7e308", "1e-400", "12345678901234567890123"}},
                 {{N, N, N}}},
        JsonCase{"array_empty_object_row", FileFormat::kJsonArray, R"([{"a":"1"},{}])", {"a"},
                 {{"1"}, {""}}, {{S}, {M}}},
        JsonCase{"ndjson_basic", FileFormat::kNdjson, "{\"a\":\"1\"}\n{\"a\":\"2\",\"b\":false}\n",
                 {"a", "b"}, {{"1"}, {"2", "false"}}, {{S}, {S, B}}},
        JsonCase{"ndjson_blank_lines_crlf_no_final_newline", FileFormat::kNdjson,
                 "\r\n{\"a\":1}\r\n  \r\n\t\n{\"a\":2}", {"a"}, {{"1"}, {"2"}}, {{N}, {N}}},
        JsonCase{"ndjson_bom", FileFormat::kNdjson, "\xEF\xBB\xBF{\"a\":\"x\"}\n", {"a"},
                 {{"x"}}, {{S}}}),
    [](const auto& info) { return std::string(info.param.name); });

struct JsonErrorCase {
  const char* name;
  FileFormat format;
  std::string input;
  ErrorCode code;
  std::string message;
  ReaderLimits limits = {};
};

class JsonErrorTest : public ::testing::TestWithParam<JsonErrorCase> {};

TEST_P(JsonErrorTest, FailsWithTheExactError) {
  const JsonErrorCase& c = GetParam();
  for (size_t chunk : {0, 1, 5}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    ReadOutcome out = ReadAll(c.format, c.input, chunk, c.limits);
    EXPECT_EQ(out.code, c.code);
    EXPECT_EQ(out.message, c.message);
  }
}

constexpr FileFormat kArr = FileFormat::kJsonArray;
constexpr FileFormat kNd = FileFormat::kNdjson;
constexpr ErrorCode kBad = ErrorCode::kInvalidRequest;

INSTANTIATE_TEST_SUITE_P(
    Errors, JsonErrorTest,
    ::testing::Values(
        JsonErrorCase{"array_empty_file", kArr, "", ErrorCode::kEmptyFile, "The file is empty."},
        JsonErrorCase{"array_whitespace_only", kArr, " \n\t", ErrorCode::kEmptyFile,
                      "The file is empty."},
        JsonErrorCase{"array_no_rows", kArr, "[ ]\n", ErrorCode::kEmptyFile,
                      "The JSON array has no rows."},
        JsonErrorCase{"array_not_an_array", kArr, "{\"a\":1}", kBad,
                      "The file is not a JSON array of objects: expected '[' at byte 0, found "
                      "'{'"},
        JsonErrorCase{"array_element_not_object", kArr, "[{\"a\":1}, 5]", kBad,
                      "row 2 (byte 10): expected a JSON object, found '5'"},
        JsonErrorCase{"array_unclosed", kArr, "[{\"a\":1}", kBad,
                      "The JSON array is not closed: the file ends before its ']' (byte 8)"},
        JsonErrorCase{"array_unclosed_object", kArr, "[{\"a\":1", kBad,
                      "row 1 (byte 1): the object is not closed"},
        JsonErrorCase{"array_missing_comma", kArr, "[{\"a\":1} {\"a\":2}]", kBad,
                      "after row 1: expected ',' or ']' at byte 9, found '{'"},
        JsonErrorCase{"array_trailing_garbage", kArr, "[{\"a\":1}] x", kBad,
                      "unexpected 'x' at byte 10 after the end of the JSON array"},
        JsonErrorCase{"array_trailing_comma", kArr, "[{\"a\":1},]", kBad,
                      "row 2 (byte 9): expected a JSON object, found ']'"},
        JsonErrorCase{"duplicate_key", kArr, "[{\"a\":1,\"a\":2}]", kBad,
                      "row 1 (byte 1): the key \"a\" appears twice"},
        JsonErrorCase{"bad_number", kArr, "[{\"a\":01}]", kBad,
                      "row 1 (byte 1): expected ',' or '}', found '1' at byte 7"},
        JsonErrorCase{"number_past_a_double", kArr, "[{\"a\":6e950}]", kBad,
                      "row 1 (byte 1): number out of range (beyond a double's 1.8e308) at byte 6"},
        JsonErrorCase{"nested_number_past_a_double", kArr, "[{\"a\":[1,-2E+400]}]", kBad,
                      "row 1 (byte 1): number out of range (beyond a double's 1.8e308) at byte 9"},
        JsonErrorCase{"bad_literal", kArr, "[{\"a\":tru}]", kBad,
                      "row 1 (byte 1): unexpected 't' at byte 6"},
        JsonErrorCase{"raw_control_char_in_string", kArr, "[{\"a\":\"x\ty\"}]", kBad,
                      "row 1 (byte 1): a control character inside a string must be escaped at "
                      "byte 8"},
        JsonErrorCase{"lone_surrogate", kArr, "[{\"a\":\"\\ud800\"}]", kBad,
                      "row 1 (byte 1): unpaired surrogate in \\u escape at byte 7"},
        JsonErrorCase{"latin1_in_string", kArr, "[{\"a\":\"Jos\xE9\"}]", kBad,
                      "row 1 (byte 1): invalid UTF-8 byte 0xE9 at byte 10; save the file as "
                      "UTF-8"},
        JsonErrorCase{"too_deep", kArr, "[{\"a\":[[[1]]]}]", kBad,
                      "row 1 (byte 1): nested deeper than 2 levels at byte 8",
                      ReaderLimits{.max_json_depth = 2}},
        JsonErrorCase{"record_too_long", kArr, "[{\"a\":\"0123456789\"}]", kBad,
                      "row 1 (byte 1): the record is longer than 10 bytes",
                      ReaderLimits{.max_record_bytes = 10}},
        JsonErrorCase{"too_many_keys", kArr, "[{\"a\":1,\"b\":2},{\"c\":3}]", kBad,
                      "row 2 (byte 15): more than 2 distinct keys", ReaderLimits{.max_cells = 2}},
        JsonErrorCase{"ndjson_empty", kNd, "", ErrorCode::kEmptyFile, "The file is empty."},
        JsonErrorCase{"ndjson_blank_only", kNd, "\n \r\n\n", ErrorCode::kEmptyFile,
                      "The file is empty."},
        JsonErrorCase{"ndjson_not_object", kNd, "{\"a\":1}\n[1,2]\n", kBad,
                      "row 2 (byte 8): expected a JSON object, found '[' at byte 8"},
        JsonErrorCase{"ndjson_two_objects_on_a_line", kNd, "{\"a\":1} {\"a\":2}\n", kBad,
                      "row 1 (byte 0): unexpected '{' after the object at byte 8"},
        JsonErrorCase{"ndjson_object_split_over_lines", kNd, "{\"a\":\n1}\n", kBad,
                      "row 1 (byte 0): expected a value, found the end at byte 5"},
        JsonErrorCase{"ndjson_line_too_long", kNd, "{\"a\":\"0123456789\"}\n", kBad,
                      "row 1 (byte 0): the record is longer than 10 bytes",
                      ReaderLimits{.max_record_bytes = 10}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(JsonObjectParserTest, ParseObjectArrayAtListsTheObjectsAndWhatIsNot) {
  internal::JsonObjectParser p(64);
  const std::string s = R"([{"a":1,"b":"x"}, 7, {"c":[1, 2]}, {"d":null}] tail)";
  p.ResetScratch(s.size());
  std::vector<internal::JsonField> members;
  std::vector<uint32_t> ends(1, 0);
  std::vector<std::pair<size_t, internal::JsonField>> others;
  size_t count = 0, i = 0;
  ASSERT_FALSE(p.ParseObjectArrayAt(s, i, /*max_objects=*/3, members, ends, others, count));
  EXPECT_EQ(s.substr(i), " tail");
  EXPECT_EQ(count, 4u);
  ASSERT_EQ(members.size(), 3u);  // the fourth element is past max_objects
  EXPECT_EQ(members[1].key, "b");
  EXPECT_EQ(members[1].value, "x");
  EXPECT_EQ(members[2].value, "[1,2]");
  EXPECT_EQ(ends, (std::vector<uint32_t>{0, 2, 2, 3}));
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0].first, 1u);
  EXPECT_EQ(others[0].second.kind, N);
}

TEST(JsonObjectParserTest, ParseObjectArrayAtWordsWhereItStops) {
  internal::JsonObjectParser p(64);
  const std::string s = R"([{"a":1} {"b":2}])";
  p.ResetScratch(s.size());
  std::vector<internal::JsonField> members;
  std::vector<uint32_t> ends(1, 0);
  std::vector<std::pair<size_t, internal::JsonField>> others;
  size_t count = 0, i = 0;
  auto e = p.ParseObjectArrayAt(s, i, 10, members, ends, others, count);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 9u);
  EXPECT_EQ(e->message, "expected ',' or ']', found '{'");
  EXPECT_EQ(internal::InvalidUtf8At("a\xE9", 1).message, "invalid UTF-8 byte 0xE9");
  EXPECT_EQ(internal::ExpectedAt("{", 1, "':'").message, "expected ':', found the end");
}

TEST(JsonReaderTest, AOneMegabyteValueWorks) {
  const std::string big(1024 * 1024, 'z');
  const std::string nd = "{\"d\":\"" + big + "\"}\n";
  const std::string arr = "[{\"d\":\"" + big + "\"}]";
  for (size_t chunk : {0, 65536}) {
    ReadOutcome a = ReadAll(FileFormat::kNdjson, nd, chunk);
    ASSERT_EQ(a.code, ErrorCode::kOk) << a.message;
    EXPECT_EQ(a.rows.at(0).at(0), big);
    ReadOutcome b = ReadAll(FileFormat::kJsonArray, arr, chunk);
    ASSERT_EQ(b.code, ErrorCode::kOk) << b.message;
    EXPECT_EQ(b.rows.at(0).at(0), big);
  }
}

TEST(JsonReaderTest, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = "[{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}]";
  ReadOutcome out = ReadAll(FileFormat::kJsonArray, deep);
  EXPECT_EQ(out.code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(out.message, "row 1 (byte 1): nested deeper than 64 levels at byte 70");
}

// The record reader's fast half (simdjson finding the tokens) takes a record only as the
// hand-written parser alone reads it, to the byte, and takes the usual records.
TEST(JsonReaderTest, TheFastHalfReadsAsTheParserAlone) {
  struct Case {
    std::string text;
    bool fast;  // the fast half takes it
  };
  const Case cases[] = {
      {R"({"sku":"A-1","price":12.50,"gtin":12345678901234567890,"n":null,"b":true})", true},
      {" \t{ \"k\" : \"v\" , \"o\" : { \"a\" : [ 1 , { } ] } }\r", true},
      {R"({"i\u0064":"x\u00e9\"\\\/\b\f\n\r\t\ud83d\ude00","e":-0.5E+3,"z":0})", true},
      {R"({})", true},
      {R"({"a":1,"a":2})", true},  // the row builder refuses the repeated key, not the parser
      {R"({"a":"x":"y"},"b":1})", false},
      {R"({"a":01})", false},
      {R"({"a":6e950})", false},
      {R"({"a":"\udc00"})", false},
      {R"({"a":"\q"})", false},
      {"{\"a\":\"tab\tinside\"}", false},
      {"{\"a\":\"Jos\xE9\"}", false},
      {R"({"a":[1,]})", false},
      {R"({"a":truex})", false},
      {R"({"a":1} {"b":2})", false},
      {R"({"a":1)", false},
      {R"([{"a":1}])", false},
      {"{\"a\":" + std::string(70, '[') + std::string(70, ']') + "}", false},
      // past kFastRecordMaxBytes: the parser alone (simdjson's buffers grow ~6x the record)
      {"{\"a\":\"" + std::string(internal::kFastRecordMaxBytes, 'x') + "\"}", false},
  };
  for (const Case& c : cases) {
    internal::JsonObjectParser alone(64), with_fast(64);
    internal::FastObjectReader fast;
    const bool took = fast.Read(c.text, with_fast);
    EXPECT_EQ(took, c.fast) << c.text;
    const bool parsed = !alone.Parse(c.text);
    if (!took) continue;
    ASSERT_TRUE(parsed) << c.text;
    ASSERT_EQ(fast.fields().size(), alone.fields().size()) << c.text;
    for (size_t k = 0; k < alone.fields().size(); ++k) {
      const auto& a = fast.fields()[k];
      const auto& b = alone.fields()[k];
      EXPECT_EQ(a.key, b.key) << c.text;
      EXPECT_EQ(a.raw_key, b.raw_key) << c.text;
      EXPECT_EQ(a.kind, b.kind) << c.text;
      EXPECT_EQ(a.value, b.value) << c.text;
      EXPECT_EQ(a.raw_value, b.raw_value) << c.text;
    }
  }
}

}  // namespace
}  // namespace dq::ingest
