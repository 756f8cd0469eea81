// The cleaned file as a download writes it from a job's kept upload and its fixes: the fix
// encoding and its damage checks, and the file in every format, byte for byte what RowWriter
// writes for the same rows fixed by hand, however the upload and the fixes are cut into pieces.
#include "dq/report/cleaned_file.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "dq/ingest/row_writer.h"

namespace dq::report {
namespace {

using ingest::CellKind;
using ingest::FileFormat;

struct Upload {
  FileCheck job;
  std::vector<std::string> pieces;
};

// The job an upload of `bytes` makes, its file cut into pieces of `piece` bytes.
Upload MakeUpload(FileFormat format, const std::string& bytes, size_t piece) {
  auto scan = ingest::ScanFile(format, bytes);
  EXPECT_TRUE(scan.ok()) << scan.status().message();
  Upload u;
  u.job.format = format;
  u.job.dialect = scan->dialect;
  u.job.header = scan->header;
  for (size_t at = 0; at < bytes.size(); at += piece) u.pieces.push_back(bytes.substr(at, piece));
  u.job.file_pieces = static_cast<int64_t>(u.pieces.size());
  return u;
}

// The whole cleaned file, asked for in parts of `want` bytes.
Result<std::string> Write(const Upload& u, const std::vector<std::string>& fixes,
                          size_t want = 1 << 20,
                          ingest::FormulaCells formulas = ingest::FormulaCells::kKeep) {
  CleanedFile file(
      u.job, [&](int64_t i) { return Result<std::string>(u.pieces.at(static_cast<size_t>(i))); },
      [&](int64_t i) -> Result<std::optional<std::string>> {
        if (i >= static_cast<int64_t>(fixes.size())) return std::optional<std::string>();
        return std::optional<std::string>(fixes[static_cast<size_t>(i)]);
      },
      formulas);
  std::string out;
  while (true) {
    const size_t before = out.size();
    auto more = file.Next(&out, want);
    if (!more.ok()) return more.status();
    if (!*more) return out;
    EXPECT_GE(out.size() - before, want);  // a part is at least what was asked, until the end
  }
}

// What RowWriter writes for `rows`, with the given cells replaced (row from 1, column).
std::string Expected(const FileCheck& job, std::vector<std::vector<std::string>> rows,
                     std::vector<std::vector<CellKind>> kinds,
                     const std::map<std::pair<size_t, size_t>, std::string>& fixed,
                     const std::string& sheet = "") {
  for (const auto& [at, value] : fixed) {
    rows[at.first - 1][at.second] = value;
    if (!kinds.empty()) kinds[at.first - 1][at.second] = CellKind::kString;
  }
  ingest::RowWriter w(job.format, job.dialect, job.header);
  if (!sheet.empty()) w.set_sheet_name(sheet);
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::string_view> cells(rows[r].begin(), rows[r].end());
    w.WriteRow(cells, kinds.empty() ? std::span<const CellKind>() : kinds[r]);
  }
  EXPECT_TRUE(w.Finish().ok());
  return w.out();
}

TEST(FixEncodingTest, FixesReadBackAsWritten) {
  std::string piece;
  const std::string binary("a\0b\xff", 4);
  AppendFix(piece, 1, 0, "X1");
  AppendFix(piece, 300, 127, "");
  AppendFix(piece, 1ull << 40, 128, binary);
  AppendFix(piece, UINT64_MAX, UINT32_MAX, std::string(200, 'v'));
  std::vector<Fix> fixes;
  ASSERT_TRUE(DecodeFixes(piece, &fixes).ok());
  ASSERT_EQ(fixes.size(), 4u);
  EXPECT_EQ(fixes[0].row, 1u);
  EXPECT_EQ(fixes[0].column, 0u);
  EXPECT_EQ(fixes[0].value, "X1");
  EXPECT_EQ(fixes[1].row, 300u);
  EXPECT_EQ(fixes[1].column, 127u);
  EXPECT_EQ(fixes[1].value, "");
  EXPECT_EQ(fixes[2].row, 1ull << 40);
  EXPECT_EQ(fixes[2].column, 128u);
  EXPECT_EQ(fixes[2].value, binary);
  EXPECT_EQ(fixes[3].row, UINT64_MAX);
  EXPECT_EQ(fixes[3].column, UINT32_MAX);
  EXPECT_EQ(fixes[3].value, std::string(200, 'v'));
}

// Every cut of a piece inside a fix is damage, never a shorter list that looks whole.
TEST(FixEncodingTest, ACutOrOverlongPieceIsDamaged) {
  std::string piece;
  AppendFix(piece, 70000, 3, "twelve fifty");
  AppendFix(piece, 70001, 1, "x");
  std::string first;
  AppendFix(first, 70000, 3, "twelve fifty");
  for (size_t cut = 1; cut < piece.size(); ++cut) {
    if (cut == first.size()) continue;  // a whole fix: a shorter piece, but a valid one
    std::vector<Fix> fixes;
    Status s = DecodeFixes(std::string_view(piece).substr(0, cut), &fixes);
    EXPECT_EQ(s.code(), ErrorCode::kInternal) << "cut at " << cut;
    EXPECT_NE(s.message().find("damaged"), std::string::npos) << s.message();
  }
  std::vector<Fix> fixes;
  EXPECT_FALSE(DecodeFixes(std::string(11, '\xff') + "\x01", &fixes).ok());  // past 64 bits
  // Row 1, column 2^32, an empty value.
  EXPECT_FALSE(DecodeFixes(std::string("\x01\x80\x80\x80\x80\x10\x00", 7), &fixes).ok());
}

TEST(CleanedFileTest, CsvIsTheUploadWithItsFixesInPlaceInTheUploadsDialect) {
  const std::string csv =
      "\xEF\xBB\xBFsku;title;price\r\n"
      "x1;Blue mug;12,5\r\n"
      "A2;\"Red; large\";3\r\n"
      "x3;Green;7\r\n"
      "A4;Plain;\r\n";
  const std::vector<std::vector<std::string>> rows = {
      {"x1", "Blue mug", "12,5"}, {"A2", "Red; large", "3"}, {"x3", "Green", "7"},
      {"A4", "Plain", ""}};
  // Row 1's sku fixed twice: the last fix wins. A fixed value that needs quoting is quoted.
  std::string p1, p2;
  AppendFix(p1, 1, 0, "first");
  AppendFix(p1, 1, 0, "X1");
  AppendFix(p1, 1, 2, "12.50");
  AppendFix(p2, 3, 0, "X3");
  AppendFix(p2, 3, 1, "Green; \"dark\"");
  AppendFix(p2, 4, 2, "0.00");
  const std::map<std::pair<size_t, size_t>, std::string> fixed = {
      {{1, 0}, "X1"}, {{1, 2}, "12.50"}, {{3, 0}, "X3"}, {{3, 1}, "Green; \"dark\""},
      {{4, 2}, "0.00"}};
  for (size_t piece : {size_t{7}, size_t{1 << 20}}) {
    for (size_t want : {size_t{1}, size_t{1 << 20}}) {
      SCOPED_TRACE("piece " + std::to_string(piece) + ", part " + std::to_string(want));
      const Upload u = MakeUpload(FileFormat::kCsv, csv, piece);
      EXPECT_EQ(u.job.dialect.delimiter, ';');
      auto got = Write(u, {p1, p2}, want);
      ASSERT_TRUE(got.ok()) << got.status().message();
      EXPECT_EQ(*got, Expected(u.job, rows, {}, fixed));
      EXPECT_EQ(got->substr(0, 3), "\xEF\xBB\xBF");
      EXPECT_NE(got->find("X1;Blue mug;12.50\r\n"), std::string::npos) << *got;
      EXPECT_NE(got->find("\"Green; \"\"dark\"\"\""), std::string::npos) << *got;
    }
  }
  // Without fixes it is the upload, written again.
  const Upload u = MakeUpload(FileFormat::kCsv, csv, 1 << 20);
  EXPECT_EQ(*Write(u, {}), Expected(u.job, rows, {}, {}));
}

// JSON keeps each value's type; a fixed value is a string, as the job wrote it before.
TEST(CleanedFileTest, JsonKeepsTypesAndFixedValuesAreStrings) {
  const std::string json =
      R"([{"sku":"x1","price":12.50,"active":true,"tags":["a","b"]},)"
      R"({"sku":"A2","price":3,"active":null}])";
  const Upload u = MakeUpload(FileFormat::kJsonArray, json, 9);
  std::string fixes;
  AppendFix(fixes, 1, 0, "X1");
  AppendFix(fixes, 2, 1, "3.00");
  auto got = Write(u, {fixes});
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, Expected(u.job,
                           {{"x1", "12.50", "true", R"(["a","b"])"}, {"A2", "3", ""}},
                           {{CellKind::kString, CellKind::kNumber, CellKind::kBool,
                             CellKind::kJson},
                            {CellKind::kString, CellKind::kNumber, CellKind::kNull}},
                           {{{1, 0}, "X1"}, {{2, 1}, "3.00"}}));
  EXPECT_NE(got->find("12.50"), std::string::npos) << *got;
  EXPECT_NE(got->find("\"3.00\""), std::string::npos) << *got;
}

