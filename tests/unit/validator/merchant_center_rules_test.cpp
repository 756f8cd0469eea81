// The labelled Merchant Center set (issue 32): one complete, valid search_merchant row, then rows
// that each break one documented rule of Google's product data specification
// (support.google.com/merchants/answer/7052112 and the attribute pages named beside each case).
// Every broken rule must be caught, as exactly the expected issue on the expected field, and
// every valid row must give no issue at all.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "rule_case.h"

namespace dq::validator {
namespace {

using Row = std::vector<std::pair<std::string, std::string>>;

// A complete item, valid for Merchant Center. Mapped with the product check and the
// search_merchant template.
const Row kValid = {
    {"sku", "AC-MUG-350"},
    {"title", "Acme Ceramic Coffee Mug 350 ml, Blue"},
    {"description", "Stoneware mug with a glazed finish. Holds 350 ml. Dishwasher safe."},
    {"price", "12.50"},
    {"currency", "USD"},
    {"link", "https://acme-mugs.com/p/ac-mug-350"},
    {"image_url", "https://cdn.acme-mugs.com/img/ac-mug-350.jpg"},
    {"availability", "in_stock"},
    {"brand", "Acme"},
    {"gtin", "4006381333931"},
    {"mpn", "AC-MUG-350"},
    {"condition", "new"},
    {"google_product_category", "2169"},
    {"product_type", "Home > Kitchen > Mugs"},
};

constexpr const char* kRemove = "\x01";  // an override that takes the field out of the row

Row With(std::vector<std::pair<std::string, std::string>> overrides, const Row& base = kValid) {
  Row row = base;
  for (const auto& [field, value] : overrides) {
    auto it = std::find_if(row.begin(), row.end(), [&](const auto& p) { return p.first == field; });
    if (value == kRemove) {
      if (it != row.end()) row.erase(it);
    } else if (it != row.end()) {
      it->second = value;
    } else {
      row.emplace_back(field, value);
    }
  }
  return row;
}

// An apparel item: Clothing > Shirts & Tops (212), with every apparel attribute.
const Row kShirt = With({{"sku", "TS-RED-M"},
                         {"title", "Acme Organic Cotton T-Shirt, Red, M"},
                         {"google_product_category", "212"},
                         {"gtin", kRemove},
                         {"color", "Red"},
                         {"size", "M"},
                         {"gender", "unisex"},
                         {"age_group", "adult"},
                         {"item_group_id", "TS-ORGANIC"}});

struct Labelled {
  std::string name;
  std::string source;  // the page of Google's specification the rule comes from
  Row row;
  std::vector<std::string> expect;  // "CODE@field", sorted by the test
};

std::vector<std::string> Issues(const Row& row, const std::string& platform = "search_merchant") {
  std::vector<std::string> fields, values;
  for (const auto& [f, v] : row) fields.push_back(f), values.push_back(v);
  std::vector<std::string> got;
  for (const Issue& i : testing::RunRows(fields, "product", platform, {values})) {
    got.push_back(std::string(Def(i.code).code) + "@" + std::string(FieldName(i.field)));
  }
  std::sort(got.begin(), got.end());
  return got;
}

// prefix followed by n copies of c (appended: GCC 12 warns, -Wrestrict, on "literal" + string).
std::string Repeat(char c, size_t n, std::string prefix = "") { return prefix.append(n, c); }

const Labelled kCases[] = {
    // --- valid rows: no issue at all ---
    {"valid_item", "7052112", kValid, {}},
    {"valid_brand_and_mpn_without_gtin", "12474954", With({{"gtin", ""}}), {}},
    {"valid_identifier_exists_no_without_identifiers",
     "12472746",
     With({{"gtin", ""}, {"mpn", ""}, {"identifier_exists", "no"}}),
     {}},
    {"valid_backorder_with_date",
     "12472827",
     With({{"availability", "backorder"}, {"availability_date", "2026-07-01T09:00+0100"}}),
     {}},
    {"valid_preorder_within_a_year",
     "6324470",
     With({{"availability", "preorder"}, {"availability_date", "2027-06-01"}}),
     {}},
    {"valid_sale_with_dates",
     "12471623",
     With({{"sale_price", "9.99 USD"},
           {"sale_price_effective_date", "2026-06-01T00:00-0800/2026-06-30T23:59-0800"}}),
     {}},
    {"valid_category_path",
     "6324436",
     With({{"google_product_category",
            "home & garden > Kitchen & Dining>Tableware > Drinkware > Mugs"}}),
     {}},
    {"valid_safe_html",
     "6324468",
     With({{"description",
            "<p>Stoneware mug.</p><ul><li>350 ml</li><li>Dishwasher safe</li></ul>"}}),
     {}},
    {"valid_acronyms_in_title", "6324415", With({{"title", "USB-C HDMI Adapter, 4K"}}), {}},
    {"valid_brand_in_capitals", "6324415", With({{"title", "IKEA KALLAX Shelf Insert"}}), {}},
    {"valid_http_link", "6324416", With({{"link", "http://acme-mugs.com/p/ac-mug-350"}}), {}},
    {"valid_apparel_item", "7052112", kShirt, {}},
    {"valid_webp_image",
     "12472547",
     With({{"image_url", "https://cdn.acme-mugs.com/img/ac-mug-350.webp"}}),
     {}},
    {"valid_dynamic_image",
     "12472547",
     With({{"image_url", "https://cdn.acme-mugs.com/GetImage.ashx?id=350"}}),
     {}},
    {"valid_ten_additional_images",
     "12472826",
     With({{"additional_image_link",
            "https://cdn.acme-mugs.com/1.jpg,https://cdn.acme-mugs.com/2.jpg,"
            "https://cdn.acme-mugs.com/3.jpg,https://cdn.acme-mugs.com/4.jpg,"
            "https://cdn.acme-mugs.com/5.jpg,https://cdn.acme-mugs.com/6.jpg,"
            "https://cdn.acme-mugs.com/7.jpg,https://cdn.acme-mugs.com/8.jpg,"
            "https://cdn.acme-mugs.com/9.jpg,https://cdn.acme-mugs.com/10.jpg"}}),
     {}},

    // --- id ---
    {"id_51_characters",
     "6324405",
     With({{"sku", Repeat('A', 51)}}),
     {"PLATFORM_VALUE_TOO_LONG@sku"}},
    // --- title ---
    {"title_missing", "6324415", With({{"title", ""}}), {"PLATFORM_MISSING_FIELD@title"}},
    {"title_151_characters",
     "6324415",
     With({{"title", Repeat('x', 147, "Mug ")}}),
     {"PLATFORM_TITLE_TOO_LONG@title"}},
    {"title_all_capitals",
     "6324415",
     With({{"title", "ACME CERAMIC COFFEE MUG"}}),
     {"PLATFORM_EXCESSIVE_CAPITALS@title"}},
    {"title_free_shipping",
     "6324415",
     With({{"title", "Acme Ceramic Mug - free shipping"}}),
     {"PLATFORM_PROMOTIONAL_TEXT@title"}},
    {"title_price",
     "6324415",
     With({{"title", "Acme Ceramic Mug only $12.50"}}),
     {"PLATFORM_PROMOTIONAL_TEXT@title"}},
    {"title_exclamation",
     "6324415",
     With({{"title", "Acme Ceramic Mug!"}}),
     {"PLATFORM_GIMMICKY_CHARACTERS@title"}},
    {"title_emoji",
     "6324415",
     With({{"title", "Acme Ceramic Mug \xE2\x98\x95"}}),
     {"PLATFORM_GIMMICKY_CHARACTERS@title"}},
    {"title_repeated_word",
     "manufacturers/6124110",
     With({{"title", "Acme Mug Mug 350 ml"}}),
     {"PLATFORM_REPEATED_WORDS@title"}},
    // --- description ---
    {"description_missing",
     "6324468",
     With({{"description", ""}}),
     {"PLATFORM_MISSING_FIELD@description"}},
    {"description_5001_characters",
     "6324468",
     With({{"description", Repeat('d', 5001)}}),
     {"PLATFORM_DESCRIPTION_TRUNCATED@description"}},
    {"description_tag_with_attributes",
     "6324468",
     With({{"description", "<p class=\"lead\">Stoneware mug.</p>"}}),
     {"PLATFORM_DESCRIPTION_HTML@description"}},
    {"description_unsafe_tag",
     "6324468",
     With({{"description", "Stoneware mug.<script>track()</script>"}}),
     {"PLATFORM_DESCRIPTION_HTML@description"}},
    {"description_all_capitals",
     "6324468",
     With({{"description", "STONEWARE MUG WITH A GLAZED FINISH. DISHWASHER SAFE."}}),
     {"PLATFORM_EXCESSIVE_CAPITALS@description"}},
    {"description_promotional",
     "6324468",
     With({{"description", "Stoneware mug. Free shipping on every order."}}),
     {"PLATFORM_PROMOTIONAL_TEXT@description"}},
    {"description_link",
     "6324468",
     With({{"description", "Stoneware mug. More at www.acme-mugs.com today."}}),
     {"PLATFORM_LINK_IN_DESCRIPTION@description"}},
    // --- link ---
    {"link_missing", "7052112", With({{"link", ""}}), {"PLATFORM_MISSING_FIELD@link"}},
    {"link_not_absolute",
     "6324416",
     With({{"link", "/p/ac-mug-350"}}),
     {"PLATFORM_INVALID_URL@link"}},
    {"link_2001_characters",
     "6324416",
     With({{"link", Repeat('a', 2001 - 24, "https://acme-mugs.com/p/")}}),
     {"PLATFORM_VALUE_TOO_LONG@link"}},
    {"link_on_loopback",
     "6324416",
     With({{"link", "http://127.0.0.1:8080/p/ac-mug-350"}}),
     {"PLATFORM_PLACEHOLDER_URL@link"}},
    {"link_on_example_domain",
     "6324416",
     With({{"link", "https://shop.example.com/p/1"}}),
     {"PLATFORM_PLACEHOLDER_URL@link"}},
    // --- image_link ---
    {"image_missing", "12472547", With({{"image_url", ""}}), {"PLATFORM_MISSING_FIELD@image_url"}},
    {"image_is_a_web_page",
     "12472547",
     With({{"image_url", "https://acme-mugs.com/p/ac-mug-350.html"}}),
     {"PLATFORM_IMAGE_FORMAT@image_url"}},
    {"image_svg",
     "12472547",
     With({{"image_url", "https://cdn.acme-mugs.com/img/mug.svg"}}),
     {"PLATFORM_IMAGE_FORMAT@image_url"}},
    {"image_placeholder",
     "12472547",
     With({{"image_url", "https://cdn.acme-mugs.com/img/no-image.jpg"}}),
     {"PLATFORM_PLACEHOLDER_URL@image_url"}},
    {"image_2001_characters",
     "12472547",
     With({{"image_url", Repeat('i', 2001 - 30, "https://cdn.acme-mugs.com/").append(".jpg")}}),
     {"PLATFORM_VALUE_TOO_LONG@image_url"}},
    {"image_not_a_url",
     "12472547",
     With({{"image_url", "img/ac-mug-350.jpg"}}),
     {"INVALID_IMAGE_URL@image_url"}},
    {"additional_images_11",
     "12472826",
     With({{"additional_image_link",
            "https://c.acme-mugs.com/1.jpg,https://c.acme-mugs.com/2.jpg,"
            "https://c.acme-mugs.com/3.jpg,https://c.acme-mugs.com/4.jpg,"
            "https://c.acme-mugs.com/5.jpg,https://c.acme-mugs.com/6.jpg,"
            "https://c.acme-mugs.com/7.jpg,https://c.acme-mugs.com/8.jpg,"
            "https://c.acme-mugs.com/9.jpg,https://c.acme-mugs.com/10.jpg,"
            "https://c.acme-mugs.com/11.jpg"}}),
     {"PLATFORM_VALUE_TOO_LONG@additional_image_link"}},
    {"additional_image_not_a_url",
     "12472826",
     With({{"additional_image_link", "https://c.acme-mugs.com/1.jpg,2.jpg"}}),
     {"PLATFORM_INVALID_URL@additional_image_link"}},
    // --- price and sale_price ---
    {"price_missing", "12471842", With({{"price", ""}}), {"INVALID_PRICE@price"}},
    {"price_without_currency",
     "12471842",
     With({{"currency", kRemove}}),
     {"PLATFORM_PRICE_CURRENCY@price"}},
    {"sale_price_not_below_price",
     "12471623",
     With({{"sale_price", "12.50 USD"}}),
     {"PLATFORM_SALE_PRICE_NOT_LOWER@sale_price"}},
    {"sale_price_not_a_price",
     "12471623",
     With({{"sale_price", "half price"}}),
     {"PLATFORM_INVALID_SALE_PRICE@sale_price"}},
    {"sale_price_other_currency",
     "12471623",
     With({{"sale_price", "9.99 EUR"}}),
     {"PLATFORM_INVALID_SALE_PRICE@sale_price"}},
    {"sale_dates_reversed",
     "12471843",
     With({{"sale_price", "9.99 USD"},
           {"sale_price_effective_date", "2026-06-30T23:59-0800/2026-06-01T00:00-0800"}}),
     {"PLATFORM_INVALID_DATE@sale_price_effective_date"}},
    {"sale_dates_unreadable",
     "12471843",
     With({{"sale_price", "9.99 USD"}, {"sale_price_effective_date", "all of June"}}),
     {"PLATFORM_INVALID_DATE@sale_price_effective_date"}},
    {"sale_dates_52_characters",
     "12471843",
     With(
         {{"sale_price", "9.99 USD"},
          {"sale_price_effective_date", "2026-06-01T00:00:00.0-0800/2026-06-30T23:59:00.0-08:00"}}),
     {"PLATFORM_VALUE_TOO_LONG@sale_price_effective_date"}},
    // --- availability ---
    {"availability_missing",
     "12472827",
     With({{"availability", ""}}),
     {"PLATFORM_MISSING_FIELD@availability"}},
    {"availability_unknown_value",
     "12472827",
     With({{"availability", "limited"}}),
     {"INVALID_AVAILABILITY@availability"}},
    {"backorder_without_date",
     "12472827",
     With({{"availability", "backorder"}}),
     {"PLATFORM_MISSING_FIELD@availability_date"}},
    {"preorder_without_date",
     "6324470",
     With({{"availability", "preorder"}}),
     {"PLATFORM_MISSING_FIELD@availability_date"}},
    {"availability_date_unreadable",
     "6324470",
     With({{"availability", "preorder"}, {"availability_date", "early July"}}),
     {"PLATFORM_INVALID_DATE@availability_date"}},
    {"preorder_date_beyond_a_year",
     "6324470",
     With({{"availability", "preorder"}, {"availability_date", "2027-08-01"}}),
     {"PLATFORM_INVALID_DATE@availability_date"}},
    // --- identifiers ---
    {"identifier_exists_unknown_value",
     "12472746",
     With({{"identifier_exists", "maybe"}}),
     {"PLATFORM_INVALID_VALUE@identifier_exists"}},
    {"identifier_exists_no_with_gtin",
     "12472746",
     With({{"identifier_exists", "no"}}),
     {"PLATFORM_IDENTIFIER_EXISTS_MISUSED@identifier_exists"}},
    {"no_gtin_and_no_mpn",
     "12474954",
     With({{"gtin", ""}, {"mpn", ""}}),
     {"PLATFORM_MISSING_IDENTIFIERS@mpn"}},
    // Google asks identifiers of new products only (12472746; mpn, 6324482: "only if your new
    // product does not have a manufacturer assigned GTIN"): a real used-car feed got it on
    // every vehicle.
    {"used_item_without_identifiers",
     "6324482",
     With({{"gtin", ""}, {"mpn", ""}, {"condition", "used"}}),
     {}},
    {"refurbished_item_without_identifiers",
     "6324482",
     With({{"gtin", ""}, {"mpn", ""}, {"condition", "Refurbished"}}),
     {}},
    {"new_item_without_identifiers",
     "12474954",
     With({{"gtin", ""}, {"mpn", ""}, {"condition", "New"}}),
     {"PLATFORM_MISSING_IDENTIFIERS@mpn"}},
    // A condition the channel does not know is its own issue; the identifiers are still asked,
    // so the merchant does not learn of them only after correcting it (review45).
    {"unknown_condition_without_identifiers",
     "12474954",
     With({{"gtin", ""}, {"mpn", ""}, {"condition", "brand new"}}),
     {"PLATFORM_INVALID_VALUE@condition", "PLATFORM_MISSING_IDENTIFIERS@mpn"}},
    {"mpn_71_characters",
     "12474954",
     With({{"mpn", Repeat('M', 71)}}),
     {"PLATFORM_VALUE_TOO_LONG@mpn"}},
    {"gtin_check_digit",
     "12473440",
     With({{"gtin", "4006381333932"}}),
     {"INVALID_GTIN_CHECKSUM@gtin"}},
    {"gtin_restricted_prefix",
     "12473440",
     With({{"gtin", "2001234567893"}}),
     {"GTIN_RESTRICTED_PREFIX@gtin"}},
    // --- brand ---
    {"brand_missing", "12468352", With({{"brand", ""}}), {"PLATFORM_MISSING_FIELD@brand"}},
    {"brand_n_a", "12468352", With({{"brand", "N/A"}}), {"PLATFORM_BRAND_PLACEHOLDER@brand"}},
    {"brand_generic",
     "12468352",
     With({{"brand", "Generic"}}),
     {"PLATFORM_BRAND_PLACEHOLDER@brand"}},
    {"brand_unbranded",
     "12468352",
     With({{"brand", "Unbranded"}}),
     {"PLATFORM_BRAND_PLACEHOLDER@brand"}},
    // --- condition ---
    {"condition_unknown_value",
     "12471921",
     With({{"condition", "mint"}}),
     {"PLATFORM_INVALID_VALUE@condition"}},
    {"refurbished_without_condition",
     "12471921",
     With({{"title", "Refurbished Acme Espresso Machine"}, {"condition", ""}}),
     {"PLATFORM_MISSING_FIELD@condition"}},
    // --- category and product type ---
    {"category_unknown_id",
     "6324436",
     With({{"google_product_category", "999999"}}),
     {"PLATFORM_UNKNOWN_GOOGLE_CATEGORY@google_product_category"}},
    {"category_unknown_path",
     "6324436",
     With({{"google_product_category", "Home > Mugs"}}),
     {"PLATFORM_UNKNOWN_GOOGLE_CATEGORY@google_product_category"}},
    {"category_id_and_path",
     "6324436",
     With({{"google_product_category",
            "2169 - Home & Garden > Kitchen & Dining > Tableware > Drinkware > Mugs"}}),
     {"PLATFORM_UNKNOWN_GOOGLE_CATEGORY@google_product_category"}},
    {"product_type_751_characters",
     "6324406",
     With({{"product_type", Repeat('p', 751)}}),
     {"PLATFORM_VALUE_TOO_LONG@product_type"}},
    // --- apparel ---
    {"apparel_without_color",
     "7052112",
     With({{"color", ""}}, kShirt),
     {"PLATFORM_MISSING_FIELD@color"}},
    {"apparel_without_gender",
     "7052112",
     With({{"gender", ""}}, kShirt),
     {"PLATFORM_MISSING_FIELD@gender"}},
    {"apparel_without_age_group",
     "7052112",
     With({{"age_group", ""}}, kShirt),
     {"PLATFORM_MISSING_FIELD@age_group"}},
    {"clothing_without_size",
     "7052112",
     With({{"size", ""}}, kShirt),
     {"PLATFORM_MISSING_FIELD@size"}},
    {"gender_unknown_value",
     "12471626",
     With({{"gender", "men"}}, kShirt),
     {"PLATFORM_INVALID_VALUE@gender"}},
    {"age_group_unknown_value",
     "12472028",
     With({{"age_group", "teen"}}, kShirt),
     {"PLATFORM_INVALID_VALUE@age_group"}},
    {"color_hex_code",
     "12471922",
     With({{"color", "#ff0000"}}, kShirt),
     {"PLATFORM_INVALID_VALUE@color"}},
    {"color_multicolor",
     "12471922",
     With({{"color", "Multicolor"}}, kShirt),
     {"PLATFORM_INVALID_VALUE@color"}},
    {"color_41_characters",
     "12471922",
     With({{"color", Repeat('b', 41, "Red/")}}, kShirt),
     {"PLATFORM_VALUE_TOO_LONG@color"}},
    {"size_101_characters",
     "12471627",
     With({{"size", Repeat('s', 101)}}, kShirt),
     {"PLATFORM_VALUE_TOO_LONG@size"}},
    // shipping_weight: "Number plus unit", lb, oz, g or kg; 0-2000 lbs, 0-1000 kg.
    {"valid_shipping_weight", "6324503", With({{"weight", "3 kg"}}), {}},
    {"valid_shipping_weight_decimal", "6324503", With({{"weight", "1.25 kg"}}), {}},
    {"valid_shipping_weight_2000_lb_in_ounces", "6324503", With({{"weight", "32000 oz"}}), {}},
    {"valid_shipping_weight_1000_kg_in_grams", "6324503", With({{"weight", "1000000 g"}}), {}},
    {"shipping_weight_without_unit",
     "6324503",
     With({{"weight", "3"}}),
     {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"shipping_weight_unit_not_supported",
     "6324503",
     With({{"weight", "3 kilos"}}),
     {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"shipping_weight_negative",
     "6324503",
     With({{"weight", "-3 kg"}}),
     {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"shipping_weight_over_1000_kg",
     "6324503",
     With({{"weight", "1001 kg"}}),
     {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"shipping_weight_over_2000_lb",
     "6324503",
     With({{"weight", "2001 lb"}}),
     {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"item_group_id_51_characters",
     "12472646",
     With({{"item_group_id", Repeat('g', 51)}}, kShirt),
     {"PLATFORM_VALUE_TOO_LONG@item_group_id"}},
};

class MerchantCenterLabelled : public ::testing::TestWithParam<Labelled> {};

TEST_P(MerchantCenterLabelled, EachBrokenRuleIsCaughtAndValidRowsAreClean) {
  std::vector<std::string> want = GetParam().expect;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(Issues(GetParam().row), want)
      << "source: support.google.com/merchants/answer/" << GetParam().source;
}

INSTANTIATE_TEST_SUITE_P(Google, MerchantCenterLabelled, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

// Every code of the Merchant Center pack is exercised by the labelled set.
TEST(MerchantCenterLabelled, EveryPackCodeIsCaughtSomewhere) {
  std::vector<std::string> caught;
  for (const Labelled& c : kCases) {
    for (const std::string& e : c.expect) caught.push_back(e.substr(0, e.find('@')));
  }
  for (const char* code : {"PLATFORM_VALUE_TOO_LONG",      "PLATFORM_DESCRIPTION_TRUNCATED",
                           "PLATFORM_EXCESSIVE_CAPITALS",  "PLATFORM_PROMOTIONAL_TEXT",
                           "PLATFORM_GIMMICKY_CHARACTERS", "PLATFORM_REPEATED_WORDS",
                           "PLATFORM_DESCRIPTION_HTML",    "PLATFORM_LINK_IN_DESCRIPTION",
                           "PLATFORM_INVALID_URL",         "PLATFORM_PLACEHOLDER_URL",
                           "PLATFORM_IMAGE_FORMAT",        "PLATFORM_PRICE_CURRENCY",
                           "PLATFORM_INVALID_SALE_PRICE",  "PLATFORM_SALE_PRICE_NOT_LOWER",
                           "PLATFORM_INVALID_DATE",        "PLATFORM_INVALID_VALUE",
                           "PLATFORM_MISSING_IDENTIFIERS", "PLATFORM_IDENTIFIER_EXISTS_MISUSED",
                           "PLATFORM_BRAND_PLACEHOLDER",   "PLATFORM_UNKNOWN_GOOGLE_CATEGORY",
                           "PLATFORM_MISSING_FIELD",       "PLATFORM_TITLE_TOO_LONG",
                           "PLATFORM_INVALID_WEIGHT"}) {
    EXPECT_NE(std::find(caught.begin(), caught.end(), code), caught.end()) << code;
  }
}

// --- rules across rows ---

// The issues of one code, with their row and message.
std::vector<std::string> RunMany(const std::vector<Row>& rows, const std::string& checks,
                                 IssueCode code) {
  std::vector<std::string> fields;
  for (const auto& [f, v] : rows.front()) fields.push_back(f);
  std::vector<std::vector<std::string>> values;
  for (const Row& r : rows) {
    values.emplace_back();
    for (const auto& [f, v] : r) values.back().push_back(v);
  }
  std::vector<std::string> got;
  for (const Issue& i : testing::RunRows(fields, checks, "search_merchant", values)) {
    if (i.code == code) {
      got.push_back(std::to_string(i.row) + ":" + std::string(Def(i.code).code) + ":" +
                    std::string(i.Message()));
    }
  }
  return got;
}

TEST(MerchantCenterAcrossRows, DuplicateIdWithoutTheProductCheck) {
  // 6324405: a unique id for each product. The product check says it as DUPLICATE_SKU; without
  // it the template says it with the same code.
  const Row a = {{"sku", "A1"}, {"title", "Acme Mug"}};
  EXPECT_EQ(RunMany({a, a}, "price", IssueCode::DUPLICATE_SKU),
            (std::vector<std::string>{"2:DUPLICATE_SKU:SKU is already used by row 1"}));
}

TEST(MerchantCenterAcrossRows, VariantsOfOneGroupMustDiffer) {
  // 12472646: variants in one item group differ in colour, size, gender or age group.
  const Row red_m = kShirt;
  const Row red_l = With({{"sku", "TS-RED-L"}, {"size", "L"}}, kShirt);
  const Row red_m_again = With({{"sku", "TS-RED-M-2"}, {"color", "RED"}}, kShirt);
  EXPECT_EQ(RunMany({red_m, red_l, red_m_again}, "product", IssueCode::PLATFORM_DUPLICATE_VARIANT),
            (std::vector<std::string>{
                "3:PLATFORM_DUPLICATE_VARIANT:Same item_group_id, color, size, gender and "
                "age_group as row 1"}));
}

TEST(MerchantCenterAcrossRows, AGroupOfAHundredThousandVariantsIsCheckedInBoundedMemory) {
  // One item group of 100,000 distinct variants: no duplicate; then the first one again. The
  // session keeps one hash a variant (16 bytes), never the rows' text.
  std::vector<std::string> fields = {"sku",       "title",        "google_product_category",
                                     "color",     "size",         "gender",
                                     "age_group", "item_group_id"};
  Session s(testing::TestReferenceData(), testing::MakeSpec(fields, "", "search_merchant"));
  std::vector<Issue> issues;
  for (int i = 0; i <= 100000; ++i) {
    const int v = i == 100000 ? 0 : i;
    const std::string sku = std::string("S").append(std::to_string(i));
    const std::string size = std::to_string(v % 100);
    const std::string color = std::string("Color").append(std::to_string(v / 100));
    std::vector<std::string_view> row = {sku,  "Acme Shirt", "212",   color,
                                         size, "unisex",     "adult", "BIG-GROUP"};
    s.AddRow(row, issues);
  }
  s.Finish(issues);
  std::vector<std::string> got;  // (the rows lack price, brand, link, ...: not looked at here)
  for (const Issue& i : issues) {
    if (i.code == IssueCode::PLATFORM_DUPLICATE_VARIANT) {
      got.push_back(std::to_string(i.row) + ":" + std::string(Def(i.code).code));
    }
  }
  EXPECT_EQ(got, (std::vector<std::string>{"100001:PLATFORM_DUPLICATE_VARIANT"}));
}

}  // namespace
}  // namespace dq::validator
