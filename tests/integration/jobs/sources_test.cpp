// Files from the platforms merchants use, through the real gateway, worker, validator and Redis:
// the source detected (or sent) and shown with its reason, issues that name their item, the
// notes of a core field without a column, and the same on POST /v1/validate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "job_wait.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

class SourcesIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{
        1, false, {{"DQ_RATE_LIMIT_GENERAL", "100000"}, {"DQ_RATE_LIMIT_UPLOAD", "100000"}}});
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  void SetUp() override { std::tie(account_, key_) = stack_->NewAccount(); }

  HttpResult Post(const std::string& path, const std::string& body,
                  std::map<std::string, std::string> headers) {
    headers["X-API-Key"] = key_;
    return Http("POST", stack_->GatewayUrl() + path, headers, body);
  }
  HttpResult Get(const std::string& path) {
    return Http("GET", stack_->GatewayUrl() + path, {{"X-API-Key", key_}});
  }
  json WaitDone(const std::string& id) { return WaitJobEnded(stack_->GatewayUrl(), key_, id); }

  static Stack* stack_;
  std::string account_, key_;
};

Stack* SourcesIntegrationTest::stack_ = nullptr;

// A Shopify export: a product row, its second variant (which leaves Title and Vendor empty by
// Shopify's design) with a price that is no number, and an image-only row.
const char* kShopify =
    "Handle,Title,Vendor,Option1 Value,Variant SKU,Variant Price,Image Src\n"
    "gloves,Gardening Gloves,Acme,Green,GL-G,9.00,https://cdn.shopify.com/s/g.jpg\n"
    "gloves,,,Yellow,GL-Y,abc,https://cdn.shopify.com/s/y.jpg\n"
    "gloves,,,,,,https://cdn.shopify.com/s/z.jpg\n";

TEST_F(SourcesIntegrationTest, ShopifyExportIsDetectedAndIssuesNameTheirItem) {
  HttpResult r =
      Post("/v1/jobs?filename=products_export.csv", kShopify, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const json accepted = json::parse(r.body);
  EXPECT_EQ(accepted["source"], "shopify_products");
  const std::string id = accepted["id"];
  json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["source"], "shopify_products");
  EXPECT_EQ(job["source_reason"], "header has Handle and Variant SKU: a Shopify products export");
  EXPECT_EQ(job["notes"], json::array());
  EXPECT_EQ(job["rows_total"], 3);
  json price;
  for (const auto& i : job["issues"]) {
    if (i["code"] == "INVALID_PRICE" && i["issue_row"] == 2) price = i;
  }
  ASSERT_TRUE(price.is_object()) << job["issues"].dump();
  EXPECT_EQ(price["sku"], "GL-Y");
  EXPECT_EQ(price["item_id"], "gloves");
  EXPECT_EQ(price["title"], "Gardening Gloves");  // the variant's product's

  HttpResult csv = Get("/v1/jobs/" + id + "/issues?format=csv");
  ASSERT_EQ(csv.status, 200);
  EXPECT_NE(csv.body.find(",GL-Y,gloves,Gardening Gloves\r\n"), std::string::npos) << csv.body;
  const json list = json::parse(Get("/v1/jobs").body);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["source"], "shopify_products");
}

