// The report's queries through the real gateway, workers, validator and Redis: the issue
// catalogue (GET /v1/issue-codes and its console mirror's shape), and the issues page's filters
// and cursor in JSON and CSV, with the exact 400s for what it does not know.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "job_wait.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

class IssuesQueryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{
        1, false, {{"DQ_RATE_LIMIT_GENERAL", "100000"}, {"DQ_RATE_LIMIT_UPLOAD", "100000"}}});
    auto [account, key] = stack_->NewAccount();
    key_ = new std::string(key);
    // 40 rows: every 4th row has no SKU (MISSING_SKU, error), every row a bad price (INVALID_PRICE,
    // error), and odd rows a title with spaces around it (WHITESPACE_TRIMMED, warning).
    std::string csv = "sku,title,price\n";
    for (int i = 0; i < 40; ++i) {
      csv += (i % 4 == 0 ? std::string() : "S-" + std::to_string(i)) + "," +
             (i % 2 ? " Mug " : "Mug") + ",-1\n";
    }
    HttpResult r = Http("POST", stack_->GatewayUrl() + "/v1/jobs?filename=q.csv",
                        {{"X-API-Key", *key_}, {"Content-Type", "text/csv"}}, csv);
    ASSERT_EQ(r.status, 202) << r.body;
    job_ = new std::string(json::parse(r.body)["id"].get<std::string>());
    ASSERT_EQ(WaitJobEnded(stack_->GatewayUrl(), *key_, *job_, std::chrono::seconds(30))["status"],
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
  static json Issues(const std::string& query) {
    HttpResult r = Get("/v1/jobs/" + *job_ + "/issues?" + query);
    EXPECT_EQ(r.status, 200) << query << ": " << r.body;
    return json::parse(r.body);
  }
  // Every issue matching `query`, following next_cursor from the first page.
  static std::vector<json> All(const std::string& query, int* pages) {
    std::vector<json> out;
    json page = Issues(query);
    *pages = 1;
    while (true) {
      for (const auto& i : page["issues"]) out.push_back(i);
      if (page["next_cursor"].is_null()) break;
      page = Issues(query + "&cursor=" + page["next_cursor"].get<std::string>());
      if (++*pages > 100) break;
    }
    return out;
  }

  static Stack* stack_;
  static std::string* key_;
  static std::string* job_;
};
Stack* IssuesQueryTest::stack_ = nullptr;
std::string* IssuesQueryTest::key_ = nullptr;
std::string* IssuesQueryTest::job_ = nullptr;

TEST_F(IssuesQueryTest, CatalogueListsEveryCodeWithItsGuidance) {
  HttpResult r = Get("/v1/issue-codes");
  ASSERT_EQ(r.status, 200) << r.body;
  const json codes = json::parse(r.body)["issue_codes"];
  ASSERT_GT(codes.size(), 90u);
  const json* currency = nullptr;
  for (const auto& c : codes) {
    if (c["code"] == "INVALID_CURRENCY") currency = &c;
  }
  ASSERT_NE(currency, nullptr);
  EXPECT_EQ((*currency)["severity"], "error");
  EXPECT_EQ((*currency)["fields"], json::array({"currency"}));
  EXPECT_EQ((*currency)["example"]["before"], "US$");
  EXPECT_EQ((*currency)["example"]["after"], "USD");
  EXPECT_EQ((*currency)["docs_url"], "docs/issue-codes.md#invalid_currency");
  EXPECT_FALSE((*currency)["how_to_fix"].get<std::string>().empty());
  EXPECT_EQ(Http("GET", stack_->GatewayUrl() + "/v1/issue-codes").status, 401);
}

