// The engine's catalogue (issue_codes.def): its codes' shape, and the served copy (libs/catalog)
// agreeing with it. docs/issue-codes.md is generated from the served copy and checked in
// tests/unit/catalog.
#include "issue_catalogue.h"

#include <gtest/gtest.h>

#include "dq/catalog/issue_catalog.h"

#include <set>
#include <string>

namespace dq::validator {
namespace {

// The served catalogue (libs/catalog, built from the same .def files) lists exactly the engine's
// codes, in its order, with the same members.
TEST(IssueCatalogue, ServedCatalogueMatchesTheEngineExactly) {
  const auto served = catalog::IssueCodes();
  const auto catalogue = Catalogue();
  ASSERT_EQ(served.size(), catalogue.size());
  for (size_t i = 0; i < served.size(); ++i) {
    const IssueDef& d = catalogue[i];
    const catalog::IssueCodeInfo& s = served[i];
    EXPECT_EQ(s.code, d.code);
    EXPECT_EQ(s.severity, SeverityName(d.severity)) << d.code;
    EXPECT_EQ(s.fixable, d.fixable) << d.code;
    EXPECT_EQ(s.check, d.check) << d.code;
    EXPECT_EQ(s.fields, d.fields) << d.code;
    EXPECT_EQ(s.message, d.message) << d.code;
    EXPECT_EQ(s.meaning, d.description) << d.code;
    EXPECT_EQ(catalog::FindIssueCode(d.code), &s) << d.code;
  }
}

TEST(IssueCatalogue, CodesAreUniqueUpperSnakeAndFixesAreWarnings) {
  std::set<std::string_view> seen;
  for (const IssueDef& d : Catalogue()) {
    EXPECT_TRUE(seen.insert(d.code).second) << d.code;
    for (char c : d.code) EXPECT_TRUE((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
    if (d.fixable) {
      EXPECT_EQ(d.severity, Severity::kWarning) << d.code;
    }
    EXPECT_EQ(d.message.find('|'), std::string_view::npos) << d.code;
    EXPECT_EQ(d.description.find('|'), std::string_view::npos) << d.code;
    EXPECT_EQ(&Def(d.id), &d);
  }
  EXPECT_EQ(Catalogue().size(), kIssueCodeCount);
}

TEST(IssueCatalogue, SpecCodesKeepTheirMeaning) {
  EXPECT_EQ(Def(IssueCode::MISSING_SKU).code, "MISSING_SKU");
  EXPECT_EQ(Def(IssueCode::MISSING_SKU).severity, Severity::kError);
  EXPECT_EQ(Def(IssueCode::MISSING_SKU).message, "SKU is required");
  EXPECT_EQ(Def(IssueCode::INVALID_PRICE).code, "INVALID_PRICE");
  EXPECT_EQ(Def(IssueCode::INVALID_PRICE).severity, Severity::kError);
  EXPECT_EQ(Def(IssueCode::INVALID_PRICE).message, "Price must be a positive number");
}

}  // namespace
}  // namespace dq::validator