// Nested JSON objects are columns by path (meta.barcode); the download puts each value back
// inside its object, read in pieces, and changes only the fixed value.
TEST(CleanedFileTest, NestedJsonKeepsItsObjectsAndChangesOnlyTheFix) {
  const std::string json =
      "[\n"
      R"({"sku":"A1","meta":{"createdAt":"2025-04-30","barcode":"5784719087687"},"dimensions":{"width":15.14}},)"
      "\n"
      R"({"sku":"A2","meta":{"barcode":" 8418883906838"}})"
      "\n]\n";
  const Upload u = MakeUpload(FileFormat::kJsonArray, json, 7);
  ASSERT_EQ(u.job.header, (std::vector<std::string>{"sku", "meta.createdAt", "meta.barcode",
                                                    "dimensions.width"}));
  EXPECT_EQ(*Write(u, {}), json);
  std::string fixes;
  AppendFix(fixes, 2, 2, "8418883906838");
  std::string expected = json;
  expected.replace(expected.find("\" 8418883906838\""), 16, "\"8418883906838\"");
  EXPECT_EQ(*Write(u, {fixes}, 5), expected);
}

// A fix for a nested column the record lacks goes inside its object, which is created when the
// record has none, where the column's place among the keys is; the other keys keep their order.
TEST(CleanedFileTest, NestedJsonFixForAMissingMemberGoesInsideItsObject) {
  const std::string json =
      "[\n"
      R"({"sku":"A1","meta":{"createdAt":"2025-04-30","barcode":"5784719087687"},"dimensions":{"width":15.14}},)"
      "\n"
      R"({"sku":"A2","meta":{"createdAt":"2025-05-01"}},)"
      "\n"
      R"({"sku":"A3","dimensions":{"width":2}})"
      "\n]\n";
  const Upload u = MakeUpload(FileFormat::kJsonArray, json, 9);
  ASSERT_EQ(u.job.header, (std::vector<std::string>{"sku", "meta.createdAt", "meta.barcode",
                                                    "dimensions.width"}));
  std::string fixes;
  AppendFix(fixes, 2, 2, "111");
  AppendFix(fixes, 3, 2, "222");
  std::string expected = json;
  expected.replace(expected.find(R"("2025-05-01"})"), 13, R"("2025-05-01","barcode":"111"})");
  expected.replace(expected.find(R"({"sku":"A3",)"), 12, R"({"sku":"A3","meta":{"barcode":"222"},)");
  EXPECT_EQ(*Write(u, {fixes}, 5), expected);
}

