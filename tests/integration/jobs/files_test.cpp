// The files merchants really have, through the real gateway, worker, validator and Redis:
// XLSX in and out, gzip (Content-Encoding and .gz files, and a bomb), Windows-1252 text, the
// preview route, a kg weight column converted to grams, and Google's XML feeds in and out.
#include <gtest/gtest.h>
#include <zlib.h>

#include <nlohmann/json.hpp>
#include <map>
#include <set>

#include "dq/ingest/row_reader.h"
#include "dq/ingest/row_writer.h"
#include "job_wait.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

constexpr const char* kXlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

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

std::string Workbook(const std::vector<std::string>& header,
                     const std::vector<std::vector<std::string>>& rows,
                     const std::vector<ingest::CellKind>& kinds) {
  ingest::RowWriter w(ingest::FileFormat::kXlsx, {}, header);
  w.set_sheet_name("Catalogue");
  for (const auto& r : rows) {
    std::vector<std::string_view> cells(r.begin(), r.end());
    w.WriteRow(cells, kinds);
  }
  EXPECT_TRUE(w.Finish().ok());
  return w.out();
}

struct Sheet {
  std::string name;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

Sheet ReadWorkbook(const std::string& bytes) {
  Sheet s;
  auto reader = ingest::MakeRowReader(ingest::FileFormat::kXlsx);
  reader->Feed(bytes);
  reader->Finish();
  while (true) {
    auto st = reader->Next();
    EXPECT_TRUE(st.ok()) << st.status().message();
    if (!st.ok() || *st != ingest::ReadState::kRow) break;
    s.rows.emplace_back(reader->row().begin(), reader->row().end());
  }
  s.header = reader->header();
  s.name = reader->sheet_name();
  return s;
}

class FilesIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1, false,
                                    {{"DQ_RATE_LIMIT_GENERAL", "100000"},
                                     {"DQ_RATE_LIMIT_UPLOAD", "100000"},
                                     {"DQ_UPLOAD_MAX_BYTES", "1048576"}}});
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
  static std::string Error(const HttpResult& r) {
    json j = json::parse(r.body, nullptr, false);
    return j.is_object() ? j.value("error", "") : "";
  }

  static Stack* stack_;
  std::string account_, key_;
};
Stack* FilesIntegrationTest::stack_ = nullptr;

