// POST /v1/validate learns what an upload learns from its first rows (ingest/value_evidence.h)
// from its first records: a URL column whose cells list several URLs gets the list separator,
// and a weight column whose values name their unit is said so, so that the inline path gives
// the job's verdicts on a public dataset's records.
#include "validate/validate_request.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "dq/testing/validate_command_diff.h"

namespace dq::gateway {
namespace {

constexpr const char* kAmazonRecords =
    R"({"source":"generic","check_types":"product,shipping",)"
    R"("mapping":{"title":"Product Name","price":"Selling Price","image_url":"Image",)"
    R"("weight":"Shipping Weight"},"records":[)"
    R"({"Product Name":"Puzzle","Selling Price":"17.49","Shipping Weight":"13.4 ounces",)"
    R"("Image":"https://img.example/a.jpg|https://img.example/b.jpg"},)"
    R"({"Product Name":"Kit","Selling Price":"99.95","Shipping Weight":"4 pounds",)"
    R"("Image":"https://img.example/c.jpg"}]})";

TEST(ValidateListCellsTest, FirstRecordsGiveTheListSeparatorAndTheWeightNote) {
  auto r = ParseValidateRequest(kAmazonRecords, 10);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(testing::DescribeCommandDifference(
                r, ParseValidateRequest(kAmazonRecords, 10, JsonPath::kHandWritten)),
            "");
  const auto& conventions = r->conventions;
  auto image = std::find_if(conventions.begin(), conventions.end(),
                            [](const auto& c) { return c.field == "image_url"; });
  ASSERT_NE(image, conventions.end());
  EXPECT_EQ(image->list_separator, "|");
  EXPECT_NE(std::find(r->notes.begin(), r->notes.end(),
                      "The column 'Image' lists several URLs in a cell, separated by '|': each "
                      "URL was checked on its own."),
            r->notes.end());
  EXPECT_NE(std::find_if(r->notes.begin(), r->notes.end(),
                         [](const std::string& n) {
                           return n.find("(such as '13.4 ounces')") != std::string::npos;
                         }),
            r->notes.end());
}

TEST(ValidateListCellsTest, SingleUrlsGetNoSeparator) {
  constexpr const char* kBody =
      R"({"source":"generic","mapping":{"title":"t","price":"p","image_url":"i"},)"
      R"("records":[{"t":"Mug","p":"5.00","i":"https://img.example/a.jpg"}]})";
  auto r = ParseValidateRequest(kBody, 10);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->conventions.empty());
}

}  // namespace
}  // namespace dq::gateway
