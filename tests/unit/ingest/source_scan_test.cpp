#include "dq/ingest/source_scan.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "dq/ingest/row_reader.h"

namespace dq::ingest {
namespace {

SourceScan ScanCsv(std::string_view csv, SourceScan::Options options = {}) {
  SourceScan scan(std::move(options));
  auto summary = ScanFile(FileFormat::kCsv, csv, {}, false, &scan);
  EXPECT_TRUE(summary.ok()) << summary.status().message();
  scan.Finish(summary->header);
  return scan;
}

TEST(SourceScanTest, PortugueseWooCommerceExportIsReadWithItsOwnNames) {
  const SourceScan scan = ScanCsv(
      "ID,Tipo,REF,Nome,\"Em estoque?\",Estoque,\"Peso (kg)\",\"Preço promocional\",Preço,"
      "Categorias,Imagens,Ascendente\n"
      "10,variable,CAM,Camiseta,1,,0.2,,,Roupas,\"https://a.example/1.jpg, "
      "https://a.example/2.jpg\",\n"
      "11,variation,CAM-P,\"Camiseta - P\",1,3,,,\"49,90\",,,CAM\n");
  EXPECT_EQ(scan.detection().profile->source, "woocommerce");
  EXPECT_EQ(scan.mapping(),
            (Mapping{{"sku", "REF"}, {"title", "Nome"}, {"price", "Preço"},
                     {"availability", "Em estoque?"}, {"image_url", "Imagens"},
                     {"category", "Categorias"}, {"weight", "Peso (kg)"},
                     {"stock_qty", "Estoque"}}));
  for (const auto& c : scan.inferred()) {
    EXPECT_EQ(c.how, "source") << c.field;
    EXPECT_DOUBLE_EQ(c.confidence, 0.99);
  }
}

// WooCommerce writes its exporter's column labels in the site's language (here ru_RU's).
TEST(SourceScanTest, RussianWooCommerceExportIsReadWithItsOwnNames) {
  const SourceScan scan = ScanCsv(
      "ID,Тип,Артикул,Имя,Опубликован,\"Видимость в каталоге\",Описание,\"В наличии?\","
      "\"Базовая цена\",Категории,Изображения\n"
      "40,simple,P-1,Платье,1,visible,Летнее,1,1500,Платья,\"https://a.example/1.jpg, "
      "https://a.example/2.jpg\"\n");
  EXPECT_EQ(scan.detection().profile->source, "woocommerce");
  EXPECT_EQ(scan.mapping(),
            (Mapping{{"sku", "Артикул"}, {"title", "Имя"}, {"description", "Описание"},
                     {"price", "Базовая цена"}, {"availability", "В наличии?"},
                     {"image_url", "Изображения"}, {"category", "Категории"}}));
}

SourceScan ScanXml(std::string_view xml) {
  SourceScan scan({});
  auto summary = ScanFile(FileFormat::kXml, xml, {}, false, &scan);
  EXPECT_TRUE(summary.ok()) << summary.status().message();
  scan.Finish(summary->header);
  return scan;
}

// A Google feed with neither link nor image (node-product-catalog-feed's example_feed.xml): the
// header alone (id, title, availability, price) says nothing of Google; the g: namespace does.
TEST(SourceScanTest, GoogleXmlFeedIsKnownByItsNamespace) {
  const SourceScan scan = ScanXml(
      R"(<?xml version="1.0"?><rss xmlns:g="http://base.google.com/ns/1.0" version="2.0">)"
      "<channel><title>Cars</title><item><g:id>x</g:id><title>Model X</title>"
      "<g:availability>preorder</g:availability><g:price>71300.00 USD</g:price></item>"
      "</channel></rss>");
  EXPECT_EQ(scan.detection().profile->source, "google_merchant");
  EXPECT_EQ(scan.detection().reason,
            "header has id, and its items use elements of http://base.google.com/ns/1.0: a "
            "Google Merchant Center XML feed (RSS or Atom with Google's g: namespace)");
}

// The same items without Google's namespace are a generic RSS feed.
TEST(SourceScanTest, PlainRssWithTheSameNamesIsGeneric) {
  const SourceScan scan = ScanXml(
      R"(<?xml version="1.0"?><rss version="2.0"><channel><item><id>x</id><title>T</title>)"
      "<availability>preorder</availability><price>1 USD</price></item></channel></rss>");
  EXPECT_EQ(scan.detection().profile->source, "generic");
}

// WordPress's XML export (WXR) of a WooCommerce shop: the wp: namespace and the product meta.
TEST(SourceScanTest, WordPressXmlWithProductMetaIsWooCommerce) {
  const SourceScan scan = ScanXml(
      R"(<?xml version="1.0"?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/">)"
      "<channel><item><title>Tee</title><wp:post_id>6</wp:post_id>"
      "<wp:post_type>product</wp:post_type>"
      R"(<category domain="product_type" nicename="variable"><![CDATA[variable]]></category>)"
      "<wp:postmeta><wp:meta_key>_sku</wp:meta_key><wp:meta_value>tee</wp:meta_value>"
      "</wp:postmeta><wp:postmeta><wp:meta_key>_regular_price</wp:meta_key>"
      "<wp:meta_value>20</wp:meta_value></wp:postmeta>"
      "<wp:postmeta><wp:meta_key>_stock_status</wp:meta_key><wp:meta_value>instock"
      "</wp:meta_value></wp:postmeta></item></channel></rss>");
  EXPECT_EQ(scan.detection().profile->source, "woocommerce");
  EXPECT_EQ(scan.mapping().size() >= 3, true);
  Mapping want{{"sku", "_sku"}, {"price", "_regular_price"}, {"availability", "_stock_status"}};
  for (const auto& pair : want) {
    EXPECT_NE(std::find(scan.mapping().begin(), scan.mapping().end(), pair), scan.mapping().end())
        << pair.first;
  }
}

// A blog's WXR (posts, no product meta) is not a WooCommerce export.
TEST(SourceScanTest, WordPressXmlOfPostsIsGeneric) {
  const SourceScan scan = ScanXml(
      R"(<?xml version="1.0"?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/">)"
      "<channel><item><title>Hello</title><wp:post_type>post</wp:post_type></item>"
      "</channel></rss>");
  EXPECT_EQ(scan.detection().profile->source, "generic");
}

