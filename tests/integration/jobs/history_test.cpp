// Issue 33 points 4 and 5, through the real gateway, worker, validator and Redis: a feed's second
// upload says what changed since the first (previous_job_id, changes), the list finds a feed's
// jobs and searches filenames, max_rows checks and charges only the first rows, and a preview
// keeps its upload so that Start does not send the file again.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <map>

#include "dq/common/redis_client.h"
#include "job_wait.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

// Ten rows; the SKUs in `broken_prices` have a price that is not a number.
std::string Catalogue(const std::vector<int>& broken_prices) {
  std::string csv = "sku,title,price\n";
  for (int r = 1; r <= 10; ++r) {
    const bool broken =
        std::find(broken_prices.begin(), broken_prices.end(), r) != broken_prices.end();
    csv += "SKU-" + std::to_string(r) + ",Mug " + std::to_string(r) + "," +
           (broken ? "abc" : "9.99") + "\n";
  }
  return csv;
}

class HistoryIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1, false,
                                    {{"DQ_RATE_LIMIT_GENERAL", "100000"},
                                     {"DQ_RATE_LIMIT_UPLOAD", "100000"}}});
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  void SetUp() override { std::tie(account_, key_) = stack_->NewAccount(); }

  HttpResult Post(const std::string& path, const std::string& body,
                  std::map<std::string, std::string> headers = {{"Content-Type", "text/csv"}}) {
    headers["X-API-Key"] = key_;
    return Http("POST", stack_->GatewayUrl() + path, headers, body);
  }
  HttpResult Get(const std::string& path) {
    return Http("GET", stack_->GatewayUrl() + path, {{"X-API-Key", key_}});
  }
  json Upload(const std::string& query, const std::string& csv) {
    HttpResult r = Post("/v1/jobs?" + query, csv);
    EXPECT_EQ(r.status, 202) << r.body;
    return json::parse(r.body, nullptr, false);
  }
  json WaitDone(const std::string& id) { return WaitJobEnded(stack_->GatewayUrl(), key_, id); }
  static json Body(const HttpResult& r) { return json::parse(r.body, nullptr, false); }

  static Stack* stack_;
  std::string account_, key_;
};
Stack* HistoryIntegrationTest::stack_ = nullptr;

TEST_F(HistoryIntegrationTest, ASecondUploadOfTheFeedSaysWhatWasResolvedAndWhatIsNew) {
  const json first = Upload("filename=shop.csv&check_types=product,price", Catalogue({2, 3, 4}));
  EXPECT_EQ(first["feed"], "shop.csv (price, product)");
  const json one = WaitDone(first["id"]);
  ASSERT_EQ(one["status"], "done") << one.dump();
  EXPECT_TRUE(one["previous_job_id"].is_null());
  EXPECT_TRUE(one["changes"].is_null());
  // The same feed (check types in another order), with SKU-2 and SKU-3 fixed and SKU-7 broken.
  const json second = Upload("filename=shop.csv&check_types=price,product", Catalogue({4, 7}));
  const json two = WaitDone(second["id"]);
  ASSERT_EQ(two["status"], "done") << two.dump();
  EXPECT_EQ(two["feed"], one["feed"]);
  EXPECT_EQ(two["previous_job_id"], one["id"]);
  const json& c = two["changes"];
  ASSERT_TRUE(c.is_object()) << two.dump();
  EXPECT_EQ(c["keyed_by"], "sku");
  EXPECT_EQ(c["resolved"], 2);
  EXPECT_EQ(c["new"], 1);
  EXPECT_EQ(c["open"], 1);
  ASSERT_FALSE(c["by_code"].empty());
  json resolved_items = json::array();
  for (const auto& code : c["by_code"]) {
    for (const auto& item : code["resolved_items"]) resolved_items.push_back(item);
  }
  std::sort(resolved_items.begin(), resolved_items.end());
  EXPECT_EQ(resolved_items, json({"SKU-2", "SKU-3"}));
  // Stored with the summary, too.
  const json summary = Body(Get("/v1/jobs/" + std::string(two["id"]) + "/summary"));
  EXPECT_EQ(summary["changes"], c);
  EXPECT_EQ(summary["previous_job_id"], one["id"]);

  // Another file, and the same file with other check types, are other feeds.
  const json other = WaitDone(Upload("filename=other.csv&check_types=product,price",
                                     Catalogue({}))["id"]);
  EXPECT_TRUE(other["previous_job_id"].is_null());
  const json product_only =
      WaitDone(Upload("filename=shop.csv&check_types=product", Catalogue({}))["id"]);
  EXPECT_TRUE(product_only["previous_job_id"].is_null());

  // The feed's history: its jobs, newest first, with their scores.
  HttpResult history = Get("/v1/jobs?limit=30&feed=shop.csv%20(price%2C%20product)");
  ASSERT_EQ(history.status, 200) << history.body;
  const json jobs = Body(history);
  ASSERT_EQ(jobs.size(), 2u) << jobs.dump();
  EXPECT_EQ(jobs[0]["id"], two["id"]);
  EXPECT_EQ(jobs[1]["id"], one["id"]);
  EXPECT_GT(jobs[0]["health_score"], jobs[1]["health_score"]);
  EXPECT_EQ(jobs[0]["check_types"], "price,product");

  // The list searched by filename: part of it, in any case.
  const json found = Body(Get("/v1/jobs?filename=SHOP"));
  EXPECT_EQ(found.size(), 3u) << found.dump();
  for (const auto& j : found) EXPECT_EQ(j["filename"], "shop.csv");
  EXPECT_EQ(Body(Get("/v1/jobs?filename=nothing-like-it")).size(), 0u);
  // Only a feed's list may hold 30.
  HttpResult too_many = Get("/v1/jobs?limit=30");
  EXPECT_EQ(too_many.status, 400);
  EXPECT_EQ(Body(too_many)["message"], "limit: must be an integer from 1 to 20");
}

