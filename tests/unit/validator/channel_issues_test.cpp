// docs/issue-codes.md's "Channel issues each code predicts" must match channel_issues.def row for
// row: the same channel, code, issue name and source, in the same order.
#include "channel_issues.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#ifndef DQ_SOURCE_DIR
#error "DQ_SOURCE_DIR must name the source tree"
#endif

namespace dq::validator {
namespace {

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

TEST(ChannelIssues, DocsTableMatchesTheDefFile) {
  std::ifstream in(std::string(DQ_SOURCE_DIR) + "/docs/issue-codes.md");
  ASSERT_TRUE(in.good());
  std::vector<std::vector<std::string>> rows;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line == "## Channel issues each code predicts";
    const bool row = line.rfind("| ", 0) == 0 && line.rfind("| Channel |", 0) != 0;
    if (inside && row) rows.push_back(Cells(line));
  }
  const auto crosswalk = ChannelIssues();
  ASSERT_EQ(rows.size(), crosswalk.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const ChannelIssue& c = crosswalk[i];
    ASSERT_EQ(rows[i].size(), 4u) << "row " << i;
    std::string code = "`";
    code.append(Def(c.code).code).append("`");
    EXPECT_EQ(rows[i][0], c.channel);
    EXPECT_EQ(rows[i][1], code);
    EXPECT_EQ(rows[i][2], c.name);
    EXPECT_EQ(rows[i][3], c.source);
  }
}

TEST(ChannelIssues, TextsHaveNoPipe) {
  for (const ChannelIssue& c : ChannelIssues()) {
    for (std::string_view t : {c.channel, c.name, c.source}) {
      EXPECT_EQ(t.find('|'), std::string_view::npos) << t;
      EXPECT_FALSE(t.empty());
    }
  }
}

}  // namespace
}  // namespace dq::validator
