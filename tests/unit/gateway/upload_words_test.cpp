// The words the upload path uses (issue 33 points 4, 5 and 7): sizes in MB that agree with the
// limit, the day a quota renews, a feed's default name and the list's filters.
#include <gtest/gtest.h>

#include "dq/common/time_format.h"
#include "jobs/job.h"
#include "jobs/job_store.h"
#include "jobs/jobs_api.h"
#include "jobs/upload_request.h"

namespace dq::gateway {
namespace {

std::chrono::system_clock::time_point At(const char* iso) {
  return std::chrono::system_clock::time_point(
      std::chrono::milliseconds(*ParseIso8601Millis(iso)));
}

TEST(Megabytes, TheLimitAndWhatPassesItReadInWholeMegabytes) {
  EXPECT_EQ(Megabytes(52428800), "50 MB");    // DQ_UPLOAD_MAX_BYTES
  EXPECT_EQ(Megabytes(53477376), "51 MB");    // the edge's body limit: 1 MB of form room more
  EXPECT_EQ(Megabytes(62914560), "60 MB");
  EXPECT_EQ(Megabytes(1572864), "1.5 MB");    // below 10 MB, one decimal
  EXPECT_EQ(Megabytes(1048576), "1 MB");
  EXPECT_EQ(FileTooLarge(62914560, 52428800).message(),
            "The file is 60 MB; a file may be at most 50 MB. Split it into smaller files and "
            "upload each.");
  EXPECT_EQ(FileTooLarge(62914560, 52428800).code(), ErrorCode::kFileTooLarge);
}

TEST(QuotaRenewal, IsTheFirstOfNextMonthAsADay) {
  EXPECT_EQ(QuotaRenewal(At("2026-11-26T09:42:00.000Z")),
            std::make_pair(std::string("1 December"), std::string("2026-12-01")));
  EXPECT_EQ(QuotaRenewal(At("2026-12-31T23:59:59.999Z")),
            std::make_pair(std::string("1 January"), std::string("2027-01-01")));
  EXPECT_EQ(QuotaRenewal(At("2027-02-01T00:00:00.000Z")).second, "2027-03-01");
}

TEST(DefaultFeed, IsTheFileNameAndTheSortedCheckTypes) {
  EXPECT_EQ(DefaultFeed("shop.csv", CheckTypeList::FromText("product,price")), "shop.csv (price, product)");
  EXPECT_EQ(DefaultFeed("shop.csv", CheckTypeList::FromText("price,product")), "shop.csv (price, product)");
  EXPECT_EQ(DefaultFeed("shop.csv", CheckTypeList::FromText("product")), "shop.csv (product)");
}

TEST(JobMatches, FeedExactlyAndFilenameInPartInAnyCase) {
  JobQuery q;
  EXPECT_TRUE(JobMatches(q, "", "x.csv"));
  q.feed = "shop.csv (product)";
  EXPECT_TRUE(JobMatches(q, "shop.csv (product)", "shop.csv"));
  EXPECT_FALSE(JobMatches(q, "shop.csv (price, product)", "shop.csv"));
  q.feed.clear();
  q.filename_contains = "SHOP";
  EXPECT_TRUE(JobMatches(q, "", "my-shop.csv"));
  EXPECT_FALSE(JobMatches(q, "", "catalogue.csv"));
}

TEST(JobHash, FeedChangesAndMaxRowsSurviveTheStore) {
  Job j;
  j.id = "x";
  j.feed = "Main catalogue";
  j.previous_job_id = "p";
  j.changes = R"({"new":1})";
  j.max_rows = 960;
  j.rows_in_file = 1200;
  std::vector<std::string> args = JobToHashArgs(j);
  std::vector<std::pair<std::string, std::string>> fields;
  for (size_t i = 0; i + 1 < args.size(); i += 2) fields.emplace_back(args[i], args[i + 1]);
  const Job back = JobFromHash(fields);
  EXPECT_EQ(back.feed, "Main catalogue");
  EXPECT_EQ(back.previous_job_id, "p");
  EXPECT_EQ(back.changes, R"({"new":1})");
  EXPECT_EQ(back.max_rows, 960);
  EXPECT_EQ(back.rows_in_file, 1200);
  EXPECT_EQ(JobDetailJson(back)["changes"]["new"], 1);
  Job old;  // a job from before feeds
  EXPECT_TRUE(JobSummaryJson(old)["feed"].is_null());
  EXPECT_TRUE(JobDetailJson(old)["changes"].is_null());
}

}  // namespace
}  // namespace dq::gateway