TEST(SourceScanTest, PrestaShopPriceIsTaxExcludedNotUnitPrice) {
  const SourceScan scan = ScanCsv(
      "Product ID;Name *;Price tax excluded;Wholesale price;Reference #;EAN13;UPC;Weight;"
      "Quantity;Unit price;Image URLs (x,y,z...);Expiration date;Warehouse\n"
      "1;iPod Nano;100;80;RP-1;1234567890128;;0.068;160;2;http://x.example/1.jpg;;0\n");
  EXPECT_EQ(scan.detection().profile->source, "prestashop");
  EXPECT_EQ(scan.mapping(),
            (Mapping{{"sku", "Reference #"}, {"title", "Name *"}, {"price", "Price tax excluded"},
                     {"cost_price", "Wholesale price"}, {"image_url", "Image URLs (x,y,z...)"},
                     {"gtin", "EAN13"}, {"weight", "Weight"}, {"stock_qty", "Quantity"}}));
}

// Catalog > Products > Export (1.7 to 8.x): ';' and PHP's fputcsv quoting; the price is the
// tax-excluded one (the database's decimal(20,6)); Status is an out-of-stock flag in this
// export (quantity <= 0) and Position is written only when the list is filtered by a category:
// neither is mapped. A Reference column empty in every row is left out (PrestaShop does not
// require one), and the product's ID names the item.
TEST(SourceScanTest, PrestaShopCatalogExportPriceIsTaxExcluded) {
  const SourceScan scan = ScanCsv(
      "\"Product ID\";Image;Name;Reference;Category;\"Price (tax excl.)\";\"Price (tax incl.)\";"
      "Quantity;Status;Position\n"
      "7;https://shop.example/7/mug.jpg;\"Mug Today\";;Home;11.900000;14.28;1200;0\n"
      "8;https://shop.example/8/bear.jpg;\"Bear poster\";;Art;29.000000;34.8;0;1\n");
  EXPECT_EQ(scan.detection().profile->source, "prestashop");
  EXPECT_EQ(scan.mapping(),
            (Mapping{{"title", "Name"}, {"price", "Price (tax excl.)"}, {"image_url", "Image"},
                     {"category", "Category"}, {"stock_qty", "Quantity"}}));
  EXPECT_EQ(scan.empty_core_columns(), (Mapping{{"sku", "Reference"}}));
}

