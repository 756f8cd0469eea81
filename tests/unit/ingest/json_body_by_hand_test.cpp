// internal::ReadBodyByHand (json_text.h): the parser's reading of a whole request body, which
// JsonBodyReader::ReadBody falls back to and checks its fast pass against. Its exact words and
// offsets, and which error wins when a body has two.
#include <gtest/gtest.h>

#include <string>

#include "dq/ingest/json_body_reader.h"
#include "dq/ingest/json_text.h"

namespace dq::ingest {
namespace {

struct ByHand {
  internal::JsonObjectParser parser{kMaxJsonDepth};
  JsonBody body;
  std::optional<internal::JsonError> Read(std::string_view text, size_t max_elements = 10) {
    body.Clear();
    return internal::ReadBodyByHand(parser, text, "records", max_elements, body);
  }
};

TEST(JsonBodyByHandTest, ReadsMembersFieldsAndRecords) {
  ByHand r;
  ASSERT_FALSE(r.Read("\xEF\xBB\xBF {\"records\":[{\"a\":\"x\\n\"},7,{}],\"mapping\":{\"a\":\"b\"},"
                      "\"n\":1.5}"));
  EXPECT_EQ(r.body.shape, JsonBody::Shape::kObject);
  ASSERT_EQ(r.body.members.size(), 3u);
  EXPECT_EQ(r.body.members[0].field.key, "records");
  EXPECT_EQ(r.body.members[0].field.value, "[");  // an array keeps its opening bracket
  EXPECT_EQ(r.body.elements, 3u);
  ASSERT_EQ(r.body.element_members.size(), 1u);
  EXPECT_EQ(r.body.element_members[0].value, "x\n");
  ASSERT_EQ(r.body.not_objects.size(), 1u);
  EXPECT_EQ(r.body.not_objects[0].first, 1u);
  EXPECT_EQ(r.body.members[1].fields_end - r.body.members[1].fields_begin, 1u);
  EXPECT_EQ(r.body.fields[r.body.members[1].fields_begin].value, "b");
  EXPECT_EQ(r.body.members[2].field.value, "1.5");
}

TEST(JsonBodyByHandTest, NotAnObjectAndTooDeepAreShapesNotErrors) {
  ByHand r;
  ASSERT_FALSE(r.Read(" [1,2] "));
  EXPECT_EQ(r.body.shape, JsonBody::Shape::kNotObject);
  EXPECT_EQ(r.body.top.kind, CellKind::kJson);
  ASSERT_FALSE(r.Read("{\"a\":" + std::string(kMaxJsonDepth, '[') + "}"));
  EXPECT_EQ(r.body.shape, JsonBody::Shape::kTooDeep);
  EXPECT_TRUE(r.body.members.empty());  // nothing else was read
}

TEST(JsonBodyByHandTest, WordsWhereTheBodyStops) {
  struct Case {
    std::string text;
    size_t offset;
    std::string message;
  };
  const Case cases[] = {
      {"  ", 2, "the body is empty"},
      {"{\"a\":1 \"b\":2}", 7, "expected ',' or '}', found '\"'"},
      {"{\"a\":1}x", 7, "expected the end, found 'x'"},
      {"{a:1}", 1, "expected a member name, found 'a'"},
      {"{\"a\" 1}", 5, "expected ':', found '1'"},
      {"{\"records\":[{},1 2]}", 17, "expected ',' or ']', found '2'"},
      // Invalid UTF-8 anywhere wins over a grammar error before it.
      {"{\"a\":x,\"b\":\"Jos\xE9\"}", 15, "invalid UTF-8 byte 0xE9"},
      // and inside a string it is the scan's own error, where it is.
      {"{\"a\":\"\xC3\"}", 6, "invalid UTF-8 byte 0xC3"},
  };
  for (const Case& c : cases) {
    ByHand r;
    const std::optional<internal::JsonError> e = r.Read(c.text);
    ASSERT_TRUE(e) << testing::PrintToString(c.text);
    EXPECT_EQ(e->offset, c.offset) << testing::PrintToString(c.text);
    EXPECT_EQ(e->message, c.message) << testing::PrintToString(c.text);
  }
}

// What ReadBody gives on the path that reads by hand is ReadBodyByHand's, error or members.
TEST(JsonBodyByHandTest, TheReadersHandWrittenPathIsThisReading) {
  const std::string text = "{\"records\":[{\"a\":1},{\"b\":\"\\u00e9\"}],\"x\":true}";
  ByHand r;
  ASSERT_FALSE(r.Read(text));
  JsonBodyReader reader;
  JsonBody out;
  for (const auto path : {JsonBodyReader::Path::kFast, JsonBodyReader::Path::kHandWritten}) {
    ASSERT_FALSE(reader.ReadBody(text, "records", 10, out, path));
    ASSERT_EQ(out.element_members.size(), r.body.element_members.size());
    for (size_t i = 0; i < out.element_members.size(); ++i) {
      EXPECT_EQ(out.element_members[i].key, r.body.element_members[i].key);
      EXPECT_EQ(out.element_members[i].value, r.body.element_members[i].value);
    }
  }
  const std::string bad = "{\"records\":[{\"a\":1},]}";
  const auto e = r.Read(bad);
  ASSERT_TRUE(e);
  const auto e2 = reader.ReadBody(bad, "records", 10, out);
  ASSERT_TRUE(e2);
  EXPECT_EQ(e2->offset, e->offset);
  EXPECT_EQ(e2->message, e->message);
}

}  // namespace
}  // namespace dq::ingest