TEST_F(IssuesQueryTest, FiltersAreExactAndCombine) {
  int pages = 0;
  auto missing = All("code=MISSING_SKU", &pages);
  ASSERT_EQ(missing.size(), 10u);
  for (const auto& i : missing) EXPECT_EQ(i["code"], "MISSING_SKU");

  auto warnings = All("severity=warning&field=title", &pages);
  ASSERT_EQ(warnings.size(), 20u);
  for (const auto& i : warnings) EXPECT_EQ(i["code"], "WHITESPACE_TRIMMED");

  auto one = All("sku=S-5", &pages);
  ASSERT_EQ(one.size(), 2u);  // its price and its title
  std::set<std::string> codes;
  for (const auto& i : one) {
    EXPECT_EQ(i["sku"], "S-5");
    codes.insert(i["code"].get<std::string>());
  }
  EXPECT_EQ(codes, (std::set<std::string>{"INVALID_PRICE", "WHITESPACE_TRIMMED"}));

  auto either = All("sku=S-5,S-6&code=INVALID_PRICE", &pages);
  ASSERT_EQ(either.size(), 2u);
  EXPECT_TRUE(All("sku=s-5", &pages).empty());  // exact case
}

TEST_F(IssuesQueryTest, CursorWalksEveryMatchOnceInOrder) {
  int pages = 0;
  auto all = All("code=INVALID_PRICE&limit=7", &pages);
  ASSERT_EQ(all.size(), 40u);
  EXPECT_GE(pages, 6);
  for (size_t k = 1; k < all.size(); ++k) {
    EXPECT_GT(all[k]["id"].get<int64_t>(), all[k - 1]["id"].get<int64_t>());
  }
  // Unfiltered pages keep offset and limit, and gain a cursor to the next.
  json first = Issues("offset=0&limit=30");
  EXPECT_EQ(first["offset"], 0);
  EXPECT_EQ(first["limit"], 30);
  ASSERT_EQ(first["issues"].size(), 30u);
  const int64_t total = first["total"];
  EXPECT_EQ(total, 70);
  json second = Issues("limit=30&cursor=" + first["next_cursor"].get<std::string>());
  EXPECT_EQ(second["issues"][0]["id"], 31);
  json third = Issues("limit=30&cursor=" + second["next_cursor"].get<std::string>());
  EXPECT_EQ(third["issues"].size(), 10u);
  EXPECT_TRUE(third["next_cursor"].is_null());
}

TEST_F(IssuesQueryTest, CsvTakesTheSameFilters) {
  HttpResult r = Get("/v1/jobs/" + *job_ + "/issues?format=csv&code=MISSING_SKU&limit=4");
  ASSERT_EQ(r.status, 200);
  std::istringstream lines(r.body);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line,
            "id,issue_row,severity,field,code,message,original_value,fixed_value,sku,item_id,"
            "title\r");
  int rows = 0;
  while (std::getline(lines, line)) {
    EXPECT_NE(line.find(",MISSING_SKU,"), std::string::npos) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 4);
  EXPECT_FALSE(r.Header("x-next-cursor").empty());
}

TEST_F(IssuesQueryTest, UnknownNamesAndValuesAre400NamingThem) {
  struct Case {
    std::string query, message;
  } cases[] = {
      {"cod=MISSING_SKU",
       "Unknown parameter cod; the issues take format, offset, limit, cursor, code, field, "
       "severity and sku."},
      {"code=MISSING_SKU,NOT_A_CODE",
       "code: unknown issue code NOT_A_CODE; GET /v1/issue-codes lists them"},
      {"field=prize", "field: unknown field prize; use the standard field names"},
      {"severity=fatal", "severity: must be error or warning, not fatal"},
      {"cursor=zz", "cursor: is not a next_cursor this endpoint gave; start again without it"},
  };
  for (const auto& c : cases) {
    HttpResult r = Get("/v1/jobs/" + *job_ + "/issues?" + c.query);
    EXPECT_EQ(r.status, 400) << c.query;
    const json body = json::parse(r.body);
    EXPECT_EQ(body["error"], "invalid_request") << c.query;
    EXPECT_EQ(body["message"], c.message) << c.query;
  }
}

TEST_F(IssuesQueryTest, SummaryListsErrorsBeforeWarnings) {
  const json s = json::parse(Get("/v1/jobs/" + *job_ + "/summary").body);
  std::vector<std::string> order;
  for (const auto& c : s["by_code"]) order.push_back(c["code"]);
  EXPECT_EQ(order,
            (std::vector<std::string>{"INVALID_PRICE", "MISSING_SKU", "WHITESPACE_TRIMMED"}));
}

}  // namespace
}  // namespace dq::testing
