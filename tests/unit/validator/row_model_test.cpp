// Issue 31's row model and required fields: what each row kind answers for, which empty values
// are wrong (the check types' core and the platform template), the cross-row checks among
// purchasable rows (DUPLICATE_SKU, DUPLICATE_GTIN), and a Shopify-shaped export.
#include <string>
#include <vector>

#include "batch_state.h"
#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::Options;
using testing::RuleCase;

// Everything search_merchant requires, filled.
const std::vector<std::pair<std::string, std::string>> kMerchantRow = {
    {"sku", "A1"},
    {"title", "Acme Mug"},
    {"description", "A mug."},
    {"price", "10.00"},
    {"image_url", "https://cdn.example.com/1.jpg"},
    {"availability", "in_stock"},
    {"brand", "Acme"}};

std::vector<std::pair<std::string, std::string>> MerchantWith(
    std::vector<std::pair<std::string, std::string>> changes) {
  auto row = kMerchantRow;
  for (const auto& [field, value] : changes) {
    for (auto& [f, v] : row) {
      if (f == field) v = value;
    }
  }
  return row;
}

const std::vector<std::pair<std::string, std::string>> kEmptyProductLevel = {
    {"title", ""}, {"description", ""}, {"brand", ""}, {"image_url", ""}, {"category", ""}};

const RuleCase kKinds[] = {
    // Product-level fields: products and parents answer for them, variants inherit them.
    {"product_empty_title_is_missing_title", "product", "", {{"title", ""}}, {"MISSING_TITLE"}},
    {"parent_empty_title_is_missing_title", "product", "", {{"title", ""}}, {"MISSING_TITLE"},
     Options().Kind(RowKind::kParent)},
    {"variant_empty_product_level_fields_are_fine", "product", "", kEmptyProductLevel, {},
     Options().Kind(RowKind::kVariant)},
    {"variant_malformed_image_still_reported", "product", "", {{"image_url", "ftp://x/y.jpg"}},
     {"INVALID_IMAGE_URL"}, Options().Kind(RowKind::kVariant)},
    {"variant_long_title_still_reported", "product", "", {{"title", std::string(151, 't')}},
     {"TITLE_TOO_LONG"}, Options().Kind(RowKind::kVariant)},
    // Purchasable fields: products and variants answer for them, parents do not.
    {"variant_empty_sku_is_missing_sku", "product", "", {{"sku", ""}}, {"MISSING_SKU"},
     Options().Kind(RowKind::kVariant)},
    {"variant_empty_price_is_invalid_price", "product", "", {{"price", ""}}, {"INVALID_PRICE"},
     Options().Kind(RowKind::kVariant)},
    {"parent_empty_price_is_fine", "product,price", "", {{"price", ""}}, {},
     Options().Kind(RowKind::kParent)},
    {"parent_empty_sku_is_fine", "product,inventory", "", {{"sku", ""}, {"stock_qty", ""}}, {},
     Options().Kind(RowKind::kParent)},
    {"parent_malformed_price_still_reported", "product", "", {{"price", "abc"}},
     {"INVALID_PRICE"}, Options().Kind(RowKind::kParent)},
    {"parent_bad_gtin_still_reported", "product", "", {{"gtin", "4006381333932"}},
     {"INVALID_GTIN_CHECKSUM"}, Options().Kind(RowKind::kParent)},
    {"variant_empty_stock_is_invalid", "inventory", "", {{"sku", "A1"}, {"stock_qty", ""}},
     {"INVALID_STOCK_QTY"}, Options().Kind(RowKind::kVariant)},
    // Image rows: never in error, whatever they hold.
    {"image_row_gets_nothing", "product,price,inventory,shipping", "",
     {{"sku", ""}, {"price", "abc"}, {"image_url", "not a url"}, {"title", "  x  "},
      {"stock_qty", "-3"}, {"weight", "heavy"}},
     {}, Options().Kind(RowKind::kImage)},
    // The platform template's required fields follow the same model.
    {"merchant_variant_without_product_level_fields_is_fine", "product", "search_merchant",
     MerchantWith({{"title", ""}, {"description", ""}, {"image_url", ""}, {"brand", ""}}), {},
     Options().Kind(RowKind::kVariant)},
    {"merchant_variant_without_availability_is_reported", "product", "search_merchant",
     MerchantWith({{"availability", ""}}), {"PLATFORM_MISSING_FIELD"},
     Options().Kind(RowKind::kVariant)},
    {"merchant_parent_without_price_or_availability_is_fine", "product", "search_merchant",
     MerchantWith({{"price", ""}, {"availability", ""}, {"sku", ""}}), {},
     Options().Kind(RowKind::kParent)},
    {"merchant_parent_without_title_is_reported", "product", "search_merchant",
     MerchantWith({{"title", ""}}), {"PLATFORM_MISSING_FIELD"}, Options().Kind(RowKind::kParent)},
};
DQ_RULE_CASES(RowKindRules, kKinds);

