// Issue 31's source conventions and target formats: value aliases (WooCommerce's 1/0 stock
// flags), list cells (galleries), weights of an unknown unit, GTIN padding only with the column's
// evidence, Merchant Center's formats with platform search_merchant, and the spec's errors.
#include <string>
#include <vector>

#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::Options;
using testing::RuleCase;

const std::vector<std::pair<std::string, std::string>> kStockFlags = {
    {"1", "in_stock"}, {"0", "out_of_stock"}, {"instock", "in_stock"},
    {"outofstock", "out_of_stock"}, {"onbackorder", "backorder"}};

const RuleCase kAliases[] = {
    {"stock_flag_1", "product", "", {{"availability", "1"}}, {},
     Options().Aliases("availability", kStockFlags)},
    {"stock_flag_0", "product", "", {{"availability", "0"}}, {},
     Options().Aliases("availability", kStockFlags)},
    {"stock_flag_with_spaces_kept", "product", "", {{"availability", " 1 "}}, {},
     Options().Aliases("availability", kStockFlags)},
    {"woocommerce_onbackorder", "product", "", {{"availability", "onbackorder"}}, {},
     Options().Aliases("availability", kStockFlags)},
    {"alias_any_case", "product", "", {{"availability", "InStock"}}, {},
     Options().Aliases("availability", kStockFlags)},
    {"not_an_alias_still_judged", "product", "", {{"availability", "2"}},
     {"INVALID_AVAILABILITY"}, Options().Aliases("availability", kStockFlags)},
    {"standard_value_still_valid", "product", "", {{"availability", "preorder"}}, {},
     Options().Aliases("availability", kStockFlags)},
    {"synonym_still_fixed", "product", "", {{"availability", "In Stock"}},
     {"AVAILABILITY_NORMALIZED=in_stock"}, Options().Aliases("availability", kStockFlags)},
    {"without_aliases_1_is_invalid", "product", "", {{"availability", "1"}},
     {"INVALID_AVAILABILITY"}},
    // DummyJSON's availabilityStatus: "Low Stock" is in stock with few left.
    {"low_stock_is_in_stock", "product", "", {{"availability", "Low Stock"}},
     {"AVAILABILITY_NORMALIZED=in_stock"}},
    {"low_stock_hyphenated", "product", "", {{"availability", "low-stock"}},
     {"AVAILABILITY_NORMALIZED=in_stock"}},
    {"lower_stock_still_invalid", "product", "", {{"availability", "Lower Stock"}},
     {"INVALID_AVAILABILITY"}},
};
DQ_RULE_CASES(AliasRules, kAliases);