TEST_F(FilesIntegrationTest, XlsxUploadComesBackAsXlsxWithFixes) {
  // GTINs stored as numbers lose their leading zeros; three such in the column are the evidence
  // that lets a short one be zero-padded (docs/api.md, "GTIN padding").
  const std::string book =
      Workbook({"SKU", "Price", "GTIN", "Stock"},
               {{"A-1", "19,99", "4006381333931", "10.0"}, {"A-2", "5", "036000291452", "3"},
                {"A-3", "6", "012345678905", "1"}, {"A-4", "7", "073010620025", "2"}},
               {ingest::CellKind::kString, ingest::CellKind::kString, ingest::CellKind::kNumber,
                ingest::CellKind::kString});
  HttpResult r = Post("/v1/jobs?filename=catalogue.xlsx&check_types=product,inventory", book,
                      {{"Content-Type", kXlsxType}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["format"], "xlsx");
  EXPECT_EQ(job["encoding"], "utf-8");
  EXPECT_EQ(job["rows_total"], 4);
  HttpResult cleaned = Get("/v1/jobs/" + id + "/cleaned");
  ASSERT_EQ(cleaned.status, 200);
  EXPECT_EQ(cleaned.Header("content-type"), kXlsxType);
  const Sheet s = ReadWorkbook(cleaned.body);
  EXPECT_EQ(s.name, "Catalogue");
  EXPECT_EQ(s.header, (std::vector<std::string>{"SKU", "Price", "GTIN", "Stock"}));
  ASSERT_EQ(s.rows.size(), 4u);
  EXPECT_EQ(s.rows[0], (std::vector<std::string>{"A-1", "19.99", "4006381333931", "10"}));
  EXPECT_EQ(s.rows[1][2], "036000291452");  // written as text: the leading zero stays
}

// A Google Merchant Center RSS feed: read as rows, and its cleaned file is the same feed with
// only the fixed value changed, byte for byte.
TEST_F(FilesIntegrationTest, XmlFeedComesBackAsTheSameFeedWithFixes) {
  const std::string head =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<rss xmlns:g=\"http://base.google.com/ns/1.0\" version=\"2.0\">\n<channel>\n"
      "<title>Shop</title>\n<!-- generated -->\n";
  auto item = [](const std::string& id, const std::string& price) {
    return "<item>\n  <g:id>" + id + "</g:id>\n  <title><![CDATA[Mug & Co]]></title>\n"
           "  <g:price>" + price + "</g:price>\n  <g:gtin>4006381333931</g:gtin>\n"
           "  <g:shipping><g:country>US</g:country><g:price>4.95 USD</g:price></g:shipping>\n"
           "</item>\n";
  };
  const std::string tail = "</channel>\n</rss>\n";
  const std::string feed = head + item("A-1", "19,99") + item("A-2", "5") + tail;
  HttpResult r = Post("/v1/jobs?filename=feed.xml&check_types=product", feed,
                      {{"Content-Type", "application/rss+xml"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["format"], "xml");
  EXPECT_EQ(job["rows_total"], 2);
  EXPECT_EQ(job["mapping"]["sku"], "id");
  EXPECT_EQ(job["mapping"]["price"], "price");
  HttpResult cleaned = Get("/v1/jobs/" + id + "/cleaned");
  ASSERT_EQ(cleaned.status, 200);
  EXPECT_EQ(cleaned.Header("content-type"), "application/xml");
  EXPECT_EQ(cleaned.body, head + item("A-1", "19.99") + item("A-2", "5") + tail);

  // The preview names the columns as Google does.
  HttpResult preview = Post("/v1/jobs/preview", feed, {{"Content-Type", "application/xml"}});
  ASSERT_EQ(preview.status, 200) << preview.body;
  EXPECT_EQ(json::parse(preview.body)["columns"],
            json({"id", "title", "price", "gtin", "shipping(country:price)"}));

  // Gzip'd, named .xml.gz, with a generic type.
  HttpResult gz = Post("/v1/jobs?filename=feed.xml.gz", Gzip(feed),
                       {{"Content-Type", "application/octet-stream"}});
  ASSERT_EQ(gz.status, 202) << gz.body;
  EXPECT_EQ(WaitDone(json::parse(gz.body)["id"])["format"], "xml");
}

// Issue 36: formula-leading cells are neutralised (a leading ') in the issues CSV always and in
// the cleaned CSV unless formulas=keep; a plain negative number is not a formula.
TEST_F(FilesIntegrationTest, SpreadsheetsGetNoFormulas) {
  const std::string csv =
      "email,note\n@SUM(1+1),\"=HYPERLINK(\"\"http://x\"\")\"\nana@shop.de,-5\n";
  HttpResult r = Post("/v1/jobs?filename=c.csv&check_types=customer", csv,
                      {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  ASSERT_EQ(WaitDone(id)["status"], "done");
  HttpResult cleaned = Get("/v1/jobs/" + id + "/cleaned");
  ASSERT_EQ(cleaned.status, 200);
  EXPECT_EQ(cleaned.body,
            "email,note\n'@SUM(1+1),\"'=HYPERLINK(\"\"http://x\"\")\"\nana@shop.de,-5\n");
  HttpResult kept = Get("/v1/jobs/" + id + "/cleaned?formulas=keep");
  ASSERT_EQ(kept.status, 200);
  EXPECT_EQ(kept.body, csv);
  HttpResult bad = Get("/v1/jobs/" + id + "/cleaned?formulas=strip");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(json::parse(bad.body)["message"], "formulas: must be neutralise or keep");
  // The e-mail was not "fixed" (lower-cased) into another formula; the issues CSV shows it
  // neutralised.
  HttpResult issues = Get("/v1/jobs/" + id + "/issues?format=csv");
  ASSERT_EQ(issues.status, 200);
  EXPECT_NE(issues.body.find(",INVALID_EMAIL,"), std::string::npos) << issues.body;
  EXPECT_NE(issues.body.find(",'@SUM(1+1),"), std::string::npos) << issues.body;
  EXPECT_EQ(issues.body.find("@sum"), std::string::npos) << issues.body;
  EXPECT_EQ(issues.body.find(",@SUM"), std::string::npos) << issues.body;
}

TEST_F(FilesIntegrationTest, BadXmlIsRefusedWithItsPlace) {
  HttpResult malformed = Post("/v1/jobs", "<rss version=\"2.0\"><channel>\n<item><id>1</b>",
                              {{"Content-Type", "application/xml"}});
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(Error(malformed), "invalid_request");
  EXPECT_EQ(json::parse(malformed.body)["message"],
            "XML is malformed at line 2, column 14: mismatched tag");
  const std::string laughs =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY a \"aaaaaaaaaa\">"
      "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;\">]>\n"
      "<rss version=\"2.0\"><channel><item><id>&c;</id></item></channel></rss>";
  HttpResult bomb = Post("/v1/jobs", laughs, {{"Content-Type", "text/xml"}});
  EXPECT_EQ(bomb.status, 400);
  EXPECT_EQ(json::parse(bomb.body)["message"],
            "XML at line 2: a document type declaration (<!DOCTYPE ...>) is not accepted: a DTD "
            "can declare entities that expand without bound or read other files. Remove it from "
            "the feed.");
  HttpResult empty = Post("/v1/jobs", "<rss version=\"2.0\"><channel/></rss>",
                          {{"Content-Type", "application/xml"}});
  EXPECT_EQ(empty.status, 400);
  EXPECT_EQ(Error(empty), "empty_file");
  json usage = json::parse(Get("/v1/usage").body);
  EXPECT_EQ(usage["records_used"], 0);
}

TEST_F(FilesIntegrationTest, GzipBodyGzipFileAndBomb) {
  const std::string csv = "sku,price\nA,1\nB,2\n";
  HttpResult body = Post("/v1/jobs", Gzip(csv),
                         {{"Content-Type", "text/csv"}, {"Content-Encoding", "gzip"}});
  ASSERT_EQ(body.status, 202) << body.body;
  EXPECT_EQ(WaitDone(json::parse(body.body)["id"])["rows_total"], 2);

  HttpResult file = Post("/v1/jobs?filename=products.csv.gz", Gzip(csv),
                         {{"Content-Type", "application/gzip"}});
  ASSERT_EQ(file.status, 202) << file.body;
  json job = WaitDone(json::parse(file.body)["id"]);
  EXPECT_EQ(job["format"], "csv");
  EXPECT_EQ(job["status"], "done");

  // 64 MiB of one repeated CSV row in well under 1 MiB: refused at the 1 MiB limit.
  std::string big;
  big.reserve(64 << 20);
  big = "sku,price\n";
  while (big.size() < (64u << 20)) big += "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,1\n";
  const std::string bomb = Gzip(big);
  ASSERT_LT(bomb.size(), 1u << 20);
  HttpResult refused =
      Post("/v1/jobs", bomb, {{"Content-Type", "text/csv"}, {"Content-Encoding", "gzip"}});
  EXPECT_EQ(refused.status, 413) << refused.body;
  EXPECT_EQ(Error(refused), "file_too_large");
  HttpResult refused_file =
      Post("/v1/jobs?filename=bomb.csv.gz", bomb, {{"Content-Type", "application/gzip"}});
  EXPECT_EQ(refused_file.status, 413);
  HttpResult br = Post("/v1/jobs", csv, {{"Content-Type", "text/csv"}, {"Content-Encoding", "br"}});
  EXPECT_EQ(br.status, 415);
}

TEST_F(FilesIntegrationTest, Windows1252CsvIsConvertedAndShown) {
  const std::string csv = "sku,title,price\nA,Caf\xE9 cr\xE8me br\xFBl\xE9\x65,4\n"
                          "B,Gar\xE7on \xE0 la fa\xE7\x61\x64\x65,5\n";
  HttpResult r = Post("/v1/jobs?filename=excel.csv", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  // Without bytes 0x80-0x9F the two are the same text; libuchardet names either.
  EXPECT_TRUE(job["encoding"] == "windows-1252" || job["encoding"] == "iso-8859-1") << job.dump();
  HttpResult cleaned = Get("/v1/jobs/" + id + "/cleaned");
  EXPECT_NE(cleaned.body.find("Caf\xC3\xA9 cr\xC3\xA8me"), std::string::npos) << cleaned.body;

  HttpResult mislabelled = Post("/v1/jobs", "sku,title\nA,Caf\xE9\n",
                                {{"Content-Type", "text/csv; charset=utf-8"}});
  EXPECT_EQ(mislabelled.status, 400);
  EXPECT_NE(mislabelled.body.find("Byte 15 (0xE9)"), std::string::npos) << mislabelled.body;
  HttpResult surrogate = Post("/v1/jobs", std::string("\xFF\xFEs\0\x00\xD8" "a\0\n\0", 10),
                              {{"Content-Type", "text/csv"}});
  EXPECT_EQ(surrogate.status, 400) << surrogate.body;
}

TEST_F(FilesIntegrationTest, PreviewShowsTheReadingAndCreatesNothing) {
  const std::string csv = "SKU;Price;Weight (kg)\nA-1;19,99;1.2\nA-2;5;0,5\nA-3;7;2\n"
                          "A-4;8;3\nA-5;9;4\nA-6;10;5\n";
  HttpResult r = Post("/v1/jobs/preview?filename=shop.csv", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 200) << r.body;
  json p = json::parse(r.body);
  EXPECT_EQ(p["format"], "csv");
  EXPECT_EQ(p["encoding"], "utf-8");
  EXPECT_EQ(p["columns"], json({"SKU", "Price", "Weight (kg)"}));
  EXPECT_EQ(p["mapping"], json({{"sku", "SKU"}, {"price", "Price"}, {"weight", "Weight (kg)"}}));
  EXPECT_EQ(p["mapping_inferred"], true);
  EXPECT_EQ(p["mapping_notes"], json({"The weight column 'Weight (kg)' is read in kilograms: its "
                                      "header names the unit."}));
  EXPECT_EQ(p["source"], "generic");
  EXPECT_EQ(p["source_reason"], "the header matches no known platform's export");
  EXPECT_EQ(p["notes"],
            json({"No column looks like a title; titles were not checked."}));
  EXPECT_EQ(p["suggested_check_types"], json({"product"}));
  EXPECT_EQ(p["mapping_confidence"]["sku"], json({{"confidence", 1.0}, {"found_by", "header"}}));
  ASSERT_EQ(p["sample_rows"].size(), 5u);
  EXPECT_EQ(p["sample_rows"][0], json({"A-1", "19,99", "1.2"}));

  json usage = json::parse(Get("/v1/usage").body);
  EXPECT_EQ(usage["records_used"], 0);
  EXPECT_EQ(json::parse(Get("/v1/jobs").body).size(), 0u);

  HttpResult bad_mapping = Post("/v1/jobs/preview?mapping=%7B%22sku%22%3A%22Nope%22%7D", csv,
                                {{"Content-Type", "text/csv"}});
  EXPECT_EQ(bad_mapping.status, 400);
  HttpResult empty = Post("/v1/jobs/preview", "sku\n", {{"Content-Type", "text/csv"}});
  EXPECT_EQ(empty.status, 400);
  EXPECT_EQ(Error(empty), "empty_file");
  HttpResult xlsx = Post("/v1/jobs/preview", Workbook({"sku"}, {{"X"}}, {}),
                         {{"Content-Type", kXlsxType}});
  ASSERT_EQ(xlsx.status, 200) << xlsx.body;
  EXPECT_EQ(json::parse(xlsx.body)["format"], "xlsx");
  HttpResult anonymous = Http("POST", stack_->GatewayUrl() + "/v1/jobs/preview",
                              {{"Content-Type", "text/csv"}}, csv);
  EXPECT_EQ(anonymous.status, 401);
}

TEST_F(FilesIntegrationTest, AWeightInTonnesIsNotGuessedAndTheJobSaysWhy) {
  const std::string csv = "SKU,Price,Weight (t)\nA-1,10,2\n";
  HttpResult preview = Post("/v1/jobs/preview", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(preview.status, 200) << preview.body;
  json p = json::parse(preview.body);
  EXPECT_FALSE(p["mapping"].contains("weight"));
  ASSERT_EQ(p["mapping_notes"].size(), 1u) << p.dump();
  // Without its weight, the file has no column for the shipping check: refused before any quota.
  HttpResult refused = Post("/v1/jobs?check_types=shipping", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(refused.status, 400) << refused.body;
  EXPECT_EQ(Error(refused), "check_types_do_not_fit");
  EXPECT_EQ(json::parse(refused.body)["message"],
            "No column fits the shipping check (no weight, hs_code, country_of_origin, "
            "vat_number or declared_value column). The columns fit: product, inventory, price.");
  EXPECT_EQ(json::parse(refused.body)["fits"], json({"product", "inventory", "price"}));
  EXPECT_EQ(json::parse(Get("/v1/usage").body)["records_used"], 0);
  HttpResult r = Post("/v1/jobs?check_types=product", csv, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  json job = WaitDone(json::parse(r.body)["id"]);
  EXPECT_FALSE(job["mapping"].contains("weight"));
  ASSERT_EQ(job["mapping_notes"].size(), 1u) << job.dump();
  EXPECT_EQ(job["mapping_notes"][0], p["mapping_notes"][0]);
  EXPECT_NE(job["mapping_notes"][0].get<std::string>().find("Weight (t)"), std::string::npos);
}

// A kilogram column stays in kilograms (the import reads it so): a bare number is left, a value
// with its own unit is written in kilograms.
TEST_F(FilesIntegrationTest, KilogramColumnStaysInKilogramsAndDeclaredValueIsChecked) {
  const std::string csv =
      "SKU,Price,Weight (kg),Customs Value\nA-1,10,1.2,0\nA-2,10,500 g,12\n";
  HttpResult r = Post("/v1/jobs?filename=ship.csv&check_types=shipping", csv,
                      {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  EXPECT_EQ(job["mapping"]["weight"], "Weight (kg)");
  EXPECT_EQ(job["mapping"]["declared_value"], "Customs Value");
  HttpResult cleaned = Get("/v1/jobs/" + id + "/cleaned");
  EXPECT_EQ(cleaned.body, "SKU,Price,Weight (kg),Customs Value\nA-1,10,1.2,0\nA-2,10,0.5,12\n");
  std::set<std::string> codes;
  for (const auto& i : job["issues"]) codes.insert(i["code"].get<std::string>());
  EXPECT_TRUE(codes.count("WEIGHT_CONVERTED_TO_COLUMN_UNIT"));
  EXPECT_FALSE(codes.count("WEIGHT_CONVERTED_TO_GRAMS"));
  EXPECT_TRUE(codes.count("INVALID_DECLARED_VALUE"));

  // /v1/validate accepts declared_value in its mapping.
  json req = {{"records", {{{"v", "abc"}, {"w", "2 lb"}}}},
              {"mapping", {{"declared_value", "v"}, {"weight", "w"}}},
              {"check_types", "shipping"}};
  HttpResult v = Post("/v1/validate", req.dump(), {{"Content-Type", "application/json"}});
  ASSERT_EQ(v.status, 200) << v.body;
  json out = json::parse(v.body);
  EXPECT_EQ(out["cleaned"][0]["w"], "907.18");
  EXPECT_EQ(out["issues"][0]["code"], "INVALID_DECLARED_VALUE");
}

TEST_F(FilesIntegrationTest, DateOrderComesFromTheWholeFileNotTheFirstChunk) {
  // 5,000 ambiguous dates, then one that shows day first: more rows than one validator chunk
  // (4,096), so only the whole file, read at upload, can tell the first chunk how to read them.
  std::string csv = "SKU,Stock,Expiry Date\n";
  for (int i = 1; i <= 5000; ++i) csv += "A-" + std::to_string(i) + ",5,03/04/2027\n";
  csv += "B-1,5,25/04/2027\n";
  HttpResult r = Post("/v1/jobs?filename=stock.csv&check_types=inventory", csv,
                      {{"Content-Type", "text/csv"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const std::string id = json::parse(r.body)["id"];
  json job = WaitDone(id);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["mapping"]["expiry_date"], "Expiry Date");
  std::map<std::string, int> codes;
  for (const auto& i : job["issues"]) ++codes[i["code"].get<std::string>()];
  EXPECT_EQ(codes["AMBIGUOUS_DATE"], 0);
  EXPECT_EQ(codes["DATE_REFORMATTED"], 5001);
  HttpResult cleaned = Get("/v1/jobs/" + id + "/cleaned");
  EXPECT_EQ(cleaned.body.substr(0, cleaned.body.find('\n', 24) + 1),
            "SKU,Stock,Expiry Date\nA-1,5,2027-04-03\n");
}

}  // namespace
}  // namespace dq::testing
