#include "dq/ingest/check_plan.h"

#include "dq/ingest/mapping_inference.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace dq::ingest {
namespace {

CheckPlan Plan(std::vector<std::string> types, const Mapping& mapping, const char* source,
               std::string caller_unit = "", bool grams = false) {
  CheckPlanInput in;
  in.check_types = types;
  in.mapping = &mapping;
  in.profile = source ? FindSourceProfile(source) : nullptr;
  in.caller_weight_unit = std::move(caller_unit);
  in.grams_when_unsaid = grams;
  return PlanChecks(in);
}

TEST(CheckPlanTest, CoreFieldWithoutAColumnGetsOneNote) {
  const Mapping m = {{"sku", "SKU"}, {"title", "Name"}};
  const CheckPlan p = Plan({"product", "inventory", "price"}, m, nullptr);
  EXPECT_EQ(p.notes, (std::vector<std::string>{
                         "No column looks like a price; prices were not checked.",
                         "No column looks like a stock quantity; stock quantities were not "
                         "checked."}));
  const Mapping customers = {{"phone", "Phone"}};
  EXPECT_EQ(Plan({"customer"}, customers, nullptr).notes,
            (std::vector<std::string>{"No column looks like an email address; email addresses "
                                      "were not checked."}));
  EXPECT_TRUE(Plan({"shipping"}, customers, nullptr).notes.empty());
}

TEST(CheckPlanTest, AnEmptyCoreColumnIsNamedInItsNote) {
  const Mapping m = {{"title", "Title"}, {"price", "Variant Price"}};
  const Mapping empty = {{"sku", "Variant SKU"}};
  CheckPlanInput in;
  const std::vector<std::string> types = {"product"};
  in.check_types = types;
  in.mapping = &m;
  in.empty_columns = &empty;
  EXPECT_EQ(PlanChecks(in).notes,
            (std::vector<std::string>{"The column 'Variant SKU' is empty in every row; SKUs were "
                                      "not checked."}));
}

TEST(CheckPlanTest, WeightUnitComesFromCallerHeaderProfileInThatOrder) {
  const Mapping grams = {{"weight", "Variant Grams"}};
  CheckPlan p = Plan({"shipping"}, grams, "shopify_products");
  EXPECT_EQ(p.weight_unit, "g");
  EXPECT_EQ(p.notes.back(), "The weight column 'Variant Grams' is read in grams: its header "
                            "names the unit.");

  const Mapping bare = {{"weight", "Weight"}};
  p = Plan({"shipping"}, bare, "prestashop");
  EXPECT_EQ(p.weight_unit, "kg");
  EXPECT_EQ(p.notes.back(), "The weight column 'Weight' is read in kilograms: PrestaShop writes "
                            "weights in the shop's weight unit (PS_WEIGHT_UNIT), kg by default.");

  const Mapping magento = {{"weight", "weight"}};
  p = Plan({"shipping"}, magento, "magento2");
  EXPECT_EQ(p.weight_unit, "unknown");
  EXPECT_EQ(p.notes.back(),
            "The weight column 'weight' has no known unit: Magento writes weights in the store's "
            "unit (general/locale/weight_unit, lbs by default), which the file does not say. "
            "Bare weights were checked only as non-negative numbers; send weight_unit to have "
            "them checked as weights.");
  p = Plan({"shipping"}, magento, "magento2", "lb");
  EXPECT_EQ(p.weight_unit, "lb");
  EXPECT_EQ(p.notes.back(), "The weight column 'weight' is read in pounds: the request said so "
                            "(weight_unit).");

  const Mapping lbs = {{"weight", "Weight (lbs)"}};
  EXPECT_EQ(Plan({"shipping"}, lbs, "woocommerce").weight_unit, "lb");
  EXPECT_EQ(Plan({"shipping"}, bare, nullptr).weight_unit, "unknown");
  EXPECT_EQ(Plan({"shipping"}, bare, nullptr, "", /*grams=*/true).weight_unit, "");
  EXPECT_TRUE(Plan({"shipping"}, Mapping{}, nullptr).weight_unit.empty());
}

// A weight_unit column gives each row's unit; the note names it, then says what a row without
// one is read in.
TEST(CheckPlanTest, AUnitColumnIsNamedBeforeTheColumnsOwnUnit) {
  const Mapping m = {{"weight", "Variant Weight"}, {"weight_unit", "Variant Weight Unit"}};
  CheckPlan p = Plan({"shipping"}, m, "shopify_products");
  EXPECT_EQ(p.weight_unit, "unknown");
  EXPECT_EQ(p.notes.back(),
            "The weight column 'Variant Weight' is read in the unit each row gives in 'Variant "
            "Weight Unit' (g, kg, lb or oz, or a spelling such as lbs or grams). Where a row "
            "gives no unit, the weight column 'Variant Weight' has no known unit: its header "
            "names none and the file's platform does not fix one. Bare weights were checked "
            "only as non-negative numbers; send weight_unit to have them checked as weights.");
  p = Plan({"shipping"}, m, nullptr, "kg");
  EXPECT_EQ(p.weight_unit, "kg");
  EXPECT_EQ(p.notes.back(),
            "The weight column 'Variant Weight' is read in the unit each row gives in 'Variant "
            "Weight Unit' (g, kg, lb or oz, or a spelling such as lbs or grams). Where a row "
            "gives no unit, the weight column 'Variant Weight' is read in kilograms: the request "
            "said so (weight_unit).");
}

TEST(CheckPlanTest, ConventionsOnlyForTheColumnTheFieldIsMappedTo) {
  const Mapping m = {{"availability", "In stock?"}, {"image_url", "Images"}};
  const CheckPlan p = Plan({"product"}, m, "woocommerce");
  ASSERT_EQ(p.conventions.size(), 2u);
  EXPECT_EQ(p.conventions[0].field, "availability");
  EXPECT_TRUE(p.conventions[0].list_separator.empty());
  bool one = false;
  for (const auto& [from, to] : p.conventions[0].value_aliases) {
    one |= from == "1" && to == "in_stock";
  }
  EXPECT_TRUE(one);
  EXPECT_EQ(p.conventions[1].field, "image_url");
  EXPECT_EQ(p.conventions[1].list_separator, ",");

  const Mapping other = {{"availability", "Availability"}};
  EXPECT_TRUE(Plan({"product"}, other, "woocommerce").conventions.empty());
  EXPECT_TRUE(Plan({"product"}, m, nullptr).conventions.empty());
}

// Magento 2: qty in its own number format, images as URLs or import-folder file names, for the
// column each field is mapped to (base_image, or additional_images when it holds image_url).
TEST(CheckPlanTest, MagentoNumberFormatAndImageFileNames) {
  const Mapping m = {{"stock_qty", "qty"},
                     {"image_url", "base_image"},
                     {"additional_image_link", "additional_images"}};
  const CheckPlan p = Plan({"product", "inventory"}, m, "magento2");
  const std::vector<std::string> images = {"jpg", "jpeg", "gif", "png"};
  ASSERT_EQ(p.conventions.size(), 3u);
  for (const auto& c : p.conventions) {
    SCOPED_TRACE(c.field);
    if (c.field == "stock_qty") {
      EXPECT_TRUE(c.own_number_format);
      EXPECT_TRUE(c.file_extensions.empty());
    } else if (c.field == "image_url") {
      EXPECT_EQ(c.columns, std::vector<std::string>{"base_image"});
      EXPECT_TRUE(c.list_separator.empty());
      EXPECT_EQ(c.file_extensions, images);
    } else {
      EXPECT_EQ(c.field, "additional_image_link");
      EXPECT_EQ(c.list_separator, ",");
      EXPECT_EQ(c.file_extensions, images);
      EXPECT_FALSE(c.own_number_format);
    }
  }
  const Mapping gallery = {{"image_url", "additional_images"}};
  const CheckPlan g = Plan({"product"}, gallery, "magento2");
  ASSERT_EQ(g.conventions.size(), 1u);
  EXPECT_EQ(g.conventions[0].list_separator, ",");
  EXPECT_EQ(g.conventions[0].file_extensions, images);
  EXPECT_TRUE(Plan({"inventory"}, Mapping{{"stock_qty", "qty"}}, nullptr).conventions.empty());
}

TEST(CheckPlanTest, CheckTypesThatDoNotFitAreNamedWithThoseThatWould) {
  const Mapping customers = {{"email", "Email"}, {"phone", "Phone"}};
  EXPECT_EQ(CheckTypesMisfit(std::vector<std::string>{"product"}, customers),
            "No column fits the product check (no sku, title or price column). The columns "
            "fit: customer.");
  EXPECT_EQ(CheckTypesMisfit(std::vector<std::string>{"customer", "shipping"}, customers),
            "No column fits the shipping check (no weight, hs_code, country_of_origin, "
            "vat_number or declared_value column). The columns fit: customer.");
  EXPECT_EQ(CheckTypesMisfit(std::vector<std::string>{"customer"}, customers), std::nullopt);
  EXPECT_EQ(CheckTypesMisfit(std::vector<std::string>{"price"}, Mapping{}),
            "No column fits the price check (no price column). The columns fit no check type; "
            "send a mapping.");
}

TEST(CheckPlanTest, SuggestsCheckTypesFromTheColumns) {
  const Mapping m = {{"sku", "SKU"}, {"price", "Price"}, {"cost_price", "Cost"},
                     {"stock_qty", "Stock"}, {"weight", "Weight"}};
  EXPECT_EQ(SuggestCheckTypes(m),
            (std::vector<std::string>{"product", "inventory", "price"}));
  EXPECT_EQ(SuggestCheckTypes(Mapping{{"email", "E"}, {"hs_code", "HS"}}),
            (std::vector<std::string>{"customer", "shipping"}));
}

TEST(GtinPaddingEvidenceTest, TruncatedUpcsAreEvidence) {
  GtinPaddingEvidence e;
  // 11-digit UPC-As that lost their leading zero, and full EAN-13s.
  for (const char* v : {"12345678905", "36000291452", "96385074", "4006381333931",
                        "73010620025", "", "5901234123457"}) {
    e.Add(v);
  }
  EXPECT_TRUE(e.evidence());
}

TEST(GtinPaddingEvidenceTest, RandomShortIdsAreNot) {
  GtinPaddingEvidence e;
  for (const char* v : {"4006381333931", "5901234123457", "1234567890", "9876543210",
                        "1111111111", "2222222223"}) {
    e.Add(v);
  }
  EXPECT_FALSE(e.evidence());
}

TEST(GtinPaddingEvidenceTest, TwoShortValuesAreTooFewToTell) {
  GtinPaddingEvidence e;
  for (const char* v : {"12345678905", "36000291452", "4006381333931"}) e.Add(v);
  EXPECT_FALSE(e.evidence());
}

}  // namespace
// Shopify's Body (HTML) is an HTML column: its description convention says so (whitespace at the
// ends is kept); a description mapped from another column gets none.
TEST(CheckPlanTest, ShopifyBodyHtmlIsAnHtmlDescription) {
  const Mapping m = {{"title", "Title"}, {"description", "Body (HTML)"}};
  const CheckPlan p = Plan({"product"}, m, "shopify_products");
  ASSERT_EQ(p.conventions.size(), 1u);
  EXPECT_EQ(p.conventions[0].field, "description");
  EXPECT_EQ(p.conventions[0].columns, std::vector<std::string>{"Body (HTML)"});
  EXPECT_TRUE(p.conventions[0].html);
  const Mapping plain = {{"title", "Title"}, {"description", "Description"}};
  EXPECT_TRUE(Plan({"product"}, plain, "shopify_products").conventions.empty());
}