const RuleCase kLists[] = {
    {"gallery_all_good", "product", "",
     {{"image_url", "https://a.example.com/1.jpg,https://b.example.com/2.jpg"}}, {},
     Options().List("image_url", ",")},
    {"gallery_one_bad_url", "product", "",
     {{"image_url", "https://a.example.com/1.jpg, not a url, https://c.example.com/3.jpg"}},
     {"INVALID_IMAGE_URL"}, Options().List("image_url", ",")},
    {"gallery_two_bad_urls", "product", "",
     {{"image_url", "ftp://a/1.jpg|https://b.example.com/2.jpg|nope"}},
     {"INVALID_IMAGE_URL", "INVALID_IMAGE_URL"}, Options().List("image_url", "|")},
    {"gallery_http_item", "product", "",
     {{"image_url", "https://a.example.com/1.jpg,http://b.example.com/2.jpg"}},
     {"IMAGE_URL_NOT_HTTPS"}, Options().List("image_url", ",")},
    {"gallery_empty_items_skipped", "product", "",
     {{"image_url", "https://a.example.com/1.jpg,,https://b.example.com/2.jpg,"}}, {},
     Options().List("image_url", ",")},
    {"gallery_without_convention_is_one_bad_url", "product", "",
     {{"image_url", "https://a.example.com/1.jpg, https://b.example.com/2.jpg"}},
     {"INVALID_IMAGE_URL"}},
    // A JSON source's array of URLs (a nested array's compact text) is a list by its own syntax.
    {"json_array_of_urls_all_good", "product", "",
     {{"image_url", R"(["https://a.example.com/1.webp","https://a.example.com/2.webp"])"}}, {}},
    {"json_array_empty", "product", "", {{"image_url", "[]"}}, {}},
    {"json_array_with_escaped_slashes", "product", "",
     {{"image_url", R"(["https:\/\/a.example.com\/1.jpg"])"}}, {}},
    {"json_array_trailing_comma_is_one_bad_url", "product", "",
     {{"image_url", R"(["https://a.example.com/1.jpg",])"}}, {"INVALID_IMAGE_URL"}},
    {"json_array_one_bad_url", "product", "",
     {{"image_url", R"(["https://a.example.com/1.jpg", "not a url"])"}}, {"INVALID_IMAGE_URL"}},
    {"json_array_http_item", "product", "",
     {{"image_url", R"(["https://a.example.com/1.jpg","http://b.example.com/2.jpg"])"}},
     {"IMAGE_URL_NOT_HTTPS"}},
    {"json_array_of_numbers_is_one_bad_url", "product", "", {{"image_url", "[1,2]"}},
     {"INVALID_IMAGE_URL"}},
    {"json_array_unterminated_is_one_bad_url", "product", "",
     {{"image_url", R"(["https://a.example.com/1.jpg")"}}, {"INVALID_IMAGE_URL"}},
    // A fix rewrites only the item it fixes, keeping the separator and the spaces around items.
    {"gtin_list_fix_rewrites_one_item", "product", "",
     {{"gtin", "4006381 333931 , 036000291452"}},
     {"GTIN_REFORMATTED=4006381333931 , 036000291452"}, Options().List("gtin", ",")},
    {"gtin_list_second_item_bad", "product", "", {{"gtin", "4006381333931;4006381333932"}},
     {"INVALID_GTIN_CHECKSUM"}, Options().List("gtin", ";")},
};
DQ_RULE_CASES(ListCellRules, kLists);

// A source's own number format (Magento's qty, decimal(12,4)): read, never rewritten; a real
// defect is still reported. Without the convention (generic), the fix stays as it was.
const RuleCase kOwnNumbers[] = {
    {"magento_qty_kept",
     "inventory",
     "",
     {{"sku", "A"}, {"stock_qty", "99999.0000"}},
     {},
     Options().OwnNumbers("stock_qty")},
    {"magento_zero_qty_kept",
     "inventory",
     "",
     {{"sku", "A"}, {"stock_qty", "0.0000"}},
     {},
     Options().OwnNumbers("stock_qty")},
    {"magento_negative_qty_reported",
     "inventory",
     "",
     {{"sku", "A"}, {"stock_qty", "-5.0000"}},
     {"NEGATIVE_STOCK"},
     Options().OwnNumbers("stock_qty")},
    {"magento_fraction_reported",
     "inventory",
     "",
     {{"sku", "A"}, {"stock_qty", "2.5000"}},
     {"INVALID_STOCK_QTY"},
     Options().OwnNumbers("stock_qty")},
    {"magento_word_reported",
     "inventory",
     "",
     {{"sku", "A"}, {"stock_qty", "lots"}},
     {"INVALID_STOCK_QTY"},
     Options().OwnNumbers("stock_qty")},
    {"magento_qty_at_reorder_point",
     "inventory",
     "",
     {{"sku", "A"}, {"stock_qty", "3.0000"}, {"reorder_point", "5"}},
     {"STOCK_AT_REORDER_POINT"},
     Options().OwnNumbers("stock_qty")},
    {"generic_qty_rewritten_as_before",
     "inventory",
     "",
     {{"sku", "A"}, {"stock_qty", "99999.0000"}},
     {"QUANTITY_REFORMATTED=99999"}},
    {"generic_negative_rewritten_and_reported",
     "inventory",
     "",
     {{"sku", "A"}, {"stock_qty", "-5.0000"}},
     {"NEGATIVE_STOCK", "QUANTITY_REFORMATTED=-5"}},
};
DQ_RULE_CASES(OwnNumberFormatRules, kOwnNumbers);

// Image file names relative to the platform's import folder (Magento's pub/media/import), as its
// importer takes them: ASCII letters, digits, - _ . / \, no ".." step, an image extension.
const std::vector<std::string> kMagentoImages = {"jpg", "jpeg", "gif", "png"};
const RuleCase kFileNames[] = {
    {"magento_file_name",
     "product",
     "",
     {{"image_url", "magento_image.jpg"}},
     {},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_sub_folder_and_case",
     "product",
     "",
     {{"image_url", "/m/a/Shirt-01.PNG"}},
     {},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_url_still_fine",
     "product",
     "",
     {{"image_url", "https://a.example.com/1.jpg"}},
     {},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_http_url_still_warned",
     "product",
     "",
     {{"image_url", "http://a.example.com/1.jpg"}},
     {"IMAGE_URL_NOT_HTTPS"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_space_in_name",
     "product",
     "",
     {{"image_url", "my image.gif"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_not_an_image",
     "product",
     "",
     {{"image_url", "x.exe"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_no_extension",
     "product",
     "",
     {{"image_url", "image"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_climbs_a_folder",
     "product",
     "",
     {{"image_url", "../secret/x.jpg"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_broken_url_is_no_file_name",
     "product",
     "",
     {{"image_url", "ftp://a/x.jpg"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_host_without_scheme",
     "product",
     "",
     {{"image_url", "www.example.com/x.jpg"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_ip_host_without_scheme",
     "product",
     "",
     {{"image_url", "192.0.2.1/x.jpg"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_protocol_relative_url",
     "product",
     "",
     {{"image_url", "//cdn.acme-mugs.com/x.jpg"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_host_in_additional_images_item",
     "product",
     "",
     {{"additional_image_link", "a.jpg,cdn.acme-mugs.com/b.png"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("additional_image_link", kMagentoImages, ",")},
    {"magento_dotted_folder_is_a_folder",
     "product",
     "",
     {{"image_url", "v1.2/x.jpg"}},
     {},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_folder_named_like_an_image",
     "product",
     "",
     {{"image_url", "old.jpg/x.jpg"}},
     {},
     Options().FileNames("image_url", kMagentoImages)},
    {"magento_accented_name",
     "product",
     "",
     {{"image_url", "café.jpg"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("image_url", kMagentoImages)},
    {"generic_file_name_invalid_as_before",
     "product",
     "",
     {{"image_url", "magento_image.jpg"}},
     {"INVALID_IMAGE_URL"}},
    {"magento_additional_images",
     "product",
     "",
     {{"additional_image_link", "a.jpg,https://b.example.com/2.png,c.gif"}},
     {},
     Options().FileNames("additional_image_link", kMagentoImages, ",")},
    {"magento_additional_images_bad_item",
     "product",
     "",
     {{"additional_image_link", "a.jpg,my image.gif"}},
     {"INVALID_IMAGE_URL"},
     Options().FileNames("additional_image_link", kMagentoImages, ",")},
    {"additional_images_without_convention_not_judged_here",
     "product",
     "",
     {{"additional_image_link", "my image.gif"}},
     {}},
};
DQ_RULE_CASES(ImportFileNameRules, kFileNames);

std::vector<Issue> RunOne(const std::vector<std::pair<std::string, std::string>>& row,
                          const std::string& checks, const std::string& platform,
                          const testing::CaseOptions& options) {
  std::vector<std::string> fields, values;
  for (const auto& [f, v] : row) fields.push_back(f), values.push_back(v);
  return testing::RunRows(fields, checks, platform, {values}, nullptr, options);
}

TEST(ImportFileNames, TheMessageSaysWhatTheSourceTakes) {
  const auto issues = RunOne({{"additional_image_link", "a.jpg, x.exe"}}, "product", "",
                             Options().FileNames("additional_image_link", kMagentoImages, ","));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].field, Field::kAdditionalImageLink);
  EXPECT_EQ(issues[0].message,
            "Neither an absolute http or https URL nor a file name the source's import takes "
            "from its import folder (ASCII letters, digits and - _ . / only, ending in .jpg, "
            ".jpeg, .gif, .png): item 2 of 2, 'x.exe'");
}

TEST(ImportFileNames, AHostWithoutSchemeIsReportedAsAUrl) {
  const auto issues = RunOne({{"image_url", "www.example.com/x.jpg"}}, "product", "",
                             Options().FileNames("image_url", kMagentoImages));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message,
            "A URL without its scheme: www.example.com is a host name, not a folder of the "
            "import folder; write the URL with https:// (or http://) before it");
}

TEST(ListCells, TheMessageNamesEachBadItem) {
  const auto issues = RunOne(
      {{"image_url", "https://a.example.com/1.jpg, not a url, ftp://c/3.jpg"}}, "product", "",
      Options().List("image_url", ","));
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_EQ(issues[0].message,
            "Image URL must be an absolute http or https URL: item 2 of 3, 'not a url'");
  EXPECT_EQ(issues[1].message,
            "Image URL must be an absolute http or https URL: item 3 of 3, 'ftp://c/3.jpg'");
  EXPECT_EQ(issues[0].original, "https://a.example.com/1.jpg, not a url, ftp://c/3.jpg");
}

// Weights: "unknown" makes no grams assumption; g, kg, lb and oz work as before.
const RuleCase kWeights[] = {
    {"unknown_bare_number_fine", "shipping", "", {{"weight", "2.98"}}, {},
     Options().WeightUnit("unknown")},
    {"unknown_tiny_number_not_implausible", "shipping", "", {{"weight", "0.001"}}, {},
     Options().WeightUnit("unknown")},
    {"unknown_zero_is_non_negative", "shipping", "", {{"weight", "0"}}, {},
     Options().WeightUnit("unknown")},
    {"unknown_negative", "shipping", "", {{"weight", "-1"}}, {"INVALID_WEIGHT"},
     Options().WeightUnit("unknown")},
    {"unknown_word", "shipping", "", {{"weight", "heavy"}}, {"INVALID_WEIGHT"},
     Options().WeightUnit("unknown")},
    {"unknown_decimal_comma_fixed", "shipping", "", {{"weight", "2,98"}},
     {"DECIMAL_COMMA_FIXED=2.98"}, Options().WeightUnit("unknown")},
    {"unknown_own_unit_kept", "shipping", "", {{"weight", "1.2 kg"}}, {},
     Options().WeightUnit("unknown")},
    {"unknown_own_unit_still_judged", "shipping", "", {{"weight", "5000 kg"}},
     {"IMPLAUSIBLE_WEIGHT"}, Options().WeightUnit("unknown")},
    {"grams_by_default_tiny_is_implausible", "shipping", "", {{"weight", "0.5"}},
     {"IMPLAUSIBLE_WEIGHT"}},
    // A bare number in a column read in kg or lb stays in it: the import reads it so.
    {"kg_header_bare_number_kept", "shipping", "", {{"weight", "2.98"}}, {},
     Options().WeightUnit("kg")},
    {"lb_header_bare_number_kept", "shipping", "", {{"weight", "2"}}, {},
     Options().WeightUnit("lb")},
    {"kg_header_judged_in_kg", "shipping", "", {{"weight", "1500"}},
     {"IMPLAUSIBLE_WEIGHT"}, Options().WeightUnit("kg")},
    // A value with its own unit is written in the column's.
    {"grams_in_kg_column", "shipping", "", {{"weight", "500 g"}},
     {"WEIGHT_CONVERTED_TO_COLUMN_UNIT=0.5"}, Options().WeightUnit("kg")},
    {"lbs_in_lb_column", "shipping", "", {{"weight", "2 lbs"}},
     {"WEIGHT_CONVERTED_TO_COLUMN_UNIT=2"}, Options().WeightUnit("lb")},
    {"kg_in_lb_column", "shipping", "", {{"weight", "1 kg"}},
     {"WEIGHT_CONVERTED_TO_COLUMN_UNIT=2.2046"}, Options().WeightUnit("lb")},
    {"kg_in_g_column", "shipping", "", {{"weight", "1.2 kg"}},
     {"WEIGHT_CONVERTED_TO_GRAMS=1200"}, Options().WeightUnit("g")},
};
DQ_RULE_CASES(WeightUnitRules, kWeights);

TEST(WeightUnit, UnknownSaysWhatIsExpected) {
  const auto issues = RunOne({{"weight", "-1"}}, "shipping", "", Options().WeightUnit("unknown"));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "Weight must be a non-negative number");
}

// GTIN zero-padding: only with the column's evidence; otherwise a short GTIN is reported.
const RuleCase kPadding[] = {
    {"eleven_digits_padded_with_evidence", "product", "", {{"gtin", "36000291452"}},
     {"GTIN_LEADING_ZEROS_RESTORED=036000291452"}, Options().PaddingEvidence()},
    {"eleven_digits_reported_without_evidence", "product", "", {{"gtin", "36000291452"}},
     {"INVALID_GTIN"}},
    {"random_ten_digits_reported_without_evidence", "product", "", {{"gtin", "1234567895"}},
     {"INVALID_GTIN"}},
    {"bad_check_digit_never_padded", "product", "", {{"gtin", "36000291453"}}, {"INVALID_GTIN"},
     Options().PaddingEvidence()},
    {"full_length_unaffected_by_evidence", "product", "", {{"gtin", "4006381333931"}}, {},
     Options().PaddingEvidence()},
};
DQ_RULE_CASES(GtinPaddingRules, kPadding);

TEST(GtinPadding, AShortGtinSaysHowManyDigitsItHas) {
  const auto issues = RunOne({{"gtin", "36000291452"}}, "product", "", Options());
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "GTIN has 11 digits; it must have 8, 12, 13 or 14");
  EXPECT_FALSE(issues[0].fixed.has_value());
}

// Merchant Center (search_merchant): fixes in the channel's format.
std::vector<std::pair<std::string, std::string>> Merchant(
    std::vector<std::pair<std::string, std::string>> extra) {
  return testing::MerchantRow(std::move(extra));
}

const RuleCase kMerchant[] = {
    {"price_with_code_kept", "product", "search_merchant", Merchant({}), {}},
    {"price_aed_kept", "product", "search_merchant", Merchant({{"price", "352 AED"}}), {}},
    {"price_aed_without_platform_reformatted", "product", "", {{"price", "352 AED"}},
     {"PRICE_REFORMATTED=352"}},
    // Kept as it is; the Merchant Center pack says it lacks Google's ISO 4217 code (issue 32).
    {"price_bare_number_kept", "product", "search_merchant", Merchant({{"price", "15.00"}}),
     {"PLATFORM_PRICE_CURRENCY"}},
    {"price_decimal_comma_keeps_code", "product", "search_merchant",
     Merchant({{"price", "15,00 USD"}}), {"DECIMAL_COMMA_FIXED=15.00 USD"}},
    {"price_thousands_keep_code", "product", "search_merchant",
     Merchant({{"price", "1,299.00 USD"}}), {"PRICE_REFORMATTED=1299.00 USD"}},
    {"price_code_first_moved_after", "product", "search_merchant",
     Merchant({{"price", "USD 15.00"}}), {"PRICE_REFORMATTED=15.00 USD"}},
    {"price_code_upper_cased", "product", "search_merchant", Merchant({{"price", "15.00 usd"}}),
     {"PRICE_REFORMATTED=15.00 USD"}},
    {"price_dollar_with_row_currency", "product", "search_merchant",
     Merchant({{"price", "$15"}, {"currency", "USD"}}), {"PRICE_REFORMATTED=15.00 USD"}},
    {"price_dollar_uncertain", "product", "search_merchant", Merchant({{"price", "$15"}}),
     {"INVALID_PRICE"}},
    {"price_euro_sign_certain", "product", "search_merchant",
     Merchant({{"price", "\xE2\x82\xAC" "4,5"}}), {"DECIMAL_COMMA_FIXED=4.50 EUR"}},
    {"price_rupee_sign_certain", "product", "search_merchant",
     Merchant({{"price", "\xE2\x82\xB9" "1,39,900"}}), {"PRICE_REFORMATTED=139900.00 INR"}},
    // The code says rupees as the sign does: its commas only group digits.
    {"price_rupee_code_after_grouped", "product", "search_merchant",
     Merchant({{"price", "1,39,900 INR"}}), {"PRICE_REFORMATTED=139900 INR"}},
    {"price_rupee_code_first_grouped", "product", "search_merchant",
     Merchant({{"price", "INR 1,099"}}), {"PRICE_REFORMATTED=1099 INR"}},
    {"price_real_sign_certain", "product", "search_merchant", Merchant({{"price", "R$ 19,90"}}),
     {"DECIMAL_COMMA_FIXED=19.90 BRL"}},
    {"price_euro_sign_against_row_currency", "product", "search_merchant",
     Merchant({{"price", "\xE2\x82\xAC" "15"}, {"currency", "USD"}}), {"INVALID_PRICE"}},
    {"price_unknown_code", "product", "search_merchant", Merchant({{"price", "15.00 XYZ"}}),
     {"INVALID_PRICE"}},
    {"price_zero_with_code", "product", "search_merchant", Merchant({{"price", "0.00 USD"}}),
     {"INVALID_PRICE"}},
    {"price_with_code_feeds_margin", "product,price", "search_merchant",
     Merchant({{"cost_price", "20.00 USD"}}), {"NEGATIVE_MARGIN"}},
    {"price_with_code_feeds_compare_at", "product,price", "search_merchant",
     Merchant({{"compare_at_price", "12.00 USD"}}), {"COMPARE_AT_NOT_HIGHER"}},
    // Google's availability values and spellings stay as they are.
    {"availability_in_stock_spaced", "product", "search_merchant", Merchant({}), {}},
    {"availability_in_stock", "product", "search_merchant",
     Merchant({{"availability", "in_stock"}}), {}},
    {"availability_out_of_stock_spaced", "product", "search_merchant",
     Merchant({{"availability", "out of stock"}}), {}},
    {"availability_out_of_stock", "product", "search_merchant",
     Merchant({{"availability", "out_of_stock"}}), {}},
    {"availability_preorder", "product", "search_merchant",
     Merchant({{"availability", "preorder"}, {"availability_date", "2026-07-01"}}), {}},
    {"availability_backorder", "product", "search_merchant",
     Merchant({{"availability", "backorder"}, {"availability_date", "2026-07-01"}}), {}},
    {"availability_back_order_fixed", "product", "search_merchant",
     Merchant({{"availability", "Back Order"}, {"availability_date", "2026-07-01"}}),
     {"AVAILABILITY_NORMALIZED=backorder"}},
    {"availability_capitalised_fixed", "product", "search_merchant",
     Merchant({{"availability", "In Stock"}}), {"AVAILABILITY_NORMALIZED=in_stock"}},
    {"availability_unknown", "product", "search_merchant", Merchant({{"availability", "maybe"}}),
     {"INVALID_AVAILABILITY"}},
    {"availability_backorder_without_platform", "product", "", {{"availability", "backorder"}},
     {"INVALID_AVAILABILITY"}},
    {"availability_spaced_without_platform_fixed", "product", "",
     {{"availability", "in stock"}}, {"AVAILABILITY_NORMALIZED=in_stock"}},
    // A shipping weight keeps its unit.
    {"weight_keeps_unit", "product,shipping", "search_merchant", Merchant({{"weight", "0.3 kg"}}),
     {}},
    {"weight_keeps_unit_still_judged", "product,shipping", "search_merchant",
     Merchant({{"weight", "5000 kg"}}), {"IMPLAUSIBLE_WEIGHT", "PLATFORM_INVALID_WEIGHT"}},
    // A bare number whose unit the header names is given it: Google wants "Number plus unit"
    // (support.google.com/merchants/answer/6324503).
    {"weight_bare_number_in_header_unit_gets_it", "product,shipping", "search_merchant",
     Merchant({{"weight", "0.3"}}), {"WEIGHT_UNIT_ADDED=0.3 kg"}, Options().WeightUnit("kg")},
    {"weight_bare_decimal_comma_gets_unit", "product,shipping", "search_merchant",
     Merchant({{"weight", "0,3"}}), {"WEIGHT_UNIT_ADDED=0.3 kg"}, Options().WeightUnit("kg")},
    {"weight_bare_grams_by_header_get_g", "product,shipping", "search_merchant",
     Merchant({{"weight", "300"}}), {"WEIGHT_UNIT_ADDED=300 g"}, Options().WeightUnit("g")},
    // Grams only by default (no header unit): not certain, so reported, not fixed.
    {"weight_bare_number_default_grams_reported", "product,shipping", "search_merchant",
     Merchant({{"weight", "300"}}), {"PLATFORM_INVALID_WEIGHT"}},
    // What the shipping check reports (INVALID_WEIGHT) is not reported again by the channel;
    // a unit the shipping check converts but Google does not list is the channel's alone.
    {"weight_text_reported_once", "product,shipping", "search_merchant",
     Merchant({{"weight", "heavy"}}), {"INVALID_WEIGHT"}},
    {"weight_negative_reported_once", "product,shipping", "search_merchant",
     Merchant({{"weight", "-1 kg"}}), {"INVALID_WEIGHT"}},
    {"weight_unconvertible_unit_reported_once", "product,shipping", "search_merchant",
     Merchant({{"weight", "3 stone"}}), {"INVALID_WEIGHT"}},
    // A unit Google does not list but whose meaning is certain is written as Google spells it
    // ("lb, oz, g, kg", support.google.com/merchants/answer/6324503), the number kept.
    {"weight_lbs_spelt_lb", "product,shipping", "search_merchant",
     Merchant({{"weight", "2 lbs"}}), {"WEIGHT_UNIT_NORMALIZED=2 lb"}},
    {"weight_grams_spelt_g", "product,shipping", "search_merchant",
     Merchant({{"weight", "500 grams"}}), {"WEIGHT_UNIT_NORMALIZED=500 g"}},
    {"weight_kgs_upper_case_spelt_kg", "product,shipping", "search_merchant",
     Merchant({{"weight", "1.25KGS"}}), {"WEIGHT_UNIT_NORMALIZED=1.25 kg"}},
    {"weight_ounces_spelt_oz", "product,shipping", "search_merchant",
     Merchant({{"weight", "3 Ounces"}}), {"WEIGHT_UNIT_NORMALIZED=3 oz"}},
    {"weight_decimal_comma_lbs_spelt_lb", "product,shipping", "search_merchant",
     Merchant({{"weight", "3,5 lbs"}}), {"WEIGHT_UNIT_NORMALIZED=3.5 lb"}},
    {"weight_lbs_of_an_unknown_column_unit_spelt_lb", "product,shipping", "search_merchant",
     Merchant({{"weight", "2 lbs"}}), {"WEIGHT_UNIT_NORMALIZED=2 lb"},
     Options().WeightUnit("unknown")},
    // A unit Google takes as written (without case, a space optional) is left alone.
    {"weight_upper_case_lb_kept", "product,shipping", "search_merchant",
     Merchant({{"weight", "2 LB"}}), {}},
    {"weight_lb_without_space_kept", "product,shipping", "search_merchant",
     Merchant({{"weight", "2lb"}}), {}},
    // Without the shipping check nothing fixes the weight: the channel reports the unit.
    {"weight_lbs_without_shipping_check_reported", "product", "search_merchant",
     Merchant({{"weight", "2 lbs"}}), {"PLATFORM_INVALID_WEIGHT"}},
    {"weight_lbs_still_judged_after_spelling", "product,shipping", "search_merchant",
     Merchant({{"weight", "5000 lbs"}}),
     {"WEIGHT_UNIT_NORMALIZED=5000 lb", "IMPLAUSIBLE_WEIGHT", "PLATFORM_INVALID_WEIGHT"}},
    {"weight_bare_number_unknown_unit_reported", "product,shipping", "search_merchant",
     Merchant({{"weight", "300"}}), {"PLATFORM_INVALID_WEIGHT"}, Options().WeightUnit("unknown")},
    // The unit is kept for any selected channel that wants it, even when listed second, and so
    // is the price's code: a fix never takes away what a selected channel needs.
    {"weight_and_price_keep_their_unit_and_code_for_a_second_channel", "product,shipping",
     "marketplace2,search_merchant",
     Merchant({{"weight", "0.3 kg"}, {"category", "Mugs"}, {"stock_qty", "3"}}), {}},
    {"price_keeps_its_code_when_fixed_for_a_second_channel", "product", "marketplace2,search_merchant",
     Merchant({{"price", "15,00 USD"}, {"category", "Mugs"}, {"stock_qty", "3"}}),
     {"DECIMAL_COMMA_FIXED=15.00 USD"}},
    {"backorder_spelt_otherwise_for_a_second_channel", "product", "marketplace2,search_merchant",
     Merchant({{"availability", "Back-order"}, {"category", "Mugs"}, {"stock_qty", "3"},
               {"availability_date", "2026-12-01"}}),
     {"AVAILABILITY_NORMALIZED=backorder"}},
    {"weight_converted_without_platform", "shipping", "", {{"weight", "0.3 kg"}},
     {"WEIGHT_CONVERTED_TO_GRAMS=300"}},
};
DQ_RULE_CASES(MerchantFormatRules, kMerchant);

TEST(MerchantFormat, AnUncertainCurrencySaysWhy) {
  const auto issues = RunOne(Merchant({{"price", "$15"}}), "product", "search_merchant", Options());
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message,
            "The currency of $15 is not certain; Merchant Center needs the amount and its ISO "
            "4217 code, such as 15.00 USD");
  const auto code = RunOne(Merchant({{"price", "15.00 XYZ"}}), "product", "search_merchant",
                           Options());
  ASSERT_EQ(code.size(), 1u);
  EXPECT_EQ(code[0].message,
            "XYZ is not an ISO 4217 currency code; Merchant Center needs the amount and its "
            "code, such as 15.00 USD");
  // Both channels that want the code are named, wherever they are listed.
  const auto both = RunOne(Merchant({{"price", "$15"}, {"condition", "new"}}), "product",
                           "social_catalog,search_merchant", Options());
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].message,
            "The currency of $15 is not certain; Meta and Merchant Center need the amount and "
            "its ISO 4217 code, such as 15.00 USD");
}

// Meta (social_catalog): a price is "a number, a space and the ISO 4217 code" (Meta's catalog
// fields reference), as in Merchant Center: fixes keep the code (issue 31, Meta's template
// "10.00 USD" was rewritten to "10.00").
std::vector<std::pair<std::string, std::string>> MetaRow(
    std::vector<std::pair<std::string, std::string>> extra) {
  auto row = Merchant(std::move(extra));
  row.emplace_back("condition", "new");  // required by the Meta pack
  return row;
}

const RuleCase kMeta[] = {
    {"price_with_code_kept", "product", "social_catalog", MetaRow({{"price", "10.00 USD"}}), {}},
    // shipping_weight: "Include the unit of measurement (lb/oz/g/kg)" (Meta's catalog template).
    // Issue 31: Meta's template "10 kg" was rewritten to 10000.
    {"weight_keeps_unit", "product,shipping", "social_catalog", MetaRow({{"weight", "10 kg"}}),
     {}},
    {"weight_bare_number_in_header_unit_gets_it", "product,shipping", "social_catalog",
     MetaRow({{"weight", "2"}}), {"WEIGHT_UNIT_ADDED=2 lb"}, Options().WeightUnit("lb")},
    {"weight_without_unit", "product,shipping", "social_catalog", MetaRow({{"weight", "300"}}),
     {"PLATFORM_INVALID_WEIGHT"}},
    {"weight_pounds_spelt_lb", "product,shipping", "social_catalog",
     MetaRow({{"weight", "2 pounds"}}), {"WEIGHT_UNIT_NORMALIZED=2 lb"}},
    {"price_with_code_kept_with_price_check", "product,price", "social_catalog",
     MetaRow({{"price", "10.00 USD"}, {"sale_price", "8.00 USD"}}), {}},
    {"price_thousands_keep_code", "product", "social_catalog",
     MetaRow({{"price", "1,299.00 USD"}}), {"PRICE_REFORMATTED=1299.00 USD"}},
    {"price_decimal_comma_keeps_code", "product", "social_catalog",
     MetaRow({{"price", "15,00 USD"}}), {"DECIMAL_COMMA_FIXED=15.00 USD"}},
    {"price_code_first_moved_after", "product", "social_catalog",
     MetaRow({{"price", "USD 15.00"}}), {"PRICE_REFORMATTED=15.00 USD"}},
    {"price_zero_with_code", "product", "social_catalog", MetaRow({{"price", "0.00 USD"}}),
     {"INVALID_PRICE"}},
    {"price_with_code_feeds_compare_at", "product,price", "social_catalog",
     MetaRow({{"compare_at_price", "12.00 USD"}}), {"COMPARE_AT_NOT_HIGHER"}},
    // The first listed template is the cleaned file's format.
    {"meta_first_of_two_keeps_code", "product", "social_catalog,search_merchant",
     MetaRow({{"price", "10.00 USD"}}), {}},
    {"price_with_code_without_platform_reformatted", "product", "", {{"price", "10.00 USD"}},
     {"PRICE_REFORMATTED=10.00"}},
};
DQ_RULE_CASES(MetaFormatRules, kMeta);

TEST(MetaFormat, AnUncertainCurrencyNamesMeta) {
  const auto issues =
      RunOne(MetaRow({{"price", "$15"}}), "product", "social_catalog", Options());
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message,
            "The currency of $15 is not certain; Meta needs the amount and its ISO 4217 code, "
            "such as 15.00 USD");
}

// The spec's knobs, checked when the batch starts.
TEST(SpecConventions, BadConventionsAreRefusedWithTheReason) {
  const std::vector<std::string> fields = {"sku", "availability", "image_url"};
  auto make = [&] {
    auto spec = BatchSpec::Make(fields, {}, "");
    EXPECT_TRUE(spec.ok());
    return *spec;
  };
  struct Case {
    std::string name, field, separator;
    std::vector<std::pair<std::string, std::string>> aliases;
    std::string message;
  };
  const Case cases[] = {
      {"unknown_field", "colour", "", {}, "conventions: unknown standard field 'colour'"},
      {"not_in_fields", "gtin", ",", {},
       "conventions: field 'gtin' is not one of the batch's fields"},
      {"alias_with_two_meanings", "availability", "", {{"Yes", "in_stock"}, {" yes", "preorder"}},
       "conventions: field 'availability' gives the alias 'yes' two meanings (aliases are "
       "compared trimmed and without regard to case)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BatchSpec spec = make();
    const Status s = spec.AddConvention(c.field, c.separator, c.aliases);
    EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
    EXPECT_EQ(s.message(), c.message);
  }
  for (const char* ext : {"", ".", "j p g", "abcdefghijk"}) {
    BatchSpec spec = make();
    const Status bad = spec.AddConvention("image_url", "", {}, false, {"jpg", ext});
    EXPECT_EQ(bad.message(), "conventions: field 'image_url' gives the file extension '" +
                                 std::string(ext) +
                                 "'; an extension is 1 to 10 ASCII letters and digits");
  }
  {
    BatchSpec spec = make();
    ASSERT_TRUE(spec.AddConvention("image_url", "", {}, false, {".JPG", "png"}).ok());
    EXPECT_EQ(spec.conventions[static_cast<size_t>(Field::kImageUrl)].file_extensions,
              (std::vector<std::string>{"jpg", "png"}));
  }
  BatchSpec spec = make();
  ASSERT_TRUE(spec.AddConvention("image_url", ",", {}).ok());
  const Status twice = spec.AddConvention("image_url", "|", {});
  EXPECT_EQ(twice.message(), "conventions: field 'image_url' is listed twice");
  // The same spelling twice with one meaning is no conflict.
  EXPECT_TRUE(spec.AddConvention("availability", "", {{"1", "in_stock"}, {" 1", "in_stock"}}).ok());
  EXPECT_EQ(spec.conventions[static_cast<size_t>(Field::kAvailability)].aliases.size(), 1u);
}

TEST(SpecConventions, WeightUnitsAndTheirErrors) {
  BatchSpec spec;
  for (const char* unit : {"", "g", "kg", "lb", "oz", "unknown"}) {
    EXPECT_TRUE(spec.SetWeightUnit(unit).ok()) << unit;
    EXPECT_EQ(spec.weight_unit_known, std::string(unit) != "unknown") << unit;
  }
  const Status s = spec.SetWeightUnit("stone");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(s.message(), "unknown weight unit 'stone'; use g, kg, lb, oz or unknown");
}

}  // namespace
}  // namespace dq::validator