// A fix on a record before the first record that has the column (the reader has not met it
// yet): the file is read once more for the column's path, and the value goes inside its object.
TEST(CleanedFileTest, NestedJsonFixForAColumnNotMetYetGoesInsideItsObject) {
  for (const FileFormat format : {FileFormat::kJsonArray, FileFormat::kNdjson}) {
    const bool array = format == FileFormat::kJsonArray;
    const std::string first = R"({"sku":"A1","n":1})";
    const std::string second = R"({"sku":"A2","meta":{"barcode":"9"}})";
    const std::string json = array ? "[\n" + first + ",\n" + second + "\n]\n"
                                   : first + "\n" + second + "\n";
    const Upload u = MakeUpload(format, json, 6);
    ASSERT_EQ(u.job.header, (std::vector<std::string>{"sku", "n", "meta.barcode"}));
    std::string fixes;
    AppendFix(fixes, 1, 2, "111");
    std::string expected = json;
    expected.replace(expected.find(first), first.size(),
                     R"({"sku":"A1","n":1,"meta":{"barcode":"111"}})");
    auto got = Write(u, {fixes}, 5);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(*got, expected);
  }
}

// XLSX: a workbook again, with the upload's sheet name and the fixes in its cells.
TEST(CleanedFileTest, XlsxIsAWorkbookWithTheSheetNameAndTheFixes) {
  FileCheck source;
  source.format = FileFormat::kXlsx;
  source.header = {"sku", "title"};
  const std::string book = Expected(source, {{"x1", "Blue"}, {"A2", "Red"}}, {}, {}, "Produkte");
  const Upload u = MakeUpload(FileFormat::kXlsx, book, 100);
  std::string fixes;
  AppendFix(fixes, 1, 0, "X1");
  auto got = Write(u, {fixes});
  ASSERT_TRUE(got.ok()) << got.status().message();
  auto back = ingest::ScanFile(FileFormat::kXlsx, *got);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->sheet_name, "Produkte");
  EXPECT_EQ(back->data_rows, 2u);
  auto reader = ingest::MakeRowReader(FileFormat::kXlsx);
  reader->Feed(*got);
  reader->Finish();
  std::vector<std::string> skus;
  while (true) {
    auto s = reader->Next();
    ASSERT_TRUE(s.ok());
    if (*s != ingest::ReadState::kRow) break;
    skus.emplace_back(reader->row()[0]);
  }
  EXPECT_EQ(skus, (std::vector<std::string>{"X1", "A2"}));
}

