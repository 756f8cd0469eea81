#include "dq/ingest/source_detect.h"

#include <gtest/gtest.h>

namespace dq::ingest {
namespace {

using Rows = std::vector<std::vector<std::string>>;

struct DetectCase {
  const char* name;
  std::vector<std::string> header;
  Rows rows;
  const char* source;
  const char* reason;
};

class DetectTest : public ::testing::TestWithParam<DetectCase> {};

TEST_P(DetectTest, Detects) {
  const DetectCase& c = GetParam();
  const SourceDetection d = DetectSource(c.header, c.rows, "");
  ASSERT_NE(d.profile, nullptr);
  EXPECT_EQ(d.profile->source, c.source);
  EXPECT_EQ(d.reason, c.reason);
  EXPECT_TRUE(d.notes.empty());
}

// Headers as each platform's documentation or sample export writes them.
INSTANTIATE_TEST_SUITE_P(
    Sources, DetectTest,
    ::testing::Values(
        DetectCase{"shopify_products",
                   {"Handle", "Title", "Body (HTML)", "Vendor", "Type", "Tags", "Option1 Name",
                    "Option1 Value", "Variant SKU", "Variant Grams", "Variant Price",
                    "Variant Barcode", "Image Src", "Image Position"},
                   {},
                   "shopify_products",
                   "header has Handle and Variant SKU: a Shopify products export"},
        DetectCase{"shopify_customers_2020",
                   {"First Name", "Last Name", "Email", "Accepts Email Marketing",
                    "Default Address Company", "Default Address Country Code", "Phone",
                    "Total Spent", "Total Orders", "Note", "Tax Exempt"},
                   {},
                   "shopify_customers",
                   "header has Email, Accepts Email Marketing and Total Spent: a Shopify "
                   "customers export"},
        DetectCase{"woocommerce",
                   {"ID", "Type", "SKU", "Name", "Published", "Visibility in catalog",
                    "In stock?", "Stock", "Weight (lbs)", "Regular price", "Images", "Parent"},
                   {{"44", "variable", "woo-vneck-tee", "V-Neck T-Shirt", "1", "visible", "1",
                     "", ".5", "", "https://e.example/a.jpg", ""}},
                   "woocommerce",
                   "header has Type, In stock? and Parent, and Type holds variable: a "
                   "WooCommerce products export"},
        DetectCase{"woocommerce_pt_br",
                   {"ID", "Tipo", "REF", "Nome", "Publicado", "Visibilidade no catálogo",
                    "Em estoque?", "Estoque", "Peso (kg)", "Preço promocional", "Preço",
                    "Categorias", "Imagens", "Ascendente"},
                   {{"12", "simple", "CAM-01", "Camiseta", "1", "visible", "1", "5", "0.2", "",
                     "49,90", "Roupas", "", ""}},
                   "woocommerce",
                   "header has Tipo, Em estoque? and Ascendente, and Tipo holds simple: a "
                   "WooCommerce products export"},
        // An export with the columns chosen in the exporter (no ID, no Parent): the
        // exporter's own column labels still mark it as WooCommerce's.
        DetectCase{"woocommerce_chosen_columns",
                   {"Type", "SKU", "Name", "Published", "Is featured?", "In stock?",
                    "Regular price", "Weight (kg)", "Categories", "Images", "Attribute 1 name"},
                   {{"simple", "w-1", "Red wine", "1", "0", "1", "12.50", "1.3", "Wine",
                     "https://e.example/w.png", "Region"}},
                   "woocommerce",
                   "header has Type, In stock? and Is featured?, and Type holds simple: a "
                   "WooCommerce products export"},
        // WooCommerce translates the exporter's column labels into the site's language.
        DetectCase{"woocommerce_ru",
                   {"ID", "Тип", "Артикул", "Имя", "Опубликован", "Видимость в каталоге",
                    "Описание", "В наличии?", "Базовая цена", "Категории", "Изображения"},
                   {{"40", "simple", "", "Платье", "1", "visible", "", "1", "1500", "Платья",
                     "https://e.example/p.jpg"}},
                   "woocommerce",
                   "header has Тип, В наличии? and Видимость в каталоге, and Тип holds simple: a "
                   "WooCommerce products export"},
        DetectCase{"magento2_products",
                   {"sku", "store_view_code", "attribute_set_code", "product_type",
                    "categories", "product_websites", "name", "weight", "visibility", "price"},
                   {{"24-WG085", "", "Default", "simple", "Gear", "base", "Strap", "1.23",
                     "Catalog, Search", "14"}},
                   "magento2",
                   "header has sku, product_type and attribute_set_code, and product_type holds "
                   "simple: a Magento 2 products export"},
        // The column names of Magento 2's importer itself (Product::COL_TYPE, COL_STORE,
        // COL_ATTR_SET), as in magento/magento2's import test fixtures.
        DetectCase{"magento2_products_internal_names",
                   {"sku", "_store", "name", "price", "_type", "_attribute_set", "weight"},
                   {{"simple1", "", "simple 1", "10", "simple", "Default", "2"}},
                   "magento2",
                   "header has sku, _type and _attribute_set, and _type holds simple: a Magento 2 "
                   "products export"},
        DetectCase{"magento2_customer_address",
                   {"_website", "_email", "_entity_id", "city", "country_id", "firstname",
                    "lastname", "postcode", "street", "telephone"},
                   {},
                   "magento2",
                   "header has _website, _email and firstname: a Magento 2 customers export"},
        DetectCase{"prestashop_products",
                   {"Product ID", "Active (0/1)", "Name *", "Categories (x,y,z...)",
                    "Price tax excluded", "Wholesale price", "Reference #", "EAN13", "UPC",
                    "Weight", "Quantity", "Unit price", "Image URLs (x,y,z...)"},
                   {},
                   "prestashop",
                   "header has Price tax excluded and Reference #: a PrestaShop products file"},
        // Catalog > Products > Export (1.7 to 8.x, ProductController::exportAction): Product ID
        // is written untranslated, the other labels in the back office's language; Position
        // ends the header whether or not the rows have it.
        DetectCase{"prestashop_catalog_export",
                   {"Product ID", "Image", "Name", "Reference", "Category",
                    "Price (tax excl.)", "Price (tax incl.)", "Quantity", "Status", "Position"},
                   {},
                   "prestashop",
                   "header has Product ID and Price (tax excl.): a PrestaShop catalog export "
                   "(Catalog > Products > Export)"},
        DetectCase{"prestashop_catalog_export_fr",
                   {"Product ID", "Image", "Nom", "Référence", "Catégorie", "Prix (HT)",
                    "Prix (TTC)", "Quantité", "État", "Position"},
                   {},
                   "prestashop",
                   "header has Product ID and Prix (HT): a PrestaShop catalog export "
                   "(Catalog > Products > Export)"},
        // A language whose price labels the profile does not know: Product ID and Position.
        DetectCase{"prestashop_catalog_export_other_language",
                   {"Product ID", "Obraz", "Nazwa", "Indeks", "Kategoria", "Cena (netto)",
                    "Cena (brutto)", "Ilość", "Status", "Position"},
                   {},
                   "prestashop",
                   "header has Product ID and Position: a PrestaShop catalog export (Catalog > "
                   "Products > Export)"},
        // 1.6's list export (AdminController::processExport): "ID" is written lower case.
        DetectCase{"prestashop_16_list_export",
                   {"id", "Image", "Name", "Reference", "Category", "Base price",
                    "Final price", "Quantity", "Status"},
                   {},
                   "prestashop",
                   "header has Base price and Final price: a PrestaShop 1.6 products list "
                   "export"},
        DetectCase{"prestashop_combinations",
                   {"Product ID*", "Attribute (Name:Type:Position)*",
                    "Value (Value:Position)*", "Supplier reference", "Reference", "EAN13",
                    "UPC", "Wholesale price", "Impact on price", "Impact on weight"},
                   {},
                   "prestashop",
                   "header has Attribute (Name:Type:Position)* and Value (Value:Position)*: a "
                   "PrestaShop combinations file"},
        DetectCase{"bigcommerce_v3",
                   {"Item", "ID", "Name", "Type", "SKU", "Options", "Inventory Tracking",
                    "Current Stock", "Price", "Weight", "Image URL (Import)"},
                   {{"Product", "", "Mug", "physical", "MUG-1", "", "none", "", "10", "1", ""}},
                   "bigcommerce",
                   "header has Item, Name and Inventory Tracking, and Item holds product: a "
                   "BigCommerce products export"},
        DetectCase{"google_merchant_tsv",
                   {"id", "title", "description", "link", "image_link", "availability",
                    "price", "brand", "gtin", "condition", "shipping_weight"},
                   {},
                   "google_merchant",
                   "header has id, availability and image_link: a Google Merchant Center feed"},
        DetectCase{"meta_catalog",
                   {"id", "title", "description", "availability", "condition", "price",
                    "link", "image_link", "brand", "fb_product_category",
                    "quantity_to_sell_on_facebook"},
                   {},
                   "meta_catalog",
                   "header has id, availability and fb_product_category: a Meta catalog feed"},
        // commercetools' product CSV as product-csv-sync documents it (Sunrise's demo data).
        DetectCase{"commercetools",
                   {"productType", "variantId", "sku", "prices", "tax", "categories", "images",
                    "name.en", "description.en", "slug.en", "name.de", "baseId"},
                   {},
                   "commercetools",
                   "header has productType, variantId and name.en: a commercetools product CSV"},
        // A productType column alone (with a name) is not enough.
        DetectCase{"product_type_column_is_generic",
                   {"sku", "name", "productType", "price"},
                   {},
                   "generic",
                   "the header matches no known platform's export"},
        DetectCase{"gen_catalog_is_generic",
                   {"Variant SKU", "Title", "Body (HTML)", "Variant Price", "Currency",
                    "Availability", "Image Src", "Vendor", "Variant Grams"},
                   {},
                   "generic",
                   "the header matches no known platform's export"},
        // Product ID with plain price and stock columns, or a base price alone, is no
        // PrestaShop export.
        DetectCase{"product_id_and_price_is_generic",
                   {"Product ID", "Name", "Price", "Quantity", "Status"},
                   {},
                   "generic",
                   "the header matches no known platform's export"},
        DetectCase{"base_price_alone_is_generic",
                   {"id", "Name", "Base price", "Quantity"},
                   {},
                   "generic",
                   "the header matches no known platform's export"}),
    [](const ::testing::TestParamInfo<DetectCase>& i) { return std::string(i.param.name); });

TEST(DetectSourceTest, FirstRowsMustShowTheTypeWords) {
  // A Type column of categories is not WooCommerce's product type.
  const std::vector<std::string> header = {"Type", "SKU", "In stock?", "Parent"};
  const Rows rows = {{"Clothing", "A", "1", ""}, {"Shoes", "B", "0", ""}};
  EXPECT_EQ(DetectSource(header, rows, "").profile->source, "generic");
}

TEST(DetectSourceTest, ClaimThatFitsIsTaken) {
  const std::vector<std::string> header = {"Handle", "Title", "Variant SKU", "Variant Price"};
  const SourceDetection d = DetectSource(header, {}, "shopify_products");
  EXPECT_EQ(d.profile->source, "shopify_products");
  EXPECT_EQ(d.reason, "set by the caller; header has Handle and Variant SKU: a Shopify products "
                      "export");
  EXPECT_TRUE(d.notes.empty());
}

TEST(DetectSourceTest, ClaimOfAnotherPlatformsFileIsReadAsGenericWithANote) {
  const std::vector<std::string> header = {"Handle", "Title", "Variant SKU", "Variant Price"};
  const SourceDetection d = DetectSource(header, {}, "magento2");
  EXPECT_EQ(d.profile->source, "generic");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0],
            "The file was sent as source magento2, but its header is that of a Shopify products "
            "export (header has Handle and Variant SKU: a Shopify products export); it was read "
            "as generic: every row is checked as a product of its own. Send the right source, "
            "or none to detect it.");
}

TEST(DetectSourceTest, ClaimOfAFileOfNoKnownPlatformIsTaken) {
  const std::vector<std::string> header = {"code", "label", "amount"};
  const SourceDetection d = DetectSource(header, {}, "prestashop");
  EXPECT_EQ(d.profile->source, "prestashop");
  EXPECT_EQ(d.reason, "set by the caller (the header fits no known platform)");
}

TEST(DetectSourceTest, GenericClaimIsGeneric) {
  const std::vector<std::string> header = {"Handle", "Variant SKU"};
  const SourceDetection d = DetectSource(header, {}, "generic");
  EXPECT_EQ(d.profile->source, "generic");
  EXPECT_EQ(d.reason, "set by the caller");
}

}  // namespace
}  // namespace dq::ingest
