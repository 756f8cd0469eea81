#include "dq/common/event.h"

#include <gtest/gtest.h>

namespace dq::webhook {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

Fields Valid() {
  return {{"type", "job.complete"},
          {"account_id", "acct_1"},
          {"delivery_id", "0b7e2a3c-1d4f-4a5b-9c6d-7e8f9a0b1c2d"},
          {"payload", R"({"event":"job.complete","rows":3})"},
          {"created_ms", "1800000000123"}};
}

TEST(EventTest, ParsesStreamFields) {
  auto e = EventFromStreamFields(Valid());
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->type, "job.complete");
  EXPECT_EQ(e->account_id, "acct_1");
  EXPECT_EQ(e->delivery_id, "0b7e2a3c-1d4f-4a5b-9c6d-7e8f9a0b1c2d");
  EXPECT_EQ(e->payload, R"({"event":"job.complete","rows":3})");
  EXPECT_EQ(e->created_ms, 1800000000123);
  EXPECT_EQ(e->first_attempt_ms, 1800000000123);
  EXPECT_EQ(e->attempts, 0);
}

TEST(EventTest, RejectsIncompleteEntriesWithExactMessages) {
  struct Row {
    const char* drop;
    const char* message;
  };
  const Row rows[] = {{"account_id", "event is missing account_id"},
                      {"delivery_id", "event is missing delivery_id"},
                      {"payload", "event is missing payload"}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.drop);
    Fields f;
    for (auto& kv : Valid()) {
      if (kv.first != row.drop) f.push_back(kv);
    }
    auto e = EventFromStreamFields(f);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.status().message(), row.message);
  }
  Fields bad = Valid();
  bad.back().second = "12x";
  EXPECT_EQ(EventFromStreamFields(bad).status().message(),
            "event has a created_ms that is not an integer");
}

TEST(EventTest, MissingTypeAndCreatedDefault) {
  Fields f = {{"account_id", "a"}, {"delivery_id", "d"}, {"payload", "{}"}};
  auto e = EventFromStreamFields(f);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->type, "job.complete");
  EXPECT_EQ(e->created_ms, 0);
}

TEST(EventTest, JsonRoundTripIsExactAndDeterministic) {
  Event e = *EventFromStreamFields(Valid());
  e.attempts = 3;
  e.first_attempt_ms = 17;
  e.payload = "{\"filename\":\"caf\xc3\xa9.csv\",\"q\":\"\\\"\"}";
  const std::string j = EventToJson(e);
  EXPECT_EQ(j, EventToJson(e));
  auto back = EventFromJson(j);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, e);
}

TEST(EventTest, StoredJsonErrors) {
  EXPECT_EQ(EventFromJson("nope").status().message(), "stored event is not a JSON object");
  EXPECT_EQ(EventFromJson(R"({"account_id":1,"delivery_id":"d","payload":"p"})").status().message(),
            "stored event lacks a field or has a field of the wrong type");
}

}  // namespace
}  // namespace dq::webhook
