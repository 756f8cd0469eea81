// `dq check` holds to the service's verdicts: each file is uploaded to a real stack (gateway,
// worker, validator, Redis) and checked by the dq binary, and the two must give the same issue
// records (GET /v1/jobs/:id against --format json), the same issues CSV (the download against
// --format csv) and the same cleaned file (the download against --cleaned), byte for byte, with
// the same stats, mapping and summary. The files: a product CSV with fixes over several chunks
// and pieces, a product workbook, a gzipped customer CSV, an inventory NDJSON with dates across
// chunks, a Windows-1252 TSV, a JSON array for shipping, and platform exports with variants
// (a Shopify file whose source is detected, a WooCommerce file whose source is sent, a Shopify
// Transporter customers file whose customers span rows), and a Merchant Center XML feed for
// that platform.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dq/ingest/row_writer.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

std::string Gzip(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string Quoted(const std::string& s) { return "'" + s + "'"; }  // test paths have no quote

// Deterministic messy values.
struct Messy {
  std::mt19937_64 rng{20261126};
  size_t Pick(size_t n) { return static_cast<size_t>(rng() % n); }
  template <size_t N>
  const char* One(const char* const (&options)[N]) {
    return options[Pick(N)];
  }
};

// 12,000 products over three chunks and two upload pieces: prices to reformat or refuse,
// currencies to upper-case, titles to trim, GTINs good and bad, duplicate SKUs, weights in kg.
std::string ProductsCsv() {
  Messy m;
  static const char* const kPrices[] = {"12.50", "12,50", "$1,299.00", "abc", "", "0", "7",
                                        "19.99 EUR", "-3.00", "4999"};
  static const char* const kCurrencies[] = {"EUR", "eur", "usd", "USD", "", "EURO"};
  static const char* const kGtins[] = {"4006381333931", "036000291452", "1234567890123", "",
                                       "96385074", "12345"};
  static const char* const kTitles[] = {"Blue mug", "  Spoon ", "Bowl, large",
                                        "Plate \"deluxe\"", "", "Lamp\tshade"};
  std::string csv = "SKU,Title,Description,Brand,Price,Currency,GTIN,Image URL,Stock,"
                    "Weight (kg),Category\n";
  for (int i = 0; i < 12000; ++i) {
    std::string sku = m.Pick(15) ? "SKU-" + std::to_string(i) : "SKU-" + std::to_string(m.Pick(50));
    if (m.Pick(40) == 0) sku.clear();
    std::string title = m.One(kTitles);
    if (title.find_first_of(",\"") != std::string::npos) {
      std::string q = "\"";
      for (char c : title) q += c == '"' ? std::string("\"\"") : std::string(1, c);
      title = q + "\"";
    }
    std::string price = m.One(kPrices);
    if (price.find(',') != std::string::npos) price = "\"" + price + "\"";
    csv += sku + "," + title + ",A useful thing," + (m.Pick(3) ? "Acme" : "") + "," + price +
           "," + m.One(kCurrencies) + "," + m.One(kGtins) + "," +
           (m.Pick(4) ? "https://img.example.com/" + std::to_string(i) + ".jpg" : "ftp://x") +
           "," + std::to_string(static_cast<int>(m.Pick(40)) - 3) + "," +
           (m.Pick(5) ? "0.25" : "250") + "," + (m.Pick(2) ? "Kitchen" : "Home > Lamps") + "\n";
  }
  return csv;
}

std::string ProductsXlsx() {
  Messy m;
  ingest::RowWriter w(ingest::FileFormat::kXlsx, {}, {"SKU", "Title", "Price", "GTIN", "Stock"});
  w.set_sheet_name("Catalogue");
  const std::vector<ingest::CellKind> kinds = {ingest::CellKind::kString,
                                               ingest::CellKind::kString,
                                               ingest::CellKind::kString,
                                               ingest::CellKind::kNumber,
                                               ingest::CellKind::kNumber};
  static const char* const kPrices[] = {"19,99", "5", "abc", "1.299,00", "12.5"};
  static const char* const kGtins[] = {"4006381333931", "36000291452", "1234567890123"};
  for (int i = 0; i < 600; ++i) {
    const std::string sku = "X-" + std::to_string(m.Pick(550));
    const std::string stock = std::to_string(m.Pick(30)) + (m.Pick(3) ? "" : ".0");
    std::vector<std::string> row = {sku, m.Pick(6) ? "Chair " + std::to_string(i) : " Stool",
                                    m.One(kPrices), m.One(kGtins), stock};
    std::vector<std::string_view> cells(row.begin(), row.end());
    w.WriteRow(cells, kinds);
  }
  EXPECT_TRUE(w.Finish().ok());
  return w.out();
}

std::string CustomersCsv() {
  Messy m;
  static const char* const kEmails[] = {"ann@example.com", "Bob@Example.COM ", "no-at-sign",
                                        "x@mailinator.com", "", "eve@gmial.com"};
  static const char* const kPhones[] = {"+49 30 901820", "030 901820", "12", "", "+1 (415) 555-0100"};
  static const char* const kCountries[] = {"DE", "de", "Germany", "XX", "", "USA"};
  std::string csv = "Email,Phone,Country,First Name,Last Name\n";
  for (int i = 0; i < 3000; ++i) {
    csv += std::string(m.One(kEmails)) + "," + m.One(kPhones) + "," + m.One(kCountries) +
           ",Ann " + std::to_string(i) + ",Smith\n";
  }
  return csv;
}

// Shopify's Transporter customers layout over several chunks: each customer's row, then rows of
// further addresses and metafields that repeat only the e-mail (the customer's, no duplicate),
// with some real duplicates (a customer's row again, later), national phones to normalise and
// bad country codes on further addresses.
std::string TransporterCustomersCsv() {
  Messy m;
  static const char* const kCountries[] = {"CA", "CA", "US", "XX", "ca"};
  std::string csv = "First Name,Last Name,Email,Company,Address1,City,Country Code,Phone,"
                    "Accepts Marketing,Tags,Metafield Namespace,Metafield Key,Metafield Value\n";
  for (int i = 0; i < 4000; ++i) {
    const std::string email =
        "c" + std::to_string(m.Pick(10) == 0 ? m.Pick(i + 1) : static_cast<size_t>(i)) +
        "@gmail.com";
    csv += "Ann,Lee " + std::to_string(i) + "," + email + ",Acme,1 Main St,Toronto,CA," +
           (m.Pick(2) ? "416-555-0100" : "+14165550100") + "," + (m.Pick(2) ? "true" : "false") +
           ",vip,,,\n";
    for (size_t extra = m.Pick(3); extra > 0; --extra) {
      if (m.Pick(2)) {
        csv += ",," + email + ",,2 Side St,Ottawa," + m.One(kCountries) + ",6135550199,,,,,\n";
      } else {
        csv += ",," + email + ",,,,,,,,global,note,x" + std::to_string(i) + "\n";
      }
    }
  }
  return csv;
}

// Expiry dates whose day/month order shows only late in the file (after the first chunk).
std::string InventoryNdjson() {
  Messy m;
  std::string out;
  for (int i = 0; i < 9000; ++i) {
    std::string date = m.Pick(3) ? "03/04/2027" : "2027-04-03";
    if (i > 8000 && m.Pick(4) == 0) date = "25/12/2027";
    json row = {{"sku", "INV-" + std::to_string(m.Pick(8500))},
                {"stock_qty", m.Pick(5) ? std::to_string(m.Pick(100)) : "-2"},
                {"expiry_date", date},
                {"price", m.Pick(6) ? "3.20" : "3,20"}};
    out += row.dump() + "\n";
  }
  return out;
}

// Windows-1252 text: "Café" and "Crème" in single bytes.
std::string FeedTsvCp1252() {
  std::string tsv = "SKU\tTitle\tPrice\n";
  for (int i = 0; i < 40; ++i) {
    tsv += "T-" + std::to_string(i % 37) + "\tCaf\xE9 cr\xE8me " + std::to_string(i) + "\t" +
           (i % 3 ? "2,50" : "2.50") + "\n";
  }
  return tsv;
}

std::string ShippingJson() {
  json rows = json::array();
  for (int i = 0; i < 300; ++i) {
    rows.push_back({{"sku", "S-" + std::to_string(i)},
                    {"weight", i % 4 ? "1.5 kg" : "heavy"},
                    {"country_of_origin", i % 5 ? "DE" : "Deutschland"},
                    {"hs_code", i % 3 ? "6912.00" : "69"},
                    {"declared_value", i % 7 ? "20.00" : "-1"}});
  }
  return rows.dump(2);
}

// A Shopify products export: product rows, variant rows (no title), image rows, barcodes that
// lost their leading zero (the padding evidence), messy prices. The source is detected.
std::string ShopifyCsv() {
  Messy m;
  static const char* const kPrices[] = {"12.50", "\"12,50\"", "", "abc", "7"};
  std::string csv = "Handle,Title,Body (HTML),Vendor,Variant SKU,Variant Price,Variant Grams,"
                    "Variant Barcode,Image Src\n";
  for (int p = 0; p < 400; ++p) {
    const std::string handle = "item-" + std::to_string(p);
    const int variants = 1 + static_cast<int>(m.Pick(3));
    for (int v = 0; v < variants; ++v) {
      const std::string upc = std::to_string(36000291452 + 7 * (p * 3 + v));  // 11 digits
      csv += handle + "," + (v == 0 ? (m.Pick(8) ? "Mug " + std::to_string(p) : "") : "") + "," +
             (v == 0 ? "\"<p>Nice, too</p>\"" : "") + "," + (v == 0 ? "Acme" : "") + "," +
             (m.Pick(20) ? handle + "-" + std::to_string(v) : "") + "," + m.One(kPrices) + "," +
             (m.Pick(4) ? "300" : "0.0") + "," + (m.Pick(5) ? upc : "123") + "," +
             (v == 0 ? "https://cdn.example.com/" + handle + ".jpg" : "") + "\n";
    }
    if (m.Pick(3) == 0) csv += handle + ",,,,,,,,https://cdn.example.com/" + handle + "-2.jpg\n";
  }
  return csv;
}

// A Shopify export whose products name their options: products with variants (a first row
// naming the option, then variant rows), single-variant products (Title / Default Title), and
// rows that name an option with no variant after them (the product itself, issue 31), one of
// them last in the first chunk and one last in the file; a few records with a field too many
// (ROW_FIELD_COUNT) or too few (ROW_FIELDS_MISSING). The two paths must agree on every kind and
// count.
std::string ShopifyOptionsCsv() {
  Messy m;
  static const char* const kPrices[] = {"12.50", "\"12,50\"", "", "abc", "7"};
  std::string csv = "Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price,"
                    "Variant Inventory Qty,Image Src\n";
  size_t rows = 0;
  for (int p = 0; rows < 5000; ++p) {
    const std::string h = "opt-" + std::to_string(p);
    const std::string img = "https://cdn.example.com/" + h + ".jpg";
    const bool near_chunk_end = rows < 4095 && rows + 4 > 4095;
    if (rows == 4095 || (!near_chunk_end && m.Pick(6) == 0)) {
      csv += h + ",Cap " + std::to_string(p) + ",Color,,,,," + img + "\n";
      ++rows;
      if (m.Pick(2) == 0) {
        csv += h + ",,,,,,," + img + "2\n";
        ++rows;
      }
    } else if (near_chunk_end || m.Pick(2) == 0) {
      csv += h + ",Mug " + std::to_string(p) + ",Title,Default Title," + h + "," +
             m.One(kPrices) + "," + std::to_string(m.Pick(9)) + "," + img +
             (m.Pick(40) == 0 ? ",extra\n" : "\n");
      ++rows;
    } else {
      csv += h + ",Tee " + std::to_string(p) + ",Size,,,,," + img + "\n";
      for (const char* size : {"S", "M"}) {
        csv += h + ",,," + size + "," + h + "-" + size + "," + m.One(kPrices) + "," +
               (m.Pick(30) == 0 ? "" : std::to_string(m.Pick(9))) + (m.Pick(50) ? ",\n" : "\n");
      }
      rows += 3;
    }
  }
  csv += "opt-last,Hat,Color,,,,,https://cdn.example.com/hat.jpg\n";
  return csv;
}

// A WooCommerce export, its source sent: variable parents and their variations, "In stock?" as
// 1/0, image lists, weights in kg, a Stock left empty where stock is not managed.
std::string WooCsv() {
  Messy m;
  std::string csv = "ID,Type,SKU,Name,Parent,Regular price,In stock?,Images,Weight (kg),Stock\n";
  int id = 100;
  for (int p = 0; p < 300; ++p) {
    const bool variable = m.Pick(3) == 0;
    const int parent = id++;
    const std::string sku = "W-" + std::to_string(p);
    csv += std::to_string(parent) + "," + (variable ? "variable" : "simple") + "," + sku +
           ",Lamp " + std::to_string(p) + ",," + (variable ? "" : (m.Pick(6) ? "19.99" : "x")) +
           "," + (m.Pick(2) ? "1" : "0") + ",\"https://img.example.com/a.jpg, " +
           (m.Pick(5) ? "https://img.example.com/b.jpg" : "notaurl") + "\"," +
           (m.Pick(4) ? "1.5" : "1500") + "," + (m.Pick(3) ? "" : (m.Pick(5) ? "7" : "x")) + "\n";
    for (int v = 0; variable && v < 2; ++v) {
      csv += std::to_string(id++) + ",variation," + sku + "-" + std::to_string(v) + ",,id:" +
             std::to_string(parent) + "," + (m.Pick(5) ? "21.00" : "\"21,00\"") + "," +
             (m.Pick(3) ? "instock" : "outofstock") + ",," + "2" + "," + (m.Pick(2) ? "" : "3") +
             "\n";
    }
  }
  return csv;
}

// A Google Merchant Center RSS feed: prices to fix, availability spellings, GTINs good and bad.
std::string MerchantFeedXml() {
  Messy m;
  static const char* const kPrices[] = {"19.99 USD", "19,99 USD", "19.99", "abc", ""};
  static const char* const kGtins[] = {"4006381333931", "036000291452", "1234567890123", ""};
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<rss xmlns:g=\"http://base.google.com/ns/1.0\" version=\"2.0\">\n<channel>\n"
                    "<title>Shop</title>\n";
  for (int i = 0; i < 500; ++i) {
    xml += "<item>\n  <g:id>G-" + std::to_string(m.Pick(480)) + "</g:id>\n  <title><![CDATA[Mug " +
           std::to_string(i) + (m.Pick(6) ? "" : "  ") + "]]></title>\n  <g:price>" +
           m.One(kPrices) + "</g:price>\n  <g:availability>" +
           (m.Pick(3) ? "in stock" : "instock") + "</g:availability>\n  <g:gtin>" + m.One(kGtins) +
           "</g:gtin>\n  <g:link>https://shop.example.com/" + std::to_string(i) +
           "</g:link>\n</item>\n";
  }
  return xml + "</channel>\n</rss>\n";
}

struct TestFile {
  std::string name;
  std::string bytes;
  std::string content_type;
  std::string check_types;
  std::string platform;
  std::string source = "";  // sent, or detected when empty
  std::string read_as = "";  // the source the service must read it as ("" for none)
  std::vector<std::string> codes = {};  // codes both must have found
};

// Test names show the file, not its bytes.
void PrintTo(const TestFile& f, std::ostream* os) { *os << f.name; }

class CliMatchesServiceTest : public ::testing::TestWithParam<TestFile> {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1, false,
                                    {{"DQ_RATE_LIMIT_GENERAL", "100000"},
                                     {"DQ_RATE_LIMIT_UPLOAD", "100000"},
                                     {"DQ_UPLOAD_MAX_BYTES", "20971520"}}});
    key_ = stack_->NewAccount().second;
    dir_ = TempDir();
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }

  static HttpResult Get(const std::string& path) {
    return Http("GET", stack_->GatewayUrl() + path, {{"X-API-Key", key_}});
  }

  // Every issue of the job as the CSV download gives them, page by page (at most 10,000 a page),
  // under one header.
  static std::string IssuesCsv(const std::string& id) {
    std::string csv;
    for (int offset = 0;; offset += 10000) {
      HttpResult r = Get("/v1/jobs/" + id + "/issues?format=csv&limit=10000&offset=" +
                         std::to_string(offset));
      EXPECT_EQ(r.status, 200) << r.body;
      const size_t header_end = r.body.find("\r\n") + 2;
      if (offset == 0) csv += r.body.substr(0, header_end);
      csv += r.body.substr(header_end);
      if (offset + 10000 >= std::stoll(r.Header("x-total-count"))) return csv;
    }
  }

  // The issues array of a job detail, as the text between `"issues":[` and the closing `]}`.
  static std::string IssuesArray(const std::string& detail) {
    const std::string open = ",\"issues\":[";
    const size_t at = detail.rfind(open);
    EXPECT_NE(at, std::string::npos) << detail.substr(0, 300);
    EXPECT_EQ(detail.substr(detail.size() - 2), "]}");
    return detail.substr(at + open.size(), detail.size() - 2 - (at + open.size()));
  }

  struct Run {
    int exit = -1;
    std::string out, err;
  };
  static Run Dq(const std::string& args) {
    const std::string out = dir_ + "/out", err = dir_ + "/err";
    const std::string command =
        std::string(DQ_CLI_BIN) + " " + args + " > " + Quoted(out) + " 2> " + Quoted(err);
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ReadFile(out), ReadFile(err)};
  }

  static Stack* stack_;
  static std::string key_;
  static std::string dir_;
};
Stack* CliMatchesServiceTest::stack_ = nullptr;
std::string CliMatchesServiceTest::key_;
std::string CliMatchesServiceTest::dir_;

