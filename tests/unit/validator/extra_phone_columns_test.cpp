// Issue 31: Shopify's current customers export keeps most customers' numbers in Default Address
// Phone while Phone (mapped to phone) is mostly empty. The profile lists Default Address Phone as
// a further column of phone (also_checked, BatchSpec::extras): its values are checked with the
// phone rule, read with the row's country, report-only and naming the column.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::MakeSpec;
using testing::TestReferenceData;

// A Shopify customers spec as its profile makes it: email, phone (Phone), country (Default
// Address Country Code), and the further column Default Address Phone.
BatchSpec ShopifyCustomersSpec() {
  BatchSpec spec = MakeSpec({"email", "phone", "country"}, "customer", "");
  EXPECT_TRUE(spec.AddExtraColumn("phone", "Default Address Phone", "", {}).ok());
  return spec;
}

// Rows: email, Phone, country, Default Address Phone.
std::vector<Issue> Check(const std::vector<std::vector<std::string>>& rows) {
  const BatchSpec spec = ShopifyCustomersSpec();
  Session s(TestReferenceData(), spec);
  std::vector<Issue> issues;
  for (const auto& row : rows) {
    const std::vector<std::string_view> values(row.begin(), row.end());
    s.AddRow(values, issues, RowKind::kProduct);
  }
  s.Finish(issues);
  return issues;
}

// Each issue as "row CODE field 'original': message".
std::vector<std::string> Described(const std::vector<Issue>& issues) {
  std::vector<std::string> out;
  for (const Issue& i : issues) {
    out.push_back(std::to_string(i.row) + " " + std::string(Def(i.code).code) + " " +
                  std::string(FieldName(i.field)) + " '" + i.original +
                  "': " + std::string(i.Message()));
  }
  return out;
}

TEST(ExtraPhoneColumnsTest, ABadNumberInDefaultAddressPhoneIsReportedNamingTheColumn) {
  const auto issues = Check({{"ana@example.com", "", "US", " 123 "}});
  ASSERT_EQ(issues.size(), 1u) << ::testing::PrintToString(Described(issues));
  EXPECT_EQ(issues[0].code, IssueCode::INVALID_PHONE);
  EXPECT_EQ(issues[0].field, Field::kPhone);
  EXPECT_EQ(issues[0].original, " 123 ");
  EXPECT_FALSE(issues[0].fixed.has_value());
  EXPECT_EQ(issues[0].Message(),
            std::string(Def(IssueCode::INVALID_PHONE).message) +
                ": column Default Address Phone, '123'");
}

TEST(ExtraPhoneColumnsTest, ANationalNumberIsReadWithTheRowsCountryAndNotRewritten) {
  // Valid in the US: no issue, and no PHONE_NORMALIZED (a fix would land in Phone's cell).
  EXPECT_EQ(Described(Check({{"ana@example.com", "", "US", "(650) 253-0000"}})),
            std::vector<std::string>{});
  // The same number in Phone is rewritten as E.164.
  EXPECT_EQ(Described(Check({{"ana@example.com", "(650) 253-0000", "US", ""}})),
            std::vector<std::string>{"1 PHONE_NORMALIZED phone '(650) 253-0000': " +
                                     std::string(Def(IssueCode::PHONE_NORMALIZED).message)});
  // Without a country, a national number cannot be read.
  EXPECT_EQ(Described(Check({{"ana@example.com", "", "", "(650) 253-0000"}})),
            std::vector<std::string>{
                "1 INVALID_PHONE phone '(650) 253-0000': Phone number is in national form and "
                "the row has no valid country to read it with: column Default Address Phone, "
                "'(650) 253-0000'"});
  // A country written as alpha-3 is read as its fix (USA -> US) reads.
  const auto issues = Check({{"ana@example.com", "", "USA", "(650) 253-0000"}});
  ASSERT_EQ(issues.size(), 1u) << ::testing::PrintToString(Described(issues));
  EXPECT_EQ(issues[0].code, IssueCode::COUNTRY_CODE_NORMALIZED);
}

TEST(ExtraPhoneColumnsTest, TheSameBadNumberInBothColumnsIsOneIssue) {
  EXPECT_EQ(Described(Check({{"ana@example.com", "123", "US", " 123"}})),
            std::vector<std::string>{"1 INVALID_PHONE phone '123': " +
                                     std::string(Def(IssueCode::INVALID_PHONE).message)});
  // Two different bad numbers: one issue each, the further column's naming it.
  EXPECT_EQ(Described(Check({{"ana@example.com", "123", "US", "456"}})),
            (std::vector<std::string>{
                "1 INVALID_PHONE phone '123': " +
                    std::string(Def(IssueCode::INVALID_PHONE).message),
                "1 INVALID_PHONE phone '456': " +
                    std::string(Def(IssueCode::INVALID_PHONE).message) +
                    ": column Default Address Phone, '456'"}));
}

TEST(ExtraPhoneColumnsTest, ANumberInDefaultAddressPhoneIsTheCustomersPhoneForMissingEmail) {
  EXPECT_EQ(Described(Check({{"", "", "US", "+1 650-253-0000"}})), std::vector<std::string>{});
  const auto issues = Check({{"", "", "US", "  "}});
  ASSERT_EQ(issues.size(), 1u) << ::testing::PrintToString(Described(issues));
  EXPECT_EQ(issues[0].code, IssueCode::MISSING_EMAIL);
}

// The customer's phone (the duplicate key of a customer without e-mail) is Phone: two customers
// sharing a default address's phone (a household, a company) are not duplicates.
TEST(ExtraPhoneColumnsTest, DefaultAddressPhoneIsNoDuplicateKey) {
  EXPECT_EQ(Described(Check({{"", "", "US", "+1 650-253-0000"}, {"", "", "US", "+16502530000"}})),
            std::vector<std::string>{});
  const auto issues = Check({{"", "+16502530000", "US", ""}, {"", "+16502530000", "US", ""}});
  ASSERT_EQ(issues.size(), 1u) << ::testing::PrintToString(Described(issues));
  EXPECT_EQ(issues[0].code, IssueCode::DUPLICATE_CUSTOMER);
}

}  // namespace
}  // namespace dq::validator