// XML: the feed itself, with only the fixed values written anew, however the upload, the fixes
// and the parts asked for are cut.
TEST(CleanedFileTest, XmlIsTheFeedWithTheFixedValuesInPlace) {
  auto feed = [](const std::string& price, const std::string& title) {
    return "<?xml version=\"1.0\"?>\n<rss xmlns:g=\"http://base.google.com/ns/1.0\" "
           "version=\"2.0\"><channel><!-- c -->\n<item><g:id>A1</g:id><g:price>" +
           price + "</g:price></item>\n<item><g:id>A2</g:id><g:title><![CDATA[" + title +
           "]]></g:title></item>\n</channel></rss>\n";
  };
  const std::string upload = feed("12,50", "Mug");
  for (size_t piece : {7, 1 << 20}) {
    for (size_t want : {10, 1 << 20}) {
      SCOPED_TRACE(std::to_string(piece) + " " + std::to_string(want));
      const Upload u = MakeUpload(FileFormat::kXml, upload, piece);
      std::string first, second;
      AppendFix(first, 1, 1, "12.50");     // price
      AppendFix(second, 2, 2, "Mug & Co");  // title
      auto got = Write(u, {first, second}, want);
      ASSERT_TRUE(got.ok()) << got.status().message();
      EXPECT_EQ(*got, feed("12.50", "Mug & Co"));
      auto none = Write(u, {});
      ASSERT_TRUE(none.ok()) << none.status().message();
      EXPECT_EQ(*none, upload);
    }
  }
}