TEST(SourceScanTest, PrestaShopFrenchCatalogExportIsReadWithItsOwnNames) {
  const SourceScan scan = ScanCsv(
      "\"Product ID\";Image;Nom;Référence;Catégorie;\"Prix (HT)\";\"Prix (TTC)\";Quantité;État;"
      "Position\n"
      "1;https://boutique.example/1/t.jpg;\"T-shirt\";demo_1;Hommes;23.900000;28.68;300;0\n");
  EXPECT_EQ(scan.detection().profile->source, "prestashop");
  EXPECT_EQ(scan.mapping(),
            (Mapping{{"sku", "Référence"}, {"title", "Nom"}, {"price", "Prix (HT)"},
                     {"image_url", "Image"}, {"category", "Catégorie"},
                     {"stock_qty", "Quantité"}}));
}

// 1.6's list export: Base price is the tax-excluded price, Final price the price with tax and
// specific prices; Status is the product's active flag, not an availability.
TEST(SourceScanTest, PrestaShop16ListExportPriceIsTheBasePrice) {
  const SourceScan scan = ScanCsv(
      "id;Image;Name;Reference;Category;\"Base price\";\"Final price\";Quantity;Status\n"
      "1;http://shop.example/img/p/1/1.jpg;\"Faded T-shirt\";demo_1;T-shirts;16.510000;19.81;"
      "1799;1\n");
  EXPECT_EQ(scan.detection().profile->source, "prestashop");
  EXPECT_EQ(scan.mapping(),
            (Mapping{{"sku", "Reference"}, {"title", "Name"}, {"price", "Base price"},
                     {"image_url", "Image"}, {"category", "Category"},
                     {"stock_qty", "Quantity"}}));
}

TEST(SourceScanTest, OlistWeightInGramsIsFound) {
  const SourceScan scan =
      ScanCsv("product_id,product_category_name,product_weight_g,product_length_cm\n"
              "1e9e8ef04dbcff4541ed26657ea517e5,perfumaria,225,16\n");
  EXPECT_EQ(scan.detection().profile->source, "generic");
  EXPECT_EQ(scan.mapping(), (Mapping{{"sku", "product_id"},
                                     {"category", "product_category_name"},
                                     {"weight", "product_weight_g"}}));
}

// A public dataset of listings (Flipkart's product sample): retail_price is the list price (MRP)
// and discounted_price what the item sells for, which the generic profile takes as the price.
TEST(SourceScanTest, DiscountedPriceIsThePriceBesideARetailPrice) {
  const SourceScan scan = ScanCsv(
      "uniq_id,product_name,retail_price,discounted_price,image,brand\n"
      "c2d7,Cycling Shorts,999,379,\"[\"\"http://img.example/a.jpeg\"\"]\",Alisha\n");
  EXPECT_EQ(scan.detection().profile->source, "generic");
  EXPECT_EQ(scan.mapping(), (Mapping{{"title", "product_name"}, {"price", "discounted_price"},
                                     {"image_url", "image"}, {"brand", "brand"}}));
  // Alone, a retail price is the price.
  EXPECT_EQ(ScanCsv("name,retail_price\nMug,9.99\n").mapping(),
            (Mapping{{"title", "name"}, {"price", "retail_price"}}));
}

// Amazon's product dataset 2020: pipe-separated image URLs in one cell, weights in words.
TEST(SourceScanTest, ListCellsAndWeightUnitsAreLearnedFromTheFirstRows) {
  const SourceScan scan = ScanCsv(
      "Product Name,Selling Price,Shipping Weight,Image\n"
      "Puzzle,$17.49 ,13.4 ounces,https://img.example/a.jpg|https://img.example/b.jpg\n"
      "Kit,$99.95 ,4 pounds,https://img.example/c.jpg\n");
  EXPECT_EQ(scan.list_separators(), (Mapping{{"image_url", "|"}}));
  EXPECT_EQ(scan.weight_unit_example(), "13.4 ounces");
  const SourceScan plain = ScanCsv("Name,Image,Weight\nMug,https://img.example/a.jpg,2\n");
  EXPECT_TRUE(plain.list_separators().empty());
  EXPECT_EQ(plain.weight_unit_example(), "");
}

