// What changed between two jobs of a feed (dq/report/job_changes.h): new, resolved and still open
// issues, by code, keyed by SKU or by row; the record reader on every shape a record can take.
#include "dq/report/job_changes.h"

#include <gtest/gtest.h>

#include <string>

#include "dq/report/issue_json.h"

namespace dq::report {
namespace {

using nlohmann::json;

// A stored record, written by the one issue encoder the store uses.
std::string Record(int64_t id, uint64_t row, const std::string& code, const std::string& field,
                   const std::string& sku, validator::v1::Severity severity =
                                               validator::v1::SEVERITY_ERROR) {
  validator::v1::Issue i;
  i.set_row(row);
  i.set_code(code);
  i.set_field(field);
  i.set_severity(severity);
  i.set_message("m");
  i.set_original_value("v, \"quoted\" {not: a key}");
  return report::IssueJson(id, i, report::ItemNames{sku, "", "Title " + sku});
}

// "S<i>" (appended, not Sku(i): GCC 12 warns falsely on that, bug 105329).
std::string Sku(int i) {
  std::string s = "S";
  s += std::to_string(i);
  return s;
}

const json* Code(const json& changes, const std::string& code) {
  for (const auto& c : changes["by_code"]) {
    if (c["code"] == code) return &c;
  }
  return nullptr;
}

TEST(ReadIssueRecordKey, ReadsTheMembersThatNameAnIssue) {
  const std::string r = Record(7, 12, "INVALID_PRICE", "price", "SKU-1");
  auto key = ReadIssueRecordKey(r);
  ASSERT_TRUE(key.has_value()) << r;
  EXPECT_EQ(key->code, "INVALID_PRICE");
  EXPECT_EQ(key->field, "price");
  EXPECT_EQ(key->sku, "SKU-1");
  EXPECT_EQ(key->issue_row, "12");
  EXPECT_EQ(key->severity, "error");
}

TEST(ReadIssueRecordKey, ANullSkuIsEmptyAndValuesThatLookLikeKeysAreNotRead) {
  const std::string r = R"({"id":1,"issue_row":3,"field":"sku","original_value":"\"code\":\"X\"",)"
                        R"("code":"MISSING_SKU","sku":null,"channels":["a","b]"]})";
  auto key = ReadIssueRecordKey(r);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->code, "MISSING_SKU");
  EXPECT_EQ(key->sku, "");
  EXPECT_EQ(key->issue_row, "3");
}

TEST(ReadIssueRecordKey, RefusesWhatIsNotARecord) {
  for (const char* bad : {"", "[]", "{", R"({"id":1})", R"({"code":})", R"({"code":"X")",
                          R"({"code":"X",)", "null", R"({"code":"A" "b":1})"}) {
    EXPECT_FALSE(ReadIssueRecordKey(bad).has_value()) << bad;
  }
}

TEST(CompareIssues, CountsNewResolvedAndOpenByCodeKeyedBySku) {
  IssueKeys before, after;
  // Before: A1 and A2 have a bad price, A3 a bad GTIN.
  before.Add(Record(1, 2, "INVALID_PRICE", "price", "A1"));
  before.Add(Record(2, 3, "INVALID_PRICE", "price", "A2"));
  before.Add(Record(3, 4, "INVALID_GTIN", "gtin", "A3"));
  // After: A1's price is fixed; A2 moved rows (same SKU: still open); A4 is new.
  after.Add(Record(1, 9, "INVALID_PRICE", "price", "A2"));
  after.Add(Record(2, 4, "INVALID_GTIN", "gtin", "A3"));
  after.Add(Record(3, 5, "INVALID_GTIN", "gtin", "A4"));
  after.Add(Record(4, 6, "TITLE_WHITESPACE", "title", "A4", validator::v1::SEVERITY_WARNING));
  json c = CompareIssues(before, after, {.previous_job_id = "p1"});
  EXPECT_EQ(c["previous_job_id"], "p1");
  EXPECT_EQ(c["keyed_by"], "sku");
  EXPECT_EQ(c["complete"], true);
  EXPECT_EQ(c["new"], 2);
  EXPECT_EQ(c["resolved"], 1);
  EXPECT_EQ(c["open"], 2);
  const json* price = Code(c, "INVALID_PRICE");
  ASSERT_NE(price, nullptr);
  EXPECT_EQ((*price)["resolved"], 1);
  EXPECT_EQ((*price)["open"], 1);
  EXPECT_EQ((*price)["new"], 0);
  EXPECT_EQ((*price)["resolved_items"], json::array({"A1"}));
  const json* gtin = Code(c, "INVALID_GTIN");
  ASSERT_NE(gtin, nullptr);
  EXPECT_EQ((*gtin)["new"], 1);
  EXPECT_EQ((*gtin)["open"], 1);
  EXPECT_EQ((*gtin)["new_items"], json::array({"A4"}));
  // Errors first; the warning last.
  ASSERT_EQ(c["by_code"].size(), 3u);
  EXPECT_EQ(c["by_code"][2]["code"], "TITLE_WHITESPACE");
  EXPECT_EQ(c["by_code"][2]["severity"], "warning");
}