// WooCommerce leaves Stock empty when stock is not managed: its stock column, whatever its name,
// carries the may_be_empty convention; Shopify's does not.
TEST(CheckPlanTest, WooCommerceStockMayBeEmpty) {
  for (const char* column : {"Stock", "Estoque", "_stock"}) {
    const Mapping m = {{"sku", "SKU"}, {"stock_qty", column}};
    const CheckPlan p = Plan({"inventory"}, m, "woocommerce");
    ASSERT_EQ(p.conventions.size(), 1u) << column;
    EXPECT_EQ(p.conventions[0].field, "stock_qty");
    EXPECT_EQ(p.conventions[0].columns, std::vector<std::string>{column});
    EXPECT_TRUE(p.conventions[0].may_be_empty);
  }
  const Mapping shopify = {{"stock_qty", "Variant Inventory Qty"}};
  EXPECT_TRUE(Plan({"inventory"}, shopify, "shopify_products").conventions.empty());
}

// Shopify exports 0 in its weight column when no weight was entered: both of its weight columns
// carry zero_is_empty, the count of such rows joins the weight column's note, and another
// source's weight column does not carry it.
TEST(CheckPlanTest, ShopifyZeroGramsIsNoWeight) {
  for (const char* column : {"Variant Grams", "Weight value (grams)"}) {
    const Mapping m = {{"title", "Title"}, {"weight", column}};
    const std::vector<ZeroRows> zeros = {{"weight", column, 22}};
    CheckPlanInput in;
    const std::vector<std::string> types = {"shipping"};
    in.check_types = types;
    in.mapping = &m;
    in.profile = FindSourceProfile("shopify_products");
    in.zero_rows = zeros;
    const CheckPlan p = PlanChecks(in);
    ASSERT_EQ(p.conventions.size(), 1u) << column;
    EXPECT_EQ(p.conventions[0].field, "weight");
    EXPECT_TRUE(p.conventions[0].zero_is_empty);
    EXPECT_EQ(p.notes, (std::vector<std::string>{
                           "The weight column '" + std::string(column) +
                           "' is read in grams: its header names the unit. 22 rows have " +
                           column + " 0, which a Shopify products export writes when no weight "
                           "was entered; they were read as having no weight."}));
  }
  // One row: singular; none: no sentence.
  const Mapping m = {{"weight", "Variant Grams"}};
  CheckPlanInput in;
  const std::vector<std::string> types = {"shipping"};
  in.check_types = types;
  in.mapping = &m;
  in.profile = FindSourceProfile("shopify_products");
  const std::vector<ZeroRows> one = {{"weight", "Variant Grams", 1}};
  in.zero_rows = one;
  ASSERT_EQ(PlanChecks(in).notes.size(), 1u);
  EXPECT_TRUE(PlanChecks(in).notes[0].ends_with(
      " 1 row has Variant Grams 0, which a Shopify products export writes when no weight was "
      "entered; it was read as having no weight."));
  const std::vector<ZeroRows> none = {{"weight", "Variant Grams", 0}};
  in.zero_rows = none;
  EXPECT_EQ(PlanChecks(in).notes, (std::vector<std::string>{
                                      "The weight column 'Variant Grams' is read in grams: its "
                                      "header names the unit."}));
  for (const char* source : {"woocommerce", "magento2", "prestashop", "generic"}) {
    const Mapping w = {{"weight", "Weight"}};
    for (const SourceConvention& c : Plan({"shipping"}, w, source).conventions) {
      EXPECT_FALSE(c.zero_is_empty) << source;
    }
  }
}