TEST_F(HistoryIntegrationTest, AnExplicitFeedGroupsFilesWithDifferentNames) {
  const json a = WaitDone(Upload("filename=monday.csv&feed=Main%20catalogue", Catalogue({1}))["id"]);
  const json b = WaitDone(Upload("filename=tuesday.csv&feed=Main%20catalogue", Catalogue({}))["id"]);
  EXPECT_EQ(b["feed"], "Main catalogue");
  EXPECT_EQ(b["previous_job_id"], a["id"]);
  EXPECT_EQ(b["changes"]["new"], 0);
  HttpResult bad = Post("/v1/jobs?feed=%20padded", Catalogue({}));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Body(bad)["message"], "feed: must not begin or end with a space");
}

TEST_F(HistoryIntegrationTest, MaxRowsChecksAndChargesOnlyTheFirstRows) {
  const json job = Upload("filename=big.csv&check_types=product,price&max_rows=4",
                          Catalogue({2, 8}));
  EXPECT_EQ(job["max_rows"], 4);
  EXPECT_EQ(job["rows_total"], 4);
  EXPECT_EQ(job["rows_in_file"], 10);
  const json done = WaitDone(job["id"]);
  ASSERT_EQ(done["status"], "done") << done.dump();
  EXPECT_EQ(done["rows_total"], 4);
  EXPECT_EQ(done["stats"]["rows"], 4);
  for (const auto& issue : done["issues"]) EXPECT_LE(issue["issue_row"], 5) << issue.dump();
  EXPECT_EQ(Body(Get("/v1/usage"))["records_used"], 4);
  // The cleaned file still has every row.
  HttpResult cleaned = Get("/v1/jobs/" + std::string(job["id"]) + "/cleaned");
  EXPECT_NE(cleaned.body.find("SKU-10"), std::string::npos);
  // More than the file has: checked whole, and the job says no cut.
  const json whole = Upload("filename=small.csv&max_rows=50", Catalogue({}));
  EXPECT_TRUE(whole["max_rows"].is_null()) << whole.dump();
  EXPECT_EQ(whole["rows_total"], 10);
  HttpResult bad = Post("/v1/jobs?max_rows=0", Catalogue({}));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Body(bad)["message"], "max_rows: must be an integer from 1 to 1000000000");
}

