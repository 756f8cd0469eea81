// The job page's two reads through the real gateway, workers, validator and Redis: the issues
// CSV of every issue (limit=all, streamed page by page past the endpoint's page limits) with the
// filters and offset, and the job detail without its issues (issues=none) for the page's header.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "job_wait.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

// 1,200 rows: every row a bad price (INVALID_PRICE, error), odd rows a title with spaces around
// it (WHITESPACE_TRIMMED, warning): 1,800 issues, more than the default page (1,000) and than
// one page of the store (1,000).
constexpr int kRows = 1200;
constexpr int kIssues = 1800;

class JobPageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{
        1, false, {{"DQ_RATE_LIMIT_GENERAL", "100000"}, {"DQ_RATE_LIMIT_UPLOAD", "100000"}}});
    auto [account, key] = stack_->NewAccount();
    key_ = new std::string(key);
    std::string csv = "sku,title,price\n";
    for (int i = 0; i < kRows; ++i) {
      csv += "S-" + std::to_string(i) + "," + (i % 2 ? " Mug " : "Mug") + ",-1\n";
    }
    HttpResult r = Http("POST", stack_->GatewayUrl() + "/v1/jobs?filename=big.csv",
                        {{"X-API-Key", *key_}, {"Content-Type", "text/csv"}}, csv);
    ASSERT_EQ(r.status, 202) << r.body;
    job_ = new std::string(json::parse(r.body)["id"].get<std::string>());
    ASSERT_EQ(WaitJobEnded(stack_->GatewayUrl(), *key_, *job_, std::chrono::seconds(60))["status"],
              "done");
  }
  static void TearDownTestSuite() {
    delete stack_;
    delete key_;
    delete job_;
  }
  static HttpResult Get(const std::string& path) {
    return Http("GET", stack_->GatewayUrl() + path, {{"X-API-Key", *key_}});
  }
  // The data lines of a CSV answer (header left out), after checking the header.
  static std::vector<std::string> CsvRows(const HttpResult& r) {
    std::istringstream lines(r.body);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line,
              "id,issue_row,severity,field,code,message,original_value,fixed_value,sku,item_id,"
              "title\r");
    std::vector<std::string> rows;
    while (std::getline(lines, line)) rows.push_back(line);
    return rows;
  }
  static int IdOf(const std::string& row) { return std::stoi(row.substr(0, row.find(','))); }

  static Stack* stack_;
  static std::string* key_;
  static std::string* job_;
};
Stack* JobPageTest::stack_ = nullptr;
std::string* JobPageTest::key_ = nullptr;
std::string* JobPageTest::job_ = nullptr;

TEST_F(JobPageTest, CsvWithoutLimitIsTheFirstPageOnly) {
  HttpResult r = Get("/v1/jobs/" + *job_ + "/issues?format=csv");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(CsvRows(r).size(), 1000u);
  EXPECT_FALSE(r.Header("x-next-cursor").empty());
}

TEST_F(JobPageTest, CsvLimitAllHasEveryIssueOnceInOrder) {
  HttpResult r = Get("/v1/jobs/" + *job_ + "/issues?format=csv&limit=all");
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
  EXPECT_EQ(r.Header("content-type"), "text/csv; charset=utf-8");
  EXPECT_EQ(r.Header("x-total-count"), std::to_string(kIssues));
  EXPECT_TRUE(r.Header("x-next-cursor").empty());
  const auto rows = CsvRows(r);
  ASSERT_EQ(rows.size(), static_cast<size_t>(kIssues));
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(IdOf(rows[i]), static_cast<int>(i) + 1);
}

TEST_F(JobPageTest, CsvLimitAllKeepsTheFiltersAndOffset) {
  HttpResult warnings =
      Get("/v1/jobs/" + *job_ + "/issues?format=csv&limit=all&code=WHITESPACE_TRIMMED");
  ASSERT_EQ(warnings.status, 200) << warnings.body.substr(0, 300);
  const auto rows = CsvRows(warnings);
  ASSERT_EQ(rows.size(), static_cast<size_t>(kRows / 2));
  for (const auto& row : rows) ASSERT_NE(row.find(",WHITESPACE_TRIMMED,"), std::string::npos) << row;

  HttpResult tail = Get("/v1/jobs/" + *job_ + "/issues?format=csv&limit=all&offset=1500");
  ASSERT_EQ(tail.status, 200);
  const auto last = CsvRows(tail);
  ASSERT_EQ(last.size(), static_cast<size_t>(kIssues - 1500));
  EXPECT_EQ(IdOf(last.front()), 1501);

  HttpResult sku = Get("/v1/jobs/" + *job_ + "/issues?format=csv&limit=all&sku=S-1199,S-3");
  ASSERT_EQ(sku.status, 200);
  EXPECT_EQ(CsvRows(sku).size(), 4u);  // a price and a title each
}

TEST_F(JobPageTest, LimitAllIsOnlyForTheCsv) {
  struct Case {
    std::string query, message;
  } cases[] = {
      {"limit=all",
       "limit: all is only for format=csv; the JSON form pages with next_cursor, at most 10000 "
       "issues a page"},
      {"format=json&limit=all",
       "limit: all is only for format=csv; the JSON form pages with next_cursor, at most 10000 "
       "issues a page"},
      {"format=csv&limit=al", "limit: must be an integer from 1 to 10000"},
      {"format=csv&limit=all&cursor=p1000",
       "cursor: limit=all starts at the first issue (or at offset)"},
  };
  for (const auto& c : cases) {
    HttpResult r = Get("/v1/jobs/" + *job_ + "/issues?" + c.query);
    EXPECT_EQ(r.status, 400) << c.query;
    const json body = json::parse(r.body, nullptr, false);
    EXPECT_EQ(body["error"], "invalid_request") << c.query;
    EXPECT_EQ(body["message"], c.message) << c.query;
  }
}

TEST_F(JobPageTest, DetailWithoutIssuesHasEverythingElse) {
  HttpResult full = Get("/v1/jobs/" + *job_);
  ASSERT_EQ(full.status, 200);
  json whole = json::parse(full.body);
  ASSERT_EQ(whole["issues"].size(), static_cast<size_t>(kIssues));

  HttpResult light = Get("/v1/jobs/" + *job_ + "?issues=none");
  ASSERT_EQ(light.status, 200);
  EXPECT_LT(light.body.size(), 4000u);
  json header = json::parse(light.body);
  EXPECT_FALSE(header.contains("issues"));
  whole.erase("issues");
  EXPECT_EQ(header, whole);
  EXPECT_EQ(header["issues_total"], kIssues);

  EXPECT_EQ(json::parse(Get("/v1/jobs/" + *job_ + "?issues=all").body)["issues"].size(),
            static_cast<size_t>(kIssues));
  HttpResult bad = Get("/v1/jobs/" + *job_ + "?issues=some");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(json::parse(bad.body)["message"], "issues: must be all or none");
  EXPECT_EQ(Get("/v1/jobs/00000000-0000-4000-8000-000000000000?issues=none").status, 404);
}

}  // namespace
}  // namespace dq::testing