// Magento's further image roles (small_image, thumbnail_image, swatch_image) are values of
// image_url beside base_image, with base_image's import-folder file names; a column the mapping
// already takes is checked as its own field, and another source has none.
TEST(CheckPlanTest, MagentoFurtherImageColumnsAreCheckedAsImages) {
  const std::vector<std::string> header = {"sku",           "base_image",  "thumbnail_image",
                                           "small_image",   "swatch_image", "additional_images",
                                           "Small_Image_Label"};
  const Mapping m = {{"sku", "sku"}, {"image_url", "base_image"}};
  const auto also = AlsoCheckedColumns(*FindSourceProfile("magento2"), header, m);
  std::vector<std::string> got;
  for (const AlsoCheckedColumn& a : also) {
    got.push_back(a.field + ":" + a.column);
    ASSERT_NE(a.convention, nullptr) << a.column;
    EXPECT_EQ(a.convention->file_extensions,
              (std::vector<std::string>{"jpg", "jpeg", "gif", "png"}));
    EXPECT_EQ(a.convention->empty_values, std::vector<std::string>{"no_selection"}) << a.column;
    EXPECT_EQ(a.convention->renamed_file_names, a.column == "swatch_image") << a.column;
  }
  EXPECT_EQ(got, (std::vector<std::string>{"image_url:thumbnail_image", "image_url:small_image",
                                           "image_url:swatch_image"}));
  const Mapping takes_small = {{"image_url", "small_image"}};
  EXPECT_EQ(AlsoCheckedColumns(*FindSourceProfile("magento2"), header, takes_small).size(), 2u);
  // Two spellings of one column are two columns, each checked under its own name (a merchant
  // who keeps both expects both read); a name the header repeats exactly is one column (the
  // validator refuses a column twice).
  const std::vector<std::string> twice = {"small_image", "base_image", "Small Image",
                                          "small_image"};
  std::vector<std::string> names;
  for (const AlsoCheckedColumn& a : AlsoCheckedColumns(*FindSourceProfile("magento2"), twice, m)) {
    names.push_back(a.column);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"small_image", "Small Image"}));
  // The mapping takes a column by its exact name: another spelling beside it is still checked.
  const Mapping takes_spelled = {{"image_url", "Small Image"}};
  ASSERT_EQ(AlsoCheckedColumns(*FindSourceProfile("magento2"), twice, takes_spelled).size(), 1u);
  EXPECT_EQ(AlsoCheckedColumns(*FindSourceProfile("magento2"), twice, takes_spelled)[0].column,
            "small_image");
  EXPECT_TRUE(AlsoCheckedColumns(*FindSourceProfile("woocommerce"), header, m).empty());
  EXPECT_TRUE(AlsoCheckedColumns(GenericProfile(), header, m).empty());
}