// Empty is wrong only when required: the core of each check type (product: sku, price, title;
// customer: email; inventory: sku, stock_qty; price: price; shipping: none) or the template.
const RuleCase kRequired[] = {
    {"product_requires_sku", "product", "", {{"sku", ""}}, {"MISSING_SKU"}},
    {"product_requires_price", "product", "", {{"price", ""}}, {"INVALID_PRICE"}},
    {"product_requires_title", "product", "", {{"title", ""}}, {"MISSING_TITLE"}},
    {"product_optional_fields_empty", "product", "",
     {{"brand", ""}, {"image_url", ""}, {"availability", ""}, {"gtin", ""}, {"currency", ""},
      {"description", ""}, {"category", ""}},
     {}},
    {"customer_requires_email", "customer", "", {{"email", ""}, {"phone", ""}, {"country", ""}},
     {"MISSING_EMAIL"}},
    {"inventory_requires_sku", "inventory", "", {{"sku", ""}, {"stock_qty", "5"}},
     {"MISSING_SKU"}},
    {"inventory_requires_stock", "inventory", "", {{"sku", "A1"}, {"stock_qty", ""}},
     {"INVALID_STOCK_QTY"}},
    {"inventory_optional_fields_empty", "inventory", "",
     {{"sku", "A1"}, {"stock_qty", "5"}, {"reorder_point", ""}, {"expiry_date", ""},
      {"warehouse_id", ""}},
     {}},
    {"price_requires_price", "price", "", {{"price", ""}}, {"INVALID_PRICE"}},
    {"price_optional_fields_empty", "price", "",
     {{"price", "10"}, {"compare_at_price", ""}, {"cost_price", ""}, {"currency", ""}}, {}},
    {"shipping_requires_nothing", "shipping", "",
     {{"hs_code", ""}, {"vat_number", ""}, {"country_of_origin", ""}, {"declared_value", ""},
      {"weight", ""}},
     {}},
    {"shipping_empty_price_as_declared_value_is_fine", "shipping", "", {{"price", ""}}, {}},
    {"shipping_and_price_empty_price_is_invalid", "shipping,price", "", {{"price", ""}},
     {"INVALID_PRICE"}},
    // A template's requirement, reported by the check that owns the field when it runs.
    {"template_weight_reported_by_shipping", "product,shipping", "marketplace1_cross",
     {{"title", "Mug"}, {"image_url", "https://cdn.example.com/1.jpg"}, {"weight", ""}},
     {"INVALID_WEIGHT"}},
    {"template_brand_empty_is_platform_missing_field", "product", "search_merchant",
     MerchantWith({{"brand", ""}}), {"PLATFORM_MISSING_FIELD"}},
};
DQ_RULE_CASES(RequiredFieldRules, kRequired);

std::vector<std::string> Codes(const std::vector<Issue>& issues) {
  std::vector<std::string> out;
  for (const Issue& i : issues) {
    out.push_back(std::to_string(i.row) + ":" + std::string(Def(i.code).code));
  }
  return out;
}

// A Shopify-shaped export: a product row (the first variant), variant rows that leave Title,
// Vendor and Image Src empty by design, and extra image rows that hold only an image. The true
// problems are found (a bad check digit on a variant, a SKU used by two variants) and nothing
// else.
TEST(RowModel, ShopifyShapedExportGivesOnlyTheTrueIssues) {
  const std::vector<std::string> fields = {"sku",   "title",     "brand", "price",
                                           "image_url", "gtin", "stock_qty"};
  const std::vector<std::vector<std::string>> rows = {
      {"TEE-S", "Tee", "Acme", "10.00", "https://cdn.example.com/tee.jpg", "4006381333931", "5"},
      {"TEE-M", "", "", "10.00", "", "4006381333947", "3"},  // check digit wrong (7, not 8)
      {"TEE-L", "", "", "12.00", "", "", "0"},
      {"", "", "", "", "https://cdn.example.com/tee-back.jpg", "", ""},  // image row
      {"", "", "", "", "https://cdn.example.com/tee-side.jpg", "", ""},  // image row
      {"MUG-1", "Mug", "Acme", "8.50", "https://cdn.example.com/mug.jpg", "", "12"},
      {"TEE-L", "", "", "12.00", "", "", "1"},  // a variant of the mug reusing TEE-L
  };
  const std::vector<RowKind> kinds = {RowKind::kProduct, RowKind::kVariant, RowKind::kVariant,
                                      RowKind::kImage,   RowKind::kImage,   RowKind::kProduct,
                                      RowKind::kVariant};
  Stats st;
  const auto issues = testing::RunRows(fields, "product,inventory", "", rows, &st,
                                       testing::CaseOptions(), kinds);
  EXPECT_EQ(Codes(issues),
            (std::vector<std::string>{"2:INVALID_GTIN_CHECKSUM", "7:DUPLICATE_SKU"}));
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_EQ(issues[1].message, "SKU is already used by row 3");
  EXPECT_EQ(st.rows, 7u);  // image rows count as rows
  EXPECT_EQ(st.rows_error, 2u);
}

