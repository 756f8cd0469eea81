#include "dq/ingest/row_model.h"

#include <gtest/gtest.h>

#include <optional>

namespace dq::ingest {
namespace {

struct Seen {
  std::string kind, sku, item_id, title;
  bool operator==(const Seen&) const = default;
};

void PrintTo(const Seen& s, std::ostream* os) {
  *os << "{" << s.kind << ", " << s.sku << ", " << s.item_id << ", " << s.title << "}";
}

// Runs every row through a model of `source`, with sku and title the named columns.
std::vector<Seen> RunModel(const char* source, const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows, const char* sku,
                      const char* title) {
  auto col = [&](const char* name) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
    return SIZE_MAX;
  };
  RowModel model(*FindSourceProfile(source), header, col(sku), col(title));
  std::vector<Seen> out;
  for (const auto& row : rows) {
    std::vector<std::string_view> cells(row.begin(), row.end());
    const RowKind kind = model.Next(cells);
    out.push_back({std::string(RowKindName(kind)), std::string(model.sku()),
                   std::string(model.item_id()), std::string(model.title())});
  }
  return out;
}

TEST(RowModelTest, ShopifyHandlesGroupProductVariantAndImageRows) {
  const std::vector<std::string> header = {"Handle", "Title", "Vendor", "Option1 Value",
                                           "Variant SKU", "Variant Price", "Image Src"};
  const auto seen = RunModel("shopify_products", header,
                        {{"gloves", "Gardening Gloves", "Acme", "Green", "GL-G", "9.00", "a.jpg"},
                         {"gloves", "", "", "Yellow", "GL-Y", "9.00", "b.jpg"},
                         {"gloves", "", "", "", "", "", "c.jpg"},
                         {"hat", "Sun Hat", "Acme", "", "HAT", "15.00", "d.jpg"},
                         {"hat", "", "", "", "", "", "e.jpg"}},
                        "Variant SKU", "Title");
  EXPECT_EQ(seen, (std::vector<Seen>{{"product", "GL-G", "gloves", "Gardening Gloves"},
                                     {"variant", "GL-Y", "gloves", "Gardening Gloves"},
                                     {"image", "", "gloves", "Gardening Gloves"},
                                     {"product", "HAT", "hat", "Sun Hat"},
                                     {"image", "", "hat", "Sun Hat"}}));
}

TEST(RowModelTest, ShopifyFirstRowOfAHandleIsTheProductEvenWithoutTitle) {
  const std::vector<std::string> header = {"Handle", "Title", "Variant SKU"};
  const auto seen = RunModel("shopify_products", header, {{"a", "", "A1"}, {"b", "", "B1"}},
                        "Variant SKU", "Title");
  EXPECT_EQ(seen[0].kind, "product");
  EXPECT_EQ(seen[1].kind, "product");
  EXPECT_EQ(seen[1].item_id, "b");
}

// Shopify's Transporter sample: the product's first row names its options (Color, Size) but
// gives no option value, SKU or price; its variants follow with the same Handle. That row is the
// parent, not a purchasable item. A first row that names an option and fills its value (Title /
// Default Title, the export of a product without options) stays the product.
TEST(RowModelTest, ShopifyFirstRowNamingOptionsWithoutValuesIsTheParent) {
  const std::vector<std::string> header = {"Handle",        "Title",         "Option1 Name",
                                           "Option1 Value", "Option2 Name",  "Option2 Value",
                                           "Variant SKU",   "Variant Price", "Image Src"};
  const auto seen = RunModel(
      "shopify_products", header,
      {{"sneaker", "Hightop", "Color", "", "Size", "", "", "", "a.jpg"},
       {"sneaker", "", "", "", "", "", "", "", "b.jpg"},
       {"sneaker", "", "", "White", "", "9.5", "a-123", "10.00", ""},
       {"sneaker", "", "", "Black", "", "10", "a-456", "20.00", ""},
       {"tee", "Tee", "Title", "Default Title", "", "", "T-1", "5.00", "t.jpg"},
       {"cap", "Cap", "Color", "Red", "", "", "", "", ""}},
      "Variant SKU", "Title");
  EXPECT_EQ(seen, (std::vector<Seen>{{"parent", "", "sneaker", "Hightop"},
                                     {"image", "", "sneaker", "Hightop"},
                                     {"variant", "a-123", "sneaker", "Hightop"},
                                     {"variant", "a-456", "sneaker", "Hightop"},
                                     {"product", "T-1", "tee", "Tee"},
                                     {"product", "", "cap", "Cap"}}));
}

// A first row that names options without values is a parent only when a variant of its
// product follows: the next product (or the end of the file) without one makes it the product,
// as Shopify's export of a product without variants holds its price, SKU and stock on that row.
// Image rows between do not decide. revised() names the row by how far back it is.
TEST(RowModelTest, ShopifyParentWithoutAVariantAfterItIsTheProduct) {
  const std::vector<std::string> header = {"Handle", "Title", "Option1 Name", "Option1 Value",
                                           "Variant SKU", "Variant Price", "Image Src"};
  RowModel model(*FindSourceProfile("shopify_products"), header, 4, 1);
  struct Step {
    std::vector<std::string> row;
    RowKind kind;
    bool pending;
    std::optional<size_t> revised;
  };
  const std::vector<Step> steps = {
      {{"bag", "Bag", "Color", "", "", "", "a.jpg"}, RowKind::kParent, true, {}},
      {{"bag", "", "", "", "", "", "b.jpg"}, RowKind::kImage, true, {}},
      {{"mug", "Mug", "Title", "Default Title", "M-1", "9.00", "m.jpg"}, RowKind::kProduct,
       false, 2},
      {{"tee", "Tee", "Size", "", "", "", "t.jpg"}, RowKind::kParent, true, {}},
      {{"tee", "", "", "S", "T-S", "5.00", ""}, RowKind::kVariant, false, {}},
      {{"tee", "", "", "M", "T-M", "5.00", ""}, RowKind::kVariant, false, {}},
      {{"cap", "Cap", "Color", "", "", "", ""}, RowKind::kParent, true, {}},
      {{"hat", "Hat", "Color", "", "", "", ""}, RowKind::kParent, true, 1},
      {{"hat", "", "", "", "", "", "h.jpg"}, RowKind::kImage, true, {}}};
  for (size_t i = 0; i < steps.size(); ++i) {
    std::vector<std::string_view> cells(steps[i].row.begin(), steps[i].row.end());
    EXPECT_EQ(model.Next(cells), steps[i].kind) << "row " << i;
    EXPECT_EQ(model.pending(), steps[i].pending) << "row " << i;
    EXPECT_EQ(model.revised(), steps[i].revised) << "row " << i;
  }
  EXPECT_EQ(model.End(), std::optional<size_t>(1));  // hat, the row before the last
  EXPECT_FALSE(model.pending());
  EXPECT_EQ(model.End(), std::nullopt);
}

// A parent followed by more than kMaxPending image rows and no variant stays a parent: a row is
// never held back without bound.
TEST(RowModelTest, ShopifyParentPendingIsBounded) {
  const std::vector<std::string> header = {"Handle", "Option1 Name", "Option1 Value",
                                           "Image Src"};
  RowModel model(*FindSourceProfile("shopify_products"), header, SIZE_MAX, SIZE_MAX);
  std::vector<std::string_view> parent = {"bag", "Color", "", "a.jpg"};
  std::vector<std::string_view> image = {"bag", "", "", "b.jpg"};
  EXPECT_EQ(model.Next(parent), RowKind::kParent);
  for (size_t i = 0; i < RowModel::kMaxPending; ++i) {
    EXPECT_EQ(model.Next(image), RowKind::kImage);
    ASSERT_TRUE(model.pending()) << i;
  }
  EXPECT_EQ(model.Next(image), RowKind::kImage);
  EXPECT_FALSE(model.pending());
  EXPECT_EQ(model.End(), std::nullopt);
}

// Without Option Name columns nothing can make a first row a parent.
TEST(RowModelTest, ShopifyFirstRowWithoutOptionNamesStaysTheProduct) {
  const std::vector<std::string> header = {"Handle", "Title", "Variant SKU", "Variant Price"};
  const auto seen = RunModel("shopify_products", header, {{"a", "A", "", ""}}, "Variant SKU",
                             "Title");
  EXPECT_EQ(seen[0].kind, "product");
}

// commercetools (product-csv-sync's README, "Variants"): a row with a productType is a product
// and its master variant; a row that leaves productType empty is a further variant of the
// product above it, whose title and slug it takes.
TEST(RowModelTest, CommercetoolsEmptyProductTypeIsAVariantOfTheProductAbove) {
  const std::vector<std::string> header = {"productType", "variantId", "sku", "name.en",
                                           "slug.en"};
  const auto seen = RunModel("commercetools", header,
                             {{"main", "1", "M-1", "Chino", "chino"},
                              {"", "2", "M-2", "", ""},
                              {"", "3", "M-3", "", ""},
                              {"main", "1", "S-1", "Shoe", "shoe"},
                              {"", "2", "S-2", "", ""}},
                             "sku", "name.en");
  EXPECT_EQ(seen, (std::vector<Seen>{{"product", "M-1", "chino", "Chino"},
                                     {"variant", "M-2", "chino", "Chino"},
                                     {"variant", "M-3", "chino", "Chino"},
                                     {"product", "S-1", "shoe", "Shoe"},
                                     {"variant", "S-2", "shoe", "Shoe"}}));
}

TEST(RowModelTest, WooCommerceTypesAndParentsByIdOrSku) {
  const std::vector<std::string> header = {"ID", "Type", "SKU", "Name", "Parent"};
  const auto seen =
      RunModel("woocommerce", header,
          {{"44", "variable", "woo-vneck-tee", "V-Neck T-Shirt", ""},
           {"46", "simple", "woo-hoodie-logo", "Hoodie with Logo", ""},
           {"73", "simple, downloadable, virtual", "woo-album", "Album", ""},
           {"87", "grouped", "logo-collection", "Logo Collection", ""},
           {"90", "external", "wp-pennant", "WordPress Pennant", ""},
           {"76", "variation", "woo-vneck-tee-red", "V-Neck T-Shirt - Red", "woo-vneck-tee"},
           {"77", "variation", "woo-vneck-tee-green", "", "id:44"},
           {"99", "variation", "lost", "", "id:12"}},
          "SKU", "Name");
  EXPECT_EQ(seen, (std::vector<Seen>{
                      {"parent", "woo-vneck-tee", "44", "V-Neck T-Shirt"},
                      {"product", "woo-hoodie-logo", "46", "Hoodie with Logo"},
                      {"product", "woo-album", "73", "Album"},
                      {"parent", "logo-collection", "87", "Logo Collection"},
                      {"product", "wp-pennant", "90", "WordPress Pennant"},
                      {"variant", "woo-vneck-tee-red", "44", "V-Neck T-Shirt - Red"},
                      {"variant", "woo-vneck-tee-green", "44", "V-Neck T-Shirt"},
                      {"variant", "lost", "12", ""}}));
}

// WordPress's XML export: a product's kind is its product_type category, a row without one
// (a variation, an attachment) takes wp:post_type's; wp:post_parent names the parent's post id.
TEST(RowModelTest, WooCommerceWxrTypesFromProductTypeThenPostType) {
  const std::vector<std::string> header = {"title", "wp:post_id", "wp:post_parent",
                                           "wp:post_type", "product_type", "_sku"};
  const auto seen = RunModel("woocommerce", header,
                             {{"V-Neck T-Shirt", "6", "0", "product", "variable", "woo-vneck-tee"},
                              {"Belt", "11", "0", "product", "simple", "woo-belt"},
                              {"V-Neck - Red", "25", "6", "product_variation", "", "woo-red"},
                              {"vnech-tee-2.jpg", "30", "6", "attachment", "", ""},
                              {"Album", "19", "0", "product", "", "woo-album"}},
                             "_sku", "title");
  EXPECT_EQ(seen, (std::vector<Seen>{{"parent", "woo-vneck-tee", "6", "V-Neck T-Shirt"},
                                     {"product", "woo-belt", "11", "Belt"},
                                     {"variant", "woo-red", "6", "V-Neck - Red"},
                                     {"image", "", "6", "vnech-tee-2.jpg"},
                                     {"product", "woo-album", "19", "Album"}}));
}

TEST(RowModelTest, MagentoTypesAndChildrenNotVisibleIndividually) {
  const std::vector<std::string> header = {"sku", "product_type", "name", "visibility"};
  const auto seen = RunModel("magento2", header,
                        {{"MH01-XS", "simple", "Hoodie-XS", "Not Visible Individually"},
                         {"MH01", "configurable", "Hoodie", "Catalog, Search"},
                         {"24-WG085", "simple", "Strap", "Catalog, Search"},
                         {"24-WG085_Group", "grouped", "Set", "Catalog, Search"},
                         {"B1", "bundle", "Bundle", "Catalog, Search"},
                         {"V1", "virtual", "Warranty", "Catalog"}},
                        "sku", "name");
  EXPECT_EQ(seen, (std::vector<Seen>{{"variant", "MH01-XS", "", "Hoodie-XS"},
                                     {"parent", "MH01", "MH01", "Hoodie"},
                                     {"product", "24-WG085", "24-WG085", "Strap"},
                                     {"parent", "24-WG085_Group", "24-WG085_Group", "Set"},
                                     {"parent", "B1", "B1", "Bundle"},
                                     {"product", "V1", "V1", "Warranty"}}));
}

// A Magento store-view row (store_view_code filled) repeats its item's sku and fills only what
// that store view overrides: a scope row of the item (kind image, never in error), not a second
// product (Magento's export of a product in two store views: magento/magento2's
// products_multiple_stores fixture).
TEST(RowModelTest, MagentoStoreViewRowsAreScopeRowsOfTheirItem) {
  const std::vector<std::string> header = {"sku", "store_view_code", "product_type", "name"};
  const auto seen = RunModel("magento2", header,
                             {{"S1", "", "simple", "Strap"},
                              {"S1", "fixturestore", "simple", "Strap (fr)"},
                              {"C1", "", "configurable", "Hoodie"},
                              {"C1", "default", "configurable", ""}},
                             "sku", "name");
  EXPECT_EQ(seen, (std::vector<Seen>{{"product", "S1", "S1", "Strap"},
                                     {"image", "S1", "S1", "Strap (fr)"},
                                     {"parent", "C1", "C1", "Hoodie"},
                                     {"image", "C1", "C1", ""}}));
}

// Magento 2's importer's own column name for the type, _type (Product::COL_TYPE).
TEST(RowModelTest, MagentoInternalTypeColumn) {
  const std::vector<std::string> header = {"sku", "_type", "name"};
  const auto seen = RunModel("magento2", header,
                             {{"C1", "configurable", "Hoodie"}, {"S1", "simple", "Strap"}},
                             "sku", "name");
  EXPECT_EQ(seen, (std::vector<Seen>{{"parent", "C1", "C1", "Hoodie"},
                                     {"product", "S1", "S1", "Strap"}}));
}

TEST(RowModelTest, BigCommerceVariantAndImageRowsFollowTheirProduct) {
  const std::vector<std::string> header = {"Item", "ID", "Name", "SKU", "Price"};
  const auto seen = RunModel("bigcommerce", header,
                        {{"Product", "111", "Mug", "MUG", "10"},
                         {"Variant", "", "", "MUG-RED", "11"},
                         {"Image", "", "", "", ""},
                         {"Product", "112", "Cup", "CUP", "5"}},
                        "SKU", "Name");
  EXPECT_EQ(seen, (std::vector<Seen>{{"product", "MUG", "111", "Mug"},
                                     {"variant", "MUG-RED", "111", "Mug"},
                                     {"image", "", "111", "Mug"},
                                     {"product", "CUP", "112", "Cup"}}));
}

TEST(RowModelTest, PrestaShopCombinationsFileRowsAreVariants) {
  const std::vector<std::string> header = {"Product ID*", "Attribute (Name:Type:Position)*",
                                           "Reference"};
  RowModel model(*FindSourceProfile("prestashop"), header, 2, SIZE_MAX);
  EXPECT_FALSE(model.all_products());
  const std::vector<std::string_view> row = {"3", "Color:color:0", "RP-1"};
  EXPECT_EQ(model.Next(row), RowKind::kVariant);
  EXPECT_EQ(model.item_id(), "3");
  EXPECT_EQ(model.sku(), "RP-1");
}

TEST(RowModelTest, GenericAndFlatSourcesAreAllProducts) {
  const std::vector<std::string> header = {"id", "item_group_id", "title"};
  RowModel generic(GenericProfile(), header, 0, 2);
  EXPECT_TRUE(generic.all_products());
  RowModel google(*FindSourceProfile("google_merchant"), header, 0, 2);
  EXPECT_TRUE(google.all_products());
  const std::vector<std::string_view> row = {"A-1", "A", "Shirt"};
  EXPECT_EQ(google.Next(row), RowKind::kProduct);
  EXPECT_EQ(google.item_id(), "A");
  const std::vector<std::string_view> lone = {"B-1", "", "Hat"};
  google.Next(lone);
  EXPECT_EQ(google.item_id(), "B-1");
  generic.Next(row);
  EXPECT_EQ(generic.item_id(), "");
  EXPECT_EQ(generic.title(), "Shirt");
}

TEST(RowModelTest, ShopifyFileWithoutHandleIsFlat) {
  const std::vector<std::string> header = {"Title", "Variant SKU"};
  RowModel model(*FindSourceProfile("shopify_products"), header, 1, 0);
  EXPECT_TRUE(model.all_products());
}

// Shopify's Transporter customers format (its Metafield columns): a customer's further address
// and metafield rows repeat only the key (Email) below the customer's row; they are variants of
// that customer (their own values checked, no second customer), as Transporter's Customer#to_csv
// writes them. A later row with the same e-mail that fills a customer's own field (Accepts
// Marketing, Tags, Note, Tax Exempt) is a second customer: a product row, a real duplicate.
TEST(RowModelTest, ShopifyTransporterCustomerRowsContinueTheCustomerAbove) {
  const std::vector<std::string> header = {
      "First Name", "Last Name", "Email", "Company", "Address1", "City", "Country Code", "Phone",
      "Accepts Marketing", "Tags", "Metafield Namespace", "Metafield Key", "Metafield Value"};
  const auto seen = RunModel(
      "shopify_customers", header,
      {{"John", "Doe", "john@acme.com", "Acme", "57 Erb St W", "Waterloo", "CA", "519-555-5555",
        "true", "vip", "global", "vip_status", "TRUE"},
       {"", "", "john@acme.com", "Acme Ltd.", "150 Elgin St", "Ottawa", "CA", "", "", "", "", "",
        ""},
       {"", "", "john@acme.com", "", "", "", "", "", "", "", "global", "corporate", "true"},
       {"", "", "john@acme.com", "", "", "", "", "", "", "", "", "", ""},
       {"Jane", "Doe", "jane@acme.com", "", "", "", "CA", "", "false", "", "", "", ""},
       {"Jane", "Roe", "jane@acme.com", "", "", "", "US", "", "true", "", "", "", ""},
       {"Ann", "Lee", "", "", "", "", "GB", "+44 20 7946 0000", "true", "", "", "", ""},
       {"", "", "", "", "1 Main St", "", "", "", "", "", "", "", ""}},
      "", "");
  EXPECT_EQ(seen, (std::vector<Seen>{{"product", "", "john@acme.com", ""},
                                     {"variant", "", "john@acme.com", ""},
                                     {"variant", "", "john@acme.com", ""},
                                     {"image", "", "john@acme.com", ""},
                                     {"product", "", "jane@acme.com", ""},
                                     {"product", "", "jane@acme.com", ""},
                                     {"product", "", "+44 20 7946 0000", ""},
                                     {"product", "", "", ""}}));
}

// Transporter keys a customer by its e-mail, else by its phone (shopify_transporter's
// Customer.keys: email, phone), and writes both keys on every further row: a customer without
// an e-mail repeats its phone on its address and metafield rows, which continue it. A phone key
// never continues a customer keyed by an e-mail, nor the reverse; a row with neither key, or a
// further row that fills a customer's own field, is a customer of its own.
TEST(RowModelTest, ShopifyTransporterCustomerWithoutEmailIsGroupedByPhone) {
  const std::vector<std::string> header = {
      "First Name", "Last Name", "Email", "Company", "Address1", "City", "Country Code", "Phone",
      "Accepts Marketing", "Tags", "Metafield Namespace", "Metafield Key", "Metafield Value"};
  const auto seen = RunModel(
      "shopify_customers", header,
      {{"Ann", "Lee", "", "Lee Ltd", "1 Main St", "London", "GB", "+44 20 7946 0000", "true", "",
        "global", "vip_status", "TRUE"},
       {"", "", "", "Lee Depot", "2 High St", "Leeds", "GB", " +44 20 7946 0000 ", "", "", "", "",
        ""},
       {"", "", "", "", "", "", "", "+44 20 7946 0000", "", "", "global", "corporate", "true"},
       // A second customer with the same phone (fills Accepts Marketing): a customer of its own.
       {"Bob", "Lee", "", "", "", "", "GB", "+44 20 7946 0000", "false", "", "", "", ""},
       // An e-mail that reads like the phone key: keyed by the e-mail, not a further row.
       {"", "", "+44 20 7946 0000", "", "", "", "", "", "", "", "global", "x", "y"},
       {"Cy", "Ng", "cy@acme.com", "", "", "", "CA", "+1 519 555 5555", "true", "", "", "", ""},
       // Cy's phone without Cy's e-mail: a phone key, not Cy's further row.
       {"", "", "", "", "", "", "", "+1 519 555 5555", "", "", "global", "x", "y"},
       {"Di", "Ro", "", "", "", "", "CA", "", "true", "", "", "", ""},
       {"", "", "", "", "3 Low St", "", "", "", "", "", "", "", ""}},
      "", "");
  EXPECT_EQ(seen, (std::vector<Seen>{{"product", "", "+44 20 7946 0000", ""},
                                     {"variant", "", "+44 20 7946 0000", ""},
                                     {"variant", "", "+44 20 7946 0000", ""},
                                     {"product", "", "+44 20 7946 0000", ""},
                                     {"product", "", "+44 20 7946 0000", ""},
                                     {"product", "", "cy@acme.com", ""},
                                     {"product", "", "+1 519 555 5555", ""},
                                     {"product", "", "", ""},
                                     {"product", "", "", ""}}));
}

// Shopify's own customer export writes one row per customer (no Metafield columns): every row is
// a customer, and the same e-mail on the next row is a second customer (DUPLICATE_CUSTOMER).
TEST(RowModelTest, ShopifyCustomerExportWithoutMetafieldsIsOneRowPerCustomer) {
  const std::vector<std::string> header = {"Customer ID", "First Name", "Last Name", "Email",
                                           "Accepts Email Marketing", "Default Address Country Code"};
  RowModel model(*FindSourceProfile("shopify_customers"), header, SIZE_MAX, SIZE_MAX);
  EXPECT_TRUE(model.all_products());
  const std::vector<std::vector<std::string>> rows = {
      {"101", "John", "Doe", "john@acme.com", "yes", "CA"},
      {"102", "", "", "john@acme.com", "", ""}};
  for (const auto& row : rows) {
    std::vector<std::string_view> cells(row.begin(), row.end());
    EXPECT_EQ(model.Next(cells), RowKind::kProduct);
    EXPECT_EQ(model.item_id(), row[0]);
  }
}

}  // namespace
}  // namespace dq::ingest
