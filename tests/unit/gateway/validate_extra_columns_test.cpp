// POST /v1/validate with a source whose profile checks further columns as a field's
// (ingest::AlsoCheckedColumns: Magento 2's small_image, thumbnail_image, swatch_image beside
// base_image): the records' keys are the header, the further columns' cells travel after the
// mapped columns' (BatchSpec.extra_columns), and the cleaned records keep them as sent.
#include "validate/validate_request.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dq/testing/validate_command_diff.h"

namespace dq::gateway {
namespace {

// Record 2 lacks thumbnail_image and gives small_image twice (the last one counts, as for a
// mapped key); swatch_image is in no record, so it is no column.
constexpr const char* kMagento =
    R"({"source":"magento2","mapping":{"sku":"sku","price":"price","image_url":"base_image"},)"
    R"("records":[)"
    R"({"sku":"S-1","price":"9.00","base_image":"b.jpg","small_image":"x y.jpg",)"
    R"("thumbnail_image":"t.jpg"},)"
    R"({"small_image":"first.jpg","sku":"S-2","price":"1.00","small_image":"s.jpg"}]})";

std::vector<std::string> Strings(const google::protobuf::RepeatedPtrField<std::string>& r) {
  return {r.begin(), r.end()};
}

TEST(ValidateExtraColumnsTest, FurtherColumnsTravelAfterTheMappedOnes) {
  auto r = ParseValidateRequest(kMagento, 10);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(testing::DescribeCommandDifference(
                r, ParseValidateRequest(kMagento, 10, JsonPath::kHandWritten)),
            "");
  ASSERT_EQ(r->extra_columns.size(), 2u);
  EXPECT_EQ(r->extra_columns[0].column, "small_image");
  EXPECT_EQ(r->extra_columns[1].column, "thumbnail_image");
  EXPECT_EQ(r->extra_cells,
            (std::vector<std::string_view>{"x y.jpg", "t.jpg", "s.jpg", ""}));
  EXPECT_EQ(r->columns, (std::vector<std::string>{"sku", "price", "base_image"}));

  auto req = BuildValidatorRequest(*r);
  ASSERT_TRUE(req.ok()) << req.status().message();
  const auto& spec = req->spec();
  ASSERT_EQ(spec.extra_columns_size(), 2);
  EXPECT_EQ(spec.extra_columns(1).field(), "image_url");
  EXPECT_EQ(spec.extra_columns(1).column(), "thumbnail_image");
  EXPECT_EQ(Strings(spec.extra_columns(0).file_extensions()),
            (std::vector<std::string>{"jpg", "jpeg", "gif", "png"}));
  EXPECT_EQ(spec.value_index_size(), 0);  // no column shared: fields, then extra columns
  EXPECT_EQ(req->packed().width(), 5u);
  EXPECT_EQ(req->packed().data(), "S-19.00b.jpgx y.jpgt.jpgS-21.00s.jpg");
  EXPECT_EQ(std::vector<uint32_t>(req->packed().lengths().begin(), req->packed().lengths().end()),
            (std::vector<uint32_t>{3, 4, 5, 7, 5, 3, 4, 0, 5, 0}));
}

// Two fields on one column: the value_index has one index per field, then one per extra column.
TEST(ValidateExtraColumnsTest, ASharedColumnIndexesTheExtraColumnsToo) {
  constexpr const char* kBody =
      R"({"source":"magento2","mapping":{"sku":"sku","title":"sku","image_url":"base_image"},)"
      R"("records":[{"sku":"S-1","base_image":"b.jpg","swatch_image":"w.jpg"}]})";
  auto r = ParseValidateRequest(kBody, 10);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto req = BuildValidatorRequest(*r);
  ASSERT_TRUE(req.ok());
  EXPECT_EQ(std::vector<uint32_t>(req->spec().value_index().begin(),
                                  req->spec().value_index().end()),
            (std::vector<uint32_t>{0, 0, 1, 2}));
  EXPECT_EQ(req->packed().width(), 3u);
  EXPECT_EQ(req->packed().data(), "S-1b.jpgw.jpg");
}

// Without the source, or with one that checks no further column, nothing more is sent.
TEST(ValidateExtraColumnsTest, OtherSourcesSendNoExtraColumns) {
  for (const char* source : {"", R"("source":"woocommerce",)", R"("source":"generic",)"}) {
    const std::string body =
        std::string("{") + source +
        R"("mapping":{"sku":"sku"},"records":[{"sku":"S-1","small_image":"x y.jpg"}]})";
    auto r = ParseValidateRequest(body, 10);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->extra_columns.empty()) << source;
    auto req = BuildValidatorRequest(*r);
    ASSERT_TRUE(req.ok());
    EXPECT_EQ(req->spec().extra_columns_size(), 0);
    EXPECT_EQ(req->packed().width(), 1u);
  }
}

// An issue about a further column (never a fix) leaves the record as sent, repeated key and all.
TEST(ValidateExtraColumnsTest, TheCleanedRecordsKeepTheFurtherColumnsAsSent) {
  auto r = ParseValidateRequest(kMagento, 10);
  ASSERT_TRUE(r.ok());
  validator::v1::ValidateResponse result;
  auto* issue = result.add_issues();
  issue->set_row(1);
  issue->set_severity(validator::v1::SEVERITY_ERROR);
  issue->set_field("image_url");
  issue->set_code("INVALID_IMAGE_URL");
  issue->set_message("Not an absolute http or https URL: column small_image, 'x y.jpg'");
  issue->set_original_value("x y.jpg");
  auto* fix = result.add_issues();  // a fix of a mapped cell (price) lands in its own column
  fix->set_row(2);
  fix->set_severity(validator::v1::SEVERITY_WARNING);
  fix->set_field("price");
  fix->set_code("PRICE_REFORMATTED");
  fix->set_original_value("1.00");
  fix->set_fixed_value("1.50");
  const std::string answer = WriteValidateResponse(*r, result);
  EXPECT_NE(answer.find(R"("cleaned":[{"sku":"S-1","price":"9.00","base_image":"b.jpg",)"
                        R"("small_image":"x y.jpg","thumbnail_image":"t.jpg"},)"
                        R"({"small_image":"first.jpg","sku":"S-2","price":"1.50",)"
                        R"("small_image":"s.jpg"}])"),
            std::string::npos)
      << answer;
}

}  // namespace
}  // namespace dq::gateway
