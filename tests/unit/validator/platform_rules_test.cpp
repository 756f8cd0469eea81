// Table-driven cases for the eight platform templates, and the batch-level price outliers.
#include <string>

#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::Options;
using testing::RuleCase;

std::string Chars(size_t n) { return std::string(n, 't'); }
std::string Cjk(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += "\xE6\x9D\xAF";  // U+676F
  return s;
}

// Every template's required fields, all filled: a complete row for each.
const std::vector<std::pair<std::string, std::string>> kFull = {
    {"sku", "A1"},
    {"title", "Acme Mug"},
    {"description", "A mug."},
    {"price", "10.00"},
    {"image_url", "https://cdn.acme-mugs.com/1.jpg"},
    {"brand", "Acme"},
    {"category", "Home"},
    {"stock_qty", "5"},
    {"weight", "300 g"},  // Merchant Center and Meta want the unit
    {"availability", "in_stock"},
    // The channel packs' fields: search_merchant and social_catalog require link,
    // social_catalog condition; both want the price's currency.
    {"link", "https://acme-mugs.com/p/a1"},
    {"condition", "new"},
    {"currency", "USD"}};

std::vector<std::pair<std::string, std::string>> With(const std::string& field,
                                                      const std::string& value) {
  auto row = kFull;
  for (auto& [f, v] : row) {
    if (f == field) v = value;
  }
  return row;
}

std::vector<std::pair<std::string, std::string>> Without(const std::string& field) {
  auto row = kFull;
  std::erase_if(row, [&](const auto& p) { return p.first == field; });
  return row;
}