// Issue 31: Shopify's current customers export keeps most numbers in Default Address Phone and
// leaves Phone mostly empty; Phone is mapped to phone and Default Address Phone is checked as a
// further column of it. A header without Phone maps Default Address Phone itself (the profile's
// second phone column): then nothing is further.
TEST(CheckPlanTest, ShopifyDefaultAddressPhoneIsAFurtherPhoneColumn) {
  const std::vector<std::string> header = {
      "Customer ID", "First Name", "Last Name", "Email", "Accepts Email Marketing",
      "Default Address Country Code", "Default Address Phone", "Phone", "Accepts SMS Marketing",
      "Total Spent", "Total Orders", "Note", "Tax Exempt", "Tags"};
  const SourceProfile& shopify = *FindSourceProfile("shopify_customers");
  const InferredMapping inferred = InferMappingFrom(header, {}, shopify);
  const Mapping& m = inferred.mapping;
  EXPECT_NE(std::find(m.begin(), m.end(), std::pair<std::string, std::string>("phone", "Phone")),
            m.end());
  EXPECT_NE(std::find(m.begin(), m.end(),
                      std::pair<std::string, std::string>("country",
                                                          "Default Address Country Code")),
            m.end());
  const auto also = AlsoCheckedColumns(shopify, header, m);
  ASSERT_EQ(also.size(), 1u);
  EXPECT_EQ(also[0].field, "phone");
  EXPECT_EQ(also[0].column, "Default Address Phone");
  const std::vector<std::string> no_phone = {"Email", "Accepts Email Marketing",
                                             "Default Address Phone", "Total Spent"};
  const Mapping takes_default = {{"email", "Email"}, {"phone", "Default Address Phone"}};
  EXPECT_TRUE(AlsoCheckedColumns(shopify, no_phone, takes_default).empty());
}