TEST_P(CliMatchesServiceTest, IssuesCsvAndCleanedBytesAreTheServices) {
  const TestFile& f = GetParam();
  // The service.
  std::string query = "/v1/jobs?filename=" + f.name + "&check_types=" + f.check_types;
  if (!f.platform.empty()) query += "&platform=" + f.platform;
  if (!f.source.empty()) query += "&source=" + f.source;
  HttpResult up = Http("POST", stack_->GatewayUrl() + query,
                       {{"X-API-Key", key_}, {"Content-Type", f.content_type}}, f.bytes);
  ASSERT_EQ(up.status, 202) << up.body;
  const std::string id = json::parse(up.body)["id"];
  HttpResult detail;
  ASSERT_TRUE(WaitFor(
      [&] {
        detail = Get("/v1/jobs/" + id);
        const json j = json::parse(detail.body, nullptr, false);
        return j.is_object() && (j["status"] == "done" || j["status"] == "failed");
      },
      std::chrono::seconds(60)));
  const json job = json::parse(detail.body);
  ASSERT_EQ(job["status"], "done") << detail.body.substr(0, 500);
  const std::string service_csv = IssuesCsv(id);
  HttpResult cleaned = Get("/v1/jobs/" + id + "/cleaned");
  ASSERT_EQ(cleaned.status, 200) << cleaned.body;
  const json summary = json::parse(Get("/v1/jobs/" + id + "/summary").body);

  // The CLI, on the same bytes.
  const std::string path = dir_ + "/" + f.name;
  WriteFile(path, f.bytes);
  std::string args = "check " + Quoted(path) + " --checks " + f.check_types;
  if (!f.platform.empty()) args += " --platform " + f.platform;
  if (!f.source.empty()) args += " --source " + f.source;
  const std::string cleaned_path = dir_ + "/cleaned-" + f.name;
  Run as_json = Dq(args + " --format json --cleaned " + Quoted(cleaned_path));
  const json local = json::parse(as_json.out, nullptr, false);
  ASSERT_TRUE(local.is_object()) << as_json.err << as_json.out.substr(0, 300);
  EXPECT_EQ(as_json.err, "");
  // --fail-on error is the default: exit 1 exactly when the service found errors.
  EXPECT_EQ(as_json.exit, job["stats"]["errors"].get<int64_t>() > 0 ? 1 : 0);
  Run as_csv = Dq(args + " --format csv --fail-on none");
  EXPECT_EQ(as_csv.exit, 0) << as_csv.err;
  // The download's formulas=keep (cells that start like a formula left as they are).
  HttpResult kept = Get("/v1/jobs/" + id + "/cleaned?formulas=keep");
  ASSERT_EQ(kept.status, 200) << kept.body;
  const std::string kept_path = dir_ + "/kept-" + f.name;
  Run as_kept = Dq(args + " --format csv --fail-on none --formulas keep --cleaned " +
                   Quoted(kept_path));
  EXPECT_EQ(as_kept.exit, 0) << as_kept.err;

  // Same verdicts, byte for byte, on files where there is something to compare.
  EXPECT_GT(job["issues_total"].get<int64_t>(), 0);
  EXPECT_GT(job["stats"]["fixes"].get<int64_t>(), 0);
  RecordProperty("issues", std::to_string(job["issues_total"].get<int64_t>()));
  if (!f.read_as.empty()) { EXPECT_EQ(job["source"], f.read_as); }
  std::string local_json = as_json.out;
  ASSERT_EQ(local_json.back(), '\n');
  local_json.pop_back();
  EXPECT_TRUE(IssuesArray(local_json) == IssuesArray(detail.body))
      << "the issue records differ for " << f.name;
  EXPECT_TRUE(as_csv.out == service_csv) << "the issues CSV differs for " << f.name;
  EXPECT_TRUE(ReadFile(cleaned_path) == cleaned.body) << "the cleaned file differs for " << f.name;
  EXPECT_TRUE(ReadFile(kept_path) == kept.body)
      << "the cleaned file with formulas kept differs for " << f.name;
  for (const char* member : {"stats", "health_score", "rows_total", "rows_error", "rows_warning",
                             "rows_fixed", "format", "encoding", "mapping", "mapping_inferred",
                             "mapping_notes", "check_types", "platform", "source",
                             "source_reason", "notes", "issues_total", "issues_truncated"}) {
    EXPECT_EQ(local[member], job[member]) << member << " of " << f.name;
  }
  EXPECT_EQ(local["summary"]["by_code"], summary["by_code"]);
  for (const std::string& code : f.codes) {
    bool found = false;
    for (const auto& c : summary["by_code"]) found |= c["code"] == code;
    EXPECT_TRUE(found) << code << " in " << f.name;
  }
  EXPECT_EQ(local["summary"]["by_field"], summary["by_field"]);
}