TEST(SourceScanTest, ValuesNameColumnsWhoseHeadersDoNot) {
  const SourceScan scan = ScanCsv(
      "code,label,col_a,col_b,col_c\n"
      "A1,Mug,4006381333931,19.99,https://img.example/a.jpg\n"
      "A2,Cup,5901234123457,\"1,299.00\",https://img.example/b.png?w=2\n"
      "A3,Pan,96385074,7.50,https://img.example/c.webp\n"
      "A4,Pot,012345678905,15.00 USD,https://img.example/d.jpg\n");
  Mapping by_values;
  for (const auto& c : scan.inferred()) {
    if (c.how == "values") by_values.emplace_back(c.field, c.column);
  }
  EXPECT_EQ(by_values,
            (Mapping{{"price", "col_b"}, {"image_url", "col_c"}, {"gtin", "col_a"}}));
  for (const auto& c : scan.inferred()) {
    if (c.field == "gtin") { EXPECT_DOUBLE_EQ(c.confidence, 0.95); }
    if (c.field == "price") { EXPECT_DOUBLE_EQ(c.confidence, 0.95); }
  }
}

TEST(SourceScanTest, CustomersExportMapsNoProductField) {
  const SourceScan scan = ScanCsv(
      "Customer ID,First Name,Last Name,Email,Accepts Email Marketing,Default Address Country "
      "Code,Phone,Total Spent,Total Orders,Tags,Note,Tax Exempt,Price\n"
      "1,Ann,Lee,ann@example.com,yes,US,+12025550123,10.00,1,,,no,3.00\n");
  EXPECT_EQ(scan.detection().profile->source, "shopify_customers");
  EXPECT_EQ(scan.mapping(), (Mapping{{"email", "Email"}, {"phone", "Phone"},
                                     {"country", "Default Address Country Code"}}));
}

TEST(SourceScanTest, GtinPaddingEvidenceCoversRowsPastTheSample) {
  std::string csv = "sku,gtin\n";
  for (size_t i = 0; i < SourceScan::kSampleRows + 50; ++i) {
    csv += "S" + std::to_string(i) + ",4006381333931\n";
  }
  // Past the sample: truncated UPC-As (valid once a zero is put back).
  csv += "X1,12345678905\nX2,36000291452\nX3,73010620025\n";
  EXPECT_TRUE(ScanCsv(csv).gtin_padding_evidence());
  std::string random = "sku,gtin\n";
  for (int i = 0; i < 10; ++i) {
    random += "S" + std::to_string(i) + "," + std::to_string(1234567890 + i * 7) + "\n";
  }
  EXPECT_FALSE(ScanCsv(random).gtin_padding_evidence());
}

TEST(SourceScanTest, AnInferredCoreColumnEmptyInEveryRowIsLeftOut) {
  const std::string header = "Handle,Title,Variant SKU,Variant Price,Variant Barcode\n";
  const SourceScan none = ScanCsv(header + "a,A,,9.00,\nb,B,,5.00,\n");
  EXPECT_EQ(none.mapping(), (Mapping{{"title", "Title"}, {"price", "Variant Price"},
                                     {"gtin", "Variant Barcode"}}));
  EXPECT_EQ(none.empty_core_columns(), (Mapping{{"sku", "Variant SKU"}}));
  for (const auto& c : none.inferred()) EXPECT_NE(c.field, "sku");

  // One SKU far past the rows the mapping is decided from keeps the column.
  std::string csv = header;
  for (size_t i = 0; i < SourceScan::kSampleRows + 10; ++i) {
    csv += "h" + std::to_string(i) + ",T,,1,\n";
  }
  csv += "z,Z,Z-1,1,\n";
  const SourceScan late = ScanCsv(csv);
  EXPECT_EQ(late.mapping().front(), (std::pair<std::string, std::string>{"sku", "Variant SKU"}));
  EXPECT_TRUE(late.empty_core_columns().empty());

  // A generic file's empty sku column stays mapped: the specification's MISSING_SKU holds.
  EXPECT_EQ(ScanCsv("sku,price\n,1\n,2\n").mapping().front().first, "sku");
  // A mapping sent by the caller is kept as sent.
  SourceScan::Options sent;
  sent.mapping = Mapping{{"sku", "Variant SKU"}};
  EXPECT_EQ(ScanCsv(header + "a,A,,9.00,\n", sent).mapping(), *sent.mapping);
}

