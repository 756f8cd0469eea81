// Workbooks made by openpyxl and LibreOffice (tests/data/xlsx/make_corpus.py, run by the CTest
// fixture xlsx_corpus before this test), read through PrepareFile and the XLSX reader.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dq/ingest/upload_decode.h"
#include "ingest_test_util.h"

namespace dq::ingest {
namespace {

using testing::ReadAll;
using testing::Rows;

std::string Corpus(const std::string& name) {
  const char* dir = std::getenv("DQ_XLSX_CORPUS");
  std::ifstream in(std::string(dir ? dir : "xlsx_corpus") + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

testing::ReadOutcome Read(const std::string& name, const ReaderLimits& limits = {}) {
  const std::string bytes = Corpus(name);
  auto prepared = PrepareFile("", name, bytes, 50 << 20);
  if (!prepared.ok()) {
    testing::ReadOutcome o;
    o.code = prepared.status().code();
    o.message = prepared.status().message();
    return o;
  }
  EXPECT_EQ(prepared->format, FileFormat::kXlsx);
  return ReadAll(prepared->format, prepared->data(), 0, limits);
}

TEST(XlsxCorpus, OpenpyxlProducts) {
  auto out = Read("products.xlsx");
  ASSERT_EQ(out.code, ErrorCode::kOk) << out.message;
  EXPECT_EQ(out.header, (std::vector<std::string>{"SKU", "Title", "Price", "GTIN", "Stock",
                                                  "Expiry Date", "Active", "Weight (kg)"}));
  ASSERT_EQ(out.rows.size(), 4u);  // the blank row is skipped
  EXPECT_EQ(out.rows[0], (std::vector<std::string>{"A-1", "Oak chair", "19.99", "4006381333931",
                                                   "10", "2026-12-31", "TRUE", "1.2"}));
  EXPECT_EQ(out.rows[1][3], "36000291452");
  EXPECT_EQ(out.rows[1][4], "3");
  EXPECT_EQ(out.rows[2][1], "Lamp \xC3\xA9t\xC3\xA9 \xE2\x80\x9CLux\xE2\x80\x9D");
  EXPECT_EQ(out.rows[2][5], "2026-03-01 14:30:00");
  EXPECT_EQ(out.rows[3][2], "1E+20");
  EXPECT_EQ(out.rows[3][3], "12345678901234");
  EXPECT_EQ(out.rows[3][5], "2023-03-15");  // serial 45000 with dd/mm/yyyy
}

TEST(XlsxCorpus, InlineStringsRichTextAndSparseRows) {
  auto out = Read("inline.xlsx");
  ASSERT_EQ(out.code, ErrorCode::kOk) << out.message;
  EXPECT_EQ(out.header, (std::vector<std::string>{"sku", "title"}));
  EXPECT_EQ(out.rows, (Rows{{"X&1", "TRUE"}}));
}

TEST(XlsxCorpus, LibreOfficeConverted) {
  if (Corpus("lo_source.xlsx").empty()) GTEST_SKIP() << "LibreOffice not installed";
  auto out = Read("lo_source.xlsx");
  ASSERT_EQ(out.code, ErrorCode::kOk) << out.message;
  EXPECT_EQ(out.header, (std::vector<std::string>{"sku", "title", "price", "gtin", "expiry_date"}));
  ASSERT_EQ(out.rows.size(), 2u);
  EXPECT_EQ(out.rows[0][1], "Caf\xC3\xA9 mug");
  EXPECT_EQ(out.rows[0][2], "4.5");
  EXPECT_EQ(out.rows[0][3], "4006381333931");
  EXPECT_EQ(out.rows[0][4], "2026-12-31");  // LibreOffice recognises the date
}

TEST(XlsxCorpus, RowLimit) {
  ReaderLimits limits;
  limits.max_xlsx_rows = 10;
  auto out = Read("rows_20.xlsx", limits);
  EXPECT_EQ(out.code, ErrorCode::kInvalidRequest);
  EXPECT_NE(out.message.find("more than 10 data rows"), std::string::npos) << out.message;
  EXPECT_EQ(Read("rows_20.xlsx").rows.size(), 20u);
}

TEST(XlsxCorpus, DamagedFilesAreClearErrors) {
  auto none = Read("no_sheets.xlsx");
  EXPECT_EQ(none.code, ErrorCode::kInvalidRequest);
  EXPECT_NE(none.message.find("no sheets"), std::string::npos) << none.message;
  auto cut = Read("truncated.xlsx");
  EXPECT_EQ(cut.code, ErrorCode::kInvalidRequest);
  EXPECT_NE(cut.message.find("truncated"), std::string::npos) << cut.message;
  auto enc = Read("encrypted.xlsx");
  EXPECT_EQ(enc.code, ErrorCode::kInvalidRequest);
  EXPECT_NE(enc.message.find("password"), std::string::npos) << enc.message;
}

// A cell's error names its sheet row and cell, as a person finds it in the spreadsheet.
TEST(XlsxCorpus, ACellsErrorNamesTheCell) {
  auto out = Read("missing_shared_string.xlsx");
  EXPECT_EQ(out.code, ErrorCode::kInvalidRequest);
  EXPECT_NE(out.message.find("xlsx: row 2 (cell B2): shared string 7 does not exist."),
            std::string::npos)
      << out.message;
}

}  // namespace
}  // namespace dq::ingest