TEST_F(HistoryIntegrationTest, APreviewKeepsItsUploadAndStartUsesItOnce) {
  ASSERT_TRUE(stack_->accounts().SetQuota(account_, 6).ok());
  const std::string csv = Catalogue({1});
  HttpResult preview = Post("/v1/jobs/preview?filename=kept.csv", csv);
  ASSERT_EQ(preview.status, 200) << preview.body;
  const json p = Body(preview);
  EXPECT_EQ(p["rows"], 10);
  EXPECT_EQ(p["quota"]["limit"], 6);
  EXPECT_EQ(p["quota"]["remaining"], 6);
  EXPECT_EQ(p["within_quota"], false);
  EXPECT_EQ(p["quota"]["renews_on"].get<std::string>().substr(8), "01");
  ASSERT_TRUE(p["upload_id"].is_string()) << p.dump();
  const std::string upload_id = p["upload_id"];

  // Over the quota: refused, saying what is left and the date it renews, never seconds.
  HttpResult over = Post("/v1/jobs?upload_id=" + upload_id, "");
  ASSERT_EQ(over.status, 429) << over.body;
  const std::string message = Body(over)["message"];
  EXPECT_EQ(message.rfind("This file has 10 rows to check, and 6 of this month's 6 rows are "
                          "left. Check the first 6 rows now (max_rows), or wait until the quota "
                          "renews on 1 ", 0), 0u) << message;
  EXPECT_EQ(message.find(" s."), std::string::npos);

  // A file and an upload_id together are refused.
  HttpResult both = Post("/v1/jobs?upload_id=" + upload_id, csv);
  EXPECT_EQ(both.status, 400);
  EXPECT_EQ(Body(both)["message"],
            "upload_id: send either a file or the upload_id of its preview, not both");
  // The first 6 rows, from the kept upload: no file sent.
  HttpResult started = Post("/v1/jobs?upload_id=" + upload_id + "&max_rows=6&check_types=product",
                            "");
  ASSERT_EQ(started.status, 202) << started.body;
  const json job = Body(started);
  EXPECT_EQ(job["filename"], "kept.csv");
  EXPECT_EQ(job["rows_total"], 6);
  EXPECT_EQ(job["rows_in_file"], 10);
  EXPECT_EQ(WaitDone(job["id"])["status"], "done");
  EXPECT_EQ(Body(Get("/v1/usage"))["records_used"], 6);

  // Used once: a second Start is told to choose the file again.
  HttpResult again = Post("/v1/jobs?upload_id=" + upload_id, "");
  EXPECT_EQ(again.status, 400);
  EXPECT_EQ(Body(again)["message"],
            "upload_id: the previewed file is no longer kept (it is kept 15 minutes); choose "
            "the file again");
}

TEST_F(HistoryIntegrationTest, AnAccountKeepsOnlyTwoPreviewsAndTheirBytesCount) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    HttpResult preview = Post("/v1/jobs/preview?filename=p" + std::to_string(i) + ".csv",
                              Catalogue({}));
    ASSERT_EQ(preview.status, 200) << preview.body;
    ids.push_back(Body(preview)["upload_id"]);
  }
  // The oldest went; the two newest are kept, and counted in the account's stored bytes.
  EXPECT_EQ(Post("/v1/jobs?upload_id=" + ids[0], "").status, 400);
  EXPECT_EQ(stack_->redis().Cli({"HLEN", AccountKey(account_, "job_bytes")}), "2");
  HttpResult started = Post("/v1/jobs?upload_id=" + ids[2], "");
  ASSERT_EQ(started.status, 202) << started.body;
  EXPECT_EQ(Body(started)["filename"], "p2.csv");
}

TEST_F(HistoryIntegrationTest, LimitsSayTheSizeInMegabytesAndTheQuota) {
  HttpResult r = Get("/v1/jobs/limits");
  ASSERT_EQ(r.status, 200) << r.body;
  const json l = Body(r);
  EXPECT_EQ(l["max_file_bytes"], 52428800);
  EXPECT_EQ(l["max_file_size"], "50 MB");
  EXPECT_EQ(l["kept_upload_minutes"], 15);
  EXPECT_EQ(l["quota"]["used"], 0);
}

}  // namespace
}  // namespace dq::testing
