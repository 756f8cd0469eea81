// The issues page's query (issue_query.h): parsing with exact errors, matching stored records,
// and the scan with its cursor, over an in-memory list of records.
#include "dq/report/issue_query.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dq::report {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

std::string Record(int id, const std::string& code, const std::string& field,
                   const std::string& severity, const std::string& sku) {
  return "{\"id\":" + std::to_string(id) + ",\"issue_row\":" + std::to_string(id + 1) +
         ",\"severity\":\"" + severity + "\",\"field\":\"" + field + "\",\"code\":\"" + code +
         "\",\"message\":\"m\",\"original_value\":\"v\",\"fixed_value\":null,\"sku\":" +
         (sku.empty() ? std::string("null") : "\"" + sku + "\"") +
         ",\"item_id\":null,\"title\":null}";
}

// 100 records: every 10th is INVALID_PRICE (error, price) of SKU-<i>, the others
// WHITESPACE_TRIMMED (warning, title) of SKU-<i>.
std::vector<std::string> Stored() {
  std::vector<std::string> out;
  for (int i = 0; i < 100; ++i) {
    out.push_back(
        i % 10 == 0
            ? Record(i + 1, "INVALID_PRICE", "price", "error", "SKU-" + std::to_string(i))
            : Record(i + 1, "WHITESPACE_TRIMMED", "title", "warning", "SKU-" + std::to_string(i)));
  }
  return out;
}

struct Reader {
  std::vector<std::string> records = Stored();
  int calls = 0;
  IssueReader fn() {
    return [this](int64_t offset, int64_t count) -> Result<std::vector<std::string>> {
      ++calls;
      std::vector<std::string> out;
      for (int64_t i = offset; i < offset + count && i < static_cast<int64_t>(records.size());
           ++i) {
        out.push_back(records[i]);
      }
      return out;
    };
  }
};

IssueQuery Parse(const Params& p) {
  auto q = ParseIssueQuery(p, 1000, 10000);
  EXPECT_TRUE(q.ok()) << q.status().message();
  return q.ok() ? *q : IssueQuery{};
}

std::string Error(const Params& p) {
  auto q = ParseIssueQuery(p, 1000, 10000);
  EXPECT_FALSE(q.ok());
  return q.ok() ? "" : q.status().message();
}

TEST(IssueQuery, ParsesFiltersRepeatedAndCommaSeparated) {
  const IssueQuery q = Parse({{"format", "json"},
                              {"code", "INVALID_PRICE, MISSING_SKU"},
                              {"code", "INVALID_PRICE"},
                              {"field", "price"},
                              {"severity", "error"},
                              {"sku", "A-1,B-2"},
                              {"limit", "5"}});
  EXPECT_EQ(q.codes, (std::vector<std::string>{"INVALID_PRICE", "MISSING_SKU"}));
  EXPECT_EQ(q.fields, (std::vector<std::string>{"price"}));
  EXPECT_EQ(q.severities, (std::vector<std::string>{"error"}));
  EXPECT_EQ(q.skus, (std::vector<std::string>{"A-1", "B-2"}));
  EXPECT_EQ(q.limit, 5);
  EXPECT_TRUE(q.Filtered());
  EXPECT_FALSE(Parse({{"code", ""}, {"offset", "3"}}).Filtered());
  EXPECT_EQ(Parse({}).limit, 1000);
}