// WooCommerce leaves Stock empty when stock is not managed (its importer then turns stock
// management off and keeps "In stock?"): a Stock column empty in every row is not a stock
// quantity missing on every row (issue 31; the corpus's sample_products.csv).
TEST(SourceScanTest, WooCommerceStockEmptyInEveryRowIsLeftOut) {
  const std::string header = "ID,Type,SKU,Name,In stock?,Stock,Regular price,Parent\n";
  const SourceScan unmanaged = ScanCsv(header + "1,simple,A,Mug,1,,9,\n2,simple,B,Cup,0,,5,\n");
  EXPECT_EQ(unmanaged.detection().profile->source, "woocommerce");
  EXPECT_EQ(unmanaged.empty_core_columns(), (Mapping{{"stock_qty", "Stock"}}));
  for (const auto& [field, column] : unmanaged.mapping()) EXPECT_NE(field, "stock_qty");
  // One managed row keeps the column: its quantities are checked.
  const SourceScan managed = ScanCsv(header + "1,simple,A,Mug,1,,9,\n2,simple,B,Cup,1,4,5,\n");
  EXPECT_TRUE(managed.empty_core_columns().empty());
  EXPECT_TRUE(std::any_of(managed.mapping().begin(), managed.mapping().end(),
                          [](const auto& m) { return m.first == "stock_qty"; }));
}

// Shopify writes Variant Grams 0 when no weight was entered: the scan counts those rows over the
// whole file, past the sample, for the plan's note; another source's zeros are not counted.
TEST(SourceScanTest, ShopifyZeroGramsAreCounted) {
  std::string csv = "Handle,Title,Variant SKU,Variant Price,Variant Grams\n";
  for (size_t i = 0; i < SourceScan::kSampleRows + 10; ++i) {
    csv += "h" + std::to_string(i) + ",T,S" + std::to_string(i) + ",1," +
           (i % 2 == 0 ? "0" : "0.0") + "\n";
  }
  csv += "x,X,SX,1,250\ny,Y,SY,1,-1\nz,Z,SZ,1,\n";
  const SourceScan scan = ScanCsv(csv);
  EXPECT_EQ(scan.detection().profile->source, "shopify_products");
  ASSERT_EQ(scan.zero_rows().size(), 1u);
  EXPECT_EQ(scan.zero_rows()[0].field, "weight");
  EXPECT_EQ(scan.zero_rows()[0].column, "Variant Grams");
  EXPECT_EQ(scan.zero_rows()[0].rows, SourceScan::kSampleRows + 10);
  // The newer column set's name, and a mapping sent by the caller.
  SourceScan::Options sent;
  sent.mapping = Mapping{{"weight", "Weight value (grams)"}};
  const SourceScan newer = ScanCsv("URL handle,Title,SKU,Price,Weight value (grams)\n"
                                   "a,A,S1,1,0\nb,B,S2,1,12\n",
                                   sent);
  ASSERT_EQ(newer.zero_rows().size(), 1u);
  EXPECT_EQ(newer.zero_rows()[0].rows, 1u);
  // WooCommerce's weight: 0 is a weight, judged as one.
  const SourceScan woo = ScanCsv(
      "ID,Type,SKU,Name,In stock?,Stock,Regular price,Parent,Weight (kg)\n"
      "1,simple,A,Mug,1,,9,,0\n2,simple,B,Cup,1,,5,,0\n");
  EXPECT_EQ(woo.detection().profile->source, "woocommerce");
  EXPECT_TRUE(woo.zero_rows().empty());
}

TEST(SourceScanTest, CallersMappingIsKeptAndSourceClaimHonoured) {
  SourceScan::Options o;
  o.claimed_source = "magento2";
  o.mapping = Mapping{{"sku", "Handle"}};
  const SourceScan scan = ScanCsv("Handle,Title,Variant SKU\nh,T,S\n", o);
  EXPECT_EQ(scan.detection().profile->source, "generic");
  EXPECT_EQ(scan.detection().notes.size(), 1u);
  EXPECT_EQ(scan.mapping(), (Mapping{{"sku", "Handle"}}));
  EXPECT_TRUE(scan.inferred().empty());
}

}  // namespace
}  // namespace dq::ingest
