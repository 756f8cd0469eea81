// The issue catalogue as served: no member of any code is empty, the JSON carries them all, and
// docs/issue-codes.md is exactly what the generator writes from the catalogue.
#include "dq/catalog/issue_catalog.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#ifndef DQ_SOURCE_DIR
#error "DQ_SOURCE_DIR must name the source tree"
#endif

namespace dq::catalog {
namespace {

TEST(IssueCatalog, EveryCodeHasEveryMember) {
  ASSERT_GT(IssueCodes().size(), 90u);
  for (const IssueCodeInfo& i : IssueCodes()) {
    for (std::string_view member : {i.code, i.severity, i.check, i.fields, i.message, i.meaning,
                                    i.title, i.how_to_fix, i.example_before, i.example_after}) {
      EXPECT_FALSE(member.empty()) << i.code;
      EXPECT_EQ(member.find('|'), std::string_view::npos) << i.code << ": " << member;
      EXPECT_EQ(member.find('`'), std::string_view::npos) << i.code << ": " << member;
    }
    EXPECT_TRUE(i.severity == "error" || i.severity == "warning") << i.code;
    EXPECT_NE(i.example_before, i.example_after) << i.code;
    EXPECT_FALSE(FieldList(i).empty()) << i.code;
  }
}

TEST(IssueCatalog, FindsCodesAndSplitsFields) {
  const IssueCodeInfo* price = FindIssueCode("PRICE_REFORMATTED");
  ASSERT_NE(price, nullptr);
  EXPECT_EQ(price->severity, "warning");
  EXPECT_TRUE(price->fixable);
  EXPECT_EQ(FieldList(*price),
            (std::vector<std::string>{"price", "compare_at_price", "cost_price"}));
  EXPECT_EQ(FindIssueCode("NO_SUCH_CODE"), nullptr);
  EXPECT_EQ(FindIssueCode("missing_sku"), nullptr);  // codes are exact
  EXPECT_EQ(DocsAnchor("MISSING_SKU"), "missing_sku");
  EXPECT_EQ(DocsLink("INVALID_CURRENCY"), "docs/issue-codes.md#invalid_currency");
}

TEST(IssueCatalog, ChannelIssuesNameKnownCodes) {
  ASSERT_FALSE(ChannelIssues().empty());
  for (const ChannelIssue& c : ChannelIssues()) {
    EXPECT_NE(FindIssueCode(c.code), nullptr) << c.code;
    EXPECT_FALSE(c.channel.empty());
    EXPECT_FALSE(c.name.empty());
    EXPECT_FALSE(c.source.empty());
  }
}

TEST(IssueCatalog, JsonCarriesEveryCodeWithEveryMember) {
  const auto doc = nlohmann::json::parse(IssueCodesJson());
  const auto& list = doc.at("issue_codes");
  ASSERT_EQ(list.size(), IssueCodes().size());
  std::set<std::string> codes;
  size_t predicted = 0;
  for (size_t k = 0; k < list.size(); ++k) {
    const auto& j = list[k];
    const IssueCodeInfo& i = IssueCodes()[k];
    EXPECT_EQ(j.at("code"), i.code);
    codes.insert(j.at("code").get<std::string>());
    for (const char* member :
         {"title", "severity", "check_type", "message", "meaning", "how_to_fix", "docs_url"}) {
      ASSERT_TRUE(j.at(member).is_string()) << i.code << " " << member;
      EXPECT_FALSE(j.at(member).get<std::string>().empty()) << i.code << " " << member;
    }
    EXPECT_EQ(j.at("title"), i.title);
    EXPECT_EQ(j.at("how_to_fix"), i.how_to_fix);
    EXPECT_EQ(j.at("example").at("before"), i.example_before);
    EXPECT_EQ(j.at("example").at("after"), i.example_after);
    EXPECT_EQ(j.at("fixable"), i.fixable);
    EXPECT_EQ(j.at("fields").get<std::vector<std::string>>(), FieldList(i));
    EXPECT_EQ(j.at("docs_url"), "docs/issue-codes.md#" + DocsAnchor(i.code));
    predicted += j.at("channel_issues").size();
  }
  EXPECT_EQ(codes.size(), list.size());
  EXPECT_EQ(predicted, ChannelIssues().size());
  const auto& gtin = list[FindIssueCode("INVALID_GTIN") - IssueCodes().data()];
  EXPECT_EQ(gtin.at("channel_issues").at(0).at("channel"), "Merchant Center");
}

// The page is the generator's output, so a code changed in the .def files and not regenerated
// (build/libs/catalog/gen-issue-codes-doc docs/issue-codes.md) fails here.
TEST(IssueCatalog, DocsPageIsGeneratedFromTheCatalogue) {
  std::ifstream in(std::string(DQ_SOURCE_DIR) + "/docs/issue-codes.md", std::ios::binary);
  ASSERT_TRUE(in.good()) << "cannot read docs/issue-codes.md";
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const size_t marker = doc.find(kGeneratedMarker);
  ASSERT_NE(marker, std::string::npos) << "docs/issue-codes.md lost its generated-part marker";
  const std::string head = doc.substr(0, marker + kGeneratedMarker.size()) + "\n";
  EXPECT_TRUE(doc == IssueCodesMarkdown(head))
      << "docs/issue-codes.md is out of date: run "
         "build/libs/catalog/gen-issue-codes-doc docs/issue-codes.md";
  // Each code has its section, whose heading gives the anchor docs_url names.
  for (const IssueCodeInfo& i : IssueCodes()) {
    EXPECT_NE(doc.find("\n### " + std::string(i.code) + "\n"), std::string::npos) << i.code;
  }
}

}  // namespace
}  // namespace dq::catalog