INSTANTIATE_TEST_SUITE_P(
    Files, CliMatchesServiceTest,
    ::testing::Values(
        TestFile{"products.csv", ProductsCsv(), "text/csv", "product,price,inventory", ""},
        TestFile{"catalogue.xlsx", ProductsXlsx(),
                 "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                 "product,inventory", "marketplace2"},
        TestFile{"customers.csv.gz", Gzip(CustomersCsv()), "application/gzip", "customer", ""},
        TestFile{"transporter_customers.csv", TransporterCustomersCsv(), "text/csv", "customer",
                 "", "", "shopify_customers",
                 {"DUPLICATE_CUSTOMER", "PHONE_NORMALIZED", "INVALID_COUNTRY_CODE"}},
        TestFile{"stock.ndjson", InventoryNdjson(), "application/x-ndjson", "inventory,price", ""},
        TestFile{"feed.tsv", FeedTsvCp1252(), "text/tab-separated-values", "product", ""},
        TestFile{"shipping.json", ShippingJson(), "application/json", "shipping", ""},
        TestFile{"shopify.csv", ShopifyCsv(), "text/csv", "product", "", "", "shopify_products"},
        TestFile{"shopify_options.csv", ShopifyOptionsCsv(), "text/csv", "product,inventory", "",
                 "", "shopify_products", {"ROW_FIELD_COUNT", "ROW_FIELDS_MISSING", "INVALID_PRICE", "MISSING_SKU"}},
        TestFile{"woo.csv", WooCsv(), "text/csv", "product,inventory", "", "woocommerce",
                 "woocommerce"},
        TestFile{"feed.xml", MerchantFeedXml(), "application/rss+xml", "product",
                 "search_merchant"},
        // The same feed with no template: its amounts keep their code (the source's own format).
        TestFile{"feed_no_template.xml", MerchantFeedXml(), "application/rss+xml", "product,price",
                 ""}),
    [](const auto& info) {
      std::string name = info.param.name;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace dq::testing
