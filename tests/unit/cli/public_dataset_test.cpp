// Public e-commerce datasets as a data team reads them (issue 31's "public dataset"), through the
// whole offline check: list cells of URLs, the price of a listing with a list price beside it,
// and weights written with their unit in words. Small self-written files in those datasets'
// shapes (tests/corpus/generic/ holds the real ones' expectations).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app.h"
#include "in_memory_io.h"

namespace dq::offline {
namespace {

class PublicDatasetTest : public InMemoryIoTest {
 protected:
  nlohmann::json Check(const std::string& name, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"check", name, "--format", "json", "--fail-on", "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    out_.str("");
    err_.str("");
    EXPECT_EQ(offline::Run(args, io_), kExitClean) << err_.str();
    return nlohmann::json::parse(out_.str());
  }

  static std::vector<nlohmann::json> Issues(const nlohmann::json& j, const std::string& code) {
    std::vector<nlohmann::json> out;
    for (const auto& i : j["issues"]) {
      if (i["code"] == code) out.push_back(i);
    }
    return out;
  }
};

// Amazon's product dataset 2020 writes a product's images in one cell separated by '|'. Each URL
// is checked on its own: good lists pass, and a bad item is named; the cleaned file keeps the
// cells as they were.
TEST_F(PublicDatasetTest, PipeSeparatedImageUrlsAreCheckedOneByOne) {
  const std::string cell1 = "https://img.example/a.jpg|https://img.example/b.jpg";
  const std::string cell2 = "https://img.example/c.jpg|https://img.example/d.jpg|img.example/e.jpg";
  files_["amazon.csv"] = "Uniq Id,Product Name,Selling Price,Image\n"
                         "u1,Puzzle,17.49," + cell1 + "\n"
                         "u2,Kit,99.95," + cell2 + "\n"
                         "u3,Board,23.00,https://img.example/e.jpg\n";
  const nlohmann::json j = Check("amazon.csv", {"--cleaned", "out.csv"});
  const auto bad = Issues(j, "INVALID_IMAGE_URL");
  ASSERT_EQ(bad.size(), 1u) << j.dump();
  EXPECT_EQ(bad[0]["issue_row"], 2);
  EXPECT_NE(bad[0]["message"].get<std::string>().find("item 3 of 3, 'img.example/e.jpg'"),
            std::string::npos)
      << bad[0]["message"];
  EXPECT_NE(j["notes"].dump().find("The column 'Image' lists several URLs in a cell, separated "
                                   "by '|': each URL was checked on its own."),
            std::string::npos)
      << j["notes"];
  const std::string cleaned = written_["out.csv"].str();
  EXPECT_NE(cleaned.find(cell1), std::string::npos) << cleaned;
  EXPECT_NE(cleaned.find(cell2), std::string::npos) << cleaned;
}

// Without a list in any cell, a URL column is read as one URL a cell, as before.
TEST_F(PublicDatasetTest, SingleUrlCellsStayOneUrl) {
  files_["one.csv"] = "SKU,Title,Price,Image\n"
                      "A1,Mug,5.00,https://img.example/a.jpg\n"
                      "A2,Cup,5.00,img.example/b.jpg\n";
  const nlohmann::json j = Check("one.csv");
  const auto bad = Issues(j, "INVALID_IMAGE_URL");
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0]["message"].get<std::string>().find("item "), std::string::npos)
      << bad[0]["message"];
  EXPECT_EQ(j["notes"].dump().find("lists several URLs"), std::string::npos);
}

// Flipkart's product sample: retail_price is the list price (MRP), discounted_price what the item
// sells for. The price checked is the selling price; a listing without one is still reported.
TEST_F(PublicDatasetTest, DiscountedPriceIsThePrice) {
  files_["flipkart.csv"] = "pid,product_name,retail_price,discounted_price\n"
                           "SRT1,Shorts,999,379\n"
                           "SBE2,Sofa bed,32157,22646\n"
                           "SHO3,Bellies,,\n";
  const nlohmann::json j = Check("flipkart.csv", {"--checks", "product,price"});
  EXPECT_EQ(j["mapping"]["price"], "discounted_price");
  const auto missing = Issues(j, "INVALID_PRICE");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]["issue_row"], 3);
}

// Weights with their unit in words ("10.7 pounds") under a header that names none are read in
// that unit, and the mapping note says so.
TEST_F(PublicDatasetTest, WeightsInWordsAreReadInTheirUnit) {
  files_["weights.csv"] = "SKU,Product Name,Selling Price,Shipping Weight\n"
                          "A1,Longboard,237.68,10.7 pounds\n"
                          "A2,Puzzle,17.49,13.4 ounces\n"
                          "A3,Crate,9.00,-2 pounds\n";
  const nlohmann::json j = Check("weights.csv", {"--checks", "product,shipping"});
  EXPECT_EQ(j["mapping_notes"][0],
            "The weight column 'Shipping Weight' names no unit in its header, but its values "
            "name their own (such as '10.7 pounds'): each was read in the unit it names. A bare "
            "number would be checked only as a non-negative number; send weight_unit to give "
            "one.");
  const auto bad = Issues(j, "INVALID_WEIGHT");
  ASSERT_EQ(bad.size(), 1u) << j.dump();
  EXPECT_EQ(bad[0]["issue_row"], 3);
}

// Indian public datasets write prices with the rupee's sign and its grouping ("₹1,099",
// "₹1,39,900", "Rs. 999"): prices, rewritten as plain numbers like "$1,299.00", never invalid or
// ambiguous.
TEST_F(PublicDatasetTest, RupeePricesAreRead) {
  files_["india.csv"] = "product_id,product_name,discounted_price,actual_price\n"
                        "B1,Cable,\"\xE2\x82\xB9" "1,099\",\"\xE2\x82\xB9" "1,899\"\n"
                        "B2,TV,\"\xE2\x82\xB9" "1,39,900\",\"\xE2\x82\xB9" "1,79,900\"\n"
                        "B3,Mug,Rs. 999,Rs. 1299\n";
  const nlohmann::json j = Check("india.csv");
  EXPECT_TRUE(Issues(j, "INVALID_PRICE").empty()) << j.dump();
  EXPECT_TRUE(Issues(j, "AMBIGUOUS_DECIMAL_SEPARATOR").empty()) << j.dump();
  const auto fixed = Issues(j, "PRICE_REFORMATTED");
  ASSERT_EQ(fixed.size(), 3u) << j.dump();
  EXPECT_EQ(fixed[0]["fixed_value"], "1099");
  EXPECT_EQ(fixed[1]["fixed_value"], "139900");
  EXPECT_EQ(fixed[2]["fixed_value"], "999");
}

}  // namespace
}  // namespace dq::offline