const RuleCase kCases[] = {
    {"mp1_tw_complete", "product", "marketplace1_tw", kFull, {}},
    {"mp2_complete", "product", "marketplace2", kFull, {}},
    {"mp3_complete", "product", "marketplace3", kFull, {}},
    {"search_merchant_complete", "product", "search_merchant", kFull, {}},
    {"social_catalog_complete", "product", "social_catalog", kFull, {}},
    {"mp1_cross_complete", "product", "marketplace1_cross", kFull, {}},
    {"mp4_complete", "product", "marketplace4", kFull, {}},
    {"mp5_complete", "product", "marketplace5", kFull, {}},
    // title limits, in code points
    {"mp1_tw_title_60", "product", "marketplace1_tw", With("title", Chars(60)), {}},
    {"mp1_tw_title_61",
     "product",
     "marketplace1_tw",
     With("title", Chars(61)),
     {"PLATFORM_TITLE_TOO_LONG"}},
    {"mp2_title_61",
     "product",
     "marketplace2",
     With("title", Chars(61)),
     {"PLATFORM_TITLE_TOO_LONG"}},
    {"mp3_title_60_cjk", "product", "marketplace3", With("title", Cjk(60)), {}},
    {"mp3_title_61_cjk",
     "product",
     "marketplace3",
     With("title", Cjk(61)),
     {"PLATFORM_TITLE_TOO_LONG"}},
    {"search_merchant_title_150", "product", "search_merchant", With("title", Chars(150)), {}},
    {"search_merchant_title_151",
     "product",
     "search_merchant",
     With("title", Chars(151)),
     {"PLATFORM_TITLE_TOO_LONG"}},
    {"social_catalog_title_200", "product", "social_catalog", With("title", Chars(200)), {}},
    {"social_catalog_title_201",
     "product",
     "social_catalog",
     With("title", Chars(201)),
     {"PLATFORM_TITLE_TOO_LONG"}},
    {"mp1_cross_title_61",
     "product",
     "marketplace1_cross",
     With("title", Chars(61)),
     {"PLATFORM_TITLE_TOO_LONG"}},
    {"mp4_title_255", "product", "marketplace4", With("title", Chars(255)), {}},
    {"mp4_title_256",
     "product",
     "marketplace4",
     With("title", Chars(256)),
     {"PLATFORM_TITLE_TOO_LONG"}},
    {"mp5_title_70", "product", "marketplace5", With("title", Chars(70)), {}},
    {"mp5_title_71",
     "product",
     "marketplace5",
     With("title", Chars(71)),
     {"PLATFORM_TITLE_TOO_LONG"}},
    // required fields (image = image_url, stock = stock_qty)
    {"mp1_tw_missing_weight",
     "product",
     "marketplace1_tw",
     With("weight", ""),
     {"PLATFORM_MISSING_FIELD"}},
    // A zero the source writes for "no weight entered" (Shopify's Variant Grams) is missing for
    // a template that requires a weight, as an empty cell is; without the convention the
    // template takes 0 as a weight.
    {"mp1_tw_zero_weight_no_weight_entered_is_missing",
     "product",
     "marketplace1_tw",
     With("weight", "0"),
     {"PLATFORM_MISSING_FIELD"},
     Options().ZeroIsEmpty("weight")},
    {"mp1_tw_zero_weight_is_a_weight_without_convention",
     "product",
     "marketplace1_tw",
     With("weight", "0"),
     {}},
    // Merchant Center wants a unit in shipping_weight: a 0 read as no weight gets none added,
    // and is not judged.
    {"search_merchant_zero_weight_no_weight_entered",
     "product,shipping",
     "search_merchant",
     With("weight", "0"),
     {},
     Options().ZeroIsEmpty("weight").WeightUnit("g")},
    {"search_merchant_zero_weight_without_convention",
     "product,shipping",
     "search_merchant",
     With("weight", "0"),
     {"INVALID_WEIGHT", "WEIGHT_UNIT_ADDED=0 g"},
     Options().WeightUnit("g")},
    {"mp1_tw_unmapped_category",
     "product",
     "marketplace1_tw",
     Without("category"),
     {"PLATFORM_MISSING_FIELD"}},
    {"mp2_missing_brand", "product", "marketplace2", With("brand", ""), {"PLATFORM_MISSING_FIELD"}},
    {"mp2_missing_stock",
     "product",
     "marketplace2",
     With("stock_qty", ""),
     {"PLATFORM_MISSING_FIELD"}},
    {"mp3_missing_description",
     "product",
     "marketplace3",
     With("description", ""),
     {"PLATFORM_MISSING_FIELD"}},
    {"search_merchant_missing_availability",
     "product",
     "search_merchant",
     With("availability", ""),
     {"PLATFORM_MISSING_FIELD"}},
    {"social_catalog_missing_image",
     "product",
     "social_catalog",
     With("image_url", ""),
     {"PLATFORM_MISSING_FIELD"}},
    {"mp4_missing_title", "product", "marketplace4", With("title", ""), {"PLATFORM_MISSING_FIELD"}},
    {"mp5_missing_sku_is_missing_sku", "product", "marketplace5", With("sku", ""), {"MISSING_SKU"}},
    {"mp5_missing_price_is_invalid_price",
     "product",
     "marketplace5",
     With("price", ""),
     {"INVALID_PRICE"}},
    {"mp5_missing_stock_inventory_reports_it",
     "product,inventory",
     "marketplace5",
     With("stock_qty", ""),
     {"INVALID_STOCK_QTY"}},
    // A customers file checked with a product template: customers are no listings, so nothing is
    // missing; with a product-side check beside it the template applies as ever.
    {"customer_rows_need_no_listing_fields", "customer", "search_merchant",
     {{"email", "ann@example.com"}, {"sku", ""}, {"title", ""}, {"price", ""}}, {}},
    {"customer_rows_need_no_listing_fields_all", "customer", "all",
     {{"email", "ann@example.com"}, {"title", ""}, {"stock_qty", ""}}, {}},
    {"customer_and_product_template_applies", "customer,shipping", "search_merchant",
     {{"email", "ann@example.com"}, {"title", ""}},
     std::vector<std::string>(8, "PLATFORM_MISSING_FIELD")},  // sku, title, ..., link
    // A source's stock left empty on purpose (WooCommerce: not managed) is still required here.
    {"mp5_missing_stock_source_may_leave_empty_still_reported",
     "product,inventory",
     "marketplace5",
     With("stock_qty", ""),
     {"INVALID_STOCK_QTY"},
     Options().MayBeEmpty("stock_qty")},
    {"mp1_cross_missing_weight_without_shipping",
     "product",
     "marketplace1_cross",
     With("weight", ""),
     {"PLATFORM_MISSING_FIELD"}},
    // https images: the marketplace templates' rule. Google's image_link and Meta's take http
    // (support.google.com/merchants/answer/6324350: "URL (including http or https)").
    {"search_merchant_accepts_http_image",
     "product",
     "search_merchant",
     With("image_url", "http://cdn.acme-mugs.com/1.jpg"),
     {}},
    {"social_catalog_accepts_http_image",
     "product",
     "social_catalog",
     With("image_url", "http://cdn.acme-mugs.com/1.jpg"),
     {}},
    {"mp2_http_image",
     "product",
     "marketplace2",
     With("image_url", "http://cdn.acme-mugs.com/1.jpg"),
     {"PLATFORM_IMAGE_NOT_HTTPS"}},
    // Each URL of a list cell on its own: a JSON array, a source's separated list.
    {"mp2_json_array_all_https",
     "product",
     "marketplace2",
     With("image_url", R"(["https://cdn.acme-mugs.com/1.jpg","https://cdn.acme-mugs.com/2.jpg"])"),
     {}},
    {"mp2_json_array_http_item",
     "product",
     "marketplace2",
     With("image_url", R"(["https://cdn.acme-mugs.com/1.jpg","http://cdn.acme-mugs.com/2.jpg"])"),
     {"PLATFORM_IMAGE_NOT_HTTPS"}},
    {"mp2_separated_list_http_item",
     "product",
     "marketplace2",
     With("image_url", "https://cdn.acme-mugs.com/1.jpg, http://cdn.acme-mugs.com/2.jpg"),
     {"PLATFORM_IMAGE_NOT_HTTPS"},
     testing::CaseOptions().List("image_url", ",")},
    {"mp2_separated_list_all_https",
     "product",
     "marketplace2",
     With("image_url", "https://cdn.acme-mugs.com/1.jpg, https://cdn.acme-mugs.com/2.jpg"),
     {},
     testing::CaseOptions().List("image_url", ",")},
    {"search_merchant_json_array_of_good_urls",
     "product",
     "search_merchant",
     With("image_url", R"(["https://cdn.acme-mugs.com/1.jpg","http://cdn.acme-mugs.com/2.png"])"),
     {}},
    {"search_merchant_json_array_item_not_an_image",
     "product",
     "search_merchant",
     With("image_url", R"(["https://cdn.acme-mugs.com/1.jpg","https://cdn.acme-mugs.com/2.svg"])"),
     {"PLATFORM_IMAGE_FORMAT"}},
    {"search_merchant_json_array_item_placeholder_host",
     "product",
     "search_merchant",
     With("image_url", R"(["https://cdn.acme-mugs.com/1.jpg","https://example.com/2.jpg"])"),
     {"PLATFORM_PLACEHOLDER_URL"}},
    {"search_merchant_separated_list_item_not_an_image",
     "product",
     "search_merchant",
     With("image_url", "https://cdn.acme-mugs.com/1.jpg,https://cdn.acme-mugs.com/2.svg"),
     {"PLATFORM_IMAGE_FORMAT"},
     testing::CaseOptions().List("image_url", ",")},
    {"mp1_tw_http_image",
     "product",
     "marketplace1_tw",
     With("image_url", "HTTP://cdn.acme-mugs.com/1.jpg"),
     {"PLATFORM_IMAGE_NOT_HTTPS"}},
    // English-only content for marketplace1_cross
    {"mp1_cross_chinese_title",
     "product",
     "marketplace1_cross",
     With("title", "\xE9\x99\xB6\xE7\x93\xB7\xE6\x9D\xAF"),
     {"PLATFORM_NOT_ENGLISH"}},
    {"mp1_cross_cyrillic_description",
     "product",
     "marketplace1_cross",
     With("description", "\xD0\x9A\xD1\x80\xD1\x83\xD0\xB6\xD0\xBA\xD0\xB0"),
     {"PLATFORM_NOT_ENGLISH"}},
    {"mp1_cross_accents_and_symbols_ok",
     "product",
     "marketplace1_cross",
     With("title", "Caf\xC3\xA9 Mug \xE2\x80\x93 350 ml \xE2\x84\xA2"),
     {}},
    {"mp1_tw_chinese_title_allowed",
     "product",
     "marketplace1_tw",
     With("title", "\xE9\x99\xB6\xE7\x93\xB7\xE6\x9D\xAF"),
     {}},
};

DQ_RULE_CASES(PlatformRules, kCases);

// --- price outliers (Session::Finish) ---

std::vector<std::string> Outliers(const std::vector<std::vector<std::string>>& rows,
                                  std::vector<std::string> fields = {"price"}) {
  std::vector<std::string> got;
  for (const Issue& i : testing::RunRows(fields, "price", "", rows)) {
    got.push_back(std::to_string(i.row) + ":" + testing::Describe(i));
  }
  return got;
}

// The session applies the fences of algorithms_test.cpp (worked example [1..10, 100]) once a
// batch has PriceOutliers::kMinSamples (30) priced rows.
std::vector<std::vector<std::string>> Range(int from, int to, const std::string& category = "",
                                            int step = 1) {
  std::vector<std::vector<std::string>> rows;
  for (int p = from; p <= to; p += step) {
    rows.push_back({std::to_string(p)});
    if (!category.empty()) rows.back().push_back(category);
  }
  return rows;
}

TEST(PriceOutliers, HighOutlierOverTheBatch) {
  auto rows = Range(1, 29);
  rows.push_back({"100.00"});
  auto issues = testing::RunRows({"price"}, "price", "", rows);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::PRICE_OUTLIER_HIGH);
  EXPECT_EQ(issues[0].row, 30u);
  EXPECT_EQ(issues[0].original, "100.00");
  EXPECT_EQ(issues[0].Message(),
            "Price 100.00 is above the upper fence 44.50 of the batch (Q1 8.25, Q3 22.75, fences "
            "at 1.5 x IQR)");
}

TEST(PriceOutliers, LowOutlier) {
  auto rows = Range(100, 128);
  rows.push_back({"0.01"});
  EXPECT_EQ(Outliers(rows), (std::vector<std::string>{"30:PRICE_OUTLIER_LOW"}));
}

TEST(PriceOutliers, FewerThanThirtyPricesAreNotJudged) {
  auto rows = Range(1, 28);
  rows.push_back({"100000"});
  EXPECT_TRUE(Outliers(rows).empty());
}

TEST(PriceOutliers, PerCategoryWhenItHasEnoughRows) {
  // Cheap socks and expensive laptops: each normal within its category, and a 40.00 laptop is
  // an outlier among laptops although it is unremarkable over the batch.
  auto rows = Range(5, 34, "Socks");
  auto laptops = Range(1000, 1290, "Laptops", 10);
  rows.insert(rows.end(), laptops.begin(), laptops.end());
  rows.push_back({"40.00", "Laptops"});
  EXPECT_EQ(Outliers(rows, {"price", "category"}),
            (std::vector<std::string>{"61:PRICE_OUTLIER_LOW"}));
}

TEST(PriceOutliers, SmallCategoryFallsBackToTheBatch) {
  auto rows = Range(10, 39, "Mugs");
  rows.push_back({"5000", "Rare"});  // one row in its category: judged over the batch
  EXPECT_EQ(Outliers(rows, {"price", "category"}),
            (std::vector<std::string>{"31:PRICE_OUTLIER_HIGH"}));
}

TEST(PriceOutliers, WorkAcrossChunksOfOneSession) {
  Session s(ReferenceData::Default(), testing::MakeSpec({"price"}, "price", ""));
  std::vector<Issue> chunk1, chunk2, final_issues;
  for (int p = 1; p <= 29; ++p) {
    const std::string v = std::to_string(p);
    std::vector<std::string_view> row = {v};
    s.AddRow(row, p <= 15 ? chunk1 : chunk2);
  }
  std::vector<std::string_view> last = {"1000"};
  s.AddRow(last, chunk2);
  s.Finish(final_issues);
  EXPECT_TRUE(chunk1.empty());
  EXPECT_TRUE(chunk2.empty());
  ASSERT_EQ(final_issues.size(), 1u);
  EXPECT_EQ(final_issues[0].row, 30u);
  const Stats st = s.stats();
  EXPECT_EQ(st.rows, 30u);
  EXPECT_EQ(st.warnings, 1u);
  EXPECT_EQ(st.rows_warning, 1u);
  EXPECT_EQ(st.score, 98u);  // round(100 * (30 - 0.5) / 30) = 98.33
}

}  // namespace
}  // namespace dq::validator