// Fixes that do not fit the upload mean the stored job is damaged: an error, never a file that
// silently lacks them.
// Issue 36: neutralised, a CSV keeps its bytes but for the cells that start like a formula (a
// fixed value included), which get a leading '; a plain negative number is left alone.
TEST(CleanedFileTest, NeutralisedCsvKeepsItsBytesButForFormulaCells) {
  const std::string csv = "sku;note;stock\r\n=1+1;\"@SUM(1;2)\";-3\r\n\r\nA2;ok;+1 555\r\nA3;x;4\r\n";
  for (size_t piece : {5, 1 << 20}) {
    SCOPED_TRACE(piece);
    const Upload u = MakeUpload(FileFormat::kCsv, csv, piece);
    std::string fixes;
    AppendFix(fixes, 3, 1, "-x");  // a fix that starts like a formula is neutralised too
    auto got = Write(u, {fixes}, 1 << 20, ingest::FormulaCells::kNeutralise);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(*got,
              "sku;note;stock\r\n'=1+1;\"'@SUM(1;2)\";-3\r\n\r\nA2;ok;'+1 555\r\n"
              "A3;'-x;4\r\n");
    auto kept = Write(u, {fixes});
    ASSERT_TRUE(kept.ok());
    EXPECT_EQ(*kept,
              "sku;note;stock\r\n=1+1;\"@SUM(1;2)\";-3\r\n\r\nA2;ok;+1 555\r\nA3;-x;4\r\n");
  }
  // A header that starts like a formula is written again by RowWriter, in the file's dialect.
  const std::string bad_header = "\xEF\xBB\xBF=sku,title\r\nA1,Mug\r\n";
  const Upload h = MakeUpload(FileFormat::kCsv, bad_header, 3);
  auto got = Write(h, {}, 1 << 20, ingest::FormulaCells::kNeutralise);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, "\xEF\xBB\xBF'=sku,title\r\nA1,Mug\r\n");
  EXPECT_EQ(*Write(h, {}), bad_header);
  // JSON is no spreadsheet: as it was.
  const Upload j = MakeUpload(FileFormat::kNdjson, "{\"a\":\"=1\"}\n", 4);
  EXPECT_EQ(*Write(j, {}, 1 << 20, ingest::FormulaCells::kNeutralise), "{\"a\":\"=1\"}\n");
}

TEST(NeutraliseFormulasTest, OneFixPerColumnTheLastWinning) {
  const std::vector<std::string_view> row = {"=a", "b", "c", "-5"};
  std::vector<std::pair<uint32_t, std::string>> fixes = {{1, "@x"}, {1, "y"}, {2, "+z"}};
  NeutraliseFormulas(row, &fixes);
  EXPECT_EQ(fixes, (std::vector<std::pair<uint32_t, std::string>>{
                       {0, "'=a"}, {1, "y"}, {2, "'+z"}}));
}

TEST(CleanedFileTest, FixesThatDoNotFitTheUploadAreAnError) {
  const std::string csv = "sku,title\nx1,Blue\nA2,Red\n";
  const Upload u = MakeUpload(FileFormat::kCsv, csv, 1 << 20);
  auto expect_damaged = [&](const std::vector<std::string>& fixes, const std::string& what) {
    auto got = Write(u, fixes);
    ASSERT_FALSE(got.ok()) << what;
    EXPECT_EQ(got.status().code(), ErrorCode::kInternal) << what;
    EXPECT_NE(got.status().message().find("damaged"), std::string::npos) << got.status().message();
  };
  std::string past_the_end, past_the_row, out_of_order;
  AppendFix(past_the_end, 3, 0, "X3");
  expect_damaged({past_the_end}, "a row the file does not have");
  AppendFix(past_the_row, 1, 2, "extra");
  expect_damaged({past_the_row}, "a column the row does not have");
  AppendFix(out_of_order, 2, 0, "B2");
  AppendFix(out_of_order, 1, 0, "X1");
  expect_damaged({out_of_order}, "rows out of order");
  expect_damaged({std::string("\x01\x00", 2) + "\x05" + "ab"}, "a cut-off value");
}

