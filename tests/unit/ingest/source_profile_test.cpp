#include "dq/ingest/source_profile.h"

#include <gtest/gtest.h>

#include <set>

#include "dq/common/vocabulary.h"

namespace dq::ingest {
namespace {

TEST(SourceProfileTest, EveryEmbeddedProfileReadsAndGenericIsLast) {
  const auto profiles = SourceProfiles();
  std::set<std::string> names;
  for (const auto& p : profiles) names.insert(p.source);
  EXPECT_EQ(names, (std::set<std::string>{"shopify_products", "shopify_customers", "woocommerce",
                                          "magento2", "prestashop", "bigcommerce",
                                          "google_merchant", "meta_catalog", "commercetools",
                                          "generic"}));
  EXPECT_EQ(GenericProfile().source, "generic");
  EXPECT_TRUE(GenericProfile().signatures.empty());
  for (const auto& p : profiles) {
    if (p.source == "generic") continue;
    EXPECT_FALSE(p.signatures.empty()) << p.source << " cannot be detected";
  }
  EXPECT_EQ(SourceNamesList(),
            "bigcommerce, commercetools, generic, google_merchant, magento2, meta_catalog, "
            "prestashop, shopify_customers, shopify_products, woocommerce");
}

TEST(SourceProfileTest, FindsByName) {
  ASSERT_NE(FindSourceProfile("woocommerce"), nullptr);
  EXPECT_EQ(FindSourceProfile("woocommerce")->name, "WooCommerce products export");
  EXPECT_EQ(FindSourceProfile("WooCommerce"), nullptr);
  EXPECT_EQ(FindSourceProfile(""), nullptr);
}

TEST(SourceProfileTest, ColumnsAreInStandardFieldOrder) {
  for (const auto& p : SourceProfiles()) {
    size_t last = 0;
    for (const auto& [field, names] : p.columns) {
      const size_t at = *IndexOf(kStandardFields, field);
      EXPECT_GE(at, last) << p.source << ": " << field;
      last = at;
      EXPECT_FALSE(names.empty());
    }
  }
}

TEST(SourceProfileTest, FindColumnComparesNormalisedNames) {
  const std::vector<std::string> header = {"ID", "In stock?", "Weight (lbs)"};
  const std::vector<std::string> want = {"in_stock", "IN STOCK"};
  EXPECT_EQ(FindColumn(header, want), 1u);
  const std::vector<std::string> none = {"Stock"};
  EXPECT_EQ(FindColumn(header, none), SIZE_MAX);
}

// PrestaShop's product list export names Position last but writes it only when the list is
// filtered by a category: a record may stop before it. Only a run of such last columns counts.
TEST(SourceProfileTest, FieldsRequiredLeavesOutTheTrailingColumns) {
  const SourceProfile* ps = FindSourceProfile("prestashop");
  ASSERT_NE(ps, nullptr);
  const std::vector<std::string> list = {"Product ID", "Image", "Name", "Reference",
                                         "Category", "Price (tax excl.)", "Price (tax incl.)",
                                         "Quantity", "Status", "Position"};
  EXPECT_EQ(FieldsRequired(*ps, list), 9u);
  const std::vector<std::string> first = {"Position", "Name", "Price (tax excl.)"};
  EXPECT_EQ(FieldsRequired(*ps, first), 3u);
  EXPECT_EQ(FieldsRequired(GenericProfile(), list), 10u);
  const std::vector<std::string> none;
  EXPECT_EQ(FieldsRequired(*ps, none), 0u);
}

struct BadProfile {
  const char* name;
  const char* file;
  const char* json;
  const char* error;
};

class BadProfileTest : public ::testing::TestWithParam<BadProfile> {};

TEST_P(BadProfileTest, RefusedWithExactMessage) {
  auto p = ParseSourceProfile(GetParam().file, GetParam().json);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadProfileTest,
    ::testing::Values(
        BadProfile{"not_json", "x.json", "{", "x.json: is not valid JSON"},
        BadProfile{"name_mismatch", "x.json",
                   R"({"source": "y", "name": "Y", "rows": {"model": "flat"}})",
                   "x.json: its source must be its file name, 'y'"},
        BadProfile{"unknown_member", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"}, "colour": 1})",
                   "x.json: unknown member 'colour'"},
        BadProfile{"bad_model", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "tree"}})",
                   "x.json.rows.model: must be flat, groups or type"},
        BadProfile{"groups_without_key", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "groups"}})",
                   "x.json.rows: a groups model needs a key column"},
        BadProfile{"parent_if_without_groups", "x.json",
                   R"({"source": "x", "name": "X",
                       "rows": {"model": "flat", "parent_if_columns": ["Option1 Name"]}})",
                   "x.json.rows.parent_if_columns: is only for a groups model"},
        BadProfile{"html_without_why", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "description", "html": true}]})",
                   "x.json.conventions[].why: must say why the platform writes the field so"},
        BadProfile{"html_not_bool", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "description", "html": 1}]})",
                   "x.json.conventions[].html: must be true or false"},
        BadProfile{"may_be_empty_without_why", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "stock_qty", "may_be_empty": true}]})",
                   "x.json.conventions[].why: must say why the platform writes the field so"},
        BadProfile{"may_be_empty_not_bool", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "stock_qty", "may_be_empty": "yes"}]})",
                   "x.json.conventions[].may_be_empty: must be true or false"},
        BadProfile{"zero_is_empty_without_why", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "weight", "zero_is_empty": true}]})",
                   "x.json.conventions[].why: must say why the platform writes the field so"},
        BadProfile{"zero_is_empty_not_bool", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "weight", "zero_is_empty": 1}]})",
                   "x.json.conventions[].zero_is_empty: must be true or false"},
        BadProfile{"trailing_columns_without_why", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "trailing_columns": {"columns": ["Position"]}})",
                   "x.json.trailing_columns.why: must say why"},
        BadProfile{"trailing_columns_empty", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "trailing_columns": {"columns": [], "why": "w"}})",
                   "x.json.trailing_columns.columns: must name a column"},
        BadProfile{"trailing_columns_not_object", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "trailing_columns": ["Position"]})",
                   "x.json.trailing_columns: must be {columns, why}"},
        BadProfile{"empty_values_without_why", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "image_url", "empty_values": ["none"]}]})",
                   "x.json.conventions[].why: must say why the platform writes the field so"},
        BadProfile{"empty_values_spaced", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "image_url", "empty_values": [" none"],
                                        "why": "w"}]})",
                   "x.json.conventions[].empty_values: ' none' is empty or has spaces at its ends"},
        BadProfile{"renamed_file_names_without_extensions", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "image_url", "renamed_file_names": true,
                                        "why": "w"}]})",
                   "x.json.conventions[].renamed_file_names: needs file_extensions"},
        BadProfile{"key_if_empty_without_groups", "x.json",
                   R"({"source": "x", "name": "X",
                       "rows": {"model": "flat", "key_if_empty": ["Phone"]}})",
                   "x.json.rows.key_if_empty: is only for a groups model"},
        BadProfile{"also_checked_field_with_fixes", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "also_checked": [{"field": "price", "columns": ["Price 2"],
                                         "why": "w"}]})",
                   "x.json.also_checked[].field: 'price' has checks that fix values; only "
                   "image_url, additional_image_link and phone can be checked in further "
                   "columns"},
        BadProfile{"also_checked_without_columns", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "also_checked": [{"field": "image_url", "why": "w"}]})",
                   "x.json.also_checked[].columns: must name at least one column"},
        BadProfile{"also_checked_without_why", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "also_checked": [{"field": "image_url", "columns": ["small_image"]}]})",
                   "x.json.also_checked[].why: must say why the columns hold the field's values"},
        BadProfile{"also_checked_unknown_member", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "also_checked": [{"field": "image_url", "columns": ["a"], "why": "w",
                                         "fix": true}]})",
                   "x.json.also_checked[]: unknown member 'fix'"},
        BadProfile{"groups_if_without_groups", "x.json",
                   R"({"source": "x", "name": "X",
                       "rows": {"model": "flat", "groups_if_columns": ["Metafield Key"]}})",
                   "x.json.rows.groups_if_columns: is only for a groups model"},
        BadProfile{"new_item_if_without_groups", "x.json",
                   R"({"source": "x", "name": "X",
                       "rows": {"model": "type", "type_column": ["T"], "types": {"a": "product"},
                                "new_item_if_columns": ["Tags"]}})",
                   "x.json.rows.new_item_if_columns: is only for a groups model"},
        BadProfile{
            "type_without_types", "x.json",
            R"({"source": "x", "name": "X", "rows": {"model": "type", "type_column": ["T"]}})",
            "x.json.rows: a type model needs type_column, and types or empty_kind"},
        BadProfile{"bad_kind", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "type", "type_column": ["T"],
                       "types": {"a": "bundle"}}})",
                   "x.json.rows.types.a: must be product, variant, parent or image"},
        BadProfile{"unknown_field", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "columns": {"colour": ["Color"]}})",
                   "x.json.columns: 'colour' is not a standard field"},
        BadProfile{"bad_unit", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "weight": [{"unit": "stone", "why": "British"}]})",
                   "x.json.weight[].unit: must be g, kg, lb, oz or unknown"},
        BadProfile{"unit_without_why", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "weight": [{"unit": "kg"}]})",
                   "x.json.weight[].why: must say why"},
        BadProfile{"number_format_not_bool", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "stock_qty", "own_number_format": "yes"}]})",
                   "x.json.conventions[].own_number_format: must be true or false"},
        BadProfile{"number_format_without_why", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "stock_qty", "own_number_format": true}]})",
                   "x.json.conventions[].why: must say why the platform writes the field so"},
        BadProfile{"bad_file_extension", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "conventions": [{"field": "image_url", "file_extensions": [".JPG"],
                                        "why": "y"}]})",
                   "x.json.conventions[].file_extensions: '.JPG' is not 1 to 10 lower-case "
                   "letters and digits"},
        BadProfile{"empty_group", "x.json",
                   R"({"source": "x", "name": "X", "rows": {"model": "flat"},
                       "signatures": [{"what": "x", "columns": [[]]}]})",
                   "x.json.signatures[].columns: has an empty group"}),
    [](const ::testing::TestParamInfo<BadProfile>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace dq::ingest