TEST(IssueQuery, RefusesWhatItDoesNotKnowNamingIt) {
  struct Case {
    const char* name;
    Params params;
    std::string message;
  } cases[] = {
      {"unknown name",
       {{"cod", "X"}},
       "Unknown parameter cod; the issues take format, offset, limit, cursor, code, field, "
       "severity and sku."},
      {"unknown names",
       {{"cod", "X"}, {"page", "2"}, {"cod", "Y"}},
       "Unknown parameters cod, page; the issues take format, offset, limit, cursor, code, field, "
       "severity and sku."},
      {"unknown code",
       {{"code", "INVALID_PRICE,NOPE"}},
       "code: unknown issue code NOPE; GET /v1/issue-codes lists them"},
      {"unknown codes",
       {{"code", "nope,NOPE2"}},
       "code: unknown issue codes nope, NOPE2; GET /v1/issue-codes lists them"},
      {"unknown field",
       {{"field", "prize"}},
       "field: unknown field prize; use the standard field names"},
      {"severity", {{"severity", "error,fatal"}}, "severity: must be error or warning, not fatal"},
      {"cursor",
       {{"cursor", "abc"}},
       "cursor: is not a next_cursor this endpoint gave; start again without it"},
      {"cursor and offset",
       {{"cursor", "p10"}, {"offset", "1"}},
       "cursor: give either cursor or offset, not both"},
      {"limit", {{"limit", "0"}}, "limit: must be an integer from 1 to 10000"},
      {"offset", {{"offset", "-1"}}, "offset: must be an integer from 0 to 4611686018427387903"},
  };
  for (const Case& c : cases) EXPECT_EQ(Error(c.params), c.message) << c.name;
  auto q = ParseIssueQuery({{"cod", "X"}}, 1000, 10000);
  ASSERT_EQ(q.status().details().size(), 1u);
  EXPECT_EQ(q.status().details()[0].field, "cod");
  EXPECT_EQ(q.status().code(), ErrorCode::kInvalidRequest);
}

TEST(IssueQuery, CursorRoundTripsAndRefusesForgeries) {
  EXPECT_EQ(DecodeCursor(EncodeCursor(0)), 0);
  EXPECT_EQ(DecodeCursor(EncodeCursor(123456)), 123456);
  for (const char* bad : {"", "p", "q12", "p-1", "p1x", "p99999999999999999999"}) {
    EXPECT_FALSE(DecodeCursor(bad).has_value()) << bad;
  }
}

TEST(IssueQuery, MatchesEveryFilterExactly) {
  const std::string r = Record(1, "INVALID_PRICE", "price", "error", "SKU-1");
  EXPECT_TRUE(Matches(Parse({}), r));
  EXPECT_TRUE(Matches(Parse({{"code", "INVALID_PRICE"}}), r));
  EXPECT_FALSE(Matches(Parse({{"code", "MISSING_SKU"}}), r));
  EXPECT_TRUE(Matches(Parse({{"code", "MISSING_SKU,INVALID_PRICE"}}), r));
  EXPECT_TRUE(Matches(Parse({{"field", "price"}, {"severity", "error"}}), r));
  EXPECT_FALSE(Matches(Parse({{"field", "price"}, {"severity", "warning"}}), r));
  EXPECT_TRUE(Matches(Parse({{"sku", "SKU-1"}}), r));
  EXPECT_FALSE(Matches(Parse({{"sku", "SKU-10"}}), r));  // exact, not a prefix
  EXPECT_FALSE(Matches(Parse({{"sku", "sku-1"}}), r));   // exact case
  EXPECT_FALSE(Matches(Parse({{"sku", "SKU-1"}}),
                       Record(1, "INVALID_PRICE", "price", "error", "")));  // null sku
  EXPECT_FALSE(Matches(Parse({{"code", "INVALID_PRICE"}}), "not json"));
  // A value that spells another member never passes for it.
  const std::string tricky =
      "{\"id\":1,\"issue_row\":1,\"severity\":\"warning\",\"field\":\"title\","
      "\"code\":\"WHITESPACE_TRIMMED\",\"message\":\"m\",\"original_value\":"
      "\"\\\"code\\\":\\\"INVALID_PRICE\\\"\",\"fixed_value\":null,\"sku\":null}";
  EXPECT_TRUE(Matches(Parse({{"code", "WHITESPACE_TRIMMED"}}), tricky));
  EXPECT_FALSE(Matches(Parse({{"code", "INVALID_PRICE"}}), tricky));
}