// The store's errors come back as they are (the API turns them into a status, or cuts the
// download off), and stay: a second call does not skip the piece that failed.
TEST(CleanedFileTest, StoreErrorsArePassedOnAndStay) {
  const Upload u = MakeUpload(FileFormat::kCsv, "sku\nx1\nx2\n", 4);
  int reads = 0;
  CleanedFile file(
      u.job,
      [&](int64_t i) -> Result<std::string> {
        ++reads;
        if (i == 1) return Status(ErrorCode::kUnavailable, "Redis is down");
        return u.pieces.at(static_cast<size_t>(i));
      },
      [](int64_t) { return Result<std::optional<std::string>>(std::optional<std::string>()); });
  std::string out;
  auto more = file.Next(&out, 1 << 20);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), ErrorCode::kUnavailable);
  const int reads_then = reads;
  more = file.Next(&out, 1 << 20);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(reads, reads_then);

  CleanedFile fixes_down(
      u.job, [&](int64_t i) { return Result<std::string>(u.pieces.at(static_cast<size_t>(i))); },
      [](int64_t) -> Result<std::optional<std::string>> {
        return Status(ErrorCode::kUnavailable, "Redis is down");
      });
  out.clear();
  more = fixes_down.Next(&out, 1 << 20);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace dq::report

