// POST /v1/validate with a source whose profile reads a zero as no value (Shopify's Variant
// Grams 0, its zero_is_empty convention) says how many records that concerns, in the weight
// column's note, as the job does for an upload's rows (SourceScan::zero_rows).
#include "validate/validate_request.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "dq/testing/validate_command_diff.h"

namespace dq::gateway {
namespace {

constexpr const char* kShopifyRecords =
    R"({"source":"shopify_products","check_types":"product,shipping",)"
    R"("mapping":{"sku":"Variant SKU","title":"Title","price":"Variant Price",)"
    R"("weight":"Variant Grams"},"records":[)"
    R"({"Variant SKU":"A","Title":"Mug","Variant Price":"5.00","Variant Grams":"0"},)"
    R"({"Variant SKU":"B","Title":"Cup","Variant Price":"4.00","Variant Grams":"0.0"},)"
    R"({"Variant SKU":"C","Title":"Pot","Variant Price":"9.00","Variant Grams":"350"}]})";

std::string WeightNote(const ValidateCommand& cmd) {
  auto it = std::find_if(cmd.notes.begin(), cmd.notes.end(), [](const std::string& n) {
    return n.find("Variant Grams") != std::string::npos;
  });
  return it == cmd.notes.end() ? std::string("(none)") : *it;
}

TEST(ValidateZeroWeightTest, TheWeightNoteCountsTheRecordsWithShopifysZero) {
  auto r = ParseValidateRequest(kShopifyRecords, 10);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(testing::DescribeCommandDifference(
                r, ParseValidateRequest(kShopifyRecords, 10, JsonPath::kHandWritten)),
            "");
  const std::string note = WeightNote(*r);
  EXPECT_NE(note.find("2 rows have Variant Grams 0, which a Shopify products export writes when "
                      "no weight was entered; they were read as having no weight."),
            std::string::npos)
      << note;
}

TEST(ValidateZeroWeightTest, NoSourceNoZeroNote) {
  std::string body = kShopifyRecords;
  body.replace(body.find("shopify_products"), std::string("shopify_products").size(), "generic");
  auto r = ParseValidateRequest(body, 10);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(WeightNote(*r).find("rows have"), std::string::npos) << WeightNote(*r);
}

}  // namespace
}  // namespace dq::gateway