// The same rows without kinds (every row a product), as before issue 31: the variant and image
// rows are blamed for what they leave empty.
TEST(RowModel, WithoutKindsEveryRowIsAProduct) {
  const std::vector<std::string> fields = {"sku", "title", "price"};
  const auto issues = testing::RunRows(fields, "product", "", {{"A", "Tee", "1"}, {"B", "", "1"}});
  EXPECT_EQ(Codes(issues), std::vector<std::string>{"2:MISSING_TITLE"});
}

TEST(RowModel, DuplicateGtinIsAWarningNamingTheFirstRowOfAnotherSku) {
  const std::vector<std::string> fields = {"sku", "price", "gtin"};
  const auto issues = testing::RunRows(fields, "product", "",
                                       {{"A", "1", "4006381333931"},
                                        {"A", "1", "4006381333931"},   // the same item again
                                        {"B", "1", "04006381333931"},  // GTIN-14 form: the same
                                        {"C", "1", "036000291452"}});
  EXPECT_EQ(Codes(issues), (std::vector<std::string>{"2:DUPLICATE_SKU", "3:DUPLICATE_GTIN"}));
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_EQ(issues[1].severity(), Severity::kWarning);
  EXPECT_EQ(issues[1].field, Field::kGtin);
  EXPECT_EQ(issues[1].message, "GTIN is already used by another SKU in row 1");
}

TEST(RowModel, DuplicateGtinOnlyAmongPurchasableRowsWithASku) {
  const std::vector<std::string> fields = {"sku", "price", "gtin"};
  const std::vector<std::vector<std::string>> rows = {
      {"P", "", "4006381333931"},   // parent: not compared
      {"V1", "1", "4006381333931"},  // first purchasable carrier
      {"I", "", "4006381333931"},   // image row: nothing
      {"", "1", "4006381333931"},   // no SKU: MISSING_SKU, not compared
      {"V2", "1", "4006381333931"},  // another SKU: the duplicate, of row 2
  };
  const std::vector<RowKind> kinds = {RowKind::kParent, RowKind::kVariant, RowKind::kImage,
                                      RowKind::kVariant, RowKind::kVariant};
  const auto issues =
      testing::RunRows(fields, "product", "", rows, nullptr, testing::CaseOptions(), kinds);
  EXPECT_EQ(Codes(issues), (std::vector<std::string>{"4:MISSING_SKU", "5:DUPLICATE_GTIN"}));
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_EQ(issues[1].message, "GTIN is already used by another SKU in row 2");
  // Without a SKU column no row is compared.
  EXPECT_TRUE(testing::RunRows({"price", "gtin"}, "product", "",
                               {{"1", "4006381333931"}, {"1", "4006381333931"}})
                  .empty());
}

// A million GTINs on a million SKUs: the table keeps 16 bytes a slot (the GTIN as a number, the
// row, a hash of the SKU), never the text, so a stream of a million rows stays within 32 MiB.
TEST(RowModel, GtinTableMemoryIsBoundedByHashes) {
  FirstOwner table;
  for (uint64_t row = 1; row <= 1'000'000; ++row) {
    ASSERT_FALSE(table.Insert(4'000'000'000'000 + row, row, static_cast<uint32_t>(row)));
  }
  EXPECT_EQ(table.size(), 1'000'000u);
  EXPECT_LE(table.bytes(), size_t{32} << 20);
  EXPECT_EQ(table.Insert(4'000'000'000'007, 1'000'001, 9), std::optional<uint64_t>(7));
  EXPECT_EQ(table.Insert(4'000'000'000'007, 1'000'002, 7), std::nullopt);  // same owner
}

TEST(RowModel, PriceSamplesComeFromPurchasableRowsOnly) {
  // 40 rows priced around 10, and one parent whose price would be an outlier.
  std::vector<std::vector<std::string>> rows;
  std::vector<RowKind> kinds;
  for (int i = 0; i < 40; ++i) {
    std::string sku = "S";  // appended, not "S" + string: GCC 12 warns (-Wrestrict)
    sku += std::to_string(i);
    std::string price = std::to_string(9 + i % 3);
    price += ".00";
    rows.push_back({sku, price});
    kinds.push_back(RowKind::kVariant);
  }
  rows.push_back({"PARENT", "9999.00"});
  kinds.push_back(RowKind::kParent);
  const auto issues = testing::RunRows({"sku", "price"}, "price", "", rows, nullptr,
                                       testing::CaseOptions(), kinds);
  EXPECT_TRUE(issues.empty()) << Codes(issues).size();
  kinds.back() = RowKind::kProduct;
  EXPECT_EQ(Codes(testing::RunRows({"sku", "price"}, "price", "", rows, nullptr,
                                   testing::CaseOptions(), kinds)),
            std::vector<std::string>{"41:PRICE_OUTLIER_HIGH"});
}

}  // namespace
}  // namespace dq::validator
