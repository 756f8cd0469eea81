// docs/issue-codes.md must match the catalogue (issue_codes.def) exactly: same codes in the same
// order, with the same severity, fixability, check type, fields, message and meaning.
#include "issue_catalogue.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifndef DQ_SOURCE_DIR
#error "DQ_SOURCE_DIR must name the source tree"
#endif

namespace dq::validator {
namespace {

// The cells of a Markdown table row "| a | b |", trimmed.
std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|') {
      const size_t b = cell.find_first_not_of(' ');
      const size_t e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      cell.clear();
    } else {
      cell.push_back(line[i]);
    }
  }
  return cells;
}

std::vector<std::vector<std::string>> DocRows() {
  std::ifstream in(std::string(DQ_SOURCE_DIR) + "/docs/issue-codes.md");
  EXPECT_TRUE(in.good()) << "cannot read docs/issue-codes.md";
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) == 0) rows.push_back(Cells(line));
  }
  return rows;
}

TEST(IssueCatalogue, DocsPageMatchesTheCatalogueExactly) {
  const auto rows = DocRows();
  const auto catalogue = Catalogue();
  ASSERT_EQ(rows.size(), catalogue.size()) << "docs/issue-codes.md rows vs catalogue codes";
  for (size_t i = 0; i < rows.size(); ++i) {
    const IssueDef& d = catalogue[i];
    const auto& r = rows[i];
    ASSERT_EQ(r.size(), 7u) << "row " << i;
    std::string code = "`";  // built by appending: GCC 12 warns (-Wrestrict) on "`" + string
    code.append(d.code).append("`");
    EXPECT_EQ(r[0], code);
    EXPECT_EQ(r[1], SeverityName(d.severity)) << d.code;
    EXPECT_EQ(r[2], d.fixable ? "yes" : "no") << d.code;
    EXPECT_EQ(r[3], d.check) << d.code;
    EXPECT_EQ(r[4], d.fields) << d.code;
    EXPECT_EQ(r[5], d.message) << d.code;
    EXPECT_EQ(r[6], d.description) << d.code;
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