namespace dq::report {
namespace {

// One small file per source, written as the platform writes its exports (quoting it does not
// need, CRLF, a BOM, ';' or TAB, blank lines, no final line end): with no fixes the cleaned file
// is the upload, byte for byte, however it is cut into pieces.
struct Sample {
  const char* source;
  FileFormat format;
  const char* bytes;
};

const Sample kSamples[] = {
    {"shopify_products", FileFormat::kCsv,
     "Handle,Title,Body (HTML),Vendor,Variant SKU,Variant Grams,Variant Price,Image Src\n"
     "gloves,Gardening Gloves,\"<p>Soft,\n warm</p>\",Acme,GL-G,0.0,9.00,https://c.example/g.jpg\n"
     "gloves,,,,GL-Y,0.0,9.00,\n"
     "gloves,,,,,,,https://c.example/z.jpg\n"},
    {"shopify_customers", FileFormat::kCsv,
     "First Name,Last Name,Email,Accepts Email Marketing,Phone,Total Spent\r\n"
     "Ann,Lee,ann@example.org,yes,'+12025550123,10.00\r\n"},
    {"woocommerce", FileFormat::kCsv,
     "\xEF\xBB\xBFID,Type,SKU,Name,\"In stock?\",Stock,\"Weight (lbs)\",\"Regular price\","
     "Images,Parent\r\n"
     "44,variable,woo-vneck-tee,\"V-Neck T-Shirt\",1,,.5,,\"https://w.example/a.jpg, "
     "https://w.example/b.jpg\",\r\n"
     "76,variation,woo-vneck-tee-red,\"V-Neck T-Shirt - Red\",1,,,20,"
     "https://w.example/a.jpg,woo-vneck-tee\r\n"},
    {"magento2", FileFormat::kCsv,
     "sku,store_view_code,attribute_set_code,product_type,name,weight,visibility,price,"
     "additional_attributes\n"
     "24-WG085,,Default,simple,Strap,1.23,\"Catalog, Search\",14,\"has_options=1,"
     "quantity_and_stock_status=In Stock\"\n"
     "24-WG085_Group,,Default,grouped,Set,,\"Catalog, Search\",,"},
    {"prestashop", FileFormat::kCsv,
     "Product ID;Active (0/1);Name *;Price tax excluded;Reference #;EAN13;Weight;"
     "Image URLs (x,y,z...)\n"
     "1;1;iPod Nano;100;RP-demo_1;1234567890123;0.068357;http://localhost/p/15.jpg,"
     "http://localhost/p/23.jpg\n\n"
     "2;1;iPod shuffle;60;RP-demo_2;1234567890123;0.027563;\n"},
    {"bigcommerce", FileFormat::kCsv,
     "Item,ID,Name,Type,SKU,Inventory Tracking,Price,Weight\n"
     "Product,111,Mug,physical,MUG,none,10.00,1\nVariant,,,,MUG-RED,,11.00,\n"},
    {"google_merchant", FileFormat::kTsv,
     "id\ttitle\tavailability\tprice\timage_link\tshipping_weight\n"
     "A-1\tShirt\tin stock\t15.00 USD\thttps://g.example/1.jpg\t0.3 kg\n"},
    {"meta_catalog", FileFormat::kCsv,
     "id,title,availability,condition,price,link,image_link,fb_product_category\n"
     "A-1,\"Shirt\",in stock,new,15.00 USD,https://m.example/1,https://m.example/1.jpg,"
     "\"Clothing & Accessories > Clothing\"\n"},
    {"generic", FileFormat::kCsv, "sku,price\n\"A-1\",\"10\"\nA-2,3\n\n\n"},
    // Meta's template: a description row (a comment) above the header; kept as it was.
    {"meta_catalog", FileFormat::kCsv,
     "\xEF\xBB\xBF# Required | A unique ID | max 100,\"# Required | A title, short\",# Optional\r\n"
     "id,title,price\r\nA-1,Shirt,10.00 USD\r\n"},
    // Records with more and fewer fields than the header: copied as they were.
    {"shopify_products", FileFormat::kCsv,
     "Handle,Title,Variant SKU,Variant Price,Image Src\n"
     "a,A,A1,9.00,https://c.example/a.jpg,,g\n"
     "a,,A2\n"},
};

TEST(CleanedFileTest, EverySourceSampleWithoutFixesComesBackByteForByte) {
  for (const Sample& s : kSamples) {
    for (size_t piece : {size_t{5}, size_t{64}, size_t{1 << 20}}) {
      SCOPED_TRACE(std::string(s.source) + ", pieces of " + std::to_string(piece));
      const Upload u = MakeUpload(s.format, s.bytes, piece);
      auto got = Write(u, {}, 16);
      ASSERT_TRUE(got.ok()) << got.status().message();
      EXPECT_EQ(*got, s.bytes);
    }
  }
}

TEST(CleanedFileTest, AFixedRowKeepsItsOtherCellsAsTheyWereWritten) {
  const std::string csv =
      "\xEF\xBB\xBFID,Type,SKU,Name,\"Regular price\"\r\n"
      "44,simple,woo-a,\"Hoodie\",\"12,5\"\r\n"
      "45,simple,woo-b,\"Cap\",3\r\n";
  std::string fixes;
  AppendFix(fixes, 1, 4, "12.50");
  AppendFix(fixes, 2, 2, "WOO-B");
  const Upload u = MakeUpload(FileFormat::kCsv, csv, 7);
  auto got = Write(u, {fixes});
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got,
            "\xEF\xBB\xBFID,Type,SKU,Name,\"Regular price\"\r\n"
            "44,simple,woo-a,\"Hoodie\",\"12.50\"\r\n"
            "45,simple,WOO-B,\"Cap\",3\r\n");
}

// A fix after comment lines and in a record with an extra field: only the fixed cell changes.
TEST(CleanedFileTest, CommentLinesAndARaggedRecordSurviveAFix) {
  const std::string csv =
      "# ref_application_id 1234\n"
      "id,title,price\n"
      "A-1,Shirt,\"1,299.00 USD\",extra\n";
  std::string fixes;
  AppendFix(fixes, 1, 2, "1299.00 USD");
  const Upload u = MakeUpload(FileFormat::kCsv, csv, 5);
  auto got = Write(u, {fixes});
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got,
            "# ref_application_id 1234\n"
            "id,title,price\n"
            "A-1,Shirt,\"1299.00 USD\",extra\n");
}