TEST(CompareIssues, RowsWithoutSkuAreKeyedByRowAndNeverMatchASkuThatReadsTheSame) {
  IssueKeys before, after;
  before.Add(Record(1, 5, "MISSING_SKU", "sku", ""));
  before.Add(Record(2, 6, "MISSING_SKU", "sku", ""));
  after.Add(Record(1, 5, "MISSING_SKU", "sku", ""));
  after.Add(Record(2, 7, "MISSING_SKU", "sku", "5"));  // a SKU "5" is not row 5
  json c = CompareIssues(before, after, {});
  EXPECT_EQ(c["keyed_by"], "sku_or_row");
  EXPECT_EQ(c["open"], 1);
  EXPECT_EQ(c["resolved"], 1);
  EXPECT_EQ(c["new"], 1);
  EXPECT_EQ((*Code(c, "MISSING_SKU"))["resolved_items"], json::array({"row 6"}));
}

TEST(CompareIssues, TheSameIssueTwiceInOneJobCountsOnceAndFieldsKeepIssuesApart) {
  IssueKeys before, after;
  before.Add(Record(1, 2, "INVALID_PRICE", "price", "A1"));
  before.Add(Record(2, 3, "INVALID_PRICE", "price", "A1"));  // a variant row of the same SKU
  after.Add(Record(1, 2, "INVALID_PRICE", "sale_price", "A1"));
  json c = CompareIssues(before, after, {});
  EXPECT_EQ(c["resolved"], 1);
  EXPECT_EQ(c["new"], 1);
  EXPECT_EQ(c["open"], 0);
}

TEST(CompareIssues, ListsAtMostItemsPerCodeAndSaysWhenIncomplete) {
  IssueKeys before, after;
  for (int i = 0; i < 20; ++i) {
    before.Add(Record(i + 1, i + 2, "X", "sku", Sku(i)));
  }
  json c = CompareIssues(before, after,
                         {.previous_job_id = "", .complete = false, .items_per_code = 3});
  EXPECT_EQ(c["resolved"], 20);
  EXPECT_EQ((*Code(c, "X"))["resolved_items"].size(), 3u);
  EXPECT_EQ(c["complete"], false);
}

TEST(CompareIssues, NoIssuesOnEitherSideIsAllZero) {
  IssueKeys before, after;
  json c = CompareIssues(before, after, {});
  EXPECT_EQ(c["new"], 0);
  EXPECT_EQ(c["resolved"], 0);
  EXPECT_EQ(c["open"], 0);
  EXPECT_TRUE(c["by_code"].empty());
}

TEST(CompareIssues, LongAndEscapedSkusAreDecodedAndCutOnACharacterBoundary) {
  IssueKeys before, after;
  const std::string long_sku = std::string(63, 'a') + "\xC3\xA9" + "tail";  // é across byte 64
  before.Add(Record(1, 2, "X", "sku", long_sku));
  before.Add(Record(2, 3, "X", "sku", "say \"hi\""));
  json c = CompareIssues(before, after, {});
  const json& items = (*Code(c, "X"))["resolved_items"];
  ASSERT_EQ(items.size(), 2u);
  bool saw_long = false, saw_quoted = false;
  for (const auto& item : items) {
    if (item == std::string(63, 'a')) saw_long = true;
    if (item == "say \"hi\"") saw_quoted = true;
  }
  EXPECT_TRUE(saw_long) << items.dump();
  EXPECT_TRUE(saw_quoted) << items.dump();
}

TEST(CompareIssues, ComparesTwoJobsOfAHundredThousandIssuesInBoundedTime) {
  IssueKeys before, after;
  for (int i = 0; i < 100000; ++i) {
    before.Add(Record(i + 1, i + 2, i % 2 ? "A" : "B", "sku", Sku(i)));
    after.Add(Record(i + 1, i + 2, i % 2 ? "A" : "B", "sku", Sku(i + 500)));
  }
  const auto start = std::chrono::steady_clock::now();
  json c = CompareIssues(before, after, {});
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  EXPECT_EQ(c["resolved"], 500);
  EXPECT_EQ(c["new"], 500);
  EXPECT_EQ(c["open"], 99500);
  EXPECT_LT(ms, 2000);  // generous: a sort of each side
}

}  // namespace
}  // namespace dq::report