// Merchant Center and Meta write amounts with their code ("15.00 USD"): their amount fields carry
// own_number_format, so that no fix strips the code; another source's price does not.
TEST(CheckPlanTest, FeedAmountsAreTheirOwnFormat) {
  const Mapping m = {{"price", "price"}, {"cost_price", "cost_of_goods_sold"}};
  const CheckPlan g = Plan({"product", "price"}, m, "google_merchant");
  ASSERT_EQ(g.conventions.size(), 2u);
  for (const SourceConvention& c : g.conventions) EXPECT_TRUE(c.own_number_format) << c.field;
  const Mapping meta = {{"price", "price"}};
  const CheckPlan p = Plan({"product"}, meta, "meta_catalog");
  ASSERT_EQ(p.conventions.size(), 1u);
  EXPECT_TRUE(p.conventions[0].own_number_format);
  const Mapping woo = {{"price", "Regular price"}};
  EXPECT_TRUE(Plan({"product"}, woo, "woocommerce").conventions.empty());
}

// A URL column whose cells list several URLs (value_evidence.h) gets the inferred separator and
// one note; a profile's own separator for the column wins (WooCommerce's comma-separated Images).
TEST(CheckPlanTest, InferredListSeparatorWhereTheProfileHasNone) {
  const Mapping m = {{"title", "Product Name"}, {"image_url", "Image"}};
  const Mapping lists = {{"image_url", "|"}};
  const std::vector<std::string> types = {"product"};
  CheckPlanInput in;
  in.check_types = types;
  in.mapping = &m;
  in.profile = &GenericProfile();
  in.list_separators = &lists;
  const CheckPlan p = PlanChecks(in);
  ASSERT_EQ(p.conventions.size(), 1u);
  EXPECT_EQ(p.conventions[0].field, "image_url");
  EXPECT_EQ(p.conventions[0].columns, (std::vector<std::string>{"Image"}));
  EXPECT_EQ(p.conventions[0].list_separator, "|");
  EXPECT_EQ(p.notes.back(), "The column 'Image' lists several URLs in a cell, separated by '|': "
                            "each URL was checked on its own.");

  const Mapping woo = {{"image_url", "Images"}};
  const Mapping spaces = {{"image_url", " "}};
  in.mapping = &woo;
  in.profile = FindSourceProfile("woocommerce");
  in.list_separators = &spaces;
  const CheckPlan w = PlanChecks(in);
  ASSERT_EQ(w.conventions.size(), 1u);
  EXPECT_EQ(w.conventions[0].list_separator, ",");
  for (const std::string& note : w.notes) EXPECT_EQ(note.find("lists several URLs"), std::string::npos);

  const Mapping unmapped = {{"additional_image_link", "|"}};
  in.mapping = &m;
  in.profile = &GenericProfile();
  in.list_separators = &unmapped;
  EXPECT_TRUE(PlanChecks(in).conventions.empty());
}

// Weights whose values name their unit ("10.7 pounds") under a header that names none: the note
// says the values were read in their own units, not that nothing could be.
TEST(CheckPlanTest, WeightsThatNameTheirUnitAreSaidToBeReadSo) {
  const Mapping m = {{"weight", "Shipping Weight"}};
  const std::vector<std::string> types = {"shipping"};
  CheckPlanInput in;
  in.check_types = types;
  in.mapping = &m;
  in.profile = &GenericProfile();
  in.weight_unit_example = "10.7 pounds";
  const CheckPlan p = PlanChecks(in);
  EXPECT_EQ(p.weight_unit, "unknown");
  EXPECT_EQ(p.notes.back(),
            "The weight column 'Shipping Weight' names no unit in its header, but its values "
            "name their own (such as '10.7 pounds'): each was read in the unit it names. A bare "
            "number would be checked only as a non-negative number; send weight_unit to give "
            "one.");
  in.caller_weight_unit = "lb";  // the caller's unit still comes first
  EXPECT_EQ(PlanChecks(in).notes.back(), "The weight column 'Shipping Weight' is read in pounds: "
                                         "the request said so (weight_unit).");
}

}  // namespace dq::ingest