TEST(IssueQuery, UnfilteredPagesAreOffsetsWithACursorToTheNext) {
  Reader reader;
  auto page = CollectIssues(Parse({{"offset", "90"}, {"limit", "4"}}), 100, reader.fn(), 1000);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->issues.size(), 4u);
  EXPECT_EQ(page->issues[0], reader.records[90]);
  EXPECT_EQ(page->next, 94);
  auto last = CollectIssues(Parse({{"cursor", EncodeCursor(*page->next)}, {"limit", "10"}}), 100,
                            reader.fn(), 1000);
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->issues.size(), 6u);
  EXPECT_EQ(last->issues.back(), reader.records[99]);
  EXPECT_FALSE(last->next.has_value());
  auto past = CollectIssues(Parse({{"offset", "500"}}), 100, reader.fn(), 1000);
  ASSERT_TRUE(past.ok());
  EXPECT_TRUE(past->issues.empty());
  EXPECT_FALSE(past->next.has_value());
}

// Following next_cursor from the first page visits every match once, in stored order, however
// the pages and the scan bound cut the list.
TEST(IssueQuery, FilteredCursorVisitsEveryMatchOnce) {
  for (int64_t limit : {int64_t{1}, int64_t{3}, int64_t{7}, int64_t{100}}) {
    for (int64_t batch : {int64_t{1}, int64_t{4}, int64_t{1000}}) {
      for (int64_t max_scanned : {int64_t{5}, int64_t{25}, kMaxScanned}) {
        Reader reader;
        IssueQuery q = Parse({{"severity", "error"}, {"limit", std::to_string(limit)}});
        std::vector<std::string> seen;
        int pages = 0;
        while (true) {
          auto page = CollectIssues(q, 100, reader.fn(), batch, max_scanned);
          ASSERT_TRUE(page.ok());
          ASSERT_LE(static_cast<int64_t>(page->issues.size()), limit);
          seen.insert(seen.end(), page->issues.begin(), page->issues.end());
          ASSERT_LT(++pages, 200);
          if (!page->next) break;
          q.cursor = page->next;
        }
        std::vector<std::string> want;
        for (int i = 0; i < 100; i += 10) want.push_back(reader.records[i]);
        EXPECT_EQ(seen, want) << limit << " " << batch << " " << max_scanned;
      }
    }
  }
}

TEST(IssueQuery, FilteredOffsetSkipsMatchesAndTheScanIsBounded) {
  Reader reader;
  auto page = CollectIssues(Parse({{"code", "INVALID_PRICE"}, {"offset", "2"}, {"limit", "2"}}),
                            100, reader.fn(), 1000);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->issues.size(), 2u);
  EXPECT_EQ(page->issues[0], reader.records[20]);
  EXPECT_EQ(page->issues[1], reader.records[30]);
  EXPECT_EQ(page->next, 31);  // right after the last match taken

  // A SKU that is nowhere: the scan stops at the bound and says where to go on.
  Reader bounded;
  auto none = CollectIssues(Parse({{"sku", "NOPE"}}), 100, bounded.fn(), 10, 30);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->issues.empty());
  EXPECT_EQ(none->next, 30);
  EXPECT_EQ(bounded.calls, 3);

  auto one = CollectIssues(Parse({{"sku", "SKU-42"}}), 100, reader.fn(), 1000);
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->issues.size(), 1u);
  EXPECT_EQ(one->issues[0], reader.records[42]);
  EXPECT_FALSE(one->next.has_value());
}

TEST(IssueQuery, AStoreErrorIsTheAnswer) {
  IssueReader failing = [](int64_t, int64_t) -> Result<std::vector<std::string>> {
    return Status(ErrorCode::kUnavailable, "store down");
  };
  for (const Params& p : {Params{}, Params{{"code", "INVALID_PRICE"}}}) {
    auto page = CollectIssues(Parse(p), 100, failing, 10);
    ASSERT_FALSE(page.ok());
    EXPECT_EQ(page.status().message(), "store down");
  }
}

}  // namespace
}  // namespace dq::report
