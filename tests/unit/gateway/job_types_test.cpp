// The job's status and check types are types (issue 30, point 3), while what a job stores in its
// Redis hash and what the API answers stay the words they were: a hash written by an earlier
// version reads, and writes back, the same bytes.
#include <gtest/gtest.h>

#include "dq/common/check_types.h"
#include "jobs/job.h"

namespace dq::gateway {
namespace {

std::string Field(const std::vector<std::string>& args, const std::string& name) {
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    if (args[i] == name) return args[i + 1];
  }
  return "<missing>";
}

TEST(JobStatusTest, EveryStatusHasOneNameAndParsesBack) {
  for (auto s : {JobStatus::kQueued, JobStatus::kProcessing, JobStatus::kDone,
                 JobStatus::kFailed}) {
    EXPECT_EQ(ParseJobStatus(JobStatusName(s)), s) << JobStatusName(s);
  }
  EXPECT_EQ(JobStatusName(JobStatus::kProcessing), "processing");
  EXPECT_EQ(ParseJobStatus("Done"), std::nullopt);
  EXPECT_EQ(ParseJobStatus(""), std::nullopt);
}

TEST(CheckTypeListTest, KeepsTheOrderAskedAndRefusesUnknownNames) {
  const auto list = CheckTypeList::FromNames(std::vector<std::string>{"price", "product"});
  ASSERT_TRUE(list.has_value());
  EXPECT_EQ(list->Text(), "price,product");
  EXPECT_TRUE(list->Has(CheckType::kPrice));
  EXPECT_FALSE(list->Has(CheckType::kInventory));
  EXPECT_EQ(CheckTypeList::FromNames(std::vector<std::string>{"product", "colour"}),
            std::nullopt);
  EXPECT_EQ(CheckTypeList::FromText("customer,shipping,inventory").Text(),
            "customer,shipping,inventory");
  for (std::string_view name : kCheckTypes) {
    EXPECT_EQ(CheckTypeName(*ParseCheckType(name)), name);
  }
}

// The fields as a job stored before the types existed: each of the four statuses reads, and the
// hash and the JSON written from it hold the same words.
TEST(JobTypesTest, AHashStoredBeforeTheTypesReadsAndWritesTheSameWords) {
  for (const std::string status : {"queued", "processing", "done", "failed"}) {
    SCOPED_TRACE(status);
    const std::vector<std::pair<std::string, std::string>> stored = {
        {"id", "0b6f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b"},
        {"account_id", "acct_1"},
        {"filename", "shop.csv"},
        {"status", status},
        {"error", status == "failed" ? "The validator refused the batch." : ""},
        {"check_types", "price,product,inventory"},
        {"file_chunks", "3"},
        {"created_at", "2026-11-01T10:00:00.000Z"}};
    const Job job = JobFromHash(stored);
    EXPECT_EQ(JobStatusName(job.status), status);
    EXPECT_EQ(job.file_pieces, 3);
    EXPECT_EQ(job.finished(), status == "done" || status == "failed");
    const std::vector<std::string> written = JobToHashArgs(job);
    EXPECT_EQ(Field(written, "status"), status);
    EXPECT_EQ(Field(written, "check_types"), "price,product,inventory");
    EXPECT_EQ(Field(written, "file_chunks"), "3");
    const nlohmann::json detail = JobDetailJson(job);
    EXPECT_EQ(detail["status"], status);
    EXPECT_EQ(detail["check_types"], "price,product,inventory");
    EXPECT_EQ(detail.contains("error"), status == "failed");
    EXPECT_NE(JobSummaryJson(job).dump().find(R"("status":")" + status + "\""),
              std::string::npos);
  }
}

}  // namespace
}  // namespace dq::gateway