// A CSV download holds one upload piece and the row it ends in, not the piece twice over: the
// reader reads each piece where the cleaned file keeps it. Here 64 KiB pieces, parts of 16 KiB,
// fixes on every tenth row; the file comes back whole and correct all the same.
TEST(CleanedFileTest, ACsvDownloadHoldsAboutOnePiece) {
  constexpr size_t kPiece = 64 << 10;
  constexpr size_t kWant = 16 << 10;
  std::string csv = "sku,title,price\n";
  std::string expected = csv;
  std::string fixes;
  for (int r = 1; r <= 20000; ++r) {
    const std::string sku = "sku-" + std::to_string(r);
    const std::string rest = ",\"Shirt, size " + std::to_string(r % 7) + "\",1" +
                             std::to_string(r % 100) + ".00\n";
    csv += sku + rest;
    if (r % 10 == 0) {
      AppendFix(fixes, static_cast<uint64_t>(r), 0, "SKU-" + std::to_string(r));
      expected += "SKU-" + std::to_string(r) + rest;
    } else {
      expected += sku + rest;
    }
  }
  const Upload u = MakeUpload(FileFormat::kCsv, csv, kPiece);
  ASSERT_GE(u.pieces.size(), 8u);
  CleanedFile file(
      u.job, [&](int64_t i) { return Result<std::string>(u.pieces.at(static_cast<size_t>(i))); },
      [&](int64_t i) -> Result<std::optional<std::string>> {
        if (i > 0) return std::optional<std::string>();
        return std::optional<std::string>(fixes);
      });
  std::string out;
  size_t most = 0;
  while (true) {
    auto more = file.Next(&out, kWant);
    ASSERT_TRUE(more.ok()) << more.status().message();
    most = std::max(most, file.held_bytes());
    if (!*more) break;
  }
  EXPECT_EQ(out, expected);
  // A piece, a row, a part being written (a little over kWant), and the fixes as stored and
  // decoded (2,000 of them): the piece is held once (it was held three times over: 318 KB).
  EXPECT_LT(most, kPiece + 2 * kWant + fixes.size() + 2048 * sizeof(Fix) + 4096) << most;
}

TEST(SpliceCsvRecordTest, RewritesOnlyTheFixedCells) {
  using Fixes = std::vector<std::pair<uint32_t, std::string>>;
  EXPECT_EQ(SpliceCsvRecord("a,\"b\",c\r\n\n", ',', Fixes{{1, "x,y"}}), "a,\"x,y\",c\r\n\n");
  EXPECT_EQ(SpliceCsvRecord("a,b,c\n", ',', Fixes{{0, "say \"hi\""}, {2, ""}}),
            "\"say \"\"hi\"\"\",b,\n");
  EXPECT_EQ(SpliceCsvRecord("a;\"b;\"\"q\"\"\";c", ';', Fixes{{2, "z"}}), "a;\"b;\"\"q\"\"\";z");
  EXPECT_EQ(SpliceCsvRecord("a,b\n", ',', Fixes{{3, "d"}}), "a,b,,d\n");
  EXPECT_EQ(SpliceCsvRecord("a,b\n", ',', Fixes{{1, "first"}, {1, "last"}}), "a,last\n");
  EXPECT_EQ(SpliceCsvRecord("\"multi\nline\",2\n", ',', Fixes{{1, "3"}}), "\"multi\nline\",3\n");
  EXPECT_EQ(SpliceCsvRecord("a\tb\n", '\t', Fixes{{0, " padded"}}), "\" padded\"\tb\n");
}

}  // namespace
}  // namespace dq::report
