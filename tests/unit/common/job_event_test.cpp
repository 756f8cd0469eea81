// The job.complete contract shared by the gateway (writer) and the notifier (reader).
#include "dq/common/job_event.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace dq::events {
namespace {

JobComplete Sample() {
  JobComplete e;
  e.job_id = "0b6f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
  e.filename = "shop \"summer\".csv";
  e.status = "done";
  e.timestamp = "2026-11-23T01:02:03.456Z";
  e.rows = 1200;
  e.errors = 7;
  e.warnings = 3;
  e.fixes = 2;
  e.score = 88;
  return e;
}

TEST(JobEventTest, PayloadRoundTrips) {
  const JobComplete e = Sample();
  auto back = DecodeJobComplete(EncodeJobComplete(e));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, e);
}

TEST(JobEventTest, PayloadHasTheSpecificationsFields) {
  const auto j = nlohmann::json::parse(EncodeJobComplete(Sample()));
  EXPECT_EQ(j["event"], "job.complete");
  EXPECT_EQ(j["timestamp"], "2026-11-23T01:02:03.456Z");
  EXPECT_EQ(j["jobId"], "0b6f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b");
  EXPECT_EQ(j["filename"], "shop \"summer\".csv");
  EXPECT_EQ(j["rows"], 1200);
  EXPECT_EQ(j["stats"], (nlohmann::json{{"errors", 7}, {"warnings", 3}, {"fixes", 2},
                                         {"score", 88}}));
  EXPECT_EQ(j["status"], "done");
  EXPECT_FALSE(j.contains("test"));
}

TEST(JobEventTest, EncodingIsDeterministic) {
  EXPECT_EQ(EncodeJobComplete(Sample()), EncodeJobComplete(Sample()));
}

TEST(JobEventTest, StreamRecordRoundTrips) {
  const StreamRecord r = JobCompleteRecord("acct_1", Sample(), 1800000000123);
  EXPECT_EQ(r.delivery_id, Sample().job_id);
  auto back = FromStreamFields(ToStreamFields(r));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, r);
}

TEST(JobEventTest, StreamRecordErrorsNameTheField) {
  auto fields = ToStreamFields(JobCompleteRecord("acct_1", Sample(), 5));
  for (const char* name : {"account_id", "delivery_id", "payload"}) {
    auto copy = fields;
    std::erase_if(copy, [&](const auto& f) { return f.first == name; });
    auto r = FromStreamFields(copy);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().message(), std::string("event is missing ") + name);
  }
  auto bad = fields;
  bad.back().second = "12x";
  EXPECT_EQ(FromStreamFields(bad).status().message(),
            "event has a created_ms that is not an integer");
}

TEST(JobEventTest, DecodeRefusesOtherEvents) {
  EXPECT_FALSE(DecodeJobComplete("[]").ok());
  EXPECT_FALSE(DecodeJobComplete(R"({"event":"other"})").ok());
  EXPECT_FALSE(DecodeJobComplete(R"({"event":"job.complete","jobId":1})").ok());
}

}  // namespace
}  // namespace dq::events
