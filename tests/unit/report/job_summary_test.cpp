// The job summary's order (job_summary.h): by_code lists errors before warnings, then the most
// frequent first, so a flood of whitespace fixes never hides an error.
#include "dq/report/job_summary.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace dq::report {
namespace {

validator::v1::Issue MakeIssue(const std::string& code, const std::string& field, bool error,
                               uint64_t row) {
  validator::v1::Issue i;
  i.set_code(code);
  i.set_field(field);
  i.set_severity(error ? validator::v1::SEVERITY_ERROR : validator::v1::SEVERITY_WARNING);
  i.set_row(row);
  i.set_original_value("v" + std::to_string(row));
  return i;
}

TEST(JobSummary, CodesAreErrorsFirstThenByCount) {
  JobSummaryBuilder b;
  for (int r = 0; r < 50; ++r) b.Add(MakeIssue("WHITESPACE_TRIMMED", "title", false, r));
  for (int r = 0; r < 3; ++r) b.Add(MakeIssue("INVALID_CURRENCY", "currency", true, r));
  for (int r = 0; r < 7; ++r) b.Add(MakeIssue("INVALID_PRICE", "price", true, r));
  for (int r = 0; r < 9; ++r) b.Add(MakeIssue("IMAGE_URL_NOT_HTTPS", "image_url", false, r));
  const auto s = nlohmann::json::parse(b.Json());
  std::vector<std::string> order;
  for (const auto& c : s.at("by_code")) order.push_back(c.at("code").get<std::string>());
  EXPECT_EQ(order, (std::vector<std::string>{"INVALID_PRICE", "INVALID_CURRENCY",
                                             "WHITESPACE_TRIMMED", "IMAGE_URL_NOT_HTTPS"}));
  EXPECT_EQ(s.at("by_code")[0].at("count"), 7);
  EXPECT_EQ(s.at("by_code")[0].at("examples").size(), 5u);
  EXPECT_EQ(s.at("by_code")[2].at("severity"), "warning");
}

}  // namespace
}  // namespace dq::report