TEST_F(SourcesIntegrationTest, SourceParameterIsCheckedAndAContradictedClaimIsReadAsGeneric) {
  HttpResult bad = Post("/v1/jobs?source=shopify", kShopify, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(bad.status, 400);
  const json e = json::parse(bad.body);
  EXPECT_EQ(e["error"], "invalid_request");
  EXPECT_EQ(e["message"],
            "source: unknown source 'shopify'; use one of bigcommerce, commercetools, generic, "
            "google_merchant, magento2, meta_catalog, prestashop, shopify_customers, "
            "shopify_products, woocommerce");
  EXPECT_EQ(
      Post("/v1/jobs/preview?source=shopify", kShopify, {{"Content-Type", "text/csv"}}).status,
      400);

  HttpResult r = Post("/v1/jobs?source=magento2", kShopify, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  json job = WaitDone(json::parse(r.body)["id"]);
  EXPECT_EQ(job["source"], "generic");
  ASSERT_EQ(job["notes"].size(), 1u) << job.dump();
  EXPECT_EQ(job["notes"][0].get<std::string>().substr(0, 58),
            "The file was sent as source magento2, but its header is th");

  HttpResult fits =
      Post("/v1/jobs?source=shopify_products", kShopify, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(fits.status, 202);
  json taken = WaitDone(json::parse(fits.body)["id"]);
  EXPECT_EQ(taken["source_reason"],
            "set by the caller; header has Handle and Variant SKU: a Shopify products export");
}

// Shopify writes Variant Grams 0 when no weight was entered: with the shipping check no row is
// blamed for it, the mapping note counts those rows over the whole file (on the job and on the
// preview, which reads its sample only for the rest), the cleaned file keeps the 0, and a
// negative weight is still an error.
TEST_F(SourcesIntegrationTest, ShopifyZeroGramsIsNoWeightWithANote) {
  std::string csv = "Handle,Title,Variant SKU,Variant Price,Variant Grams\n";
  for (int i = 0; i < 250; ++i) {
    csv += "h" + std::to_string(i) + ",T,S" + std::to_string(i) + ",1," +
           (i % 2 == 0 ? "0" : "0.0") + "\n";
  }
  csv += "neg,N,SN,1,-5\nfull,F,SF,1,250\n";
  const std::string note =
      "The weight column 'Variant Grams' is read in grams: its header names the unit. 250 rows "
      "have Variant Grams 0, which a Shopify products export writes when no weight was entered; "
      "they were read as having no weight.";
  HttpResult r = Post("/v1/jobs?check_types=product,shipping", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["mapping_notes"], json::array({note}));
  std::vector<std::string> got;
  for (const auto& i : job["issues"]) {
    got.push_back(std::to_string(i["issue_row"].get<int>()) + ":" + i["code"].get<std::string>());
  }
  EXPECT_EQ(got, (std::vector<std::string>{"251:INVALID_WEIGHT"})) << job["issues"].dump();
  HttpResult cleaned = Get("/v1/jobs/" + id + "/cleaned");
  ASSERT_EQ(cleaned.status, 200);
  EXPECT_EQ(cleaned.body, csv);

  HttpResult preview = Post("/v1/jobs/preview?check_types=product,shipping", csv,
                            {{"Content-Type", "text/csv"}});
  ASSERT_EQ(preview.status, 200) << preview.body;
  EXPECT_EQ(json::parse(preview.body)["mapping_notes"], json::array({note}));
}

TEST_F(SourcesIntegrationTest, CustomersFileWithTheProductCheckIsRefusedBeforeAnyQuota) {
  const std::string csv =
      "First Name,Last Name,Email,Accepts Email Marketing,Default Address Country Code,Phone,"
      "Total Spent\nAnn,Lee,ann@example.org,yes,US,+12025550123,10.00\n";
  HttpResult r = Post("/v1/jobs", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 400) << r.body;
  const json e = json::parse(r.body);
  EXPECT_EQ(e["error"], "check_types_do_not_fit");
  EXPECT_EQ(e["message"],
            "No column fits the product check (no sku, title or price column). "
            "The columns fit: customer.");
  EXPECT_TRUE(e.contains("request_id"));
  EXPECT_EQ(json::parse(Get("/v1/usage").body)["records_used"], 0);
  HttpResult preview = Post("/v1/jobs/preview", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(preview.status, 200);
  const json p = json::parse(preview.body);
  EXPECT_EQ(p["source"], "shopify_customers");
  EXPECT_EQ(p["suggested_check_types"], json({"customer"}));
  HttpResult ok = Post("/v1/jobs?check_types=customer", csv, {{"Content-Type", "text/csv"}});
  EXPECT_EQ(ok.status, 202) << ok.body;
}

// A Google feed with neither link nor image: its g: namespace names the source, on the upload
// and on the preview alike.
TEST_F(SourcesIntegrationTest, GoogleXmlFeedIsDetectedByItsNamespaceOnBothPaths) {
  const std::string feed =
      "<?xml version=\"1.0\"?><rss xmlns:g=\"http://base.google.com/ns/1.0\" version=\"2.0\">"
      "<channel><title>Cars</title><item><g:id>x</g:id><title>Model X</title>"
      "<g:availability>preorder</g:availability><g:price>71300.00 USD</g:price></item>"
      "</channel></rss>";
  const std::string reason =
      "header has id, and its items use elements of http://base.google.com/ns/1.0: a Google "
      "Merchant Center XML feed (RSS or Atom with Google's g: namespace)";
  HttpResult preview = Post("/v1/jobs/preview", feed, {{"Content-Type", "application/xml"}});
  ASSERT_EQ(preview.status, 200) << preview.body;
  const json p = json::parse(preview.body);
  EXPECT_EQ(p["source"], "google_merchant");
  EXPECT_EQ(p["source_reason"], reason);
  HttpResult r = Post("/v1/jobs", feed, {{"Content-Type", "application/xml"}});
  ASSERT_EQ(r.status, 202) << r.body;
  json job = WaitDone(json::parse(r.body)["id"]);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["source"], "google_merchant");
  EXPECT_EQ(job["source_reason"], reason);
}

TEST_F(SourcesIntegrationTest, CoreFieldWithoutAColumnIsANoteNotAnErrorPerRow) {
  HttpResult r = Post("/v1/jobs", "sku,title\nA,Mug\nB,Cup\n", {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  json job = WaitDone(json::parse(r.body)["id"]);
  EXPECT_EQ(job["notes"], json({"No column looks like a price; prices were not checked."}));
}

TEST_F(SourcesIntegrationTest, ValidateTakesASourceAndNamesItems) {
  json req = {
      {"records",
       {{{"Handle", "gloves"},
         {"Title", "Gloves"},
         {"Variant SKU", "GL-G"},
         {"Variant Price", "9.00"}},
        {{"Handle", "gloves"}, {"Title", ""}, {"Variant SKU", "GL-Y"}, {"Variant Price", "abc"}}}},
      {"mapping", {{"sku", "Variant SKU"}, {"title", "Title"}, {"price", "Variant Price"}}},
      {"source", "shopify_products"}};
  HttpResult v = Post("/v1/validate", req.dump(), {{"Content-Type", "application/json"}});
  ASSERT_EQ(v.status, 200) << v.body;
  json answer = json::parse(v.body);
  json price;
  for (const auto& i : answer["issues"]) {
    if (i["code"] == "INVALID_PRICE") price = i;
  }
  ASSERT_TRUE(price.is_object()) << v.body;
  EXPECT_EQ(price["sku"], "GL-Y");
  EXPECT_EQ(price["item_id"], "gloves");
  EXPECT_EQ(price["title"], "Gloves");
  EXPECT_EQ(answer["notes"], json::array());

  req.erase("source");
  v = Post("/v1/validate", req.dump(), {{"Content-Type", "application/json"}});
  answer = json::parse(v.body);
  for (const auto& i : answer["issues"]) {
    if (i["code"] == "INVALID_PRICE") price = i;
  }
  EXPECT_EQ(price["sku"], "GL-Y");
  EXPECT_EQ(price["item_id"], nullptr);
  EXPECT_EQ(price["title"], nullptr);

  req["source"] = "etsy";
  v = Post("/v1/validate", req.dump(), {{"Content-Type", "application/json"}});
  EXPECT_EQ(v.status, 400);
  EXPECT_NE(v.body.find("unknown source 'etsy'; use one of bigcommerce"), std::string::npos);
}

TEST_F(SourcesIntegrationTest, CleanedFileOfAnExportWithoutFixesIsTheExportByteForByte) {
  // As WooCommerce writes it: a BOM, CRLF, quotes it does not need, a comma-separated gallery.
  const std::string csv =
      "\xEF\xBB\xBFID,Type,SKU,Name,\"In stock?\",Stock,\"Weight (lbs)\",\"Regular price\","
      "Images,Parent\r\n"
      "46,simple,woo-hoodie-logo,\"Hoodie with Logo\",1,,2,45,"
      "\"https://w.example.org/a.jpg, https://w.example.org/b.jpg\",\r\n"
      "47,simple,woo-tshirt,T-Shirt,1,,.8,18,https://w.example.org/c.jpg,\r\n";
  HttpResult r = Post("/v1/jobs?filename=wc.csv", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["source"], "woocommerce");
  ASSERT_EQ(job["stats"]["fixes"], 0) << job["issues"].dump();
  EXPECT_EQ(Get("/v1/jobs/" + id + "/cleaned").body, csv);
}

// Shopify's Transporter layout: the product's first row names its options and has no option
// value, SKU or price (a parent, not blamed), and a variant row has one field more than the
// header (ROW_FIELD_COUNT, an error counted in the stats) and another one field fewer
// (ROW_FIELDS_MISSING, a warning: its missing last cell is read as empty); Meta-style comment
// lines above the header are skipped and kept. The cleaned file is the upload byte for byte.
TEST_F(SourcesIntegrationTest, ParentRowsCommentLinesAndRaggedRecordsOnTheJobPath) {
  const std::string csv =
      "# exported for issue 31\n"
      "Handle,Title,Vendor,Option1 Name,Option1 Value,Variant SKU,Variant Price,Image Src\n"
      "shoe,Sneaker,Acme,Color,,,,https://cdn.shopify.com/s/a.jpg\n"
      "shoe,,,,White,a-1,10.00,,g\n"
      "shoe,,,,Black,a-2,20.00,\n"
      "shoe,,,,Red,a-3,30.00\n";
  HttpResult r = Post("/v1/jobs?filename=transporter.csv", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["source"], "shopify_products");
  EXPECT_EQ(job["rows_total"], 4);
  ASSERT_EQ(job["issues"].size(), 2u) << job["issues"].dump();
  const json& i = job["issues"][0];
  EXPECT_EQ(i["code"], "ROW_FIELD_COUNT");
  EXPECT_EQ(i["issue_row"], 2);
  EXPECT_EQ(i["severity"], "error");
  EXPECT_EQ(i["field"], "row");
  EXPECT_EQ(i["message"], "Row has 9 fields; the header has 8 columns");
  EXPECT_EQ(i["sku"], "a-1");
  const json& s = job["issues"][1];
  EXPECT_EQ(s["code"], "ROW_FIELDS_MISSING");
  EXPECT_EQ(s["issue_row"], 4);
  EXPECT_EQ(s["severity"], "warning");
  EXPECT_EQ(s["message"],
            "Row has 7 fields; the header has 8 columns: the last one, 'Image Src', was read as "
            "empty");
  EXPECT_EQ(job["rows_error"], 1) << job.dump();
  EXPECT_EQ(job["rows_warning"], 1) << job.dump();
  EXPECT_EQ(job["health_score"], 63);  // (4 - 1 - 0.5) / 4
  EXPECT_EQ(Get("/v1/jobs/" + id + "/cleaned").body, csv);
}

// PrestaShop's Catalog > Products > Export (1.7 to 8.x): ';', Product ID untranslated, the price
// the tax-excluded one, and Position named in the header but written only when the list is
// filtered by a category. Rows without Position are complete; a row that also lacks Status is
// still ROW_FIELDS_MISSING. No fix: the cleaned file is the export byte for byte.
TEST_F(SourcesIntegrationTest, PrestaShopCatalogExportRowsWithoutPositionAreComplete) {
  const std::string csv =
      "\"Product ID\";Image;Name;Reference;Category;\"Price (tax excl.)\";\"Price (tax incl.)\";"
      "Quantity;Status;Position\n"
      "1;https://shop.example/1/t-shirt.jpg;\"Printed t-shirt\";demo_1;Men;23.900000;28.68;300;0\n"
      "2;https://shop.example/2/sweater.jpg;\"Bear sweater\";demo_3;Men;abc;43.08;0;1\n"
      "3;https://shop.example/3/mug.jpg;Mug;demo_4;Home;11.900000;14.28;5\n";
  HttpResult r = Post("/v1/jobs?filename=product_2026-11-27_043000.csv", csv,
                      {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["source"], "prestashop");
  EXPECT_EQ(job["source_reason"],
            "header has Product ID and Price (tax excl.): a PrestaShop catalog export (Catalog > "
            "Products > Export)");
  EXPECT_EQ(job["mapping"]["price"], "Price (tax excl.)");
  ASSERT_EQ(job["issues"].size(), 2u) << job["issues"].dump();
  const json& price = job["issues"][0];
  EXPECT_EQ(price["code"], "INVALID_PRICE");
  EXPECT_EQ(price["issue_row"], 2);
  EXPECT_EQ(price["sku"], "demo_3");
  EXPECT_EQ(price["item_id"], "2");
  const json& short_row = job["issues"][1];
  EXPECT_EQ(short_row["code"], "ROW_FIELDS_MISSING");
  EXPECT_EQ(short_row["issue_row"], 3);
  EXPECT_EQ(short_row["message"],
            "Row has 8 fields; the header has 10 columns: the last 2, from 'Status' on, were read "
            "as empty");
  EXPECT_EQ(job["rows_error"], 1) << job.dump();
  EXPECT_EQ(job["rows_warning"], 1) << job.dump();
  EXPECT_EQ(Get("/v1/jobs/" + id + "/cleaned").body, csv);
}

// Shopify's Transporter customers layout (Shopify's sample): John Doe's second address and second
// metafield follow his row, repeating only his e-mail. They are his, not duplicates; the second
// address's own country code is still checked. Shopify's own export (no Metafield columns, one
// row per customer) keeps the duplicate on the same e-mail twice.
TEST_F(SourcesIntegrationTest, TransporterCustomerRowsAreNoDuplicateButAnExportsRepeatIs) {
  const std::string transporter =
      "First Name,Last Name,Email,Company,Address1,City,Province Code,Country Code,Zip,Phone,"
      "Accepts Marketing,Tags,Metafield Namespace,Metafield Key,Metafield Value\n"
      "John,Doe,john.doe@gmail.com,Acme,57 Erb St W,Waterloo,ON,CA,N2L 6C2,+15195555555,true,"
      "vip,global,vip_status,TRUE\n"
      ",,john.doe@gmail.com,Acme Ltd.,150 Elgin St,Ottawa,ON,XX,K2P 1L4,,,,,,\n"
      ",,john.doe@gmail.com,,,,,,,,,,global,corporate,true\n"
      "Jane,Doe,jane.doe@gmail.com,,,Montreal,QC,CA,H2Z 0B2,+16135556666,false,,,,\n";
  HttpResult r = Post("/v1/jobs?filename=customers.csv&check_types=customer", transporter,
                      {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  json job = WaitDone(json::parse(r.body)["id"]);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["source"], "shopify_customers");
  ASSERT_EQ(job["issues"].size(), 1u) << job["issues"].dump();
  EXPECT_EQ(job["issues"][0]["code"], "INVALID_COUNTRY_CODE");
  EXPECT_EQ(job["issues"][0]["issue_row"], 2);
  EXPECT_EQ(job["issues"][0]["item_id"], "john.doe@gmail.com");

  const std::string exported =
      "Customer ID,First Name,Last Name,Email,Accepts Email Marketing,"
      "Default Address Country Code,Total Spent\n"
      "101,John,Doe,john.doe@gmail.com,yes,CA,10.00\n"
      "102,,,john.doe@gmail.com,no,CA,0.00\n";
  r = Post("/v1/jobs?filename=customers_export.csv&check_types=customer", exported,
           {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  job = WaitDone(json::parse(r.body)["id"]);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["source"], "shopify_customers");
  ASSERT_EQ(job["issues"].size(), 1u) << job["issues"].dump();
  EXPECT_EQ(job["issues"][0]["code"], "DUPLICATE_CUSTOMER");
  EXPECT_EQ(job["issues"][0]["issue_row"], 2);
  EXPECT_EQ(job["issues"][0]["message"], "Same e-mail as row 1");
  EXPECT_EQ(job["issues"][0]["item_id"], "102");
}

// A simple CSV (no quotes, no commas inside cells) as the records of a validate request: one
// object per row, keyed by the header, a short row's missing cells empty.
json RecordsOfCsv(const std::string& csv) {
  json records = json::array();
  std::istringstream lines(csv);
  std::string line;
  std::vector<std::string> header;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    while (cells.size() < header.size()) cells.emplace_back();
    json record = json::object();
    for (size_t c = 0; c < header.size(); ++c) record[header[c]] = cells[c];
    records.push_back(record);
  }
  return records;
}

// Shopify's current customers export keeps most phones in Default Address Phone (a further column
// of phone): a bad one there is reported naming the column, the same number in both columns is
// one issue (Phone's), and a customer with only an address phone is no MISSING_EMAIL. The same
// issues inline as in a job, and nothing is rewritten in either cleaned output.
TEST_F(SourcesIntegrationTest, ShopifyDefaultAddressPhoneGetsTheSameIssuesInlineAndInAJob) {
  const std::string csv =
      "Customer ID,First Name,Last Name,Email,Accepts Email Marketing,Default Address Company,"
      "Default Address Address1,Default Address Address2,Default Address City,"
      "Default Address Province Code,Default Address Country Code,Default Address Zip,"
      "Default Address Phone,Phone,Accepts SMS Marketing,Total Spent,Total Orders,Note,"
      "Tax Exempt,Tags\n"
      "1001,Ann,Lee,ann@gmail.com,yes,,1 Main St,,Springfield,IL,US,62701,456,,no,10.00,1,,no,\n"
      "1002,Bob,Roe,bob@gmail.com,no,,2 Main St,,Springfield,IL,US,62701,123,123,no,0.00,0,,no,\n"
      "1003,Cy,Poe,,no,,3 Main St,,Springfield,IL,US,62701,(650) 253-0000,,yes,0.00,0,,no,\n";
  HttpResult r = Post("/v1/jobs?filename=customers_export.csv&check_types=customer", csv,
                      {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  const json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["source"], "shopify_customers");
  ASSERT_EQ(job["mapping"]["phone"], "Phone") << job["mapping"].dump();

  const json records = RecordsOfCsv(csv);
  const json req = {{"records", records},
                    {"mapping", job["mapping"]},
                    {"source", "shopify_customers"},
                    {"check_types", "customer"}};
  HttpResult v = Post("/v1/validate", req.dump(), {{"Content-Type", "application/json"}});
  ASSERT_EQ(v.status, 200) << v.body;
  const json answer = json::parse(v.body);

  // Every issue, as "row CODE field 'original': message".
  auto described = [](const json& issues, const char* row) {
    std::vector<std::string> out;
    for (const auto& i : issues) {
      out.push_back(i[row].dump() + " " + i["code"].get<std::string>() + " " +
                    i["field"].get<std::string>() + " '" +
                    i["original_value"].get<std::string>() + "': " +
                    i["message"].get<std::string>());
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const std::vector<std::string> got = described(job["issues"], "issue_row");
  ASSERT_EQ(got.size(), 2u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0].rfind("1 INVALID_PHONE phone '456': ", 0), 0u) << got[0];
  EXPECT_NE(got[0].find(": column Default Address Phone, '456'"), std::string::npos) << got[0];
  EXPECT_EQ(got[1].rfind("2 INVALID_PHONE phone '123': ", 0), 0u) << got[1];
  EXPECT_EQ(got[1].find("column"), std::string::npos) << got[1];  // Phone's own issue
  EXPECT_EQ(described(answer["issues"], "row"), got);
  EXPECT_EQ(answer["stats"], job["stats"]);
  EXPECT_EQ(Get("/v1/jobs/" + id + "/cleaned").body, csv);
  EXPECT_EQ(answer["cleaned"], records);
}

// Nested records (DummyJSON's shape) give the same issues and the same cleaned records inline as
// in a job: the inline reader reads a nested object's members as the upload reader does.
TEST_F(SourcesIntegrationTest, NestedRecordsGetTheSameIssuesInlineAndInAJob) {
  const json records = json::parse(R"([
    {"id": 1, "sku": "PH-1", "title": "Phone", "pricing": {"price": "$5.00", "cost": 9},
     "meta": {"barcode": "4006381333932", "created": "2024-05-23"},
     "dimensions": {"width": 1.5, "depth": {"cm": 2}}, "reviews": [{"rating": 5}]},
    {"id": 2, "sku": "PH-2", "title": "", "pricing": {"price": "12.00"},
     "meta": {"barcode": "4006381333931"}},
    {"id": 3, "sku": "PH-2", "title": "Case", "pricing": {"price": "abc"}, "meta": {}}])");
  const json mapping = {{"sku", "sku"},
                        {"title", "title"},
                        {"price", "pricing.price"},
                        {"cost_price", "pricing.cost"},
                        {"gtin", "meta.barcode"}};
  std::string ndjson;
  for (const auto& r : records) ndjson += r.dump() + "\n";
  std::string query;
  for (unsigned char c : mapping.dump()) {
    static const char* hex = "0123456789ABCDEF";
    if (std::isalnum(c) || c == '.' || c == '_') {
      query += static_cast<char>(c);
    } else {
      query += '%';
      query += hex[c >> 4];
      query += hex[c & 15];
    }
  }
  HttpResult r = Post("/v1/jobs?filename=products.ndjson&mapping=" + query, ndjson,
                      {{"Content-Type", "application/x-ndjson"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  const json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();

  const json req = {{"records", records}, {"mapping", mapping}};
  HttpResult v = Post("/v1/validate", req.dump(), {{"Content-Type", "application/json"}});
  ASSERT_EQ(v.status, 200) << v.body;
  const json answer = json::parse(v.body);

  auto key = [](const json& i, const char* row) {
    return i[row].dump() + " " + i["field"].dump() + " " + i["code"].dump() + " " +
           i["severity"].dump() + " " + i["original_value"].dump() + " " +
           i["fixed_value"].dump() + " " + i["message"].dump() + " " + i["sku"].dump();
  };
  std::vector<std::string> in_job, inline_;
  for (const auto& i : job["issues"]) in_job.push_back(key(i, "issue_row"));
  for (const auto& i : answer["issues"]) inline_.push_back(key(i, "row"));
  std::sort(in_job.begin(), in_job.end());
  std::sort(inline_.begin(), inline_.end());
  EXPECT_EQ(inline_, in_job);
  EXPECT_EQ(answer["stats"], job["stats"]);
  // The checks saw the nested values: the price fix, the GTIN and the price error.
  bool fixed_price = false, bad_gtin = false, bad_price = false;
  for (const auto& i : answer["issues"]) {
    fixed_price |= i["row"] == 1 && i["field"] == "price" && i["fixed_value"] == "5.00";
    bad_gtin |= i["row"] == 1 && i["field"] == "gtin";
    bad_price |= i["row"] == 3 && i["code"] == "INVALID_PRICE";
  }
  EXPECT_TRUE(fixed_price && bad_gtin && bad_price) << v.body;

  // The cleaned records: the job's file, line by line, and the answer's, each value in its object.
  std::istringstream cleaned(Get("/v1/jobs/" + id + "/cleaned").body);
  std::string line;
  size_t n = 0;
  while (std::getline(cleaned, line)) {
    if (line.empty()) continue;
    ASSERT_LT(n, answer["cleaned"].size());
    EXPECT_EQ(answer["cleaned"][n], json::parse(line)) << n;
    ++n;
  }
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(answer["cleaned"][0]["pricing"]["price"], "5.00");
}

// Magento 2's further image roles (small_image, thumbnail_image, swatch_image beside base_image,
// which image_url maps to) are checked in a job and inline alike: one issue per bad cell, its
// message naming the column, its field image_url; a store view's row is not judged, and the
// cleaned file is the upload as it was (nothing in these columns is ever fixed). Magento's
// no_selection (an image role that was cleared) is no value in any of them; swatch_image takes
// a file name with a space (Magento's import renames it), base_image and small_image do not
// (its Media validator refuses it); a header with both small_image and "Small Image" has each
// checked, each issue naming its own column.
TEST_F(SourcesIntegrationTest, MagentoFurtherImageColumnsGetTheSameIssuesInlineAndInAJob) {
  const std::string csv =
      "sku,store_view_code,attribute_set_code,product_type,name,price,base_image,small_image,"
      "thumbnail_image,swatch_image,Small Image\n"
      "S-1,,Default,simple,Mug,9.00,a.jpg,x y.jpg,t.jpg,no_selection,s t.jpg\n"
      "S-2,,Default,simple,Cup,4.00,no_selection,b c.jpg,NO_SELECTION,my swatch.jpg,\n"
      "S-3,,Default,simple,Pot,3.00,d e.jpg,,,,\n"
      "S-1,default,Default,simple,,,,bad name.jpg,,,\n";
  HttpResult r = Post("/v1/jobs?filename=catalog_product.csv", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(json::parse(r.body)["source"], "magento2");
  const std::string id = json::parse(r.body)["id"];
  const json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  ASSERT_EQ(job["mapping"]["image_url"], "base_image") << job["mapping"].dump();

  const json records = RecordsOfCsv(csv);
  const json req = {{"records", records}, {"mapping", job["mapping"]}, {"source", "magento2"}};
  HttpResult v = Post("/v1/validate", req.dump(), {{"Content-Type", "application/json"}});
  ASSERT_EQ(v.status, 200) << v.body;
  const json answer = json::parse(v.body);

  auto images = [](const json& issues, const char* row) {
    std::vector<std::string> out;
    for (const auto& i : issues) {
      if (i["field"] != "image_url") continue;
      out.push_back(i[row].dump() + " " + i["code"].get<std::string>() + " " +
                    i["original_value"].get<std::string>() + " | " +
                    i["message"].get<std::string>() + " | " + i["sku"].get<std::string>());
      EXPECT_FALSE(i.contains("fixed_value") && !i["fixed_value"].is_null()) << i.dump();
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const std::string bad =
      "Neither an absolute http or https URL nor a file name the source's import takes from its "
      "import folder (ASCII letters, digits and - _ . / only, ending in .jpg, .jpeg, .gif, .png)";
  const std::vector<std::string> expected = {
      "1 INVALID_IMAGE_URL s t.jpg | " + bad + ": column Small Image, 's t.jpg' | S-1",
      "1 INVALID_IMAGE_URL x y.jpg | " + bad + ": column small_image, 'x y.jpg' | S-1",
      "2 INVALID_IMAGE_URL b c.jpg | " + bad + ": column small_image, 'b c.jpg' | S-2",
      "3 INVALID_IMAGE_URL d e.jpg | " + bad + " | S-3"};
  EXPECT_EQ(images(job["issues"], "issue_row"), expected);
  EXPECT_EQ(images(answer["issues"], "row"), expected);
  EXPECT_EQ(answer["stats"], job["stats"]);
  EXPECT_EQ(Get("/v1/jobs/" + id + "/cleaned").body, csv);
  EXPECT_EQ(answer["cleaned"], records);
}

}  // namespace
}  // namespace dq::testing
