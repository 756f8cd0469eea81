// The one issue encoder: both forms byte for byte (the API's shapes are a contract), the CSV line
// of a record, and the CSV of what the encoder wrote reading back as the same values.
#include "dq/report/issue_json.h"

#include <gtest/gtest.h>

#include <string>

#include "dq/common/vocabulary.h"

namespace dq::report {
namespace {

validator::v1::Issue Make(bool error, bool fixed) {
  validator::v1::Issue i;
  i.set_row(7);
  i.set_severity(error ? validator::v1::SEVERITY_ERROR : validator::v1::SEVERITY_WARNING);
  i.set_field("price");
  i.set_code("PRICE_FORMAT");
  i.set_message("Said \"12,50\"\n");
  i.set_original_value("12,50");
  if (fixed) i.set_fixed_value("12.50");
  return i;
}

TEST(IssueJsonTest, AJobRecordHasTheSpecsMembersInTheSpecsOrderThenTheItemsNames) {
  EXPECT_EQ(IssueJson(3, Make(true, true), {"A-1", "mug", "Blue \"mug\""}),
            R"({"id":3,"issue_row":7,"severity":"error","field":"price","code":"PRICE_FORMAT",)"
            R"("message":"Said \"12,50\"\n","original_value":"12,50","fixed_value":"12.50",)"
            R"("sku":"A-1","item_id":"mug","title":"Blue \"mug\""})");
  EXPECT_EQ(IssueJson(1, Make(false, false)),
            R"({"id":1,"issue_row":7,"severity":"warning","field":"price","code":"PRICE_FORMAT",)"
            R"("message":"Said \"12,50\"\n","original_value":"12,50","fixed_value":null,)"
            R"("sku":null,"item_id":null,"title":null})");
}

TEST(IssueJsonTest, AValidateIssueHasItsOwnMembersInNameOrder) {
  std::string out = "[";
  AppendIssueJson(out, Make(false, true), IssueForm::kValidate, 0, {"A-1", "", "Mug"});
  out += ',';
  AppendIssueJson(out, Make(true, false), IssueForm::kValidate, /*id ignored=*/9);
  out += ']';
  EXPECT_EQ(out,
            R"([{"code":"PRICE_FORMAT","field":"price","fixed_value":"12.50","item_id":null,)"
            R"("message":"Said \"12,50\"\n","original_value":"12,50","row":7,"severity":"warning",)"
            R"("sku":"A-1","title":"Mug"},)"
            R"({"code":"PRICE_FORMAT","field":"price","fixed_value":null,"item_id":null,)"
            R"("message":"Said \"12,50\"\n","original_value":"12,50","row":7,"severity":"error",)"
            R"("sku":null,"title":null}])");
}

TEST(IssueJsonTest, TheCsvLineOfARecordQuotesWhatNeedsIt) {
  EXPECT_EQ(IssuesCsvHeader(),
            "id,issue_row,severity,field,code,message,original_value,fixed_value,sku,item_id,"
            "title\r\n");
  std::string out;
  ASSERT_TRUE(AppendIssueCsvRow(out, IssueJson(3, Make(true, true), {"A-1", "mug", "Mug, blue"})));
  EXPECT_EQ(out, "3,7,error,price,PRICE_FORMAT,\"Said \"\"12,50\"\"\n\",\"12,50\",12.50,A-1,mug,"
                 "\"Mug, blue\"\r\n");
  out.clear();
  ASSERT_TRUE(AppendIssueCsvRow(out, IssueJson(4, Make(false, false))));
  EXPECT_EQ(out, "4,7,warning,price,PRICE_FORMAT,\"Said \"\"12,50\"\"\n\",\"12,50\",,,,\r\n");
}

TEST(IssueJsonTest, ARecordThatIsNotOneIsSkipped) {
  std::string out = "kept";
  EXPECT_FALSE(AppendIssueCsvRow(out, "[1,2]"));
  EXPECT_FALSE(AppendIssueCsvRow(out, "{\"issue_row\":1}"));
  EXPECT_FALSE(AppendIssueCsvRow(out, "{\"id\":\"1\",\"issue_row\":1}"));
  EXPECT_FALSE(AppendIssueCsvRow(out, "not json"));
  EXPECT_EQ(out, "kept");
}

// Issue.channel_bits (BatchSpec.channel_bits) is written as the names it stands for, in both
// forms, byte for byte, for every set of templates.
TEST(IssueJsonTest, ChannelBitsAreWrittenAsTheNamesTheyStandFor) {
  for (uint32_t bits = 0; bits < (1u << kPlatforms.size()); ++bits) {
    validator::v1::Issue names = Make(true, false), packed = Make(true, false);
    for (size_t p = 0; p < kPlatforms.size(); ++p) {
      if (bits & (1u << p)) names.add_channels(std::string(kPlatforms[p]));
    }
    packed.set_channel_bits(bits);
    std::string a, b;
    AppendIssueJson(a, names, IssueForm::kValidate, 0, {"A-1", "", "Mug"}, true);
    AppendIssueJson(b, packed, IssueForm::kValidate, 0, {"A-1", "", "Mug"}, true);
    ASSERT_EQ(b, a) << bits;
    ASSERT_EQ(IssueJson(4, packed, {}, true), IssueJson(4, names, {}, true)) << bits;
  }
  validator::v1::Issue two = Make(true, false);
  two.set_channel_bits((1u << 3) | (1u << 4));
  EXPECT_NE(IssueJson(1, two, {}, true).find(R"("channels":["search_merchant","social_catalog"])"),
            std::string::npos);
  two.set_channel_bits(1u << 31);  // a template this encoder does not know: left out
  EXPECT_NE(IssueJson(1, two, {}, true).find(R"("channels":[])"), std::string::npos);
}

}  // namespace
}  // namespace dq::report
