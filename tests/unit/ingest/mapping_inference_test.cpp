#include "dq/ingest/mapping_inference.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "dq/common/vocabulary.h"
#include "dq/ingest/source_profile.h"

namespace dq::ingest {
namespace {

using Mapping = std::vector<std::pair<std::string, std::string>>;

TEST(MappingInferenceTest, TableCoversEveryStandardFieldInOrder) {
  ASSERT_EQ(AliasTable().size(), kStandardFields.size());
  for (size_t i = 0; i < kStandardFields.size(); ++i) {
    EXPECT_EQ(AliasTable()[i].field, kStandardFields[i]);
  }
}

TEST(MappingInferenceTest, NoAliasBelongsToTwoFields) {
  std::map<std::string, std::string> owner;
  for (const FieldAliases& row : AliasTable()) {
    std::vector<std::string_view> names = {row.field};
    names.insert(names.end(), row.aliases.begin(), row.aliases.end());
    for (std::string_view name : names) {
      const std::string norm = NormalizeColumnName(name);
      ASSERT_FALSE(norm.empty()) << name;
      auto [it, inserted] = owner.emplace(norm, std::string(row.field));
      EXPECT_TRUE(inserted || it->second == row.field)
          << "'" << name << "' is an alias of both " << it->second << " and " << row.field;
    }
  }
}

TEST(MappingInferenceTest, Normalisation) {
  EXPECT_EQ(NormalizeColumnName("Variant SKU"), "variantsku");
  EXPECT_EQ(NormalizeColumnName("variant_sku"), "variantsku");
  EXPECT_EQ(NormalizeColumnName("  VARIANT-SKU "), "variantsku");
  EXPECT_EQ(NormalizeColumnName("g:image_link"), "imagelink");
  EXPECT_EQ(NormalizeColumnName("Body (HTML)"), "bodyhtml");
  EXPECT_EQ(NormalizeColumnName("Preis \xE2\x82\xAC"), "preis\xE2\x82\xAC");
}

// Every column of gen_catalog.py's PRODUCT_COLUMNS and CUSTOMER_COLUMNS.
TEST(MappingInferenceTest, GenCatalogHeadersMapCompletely) {
  const Mapping products = {
      {"sku", "Variant SKU"},         {"title", "Title"},
      {"description", "Body (HTML)"}, {"price", "Variant Price"},
      {"compare_at_price", "Variant Compare At Price"},
      {"cost_price", "Cost per item"}, {"currency", "Currency"},
      {"availability", "Availability"}, {"image_url", "Image Src"},
      {"brand", "Vendor"},            {"category", "Type"},
      {"gtin", "Variant Barcode"},    {"weight", "Variant Grams"},
      {"hs_code", "HS Code"},         {"country_of_origin", "Country of Origin"},
      {"vat_number", "Supplier VAT"}, {"stock_qty", "Variant Inventory Qty"},
      {"reorder_point", "Reorder Point"}, {"expiry_date", "Best Before"},
      {"warehouse_id", "Location"}};
  std::vector<std::string> header;
  for (const auto& [field, column] : products) header.push_back(column);
  EXPECT_EQ(InferMapping(header), products);

  const Mapping customers = {{"email", "Email"}, {"phone", "Phone"}, {"country", "Country Code"}};
  EXPECT_EQ(InferMapping(std::vector<std::string>{"Email", "Phone", "Country Code"}), customers);
}

struct InferCase {
  const char* name;
  std::vector<std::string> header;
  Mapping mapping;
};

class InferMappingTest : public ::testing::TestWithParam<InferCase> {};

TEST_P(InferMappingTest, Infers) { EXPECT_EQ(InferMapping(GetParam().header), GetParam().mapping); }

INSTANTIATE_TEST_SUITE_P(
    Cases, InferMappingTest,
    ::testing::Values(
        InferCase{"standard_names_any_case",
                  {"SKU", "title", "Compare_At_Price", "stock qty", "Warehouse-ID"},
                  {{"sku", "SKU"}, {"title", "title"}, {"compare_at_price", "Compare_At_Price"},
                   {"stock_qty", "stock qty"}, {"warehouse_id", "Warehouse-ID"}}},
        InferCase{"shopify_export",
                  {"Handle", "Title", "Body (HTML)", "Vendor", "Product Category", "Type", "Tags",
                   "Variant SKU", "Variant Grams", "Variant Inventory Qty", "Variant Price",
                   "Variant Compare At Price", "Variant Barcode", "Image Src", "Cost per item"},
                  {{"sku", "Variant SKU"}, {"title", "Title"}, {"description", "Body (HTML)"},
                   {"price", "Variant Price"}, {"compare_at_price", "Variant Compare At Price"},
                   {"cost_price", "Cost per item"}, {"image_url", "Image Src"},
                   {"brand", "Vendor"}, {"category", "Product Category"},
                   {"gtin", "Variant Barcode"}, {"weight", "Variant Grams"},
                   {"stock_qty", "Variant Inventory Qty"}}},
        InferCase{"woocommerce_export",
                  {"ID", "Type", "SKU", "Name", "Description", "In stock?", "Stock",
                   "Low stock amount", "Weight (kg)", "Sale price", "Regular price",
                   "Categories", "Images", "Brands", "GTIN, UPC, EAN, or ISBN"},
                  {{"sku", "SKU"}, {"title", "Name"}, {"description", "Description"},
                   {"price", "Regular price"}, {"availability", "In stock?"},
                   {"image_url", "Images"}, {"brand", "Brands"}, {"category", "Categories"},
                   {"gtin", "GTIN, UPC, EAN, or ISBN"}, {"weight", "Weight (kg)"},
                   {"stock_qty", "Stock"}, {"reorder_point", "Low stock amount"},
                   {"sale_price", "Sale price"}}},
        InferCase{"google_merchant_feed",
                  {"id", "title", "description", "link", "image_link", "price", "sale_price",
                   "availability", "brand", "gtin", "mpn", "condition",
                   "google_product_category", "product_type", "shipping_weight"},
                  {{"sku", "id"}, {"title", "title"}, {"description", "description"},
                   {"price", "price"}, {"availability", "availability"},
                   {"image_url", "image_link"}, {"brand", "brand"}, {"gtin", "gtin"},
                   {"weight", "shipping_weight"}, {"link", "link"}, {"condition", "condition"},
                   {"mpn", "mpn"}, {"google_product_category", "google_product_category"},
                   {"product_type", "product_type"}, {"sale_price", "sale_price"}}},
        InferCase{"google_prefixed", {"g:id", "g:price"}, {{"sku", "g:id"}, {"price", "g:price"}}},
        InferCase{"spanish", {"Referencia", "Nombre", "Precio", "Marca", "Existencias", "Peso"},
                  {{"sku", "Referencia"}, {"title", "Nombre"}, {"price", "Precio"},
                   {"brand", "Marca"}, {"weight", "Peso"}, {"stock_qty", "Existencias"}}},
        InferCase{"german", {"Artikelnummer", "Produktname", "Preis", "Hersteller", "Bestand",
                             "Gewicht (kg)", "Kategorie"},
                  {{"sku", "Artikelnummer"}, {"title", "Produktname"}, {"price", "Preis"},
                   {"brand", "Hersteller"}, {"category", "Kategorie"}, {"weight", "Gewicht (kg)"},
                   {"stock_qty", "Bestand"}}},
        InferCase{"french", {"Référence", "Titre", "Prix", "Marque", "Quantité", "Poids"},
                  {{"sku", "Référence"}, {"title", "Titre"}, {"price", "Prix"},
                   {"brand", "Marque"}, {"weight", "Poids"}, {"stock_qty", "Quantité"}}},
        InferCase{"italian", {"Codice articolo", "Titolo", "Prezzo", "Marca", "Quantità"},
                  {{"sku", "Codice articolo"}, {"title", "Titolo"}, {"price", "Prezzo"},
                   {"brand", "Marca"}, {"stock_qty", "Quantità"}}},
        InferCase{"dutch", {"Artikelcode", "Naam", "Prijs", "Merk", "Voorraad", "Gewicht"},
                  {{"sku", "Artikelcode"}, {"title", "Naam"}, {"price", "Prijs"},
                   {"brand", "Merk"}, {"weight", "Gewicht"}, {"stock_qty", "Voorraad"}}},
        InferCase{"portuguese", {"Código", "Nome", "Preço", "Marca", "Estoque", "Peso"},
                  {{"sku", "Código"}, {"title", "Nome"}, {"price", "Preço"},
                   {"brand", "Marca"}, {"weight", "Peso"}, {"stock_qty", "Estoque"}}},
        InferCase{"amazon_style_template",
                  {"item_sku", "item_name", "brand_name", "external_product_id",
                   "standard_price", "list_price", "quantity", "main_image_url"},
                  {{"sku", "item_sku"}, {"title", "item_name"}, {"price", "standard_price"},
                   {"compare_at_price", "list_price"}, {"image_url", "main_image_url"},
                   {"brand", "brand_name"}, {"gtin", "external_product_id"},
                   {"stock_qty", "quantity"}}},
        InferCase{"exact_name_beats_alias", {"Variant SKU", "sku"}, {{"sku", "sku"}}},
        InferCase{"exact_name_beats_alias_to_its_left", {"Email Address", "E-Mail"},
                  {{"email", "E-Mail"}}},
        InferCase{"same_rank_leftmost", {"Phone Number", "Telephone", "phone_number"},
                  {{"phone", "Phone Number"}}},
        InferCase{"nothing_known", {"foo", "bar", ""}, {}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(MappingInferenceTest, IsDeterministicAndNeverMapsAColumnTwice) {
  const std::vector<std::string> header = {"id", "SKU", "Type", "Category", "Country",
                                           "Country Code", "Country of Origin"};
  const Mapping first = InferMapping(header);
  EXPECT_EQ(InferMapping(header), first);
  std::set<std::string> columns;
  for (const auto& [field, column] : first) EXPECT_TRUE(columns.insert(column).second) << column;
  EXPECT_EQ(first, (Mapping{{"sku", "SKU"}, {"category", "Category"},
                            {"country_of_origin", "Country of Origin"}, {"country", "Country"}}));
}

}  // namespace
}  // namespace dq::ingest

namespace dq::ingest {
namespace {

TEST(WeightUnitOfColumnTest, NamesTheUnitOrNothing) {
  EXPECT_EQ(WeightUnitOfColumn("Weight (kg)"), "kg");
  EXPECT_EQ(WeightUnitOfColumn("weight_kgs"), "kg");
  EXPECT_EQ(WeightUnitOfColumn("Weight (lbs)"), "lb");
  EXPECT_EQ(WeightUnitOfColumn("Shipping Weight LB"), "lb");
  EXPECT_EQ(WeightUnitOfColumn("Weight (oz)"), "oz");
  EXPECT_EQ(WeightUnitOfColumn("Variant Grams"), "g");
  EXPECT_EQ(WeightUnitOfColumn("Weight"), "");
  EXPECT_EQ(WeightUnitOfColumn("Gross weight"), "");  // "gross" is no unit
}

TEST(WeightUnitOfColumnTest, UnitHeadersAndCustomsValueAreInferred) {
  const std::vector<std::string> header = {"SKU", "Weight (lbs)", "Customs Value"};
  const auto m = InferMapping(header);
  EXPECT_NE(std::find(m.begin(), m.end(), std::pair<std::string, std::string>{"weight", "Weight (lbs)"}),
            m.end());
  EXPECT_NE(std::find(m.begin(), m.end(),
                      std::pair<std::string, std::string>{"declared_value", "Customs Value"}),
            m.end());
}

TEST(MappingNotesTest, AWeightInAnUnconvertibleUnitIsLeftUnmappedAndSaysSo) {
  const std::vector<std::string> header = {"SKU", "Weight (t)", "Gross Weight", "Weight mg",
                                           "Notes"};
  const auto m = InferMapping(header);
  for (const auto& [field, column] : m) {
    EXPECT_NE(column, "Weight (t)");  // 2 t read as 2 g would be wrong by a factor of a million
    EXPECT_NE(column, "Weight mg");
  }
  const std::vector<std::string> notes = MappingNotes(header, m);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("'Weight (t)'"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("'t'"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("'Weight mg'"), std::string::npos) << notes[1];
}

TEST(MappingNotesTest, NothingToSayForConvertibleOrMappedOrQualifiedWeights) {
  for (const std::vector<std::string>& header :
       std::vector<std::vector<std::string>>{{"SKU", "Weight (kg)"},
                                             {"SKU", "Weight", "Gross Weight"},
                                             {"SKU", "Shipping Weight LB"},
                                             {"SKU", "Title"}}) {
    EXPECT_TRUE(MappingNotes(header, InferMapping(header)).empty()) << header[1];
  }
  // A column the caller's own mapping covers needs no note, whatever its unit.
  const std::vector<std::string> header = {"SKU", "Weight (t)"};
  const std::vector<std::pair<std::string, std::string>> mapping = {{"sku", "SKU"},
                                                                    {"weight", "Weight (t)"}};
  EXPECT_TRUE(MappingNotes(header, mapping).empty());
}

}  // namespace
}  // namespace dq::ingest

namespace dq::ingest {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// Issue 31: a weight's unit in a column of its own is the row's unit evidence, found in each of
// the languages the mapping covers.
TEST(WeightUnitColumnTest, FoundBesideABareWeightInEachLanguage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Variant Weight", "Variant Weight Unit"}, {"weight", "weight_unit"},
      {"Weight", "Weight UOM"},                  {"Peso", "Unidade de peso"},
      {"Peso", "Unidad de peso"},                {"Gewicht", "Gewichtseinheit"},
      {"Poids", "Unité de poids"},               {"Peso", "Unità di peso"},
      {"Gewicht", "Gewichtseenheid"}};
  for (const auto& [weight, unit] : cases) {
    const std::vector<std::string> header = {"SKU", weight, unit};
    EXPECT_EQ(InferMapping(header),
              (Pairs{{"sku", "SKU"}, {"weight", weight}, {"weight_unit", unit}}))
        << unit;
    const InferredMapping from = InferMappingFrom(header, {}, GenericProfile());
    EXPECT_EQ(from.mapping, (Pairs{{"sku", "SKU"}, {"weight", weight}, {"weight_unit", unit}}))
        << unit;
    EXPECT_EQ(from.columns.size(), from.mapping.size());
    EXPECT_TRUE(MappingNotes(header, from.mapping).empty()) << unit;
  }
}

// Shopify writes Variant Grams in grams whatever Variant Weight Unit says (it keeps that unit
// for display), and a header that names its unit is that unit: the unit column is left out, and
// the mapping notes say why.
TEST(WeightUnitColumnTest, NotUsedWhenTheWeightHeaderNamesItsUnit) {
  const std::vector<std::string> shopify = {"Handle", "Variant SKU", "Variant Grams",
                                            "Variant Weight", "Variant Weight Unit"};
  const InferredMapping m =
      InferMappingFrom(shopify, {}, *FindSourceProfile("shopify_products"));
  for (const auto& [field, column] : m.mapping) {
    EXPECT_NE(field, "weight_unit") << column;
    if (field == "weight") { EXPECT_EQ(column, "Variant Grams"); }
  }
  EXPECT_EQ(MappingNotes(shopify, m.mapping),
            (std::vector<std::string>{
                "Column 'Variant Weight Unit' was not read as the unit of the weights: the weight "
                "column 'Variant Grams' names its own unit (g) in its header."}));
  const std::vector<std::string> kg = {"SKU", "Weight (kg)", "Weight Unit"};
  EXPECT_EQ(InferMapping(kg), (Pairs{{"sku", "SKU"}, {"weight", "Weight (kg)"}}));
  // Nothing to give a unit to.
  const std::vector<std::string> alone = {"SKU", "Weight Unit"};
  EXPECT_EQ(InferMapping(alone), (Pairs{{"sku", "SKU"}}));
  EXPECT_EQ(InferMappingFrom(alone, {}, GenericProfile()).mapping, (Pairs{{"sku", "SKU"}}));
}

// Shopify's Transporter layout without Variant Grams: Variant Weight with its unit beside it.
TEST(WeightUnitColumnTest, ShopifyVariantWeightTakesItsUnitColumn) {
  const std::vector<std::string> header = {"Handle", "Variant SKU", "Variant Price",
                                           "Variant Weight", "Variant Weight Unit"};
  const InferredMapping m = InferMappingFrom(header, {}, *FindSourceProfile("shopify_products"));
  EXPECT_NE(std::find(m.mapping.begin(), m.mapping.end(),
                      std::pair<std::string, std::string>{"weight", "Variant Weight"}),
            m.mapping.end());
  EXPECT_NE(std::find(m.mapping.begin(), m.mapping.end(),
                      std::pair<std::string, std::string>{"weight_unit", "Variant Weight Unit"}),
            m.mapping.end());
}

}  // namespace
}  // namespace dq::ingest
